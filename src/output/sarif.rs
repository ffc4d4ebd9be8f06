//! SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
//!
//! One run; the rules that fired, each with its documentation, help URI, default level,
//! tags, precision and severity as GitHub reads them; every result with a repository-relative
//! URI, a UTF-16 region, GitHub's line fingerprint, and the fix when there is one.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, BufRead as _, Seek as _, Write};

use hotfix_diagnostics::{Diagnostic, Severity};
use hotfix_linter::Rule;
use hotfix_yaml::LineIndex;
use serde_json::{Value, json};

use super::fingerprint::line_hashes;
use super::{FileFindings, Region, SourceRoot};

pub(crate) const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The repository, from the workspace's `Cargo.toml`.
pub(crate) const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
const SRCROOT: &str = "%SRCROOT%";

/// Where the results go in the log's skeleton until they are written.
const RESULTS: &str = "\u{0}results";

/// A SARIF log written one file at a time. Each result goes to a spool (an unnamed temporary
/// file, one compact JSON line each) as its file comes; [`Sarif::finish`] writes the log, once
/// the rules that fired, and so each result's `ruleIndex`, are known. Memory holds the rules
/// and one result, whatever the size of the run.
pub(crate) struct Sarif<'a> {
    root: &'a SourceRoot,
    /// The rules that fired (a finding of each), sorted by code; `ruleIndex` points into them.
    fired: BTreeMap<&'static str, Diagnostic>,
    spool: io::BufWriter<std::fs::File>,
    results: usize,
}

impl<'a> Sarif<'a> {
    /// A log of findings with paths relative to `root`.
    pub(crate) fn new(root: &'a SourceRoot) -> io::Result<Sarif<'a>> {
        Ok(Sarif {
            root,
            fired: BTreeMap::new(),
            spool: io::BufWriter::new(tempfile::tempfile()?),
            results: 0,
        })
    }

    /// One more file's results.
    pub(crate) fn file(&mut self, file: &FileFindings<'_>) -> io::Result<()> {
        if file.diagnostics.is_empty() {
            return Ok(());
        }
        let uri = self.root.uri(file.path);
        let lines = LineIndex::new(file.source);
        let hashes = line_hashes(file.source);
        for diagnostic in file.diagnostics {
            self.fired
                .entry(diagnostic.code)
                .or_insert_with(|| diagnostic.clone());
            // `ruleIndex` is set when the log is written.
            let result = result(diagnostic, 0, &uri, self.root, file.source, &lines, &hashes);
            serde_json::to_writer(&mut self.spool, &result)?;
            self.spool.write_all(b"\n")?;
            self.results += 1;
        }
        Ok(())
    }

    /// Writes the log on `out`; returns how many results it holds.
    pub(crate) fn finish(self, out: &mut dyn Write) -> io::Result<usize> {
        let Sarif {
            fired,
            spool,
            results,
            ..
        } = self;
        let index: BTreeMap<&str, usize> = fired.keys().enumerate().map(|(i, c)| (*c, i)).collect();
        let rules: Vec<Value> = fired.values().map(descriptor).collect();
        let (before, after, depth) = super::split_around(&skeleton(&rules), RESULTS)?;
        out.write_all(before.as_bytes())?;
        let mut spool = spool.into_inner().map_err(io::IntoInnerError::into_error)?;
        spool.seek(io::SeekFrom::Start(0))?;
        let mut array = super::JsonArray::new(depth);
        let mut line = String::new();
        let mut reader = io::BufReader::new(spool);
        while reader.read_line(&mut line)? > 0 {
            let mut result: Value = serde_json::from_str(&line)?;
            let code = result["ruleId"].as_str().unwrap_or_default();
            let rule_index = index.get(code).copied().unwrap_or_default();
            result["ruleIndex"] = json!(rule_index);
            array.push(&mut *out, &result)?;
            line.clear();
        }
        array.close(&mut *out)?;
        out.write_all(after.as_bytes())?;
        writeln!(out)?;
        Ok(results)
    }
}

/// Writes the SARIF log of these files' findings; returns how many results it holds.
#[cfg(test)]
pub(crate) fn write(
    out: &mut dyn Write,
    root: &SourceRoot,
    files: &[FileFindings<'_>],
) -> io::Result<usize> {
    let mut sarif = Sarif::new(root)?;
    for file in files {
        sarif.file(file)?;
    }
    sarif.finish(out)
}

/// The log around its results (which stand as [`RESULTS`]).
fn skeleton(rules: &[Value]) -> Value {
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "hotfix",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": REPOSITORY,
                    "rules": rules,
                },
            },
            "originalUriBaseIds": {
                SRCROOT: {
                    "description": {
                        "text": "The root of the repository (the git work tree) hotfix ran in, or the folder it ran in outside a repository.",
                    },
                },
            },
            "columnKind": "utf16CodeUnits",
            "results": RESULTS,
        }],
    })
}

