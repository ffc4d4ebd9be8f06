//! Every example of the K2HR3 Template Engine documentation (the seed
//! `shared/seeds/004_e189aebb84f54c63.txt`), transcribed as input, expanded to exactly the
//! result K2HR3's own engine gives (`../shared/oracles/k2hr3`, the reference: where the
//! documentation states another result, a comment says what it states).

use hotfix_k2hr3::{Limits, ParseErrorKind, Value, Variables};

fn expand(source: &str, vars: &[(&str, Value)]) -> String {
    let template =
        hotfix_k2hr3::parse(source).unwrap_or_else(|e| panic!("parse: {e} at {}", e.span));
    let vars: Variables = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    hotfix_k2hr3::expand(&template, &vars, Limits::default())
        .unwrap_or_else(|e| panic!("expand: {e} at {}", e.span))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("valid JSON")
}

/// "Samples(Basics)": the template and "the result of expansion" as the documentation shows
/// them ("Line feeds are adjusted").
#[test]
fn basic_sample_expands_as_documented() {
    let template = "\
{{#!k2hr3template }}
{{# COMMENT LINE : The above line can be omitted. }}
Example of template expansion.
1) Examples of loops using variables
{{ for %val% = 0 ; %val% < 2 ; ++%val% }}
- Expansion within a loop: The value of the current variable {{= %val% }}.
{{ done }}
3) Calculation
{{ %val% = 10 + 10 * 9 / 3 }}
%val% should be 40.
Calculation result = {{= %val% }}
That 's all.
";
    // The documentation shows the result "with line feeds adjusted"; the engine adjusts none:
    // only the header's line break goes, every statement's line break stays.
    let expected = "\nExample of template expansion.\n1) Examples of loops using variables\n\n- \
Expansion within a loop: The value of the current variable 0.\n\n- Expansion within a loop: \
The value of the current variable 1.\n\n3) Calculation\n\n%val% should be 40.\nCalculation \
result = 40\nThat 's all.\n";
    assert_eq!(expand(template, &[]), expected);
    // "You can omit it when using the K2HR3 Template Engine."
    let without_header = template.replacen("{{#!k2hr3template }}\n", "", 1);
    assert_eq!(expand(&without_header, &[]), expected);
}

/// "Attention 2": "The result of expanding the following template is “20”."
#[test]
fn operator_priority_example_gives_20() {
    let template = "{{ %tmp_priority_data00% = 1 + 3 * 2 * 3 + 1 }}\n{{= %tmp_priority_data00% }}";
    // The line break between the two statements stays.
    assert_eq!(expand(template, &[]), "\n20");
}

/// "About expansion of HOST information": the template and its expansion. The documentation's
/// text repeats the start of the `%one_host%` line inside itself
/// (`%…/hosts/all%{{ %one_host% = %…/hosts/all%{%host_key%} }}`), a rendering accident of the
/// page: the statement it describes is `{{ %one_host% = %…/hosts/all%{%host_key%} }}`. The
/// variable holds what the documentation's JSON-like listing shows for two hosts.
#[test]
fn role_hosts_sample_expands_as_documented() {
    let template = "\
{{ %host_no% = 0 }}
{{ foreach %host_key% in %yrn:yahoo:::mytenant:role:myrole/hosts/all% }}
{{ %one_host% = %yrn:yahoo:::mytenant:role:myrole/hosts/all%{%host_key%} }}
Host[{{= %host_no% }}] = {{= %one_host%{'host'} }}:{{= %one_host%{'port'} }}
{{ ++%host_no% }}
{{ done }}
";
    let hosts = json(
        r#"{
        "abc.example.com,0,": {"host": "abc.example.com", "port": 0, "extra": null, "cuk": null},
        "127.0.0.1,0,": {"host": "127.0.0.1", "port": 0, "extra": "openstack-auto-v1", "cuk": null}
    }"#,
    );
    let vars = [("yrn:yahoo:::mytenant:role:myrole/hosts/all", hosts)];
    assert_eq!(
        expand(template, &vars),
        "\n\n\nHost[0] = abc.example.com:0\n\n\n\nHost[1] = 127.0.0.1:0\n\n\n"
    );
}

