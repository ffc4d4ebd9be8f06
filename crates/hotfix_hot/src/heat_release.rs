//! OpenStack releases and the Heat each one ships, for the `heat-release` setting: which Heat
//! a template is deployed to, and when a resource type, property or attribute arrived in Heat.
//!
//! Heat's support statuses name the release a status applies from in two styles: the date-style
//! versions of the first releases (`2013.1` … `2015.1`, which were also OpenStack's release
//! numbers), then the versions of the `openstack-heat` package (`5.0.0` = liberty, one major
//! version a series). OpenStack numbers its series again since 2023 (`2023.1` = antelope).
//!
//! The table, and where each part of it comes from:
//!
//! - Heat's own map from versions to series, `_CODE_NAMES` in `doc/source/ext/resources.py` of
//!   the `openstack/heat` repository (commit 526defd06ece, 2026): `2013.1` grizzly … `19.0.0`
//!   zed, `20.0.0` 2023.1, `21.0.0` 2023.2;
//! - `openstack/releases` (commit 02df7c9a3cc3): `deliverables/<series>/heat.yaml`, the Heat
//!   versions released in each series (havana `2013.2` … gazpacho `26.0.0`), and
//!   `data/series_status.yaml`, each series' number (`release-id`, 2023.1 on) and release date;
//! - `openstack-heat` on the Python Package Index: `27.0.0` was uploaded on 2026-09-30, the day
//!   `series_status.yaml` gives for hibiscus (2026.2); every `N.0.0` from `20.0.0` on was
//!   uploaded on its series' release date;
//! - oslo.log's `versionutils.deprecated` (in Heat's own environment) names the series in
//!   order with their numbers (`ANTELOPE = '2023.1'` … `HIBISCUS = '2026.2'`): the test
//!   `heat_the_release_table_agrees_with_openstack` checks the table against it.
//!
//! Only releases from liberty on can be named in the setting: hotfix checked the support
//! statuses against the registries of Heat 5.0.0 … 26.0.0 (`docs/resource-types.md`), where
//! they agree with Heat's history but for the one [`property_arrival`] corrects; the date-style
//! versions before liberty are often later than the Heat that first had the type (Heat added
//! them afterwards: `AWS::AutoScaling::AutoScalingGroup` says 2014.1 and is in Heat 2013.1).

use std::fmt;

use crate::Version;
use crate::resource_types::{Attribute, ResourceType, Schema, Status, SupportStatus};

/// An OpenStack release (a series), from grizzly on. Releases compare in release order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HeatRelease(usize);

/// Series name, OpenStack release number (grizzly … kilo, and 2023.1 on), Heat version.
const TABLE: [(&str, Option<&str>, &str); 28] = [
    ("grizzly", Some("2013.1"), "2013.1"),
    ("havana", Some("2013.2"), "2013.2"),
    ("icehouse", Some("2014.1"), "2014.1"),
    ("juno", Some("2014.2"), "2014.2"),
    ("kilo", Some("2015.1"), "2015.1"),
    ("liberty", None, "5.0.0"),
    ("mitaka", None, "6.0.0"),
    ("newton", None, "7.0.0"),
    ("ocata", None, "8.0.0"),
    ("pike", None, "9.0.0"),
    ("queens", None, "10.0.0"),
    ("rocky", None, "11.0.0"),
    ("stein", None, "12.0.0"),
    ("train", None, "13.0.0"),
    ("ussuri", None, "14.0.0"),
    ("victoria", None, "15.0.0"),
    ("wallaby", None, "16.0.0"),
    ("xena", None, "17.0.0"),
    ("yoga", None, "18.0.0"),
    ("zed", None, "19.0.0"),
    ("antelope", Some("2023.1"), "20.0.0"),
    ("bobcat", Some("2023.2"), "21.0.0"),
    ("caracal", Some("2024.1"), "22.0.0"),
    ("dalmatian", Some("2024.2"), "23.0.0"),
    ("epoxy", Some("2025.1"), "24.0.0"),
    ("flamingo", Some("2025.2"), "25.0.0"),
    ("gazpacho", Some("2026.1"), "26.0.0"),
    ("hibiscus", Some("2026.2"), "27.0.0"),
];

/// The first release the setting accepts.
const FIRST_CHECKED: HeatRelease = HeatRelease(5);

/// Where Heat's history contradicts a support status: (type, property, the Heat version that
/// first had it). `OS::Keystone::Role`'s `domain` says `SUPPORTED since 16.0.0`, but Heat
/// 10.0.0 … 15.0.0 have it too, with `SupportStatus(version='10.0.0')` and a default (Heat
/// 16.0.0 dropped the default and rewrote the version).
const CORRECTED_PROPERTIES: &[(&str, &str, &str)] = &[("OS::Keystone::Role", "domain", "10.0.0")];

