//! Baselines: adopt hotfix on a tree with findings, and fail only on new ones.
//!
//! `hotfix lint --write-baseline FILE` records every current finding as its rule code, its
//! path relative to the repository root, and GitHub's line fingerprint of its first line (see
//! [`crate::output::fingerprint`]). The fingerprint hashes the line's content and what follows
//! it, not its number, so lines inserted or removed above a finding, or a block moved within
//! the file, leave it matched. `hotfix lint --baseline FILE` then reports only the findings
//! that match no entry; each entry matches at most one finding.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use anyhow::{Context as _, anyhow};
use hotfix_diagnostics::Diagnostic;
use hotfix_yaml::LineIndex;
use serde::{Deserialize, Serialize};

use crate::output::fingerprint::line_hashes;
use crate::output::{FileFindings, SourceRoot};

const VERSION: u32 = 1;

/// The largest baseline read, in bytes: an entry takes about 200 bytes, so this holds a
/// million findings.
const MAX_SIZE: usize = 256 << 20;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    /// The format of this file.
    version: u32,
    /// What wrote it (for people; not read back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool: Option<String>,
    findings: Vec<Entry>,
}

/// One recorded finding.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: String,
    code: String,
    /// GitHub's `primaryLocationLineHash` of the finding's first line.
    fingerprint: String,
    /// The message when it was recorded: a finding with the same rule and message matches the
    /// entry even where its line changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// A baseline being recorded, one file at a time.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    entries: Vec<Entry>,
}

impl Recorder {
    /// Records the findings of one file.
    pub(crate) fn add(&mut self, root: &SourceRoot, file: &FileFindings<'_>) {
        if file.diagnostics.is_empty() {
            return;
        }
        let path = root.relative(file.path);
        for (diagnostic, fingerprint) in file.diagnostics.iter().zip(fingerprints(file)) {
            self.entries.push(Entry {
                path: path.clone(),
                code: diagnostic.code.to_owned(),
                fingerprint,
                message: Some(diagnostic.message.clone()),
            });
        }
    }

    /// How many findings are recorded.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The baseline file's text.
    pub(crate) fn render(mut self) -> anyhow::Result<String> {
        self.entries.sort();
        let file = BaselineFile {
            version: VERSION,
            tool: Some(format!("hotfix {}", env!("CARGO_PKG_VERSION"))),
            findings: self.entries,
        };
        let mut text = serde_json::to_string_pretty(&file)?;
        text.push('\n');
        Ok(text)
    }
}

/// The fingerprint of each diagnostic of a file, in order.
fn fingerprints(file: &FileFindings<'_>) -> Vec<String> {
    let lines = LineIndex::new(file.source);
    let hashes = line_hashes(file.source);
    file.diagnostics
        .iter()
        .map(|d| {
            let line = lines.position(file.source, d.span.start).line;
            hashes.get(line - 1).cloned().unwrap_or_default()
        })
        .collect()
}

/// The baseline file's text for these findings.
#[cfg(test)]
pub(crate) fn render(root: &SourceRoot, files: &[FileFindings<'_>]) -> anyhow::Result<String> {
    let mut recorder = Recorder::default();
    for file in files {
        recorder.add(root, file);
    }
    recorder.render()
}

/// A loaded baseline.
#[derive(Debug)]
pub(crate) struct Baseline {
    /// The entries of each file, by repository-relative path.
    files: HashMap<String, Vec<Slot>>,
    /// How many entries matched a finding where they were recorded.
    matched: usize,
    /// How many entries matched a finding whose line or the lines around it changed.
    moved: usize,
}

/// One entry of a loaded baseline, and whether a finding has taken it.
#[derive(Debug)]
struct Slot {
    code: String,
    fingerprint: String,
    message: Option<String>,
    taken: bool,
}

/// What became of a baseline's entries in a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Entries that matched a finding where they were recorded.
    pub(crate) matched: usize,
    /// Entries that matched a finding with the same rule and message elsewhere in its file.
    pub(crate) moved: usize,
    /// Entries of linted (or deleted) files that matched no finding.
    pub(crate) gone: usize,
}

impl Baseline {
    pub(crate) fn load(path: &Path) -> anyhow::Result<Baseline> {
        // A regular file only (a FIFO would be waited on), of at most `MAX_SIZE` bytes.
        let text = crate::read::text_within(path, MAX_SIZE)
            .with_context(|| format!("cannot read the baseline {}", path.display()))?;
        let file: BaselineFile = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a hotfix baseline", path.display()))?;
        if file.version != VERSION {
            return Err(anyhow!(
                "{} is a version {} baseline; this hotfix reads version {VERSION}",
                path.display(),
                file.version
            ));
        }
        let mut files: HashMap<String, Vec<Slot>> = HashMap::new();
        for entry in file.findings {
            files.entry(entry.path).or_default().push(Slot {
                code: entry.code,
                fingerprint: entry.fingerprint,
                message: entry.message,
                taken: false,
            });
        }
        Ok(Baseline {
            files,
            matched: 0,
            moved: 0,
        })
    }