/// The `reportingDescriptor` of the rule behind a diagnostic.
fn descriptor(diagnostic: &Diagnostic) -> Value {
    if let Some(rule) = hotfix_linter::upgrade::all_upgrade_rules()
        .iter()
        .find(|r| r.code == diagnostic.code)
    {
        let documentation = rule.documentation().trim().to_owned();
        let help_uri = format!(
            "{REPOSITORY}/blob/main/{}",
            hotfix_linter::docs::upgrade_rule_page_path(rule)
        );
        return json!({
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": hotfix_linter::docs::upgrade_rule_summary(rule)},
            "fullDescription": {"text": hotfix_linter::docs::upgrade_rule_summary(rule)},
            "help": {
                "text": documentation,
                "markdown": format!("{documentation}\n\n[{} `{}`]({help_uri})", rule.code, rule.name),
            },
            "helpUri": help_uri,
            "defaultConfiguration": {"level": level(rule.severity)},
            "properties": properties(rule.code, rule.severity),
        });
    }
    let Some(rule) = hotfix_linter::rule_by_code(diagnostic.code) else {
        // Not a lint rule (a finding of another command): what the diagnostic itself says.
        return json!({
            "id": diagnostic.code,
            "name": diagnostic.name,
            "shortDescription": {"text": diagnostic.name},
            "defaultConfiguration": {"level": level(diagnostic.severity)},
            "properties": properties(diagnostic.code, diagnostic.severity),
        });
    };
    let documentation = rule.documentation().trim().to_owned();
    let help_uri = format!(
        "{REPOSITORY}/blob/main/{}",
        hotfix_linter::docs::rule_page_path(rule)
    );
    json!({
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary()},
        "fullDescription": {"text": what_it_does(rule)},
        "help": {
            "text": documentation,
            "markdown": format!("{documentation}\n\n[{} `{}`]({help_uri})", rule.code, rule.name),
        },
        "helpUri": help_uri,
        "defaultConfiguration": {"level": level(rule.severity)},
        "properties": properties(rule.code, rule.severity),
    })
}

/// Tags, precision and severity as GitHub code scanning reads them. `CodeQL` writes the
/// severity under the flat key `problem.severity`, which is what GitHub and most SARIF tools
/// read; the nested `problem.severity` is there for tools that follow the path literally.
fn properties(code: &str, severity: Severity) -> Value {
    let problem_severity = match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "recommendation",
    };
    json!({
        "tags": ["heat", family(code)],
        "precision": "very-high",
        "problem.severity": problem_severity,
        "problem": {"severity": problem_severity},
    })
}

/// The family of a rule, from its code (see `hotfix rules`).
fn family(code: &str) -> &'static str {
    if code.starts_with('U') {
        return "upgrade";
    }
    match code.as_bytes().get(1) {
        Some(b'0') => "yaml",
        Some(b'1') => "template",
        Some(b'2') => "functions",
        Some(b'3') => "references",
        Some(b'4') => "parameters",
        Some(b'5') => "parameter-groups",
        Some(b'6') => "resources",
        Some(b'7') => "outputs",
        Some(b'8') => "conditions",
        Some(b'9') => "repeat",
        _ => "other",
    }
}