/// Why a name is not a release the setting accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReleaseError {
    /// Not a release hotfix knows.
    Unknown(String),
    /// A release before liberty.
    TooOld(HeatRelease),
}

impl fmt::Display for ReleaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown(name) => {
                let names = HeatRelease::accepted_names();
                write!(f, "`{name}` is not an OpenStack release hotfix knows: ")?;
                if let Some(suggestion) =
                    crate::suggest::did_you_mean(name.trim(), names.iter().copied())
                {
                    write!(f, "did you mean `{suggestion}`? ")?;
                }
                write!(f, "use one of {}", names.join(", "))
            }
            Self::TooOld(release) => write!(
                f,
                "`{}` (Heat {}) is older than hotfix checks: Heat's support statuses are not \
                 reliable before liberty; use liberty or a later release",
                release.series(),
                release.heat_version()
            ),
        }
    }
}

impl std::error::Error for ReleaseError {}

impl HeatRelease {
    /// The release of the Heat the embedded resource-type data was read from.
    pub const LATEST: HeatRelease = HeatRelease(TABLE.len() - 1);

    /// The release a user names: a series (`wallaby`, `Antelope`) or a release number
    /// (`2023.1`), in any case; from liberty on.
    ///
    /// # Errors
    ///
    /// An unknown name, or a release before liberty.
    pub fn parse(name: &str) -> Result<HeatRelease, ReleaseError> {
        let wanted = name.trim().to_ascii_lowercase();
        let release = TABLE
            .iter()
            .position(|(series, number, _)| *series == wanted || *number == Some(&wanted))
            .map(HeatRelease)
            .ok_or_else(|| ReleaseError::Unknown(name.to_owned()))?;
        if release < FIRST_CHECKED {
            return Err(ReleaseError::TooOld(release));
        }
        Ok(release)
    }

    /// The release a version in Heat's support statuses names (`2014.1`, `9.0.0`): the Heat
    /// version of a series' first release. Surrounding spaces are ignored (Heat writes
    /// `'2014.2 '` once); any other version, a point release such as `16.1.0` among them, is
    /// unknown.
    pub fn of_heat_version(version: &str) -> Option<HeatRelease> {
        let version = version.trim();
        TABLE
            .iter()
            .position(|(_, _, heat)| *heat == version)
            .map(HeatRelease)
    }

    /// Every name [`HeatRelease::parse`] accepts, series first, in release order.
    pub fn accepted_names() -> Vec<&'static str> {
        let checked = &TABLE[FIRST_CHECKED.0..];
        checked
            .iter()
            .map(|(series, _, _)| *series)
            .chain(checked.iter().filter_map(|(_, number, _)| *number))
            .collect()
    }

    /// Every release, grizzly first.
    pub fn all() -> impl ExactSizeIterator<Item = HeatRelease> {
        (0..TABLE.len()).map(HeatRelease)
    }

    /// The series name, lower case: `wallaby`, `antelope`.
    pub fn series(self) -> &'static str {
        TABLE[self.0].0
    }

    /// OpenStack's release number, when it has one: `2014.1`, `2023.1`.
    pub fn number(self) -> Option<&'static str> {
        TABLE[self.0].1
    }

    /// The Heat version of the series' first release: `2014.1`, `16.0.0`.
    pub fn heat_version(self) -> &'static str {
        TABLE[self.0].2
    }

    /// Whether the setting may name it (liberty or later).
    pub fn is_checked(self) -> bool {
        self >= FIRST_CHECKED
    }
}

/// The names users know it by: `wallaby`; `2023.1 antelope` from 2023 on.
impl fmt::Display for HeatRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number() {
            Some(number) if self.is_checked() => write!(f, "{number} {}", self.series()),
            _ => f.write_str(self.series()),
        }
    }
}

/// The release a status chain says the thing arrived in: the oldest status's release, when that
/// status is `SUPPORTED` and names a release of the table. Nothing otherwise: an oldest status
/// `DEPRECATED` or `HIDDEN` says when the thing was deprecated or hidden, not when it came, and
/// an oldest `UNSUPPORTED` may be a change of status too (`OS::Neutron::Firewall`'s attribute
/// `shared` says `UNSUPPORTED since 6.0.0` and is in Heat 5.0.0).
pub fn arrival(status: &SupportStatus) -> Option<HeatRelease> {
    let oldest = status.chain().last()?;
    if oldest.status != Status::Supported {
        return None;
    }
    HeatRelease::of_heat_version(oldest.version.as_deref()?)
}

