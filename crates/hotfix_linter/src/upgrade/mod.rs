//! `hotfix upgrade`: rewriting a template for a later `heat_template_version`, one version step
//! at a time, with minimal byte edits.
//!
//! An upgrade from version A to T runs the steps A→A+1→…→T of the version table in order. In
//! each step the step's upgrade rules report what the step changes: constructs the new version
//! no longer accepts (errors, each with a rewrite when one keeps the meaning) and syntax whose
//! meaning changes (warnings). Fixes are applied (Safe ones, and Unsafe ones on request), the
//! text is re-parsed and the rules run again until nothing is left to apply; then, if no error
//! remains, the `heat_template_version` scalar is rewritten to the step's target, and the next
//! step starts. When a step is blocked, the template must not claim a version its content does
//! not meet, so the whole upgrade is redone with the blocked step's start as the target (rules
//! may rewrite differently for a nearer target) until it goes through.
//!
//! A rewrite never erases a node that a lint rule flags as a likely mistake (`guard`): such a
//! rewrite is withheld, and its finding says why.

use hotfix_diagnostics::{Applicability, Diagnostic, Edit, Severity, Span};
use hotfix_hot::{Semantic, Template, Version, VersionDecl};
use hotfix_yaml::{Document, LoadError, ScalarStyle};

use crate::fix::{Stopped, fix_to_fixed_point};
use crate::rule::Context;

mod guard;
mod rules;
pub(crate) mod shared;

pub use crate::fix::{MAX_PASSES, Segments};

/// An upgrade rule: like a lint rule, plus the version step it belongs to.
pub struct UpgradeRule {
    pub code: &'static str,
    pub name: &'static str,
    /// The step `(from, to)` it checks; `None` for rules that check every step.
    pub step: Option<(Version, Version)>,
    /// What its findings are unless the rule says otherwise: `Error` blocks the step until
    /// rewritten, `Warning` reports a change of meaning.
    pub severity: Severity,
    pub doc: &'static str,
    pub(crate) check: fn(&UpgradeContext<'_>, &mut UpgradeSink<'_>),
}

impl std::fmt::Debug for UpgradeRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.code, self.name)
    }
}

impl UpgradeRule {
    /// The documentation, one leading space per line removed.
    pub fn documentation(&self) -> String {
        crate::rule::doc_text(self.doc)
    }

    /// The first sentence of "What it does".
    pub fn summary(&self) -> String {
        crate::rule::doc_summary(&self.documentation())
    }

    fn applies_to(&self, step: (Version, Version)) -> bool {
        self.step.is_none_or(|s| s == step)
    }
}

/// Declares an upgrade rule; its doc comment is its documentation.
macro_rules! declare_upgrade_rule {
    (
        $(#[doc = $doc:literal])+
        $vis:vis static $ident:ident = {
            code: $code:literal,
            name: $name:literal,
            step: $step:expr,
            severity: $severity:ident,
            check: $check:path $(,)?
        };
    ) => {
        $(#[doc = $doc])+
        $vis static $ident: $crate::upgrade::UpgradeRule = $crate::upgrade::UpgradeRule {
            code: $code,
            name: $name,
            step: $step,
            severity: hotfix_diagnostics::Severity::$severity,
            doc: concat!($($doc, "\n"),+),
            check: $check,
        };
    };
}

pub(crate) use declare_upgrade_rule;

/// What an upgrade rule sees: the template (at the step's `from` version), the step, and the
/// final target of the whole upgrade.
#[derive(Debug)]
pub struct UpgradeContext<'a> {
    pub cx: &'a Context<'a>,
    pub from: Version,
    pub to: Version,
    pub target: Version,
    /// Ranges of the current text that earlier rewrites of this upgrade wrote (a `str_split`
    /// the upgrade itself produced is not the author's data).
    pub written: &'a [Span],
    /// Whether the user accepts changes of meaning (`--unsafe-fixes`): a rule that blocks a
    /// step for a change it cannot rewrite away reports it as a warning then, and the step goes
    /// through.
    pub unsafe_fixes: bool,
}

impl UpgradeContext<'_> {
    /// Whether `span` touches text an earlier rewrite of this upgrade wrote (a renamed key
    /// keeps its quotes: only its inside is written).
    pub fn is_written(&self, span: Span) -> bool {
        self.written
            .iter()
            .any(|w| w.start < span.end && span.start < w.end)
    }
}

