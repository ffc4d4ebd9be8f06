//! What each version knows: functions, condition functions, sections and keys.
//!
//! Transcribed from §1–2 of `heat-semantics.md` (Heat's `heat/engine/hot/template.py`: the
//! `functions`, `condition_functions`, `SECTIONS`, `_RESOURCE_KEYS`, `OUTPUT_KEYS`,
//! `deletion_policies` of each version class, and `heat/engine/hot/parameters.py`).

use crate::Version;
use crate::Version::{
    V2013_05_23, V2014_10_16, V2015_04_30, V2015_10_15, V2016_04_08, V2016_10_14, V2017_02_24,
    V2017_09_01, V2018_03_02,
};

/// An intrinsic function name Heat has ever mapped in a HOT version's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Function {
    GetParam,
    GetResource,
    GetFile,
    ResourceFacade,
    GetAttr,
    ListJoin,
    StrReplace,
    Repeat,
    Digest,
    StrSplit,
    MapMerge,
    Yaql,
    MapReplace,
    If,
    Filter,
    StrReplaceStrict,
    MakeUrl,
    ListConcat,
    ListConcatUnique,
    StrReplaceVstrict,
    Contains,
    /// Condition functions (`equals`, `not`, `and`, `or`) exist only in condition contexts.
    Equals,
    Not,
    And,
    Or,
    FnSelect,
    FnGetAzs,
    FnJoin,
    FnSplit,
    FnReplace,
    FnBase64,
    FnMemberListToMap,
    FnResourceFacade,
    Ref,
}

/// `(function, name, in value contexts since, mapped to Removed from, in conditions since)`.
type Row = (
    Function,
    &'static str,
    Option<Version>,
    Option<Version>,
    Option<Version>,
);

const FUNCTIONS: [Row; 34] = [
    (
        Function::GetParam,
        "get_param",
        Some(V2013_05_23),
        None,
        Some(V2016_10_14),
    ),
    (
        Function::GetResource,
        "get_resource",
        Some(V2013_05_23),
        None,
        None,
    ),
    (Function::GetFile, "get_file", Some(V2013_05_23), None, None),
    (
        Function::ResourceFacade,
        "resource_facade",
        Some(V2013_05_23),
        None,
        None,
    ),
    (Function::GetAttr, "get_attr", Some(V2013_05_23), None, None),
    (
        Function::ListJoin,
        "list_join",
        Some(V2013_05_23),
        None,
        None,
    ),
    (
        Function::StrReplace,
        "str_replace",
        Some(V2013_05_23),
        None,
        None,
    ),
    (Function::Repeat, "repeat", Some(V2015_04_30), None, None),
    (Function::Digest, "digest", Some(V2015_04_30), None, None),
    (
        Function::StrSplit,
        "str_split",
        Some(V2015_10_15),
        None,
        None,
    ),
    (
        Function::MapMerge,
        "map_merge",
        Some(V2016_04_08),
        None,
        None,
    ),
    (
        Function::Yaql,
        "yaql",
        Some(V2016_10_14),
        None,
        Some(V2017_09_01),
    ),
    (
        Function::MapReplace,
        "map_replace",
        Some(V2016_10_14),
        None,
        None,
    ),
    (Function::If, "if", Some(V2016_10_14), None, None),
    (Function::Filter, "filter", Some(V2017_02_24), None, None),
    (
        Function::StrReplaceStrict,
        "str_replace_strict",
        Some(V2017_02_24),
        None,
        None,
    ),
    (Function::MakeUrl, "make_url", Some(V2017_09_01), None, None),
    (
        Function::ListConcat,
        "list_concat",
        Some(V2017_09_01),
        None,
        None,
    ),
    (
        Function::ListConcatUnique,
        "list_concat_unique",
        Some(V2017_09_01),
        None,
        None,
    ),
    (
        Function::StrReplaceVstrict,
        "str_replace_vstrict",
        Some(V2017_09_01),
        None,
        None,
    ),
    (
        Function::Contains,
        "contains",
        Some(V2017_09_01),
        None,
        Some(V2017_09_01),
    ),
    (Function::Equals, "equals", None, None, Some(V2016_10_14)),
    (Function::Not, "not", None, None, Some(V2016_10_14)),
    (Function::And, "and", None, None, Some(V2016_10_14)),
    (Function::Or, "or", None, None, Some(V2016_10_14)),
    (
        Function::FnSelect,
        "Fn::Select",
        Some(V2013_05_23),
        Some(V2015_10_15),
        None,
    ),
    (
        Function::FnGetAzs,
        "Fn::GetAZs",
        Some(V2013_05_23),
        Some(V2014_10_16),
        None,
    ),
    (
        Function::FnJoin,
        "Fn::Join",
        Some(V2013_05_23),
        Some(V2014_10_16),
        None,
    ),
    (
        Function::FnSplit,
        "Fn::Split",
        Some(V2013_05_23),
        Some(V2014_10_16),
        None,
    ),
    (
        Function::FnReplace,
        "Fn::Replace",
        Some(V2013_05_23),
        Some(V2014_10_16),
        None,
    ),
    (
        Function::FnBase64,
        "Fn::Base64",
        Some(V2013_05_23),
        Some(V2014_10_16),
        None,
    ),
    (
        Function::FnMemberListToMap,
        "Fn::MemberListToMap",
        Some(V2013_05_23),
        Some(V2014_10_16),
        None,
    ),
    (
        Function::FnResourceFacade,
        "Fn::ResourceFacade",
        Some(V2013_05_23),
        Some(V2014_10_16),
        None,
    ),
    (
        Function::Ref,
        "Ref",
        Some(V2013_05_23),
        Some(V2014_10_16),
        None,
    ),
];

