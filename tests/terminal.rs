//! What hotfix prints for a terminal, from a hostile repository: no control character reaches
//! the terminal raw (code frames, messages, file names, help, every format, the other
//! commands' errors), and no long line reaches it whole.

use std::path::Path;

use hotfix_testkit::{Hotfix, hotfix_binary};

const HOTFIX: Hotfix = Hotfix::new(hotfix_binary!()).plain();

/// Whether a terminal could act on `c`: C0 but the line feed and the tab, DEL, C1, and the bidi
/// controls (the test's own list, not hotfix's).
fn raw(c: char) -> bool {
    let n = u32::from(c);
    (n < 0x20 && c != '\n' && c != '\t')
        || (0x7f..=0x9f).contains(&n)
        || matches!(n, 0x61c | 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069)
}

/// One character of each class: C0 (ESC, BEL, CR, BS, NUL), DEL, C1 (CSI, NEL), the bidi
/// overrides and isolates, the marks.
const EVERY_CLASS: &str = "\u{1b}]2;TITLE\u{7}\u{1b}[2J\r\u{8}\u{0}\u{7f}\u{9b}\u{85}\u{202e}\u{202a}\u{2066}\u{2069}\u{200f}\u{61c}";

fn assert_safe(what: &str, bytes: &[u8]) {
    let text = String::from_utf8(bytes.to_vec())
        .unwrap_or_else(|_| panic!("{what}: not UTF-8: {}", String::from_utf8_lossy(bytes)));
    if let Some(c) = text.chars().find(|&c| raw(c)) {
        panic!("{what}: {c:?} raw in:\n{text}");
    }
}

/// A tree of hostile files: a template whose description holds every class raw (a load error
/// with a frame on that line), one whose names and values hold them (findings quoting them),
/// one named with them, and a binary file that passes for YAML.
fn hostile(dir: &Path) {
    std::fs::write(
        dir.join("raw.yaml"),
        format!(
            "heat_template_version: 2016-10-14\ndescription: \"{EVERY_CLASS}\"\nresources: {{}}\n"
        ),
    )
    .expect("write");
    // Inside quotes YAML escapes give every class; bidi characters may stand raw.
    std::fs::write(
        dir.join("names.yaml"),
        "heat_template_version: 2016-10-14\n\
         parameters:\n  \"p\\e[2J\\x07\\x7f\\x9b\\N\": {type: string}\n\
         resources:\n  r\u{202e}\u{2066}:\n    type: OS::Heat::None\n    typ\u{200f}e: 1\n    \
         properties: {value: {get_param: \"q\\e]2;T\\a\\u202e\"}}\n",
    )
    .expect("write");
    #[cfg(unix)]
    std::fs::write(
        dir.join("n\u{1b}[2J\u{202e}.yaml"),
        "heat_template_version: 2016-10-14\nresources:\n  r: {typ: 1}\n",
    )
    .expect("write");
    let mut binary = b"heat_template_version: 2016-10-14\nresources:\n  r: ".to_vec();
    binary.extend((1u8..=255).filter(|&b| b != b'\n'));
    binary.push(b'\n');
    std::fs::write(dir.join("binary.yaml"), binary).expect("write");
}

#[test]
fn no_control_character_reaches_the_terminal_raw_in_any_format() {
    let dir = tempfile::tempdir().expect("temp dir");
    hostile(dir.path());
    for format in ["human", "concise", "github"] {
        let output = HOTFIX.run_in(
            dir.path(),
            &["lint", "--no-config", "--format", format, "."],
        );
        assert_eq!(output.status.code(), Some(1), "{format}: {output:?}");
        assert_safe(&format!("{format}, stdout"), &output.stdout);
        assert_safe(&format!("{format}, stderr"), &output.stderr);
        let stdout = String::from_utf8_lossy(&output.stdout);
        // What was escaped is shown, not dropped.
        for shown in ["\\u{202e}", "\\x1b"] {
            assert!(stdout.contains(shown), "{format}: no {shown}:\n{stdout}");
        }
    }
    // The machine formats escape by their own rules; what they say on stderr is for people.
    for format in ["json", "sarif", "junit", "gitlab"] {
        let output = HOTFIX.run_in(
            dir.path(),
            &["lint", "--no-config", "--format", format, "."],
        );
        assert_eq!(output.status.code(), Some(1), "{format}: {output:?}");
        assert_safe(&format!("{format}, stderr"), &output.stderr);
    }
    // `--statistics`, `--show-fixes` and verbose notes.
    let output = HOTFIX.run_in(
        dir.path(),
        &["lint", "--no-config", "--statistics", "--verbose", "."],
    );
    assert_safe("statistics, stdout", &output.stdout);
    assert_safe("statistics, stderr", &output.stderr);
}

