use foldhash::{HashMap, HashMapExt as _, HashSet, HashSetExt as _};
use std::rc::Rc;

use hotfix_hot::{Named, Owner, RefKind, Reference, Version, owner_definition};
use hotfix_yaml::{NodeId, NodeKind};

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::references::condition_logic::{Formula, Logic, value_if};
use crate::rules::references::shared::{Paths, by_name, literal_condition, section_usable};

declare_rule! {
    /// ## What it does
    /// Checks `get_resource` and `get_attr` that refer to a resource with a `condition`, when
    /// nothing guarantees that the condition holds where the reference is used.
    ///
    /// It reasons about implication: what is known where the reference is used (the referring
    /// resource's or output's own `condition`, and the test of every `if` around the reference,
    /// negated in the second branch) must imply the resource's condition, for every value of
    /// the parameters. Named conditions stand for their definitions; `and`, `or`, `not`, `true`
    /// and `false` are followed; `equals` of one parameter with different strings cannot both
    /// hold, and a `boolean` parameter is either true or false. Other tests (`equals`,
    /// `get_param`, `contains`, `yaql`) are unknowns, identical tests being one unknown. So when
    /// `db` has `condition: has_db`, a reference to it in
    /// `if: [{not: has_db}, none, {get_attr: [db, name]}]` or in a resource with
    /// `condition: {and: [has_db, has_cache]}` is guarded; one in a resource with
    /// `condition: {or: [has_db, has_cache]}` is not. Conditions too large to decide quickly
    /// are treated as unrelated: the reference is reported.
    ///
    /// ## Why is this bad?
    /// When the condition is false the resource does not exist and Heat fails, e.g.
    /// `The specified reference "db" (in app.Properties.metadata.db_host) is incorrect.` (in an
    /// output:
    /// `outputs.o.value.get_attr: The specified reference "db" (in unknown) is incorrect.`).
    /// A `depends_on` naming such a resource is fine: Heat silently ignores it when the resource is
    /// disabled.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   with_db: {type: boolean, default: false}
    /// conditions:
    ///   has_db: {get_param: with_db}
    /// resources:
    ///   db:
    ///     type: OS::Nova::Server
    ///     condition: has_db
    ///   app:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       metadata:
    ///         db_host: {get_attr: [db, first_address]}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2018-08-31
    /// parameters:
    ///   with_db: {type: boolean, default: false}
    /// conditions:
    ///   has_db: {get_param: with_db}
    /// resources:
    ///   db:
    ///     type: OS::Nova::Server
    ///     condition: has_db
    ///   app:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       metadata:
    ///         db_host: {if: [has_db, {get_attr: [db, first_address]}, '']}
    /// ```
    pub(crate) static RULE = {
        code: "H303",
        name: "reference-to-conditional-resource",
        severity: Warning,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version().filter(|v| *v >= Version::V2016_10_14) else {
        return;
    };
    if !section_usable(cx, "resources") {
        return;
    }
    let resources = by_name(&cx.template.resources);
    let mut logic = Logic::new(cx, version);
    let mut places = Places::new(cx, version);
    let mut paths = Paths::new(cx);
    let mut done = HashSet::new();
    let mut verdicts = HashMap::new();
    for reference in &cx.semantic.references {
        if !matches!(reference.kind, RefKind::Resource | RefKind::Attribute) {
            continue;
        }
        let Some(&target) = resources.get(reference.name.as_str()) else {
            continue;
        };
        if !cx.template.is_mapping(target.value) {
            continue;
        }
        let Some(condition) = cx.template.field(target, "condition") else {
            continue;
        };
        let name = cx.doc.str_value(condition);
        if name.is_some_and(|n| cx.template.condition(n).is_none()) {
            // An undefined condition: H305 reports it.
            continue;
        }
        // An alias can bring one node to a field several times: judged once, on every place.
        if !done.insert((reference.owner, reference.field, reference.node)) {
            continue;
        }
        let own = match reference.owner {
            Owner::Resource(_) | Owner::Output(_) => {
                let owner = owner_definition(cx.template, reference.owner);
                cx.template.field(owner, "condition")
            }
            Owner::Condition(_) => None,
        };
        let problem = places.of(reference).into_iter().find_map(|branches| {
            *verdicts
                .entry((condition, own, branches))
                .or_insert_with_key(|(exists, own, branches)| {
                    judge(&mut logic, *exists, *own, branches)
                })
        });
        let Some(problem) = problem else {
            continue;
        };
        let heat = paths.missing_resource_error(reference);
        report(cx, sink, reference, target, condition, problem, &heat);
    }
}

/// Reports an unguarded reference, `heat` being Heat's error text for it.
fn report(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    reference: &Reference,
    target: &Named,
    condition: NodeId,
    problem: Problem,
    heat: &str,
) {
    let function = match reference.kind {
        RefKind::Attribute => "get_attr",
        _ => "get_resource",
    };
    let name = cx.doc.str_value(condition);
    let literal_false = literal_condition(cx, condition) == Some(false);
    let resource = &target.name;
    let message = match (problem, name) {
        (Problem::Never, _) => {
            let why = if literal_false {
                "its condition is false"
            } else {
                "its condition can never be true"
            };
            format!("`{function}` refers to `{resource}`, which is never created ({why})")
        }
        (_, Some(c)) => format!(
            "`{function}` refers to `{resource}`, which exists only when condition `{c}` is true"
        ),
        _ => format!(
            "`{function}` refers to `{resource}`, which exists only when its condition is true"
        ),
    };
    let owner = owner_definition(cx.template, reference.owner);
    let kind = match reference.owner {
        Owner::Output(_) => "output",
        _ => "resource",
    };
    let help = match problem {
        Problem::Never => {
            format!("remove the reference or the resource's `condition`; Heat fails: `{heat}`")
        }
        Problem::Excluded => format!(
            "{kind} `{}` exists only when `{resource}` does not: their conditions exclude \
             each other; remove the reference or change a condition. Heat fails: `{heat}`",
            owner.name
        ),
        Problem::WrongBranch => format!(
            "the reference is in the branch of the `if` taken when `{resource}` does not \
             exist; move it to the other branch. Heat fails: `{heat}`"
        ),
        Problem::Unguarded => {
            let inside = name.map_or_else(
                || "an `if` on the same condition".to_owned(),
                |guard| format!("`if: [{guard}, …, …]`"),
            );
            format!(
                "use the reference inside {inside}, or give {kind} `{}` the same condition; \
                 when `{resource}` is disabled Heat fails: `{heat}`",
                owner.name
            )
        }
    };
    let label = if problem == Problem::Never {
        format!("`{resource}` is never created")
    } else {
        format!("`{resource}` exists only when this is true")
    };
    sink.report(cx.span(reference.node), message)
        .label(cx.span(condition), label)
        .help(help);
}

/// Why the reference is not guarded where it lies (`None`: it is): `exists` is the resource's
/// condition, `own` the referring resource's or output's, `branches` the `if`s around it.
fn judge(
    logic: &mut Logic<'_>,
    exists: NodeId,
    own: Option<NodeId>,
    branches: &Branches,
) -> Option<Problem> {
    let exists = logic.formula(exists);
    if logic.satisfiable(&Formula::Not(Rc::clone(&exists))) == Some(false) {
        // Always true: the resource always exists.
        return None;
    }
    // The referring resource or output exists only when its own condition holds.
    let own = own.map_or_else(|| Rc::new(Formula::Const(true)), |c| logic.formula(c));
    let mut parts = vec![Rc::clone(&own)];
    for &(test, taken_when) in branches {
        let test = logic.formula(test);
        parts.push(if taken_when {
            test
        } else {
            Rc::new(Formula::Not(test))
        });
    }
    let context = Rc::new(Formula::And(parts));
    if logic.implies(&context, &exists) {
        return None;
    }
    Some(if logic.satisfiable(&exists) == Some(false) {
        Problem::Never
    } else if logic.exclusive(&own, &exists) {
        Problem::Excluded
    } else if logic.exclusive(&context, &exists) {
        Problem::WrongBranch
    } else {
        Problem::Unguarded
    })
}

/// Why a reference is not guarded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Problem {
    /// The resource's condition can never be true.
    Never,
    /// The referring resource's or output's own condition excludes the resource's.
    Excluded,
    /// The `if` branches around the reference are taken only when the resource does not exist.
    WrongBranch,
    /// Nothing shows that the resource exists where the reference is used.
    Unguarded,
}

