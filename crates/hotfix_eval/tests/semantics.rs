//! Heat's semantics where a naive evaluator goes wrong, on templates whose expected outputs
//! are Heat's own answers (`../shared/oracles/heat/resolve.py resolve`, recorded here), so
//! that a plain `cargo test` checks them without Heat.

use hotfix_eval::Inputs;

fn outputs(source: &str) -> serde_json::Value {
    let doc = hotfix_yaml::parse(source).expect("loads");
    hotfix_eval::evaluate(&doc, &Inputs::default()).json["outputs"].clone()
}

fn check(source: &str, heat: &str) {
    let expected: serde_json::Value = serde_json::from_str(heat).expect("JSON");
    assert_eq!(outputs(source), expected);
}

#[test]
fn str_replace_repeat_get_param_list_join_and_params_as_ocata_does_them() {
    check(
        r#"heat_template_version: 2017-02-24
parameters:
  flag: {type: string, default: true}
  lst: {type: comma_delimited_list, default: "a, b,,c"}
  num: {type: number, default: "1_000"}
outputs:
  no_rescan: {value: {str_replace: {template: "$a$b", params: {$a: "$b", $b: X}}}}
  sequential: {value: {repeat: {for_each: {"%a": [X], "%ab%": [Y]}, template: "%a% %ab%"}}}
  path_miss: {value: {get_param: [lst, 9]}}
  path_str_index: {value: {get_param: [lst, "1"]}}
  json_join: {value: {list_join: ["|", [{k: v, a: [1]}, [1, "x"]]]}}
  ignored_permutations: {value: {repeat: {for_each: {"%x%": [a, b], "%y%": [c, d]}, template: "%x%%y%", permutations: false}}}
  stringified: {value: {get_param: flag}}
  list: {value: {get_param: lst}}
  number: {value: {get_param: num}}
  split_error: {value: {str_split: [",", "a,b", 5]}}
  strict: {value: {str_replace_strict: {template: "x", params: {$zz: 1, $y: 2}}}}
"#,
        r#"{"ignored_permutations": {"value": ["ac", "ad", "bc", "bd"]}, "json_join": {"value": "{\"a\": [1], \"k\": \"v\"}|[1, \"x\"]"}, "list": {"value": ["a", " b", "", "c"]}, "no_rescan": {"value": "$bX"}, "number": {"value": 1000}, "path_miss": {"value": ""}, "path_str_index": {"value": " b"}, "sequential": {"value": ["X% Xb%"]}, "split_error": {"error": "Incorrect index to \"str_split\" should be between 0 and 1", "error_type": "ValueError"}, "strict": {"error": "The following params were not found in the template: $zz,$y", "error_type": "ValueError"}, "stringified": {"value": "True"}}"#,
    );
}

#[test]
fn wallaby_if_elides_and_repeat_zips_without_permutations() {
    check(
        r#"heat_template_version: 2021-04-16
conditions:
  no_mon: false
outputs:
  elided: {value: [a, {if: [no_mon, b]}, c]}
  elided_map: {value: {k: {if: [no_mon, v]}, j: w}}
  null_third: {value: {if: [no_mon, b, null]}}
  zipped: {value: {repeat: {for_each: {"%x%": [a, b], "%y%": [c, d]}, template: "%x%%y%", permutations: false}}}
  data_equals: {value: {equals: [1, 1]}}
"#,
        r#"{"data_equals": {"value": {"equals": [1, 1]}}, "elided": {"value": ["a", "c"]}, "elided_map": {"value": {"j": "w"}}, "null_third": {"value": null}, "zipped": {"value": ["ac", "bd"]}}"#,
    );
}

#[test]
fn cfn_functions_of_2013_05_23_resolve_as_heat_does() {
    check(
        r#"heat_template_version: 2013-05-23
parameters:
  l: {type: comma_delimited_list, default: "x,y,z"}
outputs:
  select: {value: {Fn::Select: ["1", {get_param: l}]}}
  select_miss: {value: {Fn::Select: [7, {get_param: l}]}}
  select_json: {value: {Fn::Select: [k, '{"k": "v"}']}}
  split: {value: {Fn::Split: [",", "a,b"]}}
  str_split_is_data: {value: {str_split: [",", "a,b"]}}
  replace: {value: {Fn::Replace: [{$x: true}, "is $x"]}}
  member: {value: {Fn::MemberListToMap: [Name, Value, [".member.0.Name=k", ".member.0.Value=v"]]}}
  ref: {value: {Ref: l}}
"#,
        r#"{"member": {"value": {"k": "v"}}, "ref": {"value": ["x", "y", "z"]}, "replace": {"value": "is True"}, "select": {"value": "y"}, "select_json": {"value": "v"}, "select_miss": {"value": ""}, "split": {"value": ["a", "b"]}, "str_split_is_data": {"value": {"str_split": [",", "a,b"]}}}"#,
    );
}

