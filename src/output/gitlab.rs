//! GitLab Code Quality reports: the JSON array that a CI job declares as
//! `artifacts:reports:codequality`, which GitLab shows in merge requests.
//!
//! Each finding is one object with exactly the fields GitLab documents ("Code Quality report
//! format"): `description`, `check_name`, `fingerprint`, `severity` and `location` with `path`
//! and `lines.begin` (and `lines.end`, which the Code Climate format it derives from allows).
//! GitLab reads nothing else.
//!
//! - `description` starts with the rule's code and name: GitLab does not show `check_name`.
//! - `check_name` is the rule's code, which hotfix never reuses.
//! - `severity`: error is `major`, warning `minor`, info `info`. ESLint's GitLab formatter,
//!   which GitLab's documentation points to, maps its errors and warnings the same way, so
//!   hotfix's findings rank beside other linters' in one merge request; `critical` and
//!   `blocker` stay for what security scanners find.
//! - `fingerprint`: GitLab keeps one finding per fingerprint and tells new findings from fixed
//!   ones by them, so it must be unique in a report and stable across runs. It is a 128-bit
//!   FNV-1a hash (32 hexadecimal digits, the length of the MD5 hash the documentation suggests)
//!   of the code, the repository-relative path and GitHub's line fingerprint of the finding's
//!   first line (see [`super::fingerprint`]: it follows the line's content, not its number, so
//!   lines added above leave it alone), and the finding's rank among findings that share all
//!   three.
//! - `location.path` is relative to the repository root, as in SARIF.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::{self, Write};

use hotfix_diagnostics::{Diagnostic, Severity};
use hotfix_yaml::LineIndex;
use serde_json::{Value, json};

use super::fingerprint::line_hashes;
use super::{FileFindings, JsonArray, Region, SourceRoot};

/// A report written one file at a time: a JSON array of issues, in the files' order.
pub(crate) struct Gitlab<'a> {
    out: &'a mut dyn Write,
    root: &'a SourceRoot,
    issues: JsonArray,
    /// The fingerprints given so far (they must be unique in a report).
    taken: HashSet<u128>,
}

impl<'a> Gitlab<'a> {
    pub(crate) fn new(out: &'a mut dyn Write, root: &'a SourceRoot) -> Gitlab<'a> {
        Gitlab {
            out,
            root,
            issues: JsonArray::new(0),
            taken: HashSet::new(),
        }
    }

    /// One more file's issues.
    pub(crate) fn file(&mut self, file: &FileFindings<'_>) -> io::Result<()> {
        if file.diagnostics.is_empty() {
            return Ok(());
        }
        let path = self.root.relative(file.path);
        let lines = LineIndex::new(file.source);
        let hashes = line_hashes(file.source);
        let mut ranks: HashMap<(&str, &str), usize> = HashMap::new();
        for diagnostic in file.diagnostics {
            let region = Region::of_finding(&lines, file.source, diagnostic.span);
            let line_hash = hashes.get(region.start_line - 1).map_or("", String::as_str);
            let rank = ranks.entry((diagnostic.code, line_hash)).or_insert(0);
            *rank += 1;
            let mut hash = fingerprint(diagnostic.code, &path, line_hash, *rank);
            // Two different inputs with one hash: take the next rank until the hash is new.
            while self.taken.contains(&hash) {
                *rank += 1;
                hash = fingerprint(diagnostic.code, &path, line_hash, *rank);
            }
            self.taken.insert(hash);
            let elsewhere = super::elsewhere(self.root, diagnostic);
            let issue = issue(
                diagnostic,
                &path,
                region,
                &format!("{hash:032x}"),
                &elsewhere,
            );
            self.issues.push(&mut *self.out, &issue)?;
        }
        Ok(())
    }

    /// Sends on the issues written so far.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Ends the report.
    pub(crate) fn finish(self) -> io::Result<()> {
        self.issues.close(&mut *self.out)?;
        writeln!(self.out)
    }
}