/// The whole "What it does" section of a rule's documentation, on one line.
fn what_it_does(rule: &Rule) -> String {
    let doc = rule.documentation();
    let section = doc
        .split("## What it does")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap_or_default();
    let text = section.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        rule.summary()
    } else {
        text
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Text for the inside of an embedded link: SARIF escapes `[`, `]` and `\\` there.
fn link_text(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('[', "\\[")
        .replace(']', "\\]")
}

/// A `location` of `relatedLocations` (its `id` is set by the caller).
fn related_location(message: &str, artifact: &Value, region: Region) -> Value {
    json!({
        "id": 0,
        "message": {"text": message},
        "physicalLocation": {
            "artifactLocation": artifact,
            "region": region_json(region),
        },
    })
}

fn region_json(region: Region) -> Value {
    json!({
        "startLine": region.start_line,
        "startColumn": region.start_column,
        "endLine": region.end_line,
        "endColumn": region.end_column,
    })
}

/// One result. Its labels are its `relatedLocations`, those in the finding's file first, then
/// those in other files, each with that file's URI, relative to the root as the finding's is.
fn result(
    diagnostic: &Diagnostic,
    rule_index: usize,
    uri: &str,
    root: &SourceRoot,
    source: &str,
    lines: &LineIndex,
    hashes: &[String],
) -> Value {
    let region = Region::of_finding(lines, source, diagnostic.span);
    let mut message = diagnostic.message.trim().to_owned();
    if message.is_empty() {
        diagnostic.name.clone_into(&mut message);
    }
    // GitHub code scanning shows a related location only where the message links to it
    // (SARIF's embedded links, `[text](id)`): each place in another file gets a line that does.
    for (i, place) in super::elsewhere(root, diagnostic).iter().enumerate() {
        let id = diagnostic.labels.len() + i + 1;
        let _ = write!(
            message,
            "\nsee [{}]({id}): {}",
            link_text(&place.at),
            place.message
        );
    }
    if let Some(help) = diagnostic.help.as_deref().filter(|h| !h.trim().is_empty()) {
        message.push_str("\nhelp: ");
        message.push_str(help.trim());
    }
    let artifact = json!({"uri": uri, "uriBaseId": SRCROOT});
    let mut result = json!({
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": level(diagnostic.severity),
        "message": {"text": message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": artifact,
                "region": region_json(region),
            },
        }],
    });
    if let Some(hash) = hashes.get(region.start_line - 1) {
        result["partialFingerprints"] = json!({"primaryLocationLineHash": hash});
    }
    let mut related: Vec<Value> = diagnostic
        .labels
        .iter()
        .map(|label| {
            related_location(
                &label.message,
                &artifact,
                Region::of_finding(lines, source, label.span),
            )
        })
        .collect();
    for label in &diagnostic.file_labels {
        let other = json!({
            "uri": root.uri(std::path::Path::new(&*label.path)),
            "uriBaseId": SRCROOT,
        });
        let lines = LineIndex::new(&label.source);
        let region = Region::of_finding(&lines, &label.source, label.span);
        related.push(related_location(&label.message, &other, region));
    }
    for (id, location) in related.iter_mut().enumerate() {
        location["id"] = json!(id + 1);
    }
    if !related.is_empty() {
        result["relatedLocations"] = Value::Array(related);
    }
    if let Some(fix) = &diagnostic.fix {
        let replacements: Vec<Value> = fix
            .edits
            .iter()
            .map(|edit| {
                let mut replacement = json!({
                    "deletedRegion": region_json(Region::exact(lines, source, edit.span)),
                });
                if !edit.content.is_empty() {
                    replacement["insertedContent"] = json!({"text": edit.content});
                }
                replacement
            })
            .collect();
        let description = if fix.message.trim().is_empty() {
            "Apply the fix"
        } else {
            fix.message.as_str()
        };
        result["fixes"] = json!([{
            "description": {"text": description},
            "artifactChanges": [{
                "artifactLocation": artifact,
                "replacements": replacements,
            }],
            "properties": {"applicability": fix.applicability.as_str()},
        }]);
    }
    result
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use hotfix_diagnostics::{Applicability, Edit, Fix, Span};
    use hotfix_linter::Settings;

    use super::*;

    fn lint(source: &str) -> Vec<Diagnostic> {
        let settings = Settings {
            select: vec![hotfix_linter::Selector::All],
            ..Settings::default()
        };
        hotfix_linter::lint("t.yaml", source.as_bytes(), &settings)
    }

    fn root() -> (tempfile::TempDir, SourceRoot) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let root = SourceRoot::discover(dir.path());
        (dir, root)
    }

    /// The log as a JSON value.
    fn build(root: &SourceRoot, files: &[FileFindings<'_>]) -> Value {
        let mut out = Vec::new();
        write(&mut out, root, files).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    const TEMPLATE: &str = "heat_template_version: 2016-10-14\nparameters:\n  unused:\n    type: string\nresources:\n  r:\n    type: OS::Heat::None\n    properties:\n      value: {get_param: missing}\n";

    #[test]
    fn describes_the_rules_that_fired_and_locates_every_result() {
        let (_dir, root) = root();
        let diagnostics = lint(TEMPLATE);
        assert!(diagnostics.len() >= 2, "{diagnostics:?}");
        let sarif = build(
            &root,
            &[FileFindings {
                path: Path::new("templates/t.yaml"),
                source: TEMPLATE,
                diagnostics: &diagnostics,
            }],
        );
        let run = &sarif["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let ids: Vec<_> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["H301", "H408"]);
        let h301 = &rules[0];
        assert_eq!(h301["name"], "undefined-parameter");
        assert_eq!(
            h301["helpUri"],
            format!("{REPOSITORY}/blob/main/rules/H301-undefined-parameter.md")
        );
        assert!(
            h301["help"]["markdown"]
                .as_str()
                .unwrap()
                .contains("## Why is this bad?")
        );
        assert_eq!(h301["defaultConfiguration"]["level"], "error");
        assert_eq!(h301["properties"]["problem.severity"], "error");
        assert_eq!(rules[1]["properties"]["problem"]["severity"], "warning");
        for result in run["results"].as_array().unwrap() {
            let location = &result["locations"][0]["physicalLocation"];
            assert_eq!(location["artifactLocation"]["uri"], "templates/t.yaml");
            assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
            let index = usize::try_from(result["ruleIndex"].as_u64().unwrap()).unwrap();
            assert_eq!(rules[index]["id"], result["ruleId"]);
            assert!(
                result["partialFingerprints"]["primaryLocationLineHash"]
                    .as_str()
                    .unwrap()
                    .contains(':')
            );
        }
        let missing = &run["results"][1];
        assert_eq!(missing["ruleId"], "H301");
        assert_eq!(
            missing["locations"][0]["physicalLocation"]["region"],
            json!({"startLine": 9, "startColumn": 26, "endLine": 9, "endColumn": 33})
        );
    }

    #[test]
    fn fixes_become_replacements() {
        let (_dir, root) = root();
        let source = "a: é\nb: 1\n";
        let mut diagnostic = Diagnostic::new(
            "H999",
            "made-up",
            Severity::Info,
            "message",
            Span::new(7, 8),
        );
        diagnostic.fix(Fix {
            message: "Replace and insert".to_owned(),
            edits: vec![Edit::replace(Span::new(3, 5), "e"), Edit::insert(11, "c")],
            applicability: Applicability::Safe,
        });
        let sarif = build(
            &root,
            &[FileFindings {
                path: Path::new("t.yaml"),
                source,
                diagnostics: std::slice::from_ref(&diagnostic),
            }],
        );
        let result = &sarif["runs"][0]["results"][0];
        assert_eq!(result["level"], "note");
        let fix = &result["fixes"][0];
        assert_eq!(fix["description"]["text"], "Replace and insert");
        let replacements = &fix["artifactChanges"][0]["replacements"];
        assert_eq!(
            replacements[0],
            json!({
                "deletedRegion": {"startLine": 1, "startColumn": 4, "endLine": 1, "endColumn": 5},
                "insertedContent": {"text": "e"},
            })
        );
        assert_eq!(
            replacements[1]["deletedRegion"],
            json!({"startLine": 3, "startColumn": 1, "endLine": 3, "endColumn": 1})
        );
        // A code that is no lint rule still gets a descriptor.
        assert_eq!(sarif["runs"][0]["tool"]["driver"]["rules"][0]["id"], "H999");
    }
}