/// CloudFormation names that are not functions in any HOT version: Heat treats a map keyed by
/// one of them as plain data.
pub const NEVER_HOT_FUNCTIONS: [&str; 12] = [
    "Fn::GetAtt",
    "Fn::FindInMap",
    "Fn::If",
    "Fn::Equals",
    "Fn::And",
    "Fn::Or",
    "Fn::Not",
    "Fn::Sub",
    "Fn::ImportValue",
    "Fn::Cidr",
    "Fn::Transform",
    "Fn::Length",
];

/// How a version's value-context table treats a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Availability {
    /// A function: a single-key map with this key is called.
    Function(Function),
    /// Mapped to Heat's `Removed`: an error when validated.
    Removed(Function),
    /// Not in the table: the map is plain data.
    Data,
}

/// How a version's condition-context table treats a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionAvailability {
    /// A condition function.
    Function(Function),
    /// Removed in this version: an error when validated.
    Removed(Function),
    /// A value function that is `Invalid` in conditions:
    /// `The function "%s" is invalid in this context`.
    Invalid(Function),
    /// Not in either table: plain data.
    Data,
}

impl Function {
    /// The function a name denotes in any version, if any.
    pub fn from_name(name: &str) -> Option<Function> {
        FUNCTIONS.iter().find(|row| row.1 == name).map(|row| row.0)
    }

    fn row(self) -> &'static Row {
        &FUNCTIONS[self as usize]
    }

    /// The Python class Heat builds for a call in the versions that have the
    /// CloudFormation-style functions (2013-05-23 to 2015-04-30), as Python names it in an
    /// error (`cannot unpack non-iterable GetParam object`, `unhashable type: 'GetParam'`).
    pub fn heat_class(self, version: Version) -> &'static str {
        use Function as F;
        match self {
            F::GetParam => "GetParam",
            F::GetResource | F::Ref => "GetResource",
            F::GetFile => "GetFile",
            F::ResourceFacade | F::FnResourceFacade => "ResourceFacade",
            F::GetAttr if version == Version::V2013_05_23 => "GetAttThenSelect",
            F::GetAttr => "GetAtt",
            F::ListJoin | F::FnJoin => "Join",
            F::StrReplace | F::FnReplace => "Replace",
            F::Repeat => "Repeat",
            F::Digest => "Digest",
            F::FnSelect => "Select",
            F::FnGetAzs => "GetAZs",
            F::FnSplit => "Split",
            F::FnBase64 => "Base64",
            F::FnMemberListToMap => "MemberListToMap",
            _ => "Function",
        }
    }

    /// The key Heat recognises, e.g. `get_param`, `Fn::Select`.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// The first version whose value contexts know the function (`None`: conditions only).
    pub fn since(self) -> Option<Version> {
        self.row().2
    }

    /// The first version that maps it to Heat's `Removed`.
    pub fn removed_in(self) -> Option<Version> {
        self.row().3
    }

    /// The first version in which it is a condition function.
    pub fn condition_since(self) -> Option<Version> {
        self.row().4
    }

    /// A CloudFormation-style function (`Fn::*`, `Ref`).
    pub fn is_cfn(self) -> bool {
        self >= Function::FnSelect
    }

    pub fn all() -> impl Iterator<Item = Function> {
        FUNCTIONS.iter().map(|row| row.0)
    }
}

impl Version {
    /// How this version treats a single-key map `{name: …}` in a value context.
    pub fn function(self, name: &str) -> Availability {
        match Function::from_name(name) {
            Some(function) => self.availability(function),
            None => Availability::Data,
        }
    }

