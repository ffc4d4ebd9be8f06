//! The command front ends: each `hotfix` subcommand's arguments and its run, printing and
//! writing; what they share (configuration, discovery, output) stays beside them in `src/`.

pub(crate) mod eval;
pub(crate) mod explain;
pub(crate) mod graph;
pub(crate) mod inspect;
pub(crate) mod k2hr3;
pub(crate) mod lint;
pub(crate) mod schema;
pub(crate) mod server;
pub(crate) mod types;
pub(crate) mod upgrade;
