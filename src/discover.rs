//! Which files to lint: walking folders, and telling templates from other YAML.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{Config, Configs};

/// A file found on the command line or by walking a folder.
#[derive(Debug)]
pub(crate) struct Candidate {
    pub(crate) path: PathBuf,
    /// Named on the command line: always linted.
    pub(crate) explicit: bool,
    /// The configuration that applies to it.
    pub(crate) config: Arc<Config>,
}

/// What a file is, judged by its name and content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A HOT template (a top-level `heat_template_version`).
    Template,
    /// A Heat environment file (`resource_registry`, `parameter_defaults`, …).
    Environment,
    /// A Jinja2 source, which is not YAML until rendered.
    Jinja,
    /// Some other YAML or JSON file.
    Other,
}

impl Kind {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Kind::Template => "a template",
            Kind::Environment => "an environment file",
            Kind::Jinja => "a Jinja2 source (not YAML until rendered)",
            Kind::Other => "not a HOT template (no top-level heat_template_version)",
        }
    }
}

const EXTENSIONS: [&str; 4] = ["yaml", "yml", "json", "template"];

/// What a walk found: the files to consider, and the folders it could not read.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    pub(crate) candidates: Vec<Candidate>,
    /// `cannot read folder …` messages: never a silent pass over what could not be read.
    pub(crate) errors: Vec<String>,
}

/// The files to consider: explicit paths as given (files, and also FIFOs, `/dev/stdin` or a
/// process substitution: anything that is not a folder), folders walked (hidden files skipped,
/// `.gitignore` honoured even outside a git repository), sorted, without duplicates. Each
/// file's configuration (its nearest `hotfix.toml`) decides: its `exclude` applies to both,
/// its `include` to walked files.
pub(crate) fn walk(paths: &[PathBuf], configs: &mut Configs) -> anyhow::Result<Walk> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if !path.is_dir() {
            let config = configs.for_file(path)?;
            if !config.excluded(path) {
                out.push(Candidate {
                    path: path.clone(),
                    explicit: true,
                    config,
                });
            }
            continue;
        }
        let walker = ignore::WalkBuilder::new(path)
            .hidden(true)
            .git_ignore(true)
            .require_git(false)
            .sort_by_file_name(std::cmp::Ord::cmp)
            .build();
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => {
                    errors.push(walk_error(&err));
                    continue;
                }
            };
            let file = entry.path();
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let config = configs.for_file(file)?;
            let wanted = if config.include.is_some() {
                config.included(file)
            } else {
                file.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| EXTENSIONS.contains(&e))
            };
            if wanted && !config.excluded(file) {
                out.push(Candidate {
                    path: file.to_path_buf(),
                    explicit: false,
                    config,
                });
            }
        }
    }
    // One file once, however it was reached (`t.yaml` named and `./t.yaml` walked): two runs
    // on one file would print it twice, and could write it from two threads.
    out.sort_by_cached_key(|c| crate::paths::normalize(&c.path));
    out.dedup_by(|later, kept| {
        let same = crate::paths::normalize(&later.path) == crate::paths::normalize(&kept.path);
        if same {
            kept.explicit |= later.explicit;
        }
        same
    });
    errors.sort();
    errors.dedup();
    Ok(Walk {
        candidates: out,
        errors,
    })
}

/// A report (`--output`, `--write-baseline`) written onto one of the files being checked would
/// replace a template with it: refused.
pub(crate) fn refuse_writing_onto_input(
    flag: &str,
    output: Option<&Path>,
    candidates: &[Candidate],
) -> anyhow::Result<()> {
    let Some(output) = output else {
        return Ok(());
    };
    let Ok(output) = std::fs::canonicalize(output) else {
        return Ok(()); // It does not exist yet: it is no input.
    };
    if let Some(input) = candidates
        .iter()
        .find(|c| std::fs::canonicalize(&c.path).is_ok_and(|p| p == output))
    {
        return Err(anyhow::anyhow!(
            "{flag} {} is one of the files hotfix reads; write it elsewhere",
            input.display()
        ));
    }
    Ok(())
}

/// `cannot read folder PATH: REASON` for an error of the walk.
fn walk_error(err: &ignore::Error) -> String {
    let mut path = None;
    let mut inner = err;
    loop {
        match inner {
            ignore::Error::WithPath { path: p, err } => {
                path.get_or_insert_with(|| p.clone());
                inner = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                inner = err;
            }
            _ => break,
        }
    }
    match path {
        Some(path) => format!("cannot read folder {}: {inner}", path.display()),
        None => format!("cannot walk the folders: {inner}"),
    }
}