/// What `Folder::fold_with_defaults` gives for the `value` of each output of `source` named, in
/// order, by one folder (one set of parameters): the value as JSON and the defaults it used.
fn folds(source: &str, names: &[&str]) -> Vec<Option<(String, Vec<String>)>> {
    let doc = hotfix_yaml::parse(source).expect("loads");
    let version = hotfix_hot::Template::new(&doc)
        .version()
        .expect("a version");
    let outputs = doc.get(doc.root(), "outputs").expect("outputs");
    let folder = hotfix_eval::Folder::new(&doc, version);
    names
        .iter()
        .map(|name| {
            let value = doc
                .get(doc.get(outputs, name).expect("output"), "value")
                .expect("value");
            folder
                .fold_with_defaults(value)
                .map(|f| (f.value.to_json().to_string(), f.defaults))
        })
        .collect()
}

/// `Folder::fold_with_defaults` computes a value from literals and the defaults of parameters given
/// by a literal name, naming those parameters; it gives nothing for a parameter without a
/// default, a pseudo parameter, a parameter whose default breaks its own constraint (Heat
/// refuses the parameter first), a resource's attribute, or where Heat raises (`list_join` of
/// a number: `Items to join must be string, map or list not 3`). The values are Heat's
/// (`resolve.py resolve` with no parameters given).
#[test]
fn fold_with_defaults_uses_valid_defaults_only_and_names_them() {
    let source = r#"heat_template_version: 2018-08-31
parameters:
  n: {type: number, default: "3"}
  l: {type: comma_delimited_list, default: "a, b"}
  no_default: {type: string}
  broken: {type: string, default: x, constraints: [{allowed_values: [y]}]}
outputs:
  literals: {value: {list_join: ["-", [a, b]]}}
  defaults: {value: {str_replace: {template: X-Y-Y, params: {X: {get_param: [l, 1]}, Y: {get_param: n}}}}}
  join_of_number: {value: {list_join: ["-", [{get_param: n}]]}}
  no_default: {value: {list_join: ["-", [{get_param: no_default}]]}}
  pseudo: {value: {get_param: OS::stack_name}}
  broken: {value: {get_param: broken}}
  attribute: {value: {list_join: ["-", [{get_attr: [r, a]}]]}}
"#;
    let names = [
        "literals",
        "defaults",
        "join_of_number",
        "no_default",
        "pseudo",
        "broken",
        "attribute",
    ];
    let folded = folds(source, &names);
    let fold = |name: &str| folded[names.iter().position(|n| *n == name).expect("named")].clone();
    assert_eq!(fold("literals"), Some(("\"a-b\"".to_owned(), vec![])));
    assert_eq!(
        fold("defaults"),
        Some((
            "\" b-3-3\"".to_owned(),
            vec!["l".to_owned(), "n".to_owned()]
        ))
    );
    assert_eq!(fold("join_of_number"), None);
    assert_eq!(fold("no_default"), None);
    assert_eq!(fold("pseudo"), None);
    assert_eq!(fold("broken"), None);
    assert_eq!(fold("attribute"), None);
}

/// Once the parameters' budget of pattern steps is spent (here by twenty parameters whose
/// `allowed_pattern` backtracks for long, as Python's `re` does), a pattern's answer is unknown:
/// a default that breaks a plain pattern after them is not taken as valid (a value folded from it
/// would be checked where Heat refuses the parameter first), nor is one that matches.
#[test]
fn a_spent_budget_of_pattern_steps_leaves_defaults_unknown_not_valid() {
    let hostile = hotfix_eval::regex::FILE_STEPS / hotfix_eval::regex::MAX_STEPS;
    let mut source = String::from("heat_template_version: 2018-08-31\nparameters:\n");
    let mut uses = String::new();
    let long = "a".repeat(40);
    for i in 0..hostile {
        source.push_str(&["  h", &i.to_string(), ": {type: string, default: ", &long].concat());
        source.push_str("!, constraints: [{allowed_pattern: '(a+)+$'}]}\n");
        uses.push_str(
            &[
                "  o",
                &i.to_string(),
                ": {value: {get_param: h",
                &i.to_string(),
                "}}\n",
            ]
            .concat(),
        );
    }
    source.push_str(concat!(
        "  breaks: {type: string, default: B, constraints: [{allowed_pattern: '[a-z]+'}]}\n",
        "  keeps: {type: string, default: b, constraints: [{allowed_pattern: '[a-z]+'}]}\n",
        "outputs:\n",
        "  breaks: {value: {list_join: [-, [{get_param: breaks}, {get_param: breaks}]]}}\n",
        "  keeps: {value: {list_join: [-, [{get_param: keeps}]]}}\n",
    ));
    source.push_str(&uses);
    // Within the budget, the answers are known: `B` breaks the pattern, `b` keeps it.
    assert_eq!(
        folds(&source, &["breaks", "keeps"]),
        [None, Some(("\"b\"".to_owned(), vec!["keeps".to_owned()]))]
    );
    // The hostile parameters asked about first spend it: both are unknown (a value folded
    // from `B` was the wrong answer there: Heat refuses the parameter).
    let mut names: Vec<String> = (0..hostile).map(|i| format!("o{i}")).collect();
    names.extend(["breaks", "keeps", "keeps"].map(str::to_owned));
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    assert!(folds(&source, &names).iter().all(Option::is_none));
}