/// Where an upgrade rule reports.
#[derive(Debug)]
pub struct UpgradeSink<'r> {
    rule: &'static UpgradeRule,
    out: &'r mut Vec<Diagnostic>,
}

impl UpgradeSink<'_> {
    /// Reports at `span` with the rule's severity; the diagnostic takes help, labels, a fix,
    /// and may change its severity.
    pub fn report(&mut self, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.out.push(Diagnostic::new(
            self.rule.code,
            self.rule.name,
            self.rule.severity,
            message,
            span,
        ));
        let last = self.out.len() - 1;
        &mut self.out[last]
    }
}

/// Every upgrade rule, sorted by code.
pub fn all_upgrade_rules() -> &'static [&'static UpgradeRule] {
    rules::REGISTRY.as_slice()
}

/// How the new version is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VersionStyle {
    /// A date stays a date; a name becomes the target's name.
    #[default]
    Keep,
    Date,
    /// The target's name where it has one (newton and later), else its date.
    Name,
}

#[derive(Clone, Debug)]
pub struct UpgradeOptions {
    pub target: Version,
    /// Also apply Unsafe rewrites.
    pub unsafe_fixes: bool,
    pub version_style: VersionStyle,
}

/// A step that could not be taken, and every finding that blocked it.
#[derive(Clone, Debug)]
pub struct Blocked {
    pub step: (Version, Version),
    /// The first error left in the step, in the order of the text.
    pub blocker: Blocker,
    /// The other errors left in the step, in the order of the text.
    pub more: Vec<Blocker>,
    /// What `--unsafe-fixes` would do, found by running the upgrade with it: `Some` only when
    /// that run gets further than this one (never when this run already had them).
    pub unsafe_fixes: Option<UnsafeReach>,
}

impl Blocked {
    /// Every error left in the step, in the order of the text.
    pub fn blockers(&self) -> impl Iterator<Item = &Blocker> {
        std::iter::once(&self.blocker).chain(&self.more)
    }
}

/// One finding that blocks a step.
#[derive(Clone, Debug)]
pub struct Blocker {
    pub diagnostic: Diagnostic,
    /// 1-based line and column of the finding in the text of the blocked step (after the
    /// rewrites that went through before it).
    pub line: usize,
    pub column: usize,
}

/// How far an upgrade gets with `--unsafe-fixes`, when that is further than without.
#[derive(Clone, Debug)]
pub struct UnsafeReach {
    /// The version it reaches: the target when it goes through.
    pub reached: Version,
    /// Whether it is blocked too, further on.
    pub blocked: bool,
    /// The Unsafe rewrites it applies: the rule's code and what the fix does.
    pub rewrites: Vec<(&'static str, String)>,
}

#[derive(Clone, Debug)]
pub enum UpgradeStatus {
    /// Nothing to do: the template is at or above the target.
    AlreadyAtTarget { version: Version },
    /// Upgraded all the way (`from == to` never happens here).
    Upgraded { from: Version, to: Version },
    /// Stopped: the file reached `reached` (possibly its own version, unchanged).
    Blocked {
        from: Version,
        reached: Version,
        blocked: Box<Blocked>,
    },
}

/// The result of upgrading one template.
#[derive(Clone, Debug)]
pub struct Upgrade {
    pub status: UpgradeStatus,
    /// The upgraded text (the source itself when nothing changed).
    pub text: String,
    /// Warnings (changes of meaning) and remaining errors, on `text`.
    pub diagnostics: Vec<Diagnostic>,
    /// How many fixes were applied.
    pub fixes: usize,
    /// Which bytes of the source survive in `text`, and where.
    pub segments: Segments,
    /// The Unsafe rewrites that were applied (`--unsafe-fixes`): the rule's code and what the
    /// fix did, so that the user sees every change that may alter what Heat computes.
    pub unsafe_applied: Vec<(&'static str, String)>,
}

/// Why a template could not be upgraded at all.
#[derive(Clone, Debug, thiserror::Error)]
pub enum UpgradeError {
    #[error("{0}")]
    Load(LoadError),
    #[error(
        "no valid heat_template_version: only HOT templates with a known version can be upgraded"
    )]
    NoVersion,
    #[error(
        "internal error: the rewrites of step {0} → {1} did not converge in {MAX_PASSES} passes"
    )]
    NotConverged(Version, Version),
    #[error("internal error: step {0} → {1} produced text that does not parse: {2}")]
    Unparseable(Version, Version, String),
}

