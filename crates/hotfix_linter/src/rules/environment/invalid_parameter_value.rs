use hotfix_hot::parameter_schema::{ParameterSchema, ParameterType};
use hotfix_yaml::{Document, NodeId};

use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks the values an environment file gives under `parameters` (and
    /// `parameter_defaults`) against the parameters of the template it is given with (`-e`, or a
    /// `[[stacks]]` entry), as Heat checks them when it creates the stack: each value converted
    /// to the parameter's type (`number`, `boolean`, `json`, `comma_delimited_list`) and held
    /// to its constraints, and a parameter without a default given null.
    ///
    /// The environments given with it are taken as Heat merges them (a later one's value
    /// replaces an earlier one's; a value under `parameters` wins over `parameter_defaults`),
    /// and a value is reported in the file Heat takes it from. Only the parameters of the
    /// template itself are checked (not those of its nested templates), and nothing when an
    /// environment has `parameter_merge_strategies`. A value given on the command line (`--parameter`) replaces the file's: the
    /// file's value is still wrong.
    ///
    /// ## Why is this bad?
    /// Heat refuses the stack when it creates it: `Parameter 'count' is invalid: could not
    /// convert string to float: 'three'`, `Parameter 'debug' is invalid: Unrecognized value
    /// 'maybe', acceptable values are: …`, `The Parameter (key_name) was not provided.` It
    /// stops at the first; this rule reports every one.
    ///
    /// ## Example
    /// ```yaml
    /// # with a template declaring `count: {type: number}`
    /// parameters:
    ///   count: three
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// parameters:
    ///   count: 3
    /// ```
    pub(crate) static RULE = {
        code: "E010",
        name: "invalid-environment-parameter-value",
        severity: Error,
        fix: None,
        scope: Environment,
        check: check,
    };
}

/// At most how many parameters are checked one after another (Heat reports the first wrong
/// one; each is found by evaluating the template again without the ones found before).
const MAX_FOUND: usize = 32;

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let (Some(env), Some(files)) = (cx.environment, cx.files) else {
        return;
    };
    if files.stack_templates.is_empty()
        || (env.section("parameters").is_none() && env.section("parameter_defaults").is_none())
    {
        return;
    }
    let doc = cx.doc;
    // Every environment given with this one, in order, loaded (this one as it is linted).
    let others: Vec<(bool, Option<Document>)> = if files.stack_environments.is_empty() {
        vec![(true, None)]
    } else {
        files
            .stack_environments
            .iter()
            .map(|path| {
                if path == files.path {
                    return (true, None);
                }
                let loaded = files
                    .source
                    .read(path)
                    .and_then(|text| hotfix_yaml::parse_environment(&text).ok().flatten());
                (false, loaded)
            })
            .collect()
    };
    let mut given: Vec<Given<'_>> = Vec::new();
    for (own, loaded) in &others {
        let Some(env_doc) = (if *own { Some(doc) } else { loaded.as_ref() }) else {
            // Another environment that does not load: what it sets is not known.
            return;
        };
        // Merge strategies other than replacing a value: not modelled here.
        if env_doc
            .get(env_doc.root(), "parameter_merge_strategies")
            .is_some()
        {
            return;
        }
        given.push(Given::of(env_doc, *own));
    }
    for (template, facts) in files.stack_templates {
        let Some(text) = files.source.read(template) else {
            continue;
        };
        let Ok(template_doc) = hotfix_yaml::parse(&text) else {
            continue;
        };
        check_template(cx, sink, template, facts, &template_doc, &given);
    }
}

/// What one environment given with the stack sets: each name under `parameters` and under
/// `parameter_defaults`, with its value node in that environment's document.
struct Given<'d> {
    doc: &'d Document,
    /// Whether it is the environment linted.
    own: bool,
    parameters: Vec<(String, NodeId)>,
    defaults: Vec<(String, NodeId)>,
}

impl<'d> Given<'d> {
    fn of(doc: &'d Document, own: bool) -> Given<'d> {
        let section = |name: &str| -> Vec<(String, NodeId)> {
            doc.get(doc.root(), name)
                .map(|values| {
                    doc.entries(values)
                        .iter()
                        .filter_map(|e| Some((doc.str_value(e.key)?.to_owned(), e.value)))
                        .collect()
                })
                .unwrap_or_default()
        };
        Given {
            doc,
            own,
            parameters: section("parameters"),
            defaults: section("parameter_defaults"),
        }
    }
}

/// Where the value Heat takes for the parameter `name` is written: the last `parameters`
/// entry of the environments, else the last `parameter_defaults` one.
fn taken_from<'g, 'd>(given: &'g [Given<'d>], name: &str) -> Option<(&'g Given<'d>, NodeId)> {
    let last = |defaults: bool| {
        given.iter().rev().find_map(|g| {
            let list = if defaults { &g.defaults } else { &g.parameters };
            list.iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, node)| (g, *node))
        })
    };
    last(false).or_else(|| last(true))
}

