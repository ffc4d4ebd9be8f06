//! What a file is, by its name and content: a template, an environment, a blueprint, a Jinja2
//! source or something else: the one model of file kinds of a run (the walk of `hotfix lint`, the
//! search for the tree's environments and the language server tell files apart by it).

use std::path::Path;

/// What a file is, judged by its name and content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A HOT template (a top-level `heat_template_version`).
    Template,
    /// A Cloudify blueprint (a top-level `tosca_definitions_version: cloudify_dsl_…`).
    Blueprint,
    /// A Heat environment file (`resource_registry`, `parameter_defaults`, …).
    Environment,
    /// A Jinja2 source, which is not YAML until rendered.
    Jinja,
    /// Some other YAML or JSON file, or text.
    Other,
    /// A file named on the command line that loads and has none of a template's sections at
    /// its top level (a roles list, a playbook, `package.json`).
    Data,
    /// A file whose first bytes are not text (a NUL byte): not read further.
    Binary,
    /// A file of another extension than a template's whose first lines show a template or an
    /// environment key, but which does not load as YAML (a script holding a template in a
    /// string).
    NotYaml,
    /// A file of another extension than a template's, too large to be read whole.
    Large,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Template => "a template",
            Kind::Blueprint => "a Cloudify blueprint",
            Kind::Environment => "an environment file",
            Kind::Jinja => "a Jinja2 source (not YAML until rendered)",
            Kind::Other => {
                "not a HOT template or environment (no top-level heat_template_version, nor an \
                 environment's section; a file holding only a `parameters` mapping is an \
                 environment when its name says so, or when given with -e)"
            }
            Kind::Data => "not a HOT template (its top level has none of a template's sections)",
            Kind::Binary => "not text (binary data; only its first bytes were read)",
            Kind::NotYaml => {
                "not a HOT template (a line starts with a template's or an environment's key, \
                 but the file does not load as YAML)"
            }
            Kind::Large => {
                "not a HOT template (not a template's extension, and larger than Heat reads)"
            }
        }
    }
}

/// The extensions HOT users give templates and environment files: a walked file with one of
/// them (in any case) is read whole and told by its content. A file of any other extension is
/// told by its first [`SNIFF`] bytes, and read whole only when they show a template, an
/// environment or a blueprint.
const EXTENSIONS: [&str; 6] = ["yaml", "yml", "json", "template", "hot", "env"];

/// How much of a file of another extension is read to tell what it is: its top-level
/// `heat_template_version` (or environment section) must start within it.
pub const SNIFF: usize = 64 * 1024;

/// Whether the file's extension is one of a template's or an environment's ([`EXTENSIONS`]).
pub fn has_template_extension(path: &Path) -> bool {
    let known = |e: &[u8]| {
        EXTENSIONS
            .iter()
            .any(|k| e.eq_ignore_ascii_case(k.as_bytes()))
    };
    // A walk asks for every file it lists: told from the name's bytes where they are plain
    // (`Path::extension` parses every component first).
    if let Some(name) = plain_file_name(path) {
        return match name.iter().rposition(|&b| b == b'.') {
            // `.yaml` alone is a hidden file's name, without extension.
            Some(0) | None => false,
            Some(dot) => known(&name[dot + 1..]),
        };
    }
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| known(e.as_bytes()))
}

/// The last component of `path` as bytes, when `Path::file_name` would give it unchanged: a
/// Unix path that does not end with a separator, `.` or `..`.
pub(crate) fn plain_file_name(path: &Path) -> Option<&[u8]> {
    if cfg!(windows) {
        return None;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    let name = bytes.rsplit(|&b| b == b'/').next()?;
    (!matches!(name, b"" | b"." | b"..")).then_some(name)
}

/// What the first bytes of a file of another extension than a template's say: `Some(kind)`
/// when it is surely not a template, an environment or a blueprint (binary data, or text
/// without their keys), `None` when it must be read whole to tell.
pub fn sniff(path: &Path, head: &[u8]) -> Option<Kind> {
    let utf16 = head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]);
    if !utf16 && head.contains(&0) {
        return Some(Kind::Binary);
    }
    // A character cut at the end of the first bytes is not a reason to read them as Latin-1.
    let head = match std::str::from_utf8(head) {
        Err(err) if err.error_len().is_none() => &head[..err.valid_up_to()],
        _ => head,
    };
    // By content, and a parameters-only file by its name (read whole to tell); a
    // `nova.conf.j2` without a template's keys is no Jinja2 source of one, whatever its name.
    let name = path.file_name().map_or(Path::new(""), Path::new);
    let name = if name.to_string_lossy().contains(".j2") {
        Path::new("")
    } else {
        name
    };
    match by_lines(name, head) {
        ByLines::Kind(Kind::Template | Kind::Environment | Kind::Blueprint | Kind::Jinja)
        | ByLines::NamedParameters => None,
        ByLines::Kind(kind) => Some(kind),
    }
}

