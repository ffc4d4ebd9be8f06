//! What the machine-readable outputs share: the files and their findings, paths relative to
//! the repository root, UTF-16 regions and line fingerprints.
//!
//! `hotfix lint` uses them for `--format sarif`, `github`, `junit` and `gitlab`, for
//! `--statistics` and for the baseline; `hotfix upgrade --check` can hand its own findings to the
//! same writers.

pub(crate) mod fingerprint;
pub(crate) mod github;
pub(crate) mod gitlab;
pub(crate) mod junit;
pub(crate) mod report;
pub(crate) mod sarif;
pub(crate) mod statistics;

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use hotfix_diagnostics::{Diagnostic, Span};
use hotfix_yaml::LineIndex;

use crate::paths;

/// One file's findings, as the writers see them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FileFindings<'a> {
    /// The path as found (relative to the working directory, or absolute).
    pub(crate) path: &'a Path,
    /// The file's text as read from disk.
    pub(crate) source: &'a str,
    pub(crate) diagnostics: &'a [Diagnostic],
}

/// The folder that paths in SARIF, annotations and baselines are relative to: the root of the
/// git work tree around the working directory (the nearest folder above it with a `.git`), or
/// the working directory itself outside a repository. Both are as the user's shell names them
/// (see [`crate::paths`]): a repository or a folder of templates reached through a symbolic
/// link gives the paths the user sees, not those of the link's target.
#[derive(Clone, Debug)]
pub(crate) struct SourceRoot {
    root: PathBuf,
    cwd: PathBuf,
    /// Each folder's place relative to `root`, worked out once.
    resolver: paths::Resolver,
}

impl SourceRoot {
    /// The root for a run in `cwd` (as [`crate::paths::current_dir`] gives it).
    pub(crate) fn discover(cwd: &Path) -> SourceRoot {
        let cwd = paths::normalize(&std::path::absolute(cwd).unwrap_or_else(|_| cwd.to_path_buf()));
        let root = cwd
            .ancestors()
            .find(|dir| dir.join(".git").exists())
            .unwrap_or(&cwd)
            .to_path_buf();
        SourceRoot {
            root,
            cwd,
            resolver: paths::Resolver::default(),
        }
    }

    /// `path` relative to the root, with forward slashes; never absolute. A file outside the
    /// root gets a path through `..`.
    pub(crate) fn relative(&self, path: &Path) -> String {
        slashes(&self.relative_path(path))
    }

    /// [`SourceRoot::relative`] as a path.
    fn relative_path(&self, path: &Path) -> PathBuf {
        if let Some(inside) = self.resolver.under(&self.root, &self.cwd, path) {
            return inside;
        }
        let absolute = self.resolver.absolute(&self.cwd, path);
        let common = absolute
            .components()
            .zip(self.root.components())
            .take_while(|(a, b)| a == b)
            .count();
        let mut relative = PathBuf::new();
        for _ in common..self.root.components().count() {
            relative.push("..");
        }
        for component in absolute.components().skip(common) {
            if let Component::Normal(part) = component {
                relative.push(part);
            }
        }
        relative
    }