/// The release whose Heat first accepted a `heat_template_version` (`2016-10-14` and `newton`:
/// newton, Heat 7.0.0), as [`Version::release`] says. From `2014-10-16` on, each is in Heat's
/// `setup.cfg` entry points from exactly that release's first Heat version on (the tags of
/// `openstack/heat`; `docs/resource-types.md`).
pub fn template_version_arrival(version: Version) -> Option<HeatRelease> {
    HeatRelease::all().find(|r| r.series() == version.release())
}

/// The newest `heat_template_version` the Heat of a release accepts.
pub fn newest_template_version(release: HeatRelease) -> Option<Version> {
    Version::ALL
        .into_iter()
        .rfind(|v| template_version_arrival(*v).is_some_and(|a| a <= release))
}

/// The release a resource type arrived in, as its support status says.
pub fn type_arrival(resource_type: &ResourceType) -> Option<HeatRelease> {
    arrival(&resource_type.support_status)
}

/// The release a property (`path`: its name, then the names of the nested map keys that lead
/// to it) arrived in, as its support status says, or as Heat's history says where the two
/// disagree.
pub fn property_arrival(type_name: &str, path: &[&str], property: &Schema) -> Option<HeatRelease> {
    if let [name] = path
        && let Some((_, _, version)) = CORRECTED_PROPERTIES
            .iter()
            .find(|(t, p, _)| *t == type_name && p == name)
    {
        return HeatRelease::of_heat_version(version);
    }
    arrival(&property.support_status)
}

