//! Every rule, one file each, grouped by what they check.
//!
//! Codes: `H0xx` loading and YAML, `H1xx` the template as a whole, `H2xx` functions, `H3xx`
//! references, `H4xx` parameters, `H5xx` parameter groups, `H6xx` resources, `H7xx` outputs,
//! `H8xx` conditions, `H9xx` `repeat`; `E0xx` environment files; `X0xx` between files (a
//! template and its nested templates and files); `Cxxx` Cloudify blueprints; `Kxxx` K2HR3
//! templates.

use std::sync::LazyLock;

use crate::rule::Rule;

pub(crate) mod blueprint;
pub(crate) mod conditions;
pub(crate) mod crossfile;
pub(crate) mod environment;
pub(crate) mod functions;
pub(crate) mod graph;
pub(crate) mod k2hr3;
pub(crate) mod load;
pub(crate) mod outputs;
pub(crate) mod parameter_groups;
pub(crate) mod parameters;
pub(crate) mod py;
pub(crate) mod references;
pub(crate) mod repeat;
pub(crate) mod resources;

pub(crate) mod template;
pub(crate) mod util;
pub(crate) mod yaml;

pub(crate) static REGISTRY: LazyLock<Vec<&'static Rule>> = LazyLock::new(|| {
    let mut all: Vec<&'static Rule> = [
        crossfile::RULES,
        environment::RULES,
        load::RULES,
        yaml::RULES,
        template::RULES,
        functions::RULES,
        references::RULES,
        parameters::RULES,
        parameter_groups::RULES,
        resources::RULES,
        outputs::RULES,
        conditions::RULES,
        repeat::RULES,
        blueprint::RULES,
        k2hr3::RULES,
    ]
    .concat();
    all.sort_by_key(|rule| rule.code);
    all
});
