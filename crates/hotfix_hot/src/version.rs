//! `heat_template_version`: the eleven HOT versions, in release order.

use std::fmt;

/// A HOT version. The variants are in release order, so versions compare by this table
/// (`derive(Ord)`), never by their strings: Heat itself gets `max("2021-04-16", "newton")`
/// wrong by comparing strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    V2013_05_23,
    V2014_10_16,
    V2015_04_30,
    V2015_10_15,
    V2016_04_08,
    V2016_10_14,
    V2017_02_24,
    V2017_09_01,
    V2018_03_02,
    V2018_08_31,
    V2021_04_16,
}

/// Date, accepted name (`None`: only the date is accepted), OpenStack release.
const TABLE: [(Version, &str, Option<&str>, &str); 11] = [
    (Version::V2013_05_23, "2013-05-23", None, "icehouse"),
    (Version::V2014_10_16, "2014-10-16", None, "juno"),
    (Version::V2015_04_30, "2015-04-30", None, "kilo"),
    (Version::V2015_10_15, "2015-10-15", None, "liberty"),
    (Version::V2016_04_08, "2016-04-08", None, "mitaka"),
    (Version::V2016_10_14, "2016-10-14", Some("newton"), "newton"),
    (Version::V2017_02_24, "2017-02-24", Some("ocata"), "ocata"),
    (Version::V2017_09_01, "2017-09-01", Some("pike"), "pike"),
    (Version::V2018_03_02, "2018-03-02", Some("queens"), "queens"),
    (Version::V2018_08_31, "2018-08-31", Some("rocky"), "rocky"),
    (
        Version::V2021_04_16,
        "2021-04-16",
        Some("wallaby"),
        "wallaby",
    ),
];

impl Version {
    /// Every version, oldest first.
    pub const ALL: [Version; 11] = [
        Version::V2013_05_23,
        Version::V2014_10_16,
        Version::V2015_04_30,
        Version::V2015_10_15,
        Version::V2016_04_08,
        Version::V2016_10_14,
        Version::V2017_02_24,
        Version::V2017_09_01,
        Version::V2018_03_02,
        Version::V2018_08_31,
        Version::V2021_04_16,
    ];

    pub const LATEST: Version = Version::V2021_04_16;

    /// The version a `heat_template_version` value names, exactly as Heat accepts it: a date,
    /// or (from newton on) a lower-case name. `Newton` and `2016-10-15` are not versions.
    pub fn parse(text: &str) -> Option<Version> {
        TABLE
            .iter()
            .find(|(_, date, name, _)| *date == text || *name == Some(text))
            .map(|row| row.0)
    }

    fn row(self) -> &'static (Version, &'static str, Option<&'static str>, &'static str) {
        &TABLE[self as usize]
    }

    /// The date form, e.g. `2016-10-14`.
    pub fn date(self) -> &'static str {
        self.row().1
    }

    /// The name Heat accepts in place of the date (`newton` and later).
    pub fn name(self) -> Option<&'static str> {
        self.row().2
    }

    /// The OpenStack release that introduced the version (`icehouse` … `wallaby`).
    pub fn release(self) -> &'static str {
        self.row().3
    }

    /// Every string Heat accepts as a `heat_template_version`, sorted as Heat lists them
    /// in its error message (plain string order: dates, then names).
    pub fn accepted_strings() -> Vec<&'static str> {
        let mut all: Vec<&str> = TABLE
            .iter()
            .flat_map(|(_, date, name, _)| std::iter::once(*date).chain(*name))
            .collect();
        all.sort_unstable();
        all
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.date())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_variant_order() {
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.0 as usize, i);
            assert_eq!(Version::ALL[i], row.0);
        }
    }

    #[test]
    fn orders_versions_by_the_table_not_by_strings() {
        let wallaby = Version::parse("2021-04-16").unwrap();
        let newton = Version::parse("newton").unwrap();
        assert!(wallaby > newton);
        assert_eq!(wallaby.max(newton), Version::LATEST);
    }

    #[test]
    fn accepts_exactly_the_strings_heat_accepts() {
        assert_eq!(
            Version::accepted_strings().join(", "),
            "2013-05-23, 2014-10-16, 2015-04-30, 2015-10-15, 2016-04-08, 2016-10-14, 2017-02-24, 2017-09-01, 2018-03-02, 2018-08-31, 2021-04-16, newton, ocata, pike, queens, rocky, wallaby"
        );
        for bad in ["Newton", "2016-10-15", "icehouse", "2013-05-23 ", ""] {
            assert_eq!(Version::parse(bad), None, "{bad:?}");
        }
        assert_eq!(Version::parse("pike"), Some(Version::V2017_09_01));
        assert_eq!(Version::V2017_09_01.name(), Some("pike"));
        assert_eq!(Version::V2013_05_23.name(), None);
    }
}