#[test]
fn a_binary_value_is_not_evaluated_rather_than_taken_as_its_text() {
    // Heat (resolve.py): `a` is `[104, 101, 108, 108, 111]` (its JSON encoder writes bytes as
    // a list of byte values) and `b` the text of that list; hotfix gave "hello" and "helloy".
    let out = outputs(
        "heat_template_version: 2018-08-31
outputs:
  a: {value: !!binary aGVsbG8=}
  b: {value: {str_replace: {template: xy, params: {x: !!binary aGVsbG8=}}}}
  c: {value: plain}
",
    );
    for name in ["a", "b"] {
        assert_eq!(out[name]["error_type"], "NotEvaluated", "{name}: {out}");
    }
    assert_eq!(out["c"]["value"], "plain");
}

/// The `parameter_error` of a template's evaluation, as the oracle prints it.
fn parameter_error(source: &str) -> serde_json::Value {
    let doc = hotfix_yaml::parse(source).expect("loads");
    hotfix_eval::evaluate(&doc, &Inputs::default()).json["parameter_error"].clone()
}

#[test]
fn constraints_compare_numbers_exactly_and_print_bounds_as_heat_does() {
    // Heat (resolve.py): a NaN passes a range (it compares false both ways); 2**53 + 1 is
    // above the float 2.0**53; a float modulo's bounds print as floats.
    let heat =
        |error: &str| serde_json::json!({"error": error, "error_type": "InvalidSchemaError"});
    let template = |default: &str, constraint: &str| {
        format!(
            "heat_template_version: 2017-02-24
parameters:
  a: {{type: number, default: {default}, constraints: [{constraint}]}}
"
        )
    };
    assert_eq!(
        parameter_error(&template("\"nan\"", "range: {min: 0}")),
        serde_json::Value::Null
    );
    assert_eq!(
        parameter_error(&template(
            "9007199254740993",
            "range: {max: 9007199254740992.0}"
        )),
        heat(
            "Parameter 'a' is invalid: Invalid default 9007199254740993 (9007199254740993 is out of range (min: None, max: 9007199254740992.0))"
        )
    );
    assert_eq!(
        parameter_error(&template("3", "modulo: {step: 2.0, offset: 0.0}")),
        heat(
            "Parameter 'a' is invalid: Invalid default 3 (3 is not a multiple of 2.0 with an offset of 0.0)"
        )
    );
}