/// The report for these files: a JSON array of issues, in the files' order.
#[cfg(test)]
pub(crate) fn build(root: &SourceRoot, files: &[FileFindings<'_>]) -> Value {
    let mut out = Vec::new();
    let mut gitlab = Gitlab::new(&mut out, root);
    for file in files {
        gitlab.file(file).unwrap();
    }
    gitlab.finish().unwrap();
    serde_json::from_slice(&out).unwrap()
}

/// One issue; the places of the finding in other files follow its message in the description
/// (`(see path:line:col: message)`), which is all of an issue GitLab shows besides its file and
/// lines.
fn issue(
    diagnostic: &Diagnostic,
    path: &str,
    region: Region,
    fingerprint: &str,
    elsewhere: &[super::Place],
) -> Value {
    let message = diagnostic.message.trim();
    let message = if message.is_empty() {
        diagnostic.name
    } else {
        message
    };
    let mut description = format!("{} {}: {message}", diagnostic.code, diagnostic.name);
    for place in elsewhere {
        description.push_str(" (see ");
        let _ = write!(description, "{place}");
        description.push(')');
    }
    json!({
        "description": description,
        "check_name": diagnostic.code,
        "fingerprint": fingerprint,
        "severity": severity(diagnostic.severity),
        "location": {
            "path": path,
            "lines": {"begin": region.start_line, "end": region.end_line},
        },
    })
}

/// GitLab's severity for a hotfix severity (see the module documentation for why).
pub(crate) fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// The fingerprint of the `rank`-th finding of `code` on a line with this line hash.
fn fingerprint(code: &str, path: &str, line_hash: &str, rank: usize) -> u128 {
    let key = format!("{code}\0{path}\0{line_hash}\0{rank}");
    fnv1a_128(key.as_bytes())
}

/// 128-bit FNV-1a: small, and the same on every platform and in every release (unlike the
/// standard library's hasher, whose output may change).
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET_BASIS: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes.iter().fold(OFFSET_BASIS, |hash, &byte| {
        (hash ^ u128::from(byte)).wrapping_mul(PRIME)
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use hotfix_diagnostics::Span;

    use super::*;

    /// The published FNV-1a test vectors for 128 bits.
    #[test]
    fn fnv1a_128_matches_the_reference_vectors() {
        assert_eq!(fnv1a_128(b""), 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d);
        assert_eq!(fnv1a_128(b"a"), 0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964);
        assert_eq!(
            fnv1a_128(b"foobar"),
            0x343e_1662_793c_64bf_6f0d_3597_ba44_6f18
        );
    }

    fn diagnostic(code: &'static str, start: usize) -> Diagnostic {
        Diagnostic::new(
            code,
            "made-up",
            Severity::Error,
            "m",
            Span::new(start, start + 1),
        )
    }

    #[test]
    fn fingerprints_are_unique_and_follow_content_not_line_numbers() {
        let dir = tempfile::tempdir().unwrap();
        let root = SourceRoot::discover(dir.path());
        let report = |source: &str, diagnostics: &[Diagnostic]| {
            build(
                &root,
                &[FileFindings {
                    path: Path::new("t.yaml"),
                    source,
                    diagnostics,
                }],
            )
        };
        let fingerprints = |report: &Value| -> Vec<String> {
            report
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["fingerprint"].as_str().unwrap().to_owned())
                .collect()
        };
        // Two findings of one rule on one line, one of another rule, and one on an identical
        // line further down: four different fingerprints.
        let source = "a: 1\nb: 2\na: 1\n";
        let diagnostics = [
            diagnostic("H999", 0),
            diagnostic("H999", 1),
            diagnostic("H998", 0),
            diagnostic("H999", 10),
        ];
        let before = fingerprints(&report(source, &diagnostics));
        let unique: HashSet<&String> = before.iter().collect();
        assert_eq!(unique.len(), 4, "{before:?}");
        assert!(before.iter().all(|f| f.len() == 32));
        // Lines inserted above move the findings but keep their fingerprints.
        let shifted: Vec<Diagnostic> = diagnostics
            .iter()
            .map(|d| {
                let mut d = d.clone();
                d.span = Span::new(d.span.start + 10, d.span.end + 10);
                d
            })
            .collect();
        let after = fingerprints(&report(&format!("x: 0\ny: 0\n{source}"), &shifted));
        assert_eq!(before, after);
        let issue = &report(source, &diagnostics)[3];
        assert_eq!(issue["location"]["lines"], json!({"begin": 3, "end": 3}));
        assert_eq!(issue["severity"], "major");
        assert_eq!(issue["description"], "H999 made-up: m");
    }
}
