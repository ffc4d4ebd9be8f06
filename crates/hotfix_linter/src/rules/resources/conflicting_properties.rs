use std::collections::BTreeMap;

use hotfix_hot::plugin_checks::{self, Check, Lit, Says, Scope, Term};
use hotfix_hot::resource_types::{PropertyType, ResourceType, RuleKind, Schema, TranslationRule};
use hotfix_hot::{CallStatus, Function, Named};
use hotfix_yaml::{NodeId, NodeKind};
use serde_json::Value as Json;

use crate::rule::{Context, Sink, declare_rule};
use crate::rules::py::{self, Num, Value};
use crate::rules::resources::property_values::converted;
use crate::rules::resources::shared::{
    Registered, call_at, is_external, registered, validated_resources,
};

declare_rule! {
    /// ## What it does
    /// Checks the properties of a resource against the checks its type makes of them in its
    /// own `validate()` before a stack create: properties that exclude each other (a server's
    /// `security_groups` beside a network `port`), that need one another (a floating IP's
    /// `fixed_ip_address` needs `port_id`), of which one must be given (a subnet's `cidr` or
    /// `subnetpool`), that only go with a value of another, and a few relations between values
    /// (an `OS::Heat::RandomString` shorter than the minimums of its character classes, a
    /// network's `value_specs` that repeat one of its properties, a software deployment whose
    /// server, named with `get_resource`, keeps the default `user_data_format`). Also a
    /// property given twice, under its name and under the older name that Heat reads as it
    /// (`network` and `network_id`).
    ///
    /// The checks are those of Heat's plugins that need no cloud to decide (95 checks of 44
    /// types, among them `OS::Nova::Server`, `OS::Neutron::Port`, `Subnet`, `FloatingIP`,
    /// `Router`, `RouterInterface`, `SecurityGroupRule`, `OS::Cinder::Volume`,
    /// `OS::Heat::RandomString`, `AutoScalingGroup`, `OS::Octavia::Pool`, `Listener`,
    /// `L7Policy`, `L7Rule`), each proven against the plugin's own `validate()`. Those that
    /// need a cloud (an image's status, the API versions the cloud offers, its quotas) are not.
    ///
    /// A value is read as Heat reads it: converted to the property's type, a default where
    /// none is written (a subnet's `ip_version` is 4), a deprecated name's value under the
    /// current name (`uuid` for `network`). A property whose value is a function counts as
    /// given (even `get_attr`, which Heat reads as empty at that point), but its value is not
    /// known: only `get_resource` is known to be non-empty. A value under an `if`, and a list
    /// with an `if` among its items, are not known: nothing is said of them. A resource with
    /// `external_id` is not checked (Heat does not validate what it adopts).
    ///
    /// ## Why is this bad?
    /// `openstack orchestration template validate` accepts the template, but Heat refuses the
    /// stack when it creates it, before it creates anything: `Cannot define the following
    /// properties at the same time: security_groups, networks/port.`
    ///
    /// ## Example
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       image: cirros
    ///       flavor: m1.small
    ///       security_groups: [web]
    ///       networks:
    ///         - port: {get_resource: port}
    ///   port:
    ///     type: OS::Neutron::Port
    ///     properties:
    ///       network: private
    /// ```
    ///
    /// Use instead: the port's own security groups.
    /// ```yaml
    /// heat_template_version: 2016-10-14
    /// resources:
    ///   server:
    ///     type: OS::Nova::Server
    ///     properties:
    ///       image: cirros
    ///       flavor: m1.small
    ///       networks:
    ///         - port: {get_resource: port}
    ///   port:
    ///     type: OS::Neutron::Port
    ///     properties:
    ///       network: private
    ///       security_groups: [web]
    /// ```
    pub(crate) static RULE = {
        code: "H619",
        name: "conflicting-properties",
        severity: Error,
        fix: None,
        check: check,
    };
}

fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    if cx.version().is_none() {
        return;
    }
    for Registered {
        resource,
        type_node,
        type_name,
        schema,
        ..
    } in validated_resources(cx)
    {
        let checks = plugin_checks::for_type(type_name);
        let replaces: Vec<&TranslationRule> = schema
            .translation
            .iter()
            .filter(|r| r.rule == RuleKind::Replace && r.custom_value_path.is_none())
            .collect();
        if (checks.is_empty() && replaces.is_empty())
            || schema.none_resource
            // Heat adopts such a resource (`validate_external`) instead of validating it.
            || cx.template.field(resource, "external_id").is_some()
        {
            continue;
        }
        let Some(top) = properties_map(cx, resource, type_node, schema) else {
            continue;
        };
        let found = Found {
            type_name,
            resource: &resource.name,
        };
        for rule in &replaces {
            top.translation_conflict(sink, &found, rule);
        }
        for check in checks {
            match check.scope {
                Scope::Properties => top.check(sink, &found, check),
                Scope::EachItem(list) => {
                    for item in top.items(list).unwrap_or_default() {
                        item.check(sink, &found, check);
                    }
                }
                Scope::Map(name) => {
                    if let Some(map) = top.map(name) {
                        map.check(sink, &found, check);
                    }
                }
            }
        }
    }
}

/// The resource's `properties` as a mapping Heat reads values from; `None` when they are a
/// call (or not a mapping, another finding).
fn properties_map<'a, 'c>(
    cx: &'a Context<'c>,
    resource: &Named,
    type_node: NodeId,
    schema: &'static ResourceType,
) -> Option<Map<'a, 'c>> {
    let (node, anchor) = match cx.template.field(resource, "properties") {
        None => (None, type_node),
        Some(properties) => {
            if call_at(cx, properties).is_some() {
                return None;
            }
            let resolved = cx.doc.resolve(properties);
            let key = cx
                .doc
                .get_key(resource.value, "properties")
                .unwrap_or(type_node);
            match &cx.doc.node(resolved).kind {
                NodeKind::Mapping { .. } => (Some(resolved), key),
                NodeKind::Scalar(_) if matches!(py::load(cx.doc, resolved), Some(Value::None)) => {
                    (None, key)
                }
                // Anything else is `invalid-resource-field-type`'s.
                _ => return None,
            }
        }
    };
    Some(Map {
        cx,
        rules: &schema.translation,
        schema: &schema.properties,
        node,
        path: Vec::new(),
        anchor,
        other_names_none: false,
    })
}

/// The resource a finding is about.
struct Found<'a> {
    type_name: &'a str,
    resource: &'a str,
}

/// A mapping Heat reads property values from: the resource's `properties`, an item of a list
/// of maps, or a map property.
struct Map<'a, 'c> {
    cx: &'a Context<'c>,
    rules: &'static [TranslationRule],
    schema: &'static BTreeMap<String, Schema>,
    /// The mapping as written (`None`: empty, or not written).
    node: Option<NodeId>,
    /// The property names from `properties` to this mapping (for translation rules).
    path: Vec<&'static str>,
    /// Where a finding goes when none of its properties is written.
    anchor: NodeId,
    /// Whether a name that is not a property reads as `None` (Heat's `Properties.get`), rather
    /// than as not known.
    other_names_none: bool,
}

/// A value read as a number.
enum Number {
    /// Python's `None`.
    None,
    Is(Num),
}

/// What an Add translation rule adds.
enum Added {
    /// Heat makes no such rule: the property it reads is false.
    Nothing,
    Items(Vec<Value>),
}

/// What Heat reads for a property.
#[derive(Clone, Debug)]
enum Read {
    /// The value, converted to the property's type (`None` when there is none).
    Value(Value),
    /// Some value that is not `None` (a function's result), and whether it is true if known.
    Given(Option<bool>),
    /// Not known.
    Unknown,
}

impl<'a, 'c> Map<'a, 'c> {
    /// Reports `check` when its condition certainly holds here.
    fn check(&self, sink: &mut Sink<'_>, found: &Found<'_>, check: &Check) {
        if self.eval(&check.when) != Some(true) {
            return;
        }
        let at = self.first_written(&check.when).unwrap_or(self.anchor);
        let (quote, unordered) = self.render(&check.says.heat_text(), found, &check.when);
        let heat = if unordered {
            format!(
                "Heat refuses the stack when it creates it: `{quote}` (with the keys in any order)"
            )
        } else {
            format!("Heat refuses the stack when it creates it: `{quote}`")
        };
        let names = |names: &[&str]| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let type_name = found.type_name;
        let (message, help) = match &check.says {
            Says::Conflict([a, b]) => (
                format!("`{a}` and `{b}` exclude each other in {type_name}"),
                format!("keep one of them; {heat}"),
            ),
            Says::Conflict(all) => (
                format!("only one of {} may be given in {type_name}", names(all)),
                format!("keep one of them; {heat}"),
            ),
            Says::Dependency(a, b) => (
                format!("`{a}` needs `{b}` in {type_name}"),
                format!("give `{b}`, or remove `{a}`; {heat}"),
            ),
            Says::ValueDependency(a, b, value) => (
                format!("`{a}` is only for `{b}: {value}` in {type_name}"),
                format!("remove `{a}`, or set `{b}` to `{value}`; {heat}"),
            ),
            Says::Unspecified(all) => (
                format!("{type_name} needs one of {}", names(all)),
                format!("give one of them; {heat}"),
            ),
            Says::Text { what, .. } => (format!("{what} ({type_name})"), heat),
        };
        sink.report(self.cx.span(at), message).help(help);
    }

