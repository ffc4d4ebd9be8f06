use hotfix_hot::{Availability, Named, Version};
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::resources::shared::{NEWTON, call_at, mapping_resources, span_or};

declare_rule! {
    /// ## What it does
    /// Checks the type of each field of a resource definition: `type` and `description` are
    /// strings; `properties`, `metadata` and `update_policy` are mappings (or function calls,
    /// which Heat refuses for `update_policy` and most types' `properties`: see
    /// `field-from-function`);
    /// `depends_on` is a resource name or a list of names; `deletion_policy` and `external_id`
    /// are strings or function calls; `condition` is a condition name, a boolean or a
    /// condition expression.
    ///
    /// ## Why is this bad?
    /// Heat refuses the template: `Resource server properties type must be object`. Heat
    /// never resolves functions in `depends_on` and `description` (it does not parse them),
    /// and the `type` must be a plain string even though it is parsed: a function there, even
    /// `if`, gives `Resource server type type must be string`. A `depends_on` list with a
    /// non-string item gives `Resource server depends_on must be a list of strings`. An empty
    /// field (`properties:` with nothing under it) is null, which is not a mapping either.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties:
    ///       - size: 1
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   volume:
    ///     type: OS::Cinder::Volume
    ///     properties:
    ///       size: 1
    /// ```
    pub(crate) static RULE = {
        code: "H604",
        name: "invalid-resource-field-type",
        severity: Error,
        fix: None,
        check: check,
    };
}

/// What a field accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// `type`: a string, parsed, so a function is an object, not a string.
    TypeName,
    /// `description`: a string, not parsed.
    Text,
    /// `properties`, `metadata`, `update_policy`: a mapping or a call.
    Object,
    /// `deletion_policy`, `external_id`: a string or a call.
    StringOrCall,
    /// `condition`: a string, a boolean or a condition call.
    Condition,
}

impl Expect {
    /// Heat's `typename` in `Resource %(name)s %(key)s type must be %(typename)s`.
    fn heat_name(self) -> &'static str {
        match self {
            Expect::TypeName | Expect::Text | Expect::StringOrCall => "string",
            Expect::Object => "object",
            Expect::Condition => "string_or_boolean",
        }
    }

    fn wanted(self) -> &'static str {
        match self {
            Expect::TypeName | Expect::Text => "a string",
            Expect::Object => "a mapping",
            Expect::StringOrCall => "a string or a function call",
            Expect::Condition => "a condition name, a boolean or a condition expression",
        }
    }
}

const FIELDS: [(&str, Expect); 8] = [
    ("type", Expect::TypeName),
    ("properties", Expect::Object),
    ("metadata", Expect::Object),
    ("update_policy", Expect::Object),
    ("deletion_policy", Expect::StringOrCall),
    ("description", Expect::Text),
    ("external_id", Expect::StringOrCall),
    ("condition", Expect::Condition),
];

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    for resource in mapping_resources(cx) {
        for (field, expect) in FIELDS {
            // Before newton these keys are `unknown-resource-key`'s.
            if matches!(field, "external_id" | "condition") && version < NEWTON {
                continue;
            }
            let Some(value) = cx.template.field(resource, field) else {
                continue;
            };
            if accepts(cx, expect, value) {
                continue;
            }
            report(cx, sink, resource, field, value, expect, version);
        }
        if let Some(value) = cx.template.field(resource, "depends_on") {
            check_depends_on(cx, sink, resource, value, version);
        }
    }
}

fn accepts(cx: &Context<'_>, expect: Expect, value: NodeId) -> bool {
    let doc = cx.doc;
    let is_call = call_at(cx, value).is_some();
    let scalar = doc.scalar(value).map(|s| &s.value);
    match expect {
        // An empty or null type is `missing-resource-type`'s.
        Expect::TypeName => {
            !is_call && matches!(scalar, Some(ScalarValue::Str | ScalarValue::Null))
        }
        Expect::Text => matches!(scalar, Some(ScalarValue::Str)),
        Expect::Object => matches!(doc.node(doc.resolve(value)).kind, NodeKind::Mapping { .. }),
        Expect::StringOrCall => is_call || matches!(scalar, Some(ScalarValue::Str)),
        Expect::Condition => {
            is_call || matches!(scalar, Some(ScalarValue::Str | ScalarValue::Bool(_)))
        }
    }
}

