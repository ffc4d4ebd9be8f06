use hotfix_hot::key_name;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::crossfile::{declared_in, nested_of};

declare_rule! {
    /// ## What it does
    /// Checks that a resource whose `type` is a nested template (a template path, or a type an
    /// environment maps to a template) passes every parameter of that template that has no
    /// default (`default: null` is none), unless an environment's `parameter_defaults` sets it.
    ///
    /// It runs only when the environments of the stack are given (`hotfix lint TEMPLATE -e
    /// ENV`): only then is every `parameter_defaults` known. Without them a deployment may
    /// supply the value in an environment the tree does not hold (TripleO generates its
    /// passwords and container images into one). Not checked: a resource with a `condition`
    /// (Heat does not validate it when the condition is false), an external resource (with an
    /// `external_id`: Heat checks none of its properties) and `properties` given by a function.
    ///
    /// ## Why is this bad?
    /// Heat accepts the template at `template validate` and refuses the stack when it creates
    /// it: `Property error: resources.server.properties: Property flavor not assigned`.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: nested/server.yaml
    ///     properties: {image: cirros}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: nested/server.yaml
    ///     properties: {image: cirros, flavor: m1.small}
    /// ```
    pub(crate) static RULE = {
        code: "X005",
        name: "missing-nested-parameter",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(files) = cx.files else {
        return;
    };
    let Some(registry) = files.registry.map(hotfix_stack::LazyRegistry::get) else {
        return;
    };
    if registry.knowledge() != Some(hotfix_stack::Knowledge::Given) {
        return;
    }
    let doc = cx.doc;
    for resource in &cx.template.resources {
        let Some(type_name) = cx.template.resource_type(resource) else {
            continue;
        };
        // Heat checks no property of an external resource.
        if doc.get(resource.value, "condition").is_some()
            || crate::rules::util::is_external(cx, resource)
        {
            continue;
        }
        let passed: Vec<String> = match doc.get(resource.value, "properties") {
            None => Vec::new(),
            Some(properties) => {
                let properties = doc.resolve(properties);
                if doc.raw_entries(properties).is_none()
                    || cx.semantic.call_at(properties).is_some()
                {
                    continue;
                }
                doc.entries(properties)
                    .iter()
                    .map(|e| key_name(doc, e.key))
                    .collect()
            }
        };
        for nested in nested_of(cx, files, resource, type_name).iter() {
            let missing: Vec<&str> = nested
                .facts
                .parameters
                .iter()
                .filter(|p| {
                    !p.has_default
                        && !passed.contains(&p.name)
                        && !registry.has_parameter_default(&p.name)
                })
                .map(|p| p.name.as_str())
                .collect();
            let Some(first) = missing.first() else {
                continue;
            };
            let at = doc
                .get_key(resource.value, "properties")
                .or_else(|| doc.get_key(resource.value, "type"))
                .unwrap_or(resource.key);
            let list = missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let plural = if missing.len() == 1 { "" } else { "s" };
            let diagnostic = sink
                .report(
                    cx.span(at),
                    format!(
                        "`{}` does not pass {list}, parameter{plural} of {} without a default",
                        resource.name,
                        nested.describe()
                    ),
                )
                .help(format!(
                    "pass {them} under `properties`, or set {them} in an environment's \
                 `parameter_defaults`; Heat, when it creates the stack: `Property error: \
                 resources.{}.properties: Property {first} not assigned`",
                    resource.name,
                    them = if missing.len() == 1 { "it" } else { "them" },
                ));
            if let Some(at) = declared_in(files, &nested.path, &["parameters", first])
                && at.found
            {
                diagnostic.file_label(
                    at.path.as_str(),
                    at.text.clone(),
                    at.span,
                    format!("`{first}` declared here, without a default"),
                );
            }
            // One finding a resource: the first template that misses some.
            break;
        }
    }
}
