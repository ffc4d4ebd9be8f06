use crate::rule::{Context, Sink, declare_rule};
use crate::rules::crossfile::{Nested, declared_in, nested_of};
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that a `get_attr` of a resource whose `type` is a nested template (a template
    /// path, or a type an environment maps to a template) names an output of that template,
    /// or an attribute of one of its resources (`resource.NAME.ATTRIBUTE`).
    ///
    /// Heat's `TemplateResource.get_attribute` looks every other name up among the nested
    /// stack's outputs. Not reported: `show` and `OS::stack_id`, which that code also looks up
    /// there but which hotfix could not confirm with a created stack; a resource with a
    /// `condition`; an attribute name given by a function. The environments are those given
    /// with `-e` or a `[[stacks]]` entry, else the tree's closest to the template (a name is
    /// reported when every template they map the type to lacks it).
    ///
    /// ## Why is this bad?
    /// Heat validates the template and starts creating the stack; once the nested stack exists
    /// the attribute cannot be resolved: `The Referenced Attribute (server address) is
    /// incorrect.` A resource whose properties use it fails, and the stack with it. In an
    /// output's value it is a warning: the stack is created, and the output shows that error
    /// (Heat's `Resource.node_data` skips an attribute that does not exist; the output's error
    /// is kept as its `output_error`).
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: nested/server.yaml
    ///   address:
    ///     type: OS::Heat::Value
    ///     properties:
    ///       value: {get_attr: [server, address]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: nested/server.yaml
    ///   address:
    ///     type: OS::Heat::Value
    ///     properties:
    ///       value: {get_attr: [server, first_address]}
    /// ```
    pub(crate) static RULE = {
        code: "X006",
        name: "unknown-nested-output",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(files) = cx.files else {
        return;
    };
    let doc = cx.doc;
    for (resource, attribute_node, attribute, shown) in crate::rules::util::attribute_uses(cx) {
        if doc.get(resource.value, "condition").is_some() {
            continue;
        }
        let Some(type_name) = cx.template.resource_type(resource) else {
            continue;
        };
        if attribute.starts_with("resource.") || matches!(attribute, "show" | "OS::stack_id") {
            continue;
        }
        let nested = nested_of(cx, files, resource, type_name);
        // With several candidate templates, a mistake only when none has it.
        let has = |n: &Nested| n.facts.outputs.iter().any(|o| o == attribute);
        let Some(lacking) = nested.first().filter(|_| !nested.iter().any(has)) else {
            continue;
        };
        let diagnostic = sink.report(
            cx.span(attribute_node),
            format!(
                "`{attribute}` is not an output of {}",
                Nested::describe_all(&nested)
            ),
        );
        let when = if shown {
            " (when the output is shown: the stack is created)"
        } else {
            ""
        };
        let heat = format!(
            "Heat, once the nested stack exists: `The Referenced Attribute ({} {attribute}) is \
             incorrect.`{when}",
            resource.name
        );
        if shown {
            diagnostic.severity = hotfix_diagnostics::Severity::Warning;
        }
        let file = lacking.file();
        if let Some(at) = declared_in(files, &lacking.path, &["outputs"]) {
            let message = if at.found {
                format!("outputs of `{file}`")
            } else {
                format!("`{file}` has no `outputs` section")
            };
            diagnostic.file_label(at.path.as_str(), at.text.clone(), at.span, message);
        }
        match did_you_mean(attribute, lacking.facts.outputs.iter().map(String::as_str)) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
            None if lacking.facts.outputs.is_empty() => {
                diagnostic.help(format!("`{file}` has no outputs; {heat}"))
            }
            None => diagnostic.help(format!(
                "add an output `{attribute}` to `{file}`, or name one it has; {heat}"
            )),
        };
    }
}
