//! The Heat Orchestration Template model.
//!
//! Facts here are transcribed from `heat-semantics.md`, which was read from Heat's source
//! (`heat/engine/hot/template.py`, `setup.cfg`) and confirmed by running Heat.

mod tables;
mod version;

pub use tables::{
    Availability, ConditionAvailability, Function, NEVER_HOT_FUNCTIONS, PARAMETER_TYPES,
    PSEUDO_PARAMETERS,
};
pub use version::Version;