#[test]
fn functions_fail_with_the_exception_heat_raises() {
    // The keys of `str_replace` sorted as CPython sorts them (the first pair it cannot
    // compare names the error), `str.split('')`, `dict.pop(0)`, `int()` of an index or a
    // port, `_check_args` of a string, `hashlib.new` by the name as given, latin-1's
    // error for consecutive characters.
    check(
        r#"heat_template_version: 2018-08-31
outputs:
  sorted_pair: {value: {str_replace: {template: a1, params: {1: x, a: b}}}}
  sorted_run: {value: {str_replace: {template: a1, params: {b: x, a: y, 3: z, c: w}}}}
  smallest_number_first: {value: {str_replace: {template: a1, params: {2: x, 1.5: y}}}}
  empty_placeholder: {value: {str_replace: {template: a, params: {"": x}}}}
  map_replace_of_a_dict: {value: {map_replace: {a: 1}}}
  split_index_list: {value: {str_split: [",", "a,b", [0]]}}
  split_index_inf: {value: {str_split: [",", "a,b", .inf]}}
  split_index_big: {value: {str_split: [",", "a,b", 99999999999999999999]}}
  url_of_a_string: {value: {make_url: "xportx"}}
  url_port_list: {value: {make_url: {host: h, port: [1]}}}
  url_port_big: {value: {make_url: {host: h, port: 99999999999999999999}}}
  digest_case: {value: {digest: [SHA3_256, x]}}
  digest_shake: {value: {digest: [shake_128, x]}}
  digest_latin_1: {value: {digest: [md5, "a€€b"]}}
"#,
        r#"{"digest_case": {"error": "unsupported hash type SHA3_256", "error_type": "ValueError"}, "digest_latin_1": {"error": "'latin-1' codec can't encode characters in position 1-2: ordinal not in range(256)", "error_type": "UnicodeEncodeError"}, "digest_shake": {"error": "hexdigest() missing required argument 'length' (pos 1)", "error_type": "TypeError"}, "empty_placeholder": {"error": "empty separator", "error_type": "ValueError"}, "map_replace_of_a_dict": {"error": "0", "error_type": "KeyError"}, "smallest_number_first": {"error": "object of type 'float' has no len()", "error_type": "TypeError"}, "sorted_pair": {"error": "'<' not supported between instances of 'str' and 'int'", "error_type": "TypeError"}, "sorted_run": {"error": "'<' not supported between instances of 'int' and 'str'", "error_type": "TypeError"}, "split_index_big": {"error": "Incorrect index to \"str_split\" should be between 0 and 1", "error_type": "ValueError"}, "split_index_inf": {"error": "cannot convert float infinity to integer", "error_type": "OverflowError"}, "split_index_list": {"error": "int() argument must be a string, a bytes-like object or a real number, not 'list'", "error_type": "TypeError"}, "url_of_a_string": {"error": "string indices must be integers, not 'str'", "error_type": "TypeError", "validation_error": {"error": "Value.make_url: The arguments to \"make_url\" must be a map", "error_type": "StackValidationFailed"}}, "url_port_big": {"error": "Invalid URL port 99999999999999999999, must be in range 1-65535", "error_type": "ValueError", "validation_error": {"error": "Value.make_url: Invalid URL port 99999999999999999999, must be in range 1-65535", "error_type": "StackValidationFailed"}}, "url_port_list": {"error": "int() argument must be a string, a bytes-like object or a real number, not 'list'", "error_type": "TypeError", "validation_error": {"error": "Value.make_url: int() argument must be a string, a bytes-like object or a real number, not 'list'", "error_type": "StackValidationFailed"}}}"#,
    );
    // CloudFormation functions unpack their arguments as Python does: two characters are
    // two arguments; `MemberListToMap` orders members by index, skips one without a value,
    // and refuses an item without `=`; `Ref` of a number names nothing.
    check(
        r#"heat_template_version: 2013-05-23
parameters:
  list: {type: comma_delimited_list, default: "a,b"}
outputs:
  select_of_two_characters: {value: {"Fn::Select": "1b"}}
  members_in_index_order: {value: {"Fn::MemberListToMap": [Name, Value, [".member.10.Name=b", ".member.10.Value=2", ".member.2.Name=a", ".member.2.Value=1", ".member.3.Name=c"]]}}
  member_without_equals: {value: {"Fn::MemberListToMap": [Name, Value, [".member.0.Name=k", ".member.0.Value"]]}}
  ref_of_a_number: {value: {Ref: 5}}
"#,
        r#"{"member_without_equals": {"error": "dictionary update sequence element #1 has length 1; 2 is required", "error_type": "ValueError"}, "members_in_index_order": {"value": {"a": "1", "b": "2"}}, "ref_of_a_number": {"error": "The specified reference \"5\" (in unknown) is incorrect.", "error_type": "InvalidTemplateReference"}, "select_of_two_characters": {"error": "\"Fn::Select\": Expecting value: line 1 column 1 (char 0)", "error_type": "ValueError"}}"#,
    );
}