/// Upgrades one template to `options.target`.
///
/// # Errors
/// When the source is not a loadable HOT template with a valid version, and on internal
/// errors (rewrites that do not converge or produce text that does not parse), which are bugs.
pub fn upgrade(source: &str, options: &UpgradeOptions) -> Result<Upgrade, UpgradeError> {
    let mut result = upgrade_once(source, options)?;
    if let UpgradeStatus::Blocked {
        reached, blocked, ..
    } = &mut result.status
        && !options.unsafe_fixes
    {
        let bolder = upgrade_once(
            source,
            &UpgradeOptions {
                unsafe_fixes: true,
                ..options.clone()
            },
        )?;
        blocked.unsafe_fixes = match bolder.status {
            UpgradeStatus::Upgraded { to, .. } if to > *reached => Some(UnsafeReach {
                reached: to,
                blocked: false,
                rewrites: bolder.unsafe_applied,
            }),
            UpgradeStatus::Blocked {
                reached: further, ..
            } if further > *reached => Some(UnsafeReach {
                reached: further,
                blocked: true,
                rewrites: bolder.unsafe_applied,
            }),
            _ => None,
        };
    }
    Ok(result)
}

/// [`upgrade`], without looking at what `--unsafe-fixes` would do.
fn upgrade_once(source: &str, options: &UpgradeOptions) -> Result<Upgrade, UpgradeError> {
    let doc = hotfix_yaml::parse(source).map_err(UpgradeError::Load)?;
    let template = Template::new(&doc);
    let original = template.version().ok_or(UpgradeError::NoVersion)?;
    if original >= options.target {
        return Ok(Upgrade {
            status: UpgradeStatus::AlreadyAtTarget { version: original },
            text: source.to_owned(),
            diagnostics: Vec::new(),
            fixes: 0,
            segments: Segments::new(source.len()),
            unsafe_applied: Vec::new(),
        });
    }
    let spelled_as_name = matches!(&template.version, VersionDecl::Valid { value, .. }
        if doc.str_value(*value).is_some_and(|t| original.name() == Some(t)));
    let style = match options.version_style {
        VersionStyle::Keep if spelled_as_name => VersionStyle::Name,
        VersionStyle::Keep => VersionStyle::Date,
        other => other,
    };
    let mut target = options.target;
    let mut first_block: Option<Blocked> = None;
    loop {
        match run(source, original, target, options.unsafe_fixes, style)? {
            Run::Done(mut done) => {
                if let Some(blocked) = first_block {
                    done.status = UpgradeStatus::Blocked {
                        from: original,
                        reached: match done.status {
                            UpgradeStatus::Upgraded { to, .. } => to,
                            _ => original,
                        },
                        blocked: Box::new(blocked),
                    };
                }
                return Ok(done);
            }
            Run::Blocked(blocked) => {
                let start = blocked.step.0;
                let first = first_block.get_or_insert(blocked).clone();
                if start <= original {
                    return Ok(Upgrade {
                        status: UpgradeStatus::Blocked {
                            from: original,
                            reached: original,
                            blocked: Box::new(first),
                        },
                        text: source.to_owned(),
                        diagnostics: Vec::new(),
                        fixes: 0,
                        segments: Segments::new(source.len()),
                        unsafe_applied: Vec::new(),
                    });
                }
                // Stop before the blocked step: redo everything for that nearer target.
                target = start;
            }
        }
    }
}

enum Run {
    Done(Upgrade),
    Blocked(Blocked),
}

