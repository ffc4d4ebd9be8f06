//! `hotfix graph`: a tree of templates as a graph, in DOT (Graphviz) or JSON.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context as _, anyhow};
use hotfix_stack::graph::{FileShape, Graph, NodeKind, Stack};
use hotfix_stack::{FileKind, FileSource as _, StackPath, Tree};
use hotfix_workspace::DiskSource;
use rayon::prelude::*;

use crate::discover::{self, Candidate, Found, Kind};
use hotfix_workspace::config::{Configs, Overrides};

pub(crate) const LONG_ABOUT: &str = "\
Draw a tree of templates as a graph: its templates and environment files, the resources of each
template, and what depends on what, across files.

Files and folders are found as `hotfix lint` finds them (.gitignore, hidden files, each
hotfix.toml's `include` and `exclude`); templates and environment files are drawn, and every
template a `type:` or `resource_registry` entry leads to, also outside the paths given.

Nodes: each template and environment file, each resource (in DOT, inside a box for its
template), and each file a link leads to that the tree does not read: a `get_file` target, or a
target that is missing (renamed or never written), generated (by the deployment, from a
`*.j2.yaml` source beside it), outside (an absolute install path, a sibling checkout) or a URL.

Edges:
  depends_on          resource -> resource, its `depends_on`
  implicit            resource -> resource, a `get_resource`/`get_attr` in its properties or
                      metadata (the first one written)
  nested              resource -> template, `type: x.yaml` (or a group's `resource_def`)
  nested_by_registry  resource -> template, its type (a group's: its members' type) mapped to
                      the file by an environment's `resource_registry` (the environment is
                      named on the edge)
  registry            environment -> file, a `resource_registry` entry
  get_file            template -> file

Without -e the environments of the tree closest to each template apply (its folder's, then its
parents'), each on its own: a type that two equally close environments map to different files
has an edge to each. With -e, only those environments apply, merged
in the order given as `openstack stack create -e` merges them.

For a large tree: --depth N keeps the files at most N links from the roots (the files nothing
links to), with their resources; --files-only draws files and the links between them, a
resource's links drawn from its template.

The JSON output is {\"nodes\": [...], \"edges\": [...]}, described in docs/cross-file.md; positions
are `line:column` (1-based, columns in characters). Output is sorted: the same tree always gives
the same graph. For a picture: `hotfix graph | dot -Tsvg > stack.svg`.

Exit codes: 0 the graph was written; 2 a path is missing, or a file could not be read or loaded
(the graph is still written: without a file that could not be read, with one Heat cannot load
drawn as such).";

/// Draw templates, environments, nested templates and resources as a graph.
#[derive(Debug, clap::Args)]
pub(crate) struct GraphArgs {
    /// Templates, environment files and folders [default: the current folder].
    paths: Vec<PathBuf>,

    /// An environment file that applies, as `openstack stack create -e` takes it; repeatable,
    /// later ones override earlier ones. Without it, the environments of the tree closest to each
    /// template apply.
    #[arg(long = "environment", short = 'e', value_name = "ENV")]
    environments: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Dot)]
    format: Format,

    /// Write the graph to this file (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Use this configuration file for every file instead of each file's nearest
    /// `hotfix.toml`.
    #[arg(long, conflicts_with = "no_config")]
    config: Option<PathBuf>,

    /// Ignore any `hotfix.toml`.
    #[arg(long)]
    no_config: bool,

    /// Draw only the files this many links from the roots (the files nothing links to): 0
    /// draws the roots alone, 1 adds the templates and files they lead to, and so on.
    #[arg(long, value_name = "N")]
    depth: Option<usize>,

    /// Draw files and the links between them, without resources: a resource's links become
    /// its template's.
    #[arg(long)]
    files_only: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Graphviz DOT: `dot -Tsvg` draws it.
    Dot,
    /// Nodes and edges as JSON.
    Json,
}

pub(crate) fn run(args: &GraphArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let (mut graph, failures) = build(args)?;
    if let Some(depth) = args.depth {
        limit_depth(&mut graph, depth);
    }
    if args.files_only {
        files_only(&mut graph);
    }
    let text = match args.format {
        Format::Dot => hotfix_stack::render::dot(&graph),
        Format::Json => hotfix_stack::render::json(&graph),
    };
    match &args.output {
        Some(path) => crate::rewrite::replace(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => out.write_all(text.as_bytes())?,
    }
    let mut stderr = crate::pipe::stderr();
    for failure in &failures {
        writeln!(stderr, "hotfix: error: {failure}")?;
    }
    Ok(if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// The graph of the paths and environments given, and what could not be read.
fn build(args: &GraphArgs) -> anyhow::Result<(Graph, Vec<String>)> {
    let cwd = crate::paths::current_dir()?;
    let disk = Arc::new(DiskSource::default());
    let mut configs = Configs::new(
        args.no_config,
        args.config.as_deref(),
        &cwd,
        Overrides::default(),
        disk.prefixes(),
    )?;
    let paths = crate::discover::paths(&args.paths)?;
    for env in &args.environments {
        if !env.is_file() {
            return Err(anyhow!("{}: no such file", env.display()));
        }
    }
    let mut failures = Vec::new();
    let mut candidates = Vec::new();
    for found in discover::Walker::new(&paths, &mut configs)? {
        match found? {
            Found::Candidate(candidate) => candidates.push(candidate),
            Found::Error(error) => failures.push(error),
        }
    }
    refuse_output_onto_input(args, &candidates)?;
    let environments: Vec<Candidate> = args
        .environments
        .iter()
        .map(|path| Candidate {
            path: path.clone(),
            explicit: true,
            config: Arc::new(hotfix_workspace::config::Config::empty(cwd.clone())),
        })
        .collect();

    // Every file read and loaded once, in parallel.
    let read: Vec<Read> = candidates
        .par_iter()
        .chain(environments.par_iter())
        .map(shape_of)
        .collect();
    let mut shapes = BTreeMap::new();
    for (shape, failure) in read {
        if let Some((path, shape)) = shape {
            shapes.insert(path, shape);
        }
        // An environment given with -e may be among the files walked too: said once.
        if let Some(failure) = failure
            && !failures.contains(&failure)
        {
            failures.push(failure);
        }
    }
    let applied: Option<Vec<StackPath>> = (!args.environments.is_empty()).then(|| {
        args.environments
            .iter()
            .map(|p| hotfix_workspace::stack_path(p))
            .collect()
    });
    if let Some(applied) = &applied {
        for (path, given) in applied.iter().zip(&args.environments) {
            if shapes
                .get(path)
                .is_some_and(|s| s.facts.kind != FileKind::Environment)
            {
                failures.push(format!("{}: not an environment file", given.display()));
            }
        }
    }

    let mut spanned: Vec<PathBuf> = args.paths.clone();
    spanned.extend(args.environments.iter().cloned());
    let roots = hotfix_workspace::scope(&spanned, &cwd, &[]).roots;
    let given = shapes
        .iter()
        .map(|(path, shape)| (path.clone(), Some(shape.facts.clone())))
        .collect();
    let tree = Tree::build(&*disk, roots.clone(), given);
    read_followed(&tree, &disk, &mut shapes, &mut failures);
    // The templates named on the command line are the top ones.
    let top: Vec<StackPath> = candidates
        .iter()
        .filter(|c| c.explicit)
        .map(|c| hotfix_workspace::stack_path(&c.path))
        .filter(|p| {
            shapes
                .get(p)
                .is_some_and(|s| s.facts.kind == FileKind::Template)
        })
        .collect();
    let registry = hotfix_stack::graph::registry_of(&*disk, &roots, &shapes, applied.as_deref());
    let stack = Stack {
        environments: applied.as_deref(),
        top: &top,
        registry: &registry,
        builtin: &hotfix_linter::heat_has_type,
    };
    Ok((Graph::build(&tree, &shapes, stack), failures))
}

/// The node of a node's file: itself for a file, its template for a resource.
fn file_of(graph: &Graph) -> BTreeMap<String, String> {
    let files: BTreeMap<&str, &str> = graph
        .nodes
        .iter()
        .filter(|n| n.kind != NodeKind::Resource)
        .filter_map(|n| Some((n.path.as_ref()?.as_str(), n.id.as_str())))
        .collect();
    graph
        .nodes
        .iter()
        .map(|n| {
            let file = match (&n.kind, &n.path) {
                (NodeKind::Resource, Some(path)) => files.get(path.as_str()).copied(),
                _ => None,
            };
            (n.id.clone(), file.unwrap_or(&n.id).to_owned())
        })
        .collect()
}

/// `--depth N`: the files at most `N` links (between files) from the roots, which nothing
/// links to (in a cycle that no root reaches, its first file is a root), with their resources.
fn limit_depth(graph: &mut Graph, depth: usize) {
    let file = file_of(graph);
    let mut links: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut linked = std::collections::BTreeSet::new();
    for edge in &graph.edges {
        let (from, to) = (file[&edge.from].as_str(), file[&edge.to].as_str());
        if from != to {
            links.entry(from).or_default().push(to);
            linked.insert(to);
        }
    }
    let files: Vec<&str> = graph
        .nodes
        .iter()
        .filter(|n| file[&n.id] == n.id)
        .map(|n| n.id.as_str())
        .collect();
    let mut level: BTreeMap<&str, usize> = BTreeMap::new();
    let roots: Vec<&str> = files
        .iter()
        .copied()
        .filter(|f| !linked.contains(f))
        .collect();
    // Roots first, then the first file of each cycle no root reached.
    for start in roots.iter().chain(files.iter()) {
        if level.contains_key(start) {
            continue;
        }
        level.insert(start, 0);
        let mut queue = std::collections::VecDeque::from([*start]);
        while let Some(at) = queue.pop_front() {
            let next = level[at] + 1;
            for to in links.get(at).into_iter().flatten() {
                if !level.contains_key(to) {
                    level.insert(to, next);
                    queue.push_back(to);
                }
            }
        }
    }
    let kept: std::collections::BTreeSet<String> = graph
        .nodes
        .iter()
        .filter(|n| level.get(file[&n.id].as_str()).is_some_and(|&l| l <= depth))
        .map(|n| n.id.clone())
        .collect();
    graph.nodes.retain(|n| kept.contains(&n.id));
    graph
        .edges
        .retain(|e| kept.contains(&e.from) && kept.contains(&e.to));
}

/// `--files-only`: each resource's links drawn from (or to) its template, one of a kind between
/// two files, none from a file to itself; no resource nodes.
fn files_only(graph: &mut Graph) {
    let file = file_of(graph);
    let mut seen = std::collections::BTreeSet::new();
    let edges = std::mem::take(&mut graph.edges);
    for mut edge in edges {
        edge.from.clone_from(&file[&edge.from]);
        edge.to.clone_from(&file[&edge.to]);
        let kind = format!("{:?}", edge.kind);
        if edge.from != edge.to && seen.insert((edge.from.clone(), edge.to.clone(), kind)) {
            graph.edges.push(edge);
        }
    }
    graph.nodes.retain(|n| n.kind != NodeKind::Resource);
    graph
        .edges
        .sort_by(|a, b| (&a.from, &a.to).cmp(&(&b.from, &b.to)));
}

/// `-o` must not replace one of the files drawn (as `hotfix lint --output` refuses).
fn refuse_output_onto_input(args: &GraphArgs, candidates: &[Candidate]) -> anyhow::Result<()> {
    if let Some(report) = args.output.as_deref().and_then(discover::Identity::of) {
        let given = candidates.iter().map(|c| c.path.as_path());
        if let Some(path) = given
            .chain(args.environments.iter().map(PathBuf::as_path))
            .find(|path| report.is(path))
        {
            return Err(anyhow!(
                "--output {} is one of the files hotfix reads; write it elsewhere",
                path.display()
            ));
        }
    }
    Ok(())
}

/// Reads the templates the links led to, beyond the paths given, in parallel.
fn read_followed(
    tree: &Tree,
    source: &DiskSource,
    shapes: &mut BTreeMap<StackPath, FileShape>,
    failures: &mut Vec<String>,
) {
    let followed: Vec<(StackPath, Option<FileShape>)> = tree
        .files
        .keys()
        .filter(|path| !shapes.contains_key(*path))
        .cloned()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|path| {
            let shape = source.read(&path).map(FileShape::of);
            (path, shape)
        })
        .collect();
    for (path, shape) in followed {
        let Some(shape) = shape else {
            continue;
        };
        if let FileKind::Unloadable(why) = &shape.facts.kind {
            failures.push(load_failure(path.as_str(), &shape, why));
        }
        shapes.insert(path, shape);
    }
}

/// What became of one file: its shape when it is drawn (also when Heat cannot load it: then
/// drawn as such), and why it could not be read or loaded.
type Read = (Option<(StackPath, FileShape)>, Option<String>);

/// Reads and loads one file: nothing when it is not one to draw (a walked file that is no
/// template or environment).
fn shape_of(candidate: &Candidate) -> Read {
    match read_shape(candidate) {
        Ok(Some(shape)) => {
            let failure = match &shape.facts.kind {
                FileKind::Unloadable(why) => Some(load_failure(&candidate.display(), &shape, why)),
                _ => None,
            };
            (
                Some((hotfix_workspace::stack_path(&candidate.path), shape)),
                failure,
            )
        }
        Ok(None) => (None, None),
        Err(failure) => (None, Some(failure)),
    }
}

fn read_shape(candidate: &Candidate) -> Result<Option<FileShape>, String> {
    let display = candidate.display();
    let input = match discover::read(candidate) {
        Ok(Ok(input)) => input,
        Ok(Err(_)) => return Ok(None),
        Err(err) => return Err(format!("cannot read {display}: {err}")),
    };
    let bytes = match input {
        crate::read::Input::Whole(bytes) => bytes,
        crate::read::Input::TooLarge { head, chars, exact } => {
            if !candidate.explicit
                && !matches!(
                    discover::kind_of_large(candidate, &head),
                    Kind::Template | Kind::Environment
                )
            {
                return Ok(None);
            }
            let err = hotfix_yaml::too_large(chars, exact);
            return Err(format!("{display}: {}", err.message));
        }
    };
    // K2HR3 templates are told as templates by `classify` (for lint, which gives them their own
    // rules); they are not Heat's.
    let k2hr3 = candidate.config.is_k2hr3(&candidate.path) || hotfix_linter::is_k2hr3(&bytes);
    let kind = candidate.kind(&bytes, !candidate.explicit);
    if !candidate.explicit && (k2hr3 || !matches!(kind, Kind::Template | Kind::Environment)) {
        return Ok(None);
    }
    if kind == Kind::Jinja {
        return Err(format!(
            "{display}: a Jinja2 source (not YAML until rendered): draw the rendered file"
        ));
    }
    let text =
        hotfix_yaml::check_bytes(&bytes).map_err(|err| format!("{display}: {}", err.message))?;
    let shape = FileShape::of(Arc::from(text));
    match &shape.facts.kind {
        FileKind::Template | FileKind::Environment | FileKind::Unloadable(_) => {}
        FileKind::Other if candidate.explicit => {
            return Err(format!(
                "{display}: neither a template (no heat_template_version) nor an environment \
                 file"
            ));
        }
        FileKind::Other => return Ok(None),
    }
    Ok(Some(shape))
}

/// `path:line:col: why`, for a file Heat cannot load.
fn load_failure(display: &str, shape: &FileShape, why: &str) -> String {
    match shape.error_at {
        Some(at) => format!("{display}:{at}: {why}"),
        None => format!("{display}: {why}"),
    }
}
