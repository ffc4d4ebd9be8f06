use hotfix_stack::StackPath;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::crossfile::{
    Declared, Nested, declared_in, nested_of, nested_of_member, passed_properties,
};
use crate::rules::resources::shared::group_member;
use crate::rules::util::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Checks that every property given to a resource whose `type` is a nested template (a
    /// path relative to the template, or a type an environment's `resource_registry` maps to a
    /// template) is a parameter of that nested template.
    ///
    /// The environments are those given with `-e` or a `[[stacks]]` entry; without them, those
    /// of the tree closest to the template (under its folder, then under each parent): a
    /// property is reported when every template they map the type to lacks it (equally close
    /// environments that map it differently may each be the one deployed).
    ///
    /// So is every property of the member of an `OS::Heat::ResourceGroup` (`resource_def`) or
    /// an `OS::Heat::AutoScalingGroup` (`resource`) whose type is a nested template, which Heat
    /// checks when it creates the stack (unless the group has no member: a `count` of 0).
    ///
    /// A resource with a `condition` is left alone (Heat does not validate it when the
    /// condition is false), and so is an external resource (with an `external_id`: Heat checks
    /// none of its properties) and a nested template hotfix cannot read (missing, rendered
    /// by a deployment, not loadable). It runs where hotfix reads files (the CLI).
    ///
    /// ## Why is this bad?
    /// Heat refuses the stack, at `template validate` already: `Property error:
    /// resources.server.properties: Unknown Property flavour`. A property renamed in the
    /// nested template but not in its parents is the usual cause.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: nested/server.yaml
    ///     properties: {flavour: m1.small}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server:
    ///     type: nested/server.yaml
    ///     properties: {flavor: m1.small}
    /// ```
    pub(crate) static RULE = {
        code: "X003",
        name: "unknown-nested-property",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(files) = cx.files else {
        return;
    };
    for (resource, type_name, properties) in passed_properties(cx) {
        let nested = nested_of(cx, files, resource, type_name);
        let heat = format!(
            "Heat: `Property error: resources.{}.properties",
            resource.name
        );
        report(cx, sink, files, &nested, properties, &heat);
    }
    // The member of a group whose definition's type is a nested template: Heat checks its
    // properties when it creates the stack (it validates a member in a nested stack of one).
    for resource in &cx.template.resources {
        if cx.doc.get(resource.value, "condition").is_some() {
            continue;
        }
        let Some(member) = group_member(cx, resource) else {
            continue;
        };
        let Some(properties) = member.properties else {
            continue;
        };
        let nested = nested_of_member(cx, files, resource, &member);
        let heat = format!(
            "Heat, when it creates the stack: `Property error: {}.properties",
            member.heat_path(&resource.name)
        );
        report(cx, sink, files, &nested, properties, &heat);
    }
}

/// Reports each key of the mapping `properties` that no template of `nested` declares as a
/// parameter (none when `nested` is empty: what they are is not known); `heat` is the start
/// of Heat's message, up to the property's path.
fn report(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    files: &crate::rule::Files<'_>,
    nested: &[Nested],
    properties: hotfix_yaml::NodeId,
    heat: &str,
) {
    let doc = cx.doc;
    // Where each nested template declares its parameters: read again only when a property is
    // reported (rare), once for the resource.
    let mut declared: Vec<(StackPath, Option<Declared>)> = Vec::new();
    for entry in doc.entries(properties) {
        let name = hotfix_hot::key_text(doc, entry.key);
        // With several candidate templates (environments of the tree as close to this file
        // that map the type differently), a mistake only when none declares it.
        let takes_it = |n: &Nested| n.facts.parameters.iter().any(|p| p.name == name);
        let Some(lacking) = nested.first().filter(|_| !nested.iter().any(takes_it)) else {
            continue;
        };
        let diagnostic = sink.report(
            cx.span(entry.key),
            format!(
                "`{name}` is not a parameter of {}",
                Nested::describe_all(nested)
            ),
        );
        let heat = format!("{heat}: Unknown Property {name}`");
        let names = lacking.facts.parameters.iter().map(|p| p.name.as_str());
        let file = lacking.file();
        match did_you_mean(&name, names) {
            Some(suggestion) => diagnostic.help(format!("did you mean `{suggestion}`? {heat}")),
            None if lacking.facts.parameters.is_empty() => {
                diagnostic.help(format!("`{file}` declares no parameters; {heat}"))
            }
            None => diagnostic.help(format!(
                "declare it under `parameters` in `{file}`, or remove it; {heat}"
            )),
        };
        if !declared.iter().any(|(p, _)| *p == lacking.path) {
            declared.push((
                lacking.path.clone(),
                declared_in(files, &lacking.path, &["parameters"]),
            ));
        }
        if let Some((_, Some(at))) = declared.iter().find(|(p, _)| *p == lacking.path) {
            let message = match (at.found, lacking.facts.parameters.is_empty()) {
                (true, false) => format!("parameters of `{file}` declared here"),
                (true, true) => format!("`{file}` declares no parameters here"),
                (false, _) => format!("`{file}` has no `parameters` section"),
            };
            diagnostic.file_label(at.path.as_str(), at.text.clone(), at.span, message);
        }
    }
}