/// One attempt at upgrading `source` from `original` to `target`.
fn run(
    source: &str,
    original: Version,
    target: Version,
    unsafe_fixes: bool,
    style: VersionStyle,
) -> Result<Run, UpgradeError> {
    let mut text = source.to_owned();
    let mut fixes = 0;
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let mut segments = Segments::new(source.len());
    let mut unsafe_applied = Vec::new();
    let steps: Vec<(Version, Version)> = Version::ALL
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|&(from, to)| from >= original && to <= target)
        .collect();
    for step in steps {
        let (after, batches, applied, remaining) = run_step(
            &text,
            step,
            target,
            unsafe_fixes,
            &mut segments,
            &mut unsafe_applied,
        )?;
        fixes += applied;
        for batch in &batches {
            shift(&mut warnings, batch);
        }
        let lines = hotfix_yaml::LineIndex::new(&after);
        let mut blockers = remaining
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| {
                let position = lines.position(&after, d.span.start);
                Blocker {
                    diagnostic: d.clone(),
                    line: position.line,
                    column: position.char_col,
                }
            });
        if let Some(blocker) = blockers.next() {
            return Ok(Run::Blocked(Blocked {
                step,
                blocker,
                more: blockers.collect(),
                unsafe_fixes: None,
            }));
        }
        let bump = version_edit(&after, step.1, style)
            .map_err(|e| UpgradeError::Unparseable(step.0, step.1, e))?;
        let mut bumped = after.clone();
        bumped.replace_range(bump.span.range(), &bump.content);
        if let Err(err) = hotfix_yaml::check_size(&bumped) {
            // The rewrites grew the template past Heat's limit: Heat would refuse it.
            let mut diagnostic = Diagnostic::new(
                crate::LOAD_ERROR,
                "invalid-template",
                Severity::Error,
                err.message,
                hotfix_diagnostics::Span::new(0, 0),
            );
            diagnostic.help(
                "the rewrites of this step make the template larger than Heat accepts; split it \
                 (a nested template, `get_file`) before upgrading",
            );
            return Ok(Run::Blocked(Blocked {
                step,
                blocker: Blocker {
                    diagnostic,
                    line: 1,
                    column: 1,
                },
                more: Vec::new(),
                unsafe_fixes: None,
            }));
        }
        if let Some(blocked) = removed_by_bump(&after, &bumped, &bump, step) {
            return Ok(Run::Blocked(blocked));
        }
        warnings.extend(remaining);
        text = bumped;
        segments.apply(std::slice::from_ref(&bump));
        shift(&mut warnings, &[bump]);
    }
    warnings.sort_by(|a, b| (a.span.start, a.code).cmp(&(b.span.start, b.code)));
    let diagnostics = warnings;
    Ok(Run::Done(Upgrade {
        status: UpgradeStatus::Upgraded {
            from: original,
            to: target,
        },
        text,
        diagnostics,
        fixes,
        segments,
        unsafe_applied,
    }))
}