/// What a file named on the command line is when its content shows neither a template nor an
/// environment ([`classify`] says [`Kind::Other`] or [`Kind::Jinja`]): a template, to be
/// linted (and its mistakes reported), unless it loads and nothing at its top level is a
/// template's: a mapping with no version key, no `resources`, nor a likely misspelling of one,
/// and not only a template's other sections (`description`, `parameters`, `outputs`, …); a
/// list or a scalar that does not name a version key anywhere. A file that does not load, is
/// not UTF-8 or is empty stays a template: Heat's loader has something to say about it.
pub fn named_kind(bytes: &[u8]) -> Kind {
    let Ok(text) = hotfix_yaml::check_bytes(bytes) else {
        return Kind::Template;
    };
    let doc = match hotfix_yaml::parse_unlimited(text) {
        Ok(doc) => doc,
        // A list of roles, a playbook: a template in a list would name its version key.
        Err(err) if err.kind == hotfix_yaml::LoadErrorKind::NotMapping => {
            let names_version = TEMPLATE_KEYS[..3].iter().any(|key| text.contains(key));
            return if names_version {
                Kind::Template
            } else {
                Kind::Data
            };
        }
        Err(_) => return Kind::Template,
    };
    let keys: Vec<String> = doc
        .entries(doc.root())
        .iter()
        .map(|e| hotfix_hot::key_name(&doc, e.key))
        .collect();
    if is_template_like(&keys) {
        Kind::Template
    } else {
        Kind::Data
    }
}

/// The keys that make a mapping a template, as Heat spells them.
const TEMPLATE_KEYS: [&str; 5] = [
    "heat_template_version",
    "HeatTemplateFormatVersion",
    "AWSTemplateFormatVersion",
    "resources",
    "Resources",
];

/// The other sections of a HOT or CFN template.
const OTHER_SECTIONS: [&str; 11] = [
    "description",
    "parameter_groups",
    "parameters",
    "outputs",
    "conditions",
    "Description",
    "Parameters",
    "Mappings",
    "Outputs",
    "Conditions",
    "Metadata",
];

/// Whether these top-level keys are a template's: a version key or `resources` (or a likely
/// misspelling of one: `heat_template_versoin`, `resource`), or only other template sections.
fn is_template_like(keys: &[String]) -> bool {
    let near = |key: &str| {
        TEMPLATE_KEYS.contains(&key) || hotfix_linter::did_you_mean(key, TEMPLATE_KEYS).is_some()
    };
    keys.iter().any(|k| near(k))
        || (!keys.is_empty() && keys.iter().all(|k| OTHER_SECTIONS.contains(&k.as_str())))
}

/// Tells a template from an environment file, a Jinja2 source or other YAML, cheaply: by the
/// file name and the top-level keys at the start of lines.
pub fn classify(path: &Path, bytes: &[u8]) -> Kind {
    match by_lines(path, bytes) {
        ByLines::Kind(kind) => kind,
        ByLines::NamedParameters => parameters_environment(bytes),
    }
}

/// What [`classify`] tells from the file name and the top-level keys at the start of lines.
enum ByLines {
    Kind(Kind),
    /// Its only top-level key is `parameters`, and its name says it is an environment
    /// ([`named_as_environment`]): the file must load to tell ([`parameters_environment`]).
    NamedParameters,
}

