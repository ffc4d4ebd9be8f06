//! Helpers for upgrade rules: edits that follow the file's own style.

use hotfix_diagnostics::{Edit, Span};
use hotfix_yaml::{Document, NodeId, ScalarStyle};

/// Replaces a mapping key's text with `name`, keeping its quotes: `Fn::Join` → `list_join`,
/// `"Fn::Join"` → `"list_join"`, `'Fn::Join'` → `'list_join'`.
pub(crate) fn rename_key(doc: &Document, key: NodeId, name: &str) -> Option<Edit> {
    let node = doc.node(key);
    let scalar = doc.scalar(key)?;
    let span = match scalar.style {
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            Span::new(node.span.start + 1, node.span.end.checked_sub(1)?)
        }
        ScalarStyle::Plain => node.span,
        ScalarStyle::Literal | ScalarStyle::Folded => return None,
    };
    // A quoted key whose text needed escapes cannot be renamed by replacing its inside.
    let inner = doc.source().get(span.range())?;
    (inner == scalar.text.as_str()).then(|| Edit::replace(span, name))
}
