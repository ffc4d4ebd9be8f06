//! What a rule is, and what it sees.

use hotfix_diagnostics::{Diagnostic, Severity, Span};
use hotfix_hot::heat_release::HeatRelease;
use hotfix_hot::{Semantic, Template, Version};
use hotfix_yaml::{Document, NodeId};

/// Whether a rule can offer a fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixAvailability {
    None,
    Sometimes,
    Always,
}

impl FixAvailability {
    pub fn as_str(self) -> &'static str {
        match self {
            FixAvailability::None => "none",
            FixAvailability::Sometimes => "sometimes",
            FixAvailability::Always => "always",
        }
    }
}

/// A lint rule: stable code and name, default severity, its documentation (the doc comment of
/// its declaration), and the function that checks a template.
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub fix: FixAvailability,
    /// Whether the rule runs when the configuration selects nothing (the default set). A rule
    /// outside it runs only when selected: by code, prefix, name or `ALL`.
    pub default: bool,
    /// Which files it checks: templates, environment files, or both.
    pub scope: Scope,
    /// Markdown: `## What it does`, `## Why is this bad?`, `## Example`, `Use instead:`.
    pub doc: &'static str,
    pub(crate) check: Check,
}

/// What a rule checks: a HOT template, or a Cloudify blueprint.
#[derive(Clone, Copy)]
pub(crate) enum Check {
    Hot(fn(&Context<'_>, &mut Sink<'_>)),
    Blueprint(fn(&BlueprintContext<'_>, &mut Sink<'_>)),
}

impl Rule {
    /// Whether the rule checks Cloudify blueprints (else HOT templates).
    pub fn is_blueprint_rule(&self) -> bool {
        matches!(self.check, Check::Blueprint(_))
    }
}

/// Which files a rule checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Templates (the default).
    Template,
    /// Environment files (`resource_registry`, `parameter_defaults`, …): the `E` rules.
    Environment,
    /// Both: a check of the YAML document itself.
    Any,
    /// Cloudify blueprints: the `C` rules (their check is a blueprint check).
    Blueprint,
}

impl Scope {
    pub fn templates(self) -> bool {
        matches!(self, Scope::Template | Scope::Any)
    }

    pub fn environments(self) -> bool {
        matches!(self, Scope::Environment | Scope::Any)
    }
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.code, self.name)
    }
}

impl Rule {
    /// The documentation with the one leading space of each doc-comment line removed.
    pub fn documentation(&self) -> String {
        doc_text(self.doc)
    }

    /// The first sentence of "What it does", for tables and SARIF short descriptions.
    pub fn summary(&self) -> String {
        doc_summary(&self.documentation())
    }
}

