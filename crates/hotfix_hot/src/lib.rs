//! The Heat Orchestration Template model.
//!
//! Facts here are transcribed from `heat-semantics.md`, which was read from Heat's source
//! (`heat/engine/hot/template.py`, `setup.cfg`) and confirmed by running Heat.

mod version;

pub use version::Version;