    /// How this version treats a call of `function` in a value context.
    fn availability(self, function: Function) -> Availability {
        match (function.since(), function.removed_in()) {
            (Some(since), Some(removed)) if self >= since && self >= removed => {
                Availability::Removed(function)
            }
            (Some(since), _) if self >= since => Availability::Function(function),
            _ => Availability::Data,
        }
    }

    /// How this version treats `{name: …}` in a condition context (a `conditions` entry, a
    /// `condition:` field, the first argument of `if`).
    pub fn condition_function(self, name: &str) -> ConditionAvailability {
        match Function::from_name(name) {
            Some(function) => self.condition_availability(function),
            None => ConditionAvailability::Data,
        }
    }

    /// How this version treats a call of `function` in a condition context.
    fn condition_availability(self, function: Function) -> ConditionAvailability {
        if self < V2016_10_14 {
            return ConditionAvailability::Data;
        }
        if function
            .condition_since()
            .is_some_and(|since| self >= since)
        {
            return ConditionAvailability::Function(function);
        }
        match self.availability(function) {
            Availability::Function(f) => ConditionAvailability::Invalid(f),
            Availability::Removed(f) => ConditionAvailability::Removed(f),
            Availability::Data => ConditionAvailability::Data,
        }
    }

    /// The functions a value context can call in this version.
    pub fn functions(self) -> Vec<Function> {
        // Each function's name is its own (`from_name(f.name())` is `f`): asked by the
        // function, not looked up by name again.
        Function::all()
            .filter(|&f| matches!(self.availability(f), Availability::Function(_)))
            .collect()
    }

    /// The functions a condition context can call in this version.
    pub fn condition_functions(self) -> Vec<Function> {
        Function::all()
            .filter(|&f| {
                matches!(
                    self.condition_availability(f),
                    ConditionAvailability::Function(_)
                )
            })
            .collect()
    }

    /// Top-level keys `Template.validate` accepts (`__undefined__` is Heat's placeholder
    /// for the unused MAPPINGS section).
    pub fn sections(self) -> &'static [&'static str] {
        const OLD: &[&str] = &[
            "heat_template_version",
            "description",
            "parameter_groups",
            "parameters",
            "resources",
            "outputs",
            "__undefined__",
        ];
        const NEW: &[&str] = &[
            "heat_template_version",
            "description",
            "parameter_groups",
            "parameters",
            "resources",
            "outputs",
            "__undefined__",
            "conditions",
        ];
        if self >= V2016_10_14 { NEW } else { OLD }
    }

    /// Keys of a resource definition (`_RESOURCE_KEYS`).
    pub fn resource_keys(self) -> &'static [&'static str] {
        const OLD: &[&str] = &[
            "type",
            "properties",
            "metadata",
            "depends_on",
            "deletion_policy",
            "update_policy",
            "description",
        ];
        const NEW: &[&str] = &[
            "type",
            "properties",
            "metadata",
            "depends_on",
            "deletion_policy",
            "update_policy",
            "description",
            "external_id",
            "condition",
        ];
        if self >= V2016_10_14 { NEW } else { OLD }
    }

    /// Keys of an output definition (`OUTPUT_KEYS`).
    pub fn output_keys(self) -> &'static [&'static str] {
        if self >= V2016_10_14 {
            &["description", "value", "condition"]
        } else {
            &["description", "value"]
        }
    }

    /// Keys of a parameter definition (`HOTParamSchema*.KEYS`).
    pub fn parameter_keys(self) -> &'static [&'static str] {
        const OLD: &[&str] = &[
            "type",
            "description",
            "default",
            "schema",
            "constraints",
            "hidden",
            "label",
            "immutable",
        ];
        const NEW: &[&str] = &[
            "type",
            "description",
            "default",
            "schema",
            "constraints",
            "hidden",
            "label",
            "immutable",
            "tags",
        ];
        if self >= V2018_03_02 { NEW } else { OLD }
    }

    /// Accepted `deletion_policy` values.
    pub fn deletion_policies(self) -> &'static [&'static str] {
        if self >= V2016_10_14 {
            &[
                "Delete", "Retain", "Snapshot", "delete", "retain", "snapshot",
            ]
        } else {
            &["Delete", "Retain", "Snapshot"]
        }
    }

    /// Whether a `modulo` constraint is interpreted (before 2017-02-24 the key is accepted
    /// but ignored: `No constraint expressed`).
    pub fn has_modulo_constraint(self) -> bool {
        self >= V2017_02_24
    }

    /// Whether `repeat` honours `permutations` (2017-09-01 on; ignored before).
    pub fn has_repeat_permutations(self) -> bool {
        self >= V2017_09_01
    }

    /// Whether `repeat` accepts maps as `for_each` values (2016-10-14 on).
    pub fn repeat_accepts_maps(self) -> bool {
        self >= V2016_10_14
    }

    /// Whether `if` accepts two arguments (wallaby's `IfNullable`).
    pub fn has_nullable_if(self) -> bool {
        self >= Version::V2021_04_16
    }

    /// Whether `get_attr: [resource]` alone (all attributes) is allowed (2015-10-15 on).
    pub fn has_get_attr_all_attributes(self) -> bool {
        self >= V2015_10_15
    }

    /// Whether `list_join` takes several lists and JSON-encodes maps and lists (2015-10-15 on).
    pub fn has_join_multiple(self) -> bool {
        self >= V2015_10_15
    }
}

