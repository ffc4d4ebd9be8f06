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
