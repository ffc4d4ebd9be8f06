//! What the machine-readable outputs share: the files and their findings, paths relative to
//! the repository root, UTF-16 regions, line fingerprints, and atomic writes of `--output`.
//!
//! `hotfix lint` uses them for `--format sarif`, `github`, `junit` and `gitlab`, for
//! `--statistics` and for the baseline; `hotfix upgrade --check` can hand its own findings to the
//! same writers.

pub(crate) mod fingerprint;
pub(crate) mod github;
pub(crate) mod gitlab;
pub(crate) mod junit;
pub(crate) mod sarif;
pub(crate) mod statistics;

use std::fmt::Write as _;
use std::io::Write as _;
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
        SourceRoot { root, cwd }
    }

    /// `path` relative to the root, with forward slashes; never absolute. A file outside the
    /// root gets a path through `..`.
    pub(crate) fn relative(&self, path: &Path) -> String {
        slashes(&self.relative_path(path))
    }

    /// [`SourceRoot::relative`] as a path.
    fn relative_path(&self, path: &Path) -> PathBuf {
        if let Some(inside) = paths::under(&self.root, &self.cwd, path) {
            return inside;
        }
        let absolute = paths::absolute(&self.cwd, path);
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

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename: readers
/// see the old file or the new one, never a half-written one. An existing file keeps its
/// permissions; a new one is readable by all (0644).
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut temp = tempfile::Builder::new()
        .prefix(".hotfix-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.flush()?;
    match std::fs::metadata(path) {
        Ok(metadata) => temp.as_file().set_permissions(metadata.permissions())?,
        Err(_) => set_default_permissions(temp.as_file())?,
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// Temporary files are private (0600); an output file is for everyone to read.
#[cfg(unix)]
fn set_default_permissions(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
#[allow(clippy::unnecessary_wraps, reason = "the same signature as on Unix")]
fn set_default_permissions(_: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_git_root_with_forward_slashes() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("sub/deeper")).unwrap();
        let root = SourceRoot::discover(&repo.join("sub"));
        assert_eq!(root.relative(Path::new("a b.yaml")), "sub/a b.yaml");
        assert_eq!(root.relative(Path::new("./deeper/../x.yaml")), "sub/x.yaml");
        assert_eq!(root.relative(&repo.join("top.yaml")), "top.yaml");
        assert_eq!(root.relative(&dir.path().join("out.yaml")), "../out.yaml");
        assert_eq!(
            root.uri(Path::new("a b%#:é.yaml")),
            "sub/a%20b%25%23%3A%C3%A9.yaml"
        );
        // Outside a repository: relative to the working directory.
        let plain = dir.path().join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        let root = SourceRoot::discover(&plain);
        assert_eq!(root.relative(Path::new("t.yaml")), "t.yaml");
    }

    #[test]
    fn regions_count_utf16_and_stop_before_line_breaks() {
        let source = "a: \"é𝄞x\"\nb: [1,\n  2]\n";
        let lines = LineIndex::new(source);
        let x = source.find('x').unwrap();
        assert_eq!(
            Region::of_finding(&lines, source, Span::new(x, x + 1)),
            Region {
                start_line: 1,
                start_column: 8,
                end_line: 1,
                end_column: 9
            }
        );
        let b = source.find('[').unwrap();
        assert_eq!(
            Region::of_finding(&lines, source, Span::new(b, source.len())),
            Region {
                start_line: 2,
                start_column: 4,
                end_line: 3,
                end_column: 5
            }
        );
        assert_eq!(
            Region::exact(&lines, source, Span::new(b, source.len())).end_line,
            4
        );
        // Spans past the end are clamped, never a panic.
        let _ = Region::of_finding(&lines, source, Span::new(500, 400));
    }

    /// Every span over awkward texts (line breaks of all kinds, characters of every width, a
    /// byte-order mark), inside characters and past the end: regions stay 1-based and ordered,
    /// and every writer gets through without a panic.
    #[test]
    fn any_span_gives_a_region_and_every_writer_copes() {
        use hotfix_diagnostics::{Applicability, Edit, Fix, Severity};
        let dir = tempfile::tempdir().unwrap();
        let root = SourceRoot::discover(dir.path());
        for source in [
            "",
            "\r",
            "\n",
            "\r\n",
            "é",
            "a\rb\r\nc\n",
            "𝄞\r\n𝄞",
            "\u{feff}x",
            " \t\n",
        ] {
            let lines = LineIndex::new(source);
            let mut diagnostics = Vec::new();
            for start in 0..=source.len() + 2 {
                for end in 0..=source.len() + 2 {
                    let span = Span::new(start, end);
                    for region in [
                        Region::of_finding(&lines, source, span),
                        Region::exact(&lines, source, span),
                    ] {
                        assert!(region.start_line >= 1 && region.start_column >= 1);
                        assert!(
                            (region.start_line, region.start_column)
                                <= (region.end_line, region.end_column),
                            "{source:?} {span:?} {region:?}"
                        );
                    }
                    let mut diagnostic =
                        Diagnostic::new("H999", "made-up", Severity::Warning, "m\n%", span);
                    diagnostic.label(span, "here").fix(Fix {
                        message: String::new(),
                        edits: vec![Edit::replace(span, "x")],
                        applicability: Applicability::DisplayOnly,
                    });
                    diagnostics.push(diagnostic);
                }
            }
            let files = [FileFindings {
                path: Path::new("t.yaml"),
                source,
                diagnostics: &diagnostics,
            }];
            let sarif = sarif::build(&root, &files);
            assert_eq!(
                sarif["runs"][0]["results"].as_array().unwrap().len(),
                diagnostics.len()
            );
            let mut out = Vec::new();
            github::write(&mut out, &root, &files).unwrap();
            assert!(
                String::from_utf8(out)
                    .unwrap()
                    .lines()
                    .all(|l| l.starts_with("::"))
            );
            let gitlab = gitlab::build(&root, &files);
            for issue in gitlab.as_array().unwrap() {
                let lines = &issue["location"]["lines"];
                assert!(lines["begin"].as_u64().unwrap() >= 1);
                assert!(lines["begin"].as_u64() <= lines["end"].as_u64());
            }
            let mut out = Vec::new();
            junit::write(&mut out, &root, &files).unwrap();
            let xml = String::from_utf8(out).unwrap();
            assert_eq!(xml.matches("<failure ").count(), diagnostics.len());
            let mut out = Vec::new();
            statistics::write_text(&mut out, &files).unwrap();
            assert_eq!(
                out,
                format!("{}\tH999\tmade-up\n", diagnostics.len()).as_bytes()
            );
        }
    }

    #[test]
    fn writes_atomically_and_keeps_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.sarif");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
