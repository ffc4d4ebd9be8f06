use crate::{Blueprint, ImportKind, Scope, Where};

fn load(source: &str) -> hotfix_yaml::Document {
    hotfix_yaml::parse(source).expect("valid YAML")
}

#[test]
fn recognises_blueprints_by_their_version() {
    let doc = load("tosca_definitions_version: cloudify_dsl_1_4\n");
    let bp = Blueprint::new(&doc).expect("a blueprint");
    assert_eq!(bp.version, Some((1, 4)));
    assert!(Blueprint::new(&load("tosca_definitions_version: tosca_simple_yaml_1_0\n")).is_none());
    assert!(Blueprint::new(&load("heat_template_version: pike\n")).is_none());
}

#[test]
fn finds_calls_with_their_scope_and_parent() {
    let doc = load(concat!(
        "tosca_definitions_version: cloudify_dsl_1_5\n",
        "imports: [cloudify/types/types.yaml, 'plugin:x', includes/a.yaml, 'ns--blueprint:b',\n",
        "  'http://cloudify.co/spec/cloudify/6.4.0/types.yaml', 'https://example.com/t.yaml']\n",
        "inputs: {i: {default: 1}}\n",
        "node_templates:\n",
        "  a:\n",
        "    type: t\n",
        "    properties: {p: {concat: [{get_input: i}, {type: string}]}}\n",
        "    interfaces: {x: {op: {implementation: s.sh, inputs: {v: {get_attribute: [SELF, q]}}}}}\n",
        "    relationships:\n",
        "      - {type: r, target: b, source_interfaces: {y: {o: {inputs: {w: {get_property: [TARGET, p]}}}}}}\n",
        "  b: {type: t}\n",
        "outputs: {o: {value: {get_secret: s, type: string}}}\n",
        "node_types: {t: {properties: {p: {default: {get_input: i}}}}}\n",
    ));
    let bp = Blueprint::new(&doc).expect("a blueprint");
    let kinds: Vec<_> = bp.imports.iter().map(|i| i.kind.clone()).collect();
    assert_eq!(
        kinds,
        [
            ImportKind::CloudifyTypes,
            ImportKind::Plugin,
            ImportKind::Local,
            ImportKind::Blueprint,
            ImportKind::CloudifyTypes,
            ImportKind::Url,
        ]
    );
    let calls: Vec<_> = bp
        .calls
        .iter()
        .map(|c| (c.function.name, c.scope, c.place, c.parent))
        .collect();
    assert_eq!(
        calls,
        [
            (
                "concat",
                Scope::NodeTemplate { node: 0 },
                Where::Properties,
                None
            ),
            (
                "get_input",
                Scope::NodeTemplate { node: 0 },
                Where::Properties,
                Some(0)
            ),
            (
                "get_attribute",
                Scope::NodeTemplate { node: 0 },
                Where::OperationInputs,
                None
            ),
            (
                "get_property",
                Scope::Relationship {
                    node: 0,
                    relationship: 0
                },
                Where::SourceOperationInputs,
                None
            ),
            ("get_secret", Scope::Outputs, Where::Value, None),
        ]
    );
    assert_eq!(
        bp.node_templates[0].relationships[0]
            .target
            .as_ref()
            .map(|t| t.0.as_str()),
        Some("b")
    );
}

#[test]
fn local_imports_are_those_of_the_whole_model() {
    for text in [
        "tosca_definitions_version: cloudify_dsl_1_4\nimports:\n  - includes/a.yaml\n  - \
         plugin:cloudify-openstack-plugin\n  - https://x/y.yaml\n  - ns--b.yaml\n  - c.yaml\n  \
         - {not: text}\n  - cloudify/types/types.yaml\ninputs: {i: {}}\n",
        "tosca_definitions_version: cloudify_dsl_1_3\n",
        "tosca_definitions_version: cloudify_dsl_1_3\nimports: includes/a.yaml\n",
        "tosca_definitions_version: tosca_simple_yaml_1_0\nimports: [a.yaml]\n",
        "heat_template_version: 2018-08-31\nimports: [a.yaml]\n",
        "imports: [a.yaml]\n",
    ] {
        let doc = load(text);
        let whole = Blueprint::new(&doc).map(|bp| {
            bp.imports
                .iter()
                .filter(|i| i.kind == ImportKind::Local)
                .map(|i| i.text.clone())
                .collect::<Vec<_>>()
        });
        assert_eq!(Blueprint::local_imports(&doc), whole, "{text}");
    }
    let doc =
        load("tosca_definitions_version: cloudify_dsl_1_4\nimports: [includes/a.yaml, c.yaml]\n");
    assert_eq!(
        Blueprint::local_imports(&doc),
        Some(vec!["includes/a.yaml".to_owned(), "c.yaml".to_owned()])
    );
}