/// The release an attribute arrived in, as its support status says.
pub fn attribute_arrival(attribute: &Attribute) -> Option<HeatRelease> {
    arrival(&attribute.support_status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource_types;

    #[test]
    fn names_are_read_in_any_case_as_series_or_numbers() {
        let wallaby = HeatRelease::parse("wallaby").expect("a release");
        assert_eq!(HeatRelease::parse("Wallaby"), Ok(wallaby));
        assert_eq!(wallaby.heat_version(), "16.0.0");
        assert_eq!(wallaby.to_string(), "wallaby");
        let antelope = HeatRelease::parse("2023.1").expect("a release");
        assert_eq!(HeatRelease::parse("ANTELOPE"), Ok(antelope));
        assert_eq!(antelope.heat_version(), "20.0.0");
        assert_eq!(antelope.to_string(), "2023.1 antelope");
        assert!(wallaby < antelope);
        assert_eq!(
            HeatRelease::parse("hibiscus").map(HeatRelease::heat_version),
            Ok("27.0.0")
        );
    }

    #[test]
    fn an_unknown_name_is_an_error_that_lists_the_known_ones() {
        let err = HeatRelease::parse("wallabee").expect_err("not a release");
        let text = err.to_string();
        assert!(
            text.starts_with(
                "`wallabee` is not an OpenStack release hotfix knows: did you mean `wallaby`? use one of \
                 liberty, mitaka, newton,"
            ),
            "{text}"
        );
        assert!(
            text.ends_with(
                "hibiscus, 2023.1, 2023.2, 2024.1, 2024.2, 2025.1, 2025.2, 2026.1, 2026.2"
            ),
            "{text}"
        );
        for name in ["", "16.0.0", "2027.1", "indri", "wallaby-eol"] {
            assert!(
                matches!(HeatRelease::parse(name), Err(ReleaseError::Unknown(_))),
                "{name}"
            );
        }
    }

    #[test]
    fn releases_before_liberty_are_refused() {
        for name in ["kilo", "2015.1", "grizzly", "icehouse"] {
            let err = HeatRelease::parse(name).expect_err("too old");
            assert!(matches!(err, ReleaseError::TooOld(_)), "{name}");
            assert!(err.to_string().contains("before liberty"), "{err}");
        }
        assert!(HeatRelease::parse("liberty").is_ok());
    }

    #[test]
    fn heat_versions_are_one_major_version_a_series_from_liberty() {
        let releases: Vec<HeatRelease> = HeatRelease::all().collect();
        assert!(releases.is_sorted());
        for (i, release) in releases.iter().enumerate().skip(5) {
            assert_eq!(release.heat_version(), format!("{i}.0.0"), "{release:?}");
        }
        // The date-style releases were OpenStack's release numbers.
        for release in &releases[..5] {
            assert_eq!(release.number(), Some(release.heat_version()));
        }
        // From 2023, two numbered releases a year: 2023.1, 2023.2, 2024.1, …
        for (i, release) in releases[20..].iter().enumerate() {
            let year = 2023 + i / 2;
            let half = 1 + i % 2;
            assert_eq!(release.number(), Some(format!("{year}.{half}").as_str()));
        }
    }

    #[test]
    fn every_version_in_the_resource_data_names_a_release() {
        fn statuses<'s>(schema: &'s Schema, out: &mut Vec<&'s SupportStatus>) {
            out.push(&schema.support_status);
            for nested in schema.schema.values().chain(schema.items.as_deref()) {
                statuses(nested, out);
            }
        }
        let mut all = Vec::new();
        for (_, t) in resource_types::all().iter() {
            all.push(&t.support_status);
            for p in t.properties.values().chain(t.update_policy.values()) {
                statuses(p, &mut all);
            }
            all.extend(t.attributes.values().map(|a| &a.support_status));
        }
        let mut seen = 0;
        for status in all.iter().flat_map(|s| s.chain()) {
            if let Some(version) = &status.version {
                seen += 1;
                assert!(
                    HeatRelease::of_heat_version(version).is_some(),
                    "`{version}` names no release of the table"
                );
            }
        }
        assert!(seen > 500, "{seen} versions");
        // The data's own Heat is the last release of the table.
        let heat = resource_types::all().heat_version();
        let major = heat.split('.').next().expect("a major version");
        assert_eq!(
            HeatRelease::LATEST.heat_version(),
            format!("{major}.0.0"),
            "the data is Heat {heat}: add its release to the table"
        );
    }

    #[test]
    fn the_template_versions_came_with_releases_of_the_table_in_order() {
        let mut last = None;
        for version in crate::Version::ALL {
            let series = version.release();
            let release = HeatRelease::all()
                .find(|r| r.series() == series)
                .unwrap_or_else(|| panic!("{version}: `{series}` is not a series of the table"));
            assert!(last <= Some(release), "{version}");
            last = Some(release);
            if let Some(name) = version.name() {
                assert_eq!(name, series, "{version}");
            }
        }
    }

    #[test]
    fn template_versions_arrive_with_their_release() {
        let release = |name| HeatRelease::parse(name).expect("a release");
        assert_eq!(
            template_version_arrival(Version::V2016_10_14),
            Some(release("newton"))
        );
        assert_eq!(
            template_version_arrival(Version::V2021_04_16),
            Some(release("wallaby"))
        );
        assert_eq!(
            newest_template_version(release("liberty")),
            Some(Version::V2015_10_15)
        );
        assert_eq!(
            newest_template_version(release("victoria")),
            Some(Version::V2018_08_31)
        );
        assert_eq!(
            newest_template_version(release("2023.1")),
            Some(Version::V2021_04_16)
        );
    }

    #[test]
    fn the_arrival_is_the_oldest_status_when_it_is_supported() {
        // neutron/trunk.py: support_status=SupportStatus(version='9.0.0').
        let trunk = resource_types::get("OS::Neutron::Trunk").expect("registered");
        assert_eq!(type_arrival(trunk).map(HeatRelease::series), Some("pike"));
        // designate/record.py: HIDDEN since 10.0.0 < DEPRECATED since 8.0.0 < SUPPORTED since
        // 5.0.0: arrived in liberty.
        let record = resource_types::get("OS::Designate::Record").expect("registered");
        assert_eq!(
            type_arrival(record).map(HeatRelease::series),
            Some("liberty")
        );
        // neutron/subnet.py SEGMENT: SUPPORTED since 11.0.0 < SUPPORTED since 9.0.0.
        let segment = &resource_types::get("OS::Neutron::Subnet")
            .expect("registered")
            .properties["segment"];
        assert_eq!(
            property_arrival("OS::Neutron::Subnet", &["segment"], segment).map(HeatRelease::series),
            Some("pike")
        );
        // nova/server.py ADDRESSES: SUPPORTED since 11.0.0 < SUPPORTED (no version): unknown.
        let server = resource_types::get("OS::Nova::Server").expect("registered");
        assert_eq!(attribute_arrival(&server.attributes["addresses"]), None);
        // An oldest status that is not SUPPORTED says nothing of the arrival.
        assert_eq!(
            arrival(
                &server.properties["networks"]
                    .items
                    .as_ref()
                    .expect("items")
                    .schema["uuid"]
                    .support_status
            ),
            None
        );
        let firewall = resource_types::get("OS::Neutron::Firewall").expect("registered");
        assert_eq!(attribute_arrival(&firewall.attributes["shared"]), None);
        // Types with Heat's default status (no version): unknown.
        assert_eq!(type_arrival(server), None);
    }

    #[test]
    fn the_keystone_role_domain_arrived_in_queens_as_heat_history_says() {
        let role = resource_types::get("OS::Keystone::Role").expect("registered");
        let domain = &role.properties["domain"];
        assert_eq!(
            arrival(&domain.support_status).map(HeatRelease::heat_version),
            Some("16.0.0")
        );
        assert_eq!(
            property_arrival("OS::Keystone::Role", &["domain"], domain).map(HeatRelease::series),
            Some("queens")
        );
    }
}