/// A doc comment as collected by `concat!` (each line with the leading space `///` leaves).
pub(crate) fn doc_text(raw: &str) -> String {
    raw.lines()
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first sentence under `## What it does`.
pub(crate) fn doc_summary(doc: &str) -> String {
    let body = doc
        .split("## What it does")
        .nth(1)
        .unwrap_or(doc)
        .split("\n## ")
        .next()
        .unwrap_or_default();
    let text = body.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.find(". ") {
        Some(end) => text[..=end].to_owned(),
        None => text,
    }
}

/// Declares a rule: its doc comment becomes its documentation.
///
/// ```ignore
/// declare_rule! {
///     /// ## What it does
///     /// …
///     pub(crate) static RULE = {
///         code: "H301",
///         name: "undefined-parameter",
///         severity: Error,
///         fix: None,
///         // default: false,   (optional: a rule outside the default set)
///         check: check,
///     };
/// }
/// ```
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])+
        $vis:vis static $ident:ident = {
            code: $code:literal,
            name: $name:literal,
            severity: $severity:ident,
            fix: $fix:ident,
            $(default: $default:literal,)?
            $(scope: $scope:ident,)?
            check: $check:path $(,)?
        };
    ) => {
        $crate::rule::declare_rule! {
            @rule $(#[doc = $doc])+ $vis $ident $code $name $severity $fix
            ($crate::rule::in_default_set!($($default)?)) ($crate::rule::scope_of!($($scope)?))
            ($crate::rule::Check::Hot($check))
        }
    };
    (
        $(#[doc = $doc:literal])+
        $vis:vis static $ident:ident = {
            code: $code:literal,
            name: $name:literal,
            severity: $severity:ident,
            fix: $fix:ident,
            $(default: $default:literal,)?
            blueprint_check: $check:path $(,)?
        };
    ) => {
        $crate::rule::declare_rule! {
            @rule $(#[doc = $doc])+ $vis $ident $code $name $severity $fix
            ($crate::rule::in_default_set!($($default)?)) ($crate::rule::scope_of!(Blueprint))
            ($crate::rule::Check::Blueprint($check))
        }
    };
    (
        @rule $(#[doc = $doc:literal])+ $vis:vis $ident:ident $code:literal $name:literal
        $severity:ident $fix:ident ($default:expr) ($scope:expr) ($check:expr)
    ) => {
        $(#[doc = $doc])+
        $vis static $ident: $crate::rule::Rule = $crate::rule::Rule {
            code: $code,
            name: $name,
            severity: hotfix_diagnostics::Severity::$severity,
            fix: $crate::rule::FixAvailability::$fix,
            default: $default,
            scope: $scope,
            doc: concat!($($doc, "\n"),+),
            check: $check,
        };
    };
}

pub(crate) use declare_rule;

/// A rule is in the default set unless its declaration says `default: false`.
macro_rules! in_default_set {
    () => {
        true
    };
    ($default:literal) => {
        $default
    };
}

pub(crate) use in_default_set;

/// A rule checks templates unless its declaration names another scope.
macro_rules! scope_of {
    () => {
        $crate::rule::Scope::Template
    };
    ($scope:ident) => {
        $crate::rule::Scope::$scope
    };
}

pub(crate) use scope_of;

/// Everything a rule may look at.
#[derive(Debug)]
pub struct Context<'a> {
    pub path: &'a str,
    pub doc: &'a Document,
    pub template: &'a Template<'a>,
    pub semantic: &'a Semantic,
    /// The OpenStack release whose Heat the template is deployed to, when the settings say.
    pub heat_release: Option<HeatRelease>,
    /// The environment file being linted (rules of [`Scope::Environment`] look at it; `None`
    /// for a template).
    pub environment: Option<&'a hotfix_hot::environment::Environment<'a>>,
    /// What the file may ask of other files, when the caller gives a file source.
    pub files: Option<&'a Files<'a>>,
    /// The files the template names (nested types, `get_file`), found once for the rules that
    /// look at them.
    pub(crate) links: std::cell::OnceCell<Vec<hotfix_stack::RawLink>>,
    /// What rules worked out of one node, kept for the next question ([`Context::memo`]).
    pub(crate) memos: std::cell::RefCell<Memos>,
}

/// [`Context::once`]'s answer, told apart from a [`Context::memo`] answer of the root node.
struct Once<T>(std::rc::Rc<T>);

impl<T> Clone for Once<T> {
    fn clone(&self) -> Self {
        Once(std::rc::Rc::clone(&self.0))
    }
}

/// [`Context::memo`]'s answers: by the type of the answer and the node asked about.
/// (foldhash: asked tens of thousands of times a run, with keys of two integers.)
pub(crate) type Memos = foldhash::HashMap<(std::any::TypeId, NodeId), Box<dyn std::any::Any>>;

impl<'a> Context<'a> {
    /// Heat's resource types as the Heat of [`Context::heat_release`] registers them (the newest
    /// Heat's without one).
    pub fn resource_types(&self) -> &'static hotfix_hot::resource_types::ResourceTypes {
        hotfix_hot::resource_types::for_release(self.heat_release)
    }

    /// The context of one loaded template.
    pub fn new(
        path: &'a str,
        doc: &'a Document,
        template: &'a Template<'a>,
        semantic: &'a Semantic,
    ) -> Self {
        Context {
            path,
            doc,
            template,
            semantic,
            heat_release: None,
            environment: None,
            files: None,
            links: std::cell::OnceCell::new(),
            memos: std::cell::RefCell::default(),
        }
    }

    /// What `work` says of `node`, worked out at the first question of its answer's type `T`
    /// and kept for the template: for what several rules, or one rule many times, ask of the
    /// same node and is costly to find (a value computed from the parameters' defaults).
    pub(crate) fn memo<T: Clone + 'static>(
        &self,
        node: hotfix_yaml::NodeId,
        work: impl FnOnce() -> T,
    ) -> T {
        let key = (std::any::TypeId::of::<T>(), node);
        if let Some(known) = self
            .memos
            .borrow()
            .get(&key)
            .and_then(|a| a.downcast_ref::<T>())
        {
            return known.clone();
        }
        let answer = work();
        self.memos
            .borrow_mut()
            .insert(key, Box::new(answer.clone()));
        answer
    }

    /// What `work` says of the whole template, worked out at the first question of its answer's
    /// type `T` and shared from then on: for what several rules find in one walk of the
    /// template (the problems of the property values, the resources never created).
    pub(crate) fn once<T: 'static>(&self, work: impl FnOnce() -> T) -> std::rc::Rc<T> {
        self.memo(self.doc.root(), || Once(std::rc::Rc::new(work())))
            .0
    }

    /// The version the template is linted as: the declared one when Heat accepts it, else
    /// the one assumed for a misspelt declaration (H102 reports the misspelling and says so).
    pub fn version(&self) -> Option<Version> {
        self.template.effective_version()
    }

    /// The files the template names as python-heatclient fetches them
    /// ([`hotfix_stack::template_links`]).
    pub fn links(&self) -> &[hotfix_stack::RawLink] {
        self.links
            .get_or_init(|| hotfix_stack::template_links(self.doc))
    }

    pub fn span(&self, id: NodeId) -> Span {
        self.doc.node(id).span
    }

    pub fn text(&self, id: NodeId) -> &str {
        self.doc.text(id)
    }
}

