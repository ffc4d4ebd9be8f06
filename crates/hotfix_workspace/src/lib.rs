//! The project of a hotfix run, resolved once before any file is linted and then only read:
//! the configurations ([`config`]: `hotfix.toml`, which applies to which file), the root rule
//! ([`root`]: the nearest `hotfix.toml` or version control root; outside any
//! project, the folders the user named), what a file is ([`kind`]), the disk source the
//! cross-file checks read through ([`DiskSource`]), the environments of the tree ([`tree`]),
//! and the [`Project`] value that holds them with the environments given with `-e`, the
//! configurations' `[[stacks]]` and the Cloudify blueprints read for their imports. The
//! command line builds one per run, walks the files ([`walk`]) and hands them to the project's
//! checks ([`check`]: read, told what it is by [`Project::plan`], linted, fixed in memory),
//! which run on every core and hand each outcome back in order ([`ordered`]); nothing of a run
//! is kept in process-global state.
//!
//! Unlike the other libraries this crate reads the file system (bounded, see [`read`]): it is
//! the one place that does, for the command line and the language server alike. It never
//! prints.

pub mod blueprint;
pub mod check;
pub mod config;
pub mod k2hr3;
pub mod kind;
pub mod ordered;
pub mod paths;
pub mod read;
pub mod root;
pub mod tree;
pub mod walk;

mod disk;
mod plan;
mod project;

use std::path::Path;

use hotfix_stack::StackPath;

pub use disk::{DiskSource, Prefixes, list_folder};
pub use plan::{Asked, LintKind, Plan, kind_of, lint_kind};
pub use project::{Error, Project, StackEntry};
pub use root::{CONFIG_FILE, Scope, is_version_control_root, root_of, scope};
pub use tree::{Walked, memory_registry, tree_registry};

/// The path of a file of the run as the cross-file checks name it.
pub fn stack_path(path: &Path) -> StackPath {
    StackPath::new(&path.to_string_lossy())
}
