//! A tree of Heat files as stacks: which files are templates and environments, and how they
//! name one another (nested templates by `type`, `resource_registry` targets, `get_file`),
//! resolved as python-heatclient resolves them when `openstack stack create -e` sends a stack.
//!
//! This crate never touches the file system: it reads through a [`FileSource`], which the CLI
//! answers from disk (and a language server could answer from unsaved buffers). Each file's
//! facts ([`FileFacts::of`]) depend on its text alone, so they can be computed in parallel and
//! cached by content; [`Tree::build`] then resolves the links between files.

mod cycles;
mod facts;
pub mod graph;
mod path;
mod registry;
pub mod render;
mod source;
mod tree;

pub use cycles::{Cycles, nested_files};
pub use facts::{
    FileFacts, FileKind, LinkKind, Parameter, RawLink, environment_links, template_links,
};
pub use path::StackPath;
pub use registry::{
    Entry, EnvironmentFacts, Knowledge, LazyRegistry, Mapped, Registry, Rendered, StackTemplates,
    Texts, is_template_name, stack_parameters, stack_templates,
};
pub use source::{FileSource, MemorySource};
pub use tree::{Link, Target, Tree, found_elsewhere, resolve_reference};