fn report(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    resource: &Named,
    field: &str,
    value: NodeId,
    expect: Expect,
    version: Version,
) {
    let doc = cx.doc;
    let what = describe(cx, value, version);
    let key = doc.get_key(resource.value, field).unwrap_or(resource.key);
    let heat = format!(
        "Heat: `Resource {} {field} type must be {}`",
        resource.name,
        expect.heat_name()
    );
    let advice = match expect {
        Expect::TypeName if call_at(cx, value).is_some() => {
            "Heat does not resolve functions in `type`: write the type name, or map a name of your own to the type in the environment's `resource_registry`".to_owned()
        }
        Expect::Text if looks_like_call(doc, version, value).is_some() => {
            "Heat does not parse `description`, so functions do not work there: write plain text".to_owned()
        }
        Expect::Object if is_null(doc, value) => {
            format!("an empty `{field}:` is null: write `{field}: {{}}` or remove the key")
        }
        _ if is_null(doc, value) => {
            format!("an empty `{field}:` is null: give it a value or remove the key")
        }
        Expect::Condition => {
            "name a condition of the `conditions` section, write `true`/`false`, or a condition function such as `equals`".to_owned()
        }
        _ => format!("write {}", expect.wanted()),
    };
    sink.report(
        span_or(cx, value, key),
        format!(
            "the `{field}` of resource `{}` is {what}, not {}",
            resource.name,
            expect.wanted()
        ),
    )
    .help(format!("{advice}; {heat}"));
}

/// `depends_on`: not parsed; a string, or a sequence of strings.
fn check_depends_on(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    resource: &Named,
    value: NodeId,
    version: Version,
) {
    let doc = cx.doc;
    let key = doc
        .get_key(resource.value, "depends_on")
        .unwrap_or(resource.key);
    let resolved = doc.resolve(value);
    match &doc.node(resolved).kind {
        NodeKind::Scalar(s) if matches!(s.value, ScalarValue::Str) => {}
        // Python `bytes` is a sequence of integers.
        NodeKind::Scalar(s) if matches!(s.value, ScalarValue::Binary) => {
            sink.report(
                span_or(cx, value, key),
                format!("the `depends_on` of resource `{}` is binary data, not a resource name", resource.name),
            )
            .help(format!(
                "name one resource, or list several; Heat: `Resource {} depends_on must be a list of strings`",
                resource.name
            ));
        }
        NodeKind::Sequence { items, .. } => {
            for &item in items {
                if doc.str_value(item).is_some() {
                    continue;
                }
                let what = describe(cx, item, version);
                sink.report(
                    span_or(cx, item, value),
                    format!(
                        "`depends_on` of resource `{}` lists {what}, not a resource name",
                        resource.name
                    ),
                )
                .help(format!(
                    "list resource names only; Heat: `Resource {} depends_on must be a list of strings`",
                    resource.name
                ));
            }
        }
        _ => {
            let what = describe(cx, value, version);
            let advice = if looks_like_call(doc, version, value).is_some() {
                "Heat does not parse `depends_on`, so functions do not work there: name the resources; a `get_resource` or `get_attr` in `properties` already adds the dependency"
            } else {
                "name one resource, or list several"
            };
            sink.report(
                span_or(cx, value, key),
                format!(
                    "the `depends_on` of resource `{}` is {what}, not a resource name or a list of names",
                    resource.name
                ),
            )
            .help(format!(
                "{advice}; Heat: `Resource {} depends_on type must be list or string`",
                resource.name
            ));
        }
    }
}

fn is_null(doc: &Document, id: NodeId) -> bool {
    doc.scalar(id).is_some_and(|s| s.value == ScalarValue::Null)
}

/// The function a single-key mapping would call if the field were parsed.
fn looks_like_call(doc: &Document, version: Version, id: NodeId) -> Option<&str> {
    let entries = doc.entries(id);
    let [entry] = entries.as_slice() else {
        return None;
    };
    let name = doc.str_value(entry.key)?;
    (!matches!(version.function(name), Availability::Data)).then_some(name)
}

/// What a value is, for a message: "a `get_param` call", "a list", "null".
fn describe(cx: &Context<'_>, id: NodeId, version: Version) -> String {
    let doc = cx.doc;
    if let Some(call) = call_at(cx, id) {
        return call_phrase(call.status.function().name());
    }
    if let Some(name) = looks_like_call(doc, version, id) {
        return call_phrase(name);
    }
    match &doc.node(doc.resolve(id)).kind {
        NodeKind::Mapping { .. } => "a mapping".to_owned(),
        NodeKind::Sequence { .. } => "a list".to_owned(),
        NodeKind::Alias { .. } => "an alias".to_owned(),
        NodeKind::Scalar(s) => match s.value {
            ScalarValue::Null => "null".to_owned(),
            ScalarValue::Bool(_) => format!("the boolean `{}`", s.text),
            ScalarValue::Int(_) => format!("the integer `{}`", s.text),
            ScalarValue::Float(_) => format!("the number `{}`", s.text),
            ScalarValue::Binary => "binary data".to_owned(),
            ScalarValue::Str | ScalarValue::Merge | ScalarValue::ValueKey => {
                format!("the string `{}`", s.text)
            }
        },
    }
}

/// "a `get_param` call", "an `if` call".
fn call_phrase(name: &str) -> String {
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} `{name}` call")
}
