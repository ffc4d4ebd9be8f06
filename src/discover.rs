//! Which files to lint: walking folders, and telling templates from other YAML.

use std::path::{Path, PathBuf};

pub(crate) use hotfix_workspace::kind::Kind;
pub(crate) use hotfix_workspace::walk::{Candidate, Found, Walker, kind_of_large, read};

use hotfix_workspace::config::Configs;

/// The paths a command works on (the current folder when none is given), all of which exist,
/// each once however it is spelled (`d`, `./d`, `d/../d`).
pub(crate) fn paths(given: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let paths = if given.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        given.to_vec()
    };
    for path in &paths {
        if !path.exists() {
            return Err(anyhow::anyhow!(
                "{}: no such file or folder",
                path.display()
            ));
        }
    }
    Ok(crate::rewrite::dedup_by_canonical(paths))
}

/// The reports a run writes (`--output`, `--write-baseline`), each refused when it would replace
/// one of the files the run reads.
pub(crate) struct Reports<'a> {
    /// Each report's flag, the file it would replace, and that file's name.
    existing: Vec<(&'a str, Identity, Option<std::ffi::OsString>)>,
}

impl<'a> Reports<'a> {
    /// The reports among `reports` (a flag and its path, when given) whose file exists.
    pub(crate) fn new(reports: &[(&'a str, Option<&Path>)]) -> Reports<'a> {
        let existing = reports
            .iter()
            .filter_map(|(flag, path)| {
                let path = (*path)?;
                let identity = Identity::of(path)?;
                // The name of the file a report replaces (a link is written through); none for
                // a file of several names (hard links), which every file is compared with.
                let name = std::fs::canonicalize(path)
                    .ok()
                    .filter(|_| !has_other_names(path))
                    .and_then(|target| target.file_name().map(ToOwned::to_owned));
                Some((*flag, identity, name))
            })
            .collect();
        Reports { existing }
    }

    /// `FLAG PATH is one of the files hotfix reads` when a report would replace `candidate`. A
    /// walk follows no symbolic link, so a walked file is the report's file only under that
    /// file's name: only a file of that name (ASCII letters in either case, for file systems
    /// that ignore it; any name that is not ASCII, which such a system may also normalize), one
    /// named by the user, or any file when the report's has hard links, is looked at on disk.
    pub(crate) fn check(&self, candidate: &Candidate) -> anyhow::Result<()> {
        for (flag, report, name) in &self.existing {
            let named_so = candidate.explicit
                || match (name, candidate.path.file_name()) {
                    (Some(name), Some(walked)) => may_name_the_same(name, walked),
                    _ => true,
                };
            if named_so && report.is(&candidate.path) {
                return Err(anyhow::anyhow!(
                    "{flag} {} is one of the files hotfix reads; write it elsewhere",
                    candidate.display()
                ));
            }
        }
        Ok(())
    }
}

/// Whether two file names may name one file in one folder: equal but for the case of ASCII
/// letters, or either not ASCII.
fn may_name_the_same(a: &std::ffi::OsStr, b: &std::ffi::OsStr) -> bool {
    !a.is_ascii() || !b.is_ascii() || a.eq_ignore_ascii_case(b)
}

/// Whether the file at `path` has hard links: other names than the one it is reached by.
fn has_other_names(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        std::fs::metadata(path).is_ok_and(|m| m.nlink() > 1)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// A first walk: how many files there are, and whether a report (`--output`,
/// `--write-baseline`) would replace one of them (refused, before anything is written).
pub(crate) fn prescan(
    paths: &[PathBuf],
    configs: &mut Configs,
    reports: &[(&str, Option<&Path>)],
) -> anyhow::Result<usize> {
    let reports = Reports::new(reports);
    let mut total = 0;
    for found in Walker::new(paths, configs)? {
        let Found::Candidate(candidate) = found? else {
            continue;
        };
        total += 1;
        reports.check(&candidate)?;
    }
    Ok(total)
}

/// What a file is on disk, whatever path leads to it (a symbolic link, `..`).
#[derive(Debug)]
pub(crate) struct Identity {
    #[cfg(unix)]
    id: (u64, u64),
    #[cfg(not(unix))]
    id: PathBuf,
}

impl Identity {
    /// The identity of an existing file.
    pub(crate) fn of(path: &Path) -> Option<Identity> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let metadata = std::fs::metadata(path).ok()?;
            Some(Identity {
                id: (metadata.dev(), metadata.ino()),
            })
        }
        #[cfg(not(unix))]
        {
            Some(Identity {
                id: std::fs::canonicalize(path).ok()?,
            })
        }
    }

    /// Whether `path` leads to this file.
    pub(crate) fn is(&self, path: &Path) -> bool {
        Identity::of(path).is_some_and(|other| other.id == self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_s_name_is_compared_as_a_case_folding_file_system_would() {
        use std::ffi::OsStr;
        assert!(may_name_the_same(
            OsStr::new("t.yaml"),
            OsStr::new("t.yaml")
        ));
        assert!(may_name_the_same(
            OsStr::new("T.YAML"),
            OsStr::new("t.yaml")
        ));
        assert!(may_name_the_same(
            OsStr::new("caf\u{e9}.yaml"),
            OsStr::new("cafe\u{301}.yaml")
        ));
        assert!(!may_name_the_same(
            OsStr::new("report.sarif"),
            OsStr::new("t.yaml")
        ));
    }
}