/// A step whose version bump would leave a function Heat no longer has where the step's rules
/// did not rewrite it (a place hotfix does not rewrite, such as a key Heat rejects anyway): the
/// bumped template would hold a `removed-function` (H201) error the original did not. Blocked,
/// at each such function.
fn removed_by_bump(
    before: &str,
    bumped: &str,
    bump: &Edit,
    step: (Version, Version),
) -> Option<Blocked> {
    const REMOVED_FUNCTION: &str = "H201";
    let removed = |text: &str| -> Vec<Diagnostic> {
        hotfix_yaml::parse_unlimited(text)
            .map(|doc| guard::likely_mistakes(&doc))
            .unwrap_or_default()
            .into_iter()
            .filter(|d| d.code == REMOVED_FUNCTION)
            .collect()
    };
    let after = removed(bumped);
    if after.is_empty() {
        return None;
    }
    // Spans of the bumped text, as they were before the bump (which edits the version only).
    let delta = signed(bump.content.len()) - signed(bump.span.len());
    let earlier = |span: Span| {
        if span.start >= bump.span.end {
            Span::new(
                span.start.saturating_add_signed(-delta),
                span.end.saturating_add_signed(-delta),
            )
        } else {
            span
        }
    };
    let known: Vec<Span> = removed(before).iter().map(|d| d.span).collect();
    let new: Vec<Diagnostic> = after
        .into_iter()
        .filter(|d| !known.contains(&earlier(d.span)))
        .collect();
    if new.is_empty() {
        return None;
    }
    // Blockers are placed in the text of the step before its bump, as the others are.
    let lines = hotfix_yaml::LineIndex::new(before);
    let at = |diagnostic: Diagnostic| {
        let position = lines.position(before, diagnostic.span.start);
        Blocker {
            diagnostic,
            line: position.line,
            column: position.char_col,
        }
    };
    // A function left unrewritten because it sits under a key Heat rejects anyway (a resource
    // key, a section): that key's error is what blocks the step, whatever the version.
    let rejected = rejecting_keys(before, &new, &earlier);
    if !rejected.is_empty() {
        let function = new[0].message.split('`').nth(1).unwrap_or("the function");
        let mut blockers = rejected.into_iter().map(|mut diagnostic| {
            // A lint fix, which `hotfix upgrade` does not apply.
            diagnostic.fix = None;
            let help = diagnostic.help.take().unwrap_or_default();
            diagnostic.help(format!(
                "{help}{}hotfix does not rewrite the `{function}` under it, which heat_template_version {} no longer has: fix the key (`hotfix lint` shows it), then upgrade again",
                if help.is_empty() { "" } else { "; " },
                step.1
            ));
            at(diagnostic)
        });
        let blocker = blockers.next()?;
        return Some(Blocked {
            step,
            blocker,
            more: blockers.collect(),
            unsafe_fixes: None,
        });
    }
    let mut blockers = new.into_iter().map(|mut diagnostic| {
        diagnostic.span = earlier(diagnostic.span);
        for label in &mut diagnostic.labels {
            label.span = earlier(label.span);
        }
        diagnostic.fix = None;
        diagnostic.help(format!(
            "hotfix rewrites this function where Heat evaluates it, not here; \
                 heat_template_version {} still has it: rewrite or remove it by hand",
            step.0
        ));
        at(diagnostic)
    });
    let blocker = blockers.next()?;
    Some(Blocked {
        step,
        blocker,
        more: blockers.collect(),
        unsafe_fixes: None,
    })
}

/// The errors of `before` (every default lint rule) on a mapping key whose value holds one of
/// the `removed` functions (spans of the bumped text, placed in `before` by `earlier`): the
/// key Heat rejects at any version (`propertes` in a resource), under which no rewrite goes.
/// In the order of the text, each once.
fn rejecting_keys(
    before: &str,
    removed: &[Diagnostic],
    earlier: &dyn Fn(Span) -> Span,
) -> Vec<Diagnostic> {
    let Ok(doc) = hotfix_yaml::parse_unlimited(before) else {
        return Vec::new();
    };
    // Each mapping key whose value holds a removed function.
    let mut keys: Vec<Span> = Vec::new();
    for (_, node) in doc.ids() {
        let hotfix_yaml::NodeKind::Mapping { entries, .. } = &node.kind else {
            continue;
        };
        for entry in entries {
            let value = doc.node(entry.value).span;
            if removed.iter().any(|d| {
                let span = earlier(d.span);
                value.start <= span.start && span.end <= value.end
            }) {
                keys.push(doc.node(entry.key).span);
            }
        }
    }
    if keys.is_empty() {
        return Vec::new();
    }
    let mut errors: Vec<Diagnostic> =
        crate::lint("", before.as_bytes(), &crate::Settings::default())
            .into_iter()
            .filter(|d| {
                d.severity == Severity::Error
                    && keys
                        .iter()
                        .any(|k| k.start < d.span.end.max(d.span.start + 1) && d.span.start < k.end)
            })
            .collect();
    errors.sort_by_key(|d| (d.span.start, d.code));
    errors.dedup_by_key(|d| (d.span.start, d.code));
    errors
}

