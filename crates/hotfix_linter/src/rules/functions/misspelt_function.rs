use hotfix_diagnostics::{Applicability, Edit, Fix};
use hotfix_hot::{Context as FieldContext, Function};
use hotfix_yaml::{NodeKind, ScalarStyle};

use super::shared::unique_data_maps;
use crate::rule::{Context, Sink, declare_rule};

declare_rule! {
    /// ## What it does
    /// Checks for a mapping whose only key is one edit (a letter added, dropped or changed, or
    /// two letters swapped) from the name of a function of the template's version, such as
    /// `{get_parm: flavor}`, where Heat parses functions.
    ///
    /// ## Why is this bad?
    /// Heat calls a function only by its exact name: any other single-key mapping is data,
    /// passed on as it is without a word. `list_join: ['-', [a, {get_parm: flavor}]]` gives the
    /// stack the text `a-{"get_parm": "flavor"}`; a property or an output gets the mapping
    /// itself. Only the functions whose names have an underscore (`get_param`, `str_replace`,
    /// `list_join`, …) are looked for: a key one letter from `if`, `not` or `and` is more often
    /// data. A key that is a function's exact name but for invisible characters around it (a
    /// no-break space, U+00A0, as a word processor or a web page leaves it; a zero-width space)
    /// is reported too, whatever the function.
    ///
    /// ## Fix safety
    /// The fix renames the key to the function's name. It is unsafe: Heat then calls the
    /// function, and the value becomes what it returns (or the stack fails where its arguments
    /// are wrong); a mapping that was meant as data would change.
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   flavor: {type: string}
    /// resources:
    ///   config:
    ///     type: OS::Heat::SoftwareConfig
    ///     properties:
    ///       config:
    ///         list_join: ['-', [flavor, {get_parm: flavor}]]
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// parameters:
    ///   flavor: {type: string}
    /// resources:
    ///   config:
    ///     type: OS::Heat::SoftwareConfig
    ///     properties:
    ///       config:
    ///         list_join: ['-', [flavor, {get_param: flavor}]]
    /// ```
    pub(crate) static RULE = {
        code: "H208",
        name: "misspelt-function",
        severity: Warning,
        fix: Sometimes,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let Some(version) = cx.version() else {
        return;
    };
    // The names looked for, in each context: worked out once (a large template has thousands
    // of data maps).
    let underscored = |functions: &[Function]| -> Vec<Function> {
        functions
            .iter()
            .copied()
            .filter(|f| f.name().contains('_'))
            .collect()
    };
    let (all_values, all_conditions) = (version.functions(), version.condition_functions());
    let values = underscored(&all_values);
    let conditions = underscored(&all_conditions);
    for data in unique_data_maps(cx) {
        let entries = cx.doc.entries(data.map);
        let [entry] = entries.as_slice() else {
            continue;
        };
        let Some(key) = cx.doc.str_value(entry.key) else {
            continue;
        };
        let (functions, all) = match data.context {
            FieldContext::Value => (&values, &all_values),
            FieldContext::Condition => (&conditions, &all_conditions),
        };
        // A key with invisible characters is shown as Python's `repr()` shows it
        // (`'\xa0get_param'`), which makes them visible.
        let (function, label, shown) = match invisible_around(all, key) {
            Some((function, around)) => (function, around, hotfix_yaml::python_str_repr(key)),
            None => match near_function(functions, key) {
                Some(function) => (
                    function,
                    format!("one edit from `{}`", function.name()),
                    key.to_owned(),
                ),
                None => continue,
            },
        };
        let name = function.name();
        // The key as `json.dumps` writes it where Heat builds a string of the mapping.
        let mut json = String::new();
        hotfix_yaml::write_json_string(key, &mut json);
        let diagnostic = sink.report(
            cx.span(entry.key),
            format!("`{shown}` is not a function: Heat takes this mapping as data"),
        );
        diagnostic.primary_label(label);
        diagnostic.help(format!(
            "write `{name}`: Heat calls a function only by its exact name, and passes `{{{shown}: …}}` on as it is (as the text `{{{json}: …}}` where a string is built)"
        ));
        let plain = matches!(
            &cx.doc.node(entry.key).kind,
            NodeKind::Scalar(s) if s.style == ScalarStyle::Plain
        );
        if plain {
            diagnostic.fix(Fix {
                message: format!("Rename `{shown}` to `{name}`"),
                edits: vec![Edit::replace(cx.span(entry.key), name.to_owned())],
                applicability: Applicability::Unsafe,
            });
        }
    }
}

/// The one function of `functions` whose name is one edit from `key`, when exactly one is (a
/// function of another version is `removed-function` or `function-not-available-yet`).
/// The function whose exact name `key` is but for invisible characters before or after it
/// (white space Rust's `char::is_whitespace` knows, which YAML does not take as blanks: a
/// no-break space; zero-width characters), and a label naming them by code point.
fn invisible_around(functions: &[Function], key: &str) -> Option<(Function, String)> {
    let invisible = |c: char| {
        c.is_whitespace() || matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
    };
    let name = key.trim_matches(invisible);
    if name.len() == key.len() || name.is_empty() {
        return None;
    }
    let function = *functions.iter().find(|f| f.name() == name)?;
    let mut points: Vec<String> = key
        .chars()
        .filter(|&c| invisible(c))
        .map(|c| format!("U+{:04X}", u32::from(c)))
        .collect();
    points.dedup();
    Some((
        function,
        format!("`{name}` with {} around it", points.join(", ")),
    ))
}

fn near_function(functions: &[Function], key: &str) -> Option<Function> {
    let mut near = functions
        .iter()
        .filter(|f| f.name().len().abs_diff(key.len()) <= 1 && one_edit(key, f.name()));
    let first = *near.next()?;
    (near.next().is_none() && Function::from_name(key).is_none()).then_some(first)
}

/// Whether `a` becomes `b` by one edit: a byte added, dropped or changed, or two adjacent bytes
/// swapped (the function names are ASCII).
fn one_edit(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a == b {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    match a.len().abs_diff(b.len()) {
        0 => a[1..] == b[1..] || (a.len() >= 2 && a[0] == b[1] && a[1] == b[0] && a[2..] == b[2..]),
        1 if a.len() > b.len() => a[1..] == *b,
        1 => b[1..] == *a,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::one_edit;

    #[test]
    fn one_edit_is_a_letter_added_dropped_changed_or_two_swapped() {
        for (a, b) in [
            ("get_parm", "get_param"),
            ("get_params", "get_param"),
            ("get_paran", "get_param"),
            ("get_aprams", "get_params"),
            ("gte_param", "get_param"),
            ("str_replac", "str_replace"),
        ] {
            assert!(one_edit(a, b), "{a} {b}");
        }
        for (a, b) in [
            ("get_param", "get_param"),
            ("get_pram", "get_param_x"),
            ("getparm", "get_param"),
            ("list_jion_x", "list_join"),
        ] {
            assert!(!one_edit(a, b), "{a} {b}");
        }
    }
}