#[test]
fn parameters_are_built_and_checked_as_heat_does() {
    // Heat (resolve.py) for one parameter each: oslo's `bool_from_string` of `str()`, a
    // `length` bound must be an `int` (a whole float is not), a modulo bound's `int()`
    // errors, bounds beyond 64 bits, an allowed value hotfix cannot convert does not hide
    // the default's error.
    let cases: &[(&str, &str, &str)] = &[
        (
            r"p: {type: boolean, default: 1}",
            "parameter_error",
            r"null",
        ),
        (
            r"p: {type: boolean, default: [1]}",
            "parameter_error",
            r#"{"error": "Parameter 'p' is invalid: Unrecognized value '[1]', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'", "error_type": "StackValidationFailed"}"#,
        ),
        (
            r"p: {type: string, default: abc, constraints: [length: {min: 4.0}]}",
            "error",
            r#"{"error": "min/max length must be integral", "error_type": "InvalidSchemaError"}"#,
        ),
        (
            r"p: {type: string, default: abc, constraints: [length: {min: 9223372036854775808}]}",
            "parameter_error",
            r#"{"error": "Parameter 'p' is invalid: Invalid default abc (length (3) is out of range (min: 9223372036854775808, max: None))", "error_type": "InvalidSchemaError"}"#,
        ),
        (
            r"p: {type: number, default: 5, constraints: [modulo: {step: .nan, offset: 0}]}",
            "error",
            r#"{"error": "cannot convert float NaN to integer", "error_type": "ValueError"}"#,
        ),
        (
            r"p: {type: number, default: 5, constraints: [modulo: {step: 9223372036854775807, offset: 2}]}",
            "parameter_error",
            r#"{"error": "Parameter 'p' is invalid: Invalid default 5 (5 is not a multiple of 9223372036854775807 with an offset of 2)", "error_type": "InvalidSchemaError"}"#,
        ),
        (
            r"p: {type: number, default: -170141183460469231731687303715884105728, constraints: [modulo: {step: -1, offset: 0}]}",
            "parameter_error",
            r"null",
        ),
        (
            r#"p: {type: number, default: x, constraints: [allowed_values: ["١", 2]]}"#,
            "parameter_error",
            r#"{"error": "Parameter 'p' is invalid: Invalid default x (Value \"x\" is invalid for data type \"number\".)", "error_type": "InvalidSchemaError"}"#,
        ),
    ];
    for (parameter, key, heat) in cases {
        let source = format!("heat_template_version: 2018-08-31\nparameters:\n  {parameter}\n");
        let doc = hotfix_yaml::parse(&source).expect("loads");
        let json = hotfix_eval::evaluate(&doc, &Inputs::default()).json;
        let expected: serde_json::Value = serde_json::from_str(heat).expect("JSON");
        assert_eq!(json[key], expected, "{parameter}");
    }
}

#[test]
fn constructors_refuse_arguments_as_heat_does() {
    // A `Ref` of a parameter is a `ParamRef` (of a resource, a `GetResource`) to the checks of
    // the function around it; the keys of a mapping unpack as `Fn::MemberListToMap`'s names.
    check(
        r#"heat_template_version: 2013-05-23
parameters:
  p: {type: string, default: "ab"}
resources:
  r: {type: OS::Heat::None}
outputs:
  select_of_a_parameter_ref: {value: {"Fn::Select": {Ref: p}}}
  select_of_a_resource_ref: {value: {"Fn::Select": {Ref: r}}}
  ref_of_a_parameter_ref: {value: {Ref: {Ref: p}}}
  member_key_not_a_string: {value: {"Fn::MemberListToMap": {1: a, b: c, d: e}}}
"#,
        r#"{"member_key_not_a_string": {"parse_error": {"error": "outputs.member_key_not_a_string.value.Fn::MemberListToMap: Fn::MemberListToMap Key Name must be a string", "error_type": "StackValidationFailed"}}, "ref_of_a_parameter_ref": {"parse_error": {"error": "outputs.ref_of_a_parameter_ref.value.Ref: unhashable type: 'ParamRef'", "error_type": "StackValidationFailed"}}, "select_of_a_parameter_ref": {"parse_error": {"error": "outputs.select_of_a_parameter_ref.value.Fn::Select: cannot unpack non-iterable ParamRef object", "error_type": "StackValidationFailed"}}, "select_of_a_resource_ref": {"parse_error": {"error": "outputs.select_of_a_resource_ref.value.Fn::Select: cannot unpack non-iterable GetResource object", "error_type": "StackValidationFailed"}}}"#,
    );
    // `yaql` validates a literal expression (a call there is not checked).
    check(
        r"heat_template_version: 2016-10-14
outputs:
  yaql_of_a_number: {value: {yaql: {expression: 5}}}
  join_of_nothing: {value: {list_join: []}}
",
        r#"{"join_of_nothing": {"parse_error": {"error": "outputs.join_of_nothing.value.list_join: Incorrect arguments to \"list_join\" should be: \"list_join\" : [ \" \", [ \"str1\", \"str2\"] ...]", "error_type": "StackValidationFailed"}}, "yaql_of_a_number": {"error": "The \"expression\" argument to yaql must contain a string.", "error_type": "TypeError", "validation_error": {"error": "Value.yaql: The \"expression\" argument to yaql must contain a string.", "error_type": "StackValidationFailed"}}}"#,
    );
}