/// "Samples(expanding ROLE member HOST)", the `hosts/ip` variant (same repair as above).
#[test]
fn role_hosts_ip_sample_prints_host_and_port() {
    let template = "\
{{#!k2hr3template }}
{{ foreach %host_key% in %yrn:yahoo:::mytenant:role:myrole/hosts/ip% }}
{{ %one_host% = %yrn:yahoo:::mytenant:role:myrole/hosts/ip%{%host_key%} }}
{{= %one_host%{'host'} }}
{{= %one_host%{'port'} }}
{{ done }}
";
    let hosts = json(
        r#"{"127.0.0.1,0,": {"host": "127.0.0.1", "port": 0, "extra": null, "cuk": null},
            "127.0.0.3,0,cuk-x": {"host": "127.0.0.3", "port": 8080, "extra": "k8s-auto-v1", "cuk": "cuk-x"}}"#,
    );
    let vars = [("yrn:yahoo:::mytenant:role:myrole/hosts/ip", hosts)];
    assert_eq!(
        expand(template, &vars),
        "\n\n127.0.0.1\n0\n\n\n127.0.0.3\n8080\n\n"
    );
}

/// "Escape keyword": `{{{` and `}}}` become `{{` and `}}`; `\` escapes a quote in a string.
#[test]
fn escapes_are_as_documented() {
    // The engine loses the text after the last statement when the template ends with an
    // escape: this one, alone, is an empty template, which it refuses.
    let err = hotfix_k2hr3::parse("{{{ This is not statement }}}").expect_err("refused");
    assert_eq!(err.kind, ParseErrorKind::Empty);
    assert_eq!(
        expand("{{{ This is not statement }}}.", &[]),
        "{{ This is not statement }}."
    );
    // The backslash keeps the quote in the string, and stays in it.
    assert_eq!(
        expand(r#"{{= "The \"test\" is in escaped quote." }}"#, &[]),
        r#"The \"test\" is in escaped quote."#
    );
}

/// "Comment" prints nothing; "Display variables" prints constants and variables.
#[test]
fn comments_and_displays_are_as_documented() {
    assert_eq!(expand("{{# This is comment strings.... }}", &[]), "");
    assert_eq!(
        expand("{{= 'print static string' }}", &[]),
        "print static string"
    );
    assert_eq!(expand("{{= true }}", &[]), "true");
    assert_eq!(expand("{{= 1000 }}", &[]), "1000");
    assert_eq!(
        expand("{{= %variable% }}", &[("variable", Value::Str("v".into()))]),
        "v"
    );
}

/// "Number": the four notations with the documentation's examples (`01234` is its octal one).
#[test]
fn number_notations_are_as_documented() {
    assert_eq!(expand("{{= 123456789 }}", &[]), "123456789");
    assert_eq!(expand("{{= 0xff }}", &[]), "255");
    assert_eq!(expand("{{= xff }}", &[]), "255");
    assert_eq!(expand("{{= 0o1234 }}", &[]), "668");
    // The documentation's octal `01234` is decimal in the engine.
    assert_eq!(expand("{{= 01234 }}", &[]), "1234");
    assert_eq!(expand("{{= 0b1010 }}", &[]), "10");
}

/// "Constant", "String", "Variable", "Array and object elements", "Number of … elements",
/// "Limit".
#[test]
fn variables_and_elements_are_as_documented() {
    let vars = [
        ("var_array", json(r#"["zero", "one"]"#)),
        ("var_object", json(r#"{"key": "value"}"#)),
        ("multiarray", json(r#"[[0], [1], ["two-zero"]]"#)),
        ("yrn:yahoo:yjcore:::resource:k2hr3api_res", json(r#""res""#)),
    ];
    let template = "\
{{= null }} {{= true }} {{= false }} {{= 'single' }} {{= \"double\" }}
{{= %var_array%[0] }} {{= %var_array%['0'] }} {{= %var_object%{'key'} }} {{= %var_object%['key'] }}
{{= %var_array%.length }} {{= %var_array%.size }} {{= %var_array%.count }}
{{ %tmparray% = %multiarray%[2] }}
{{= %tmparray%[0] }} {{= %yrn:yahoo:yjcore:::resource:k2hr3api_res% }}
";
    assert_eq!(
        expand(template, &vars),
        // `null` prints nothing; the assignment's line break stays.
        " true false single double\nzero zero value value\n2 2 2\n\ntwo-zero res\n"
    );
}

/// "Syntax": each control structure's example, with the variable values named in its text.
#[test]
fn control_syntax_examples_behave_as_described() {
    let if_example = "{{ if 0 == %variable% }} display if %variable% is 0. {{ elif 1 == %variable% }} display if %variable% is 1. {{ else }} display if %variable% is not 0 nor 1. {{ endif }}";
    assert_eq!(
        expand(if_example, &[("variable", Value::Num(0.0))]),
        " display if %variable% is 0. "
    );
    assert_eq!(
        expand(if_example, &[("variable", Value::Num(1.0))]),
        " display if %variable% is 1. "
    );
    assert_eq!(
        expand(if_example, &[("variable", Value::Num(7.0))]),
        " display if %variable% is not 0 nor 1. "
    );

    let while_example =
        "{{ while 0 < %variable% }} display if %variable% is over 1. {{ --%variable% }} {{ done }}";
    let once = " display if %variable% is over 1.  ";
    assert_eq!(
        expand(while_example, &[("variable", Value::Num(2.0))]),
        once.repeat(2)
    );
    assert_eq!(expand(while_example, &[("variable", Value::Num(0.0))]), "");

    let do_example = "{{ do }} display until %variable% is over 1. {{ --%variable% }} {{ while 0 < %variable% }}";
    let once = " display until %variable% is over 1.  ";
    assert_eq!(expand(do_example, &[("variable", Value::Num(0.0))]), once);
    assert_eq!(
        expand(do_example, &[("variable", Value::Num(3.0))]),
        once.repeat(3)
    );

    let for_example = "{{ for %variable% = 0 ; %variable% < 2 ; ++%variable% }} display if %variable% is 0 or 1. {{ done }}";
    assert_eq!(
        expand(for_example, &[]),
        " display if %variable% is 0 or 1. ".repeat(2)
    );

    let for_length = "{{ for %variable% = 0 ; %variable% < %var_array%.length ; ++%variable% }} Output all array elements by %variable% .length. {{= %var_array%[%variable%] }} {{ done }}";
    assert_eq!(
        expand(for_length, &[("var_array", json(r#"["a", "b"]"#))]),
        " Output all array elements by %variable% .length. a  Output all array elements by %variable% .length. b "
    );

    let foreach_array = "{{ foreach %subvar% in %variable% }} If %variable% is an array, the elements of the array are output. {{= %subvar% }} {{ done }}";
    assert_eq!(
        expand(foreach_array, &[("variable", json(r#"["a", "b"]"#))]),
        // The documentation says the elements; the engine gives the indexes.
        " If %variable% is an array, the elements of the array are output. 0  If %variable% is an array, the elements of the array are output. 1 "
    );

    // The documentation's object example repeats `{{= %variable%` inside itself (the same
    // rendering accident as the host sample); this is the statement it describes.
    let foreach_object = "{{ foreach %subvar% in %variable% }} If %variable% is an object, you can get the key name of the object. {{= %subvar% }} {{= %variable%{%subvar%} }} {{ done }}";
    assert_eq!(
        expand(
            foreach_object,
            &[("variable", json(r#"{"k1": "v1", "k2": "v2"}"#))]
        ),
        " If %variable% is an object, you can get the key name of the object. k1 v1  If %variable% is an object, you can get the key name of the object. k2 v2 "
    );
}

/// "Operator": each operator's example statement, on 12 and 5 (and "Left bit shift" `<<4`).
#[test]
fn operator_examples_compute_as_described() {
    let vars = [
        ("variable_00", Value::Num(12.0)),
        ("variable_01", Value::Num(5.0)),
    ];
    let cases = [
        (
            "{{ %variable_00% = %variable_01% }}{{= %variable_00% }}",
            "5",
        ),
        ("{{= %variable_00% + %variable_01% }}", "17"),
        ("{{= %variable_00% - %variable_01% }}", "7"),
        // Numbers are JavaScript's: 12 / 5 is 2.4.
        ("{{= %variable_00% / %variable_01% }}", "2.4"),
        ("{{= %variable_00% * %variable_01% }}", "60"),
        ("{{= %variable_00% % %variable_01% }}", "2"),
        ("{{= %variable_00% & %variable_01% }}", "4"),
        ("{{= %variable_00% | %variable_01% }}", "13"),
        ("{{= %variable_00%<<4 }}", "192"),
        ("{{= %variable_00%>>4 }}", "0"),
        ("{{ %variable_00%++ }}{{= %variable_00% }}", "13"),
        ("{{ ++%variable_00% }}{{= %variable_00% }}", "13"),
        ("{{ %variable_00%-- }}{{= %variable_00% }}", "11"),
        ("{{ --%variable_00% }}{{= %variable_00% }}", "11"),
        ("{{= %variable_00% && %variable_01% }}", "true"),
        ("{{= %variable_00% || %variable_01% }}", "true"),
        ("{{= %variable_00% == %variable_01% }}", "false"),
        ("{{= %variable_00% != %variable_01% }}", "true"),
        ("{{= %variable_00% < %variable_01% }}", "false"),
        ("{{= %variable_00% > %variable_01% }}", "true"),
        ("{{= %variable_00% <= %variable_01% }}", "false"),
        ("{{= %variable_00% >= %variable_01% }}", "true"),
    ];
    for (template, expected) in cases {
        assert_eq!(expand(template, &vars), expected, "{template}");
    }
    // `!` takes only a boolean: on 12 expanding fails.
    let not = hotfix_k2hr3::parse("{{= !%variable_00% }}").expect("loads");
    let vars: Variables = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    assert!(hotfix_k2hr3::expand(&not, &vars, Limits::default()).is_err());
    let vars = [
        ("variable_00", Value::Num(12.0)),
        ("variable_01", Value::Num(5.0)),
    ];
    // The statements themselves, as the documentation writes them, print nothing.
    assert_eq!(expand("{{ %variable_00% + %variable_01% }}", &vars), "");
}

/// "Specifying the template engine": only `k2hr3template`; another name is refused.
#[test]
fn other_engine_names_are_refused() {
    let err = hotfix_k2hr3::parse("{{#!xxxxxxxxxxxxxx }}\ntext").expect_err("refused");
    assert_eq!(
        err.kind,
        ParseErrorKind::UnknownEngine("xxxxxxxxxxxxxx".into())
    );
    assert_eq!(err.span.range(), 4..18);
    assert_eq!(expand("{{#!k2hr3template }}text", &[]), "text");
}

/// `break` and `continue` as described: leave the loop, go back to its condition.
#[test]
fn break_and_continue_behave_as_described() {
    let template = "{{ for %i% = 0 ; %i% < 5 ; ++%i% }}{{ if %i% == 1 }}{{ continue }}{{ endif }}{{ if %i% == 3 }}{{ break }}{{ endif }}{{= %i% }}{{ done }}";
    assert_eq!(expand(template, &[]), "02");
}
