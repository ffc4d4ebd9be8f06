//! The stack views of a request's tree: what `hotfix eval` prints for a template, and the graph
//! `hotfix graph` draws, over the files in memory.

use std::collections::BTreeMap;
use std::sync::Arc;

use hotfix_eval::Inputs;
use hotfix_hot::{Function, Semantic, Template};
use hotfix_stack::graph::{FileShape, Graph, Stack};
use hotfix_stack::{FileKind, FileSource as _, StackPath};
use serde_json::{Value, json};

use crate::Tree;

/// The environments a request names (`"environments": [PATH, …]`), in the order
/// `openstack stack create -e` takes them; each must be one of the files.
pub(crate) fn environments(request: &Value, tree: &Tree) -> Result<Vec<StackPath>, String> {
    request["environments"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|path| {
            let path = path
                .as_str()
                .ok_or_else(|| format!("an environment is not a path: {path}"))?;
            if tree.text(path).is_none() {
                return Err(format!("the environment `{path}` is not one of the files"));
            }
            Ok(StackPath::new(path))
        })
        .collect()
}

/// `hotfix eval PATH -e ENV… -P NAME=VALUE…`: the evaluation (`json`, and `yaml` as the
/// command line prints it) and each problem with its place.
pub(crate) fn eval(request: &Value, tree: &Tree, path: &str, text: &str) -> Result<Value, String> {
    let doc = match hotfix_yaml::parse(text) {
        Ok(doc) => doc,
        Err(err) => return Ok(json!({ "error": err.located(path, text.as_bytes()) })),
    };
    let mut inputs = Inputs::default();
    for environment in environments(request, tree)? {
        let Some(env_text) = tree.text(environment.as_str()) else {
            continue;
        };
        let env = match hotfix_yaml::parse_environment(&env_text) {
            Ok(Some(env)) => env,
            Ok(None) => continue,
            Err(err) => {
                return Ok(
                    json!({ "error": err.located(environment.as_str(), env_text.as_bytes()) }),
                );
            }
        };
        if let Err(why) = inputs.add_environment(&env) {
            return Ok(json!({ "error": format!("{}: {why}", environment.as_str()) }));
        }
    }
    if let Some(parameters) = request["parameters"].as_object() {
        for (name, value) in parameters {
            let value = value
                .as_str()
                .ok_or_else(|| format!("the value of the parameter `{name}` is not a string"))?;
            inputs
                .params
                .push((name.clone(), hotfix_eval::Value::Str(value.to_owned())));
        }
    }
    inputs.files = get_files(&doc, tree, path);
    let evaluation = hotfix_eval::evaluate(&doc, &inputs);
    let problems: Vec<Value> = evaluation
        .problems
        .iter()
        .map(|problem| {
            let mut object = json!({
                "path": problem.path,
                "message": problem.message,
                "class": problem.class,
            });
            if let Some(span) = problem.span {
                let at = doc.lines().position(doc.source(), span.start);
                object["line"] = json!(at.line);
                object["column"] = json!(at.char_col);
            }
            object
        })
        .collect();
    Ok(json!({
        "json": evaluation.json,
        "yaml": hotfix_eval::to_yaml(&evaluation.json),
        "problems": problems,
    }))
}

/// The files `get_file` names with a literal path, read relative to the template as the
/// client reads them; one that is not among the files is left out (Heat then reports it).
fn get_files(doc: &hotfix_yaml::Document, tree: &Tree, path: &str) -> BTreeMap<String, String> {
    let parsed = Template::new(doc);
    let semantic = Semantic::new(&parsed);
    let folder = StackPath::new(path).parent();
    let mut files = BTreeMap::new();
    for call in semantic.calls_to(Function::GetFile) {
        let Some(key) = doc.str_value(call.args) else {
            continue;
        };
        let target = folder.join(key.strip_prefix("file://").unwrap_or(key));
        if let Some(text) = tree.text(target.as_str()) {
            files.insert(key.to_owned(), text.to_string());
        }
    }
    files
}

/// `hotfix graph PATH -e ENV…`: the stack graph with `PATH` as the top template, as JSON
/// (`graph`, the shape `hotfix graph --format json` prints) and DOT (`dot`).
pub(crate) fn graph(request: &Value, tree: &Tree, path: &str) -> Result<Value, String> {
    let applied = environments(request, tree)?;
    let mut shapes = BTreeMap::new();
    for (file, text) in &tree.files {
        shapes.insert(file.clone(), FileShape::of(Arc::clone(text)));
    }
    let given = shapes
        .iter()
        .map(|(file, shape)| (file.clone(), Some(shape.facts.clone())))
        .collect();
    let built = hotfix_stack::Tree::build(&tree.source, tree.roots.clone(), given);
    // Files the links lead to that the request does not hold are drawn as missing.
    for file in built.files.keys() {
        if !shapes.contains_key(file)
            && let Some(text) = tree.source.read(file)
        {
            shapes.insert(file.clone(), FileShape::of(text));
        }
    }
    let top = StackPath::new(path);
    let top: Vec<StackPath> = shapes
        .get(&top)
        .is_some_and(|shape| shape.facts.kind == FileKind::Template)
        .then_some(top)
        .into_iter()
        .collect();
    let environments = (!applied.is_empty()).then_some(applied.as_slice());
    let registry =
        hotfix_stack::graph::registry_of(&tree.source, &tree.roots, &shapes, environments);
    let stack = Stack {
        environments,
        top: &top,
        registry: &registry,
        builtin: &hotfix_linter::heat_has_type,
    };
    let graph = Graph::build(&built, &shapes, stack);
    let json: Value = serde_json::from_str(&hotfix_stack::render::json(&graph))
        .map_err(|err| format!("the graph is not JSON: {err}"))?;
    Ok(json!({ "graph": json, "dot": hotfix_stack::render::dot(&graph) }))
}