fn by_lines(path: &Path, bytes: &[u8]) -> ByLines {
    // The name as text (none when it is not UTF-8), compared without regard to case.
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("j2"))
        || name
            .as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b".j2."))
    {
        return ByLines::Kind(Kind::Jinja);
    }
    // A K2HR3 template (`hotfix_linter::lint` gives it the `K` rules).
    if hotfix_linter::is_k2hr3(bytes) {
        return ByLines::Kind(Kind::Template);
    }
    // Heat refuses a template that is not UTF-8, but it is still a template: it is told by its
    // keys in whatever encoding it has, so that lint reports it instead of skipping it.
    let text = sniffable_text(bytes);
    // A byte-order mark is not part of the first key.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if let Some(keys) = flow_keys(text) {
        // JSON (or YAML in flow style): only a key of the top-level mapping counts, not one
        // inside it (an API request that holds a template under `template`).
        return if keys.iter().any(|k| k == "heat_template_version") {
            ByLines::Kind(Kind::Template)
        } else if keys.iter().any(|k| ENVIRONMENT_KEYS.contains(&k.as_str())) {
            ByLines::Kind(Kind::Environment)
        } else if !keys.is_empty()
            && keys.iter().all(|k| k == "parameters")
            && named_as_environment(&name.to_ascii_lowercase())
        {
            ByLines::NamedParameters
        } else {
            ByLines::Kind(Kind::Other)
        };
    }
    let mut environment = false;
    // Whether every top-level key is `parameters` (and there is one).
    let mut only_parameters: Option<bool> = None;
    // Line ends as YAML knows them: LF, CRLF, and a lone CR.
    for line in lines(text) {
        // Most lines are indented, comments or items: none has a top-level key.
        if matches!(
            line.as_bytes().first(),
            None | Some(b' ' | b'\t' | b'#' | b'-')
        ) {
            continue;
        }
        let key = top_level_key(line);
        if let Some(key) = key {
            only_parameters = Some(only_parameters.unwrap_or(true) && key == "parameters");
        }
        match key {
            Some("heat_template_version") => {
                return ByLines::Kind(if memchr::memmem::find(text.as_bytes(), b"{%").is_some() {
                    Kind::Jinja
                } else {
                    Kind::Template
                });
            }
            Some("tosca_definitions_version") if is_cloudify_version(line) => {
                return ByLines::Kind(Kind::Blueprint);
            }
            Some(key) if ENVIRONMENT_KEYS.contains(&key) => environment = true,
            _ => {}
        }
    }
    if environment {
        ByLines::Kind(Kind::Environment)
    } else if only_parameters == Some(true) && named_as_environment(&name.to_ascii_lowercase()) {
        ByLines::NamedParameters
    } else {
        ByLines::Kind(Kind::Other)
    }
}

/// A file whose only top-level key is `parameters` and whose name says it is an environment:
/// one when that key holds a mapping (or nothing), as an environment's does; other tools' files
/// named so hold other things there (an `OpenAPI` fragment's list). One that does not load is
/// an environment with a mistake (linted, its error reported), unless it holds a renderer's
/// `{{` or `{%` (a Jinja2 source, told as a file that does not load).
fn parameters_environment(bytes: &[u8]) -> Kind {
    let Some(doc) = hotfix_yaml::check_bytes(bytes)
        .ok()
        .and_then(|text| hotfix_yaml::parse_unlimited(text).ok())
    else {
        let rendered = bytes.windows(2).any(|w| w == b"{{" || w == b"{%");
        return if rendered {
            Kind::NotYaml
        } else {
            Kind::Environment
        };
    };
    let value = doc.get(doc.root(), "parameters").map(|v| doc.resolve(v));
    let mapping = value.is_some_and(|v| {
        matches!(doc.node(v).kind, hotfix_yaml::NodeKind::Mapping { .. })
            || doc
                .scalar(v)
                .is_some_and(|s| s.value == hotfix_yaml::ScalarValue::Null)
    });
    if mapping {
        Kind::Environment
    } else {
        Kind::Other
    }
}

/// Whether a file whose only section is `parameters` (the commonest environment, and a key
/// other tools' files have too) is an environment by its name (lower case): `env` or `param` in
/// it (`env.yaml`, `prod.env`, `stack_environment.yml`, `params.yaml`). `-e` reads any file as
/// an environment.
fn named_as_environment(name: &str) -> bool {
    name.contains("env") || name.contains("param")
}

/// The top-level keys that make a file an environment, when it has no template version
/// (`parameters` is a template's section too).
const ENVIRONMENT_KEYS: [&str; 5] = [
    "resource_registry",
    "parameter_defaults",
    "event_sinks",
    "encrypted_param_names",
    "parameter_merge_strategies",
];

