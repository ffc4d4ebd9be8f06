//! The Heat Orchestration Template model.
//!
//! Facts here are transcribed from `heat-semantics.md`, which was read from Heat's source
//! (`heat/engine/hot/template.py`, `setup.cfg`) and confirmed by running Heat.

pub mod environment;
pub mod function_args;
pub mod heat_release;
pub mod parameter_schema;
pub mod plugin_checks;
pub mod python;
pub mod resource_types;
mod semantic;
pub mod suggest;
mod tables;
mod template;
mod version;

pub use semantic::{
    Call, CallStatus, Context, DataMap, Dependency, Owner, RefKind, Reference, Semantic,
    owner_definition,
};
pub use tables::{
    Availability, ConditionAvailability, Function, NEVER_HOT_FUNCTIONS, PARAMETER_TYPES,
    PSEUDO_PARAMETERS,
};
pub use template::{Named, Section, Template, VersionDecl, key_name, key_text};
pub use version::Version;