    /// The file at a path relative to the root.
    pub(crate) fn resolve(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// `path` relative to the root as a URI reference: every byte of the name percent-encoded
    /// but unreserved ones, so that a name that is not UTF-8 is kept exactly.
    pub(crate) fn uri(&self, path: &Path) -> String {
        let relative = self.relative_path(path);
        let parts: Vec<String> = relative
            .components()
            .filter_map(|c| match c {
                Component::Normal(part) => {
                    Some(escape_uri_bytes(&paths::path_bytes(Path::new(part))))
                }
                Component::ParentDir => Some("..".to_owned()),
                _ => None,
            })
            .collect();
        parts.join("/")
    }
}

/// The labels of a finding that lie in other files, each at `path:line:col` with the path
/// relative to the root (columns count characters, as in the concise format): what the
/// text-only formats (annotations, Code Quality, JUnit) can carry of them.
pub(crate) fn elsewhere(root: &SourceRoot, diagnostic: &Diagnostic) -> Vec<Place> {
    diagnostic
        .file_labels
        .iter()
        .map(|label| {
            let lines = LineIndex::new(&label.source);
            let (start, _) = hotfix_diagnostics::location(&lines, &label.source, label.span);
            Place {
                at: format!(
                    "{}:{}:{}",
                    root.relative(Path::new(&*label.path)),
                    start.line,
                    start.column
                ),
                message: label.message.clone(),
            }
        })
        .collect()
}

/// A label in another file, as text: `path:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) at: String,
    pub(crate) message: String,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// A relative path with forward slashes, each name as [`paths::escaped`] writes it.
fn slashes(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(paths::escaped(Path::new(part))),
            Component::ParentDir => Some("..".to_owned()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

/// Percent-encodes a relative path for a URI: everything but unreserved characters, `/` and
/// the sub-delimiters that are safe in a path (`:` is encoded, lest the first segment read as a
/// scheme).
fn escape_uri_bytes(path: &[u8]) -> String {
    let mut out = String::with_capacity(path.len());
    for &byte in path {
        if byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// A span as 1-based lines and UTF-16 columns; the end column is one past the last character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Region {
    pub(crate) start_line: usize,
    pub(crate) start_column: usize,
    pub(crate) end_line: usize,
    pub(crate) end_column: usize,
}

impl Region {
    /// The region of a finding: a span that ends with line breaks ends before them, so that it
    /// does not reach into the next line.
    pub(crate) fn of_finding(lines: &LineIndex, source: &str, span: Span) -> Region {
        let bytes = source.as_bytes();
        let start = span.start.min(source.len());
        let mut end = span.end.clamp(start, source.len());
        while end > start && matches!(bytes[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        Region::exact(lines, source, Span::new(start, end))
    }

    /// The region of exactly these bytes (for the edits of a fix).
    pub(crate) fn exact(lines: &LineIndex, source: &str, span: Span) -> Region {
        let start = lines.position(source, span.start);
        let end = lines.position(source, span.end.max(span.start));
        Region {
            start_line: start.line,
            start_column: start.utf16_col,
            end_line: end.line,
            end_column: end.utf16_col,
        }
    }
}

/// A JSON array written one element at a time, byte for byte as `serde_json::to_writer_pretty`
/// writes the whole array when it sits `depth` levels deep: a report of any size goes out
/// without being held in memory.
#[derive(Debug)]
pub(crate) struct JsonArray {
    depth: usize,
    empty: bool,
}

impl JsonArray {
    /// An array whose brackets are indented `depth` levels (two spaces each).
    pub(crate) fn new(depth: usize) -> JsonArray {
        JsonArray { depth, empty: true }
    }

    /// Writes one element (the opening bracket first).
    pub(crate) fn push(
        &mut self,
        out: &mut dyn std::io::Write,
        value: &serde_json::Value,
    ) -> std::io::Result<()> {
        out.write_all(if self.empty { b"[\n" } else { b",\n" })?;
        self.empty = false;
        let text = serde_json::to_string_pretty(value)?;
        let indent = "  ".repeat(self.depth + 1);
        // A pretty JSON text breaks lines only between tokens: strings escape their line breaks.
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(indent.as_bytes())?;
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// Writes the closing bracket (`[]` for an array without elements).
    pub(crate) fn close(self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if self.empty {
            out.write_all(b"[]")
        } else {
            write!(out, "\n{}]", "  ".repeat(self.depth))
        }
    }
}

/// `serde_json::to_string_pretty` of `document`, cut where the string `marker` stands as a
/// value: what goes before an array streamed in its place, what goes after, and its depth.
pub(crate) fn split_around(
    document: &serde_json::Value,
    marker: &str,
) -> std::io::Result<(String, String, usize)> {
    let text = serde_json::to_string_pretty(document)?;
    let quoted = serde_json::to_string(marker)?;
    let at = text
        .find(&quoted)
        .ok_or_else(|| std::io::Error::other("the report's skeleton lost its marker"))?;
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let depth = (line.len() - line.trim_start().len()) / 2;
    Ok((
        text[..at].to_owned(),
        text[at + quoted.len()..].to_owned(),
        depth,
    ))
}

#[cfg(test)]
mod json_array_tests {
    use serde_json::json;

    use super::*;

    fn streamed(document: &serde_json::Value, items: &[serde_json::Value]) -> String {
        let (before, after, depth) = split_around(document, "\u{0}items").expect("marker");
        let mut out = Vec::new();
        out.extend_from_slice(before.as_bytes());
        let mut array = JsonArray::new(depth);
        for item in items {
            array.push(&mut out, item).expect("push");
        }
        array.close(&mut out).expect("close");
        out.extend_from_slice(after.as_bytes());
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn a_streamed_array_is_the_array_serde_json_writes() {
        let items = [
            json!({"a": 1, "b": {"c": [1, 2, {"d": "line\nbreak"}], "e": {}}, "f": []}),
            json!("text"),
            json!([]),
        ];
        for count in 0..=items.len() {
            let items = &items[..count];
            let skeleton = json!({"runs": [{"results": "\u{0}items", "z": {"y": [1]}}], "a": 0});
            let mut whole = skeleton.clone();
            whole["runs"][0]["results"] = json!(items);
            assert_eq!(
                streamed(&skeleton, items),
                serde_json::to_string_pretty(&whole).unwrap()
            );
            let top = json!("\u{0}items");
            assert_eq!(
                streamed(&top, items),
                serde_json::to_string_pretty(&json!(items)).unwrap()
            );
        }
    }
}