/// The keys of the top-level mapping of a document written in flow style (JSON, or YAML's
/// `{…}`), as far as `text` goes; `None` when the document is not a flow mapping. Quoted keys
/// are taken as written (Heat's keys need no escapes); a key nested at any depth is not one.
fn flow_keys(text: &str) -> Option<Vec<String>> {
    let start = document_start(text)?;
    let mut chars = text[start..].char_indices().peekable();
    if chars.next().map(|(_, c)| c) != Some('{') {
        return None;
    }
    // `{%`, `{{`, `{#`: a Jinja2 source, not a flow mapping.
    if chars
        .peek()
        .is_some_and(|&(_, c)| matches!(c, '%' | '{' | '#'))
    {
        return None;
    }
    let rest = &text[start..];
    let mut keys = Vec::new();
    let mut depth = 1usize;
    // At the top level, after `{` or `,`: the next scalar is a key.
    let mut expect_key = true;
    // Where a scalar may begin (after an indicator or a space): a quote there opens a string.
    let mut at_token = true;
    while let Some((at, c)) = chars.next() {
        match c {
            '"' | '\'' if at_token => {
                let from = at + 1;
                let mut end = rest.len();
                while let Some((i, q)) = chars.next() {
                    if q == '\\' && c == '"' {
                        chars.next();
                    } else if q == c {
                        if c == '\'' && chars.peek().is_some_and(|&(_, n)| n == '\'') {
                            chars.next();
                            continue;
                        }
                        end = i;
                        break;
                    }
                }
                if depth == 1 && expect_key {
                    if followed_by_colon(&rest[(end + 1).min(rest.len())..]) {
                        keys.push(rest[from..end].to_owned());
                    }
                    expect_key = false;
                }
                at_token = false;
            }
            '#' if at_token => {
                // A comment, to the end of the line.
                while chars.next_if(|&(_, n)| n != '\n' && n != '\r').is_some() {}
            }
            '{' | '[' => {
                depth += 1;
                at_token = true;
                expect_key = false;
            }
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
                at_token = false;
            }
            ',' => {
                expect_key = depth == 1;
                at_token = true;
            }
            ':' => {
                expect_key = false;
                at_token = true;
            }
            c if c.is_whitespace() => at_token = true,
            _ => {
                if depth == 1 && expect_key {
                    // A plain key: up to the `: ` (or `,`, `}`) that ends it.
                    let line_end = rest[at..].find(['\n', '\r']).map_or(rest.len(), |e| at + e);
                    let plain = &rest[at..line_end];
                    let end = plain
                        .match_indices(':')
                        .map(|(i, _)| i)
                        .find(|&i| {
                            plain[i + 1..]
                                .chars()
                                .next()
                                .is_none_or(|n| n.is_whitespace() || ",[]{}".contains(n))
                        })
                        .filter(|&i| !plain[..i].contains([',', '}']));
                    if let Some(end) = end {
                        keys.push(plain[..end].trim_end().to_owned());
                        while chars.next_if(|&(i, _)| i < at + end).is_some() {}
                    }
                    expect_key = false;
                }
                at_token = false;
            }
        }
    }
    Some(keys)
}

/// Whether the text goes on with `:` (after spaces): what makes a quoted scalar a key.
fn followed_by_colon(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with(':')
}

/// Where a document's content begins: after blank lines, comment lines, directives and a
/// `---` marker.
fn document_start(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive(['\n', '\r']) {
        let content = line.trim_start();
        let indent = line.len() - content.len();
        let content = content.trim_end_matches(['\n', '\r']);
        if content.is_empty() || content.starts_with('#') || content.starts_with('%') {
            offset += line.len();
            continue;
        }
        // `--- {…}`: the content after the marker.
        if let Some(after) = content.strip_prefix("---")
            && (after.is_empty() || after.starts_with([' ', '\t']))
        {
            let rest = after.trim_start();
            if rest.is_empty() || rest.starts_with('#') {
                offset += line.len();
                continue;
            }
            return Some(offset + indent + content.len() - rest.len());
        }
        return Some(offset + indent);
    }
    None
}