/// HOT parameter types (`heat/engine/hot/parameters.py`).
pub const PARAMETER_TYPES: [&str; 5] = [
    "string",
    "number",
    "json",
    "comma_delimited_list",
    "boolean",
];

/// Pseudo parameters every HOT version provides (`OS::region` is listed by Heat but never
/// created, so it is not here).
pub const PSEUDO_PARAMETERS: [&str; 3] = ["OS::stack_name", "OS::stack_id", "OS::project_id"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_variant_order() {
        for (i, row) in FUNCTIONS.iter().enumerate() {
            assert_eq!(row.0 as usize, i, "{}", row.1);
        }
    }

    #[test]
    fn each_function_is_found_by_its_own_name_and_listed_as_its_name_says() {
        for f in Function::all() {
            assert_eq!(Function::from_name(f.name()), Some(f), "{}", f.name());
        }
        for version in Version::ALL {
            let by_name = |names: Vec<Function>, listed: Vec<Function>| {
                assert_eq!(names, listed, "{version:?}");
            };
            by_name(
                Function::all()
                    .filter(|f| matches!(version.function(f.name()), Availability::Function(_)))
                    .collect(),
                version.functions(),
            );
            by_name(
                Function::all()
                    .filter(|f| {
                        matches!(
                            version.condition_function(f.name()),
                            ConditionAvailability::Function(_)
                        )
                    })
                    .collect(),
                version.condition_functions(),
            );
        }
    }

    #[test]
    fn function_tables_match_heat_per_version() {
        use Availability::{Data, Function as F, Removed};
        assert_eq!(V2013_05_23.function("Fn::Join"), F(Function::FnJoin));
        assert_eq!(V2014_10_16.function("Fn::Join"), Removed(Function::FnJoin));
        assert_eq!(V2015_04_30.function("Fn::Select"), F(Function::FnSelect));
        assert_eq!(
            V2015_10_15.function("Fn::Select"),
            Removed(Function::FnSelect)
        );
        assert_eq!(V2013_05_23.function("str_split"), Data);
        assert_eq!(V2015_10_15.function("str_split"), F(Function::StrSplit));
        assert_eq!(V2016_04_08.function("if"), Data);
        assert_eq!(V2016_10_14.function("if"), F(Function::If));
        assert_eq!(Version::V2021_04_16.function("equals"), Data);
        assert_eq!(Version::V2021_04_16.function("Fn::GetAtt"), Data);
        assert_eq!(V2017_02_24.function("contains"), Data);
        assert_eq!(V2017_09_01.function("contains"), F(Function::Contains));
        assert_eq!(V2013_05_23.functions().len(), 16);
        assert_eq!(Version::V2021_04_16.functions().len(), 21);
    }

    #[test]
    fn condition_tables_match_heat_per_version() {
        use ConditionAvailability::{Data, Function as F, Invalid};
        assert_eq!(V2016_04_08.condition_function("equals"), Data);
        assert_eq!(
            V2016_10_14.condition_function("equals"),
            F(Function::Equals)
        );
        assert_eq!(
            V2016_10_14.condition_function("get_param"),
            F(Function::GetParam)
        );
        assert_eq!(
            V2016_10_14.condition_function("yaql"),
            Invalid(Function::Yaql)
        );
        assert_eq!(V2017_09_01.condition_function("yaql"), F(Function::Yaql));
        assert_eq!(
            V2017_09_01.condition_function("get_resource"),
            Invalid(Function::GetResource)
        );
        assert_eq!(V2017_09_01.condition_function("if"), Invalid(Function::If));
        assert_eq!(
            V2017_09_01.condition_function("Ref"),
            ConditionAvailability::Removed(Function::Ref)
        );
        assert_eq!(V2017_09_01.condition_functions().len(), 7);
    }
}
