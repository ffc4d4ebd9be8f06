//! `hotfix inspect`: show a template as Heat loads it.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, anyhow};
use hotfix_hot::Version;
use hotfix_yaml::{Document, NodeId, NodeKind, ScalarValue, SourceFormat};

/// Print a template as Heat loads it.
///
/// Heat reads YAML 1.1 with PyYAML: `on:` is the key `true`, `012` is the number 10, `1:20`
/// is 80, dates stay strings, `<<` merges, and of repeated keys the last one wins. `inspect`
/// shows the result, so that what Heat sees is never a surprise.
#[derive(Debug, clap::Args)]
pub(crate) struct InspectArgs {
    /// The template file; `-` reads standard input.
    file: PathBuf,

    /// `json`: the values exactly as Python's `json.dumps` prints what Heat loaded;
    /// `yaml`: a readable view that also names the detected `heat_template_version`.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Json,
    Yaml,
}

pub(crate) fn run(args: &InspectArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let bytes = read_input(&args.file)?;
    let display = args.file.display().to_string();
    let text =
        hotfix_yaml::check_bytes(&bytes).map_err(|err| anyhow!(err.located(&display, &bytes)))?;
    let doc =
        hotfix_yaml::parse(text).map_err(|err| anyhow!(err.located(&display, text.as_bytes())))?;
    match args.format {
        Format::Json => {
            let json = doc
                .to_python_json()
                .map_err(|err| anyhow!(err.located(&display, text.as_bytes())))?;
            writeln!(out, "{json}")?;
        }
        Format::Yaml => out.write_all(readable(&doc).as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    let input = if path.as_os_str() == "-" {
        crate::read::stdin().context("cannot read standard input")?
    } else {
        if path.is_dir() {
            return Err(anyhow!(
                "{} is a directory, not a template file",
                path.display()
            ));
        }
        crate::read::file(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    match input {
        crate::read::Input::Whole(bytes) => Ok(bytes),
        crate::read::Input::TooLarge { chars, exact, .. } => Err(anyhow!(
            "{}: {}",
            path.display(),
            hotfix_yaml::too_large(chars, exact).message
        )),
    }
}

/// A block-YAML rendering of the loaded values, every scalar written so that it means the
/// same under YAML 1.1: strings that would resolve to something else are quoted.
fn readable(doc: &Document) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# loaded as {}",
        match doc.format() {
            SourceFormat::Json => "JSON",
            SourceFormat::Yaml => "YAML 1.1",
        }
    );
    let _ = writeln!(out, "# heat_template_version: {}", describe_version(doc));
    write_block(doc, doc.root(), 0, &mut out);
    out
}

fn describe_version(doc: &Document) -> String {
    let Some(value) = doc.get(doc.root(), "heat_template_version") else {
        return "(none: not a HOT template)".to_owned();
    };
    let Some(text) = doc.str_value(value) else {
        return "(not a string, so Heat ignores it: quote it)".to_owned();
    };
    match Version::parse(text) {
        Some(version) => match version.name() {
            Some(name) => format!("{} ({name})", version.date()),
            None => format!("{} ({})", version.date(), version.release()),
        },
        None => format!("{text:?} (not a version Heat knows)"),
    }
}

fn write_block(doc: &Document, id: NodeId, indent: usize, out: &mut String) {
    let id = doc.resolve(id);
    match &doc.node(id).kind {
        NodeKind::Mapping { .. } => {
            let entries = doc.entries(id);
            if entries.is_empty() {
                out.push_str("{}\n");
            }
            for entry in entries {
                push_indent(out, indent);
                out.push_str(&inline_scalar(doc, entry.key));
                out.push(':');
                write_value_after_key(doc, entry.value, indent, out);
            }
        }
        NodeKind::Sequence { items, .. } => {
            if items.is_empty() {
                out.push_str("[]\n");
            }
            for &item in items {
                push_indent(out, indent);
                out.push('-');
                write_value_after_key(doc, item, indent, out);
            }
        }
        _ => {
            out.push_str(&inline_scalar(doc, id));
            out.push('\n');
        }
    }
}

fn write_value_after_key(doc: &Document, value: NodeId, indent: usize, out: &mut String) {
    let value = doc.resolve(value);
    let nested = match &doc.node(value).kind {
        NodeKind::Mapping { .. } => !doc.entries(value).is_empty(),
        NodeKind::Sequence { items, .. } => !items.is_empty(),
        _ => false,
    };
    if nested {
        out.push('\n');
        write_block(doc, value, indent + 2, out);
    } else {
        out.push(' ');
        write_block(doc, value, indent, out);
    }
}

fn push_indent(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// A scalar as YAML 1.1 text that loads back to the same value.
fn inline_scalar(doc: &Document, id: NodeId) -> String {
    let Some(scalar) = doc.scalar(id) else {
        return "[…]".to_owned();
    };
    match &scalar.value {
        ScalarValue::Null => "null".to_owned(),
        ScalarValue::Bool(b) => b.to_string(),
        ScalarValue::Int(n) => n.to_string(),
        ScalarValue::Float(f) => yaml_float(*f),
        ScalarValue::Binary => format!("!!binary {}", quote(&scalar.text)),
        ScalarValue::Str | ScalarValue::Merge | ScalarValue::ValueKey => {
            if plain_safe(&scalar.text) {
                scalar.text.as_str().to_owned()
            } else {
                quote(&scalar.text)
            }
        }
    }
}

/// Python's float repr, spelled as a YAML 1.1 float (which needs a `.`).
fn yaml_float(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    let repr = hotfix_yaml::python_float_repr(f);
    match repr.split_once('e') {
        Some((mantissa, exp)) if !mantissa.contains('.') => format!("{mantissa}.0e{exp}"),
        _ => repr,
    }
}

/// Whether a string can be written plain and still read as that string, to YAML 1.1 and to a
/// human: strings that look like numbers, dates or booleans in any YAML are quoted.
fn plain_safe(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let looks_typed = first.is_ascii_digit()
        || matches!(first, '+' | '-' | '.')
        || matches!(
            text.to_ascii_lowercase().as_str(),
            "y" | "n" | "yes" | "no" | "true" | "false" | "on" | "off" | "null" | "~"
        );
    !looks_typed
        && hotfix_yaml::resolve_plain(text) == ScalarValue::Str
        && !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && text.trim() == text
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.ends_with(':')
        && !text
            .chars()
            .any(|c| c.is_control() || hotfix_diagnostics::is_unsafe(c))
}

fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Controls, and the bidi controls that would reorder what a terminal shows.
            c if c.is_control() || hotfix_diagnostics::is_unsafe(c) => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