/// One way to reach a node from its field: the `if`s it lies in, each as its test and whether
/// the branch is the one taken when the test is true.
type Branches = Vec<(NodeId, bool)>;

/// The `if` branches around every node of a field, computed once per field.
struct Places<'c> {
    cx: &'c Context<'c>,
    version: Version,
    fields: HashMap<(Owner, &'static str), HashMap<NodeId, Vec<Branches>>>,
}

impl<'c> Places<'c> {
    fn new(cx: &'c Context<'c>, version: Version) -> Self {
        Places {
            cx,
            version,
            fields: HashMap::new(),
        }
    }

    /// Every place where the reference's node is reached in its field (at least one).
    fn of(&mut self, reference: &Reference) -> Vec<Branches> {
        let key = (reference.owner, reference.field);
        let field = self.fields.entry(key).or_insert_with(|| {
            let definition = owner_definition(self.cx.template, reference.owner);
            self.cx
                .template
                .field(definition, reference.field)
                .map_or_else(HashMap::new, |root| walk(self.cx, self.version, root))
        });
        field
            .get(&reference.node)
            .cloned()
            .unwrap_or_else(|| vec![Vec::new()])
    }
}

/// The branches around each scalar below `root`, for every place it is reached (aliases are
/// followed at each use, as Heat parses them). Iterative: fields may nest deeply. Only the
/// chosen branch of an `if` is parsed, and its test is a condition, not a value.
fn walk(cx: &Context<'_>, version: Version, root: NodeId) -> HashMap<NodeId, Vec<Branches>> {
    let doc = cx.doc;
    let mut out: HashMap<NodeId, Vec<Branches>> = HashMap::new();
    let mut stack = vec![(root, Vec::new())];
    while let Some((node, branches)) = stack.pop() {
        let node = doc.resolve(node);
        match &doc.node(node).kind {
            NodeKind::Scalar(_) => out.entry(node).or_default().push(branches),
            NodeKind::Mapping { .. } => {
                if let Some(args) = value_if(cx, version, node)
                    && let Some((&test, rest)) = doc
                        .items(doc.resolve(args))
                        .and_then(<[NodeId]>::split_first)
                {
                    for (i, &branch) in rest.iter().enumerate() {
                        let mut inner = branches.clone();
                        if i < 2 {
                            inner.push((test, i == 0));
                        }
                        stack.push((branch, inner));
                    }
                    continue;
                }
                for entry in doc.entries(node) {
                    stack.push((entry.value, branches.clone()));
                }
            }
            NodeKind::Sequence { items, .. } => {
                for &item in items {
                    stack.push((item, branches.clone()));
                }
            }
            NodeKind::Alias { .. } => {}
        }
    }
    out
}
