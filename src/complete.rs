//! Values that shell completion offers for an option whose parser accepts them (and no other
//! parsing changes): `--to`'s HOT versions, `--heat-release`'s releases.

use clap::builder::{PossibleValue, TypedValueParser};
use hotfix_hot::heat_release::{HeatRelease, ReleaseError};

/// A value parser that parses as `inner` does and tells clap (and so `clap_complete`) the
/// values to offer. The list does not restrict what is accepted: clap checks possible values
/// only in its own `PossibleValuesParser`, and `inner` keeps its own errors.
#[derive(Clone, Debug)]
pub(crate) struct Offering<P> {
    inner: P,
    values: fn() -> Vec<&'static str>,
}

impl<P> Offering<P> {
    pub(crate) fn new(inner: P, values: fn() -> Vec<&'static str>) -> Self {
        Self { inner, values }
    }
}

impl<P: TypedValueParser> TypedValueParser for Offering<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        self.inner.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            (self.values)().into_iter().map(PossibleValue::new),
        ))
    }
}

/// `--to`: every `heat_template_version` Heat accepts (dates, then names); parsed as a string.
pub(crate) fn hot_versions() -> Offering<clap::builder::StringValueParser> {
    Offering::new(
        clap::builder::StringValueParser::new(),
        hotfix_hot::Version::accepted_strings,
    )
}

type ParseRelease = fn(&str) -> Result<HeatRelease, ReleaseError>;

/// `--heat-release`: every release series and number [`HeatRelease::parse`] accepts.
pub(crate) fn heat_releases() -> Offering<ParseRelease> {
    Offering::new(HeatRelease::parse, HeatRelease::accepted_names)
}