    /// A property given both under its name and under the name a translation rule reads as it
    /// (Heat's `Translation.replace`): both true.
    fn translation_conflict(
        &self,
        sink: &mut Sink<'_>,
        found: &Found<'_>,
        rule: &'static TranslationRule,
    ) {
        match rule.path.as_slice() {
            [target] => {
                let source = match (&rule.value_name, rule.value_path.as_deref()) {
                    (Some(name), None) | (None, Some([name])) => name.as_str(),
                    _ => return,
                };
                self.both_given(sink, found, target, source, target, source);
            }
            [list, target] => {
                let Some(source) = &rule.value_name else {
                    return;
                };
                for item in self.items(list).unwrap_or_default() {
                    item.both_given(
                        sink,
                        found,
                        target,
                        source,
                        &format!("{list}.{target}"),
                        &format!("{list}.{source}"),
                    );
                }
            }
            _ => {}
        }
    }

    fn both_given(
        &self,
        sink: &mut Sink<'_>,
        found: &Found<'_>,
        target: &str,
        source: &str,
        target_label: &str,
        source_label: &str,
    ) {
        let (Some((_, target_node)), Some((source_key, source_node)), Some(schema)) = (
            self.entry(target),
            self.entry(source),
            self.schema.get(target),
        ) else {
            return;
        };
        let truthy = |node| truthy(schema, &self.read_node(schema, node));
        if truthy(target_node) != Some(true) || truthy(source_node) != Some(true) {
            return;
        }
        sink.report(
            self.cx.span(source_key),
            format!(
                "`{target}` and `{source}` exclude each other in {}",
                found.type_name
            ),
        )
        .help(format!(
            "keep `{target}` (Heat reads `{source}` as it); Heat refuses the stack when it \
             creates it: `Cannot define the following properties at the same time: \
             {target_label}, {source_label}`"
        ));
    }

    /// Whether the term holds: `None` when that is not known.
    fn eval(&self, term: &Term) -> Option<bool> {
        match term {
            Term::Given(name) => given(&self.read(name)),
            Term::Absent(name) => given(&self.read(name)).map(|g| !g),
            Term::Truthy(name) => self.truthy(name),
            Term::Falsy(name) => self.truthy(name).map(|t| !t),
            Term::Is(name, lits) => self.is(name, lits),
            Term::IsNot(name, lits) => self.is(name, lits).map(|is| !is),
            Term::Differ(a, b) => match (self.read(a), self.read(b)) {
                (Read::Value(a), Read::Value(b)) => Some(!a.py_eq(&b)),
                _ => None,
            },
            // Heat compares numbers only (`None` is guarded before, or is not greater).
            Term::Greater(a, b) => match (self.number(a)?, self.number(b)?) {
                (Number::Is(a), Number::Is(b)) => {
                    Some(a.cmp_num(b)? == std::cmp::Ordering::Greater)
                }
                _ => Some(false),
            },
            Term::Above(name, limit) => match self.number(name)? {
                Number::Is(n) => {
                    Some(n.cmp_num(Num::Int(i128::from(*limit)))? == std::cmp::Ordering::Greater)
                }
                Number::None => Some(false),
            },
            Term::LongerThan(name, n) => match self.read(name) {
                Read::Value(Value::List(items)) => Some(items.len() > *n),
                Read::Value(Value::None) => Some(false),
                _ => None,
            },
            Term::All(terms) => all(terms.iter().map(|t| self.eval(t))),
            Term::Any(terms) => all(terms.iter().map(|t| self.eval(t).map(|b| !b))).map(|b| !b),
            Term::Not(term) => self.eval(term).map(|b| !b),
            Term::Count { of, min, max } => {
                let (mut yes, mut unknown) = (0, 0);
                for term in *of {
                    match self.eval(term) {
                        Some(true) => yes += 1,
                        Some(false) => {}
                        None => unknown += 1,
                    }
                }
                if yes >= *min && yes + unknown <= *max {
                    Some(true)
                } else if yes + unknown < *min || yes > *max {
                    Some(false)
                } else {
                    None
                }
            }
            Term::InAnyItem(list, term) => {
                let items = self.items(list)?;
                all(items.iter().map(|item| item.eval(term).map(|b| !b))).map(|b| !b)
            }
            Term::InReferenced { by, term } => self.referenced(by)?.eval(term),
            Term::ReservedKey { map, also } => {
                let keys = self.reserved_keys(map, also)?;
                Some(!keys.is_empty())
            }
            Term::SumAbove { lists, limit } => {
                let mut total: i128 = 0;
                for (list, key) in *lists {
                    total = total.checked_add(self.sum(list, key)?)?;
                }
                match self.read(limit) {
                    Read::Value(limit @ (Value::Int(_) | Value::BigInt(_))) => {
                        limit.as_i128().map(|limit| total > limit)
                    }
                    _ => None,
                }
            }
        }
    }