/// The values of `given` Heat refuses for the parameters of `template` (one after another, as
/// Heat would report them once each before is mended): each reported where the linted
/// environment writes it.
fn check_template(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    template: &hotfix_stack::StackPath,
    facts: &hotfix_stack::FileFacts,
    template_doc: &Document,
    given: &[Given<'_>],
) {
    let declared = |name: &str| facts.parameters.iter().any(|p| p.name == name);
    let mut inputs = hotfix_eval::Inputs::default();
    for g in given {
        // Undeclared names are `undeclared-environment-parameter`'s; Heat would stop at them.
        let values = |list: &[(String, NodeId)]| -> Vec<(String, hotfix_eval::Value)> {
            list.iter()
                .filter(|(name, _)| declared(name))
                .map(|(name, node)| (name.clone(), hotfix_eval::Value::from_node(g.doc, *node)))
                .collect()
        };
        inputs.params.extend(values(&g.parameters));
        inputs.parameter_defaults.extend(values(&g.defaults));
    }
    // A parameter without a default that no environment sets is given on the command line:
    // a stand-in of its type takes its place, so that Heat's first refusal is not its absence
    // (each parameter's value is checked on its own).
    for parameter in &facts.parameters {
        let set = given.iter().any(|g| {
            g.parameters
                .iter()
                .chain(&g.defaults)
                .any(|(n, _)| *n == parameter.name)
        });
        if !parameter.has_default && !set {
            inputs
                .params
                .push((parameter.name.clone(), stand_in(parameter.schema.as_ref())));
        }
    }
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..MAX_FOUND {
        let evaluation = hotfix_eval::evaluate(template_doc, &inputs);
        let Some(error) = evaluation.json.get("parameter_error") else {
            break;
        };
        let message = error["error"].as_str().unwrap_or_default();
        let Some(name) = failing_parameter(message).map(str::to_owned) else {
            break;
        };
        if seen.contains(&name) {
            break;
        }
        if let Some((g, at)) = taken_from(given, &name)
            && g.own
        {
            let doc = cx.doc;
            let diagnostic = sink.report(
                cx.span(at),
                format!(
                    "Heat refuses this value of `{name}`, a parameter of `{}`",
                    template.file_name()
                ),
            );
            diagnostic.help(format!(
                "Heat, when it creates the stack: `{message}`{}",
                if is_null(doc, at) {
                    " (null is no value: give one, or remove the entry)"
                } else {
                    ""
                }
            ));
        }
        seen.push(name.clone());
        // Taken out, the next wrong one (if any) is what Heat says then; without a default,
        // its absence would be all Heat says next.
        if !facts
            .parameters
            .iter()
            .any(|p| p.name == name && p.has_default)
        {
            break;
        }
        inputs.params.retain(|(n, _)| *n != name);
        inputs.parameter_defaults.retain(|(n, _)| *n != name);
    }
}

/// A value a parameter of this schema takes, unless a constraint refuses it.
fn stand_in(schema: Option<&ParameterSchema>) -> hotfix_eval::Value {
    use hotfix_eval::Value;
    match schema.map(|s| s.kind) {
        Some(ParameterType::Number) => Value::Int(0),
        Some(ParameterType::Boolean) => Value::Bool(false),
        Some(ParameterType::Json) => Value::Map(Vec::new()),
        Some(ParameterType::String | ParameterType::CommaDelimitedList) | None => {
            Value::Str(String::new())
        }
    }
}

/// The parameter Heat names in its refusal of a parameter's value: `Parameter 'NAME' is
/// invalid: …`, or `The Parameter (NAME) was not provided.`
fn failing_parameter(message: &str) -> Option<&str> {
    if let Some(rest) = message.strip_prefix("Parameter '") {
        return rest.split_once("' is invalid: ").map(|(name, _)| name);
    }
    message
        .strip_prefix("The Parameter (")?
        .strip_suffix(") was not provided.")
}

/// Whether the value at `node` is null.
fn is_null(doc: &Document, node: NodeId) -> bool {
    matches!(
        doc.scalar(doc.resolve(node)).map(|s| &s.value),
        Some(hotfix_yaml::ScalarValue::Null)
    )
}
