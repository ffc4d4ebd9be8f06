//! What the server knows about one template: the parsed document, its sections, the calls and
//! references Heat's parser finds, and the name under a cursor. Built from the text for each
//! request (a template parses in a millisecond or two).

use hotfix_hot::resource_types;
use hotfix_hot::{Named, RefKind, Semantic, Template, Version};
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarStyle, Span};

/// A template's analysis; `None` where the text does not load as YAML.
pub(crate) struct Analysis {
    pub(crate) doc: Document,
}

/// What a name under the cursor refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Parameter(String),
    Resource(String),
    Condition(String),
}

/// Where a name is written: its node and the bytes of the name itself (inside the quotes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Occurrence {
    pub(crate) span: Span,
    /// Whether this is the definition (the key under `parameters`, `resources`, `conditions`).
    pub(crate) definition: bool,
}

impl Analysis {
    pub(crate) fn new(text: &str) -> Option<Analysis> {
        let doc = hotfix_yaml::check_bytes(text.as_bytes())
            .and_then(hotfix_yaml::parse)
            .ok()?;
        Some(Analysis { doc })
    }

    pub(crate) fn template(&self) -> Template<'_> {
        Template::new(&self.doc)
    }

    /// The version the template is read as.
    pub(crate) fn version(&self) -> Option<Version> {
        self.template().effective_version()
    }

    /// The innermost scalar whose span holds `offset` (its end included, where a cursor
    /// stands after the last character).
    pub(crate) fn scalar_at(&self, offset: usize) -> Option<NodeId> {
        let mut best: Option<(usize, NodeId)> = None;
        for (id, node) in self.doc.ids() {
            if !matches!(node.kind, NodeKind::Scalar(_)) {
                continue;
            }
            if node.span.start <= offset && offset <= node.span.end {
                let width = node.span.end - node.span.start;
                if best.is_none_or(|(w, _)| width < w) {
                    best = Some((width, id));
                }
            }
        }
        best.map(|(_, id)| id)
    }

    /// The name under the cursor, and what it names: a reference (`get_param: name`,
    /// `get_resource`, `get_attr`'s first item, `depends_on`, a condition name) or a definition's
    /// key.
    pub(crate) fn target_at(&self, offset: usize) -> Option<Target> {
        let node = self.scalar_at(offset)?;
        let template = self.template();
        for (list, make) in definitions(&template) {
            if let Some(named) = list.iter().find(|n| n.key == node) {
                return Some(make(named.name.clone()));
            }
        }
        let semantic = Semantic::new(&template);
        let reference = semantic.references.iter().find(|r| r.node == node)?;
        Some(match reference.kind {
            RefKind::Resource | RefKind::Attribute | RefKind::DependsOn => {
                Target::Resource(reference.name.clone())
            }
            RefKind::CfnRef if template.resource(&reference.name).is_some() => {
                Target::Resource(reference.name.clone())
            }
            RefKind::Parameter | RefKind::CfnRef => Target::Parameter(reference.name.clone()),
            RefKind::Condition => Target::Condition(reference.name.clone()),
        })
    }

    /// The definition's key node of a target.
    pub(crate) fn definition(&self, target: &Target) -> Option<NodeId> {
        let template = self.template();
        let (list, name) = match target {
            Target::Parameter(name) => (&template.parameters, name),
            Target::Resource(name) => (&template.resources, name),
            Target::Condition(name) => (&template.conditions, name),
        };
        list.iter().find(|n| &n.name == name).map(|n| n.key)
    }

    /// Every place the target's name is written: its definition and every reference.
    pub(crate) fn occurrences(&self, target: &Target) -> Vec<Occurrence> {
        let template = self.template();
        let semantic = Semantic::new(&template);
        let mut out = Vec::new();
        if let Some(key) = self.definition(target) {
            out.push(Occurrence {
                span: self.name_span(key),
                definition: true,
            });
        }
        for reference in &semantic.references {
            let refers = match (&reference.kind, target) {
                (RefKind::Parameter, Target::Parameter(name))
                | (
                    RefKind::Resource | RefKind::Attribute | RefKind::DependsOn,
                    Target::Resource(name),
                )
                | (RefKind::Condition, Target::Condition(name)) => *name == reference.name,
                (RefKind::CfnRef, Target::Resource(name)) => {
                    *name == reference.name && template.resource(name).is_some()
                }
                (RefKind::CfnRef, Target::Parameter(name)) => {
                    *name == reference.name && template.resource(name).is_none()
                }
                _ => false,
            };
            if refers {
                out.push(Occurrence {
                    span: self.name_span(reference.node),
                    definition: false,
                });
            }
        }
        out.sort_by_key(|o| (o.span.start, o.span.end));
        out.dedup();
        out
    }

    /// The bytes of a scalar's text: inside the quotes of a quoted scalar.
    pub(crate) fn name_span(&self, node: NodeId) -> Span {
        let span = self.doc.node(node).span;
        match self.doc.scalar(node).map(|s| s.style) {
            Some(ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted)
                if span.end >= span.start + 2 =>
            {
                Span::new(span.start + 1, span.end - 1)
            }
            _ => span,
        }
    }

    /// The resource whose definition holds `offset`.
    pub(crate) fn resource_at(&self, offset: usize) -> Option<Named> {
        let template = self.template();
        template
            .resources
            .iter()
            .find(|r| {
                let key = self.doc.node(r.key).span;
                let value = self.doc.node(r.value).span;
                key.start <= offset && offset <= value.end.max(key.end)
            })
            .cloned()
    }

    /// The type name of a resource, when it is a string.
    pub(crate) fn resource_type(&self, resource: &Named) -> Option<String> {
        let template = self.template();
        let node = template.field(resource, "type")?;
        self.doc.str_value(node).map(str::to_owned)
    }

    /// The type of the resource named `name`.
    pub(crate) fn type_of(&self, name: &str) -> Option<String> {
        let template = self.template();
        let resource = template.resource(name)?.clone();
        self.resource_type(&resource)
    }

    /// The registered type schema of a resource.
    pub(crate) fn schema_of(&self, name: &str) -> Option<&'static resource_types::ResourceType> {
        resource_types::get(&self.type_of(name)?)
    }
}

/// The three kinds of definitions, with what each makes a target of.
type Definitions<'t> = [(&'t [Named], fn(String) -> Target); 3];

fn definitions<'t>(template: &'t Template<'_>) -> Definitions<'t> {
    [
        (&template.parameters, Target::Parameter),
        (&template.resources, Target::Resource),
        (&template.conditions, Target::Condition),
    ]
}
