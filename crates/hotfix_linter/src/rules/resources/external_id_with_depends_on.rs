use hotfix_yaml::{NodeKind, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{NEWTON, call_at, mapping_resources};

declare_rule! {
    /// ## What it does
    /// Checks that a resource with an `external_id` has no `depends_on`.
    ///
    /// ## Why is this bad?
    /// An external resource already exists: Heat adopts it instead of creating it, so it
    /// cannot wait for other resources. Heat refuses the template:
    /// `Invalid dependency with external OS::Heat::None resource: 5d2c…` (the type, then the
    /// external id). An empty `depends_on: []`, or an `external_id` that resolves to an empty
    /// string, is accepted.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   network:
    ///     type: OS::Neutron::Net
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     external_id: 5d2c6a4e-8f0b-4a57-9d6a-0c1b2e3f4a5b
    ///     depends_on: network
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   network:
    ///     type: OS::Neutron::Net
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     external_id: 5d2c6a4e-8f0b-4a57-9d6a-0c1b2e3f4a5b
    /// ```
    pub(crate) static RULE = {
        code: "H607",
        name: "external-id-with-depends-on",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    // Before newton `external_id` is not a resource key at all (`unknown-resource-key`).
    if version < NEWTON {
        return;
    }
    let doc = cx.doc;
    for resource in mapping_resources(cx).filter(|r| !cx.never_created(r)) {
        let (Some(external_id), Some(depends_on)) = (
            cx.template.field(resource, "external_id"),
            cx.template.field(resource, "depends_on"),
        ) else {
            continue;
        };
        // Heat checks `if self.external_id(): if explicit_depends: raise`. A call may resolve
        // to an id or not; an id that is not a string is `invalid-resource-field-type`'s.
        let id = match doc.scalar(external_id) {
            Some(s) if s.value == ScalarValue::Str && !s.text.is_empty() => {
                s.text.as_str().to_owned()
            }
            None if call_at(cx, external_id).is_some() => "…".to_owned(),
            Some(_) | None => continue,
        };
        // A string becomes `[name]`; a list must be non-empty.
        let explicit = match &doc.node(doc.resolve(depends_on)).kind {
            NodeKind::Scalar(s) => s.value == ScalarValue::Str,
            NodeKind::Sequence { items, .. } => !items.is_empty(),
            _ => false,
        };
        if !explicit {
            continue;
        }
        let when = if call_at(cx, external_id).is_some() {
            "whenever `external_id` resolves to an id, "
        } else {
            ""
        };
        let ty = cx.template.resource_type(resource).unwrap_or("<type>");
        let depends_key = doc
            .get_key(resource.value, "depends_on")
            .unwrap_or(resource.key);
        let external_key = doc
            .get_key(resource.value, "external_id")
            .unwrap_or(resource.key);
        sink.report(
            cx.span(depends_key),
            format!(
                "resource `{}` has an `external_id`, so it cannot have `depends_on`",
                resource.name
            ),
        )
        .label(cx.span(external_key), "the resource is external")
        .help(format!(
            "remove `depends_on`: Heat adopts an existing resource and never waits for others; {when}Heat: `Invalid dependency with external {ty} resource: {id}`"
        ));
    }
}