/// Runs one step's rules and fixes to a fixed point, recording the edits in `segments`.
/// Returns the text, the edits applied in each pass, how many fixes were applied, and what the
/// rules still report on the final text.
#[allow(clippy::type_complexity, reason = "a private result used once")]
fn run_step(
    source: &str,
    step: (Version, Version),
    target: Version,
    unsafe_fixes: bool,
    segments: &mut Segments,
    unsafe_applied: &mut Vec<(&'static str, String)>,
) -> Result<(String, Vec<Vec<Edit>>, usize, Vec<Diagnostic>), UpgradeError> {
    let fixed = fix_to_fixed_point(source, unsafe_fixes, segments, |text, segments| {
        // The size limit is checked once the step is done (it blocks the step, see `run`).
        let doc = hotfix_yaml::parse_unlimited(text).map_err(|e| e.message)?;
        let written = segments.written();
        let mut diagnostics = check_step_with(&doc, step, target, &written, unsafe_fixes);
        // Every fix is guarded, not only those applied now: a withheld Unsafe rewrite then
        // says why `--unsafe-fixes` would not apply it either.
        if diagnostics.iter().any(|d| d.fix.is_some()) {
            let mistakes = guard::likely_mistakes(&doc);
            guard::withhold(text, &mut diagnostics, &mistakes, &written);
        }
        Ok(diagnostics)
    })
    .map_err(|stopped| match stopped {
        Stopped::Check(message) => UpgradeError::Unparseable(step.0, step.1, message),
        Stopped::NotConverged => UpgradeError::NotConverged(step.0, step.1),
    })?;
    for applied in &fixed.applied {
        if applied.applicability == Applicability::Unsafe {
            unsafe_applied.push((applied.code, applied.message.clone()));
        }
    }
    Ok((
        fixed.text,
        fixed.batches,
        fixed.applied.len(),
        fixed.remaining,
    ))
}

/// What the rules of one step report on a document (which declares the step's `from`).
pub fn check_step(doc: &Document, step: (Version, Version), target: Version) -> Vec<Diagnostic> {
    check_step_with(doc, step, target, &[], false)
}

/// [`check_step`], knowing which ranges earlier rewrites wrote and whether the user accepts
/// changes of meaning.
fn check_step_with(
    doc: &Document,
    step: (Version, Version),
    target: Version,
    written: &[Span],
    unsafe_fixes: bool,
) -> Vec<Diagnostic> {
    let template = Template::new(doc);
    let semantic = Semantic::new(&template);
    let cx = Context::new("", doc, &template, &semantic);
    let ucx = UpgradeContext {
        cx: &cx,
        from: step.0,
        to: step.1,
        target,
        written,
        unsafe_fixes,
    };
    let mut out = Vec::new();
    for rule in all_upgrade_rules() {
        if rule.applies_to(step) {
            (rule.check)(
                &ucx,
                &mut UpgradeSink {
                    rule,
                    out: &mut out,
                },
            );
        }
    }
    out.sort_by(|a, b| (a.span.start, a.code).cmp(&(b.span.start, b.code)));
    out
}

/// The edit that rewrites the `heat_template_version` value to `to`, in the chosen spelling,
/// keeping quotes.
fn version_edit(text: &str, to: Version, style: VersionStyle) -> Result<Edit, String> {
    let doc = hotfix_yaml::parse_unlimited(text).map_err(|e| e.message)?;
    let template = Template::new(&doc);
    let VersionDecl::Valid { value, .. } = template.version else {
        return Err("the version disappeared".to_owned());
    };
    let node = doc.node(value);
    let spelled = match style {
        VersionStyle::Name => to.name().unwrap_or(to.date()),
        VersionStyle::Date | VersionStyle::Keep => to.date(),
    };
    let Some(scalar) = doc.scalar(value) else {
        return Err("the version is not a scalar".to_owned());
    };
    let span = match scalar.style {
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            Span::new(node.span.start + 1, node.span.end - 1)
        }
        _ => node.span,
    };
    Ok(Edit::replace(span, spelled))
}

/// Moves diagnostics found before a batch of (non-overlapping) edits to where their text is
/// after it; a diagnostic whose own span was edited is dropped (its construct is gone).
fn shift(diagnostics: &mut Vec<Diagnostic>, edits: &[Edit]) {
    let map = |offset: usize| -> usize {
        let delta: isize = edits
            .iter()
            .filter(|e| e.span.end <= offset)
            .map(|e| signed(e.content.len()) - signed(e.span.len()))
            .sum();
        offset.saturating_add_signed(delta)
    };
    diagnostics.retain(|d| {
        !edits
            .iter()
            .any(|e| e.span.start < d.span.end && d.span.start < e.span.end)
    });
    for d in diagnostics.iter_mut() {
        d.span = Span::new(map(d.span.start), map(d.span.end));
        for label in &mut d.labels {
            label.span = Span::new(map(label.span.start), map(label.span.end));
        }
    }
}

fn signed(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}
