use foldhash::{HashMap, HashMapExt as _};
use hotfix_stack::{LinkKind, StackPath, Target, resolve_reference};

use crate::rule::{Context, Files, Sink, declare_rule};

/// How many templates the search for the way back reads at most from one template, when the
/// run's record of the graph does not already say whether there is one.
const MAX_TEMPLATES: usize = 2_000;

/// How many templates the search for the way back reads at most from one template, when the
/// run's record says there is one: only to show it. Each template of a ring of a thousand is on
/// a way back of a thousand; searching it whole for each would make the rule quadratic.
const MAX_SHOWN_SEARCH: usize = 32;

/// How many templates of the way back the help names, at most (the first ones and the last).
const MAX_SHOWN: usize = 12;

declare_rule! {
    /// ## What it does
    /// Checks that a template does not include itself through nested templates: a `type` (a
    /// path ending in `.yaml` or `.template`) that leads, directly or through other nested
    /// templates, back to the template.
    ///
    /// It runs where hotfix reads files (the CLI).
    ///
    /// ## Why is this bad?
    /// python-heatclient follows nested templates before it sends the stack, and never stops:
    /// `maximum recursion depth exceeded`. Heat itself would refuse such a stack as recursive.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   again: {type: example.yaml}
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: rocky
    /// resources:
    ///   server: {type: nested/server.yaml}
    /// ```
    pub(crate) static RULE = {
        code: "X004",
        name: "nested-template-cycle",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(files) = cx.files else {
        return;
    };
    for link in cx.links() {
        if link.kind != LinkKind::NestedType {
            continue;
        }
        let Target::File(first) =
            resolve_reference(files.source, files.roots, files.path, &link.reference, None)
        else {
            continue;
        };
        // The run's record says at once whether there is a way back (the graph is searched
        // once for all templates); the way itself is then looked for only as far as it is shown.
        let recorded = match files.source.cycles() {
            Some(cycles) => {
                if !cycles.leads_back(files.source, files.roots, files.path, &first) {
                    continue;
                }
                true
            }
            None => false,
        };
        let budget = if recorded {
            MAX_SHOWN_SEARCH
        } else {
            MAX_TEMPLATES
        };
        let shown = match path_back(files, &first, budget) {
            Some(chain) => {
                let mut written: Vec<String> = vec![format!("`{}`", link.reference)];
                written.extend(
                    chain
                        .iter()
                        .skip(1)
                        .map(|(_, written)| format!("`{written}`")),
                );
                if written.len() > MAX_SHOWN {
                    let hidden = written.len() - MAX_SHOWN;
                    let tail = written.split_off(written.len() - MAX_SHOWN / 2);
                    written.truncate(MAX_SHOWN / 2);
                    written.push(format!("… ({hidden} more)"));
                    written.extend(tail);
                }
                written.join(" -> ")
            }
            // Only where the record says there is a way back.
            None if recorded => format!(
                "`{}` -> … (through more than {MAX_SHOWN_SEARCH} nested templates)",
                link.reference
            ),
            None => continue,
        };
        sink.report(
            link.span,
            format!("`{}` includes this template again", link.reference),
        )
        .help(format!(
            "the types lead back here: {shown}; python-heatclient fails with `maximum recursion \
             depth exceeded`"
        ));
    }
}

/// The chain of nested templates from `start` back to the linted file, if there is one
/// (breadth first, so the shortest): each template, and its `type` as written in the one
/// before. Each template is reached once, and remembers the one it was reached from; the
/// search gives up past `budget` templates.
fn path_back(
    files: &Files<'_>,
    start: &StackPath,
    budget: usize,
) -> Option<Vec<(StackPath, String)>> {
    // Each template reached: the one before it and its `type` as written there.
    let mut before: HashMap<StackPath, Option<(StackPath, String)>> = HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    queue.push_back(start.clone());
    before.insert(start.clone(), None);
    while let Some(current) = queue.pop_front() {
        if &current == files.path {
            let mut chain = Vec::new();
            let mut at = current;
            while let Some(Some((previous, written))) = before.get(&at) {
                chain.push((at, written.clone()));
                at = previous.clone();
            }
            chain.push((at, String::new()));
            chain.reverse();
            return Some(chain);
        }
        if before.len() > budget {
            return None;
        }
        let Some(facts) = files.source.facts(&current) else {
            continue;
        };
        for link in &facts.links {
            if link.kind != LinkKind::NestedType {
                continue;
            }
            let Target::File(next) =
                resolve_reference(files.source, files.roots, &current, &link.reference, None)
            else {
                continue;
            };
            if !before.contains_key(&next) {
                before.insert(
                    next.clone(),
                    Some((current.clone(), link.reference.clone())),
                );
                queue.push_back(next);
            }
        }
    }
    None
}
