//! `hotfix eval`: what Heat will compute from a template at stack create, offline.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, anyhow, bail};
use hotfix_eval::{Inputs, Value};
use hotfix_hot::{Function, Semantic, Template};
use hotfix_yaml::Document;

/// `hotfix eval --help`.
pub(crate) const LONG_ABOUT: &str = "\
Evaluate a template as Heat would at stack create, without a cloud.

Prints the parameter values (defaults, the environments' `parameters` and
`parameter_defaults`, `-P` and `--parameter-file` values, converted to their types and
checked against their constraints), the value of every condition, which resources are
disabled by their condition, and every resource's `properties`, `metadata`, `depends_on`,
`deletion_policy`, `update_policy` and `external_id` and every output's value, with every
function that needs no cloud evaluated as the template's `heat_template_version` defines
it. What only a created stack knows stays a placeholder: `get_resource: r` is `\"<ref:r>\"`,
`get_attr: [r, a, 0]` is `\"<attr:r.a.0>\"` (give values with `--attrs`).

Not evaluated offline (each reported as an error of type `NotEvaluated`): `yaql`,
`digest` with other algorithms than md5, sha1, sha224, sha256, sha384 and sha512, and a
function given the result of a function the version removed whose arguments hold calls.
`resource_facade` fails as in a stack that has no parent. `custom_constraint`s accept every
value (they ask a cloud), and so does an `allowed_pattern` that uses regular-expression
syntax hotfix does not model (look-around, back-references, flags); a parameter whose
`allowed_pattern` match takes too many steps (Python's `re` backtracking for long) is
`NotEvaluated`, as are the template's other patterns after twenty such matches. Evaluation
stops with a `NotEvaluated` error where the values computed would take more than 64 MiB (a
`repeat` over the product of long lists, say): Heat would run out of memory or time there.

Inputs are taken as `openstack stack create` takes them. `get_file` paths are read
relative to the template, as the client does; only regular files are read, and none larger
than Heat's API takes in a request (1 MiB).

Errors Heat would raise (a parameter without a value, a value that violates a
constraint, a function whose arguments fail) are printed to standard error with their
place and Heat's text, and appear in the output where Heat reports them.

Exit codes: 0 evaluated without errors, 1 Heat would raise an error, 2 hotfix could not
read its inputs.";

/// The arguments of `hotfix eval`.
#[derive(Debug, clap::Args)]
pub(crate) struct EvalArgs {
    /// The template file; `-` reads standard input.
    template: PathBuf,

    /// An environment file (`parameters`, `parameter_defaults`); may be repeated, later files
    /// win.
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    environment: Vec<PathBuf>,

    /// A parameter value, `name=value` (several may be joined with `;`); may be repeated.
    #[arg(short = 'P', long = "parameter", value_name = "NAME=VALUE")]
    parameter: Vec<String>,

    /// A parameter whose value is a file's content, `name=FILE`; may be repeated.
    #[arg(long = "parameter-file", value_name = "NAME=FILE")]
    parameter_file: Vec<String>,

    /// A JSON file of attribute values, `{"resource": {"attribute": value}}`, for `get_attr`.
    #[arg(long, value_name = "FILE")]
    attrs: Option<PathBuf>,

    /// `yaml` (readable) or `json` (the shape of the Heat oracle's `resolve`).
    #[arg(long, value_enum, default_value_t = Format::Yaml)]
    format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Yaml,
    Json,
}

pub(crate) fn run(args: &EvalArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let bytes = read(&args.template)?;
    let display = args.template.display().to_string();
    let text =
        hotfix_yaml::check_bytes(&bytes).map_err(|err| anyhow!(err.located(&display, &bytes)))?;
    let doc =
        hotfix_yaml::parse(text).map_err(|err| anyhow!(err.located(&display, text.as_bytes())))?;
    let mut inputs = Inputs::default();
    for env in &args.environment {
        environment(env, &mut inputs)?;
    }
    for given in &args.parameter {
        for pair in given.split(';').filter(|p| !p.is_empty()) {
            let Some((name, value)) = pair.split_once('=') else {
                bail!("Malformed parameter({pair}). Use the key=value format.");
            };
            inputs
                .params
                .push((name.to_owned(), Value::Str(value.to_owned())));
        }
    }
    for given in &args.parameter_file {
        let Some((name, file)) = given.split_once('=') else {
            bail!("Malformed parameter({given}). Use the key=value format.");
        };
        let bytes = read(Path::new(file))?;
        let text = String::from_utf8(bytes).map_err(|_| anyhow!("{file}: not UTF-8 text"))?;
        inputs.params.push((name.to_owned(), Value::Str(text)));
    }
    if let Some(path) = &args.attrs {
        let bytes = read(path)?;
        let json: serde_json::Value = serde_json::from_slice(&bytes)
            .with_context(|| format!("{}: not JSON", path.display()))?;
        let serde_json::Value::Object(map) = json else {
            bail!(
                "{}: expected a JSON object {{\"resource\": {{\"attribute\": value}}}}",
                path.display()
            );
        };
        for (resource, attributes) in map {
            let serde_json::Value::Object(attributes) = attributes else {
                bail!(
                    "{}: the attributes of {resource} must be an object",
                    path.display()
                );
            };
            inputs.attrs.insert(
                resource,
                attributes
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            );
        }
    }
    inputs.files = get_files(&doc, &args.template)?;
    let evaluation = hotfix_eval::evaluate(&doc, &inputs);
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &evaluation.json)?;
            writeln!(out)?;
        }
        Format::Yaml => out.write_all(hotfix_eval::to_yaml(&evaluation.json).as_bytes())?,
    }
    let mut stderr = crate::pipe::stderr();
    for problem in &evaluation.problems {
        let place = problem.span.map_or_else(
            || display.clone(),
            |span| {
                let lc = doc.lines().position(doc.source(), span.start);
                format!("{display}:{}:{}", lc.line, lc.char_col)
            },
        );
        let _ = writeln!(
            stderr,
            "{place}: {}: {} ({})",
            problem.path, problem.message, problem.class
        );
    }
    Ok(if evaluation.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    let input = if path.as_os_str() == "-" {
        crate::read::stdin().context("cannot read standard input")?
    } else {
        if path.is_dir() {
            bail!("{} is a directory, not a file", path.display());
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

/// An environment file's `parameters` and `parameter_defaults`.
fn environment(path: &Path, inputs: &mut Inputs) -> anyhow::Result<()> {
    let display = path.display().to_string();
    let bytes = read(path)?;
    let text =
        hotfix_yaml::check_bytes(&bytes).map_err(|err| anyhow!(err.located(&display, &bytes)))?;
    let Some(doc) = hotfix_yaml::parse_environment(text)
        .map_err(|err| anyhow!(err.located(&display, text.as_bytes())))?
    else {
        return Ok(());
    };
    inputs
        .add_environment(&doc)
        .map_err(|why| anyhow!("{display}: {why}"))
}

/// Heat's `max_json_body_size`: its API refuses a request (the template, the files, the
/// parameters) larger than this.
const MAX_JSON_BODY_SIZE: usize = 1_048_576;

/// The files `get_file` names with a literal path, read relative to the template (as
/// `python-heatclient` does before it sends them); a missing one is left out (Heat then
/// reports it at the call). Only regular files are read (a FIFO or a device could block or
/// never end), and none larger than Heat's API takes in a request.
fn get_files(doc: &Document, template: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    let mut files = BTreeMap::new();
    let parsed = Template::new(doc);
    let semantic = Semantic::new(&parsed);
    let base = template.parent().unwrap_or(Path::new("."));
    for call in semantic.calls_to(Function::GetFile) {
        let Some(key) = doc.str_value(call.args) else {
            continue;
        };
        let path = key.strip_prefix("file://").unwrap_or(key);
        let path = base.join(path);
        let text = match crate::read::text_within(&path, MAX_JSON_BODY_SIZE) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) if err.kind() == std::io::ErrorKind::FileTooLarge => bail!(
                "{}: get_file: Request limit exceeded: JSON body size (more than \
                 {MAX_JSON_BODY_SIZE} bytes) exceeds maximum allowed size \
                 ({MAX_JSON_BODY_SIZE} bytes).",
                path.display()
            ),
            Err(err) if err.kind() == std::io::ErrorKind::InvalidData => {
                bail!("{}: get_file needs UTF-8 text", path.display())
            }
            Err(err) => bail!("{}: cannot read for get_file: {err}", path.display()),
        };
        files.insert(key.to_owned(), text);
    }
    Ok(files)
}