    /// The name's value as Heat reads it here: through the translation rules, else the written
    /// value, else the default.
    fn read(&self, name: &str) -> Read {
        let Some(schema) = self.schema.get(name) else {
            return if self.other_names_none {
                Read::Value(Value::None)
            } else {
                Read::Unknown
            };
        };
        let here = |path: &[String]| {
            path.len() == self.path.len() + 1
                && path.iter().zip(&self.path).all(|(a, b)| a == b)
                && path[self.path.len()] == name
        };
        for rule in self.rules {
            let source = self.source(rule);
            match rule.rule {
                // Heat reads a dropped name, or one moved into another, as `None` (or its default).
                RuleKind::Delete if here(&rule.path) => return Read::Unknown,
                RuleKind::Replace if source == Some(name) => return Read::Unknown,
                RuleKind::Replace if here(&rule.path) => {
                    let Some(source) = source else {
                        return Read::Unknown;
                    };
                    if let Some(read) = self.replaced(rule, name, source, schema) {
                        return read;
                    }
                }
                RuleKind::Add if here(&rule.path) => match self.added(rule) {
                    Some(Added::Items(added)) => {
                        let mut items = match self.entry(name) {
                            None => Vec::new(),
                            Some((_, node)) => match self.read_node(schema, node) {
                                Read::Value(Value::List(items)) => items,
                                Read::Value(Value::None) => Vec::new(),
                                Read::Given(_) => return Read::Given(Some(true)),
                                _ => return Read::Unknown,
                            },
                        };
                        items.extend(added);
                        return Read::Value(Value::List(items));
                    }
                    Some(Added::Nothing) => {}
                    None => return Read::Unknown,
                },
                _ => {}
            }
        }
        self.plain(name, schema)
    }

    /// What Heat reads for `name`, which a Replace rule fills from `source` (Heat's
    /// `Translation.replace`), when `source` is written: the source's value unless it is
    /// `None`, else the property's own. `None` when `source` is not written.
    fn replaced(
        &self,
        rule: &TranslationRule,
        name: &str,
        source: &str,
        schema: &Schema,
    ) -> Option<Read> {
        let (_, node) = self.entry(source)?;
        let null = |node| matches!(py::load(self.cx.doc, node), Some(Value::None));
        let moved = if rule.value_path.is_some() {
            // A property's value, converted.
            self.read_node(schema, node)
        } else if null(node) {
            // A sibling's value as resolved: a null stays `None`.
            Read::Value(Value::None)
        } else {
            match self.read_node(schema, node) {
                // A function may give `None` (`get_attr` does, before the resource exists).
                Read::Given(Some(true)) => Read::Given(Some(true)),
                Read::Given(_) | Read::Unknown => return Some(Read::Unknown),
                read @ Read::Value(_) => read,
            }
        };
        let Some((_, own)) = self.entry(name) else {
            return Some(match given(&moved) {
                Some(true) => moved,
                Some(false) => default_read(schema),
                None => Read::Unknown,
            });
        };
        let own_read = self.read_node(schema, own);
        let own_truthy = if null(own) {
            Some(false)
        } else {
            truthy(schema, &own_read)
        };
        Some(match (own_truthy, truthy(schema, &moved)) {
            // Both true: the translation conflict, reported on its own.
            (Some(true), Some(true)) | (None, _) | (_, None) => Read::Unknown,
            _ if given(&moved) == Some(true) => moved,
            _ => own_read,
        })
    }