    /// Removes from `diagnostics` the findings the baseline records, each entry once.
    ///
    /// A finding matches an entry of its file with its rule in three passes, as the baselines
    /// of tools built for adoption match (`PHPStan`'s and Psalm's: the file, the rule and the
    /// finding's own text, with counts): first the same message at the same line fingerprint; then the same message
    /// anywhere in the file (the finding *moved*: its line or the lines after it were edited, or
    /// code above it was rewritten); last the same fingerprint with another message (an entry
    /// written by hand without one, or a message that names something elsewhere in the file).
    /// So editing other lines of a file never brings a recorded finding back.
    pub(crate) fn remove_known(
        &mut self,
        root: &SourceRoot,
        path: &Path,
        source: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        if diagnostics.is_empty() {
            return;
        }
        let Some(slots) = self.files.get_mut(&root.relative(path)) else {
            return;
        };
        let fingerprints = fingerprints(&FileFindings {
            path,
            source,
            diagnostics,
        });
        let mut known = vec![false; diagnostics.len()];
        let passes: [fn(&Slot, &Diagnostic, &str) -> bool; 3] = [
            |slot, d, fingerprint| {
                slot.fingerprint == fingerprint && slot.message.as_deref() == Some(&d.message)
            },
            |slot, d, _| slot.message.as_deref() == Some(&d.message),
            |slot, _, fingerprint| slot.fingerprint == fingerprint,
        ];
        for (pass, matches) in passes.iter().enumerate() {
            for ((diagnostic, fingerprint), known) in
                diagnostics.iter().zip(&fingerprints).zip(&mut known)
            {
                if *known {
                    continue;
                }
                let Some(slot) = slots.iter_mut().find(|slot| {
                    !slot.taken
                        && slot.code == diagnostic.code
                        && matches(slot, diagnostic, fingerprint)
                }) else {
                    continue;
                };
                slot.taken = true;
                *known = true;
                if pass == 1 {
                    self.moved += 1;
                } else {
                    self.matched += 1;
                }
            }
        }
        let mut known = known.into_iter();
        diagnostics.retain(|_| !known.next().unwrap_or(false));
    }

    /// What became of the entries: matched, moved, and gone. Gone are those that matched no
    /// finding of a file that was linted, or whose file no longer exists; entries of files that
    /// exist but were not linted this time (a run on some files only) are left out.
    pub(crate) fn outcome(&self, root: &SourceRoot, linted: &HashSet<String>) -> Outcome {
        let gone = self
            .files
            .iter()
            .filter(|(path, _)| linted.contains(*path) || !root.resolve(path).exists())
            .map(|(_, slots)| slots.iter().filter(|slot| !slot.taken).count())
            .sum();
        Outcome {
            matched: self.matched,
            moved: self.moved,
            gone,
        }
    }
}

#[cfg(test)]
mod tests {
    use hotfix_linter::Settings;

    use super::*;

    fn lint(source: &str) -> Vec<Diagnostic> {
        hotfix_linter::lint("t.yaml", source.as_bytes(), &Settings::default())
    }

    #[test]
    fn findings_keep_their_fingerprint_when_lines_are_inserted_above() {
        let before = "heat_template_version: 2016-10-14\nresources:\n  r:\n    type: OS::Heat::None\n    properties:\n      value: {get_param: missing}\n";
        let after = before.replace(
            "resources:\n",
            "description: >\n  Lines added\n  above the finding.\nresources:\n",
        );
        let fingerprint = |source: &str| {
            let diagnostics = lint(source);
            assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
            fingerprints(&FileFindings {
                path: Path::new("t.yaml"),
                source,
                diagnostics: &diagnostics,
            })
            .remove(0)
        };
        assert_eq!(fingerprint(before), fingerprint(&after));
    }

    #[test]
    fn each_entry_matches_one_finding() {
        let dir = tempfile::tempdir().unwrap();
        let root = SourceRoot::discover(dir.path());
        let source = "heat_template_version: 2016-10-14\nresources:\n  r:\n    type: OS::Heat::None\n    properties:\n      value: {get_param: missing}\n";
        let diagnostics = lint(source);
        let files = [FileFindings {
            path: Path::new("t.yaml"),
            source,
            diagnostics: &diagnostics,
        }];
        let text = render(&root, &files).unwrap();
        let path = dir.path().join("baseline.json");
        std::fs::write(&path, &text).unwrap();
        let mut baseline = Baseline::load(&path).unwrap();
        let mut twice = [diagnostics.clone(), diagnostics.clone()].concat();
        baseline.remove_known(&root, Path::new("t.yaml"), source, &mut twice);
        assert_eq!(twice.len(), 1);
        let linted = HashSet::from(["t.yaml".to_owned()]);
        assert_eq!(baseline.outcome(&root, &linted).gone, 0);
        let mut baseline = Baseline::load(&path).unwrap();
        let mut none = Vec::new();
        baseline.remove_known(&root, Path::new("t.yaml"), source, &mut none);
        assert_eq!(baseline.outcome(&root, &linted).gone, 1);
        // Not linted this time, and still there: not stale. Gone: stale.
        std::fs::write(dir.path().join("t.yaml"), source).unwrap();
        assert_eq!(baseline.outcome(&root, &HashSet::new()).gone, 0);
        std::fs::remove_file(dir.path().join("t.yaml")).unwrap();
        assert_eq!(baseline.outcome(&root, &HashSet::new()).gone, 1);
    }
}
