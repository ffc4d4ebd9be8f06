use hotfix_hot::{Template, Version, VersionDecl};
use hotfix_yaml::ScalarStyle;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::util::closest;

declare_rule! {
    /// ## What it does
    /// Checks that `heat_template_version` is one of the versions Heat accepts: a release
    /// date (`2013-05-23` … `2021-04-16`) or, from newton on, its lower-case name (`newton`
    /// … `wallaby`).
    ///
    /// ## Why is this bad?
    /// Heat refuses any other value: `The template version is invalid:
    /// "heat_template_version: 2016-10-15". "heat_template_version" should be one of: …`.
    /// Names are case-sensitive (`Newton` is invalid) and dates must match a release exactly.
    ///
    /// When the misspelling has one clear correction (`2016-10-15` → `2016-10-14`: the closest
    /// accepted strings, by edits and then by shared prefix, all name one version), hotfix
    /// lints the rest of the template as that version, so that this finding hides no other;
    /// the help says so, and the fixes of the other findings are then offered as unsafe
    /// (computed for a version the template does not declare). Without a clear correction
    /// (none close, or several equally close) the other rules, which depend on the version,
    /// are silent, and an upgrade refuses the file in every case.
    ///
    /// ## Fix safety
    /// The fix replaces the version with its one correction (`2016-10-15` → `2016-10-14`). It
    /// is unsafe: Heat refused the template, and reads the fixed one as the corrected version,
    /// whose functions, keys and conditions decide what the template does; if another version
    /// was meant, the template means something else.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-15
    /// resources: {}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources: {}
    /// ```
    pub(crate) static RULE = {
        code: "H102",
        name: "invalid-version",
        severity: Error,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let VersionDecl::Invalid { text, value, .. } = &cx.template.version else {
        return;
    };
    let accepted = Version::accepted_strings();
    let diagnostic = sink.report(
        cx.span(*value),
        format!("`{text}` is not a HOT version Heat knows"),
    );
    let heat = format!(
        "Heat: `The template version is invalid: \"heat_template_version: {text}\". \"heat_template_version\" should be one of: {}`",
        accepted.join(", ")
    );
    let candidates = closest(text, accepted.iter().copied());
    match (correction(text), candidates.as_slice()) {
        (Some((suggestion, version)), _) => {
            let linted_as = if cx.template.version_assumed() == Some(version) {
                let named = if suggestion == version.date() {
                    suggestion.to_owned()
                } else {
                    format!("{suggestion} ({version})")
                };
                format!(" hotfix lints the rest of the template as {named}.")
            } else {
                String::new()
            };
            diagnostic.help(format!("did you mean `{suggestion}`?{linted_as} {heat}"));
            // Inside the quotes of a quoted version: a JSON template must stay JSON.
            let span = cx.span(*value);
            let span = match cx.doc.scalar(*value).map(|s| s.style) {
                Some(ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) => {
                    hotfix_diagnostics::Span::new(span.start + 1, span.end - 1)
                }
                _ => span,
            };
            diagnostic.fix(hotfix_diagnostics::Fix {
                message: format!("Replace `{text}` with `{suggestion}`"),
                edits: vec![hotfix_diagnostics::Edit::replace(span, suggestion)],
                applicability: hotfix_diagnostics::Applicability::Unsafe,
            });
        }
        (None, [others @ .., last]) if !others.is_empty() => {
            // Equally close corrections naming different versions: no guess, no fix.
            let others = others
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ");
            diagnostic.help(format!("did you mean {others} or `{last}`? {heat}"));
        }
        _ => {
            diagnostic.help(heat);
        }
    }
}

/// The one correction of a misspelt version, and the version it names, when the closest
/// accepted strings all name one version (`2016-10-15` → `2016-10-14`, `Newton` → `newton`).
fn correction(text: &str) -> Option<(&'static str, Version)> {
    let candidates = closest(text, Version::accepted_strings());
    let (&first, rest) = candidates.split_first()?;
    let version = Version::parse(first)?;
    rest.iter()
        .all(|c| Version::parse(c) == Some(version))
        .then_some((first, version))
}

/// The version a misspelt `heat_template_version` most likely means: the one that all the
/// closest accepted strings name (`2016-10-15` → 2016-10-14, `Newton` → newton). `None` when
/// the declaration is not an invalid string, when nothing is close, or when the closest
/// strings name different versions.
pub(crate) fn assumed_version(template: &Template<'_>) -> Option<Version> {
    let VersionDecl::Invalid { text, .. } = &template.version else {
        return None;
    };
    correction(text).map(|(_, version)| version)
}