/// Everything a blueprint rule may look at (the blueprint rules' questions of it are theirs:
/// `rules::blueprint`).
#[derive(Debug)]
pub(crate) struct BlueprintContext<'a> {
    pub(crate) doc: &'a Document,
    pub(crate) blueprint: &'a hotfix_blueprint::Blueprint<'a>,
    /// What the local imports declare, when the caller read them.
    pub(crate) imported: Option<&'a hotfix_blueprint::Imported>,
}

/// Where the linted file sits among other files, and how to read them: for the checks that
/// look past one file (a registry target that does not exist).
#[derive(Clone, Copy)]
pub struct Files<'a> {
    pub source: &'a dyn hotfix_stack::FileSource,
    /// The linted file's own path.
    pub path: &'a hotfix_stack::StackPath,
    /// The folders the run spans: a missing file outside them belongs to a deployment layout.
    pub roots: &'a [hotfix_stack::StackPath],
    /// The environments of the stack: what custom resource types stand for. `None`: nothing
    /// is known about them (a rule then says nothing that needs them).
    pub registry: Option<&'a hotfix_stack::LazyRegistry>,
    /// For an environment file given to the run (`-e`, `[[stacks]]`): the facts of the top
    /// templates it is given with, to check its `parameters` against.
    pub stack_templates: &'a [(
        hotfix_stack::StackPath,
        std::sync::Arc<hotfix_stack::FileFacts>,
    )],
    /// For an environment file given to the run: every environment given with it, in the
    /// order Heat merges them (itself included); empty when not known.
    pub stack_environments: &'a [hotfix_stack::StackPath],
}

impl std::fmt::Debug for Files<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Files")
            .field("path", self.path)
            .field("roots", &self.roots)
            .finish_non_exhaustive()
    }
}

/// Where a rule reports: every diagnostic carries the rule's code, name and severity.
#[derive(Debug)]
pub struct Sink<'r> {
    pub(crate) rule: &'static Rule,
    pub(crate) out: &'r mut Vec<Diagnostic>,
}

impl Sink<'_> {
    /// Reports a finding at `span`; the returned diagnostic takes help, labels and a fix.
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

/// Runs one rule into `out`, its findings given `severity` (what the settings say of the rule).
/// A finding the rule itself made less severe than the rule (a mistake Heat does not reach as
/// the template stands, say) keeps the lower of the two.
pub(crate) fn run_rule(
    rule: &'static Rule,
    severity: Severity,
    out: &mut Vec<Diagnostic>,
    check: impl FnOnce(&mut Sink<'_>),
) {
    let start = out.len();
    check(&mut Sink {
        rule,
        out: &mut *out,
    });
    for diagnostic in &mut out[start..] {
        diagnostic.severity = if diagnostic.severity < rule.severity {
            diagnostic.severity.min(severity)
        } else {
            severity
        };
    }
}

/// Findings in the order of the text (then code and message), each once.
pub(crate) fn in_order(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(|a, b| {
        (a.span.start, a.code, &a.message).cmp(&(b.span.start, b.code, &b.message))
    });
    diagnostics.dedup();
}

/// How users name rules: `ALL`, a code prefix (`H3`, `H30`, `C`, `E`, `K`, `X`), a code, or a
/// name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    All,
    Prefix(String),
    Name(String),
}

impl Selector {
    pub fn matches(&self, rule: &Rule) -> bool {
        match self {
            Selector::All => true,
            Selector::Prefix(prefix) => rule.code.starts_with(prefix.as_str()),
            Selector::Name(name) => rule.name == name,
        }
    }

    /// More specific selectors win: `ALL` < `H` < `H3` < `H30` < `H301` = a name.
    pub fn specificity(&self) -> usize {
        match self {
            Selector::All => 0,
            Selector::Prefix(prefix) => prefix.len(),
            Selector::Name(_) => usize::MAX,
        }
    }
}