    /// The name's written value, or its default; no translation.
    fn plain(&self, name: &str, schema: &Schema) -> Read {
        match self.entry(name) {
            Some((_, node)) => self.read_node(schema, node),
            None => default_read(schema),
        }
    }

    /// What Heat reads for a written value.
    fn read_node(&self, schema: &Schema, node: NodeId) -> Read {
        if let Some(call) = call_at(self.cx, node) {
            return match call.status {
                // A macro: the property may vanish.
                CallStatus::Active(Function::If) => Read::Unknown,
                CallStatus::Active(Function::GetResource)
                    if schema.kind == PropertyType::String =>
                {
                    Read::Given(Some(true))
                }
                CallStatus::Active(_) if schema.kind != PropertyType::Any => Read::Given(None),
                _ => Read::Unknown,
            };
        }
        if self.holds_if(node, 0) {
            return Read::Unknown;
        }
        converted(self.cx, schema, node).map_or(Read::Unknown, Read::Value)
    }

    /// Whether truthy: `None` when not known.
    fn truthy(&self, name: &str) -> Option<bool> {
        match self.schema.get(name) {
            Some(schema) => truthy(schema, &self.read(name)),
            None => self.other_names_none.then_some(false),
        }
    }

    fn is(&self, name: &str, lits: &[Lit]) -> Option<bool> {
        match self.read(name) {
            Read::Value(value) => Some(lits.iter().any(|lit| {
                value.py_eq(&match lit {
                    Lit::Str(s) => Value::Str((*s).to_owned()),
                    Lit::Int(n) => Value::Int(*n),
                })
            })),
            _ => None,
        }
    }

    /// The value as a number, or `None` (Python's); not known: `None`.
    fn number(&self, name: &str) -> Option<Number> {
        match self.read(name) {
            Read::Value(Value::None) => Some(Number::None),
            Read::Value(value @ (Value::Int(_) | Value::BigInt(_) | Value::Float(_))) => {
                value.as_num().map(Number::Is)
            }
            _ => None,
        }
    }