/// Whether a `tosca_definitions_version:` line names a Cloudify DSL version.
fn is_cloudify_version(line: &str) -> bool {
    line.split_once(':').is_some_and(|(_, value)| {
        value
            .trim()
            .trim_matches(['"', '\''])
            .starts_with("cloudify_dsl_")
    })
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

/// The lines of `text` split at every line end YAML knows (LF, CR; a CRLF gives an empty line
/// between), as `text.split(['\n', '\r'])` gives them, found with `memchr`.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut from = 0;
    memchr::memchr2_iter(b'\n', b'\r', text.as_bytes())
        .map(Some)
        .chain([None])
        .map(move |end| {
            let end = end.unwrap_or(text.len());
            // Both ends are at ASCII bytes (or the end), so on character boundaries.
            let line = &text[from..end];
            from = end + 1;
            line
        })
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
    fn a_template_extension_is_told_from_the_name_as_path_extension_tells_it() {
        let slow = |path: &Path| {
            path.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| EXTENSIONS.iter().any(|k| e.eq_ignore_ascii_case(k)))
        };
        for path in [
            "a.yaml",
            "a.YML",
            "dir/a.json",
            "/x/y/a.template",
            "a.hot",
            "a.env",
            ".yaml",
            "dir/.yaml",
            "a.yaml.j2",
            "a.",
            "a",
            "dir.yaml/",
            "dir.yaml/.",
            "x/..",
            "..",
            ".",
            "",
            "a.b.yaml",
            "a.yamlx",
            "dir/a.Hot",
            "./a.yaml",
            "a/./b.yml",
        ] {
            let path = Path::new(path);
            assert_eq!(has_template_extension(path), slow(path), "{path:?}");
        }
    }

    #[test]
    fn lines_are_split_at_every_line_end_as_split_splits_them() {
        for text in [
            "",
            "a",
            "a\n",
            "a\r\nb",
            "\r\r\n\n",
            "é: 1\rß\nend",
            "x\n\n",
        ] {
            let expected: Vec<&str> = text.split(['\n', '\r']).collect();
            assert_eq!(lines(text).collect::<Vec<_>>(), expected, "{text:?}");
        }
    }

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
        // `parameters` alone: an environment where the name says so.
        for name in [
            "env.yaml",
            "prod.env",
            "stack_environment.yml",
            "params.yaml",
        ] {
            assert_eq!(
                kind(name, "# c\nparameters:\n  a: 1\n"),
                Kind::Environment,
                "{name}"
            );
        }
        assert_eq!(kind("vars.yaml", "parameters:\n  a: 1\n"), Kind::Other);
        // Named so, but its `parameters` is no environment's: an OpenAPI fragment's list is
        // another tool's file; one that does not load is told as such.
        assert_eq!(
            kind("common_params.yaml", "parameters:\n  - $ref: '#/x'\n"),
            Kind::Other
        );
        assert_eq!(kind("env.yaml", "parameters: 5\n"), Kind::Other);
        assert_eq!(kind("env.yaml", "# only\nparameters:\n"), Kind::Environment);
        assert_eq!(kind("env.yaml", "parameters:\n  a: [\n"), Kind::Environment);
        assert_eq!(
            kind("env.yaml", "parameters:\n  a: {{ a }}\n"),
            Kind::NotYaml
        );
        // In JSON too.
        assert_eq!(
            kind("params.json", "{\"parameters\": {\"a\": 1}}"),
            Kind::Environment
        );
        assert_eq!(
            kind("vars.json", "{\"parameters\": {\"a\": 1}}"),
            Kind::Other
        );
        assert_eq!(
            kind("env.yaml", "parameters:\n  a: 1\nhosts: [x]\n"),
            Kind::Other
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
        assert_eq!(
            kind(
                "b.yaml",
                "# c\ntosca_definitions_version: 'cloudify_dsl_1_4'\n"
            ),
            Kind::Blueprint
        );
        assert_eq!(
            kind(
                "t.yaml",
                "tosca_definitions_version: tosca_simple_yaml_1_3\n"
            ),
            Kind::Other
        );
    }

    #[test]
    fn only_a_top_level_key_makes_json_a_template_or_an_environment() {
        let kind = |text: &str| classify(Path::new("t.json"), text.as_bytes());
        // An API request and an adopt record hold a template inside: not templates.
        assert_eq!(
            kind("{\"stack_name\": \"s\", \"template\": {\"heat_template_version\": \"pike\"}}"),
            Kind::Other
        );
        assert_eq!(
            kind(
                "{\n  \"files\": {},\n  \"template\": {\n    \"heat_template_version\": \"pike\",\n    \"resources\": {}\n  }\n}\n"
            ),
            Kind::Other
        );
        assert_eq!(kind("[{\"heat_template_version\": \"pike\"}]"), Kind::Other);
        // A string that merely contains the key, before the real one.
        assert_eq!(
            kind(
                "{\"description\": \"a \\\"heat_template_version\\\": x, {\", \
                 \"heat_template_version\": \"pike\"}"
            ),
            Kind::Template
        );
        assert_eq!(
            kind("// c\n{\"a\": [1, {\"b\": 2}], \"heat_template_version\" : \"pike\"}"),
            Kind::Other
        );
        assert_eq!(
            kind("# c\n--- {a: [1, {b: 2}], 'it''s': x, heat_template_version: pike}"),
            Kind::Template
        );
        assert_eq!(
            kind("{\"parameter_defaults\": {\"heat_template_version\": 1}}"),
            Kind::Environment
        );
        assert_eq!(
            kind("{\n  \"resource_registry\": {\"A\": \"a.yaml\"}\n}"),
            Kind::Environment
        );
        assert_eq!(
            kind("{% if x %}\nheat_template_version: pike\n"),
            Kind::Jinja
        );
    }

    #[test]
    fn flow_keys_are_those_of_the_top_level_mapping() {
        let keys = |text: &str| flow_keys(text);
        assert_eq!(
            keys("{a: 1, \"b\": {c: 2}, 'd': [e, {f: 3}], g: x:y, h: 'i, j: k'}"),
            Some(
                vec!["a", "b", "d", "g", "h"]
                    .into_iter()
                    .map(String::from)
                    .collect()
            )
        );
        assert_eq!(keys("a: 1\n"), None);
        assert_eq!(
            keys("\n# c\n%YAML 1.1\n---\n{a: 1}"),
            Some(vec!["a".to_owned()])
        );
        // Cut short (the first bytes of a longer file): the keys so far.
        assert_eq!(
            keys("{\"a\": {\"b\": \"unterminated"),
            Some(vec!["a".to_owned()])
        );
        assert_eq!(keys("{{ jinja }}"), None);
    }

    #[test]
    fn a_named_file_is_a_template_unless_nothing_at_its_top_level_is_a_templates() {
        let kind = |text: &str| named_kind(text.as_bytes());
        // A roles list, a playbook, a package.json, a Helm chart: not templates.
        assert_eq!(kind("- name: Controller\n  count: 1\n"), Kind::Data);
        assert_eq!(kind("- hosts: all\n  tasks: []\n"), Kind::Data);
        assert_eq!(
            kind("{\"name\": \"x\", \"version\": \"1.0.0\"}"),
            Kind::Data
        );
        assert_eq!(
            kind("apiVersion: v2\nname: x\ndescription: a chart\nversion: 1\n"),
            Kind::Data
        );
        // A template with its version key misspelt, missing, or in a list: reported.
        assert_eq!(
            kind("heat_template_versoin: 2016-10-14\noutputs: {}\n"),
            Kind::Template
        );
        assert_eq!(kind("description: x\nresource:\n  r: {}\n"), Kind::Template);
        assert_eq!(kind("description: x\nparameters: {}\n"), Kind::Template);
        assert_eq!(kind("AWSTemplateFormatVersion: x\n"), Kind::Template);
        assert_eq!(
            kind("- heat_template_version: 2016-10-14\n- resources: {}\n"),
            Kind::Template
        );
        // Nothing to tell by: Heat's loader has something to say.
        assert_eq!(kind("a: [\n"), Kind::Template);
        assert_eq!(kind(""), Kind::Template);
        assert_eq!(kind("just text\n"), Kind::Data);
        assert_eq!(named_kind(b"name: caf\xe9\n"), Kind::Template);
    }

    #[test]
    fn the_first_bytes_of_another_extension_tell_binaries_and_text_without_keys() {
        let sniffed = |name: &str, bytes: &[u8]| sniff(Path::new(name), bytes);
        assert_eq!(
            sniffed("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00"),
            Some(Kind::Binary)
        );
        assert_eq!(
            sniffed("README.md", b"# Templates\n\nRun it.\n"),
            Some(Kind::Other)
        );
        assert_eq!(sniffed("server", b"heat_template_version: pike\n"), None);
        assert_eq!(
            sniffed("nova.conf.j2", b"[DEFAULT]\ndebug = {{ debug }}\n"),
            Some(Kind::Other)
        );
        assert_eq!(
            sniffed("prod.txt", b"resource_registry:\n  A: a.yaml\n"),
            None
        );
        // A parameters-only file of any extension is read whole when its name says
        // environment (the name decides with the content), not otherwise.
        assert_eq!(sniffed("stack.params", b"parameters:\n  a: 1\n"), None);
        assert_eq!(
            sniffed("stack.vars", b"parameters:\n  a: 1\n"),
            Some(Kind::Other)
        );
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "heat_template_version: pike\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        assert_eq!(sniffed("t.tpl", &utf16), None);
        assert!(has_template_extension(Path::new("a/t.HOT")));
        assert!(has_template_extension(Path::new("prod.env")));
        assert!(!has_template_extension(Path::new("t.py")));
        assert!(!has_template_extension(Path::new("yaml")));
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