#[test]
fn the_other_commands_escape_what_they_print_of_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    hostile(dir.path());
    for args in [
        &["inspect", "--format", "yaml", "names.yaml"][..],
        &["inspect", "--format", "yaml", "raw.yaml"],
        &["inspect", "binary.yaml"],
        &["eval", "names.yaml"],
        &["eval", "raw.yaml"],
        &["upgrade", "--check", "raw.yaml"],
        &["upgrade", "--check", "names.yaml"],
    ] {
        let output = HOTFIX.run_in(dir.path(), args);
        assert!(
            matches!(output.status.code(), Some(0..=2)),
            "{args:?}: {output:?}"
        );
        assert_safe(&format!("{args:?}, stdout"), &output.stdout);
        assert_safe(&format!("{args:?}, stderr"), &output.stderr);
    }
    // A configuration and a K2HR3 template whose errors quote them.
    std::fs::write(
        dir.path().join("hotfix.toml"),
        "select = [\"\\u001b]2;T\\u0007\\u202e\"]\n",
    )
    .expect("write");
    let output = HOTFIX.run_in(dir.path(), &["lint", "names.yaml"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_safe("configuration error", &output.stderr);
    std::fs::write(dir.path().join("k.k2hr3"), "{{ x = \u{1b}[2J\u{202e} }}\n").expect("write");
    let output = HOTFIX.run_in(dir.path(), &["k2hr3", "expand", "k.k2hr3"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_safe("k2hr3 error", &output.stderr);
}

/// A minified one-line JSON template over 64 KB with findings at its end: no panic, and each
/// finding shows a window of the line (issue 26).
#[test]
fn a_minified_template_shows_a_window_of_its_line_per_finding() {
    let dir = tempfile::tempdir().expect("temp dir");
    let resources: Vec<String> = (0..800)
        .map(|i| format!("\"r{i}\": {{\"typ\": \"OS::Heat::None\"}}"))
        .collect();
    let template = format!(
        "{{\"heat_template_version\": \"2016-10-14\", \"description\": \"{}\", \"resources\": {{{}}}}}",
        "d".repeat(40_000),
        resources.join(", ")
    );
    assert!(template.len() > 65_536 && !template.contains('\n'));
    std::fs::write(dir.path().join("min.json"), &template).expect("write");
    let output = HOTFIX.run_in(dir.path(), &["lint", "--no-config", "min.json"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let frames = stdout.matches("H603").count();
    assert!(
        frames >= 800,
        "{frames} findings:\n{}",
        &stdout[..stdout.len().min(4_000)]
    );
    assert!(
        output.stdout.len() < frames * 2_000,
        "{} bytes for {frames} findings",
        output.stdout.len()
    );
    assert!(stdout.contains("chars cut]…"), "{}", &stdout[..4_000]);
    // The span holds the key with its quotes.
    let last = template.rfind("\"typ\"").expect("typ") + 1;
    assert!(
        stdout.contains(&format!("[min.json:1:{last}]")),
        "no column {last}"
    );
}

/// A message that quotes a 60 KB value shows its start and its end, in every terminal format.
#[test]
fn a_message_quoting_a_long_value_is_cut() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("t.yaml"),
        format!(
            "heat_template_version: 2016-10-14\nresources:\n  r:\n    type: OS::Heat::None\n    \
             properties: {{value: {{get_param: {}}}}}\n",
            "x".repeat(60_000)
        ),
    )
    .expect("write");
    for format in ["human", "concise", "github"] {
        let output = HOTFIX.run_in(
            dir.path(),
            &["lint", "--no-config", "--format", format, "t.yaml"],
        );
        assert_eq!(output.status.code(), Some(1), "{format}: {output:?}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("chars cut]…"), "{format}");
        assert!(stdout.len() < 10_000, "{format}: {} bytes", stdout.len());
    }
}

/// Errors with a code frame on a line over 64 KB: a K2HR3 template's and a configuration's
/// (issue 26): no panic, and a window of the line.
#[test]
fn an_error_past_column_65535_of_a_k2hr3_template_or_a_configuration_is_framed() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("k.k2hr3"),
        format!("{}{{{{ x = 1 }}}}\n", "a".repeat(70_000)),
    )
    .expect("write");
    let output = HOTFIX.run_in(dir.path(), &["k2hr3", "expand", "k.k2hr3"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("chars cut]…") && stderr.len() < 2_000,
        "{stderr}"
    );
    std::fs::write(
        dir.path().join("hotfix.toml"),
        format!("select = [{}\"nope\"]\n", "\"H1\", ".repeat(12_000)),
    )
    .expect("write");
    std::fs::write(
        dir.path().join("t.yaml"),
        "heat_template_version: 2016-10-14\nresources: {}\n",
    )
    .expect("write");
    let output = HOTFIX.run_in(dir.path(), &["lint", "t.yaml"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`nope`"), "{stderr}");
    assert!(
        stderr.contains("chars cut]…") && stderr.len() < 2_000,
        "{stderr}"
    );
}
