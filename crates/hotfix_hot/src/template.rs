//! A typed view of a HOT template over the YAML tree: sections, parameters, resources,
//! outputs and conditions, each with its nodes (and so its spans).

use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue};

use crate::Version;

/// What the template says about its version (`heat/engine/template.py` `get_version`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VersionDecl {
    /// `heat_template_version` names a version Heat knows.
    Valid {
        version: Version,
        key: NodeId,
        value: NodeId,
    },
    /// No version key whose value is a string: `Template version was not provided`.
    Missing,
    /// `heat_template_version` is there but not a string (`heat_template_version: 2016` is an
    /// int): Heat ignores it, so the version is missing.
    NotString { key: NodeId, value: NodeId },
    /// A string Heat does not accept (`2016-10-15`, `Newton`).
    Invalid {
        text: String,
        key: NodeId,
        value: NodeId,
    },
    /// More than one of `heat_template_version`, `HeatTemplateFormatVersion`,
    /// `AWSTemplateFormatVersion` with a string value.
    Ambiguous { keys: Vec<NodeId> },
    /// A CloudFormation-format template (`HeatTemplateFormatVersion`/`AWSTemplateFormatVersion`):
    /// not HOT, not linted as HOT.
    Cfn { key: NodeId },
}

/// One named definition: a parameter, resource, output or condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The key as Heat sees it (a non-string key, e.g. `on:`, as Python would print it).
    pub name: String,
    pub key: NodeId,
    pub value: NodeId,
}

/// A top-level section: the key, its value, its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub key: NodeId,
    pub value: NodeId,
}

/// The template: the document and its parts, in the PyYAML value view (merges expanded, the
/// last of repeated keys).
#[derive(Debug)]
pub struct Template<'d> {
    pub doc: &'d Document,
    pub version: VersionDecl,
    pub sections: Vec<Section>,
    pub parameters: Vec<Named>,
    pub resources: Vec<Named>,
    pub outputs: Vec<Named>,
    pub conditions: Vec<Named>,
    /// The version an invalid declaration most likely means, when the caller has settled on
    /// one ([`Template::assume_version`]). [`Template::new`] never assumes anything, so that
    /// what must refuse an invalid version (an upgrade) does.
    version_assumed: Option<Version>,
}

const VERSION_KEYS: [&str; 3] = [
    "heat_template_version",
    "HeatTemplateFormatVersion",
    "AWSTemplateFormatVersion",
];

impl<'d> Template<'d> {
    pub fn new(doc: &'d Document) -> Self {
        let root = doc.root();
        let sections: Vec<Section> = doc
            .entries(root)
            .into_iter()
            .map(|e| Section {
                name: key_name(doc, e.key),
                key: e.key,
                value: e.value,
            })
            .collect();
        let named = |section: &str| -> Vec<Named> {
            let Some(s) = sections.iter().find(|s| s.name == section) else {
                return Vec::new();
            };
            doc.entries(s.value)
                .into_iter()
                .map(|e| Named {
                    name: key_name(doc, e.key),
                    key: e.key,
                    value: e.value,
                })
                .collect()
        };
        Template {
            doc,
            version: version_decl(doc, &sections),
            parameters: named("parameters"),
            resources: named("resources"),
            outputs: named("outputs"),
            conditions: named("conditions"),
            sections,
            version_assumed: None,
        }
    }

    /// The declared version, when it is one Heat accepts.
    pub fn version(&self) -> Option<Version> {
        match self.version {
            VersionDecl::Valid { version, .. } => Some(version),
            _ => None,
        }
    }

    /// Reads the template as `version` although its declaration is invalid (a misspelling
    /// whose correction is clear, e.g. `2016-10-15` for `2016-10-14`). Ignored unless the
    /// declaration is [`VersionDecl::Invalid`]: a valid, missing or ambiguous one stays as is.
    pub fn assume_version(&mut self, version: Version) {
        if matches!(self.version, VersionDecl::Invalid { .. }) {
            self.version_assumed = Some(version);
        }
    }

    /// The version assumed for an invalid declaration, if any.
    pub fn version_assumed(&self) -> Option<Version> {
        self.version_assumed
    }

    /// The version the template is read as: the declared one when Heat accepts it, else the
    /// assumed one. Only for checking; Heat itself refuses an invalid version.
    pub fn effective_version(&self) -> Option<Version> {
        self.version().or(self.version_assumed)
    }