/// Tells a template from an environment file, a Jinja2 source or other YAML, cheaply: by the
/// file name and the top-level keys at the start of lines.
pub(crate) fn classify(path: &Path, bytes: &[u8]) -> Kind {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("j2"))
        || name.contains(".j2.")
    {
        return Kind::Jinja;
    }
    // Heat refuses a template that is not UTF-8, but it is still a template: it is told by its
    // keys in whatever encoding it has, so that lint reports it instead of skipping it.
    let text = sniffable_text(bytes);
    // A byte-order mark is not part of the first key.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut environment = false;
    // Line ends as YAML knows them: LF, CRLF, and a lone CR.
    for line in text.split(['\n', '\r']) {
        let key = top_level_key(line);
        match key {
            Some("heat_template_version") => {
                return if text.contains("{%") {
                    Kind::Jinja
                } else {
                    Kind::Template
                };
            }
            Some(
                "resource_registry"
                | "parameter_defaults"
                | "event_sinks"
                | "encrypted_param_names"
                | "parameter_merge_strategies",
            ) => environment = true,
            _ => {}
        }
    }
    // JSON templates: the key anywhere (JSON has no other way to write it).
    if text.trim_start().starts_with('{') && text.contains("\"heat_template_version\"") {
        return Kind::Template;
    }
    if environment {
        Kind::Environment
    } else {
        Kind::Other
    }
}

/// The text of a file for telling what it is: UTF-8 as it is; UTF-16 with a byte-order mark
/// decoded; anything else read as Latin-1 (every byte a character), which keeps ASCII keys.
fn sniffable_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return std::borrow::Cow::Borrowed(text);
    }
    let utf16 = |bytes: &[u8], decode: fn([u8; 2]) -> u16| {
        let units: Vec<u16> = bytes
            .chunks_exact(2)
            .map(|pair| decode([pair[0], pair[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    };
    let text = match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        _ => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    std::borrow::Cow::Owned(text)
}

/// The key of a top-level YAML mapping entry on this line (`key:` at column 0).
fn top_level_key(line: &str) -> Option<&str> {
    let first = line.chars().next()?;
    if first.is_whitespace() || first == '#' || first == '-' {
        return None;
    }
    let (key, _) = line.split_once(':')?;
    let key = key.trim_end().trim_matches(['"', '\'']);
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_templates_from_environments_jinja_and_other_yaml() {
        let kind = |name: &str, text: &str| classify(Path::new(name), text.as_bytes());
        assert_eq!(
            kind("t.yaml", "# c\nheat_template_version: 2016-10-14\n"),
            Kind::Template
        );
        assert_eq!(
            kind("t.yaml", "'heat_template_version': pike\n"),
            Kind::Template
        );
        assert_eq!(
            kind("t.json", "{\"heat_template_version\": \"pike\"}"),
            Kind::Template
        );
        assert_eq!(
            kind("bom.yaml", "\u{feff}heat_template_version: pike\n"),
            Kind::Template
        );
        assert_eq!(
            kind("e.yaml", "resource_registry:\n  A: b.yaml\n"),
            Kind::Environment
        );
        assert_eq!(
            kind("o.j2.yaml", "heat_template_version: pike\n"),
            Kind::Jinja
        );
        assert_eq!(
            kind(
                "o.yaml",
                "heat_template_version: pike\n{% for r in roles %}\n"
            ),
            Kind::Jinja
        );
        assert_eq!(
            kind(".pre-commit-config.yaml", "repos:\n  - repo: x\n"),
            Kind::Other
        );
        assert_eq!(
            kind("n.yaml", "nested:\n  heat_template_version: pike\n"),
            Kind::Other
        );
    }

    #[test]
    fn tells_templates_in_any_encoding_and_line_end_heat_might_meet() {
        let kind = |bytes: &[u8]| classify(Path::new("t.yaml"), bytes);
        assert_eq!(
            kind(b"heat_template_version: pike\ndescription: caf\xe9\n"),
            Kind::Template
        );
        let little_endian: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "heat_template_version: pike\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        assert_eq!(kind(&little_endian), Kind::Template);
        let big_endian: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(
                "# c\nheat_template_version: pike\n"
                    .encode_utf16()
                    .flat_map(u16::to_be_bytes),
            )
            .collect();
        assert_eq!(kind(&big_endian), Kind::Template);
        assert_eq!(
            kind(b"# a comment\rheat_template_version: pike\rresources: {}\r"),
            Kind::Template
        );
        assert_eq!(kind(b"\x89PNG\r\n\x1a\n\x00\x00"), Kind::Other);
    }
}