    /// The source of a Replace rule in this mapping: its `value_name`, or its `value_path`
    /// when that is a name of this mapping.
    fn source(&self, rule: &'static TranslationRule) -> Option<&'static str> {
        if rule.rule != RuleKind::Replace || rule.custom_value_path.is_some() {
            return None;
        }
        let parent = rule.path.len().checked_sub(1)?;
        if parent != self.path.len()
            || rule.path[..parent]
                .iter()
                .zip(&self.path)
                .any(|(a, b)| a != b)
        {
            return None;
        }
        match (&rule.value_name, &rule.value_path) {
            (Some(name), None) => Some(name.as_str()),
            (None, Some(path))
                if path.len() == parent + 1
                    && path[..parent].iter().zip(&self.path).all(|(a, b)| a == b) =>
            {
                Some(path[parent].as_str())
            }
            _ => None,
        }
    }

    /// The items an Add rule appends; `None` when that is not known.
    fn added(&self, rule: &'static TranslationRule) -> Option<Added> {
        let Some(Json::Array(values)) = &rule.value else {
            return None;
        };
        let mut sources = Vec::new();
        for value in values {
            property_refs(value, &mut sources);
        }
        let mut reads = BTreeMap::new();
        for source in sources {
            // Heat makes the rule from the property's own value, before translating.
            let read = self.plain(source, self.schema.get(source)?);
            if !truthy(self.schema.get(source)?, &read)? {
                return Some(Added::Nothing);
            }
            reads.insert(source, read);
        }
        Some(Added::Items(
            values.iter().map(|v| substitute(v, &reads)).collect(),
        ))
    }

    /// The properties of the resource that `name` refers to with `{get_resource: NAME}` (Heat's
    /// `Stack.resource_by_refid` before a create), where a name that is not a property of its
    /// type reads as `None`. `None` when not known (another value, a type Heat does not
    /// register, properties given by a call).
    fn referenced(&self, name: &str) -> Option<Map<'a, 'c>> {
        let (_, node) = self.entry(name)?;
        let call = call_at(self.cx, node)?;
        if call.status != CallStatus::Active(Function::GetResource) {
            return None;
        }
        let target = self.cx.doc.str_value(call.args)?;
        let resource = self
            .cx
            .template
            .resources
            .iter()
            .find(|r| r.name == target)?;
        let registered =
            registered(self.cx, resource).filter(|r| !is_external(self.cx, r.resource))?;
        let mut map = properties_map(self.cx, resource, registered.type_node, registered.schema)?;
        map.other_names_none = true;
        Some(map)
    }

    /// The keys of the map property `name` that are properties of this mapping or in `also`
    /// (in Heat's `NeutronResource.validate_properties`), in the order written; `None` when not
    /// known (the map is a call, or such a key's value is an `if`, which may drop it).
    fn reserved_keys(&self, name: &str, also: &[&str]) -> Option<Vec<String>> {
        let (_, node) = self.entry(name)?;
        if call_at(self.cx, node).is_some() {
            return None;
        }
        let doc = self.cx.doc;
        let node = doc.resolve(node);
        if !matches!(doc.node(node).kind, NodeKind::Mapping { .. }) {
            return Some(Vec::new());
        }
        let mut found = Vec::new();
        for entry in doc.entries(node) {
            let key = hotfix_hot::key_name(doc, entry.key);
            if self.schema.contains_key(&key) || also.contains(&key.as_str()) {
                if self.holds_if(entry.value, 0) {
                    return None;
                }
                found.push(key);
            }
        }
        Some(found)
    }

    /// The sum of `key` over the items of the list `name`, with the key's default where an
    /// item has none, and the items a translation rule adds (`None` when not known).
    fn sum(&self, name: &'static str, key: &str) -> Option<i128> {
        let schema = self.schema.get(name)?;
        let item_schema = schema.items.as_ref()?;
        let key_schema = item_schema.schema.get(key)?;
        let default = match key_schema.default.as_ref().map(Value::from_json) {
            Some(value @ (Value::Int(_) | Value::BigInt(_))) => value.as_i128()?,
            None => 0,
            Some(_) => return None,
        };
        let mut total: i128 = 0;
        let mut add = |value: Option<Value>| -> Option<()> {
            let n = match value {
                None | Some(Value::None) => default,
                Some(value @ (Value::Int(_) | Value::BigInt(_))) => value.as_i128()?,
                Some(_) => return None,
            };
            total = total.checked_add(n)?;
            Some(())
        };
        let mut added = Vec::new();
        for rule in self.rules {
            if rule.rule == RuleKind::Add
                && rule.path == [name]
                && let Added::Items(items) = self.added(rule)?
            {
                added.extend(items);
            }
        }
        match self.entry(name) {
            Some(_) => {
                for item in self.items(name)? {
                    let value = match item.entry(key) {
                        Some((_, node)) => Some(converted(self.cx, key_schema, node)?),
                        None => None,
                    };
                    add(value)?;
                }
            }
            None if added.is_empty() => {
                if let Some(Value::List(items)) = schema.default.as_ref().map(Value::from_json) {
                    for item in items {
                        add(dict_get(&item, key))?;
                    }
                }
            }
            None => {}
        }
        for item in added {
            add(dict_get(&item, key))?;
        }
        Some(total)
    }

    /// The items of the list of maps `name` as mappings; `None` when they are not known (a
    /// call, an item that is a call).
    fn items(&self, name: &'static str) -> Option<Vec<Map<'a, 'c>>> {
        let schema = self.schema.get(name)?;
        let item_schema = schema.items.as_ref()?;
        let Some((key, node)) = self.entry(name) else {
            return Some(Vec::new());
        };
        if call_at(self.cx, node).is_some() {
            return None;
        }
        let doc = self.cx.doc;
        let node = doc.resolve(node);
        let NodeKind::Sequence { items, .. } = &doc.node(node).kind else {
            // A null is no items; anything else is another finding.
            return matches!(py::load(doc, node), Some(Value::None)).then(Vec::new);
        };
        let mut path = self.path.clone();
        path.push(name);
        items
            .iter()
            .map(|&item| {
                if call_at(self.cx, item).is_some() {
                    return None;
                }
                let resolved = doc.resolve(item);
                let node = match &doc.node(resolved).kind {
                    NodeKind::Mapping { .. } => Some(resolved),
                    _ if matches!(py::load(doc, resolved), Some(Value::None)) => None,
                    _ => return None,
                };
                Some(Map {
                    cx: self.cx,
                    rules: self.rules,
                    schema: &item_schema.schema,
                    node,
                    path: path.clone(),
                    anchor: if node.is_some() { item } else { key },
                    other_names_none: false,
                })
            })
            .collect()
    }

    /// The map property `name`, when it is written as a mapping.
    fn map(&self, name: &'static str) -> Option<Map<'a, 'c>> {
        let schema = self.schema.get(name)?;
        let (key, node) = self.entry(name)?;
        if call_at(self.cx, node).is_some() {
            return None;
        }
        let node = self.cx.doc.resolve(node);
        matches!(self.cx.doc.node(node).kind, NodeKind::Mapping { .. }).then(|| {
            let mut path = self.path.clone();
            path.push(name);
            Map {
                cx: self.cx,
                rules: self.rules,
                schema: &schema.schema,
                node: Some(node),
                path,
                anchor: key,
                other_names_none: false,
            }
        })
    }

    /// The written key and value of `name`.
    fn entry(&self, name: &str) -> Option<(NodeId, NodeId)> {
        let doc = self.cx.doc;
        doc.entries(self.node?)
            .into_iter()
            .find(|e| doc.str_value(e.key) == Some(name))
            .map(|e| (e.key, e.value))
    }

    /// Where a finding goes: the key of the first name the term reads that is written in this
    /// mapping itself (not merged into it), else in a merged one, else `None`.
    fn first_written(&self, term: &Term) -> Option<NodeId> {
        let mut keys = Vec::new();
        self.written_keys(term, &mut keys);
        let own = self.node.map(|n| self.cx.span(n));
        keys.iter()
            .find(|&&k| own.is_some_and(|own| own.range().contains(&self.cx.span(k).range().start)))
            .or_else(|| keys.first())
            .copied()
    }

    /// The keys of the names the term reads that are written here (under their own name or a
    /// name Heat reads as them), in the term's order.
    fn written_keys(&self, term: &Term, out: &mut Vec<NodeId>) {
        let mut name = |name: &str| {
            let sources = self.rules.iter().filter_map(|rule| {
                let parent = rule.path.len().checked_sub(1)?;
                (rule.path[parent] == name).then(|| self.source(rule))?
            });
            out.extend(
                std::iter::once(name)
                    .chain(sources)
                    .filter_map(|n| self.entry(n).map(|(k, _)| k)),
            );
        };
        match term {
            Term::Given(n)
            | Term::Absent(n)
            | Term::Truthy(n)
            | Term::Falsy(n)
            | Term::Is(n, _)
            | Term::IsNot(n, _)
            | Term::Above(n, _)
            | Term::LongerThan(n, _)
            | Term::InAnyItem(n, _) => name(n),
            Term::Differ(a, b) | Term::Greater(a, b) => {
                name(a);
                name(b);
            }
            Term::ReservedKey { map, .. } | Term::InReferenced { by: map, .. } => name(map),
            Term::SumAbove { lists, limit } => {
                name(limit);
                for (list, _) in *lists {
                    name(list);
                }
            }
            Term::All(terms) | Term::Any(terms) | Term::Count { of: terms, .. } => {
                for t in *terms {
                    self.written_keys(t, out);
                }
            }
            Term::Not(term) => self.written_keys(term, out),
        }
    }

    /// Heat's text with its placeholders filled (`…` where a value is not known), and whether
    /// it lists names that Heat lists in no fixed order.
    fn render(&self, text: &str, found: &Found<'_>, when: &Term) -> (String, bool) {
        let mut unordered = false;
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find('{') {
            out.push_str(&rest[..start]);
            let Some(end) = rest[start..].find('}') else {
                break;
            };
            let field = &rest[start + 1..start + end];
            rest = &rest[start + end + 1..];
            let value = if field == "resource" {
                Some(found.resource.to_owned())
            } else if let Some(name) = field.strip_prefix("value:") {
                match self.read(name) {
                    Read::Value(value) => Some(value.py_str()),
                    _ => None,
                }
            } else if let Some(name) = field.strip_prefix("ref:") {
                self.entry(name)
                    .and_then(|(_, node)| call_at(self.cx, node))
                    .filter(|call| call.status == CallStatus::Active(Function::GetResource))
                    .and_then(|call| self.cx.doc.str_value(call.args))
                    .map(str::to_owned)
            } else if let Some(map) = field.strip_prefix("reserved:") {
                let also = match when {
                    Term::ReservedKey { also, .. } => also,
                    _ => &[][..],
                };
                self.reserved_keys(map, also).map(|keys| {
                    // Heat lists several from a set, in no fixed order.
                    unordered |= keys.len() > 1;
                    keys.join(", ")
                })
            } else if let Some(names) = field.strip_prefix("truthy:") {
                names
                    .split(',')
                    .map(|name| Some(self.truthy(name)?.then(|| py::str_repr(name))))
                    .collect::<Option<Vec<_>>>()
                    .map(|names| {
                        format!(
                            "[{}]",
                            names.into_iter().flatten().collect::<Vec<_>>().join(", ")
                        )
                    })
            } else {
                None
            };
            out.push_str(value.as_deref().unwrap_or("…"));
        }
        out.push_str(rest);
        (out, unordered)
    }

    /// Whether an `if` is anywhere in the value (bounded), which may drop parts of it.
    fn holds_if(&self, node: NodeId, depth: usize) -> bool {
        if depth > 32 {
            return true;
        }
        let doc = self.cx.doc;
        if let Some(call) = call_at(self.cx, node) {
            return call.status == CallStatus::Active(Function::If);
        }
        let node = doc.resolve(node);
        match &doc.node(node).kind {
            NodeKind::Sequence { items, .. } => items.iter().any(|&i| self.holds_if(i, depth + 1)),
            NodeKind::Mapping { .. } => doc
                .entries(node)
                .iter()
                .any(|e| self.holds_if(e.value, depth + 1)),
            _ => false,
        }
    }
}

/// What Heat reads for a property not written: its default, or `None`.
fn default_read(schema: &Schema) -> Read {
    Read::Value(
        schema
            .default
            .as_ref()
            .map_or(Value::None, Value::from_json),
    )
}

/// Whether the read is not `None`.
fn given(read: &Read) -> Option<bool> {
    match read {
        Read::Value(value) => Some(!matches!(value, Value::None)),
        Read::Given(_) => Some(true),
        Read::Unknown => None,
    }
}

/// Whether the read is true in Python. A map with a schema of keys is never empty: Heat fills
/// every key.
fn truthy(schema: &Schema, read: &Read) -> Option<bool> {
    match read {
        Read::Value(Value::Map(_)) if !schema.schema.is_empty() => Some(true),
        Read::Value(value) => Some(value.truthy()),
        Read::Given(truthy) => *truthy,
        Read::Unknown => None,
    }
}

/// Three-valued `and`.
fn all(values: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut unknown = false;
    for value in values {
        match value {
            Some(false) => return Some(false),
            None => unknown = true,
            Some(true) => {}
        }
    }
    (!unknown).then_some(true)
}

/// The names a translation rule's value reads (`{"property": [name]}`).
fn property_refs(value: &'static Json, out: &mut Vec<&'static str>) {
    match value {
        Json::Object(map) => match (map.len(), map.get("property")) {
            (1, Some(Json::Array(path))) => {
                if let [Json::String(name)] = path.as_slice() {
                    out.push(name);
                }
            }
            _ => map.values().for_each(|v| property_refs(v, out)),
        },
        Json::Array(items) => items.iter().for_each(|v| property_refs(v, out)),
        _ => {}
    }
}

/// A translation rule's value with the values it reads. A value that is not known (a
/// function's) stands as an opaque true value: only counts and truthiness are read from it.
fn substitute(value: &Json, reads: &BTreeMap<&str, Read>) -> Value {
    match value {
        Json::Object(map) => {
            if let (1, Some(Json::Array(path))) = (map.len(), map.get("property"))
                && let [Json::String(name)] = path.as_slice()
            {
                return match reads.get(name.as_str()) {
                    Some(Read::Value(value)) => value.clone(),
                    _ => Value::Bytes,
                };
            }
            Value::Map(
                map.iter()
                    .map(|(k, v)| (Value::Str(k.clone()), substitute(v, reads)))
                    .collect(),
            )
        }
        Json::Array(items) => Value::List(items.iter().map(|v| substitute(v, reads)).collect()),
        other => Value::from_json(other),
    }
}

fn dict_get(item: &Value, key: &str) -> Option<Value> {
    match item {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| matches!(k, Value::Str(s) if s == key))
            .map(|(_, v)| v.clone()),
        _ => None,
    }
}