    /// A top-level section's value node.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    pub fn parameter(&self, name: &str) -> Option<&Named> {
        self.parameters.iter().find(|p| p.name == name)
    }

    pub fn resource(&self, name: &str) -> Option<&Named> {
        self.resources.iter().find(|r| r.name == name)
    }

    pub fn output(&self, name: &str) -> Option<&Named> {
        self.outputs.iter().find(|o| o.name == name)
    }

    pub fn condition(&self, name: &str) -> Option<&Named> {
        self.conditions.iter().find(|c| c.name == name)
    }

    /// A field of a definition (`type` of a resource, `value` of an output), if present.
    pub fn field(&self, definition: &Named, field: &str) -> Option<NodeId> {
        self.doc.get(definition.value, field)
    }

    /// The resource's `type`, when it is a plain string.
    pub fn resource_type(&self, resource: &Named) -> Option<&'d str> {
        self.doc.str_value(self.doc.get(resource.value, "type")?)
    }

    /// Whether the definition is a mapping (what Heat requires of every definition).
    pub fn is_mapping(&self, id: NodeId) -> bool {
        matches!(
            self.doc.node(self.doc.resolve(id)).kind,
            NodeKind::Mapping { .. }
        )
    }
}

/// A mapping key as Heat sees it: strings as they are, other scalars as Python prints them.
pub fn key_name(doc: &Document, key: NodeId) -> String {
    key_text(doc, key).into_owned()
}

/// [`key_name`], borrowed from the document where it is written as it is (a string key, the
/// usual): for a key only looked at, not kept.
pub fn key_text(doc: &Document, key: NodeId) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    match doc.scalar(key) {
        Some(s) => match &s.value {
            ScalarValue::Null => Cow::Borrowed("None"),
            ScalarValue::Bool(true) => Cow::Borrowed("True"),
            ScalarValue::Bool(false) => Cow::Borrowed("False"),
            ScalarValue::Int(n) => Cow::Owned(n.to_string()),
            ScalarValue::Float(f) => Cow::Owned(hotfix_yaml::python_float_repr(*f)),
            _ => Cow::Borrowed(s.text.as_str()),
        },
        None => Cow::Borrowed(doc.text(key)),
    }
}

fn version_decl(doc: &Document, sections: &[Section]) -> VersionDecl {
    let candidates: Vec<&Section> = sections
        .iter()
        .filter(|s| VERSION_KEYS.contains(&s.name.as_str()) && doc.str_value(s.value).is_some())
        .collect();
    if candidates.len() > 1 {
        return VersionDecl::Ambiguous {
            keys: candidates.iter().map(|s| s.key).collect(),
        };
    }
    if let Some(section) = candidates.first() {
        if section.name != "heat_template_version" {
            return VersionDecl::Cfn { key: section.key };
        }
        let text = doc.str_value(section.value).unwrap_or_default();
        return match Version::parse(text) {
            Some(version) => VersionDecl::Valid {
                version,
                key: section.key,
                value: section.value,
            },
            None => VersionDecl::Invalid {
                text: text.to_owned(),
                key: section.key,
                value: section.value,
            },
        };
    }
    match sections.iter().find(|s| s.name == "heat_template_version") {
        Some(section) => VersionDecl::NotString {
            key: section.key,
            value: section.value,
        },
        None => VersionDecl::Missing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template_with(version: &str, check: impl FnOnce(&mut Template<'_>)) {
        let doc = hotfix_yaml::parse(&format!("heat_template_version: {version}\n")).unwrap();
        check(&mut Template::new(&doc));
    }

    #[test]
    fn assumes_a_version_only_for_an_invalid_declaration() {
        template_with("2016-10-15", |t| {
            assert_eq!(t.effective_version(), None);
            t.assume_version(Version::V2016_10_14);
            assert_eq!(t.version(), None, "the declaration stays invalid");
            assert_eq!(t.version_assumed(), Some(Version::V2016_10_14));
            assert_eq!(t.effective_version(), Some(Version::V2016_10_14));
        });
        template_with("2017-02-24", |t| {
            t.assume_version(Version::V2016_10_14);
            assert_eq!(t.version_assumed(), None);
            assert_eq!(t.effective_version(), Some(Version::V2017_02_24));
        });
        template_with("2016", |t| {
            t.assume_version(Version::V2016_10_14);
            assert_eq!(t.effective_version(), None, "not a string: missing");
        });
    }
}
