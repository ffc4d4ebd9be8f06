//! The answers to the editor's requests: diagnostics, code actions, navigation, the outline,
//! hover and completion.

use std::collections::HashMap;
use std::fmt::Write as _;

use hotfix_diagnostics::{Applicability, Diagnostic, Edit, Severity};
use hotfix_hot::resource_types::{self, ResourceType, Schema};
use hotfix_hot::{Function, Semantic, Version};
use hotfix_linter::upgrade::{UpgradeOptions, UpgradeStatus, VersionStyle};
use hotfix_yaml::{NodeKind, SourceFormat};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeDescription,
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse,
    DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, DocumentSymbol,
    DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse,
    Hover, HoverContents, HoverParams, Location, MarkupContent, MarkupKind, NumberOrString,
    Position, PrepareRenameResponse, Range, ReferenceParams, RenameParams, SymbolKind,
    TextDocumentPositionParams, TextEdit, Uri, WorkspaceEdit,
};

use crate::Server;
use crate::analysis::{Analysis, Target};
use crate::text::{Encoding, Lines};

/// The code action kind of "fix all the Safe fixes".
pub(crate) const FIX_ALL: &str = "source.fixAll.hotfix";
/// The code action kind of "upgrade this template".
pub(crate) const UPGRADE: &str = "source.upgrade.hotfix";

const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// hotfix's findings as the protocol's diagnostics.
pub(crate) fn to_lsp_diagnostics(
    uri: &Uri,
    text: &str,
    diagnostics: &[Diagnostic],
    encoding: Encoding,
) -> Vec<lsp_types::Diagnostic> {
    let lines = Lines::new(text);
    diagnostics
        .iter()
        .map(|d| to_lsp(uri, text, &lines, d, encoding))
        .collect()
}

fn to_lsp(
    uri: &Uri,
    text: &str,
    lines: &Lines,
    diagnostic: &Diagnostic,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let range = lines.range(text, diagnostic.span.start, diagnostic.span.end, encoding);
    let severity = match diagnostic.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    };
    let code_description = hotfix_linter::rule_by_code(diagnostic.code).and_then(|rule| {
        format!(
            "{REPOSITORY}/blob/main/{}",
            hotfix_linter::docs::rule_page_path(rule)
        )
        .parse()
        .ok()
        .map(|href| CodeDescription { href })
    });
    let mut tags = Vec::new();
    if diagnostic.name.starts_with("unused-") {
        tags.push(DiagnosticTag::UNNECESSARY);
    }
    if diagnostic.name.starts_with("deprecated-") || diagnostic.name.starts_with("removed-") {
        tags.push(DiagnosticTag::DEPRECATED);
    }
    let mut related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .map(|label| DiagnosticRelatedInformation {
            location: Location {
                uri: uri.clone(),
                range: lines.range(text, label.span.start, label.span.end, encoding),
            },
            message: label.message.clone(),
        })
        .collect();
    // Labels in other files: their paths are absolute, as the server names the linted file.
    for label in &diagnostic.file_labels {
        let Some(other) = crate::uri_of(std::path::Path::new(&*label.path)) else {
            continue;
        };
        let other_lines = Lines::new(&label.source);
        related.push(DiagnosticRelatedInformation {
            location: Location {
                uri: other,
                range: other_lines.range(&label.source, label.span.start, label.span.end, encoding),
            },
            message: label.message.clone(),
        });
    }
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        let _ = write!(message, "\nhelp: {help}");
    }
    lsp_types::Diagnostic {
        range,
        severity: Some(severity),
        code: Some(NumberOrString::String(diagnostic.code.to_owned())),
        code_description,
        source: Some("hotfix".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: (!tags.is_empty()).then_some(tags),
        data: None,
    }
}

fn overlaps(a: Range, b: Range) -> bool {
    let before = |x: Position, y: Position| (x.line, x.character) < (y.line, y.character);
    !before(a.end, b.start) && !before(b.end, a.start)
}

fn text_edits(text: &str, lines: &Lines, edits: &[Edit], encoding: Encoding) -> Vec<TextEdit> {
    edits
        .iter()
        .map(|e| TextEdit {
            range: lines.range(text, e.span.start, e.span.end, encoding),
            new_text: e.content.clone(),
        })
        .collect()
}

fn workspace_edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

/// The whole text replaced by `new`.
fn replace_all(
    uri: &Uri,
    text: &str,
    lines: &Lines,
    new: String,
    encoding: Encoding,
) -> WorkspaceEdit {
    workspace_edit(
        uri,
        vec![TextEdit {
            range: lines.range(text, 0, text.len(), encoding),
            new_text: new,
        }],
    )
}

impl Server<'_> {
    fn offset(&self, uri: &Uri, position: Position) -> Result<(usize, &str), String> {
        let doc = self.document(uri)?;
        let lines = Lines::new(&doc.text);
        Ok((lines.offset(&doc.text, position, self.encoding), &doc.text))
    }

    fn location(&self, uri: &Uri, text: &str, span: hotfix_yaml::Span) -> Location {
        let lines = Lines::new(text);
        Location {
            uri: uri.clone(),
            range: lines.range(text, span.start, span.end, self.encoding),
        }
    }

    pub(crate) fn code_actions(
        &mut self,
        params: &CodeActionParams,
    ) -> Result<Vec<CodeActionOrCommand>, String> {
        let uri = &params.text_document.uri;
        let Some((diagnostics, settings)) = self.lint(uri)? else {
            return Ok(Vec::new());
        };
        let text = self.document(uri)?.text.clone();
        let lines = Lines::new(&text);
        let wanted = |kind: &str| {
            params.context.only.as_ref().is_none_or(|only| {
                only.iter()
                    .any(|k| kind == k.as_str() || kind.starts_with(&format!("{}.", k.as_str())))
            })
        };
        let mut actions = Vec::new();
        let is_json = Analysis::new(&text).is_some_and(|a| a.doc.format() == SourceFormat::Json);
        for diagnostic in &diagnostics {
            let lsp = to_lsp(uri, &text, &lines, diagnostic, self.encoding);
            if !overlaps(lsp.range, params.range) {
                continue;
            }
            if wanted(CodeActionKind::QUICKFIX.as_str()) {
                if let Some(fix) = &diagnostic.fix
                    && fix.applicability != Applicability::DisplayOnly
                {
                    let unsafe_fix = fix.applicability == Applicability::Unsafe;
                    actions.push(CodeAction {
                        title: format!(
                            "{}{} ({})",
                            if unsafe_fix { "Unsafe fix: " } else { "Fix: " },
                            fix.message,
                            diagnostic.code
                        ),
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![lsp.clone()]),
                        edit: Some(workspace_edit(
                            uri,
                            text_edits(&text, &lines, &fix.edits, self.encoding),
                        )),
                        is_preferred: Some(!unsafe_fix),
                        ..CodeAction::default()
                    });
                }
                // Comments exist in YAML only.
                if !is_json {
                    actions.push(suppress(
                        uri,
                        &text,
                        &lines,
                        diagnostic,
                        &lsp,
                        self.encoding,
                        false,
                    ));
                    actions.push(suppress(
                        uri,
                        &text,
                        &lines,
                        diagnostic,
                        &lsp,
                        self.encoding,
                        true,
                    ));
                }
            }
        }
        if wanted(FIX_ALL) && diagnostics.iter().any(|d| d.fix.is_some()) {
            let path = crate::path_of(uri);
            if let Ok(outcome) =
                hotfix_linter::fix_file(&path.to_string_lossy(), &text, &settings, false)
                && outcome.text != text
            {
                actions.push(CodeAction {
                    title: format!("Fix all Safe fixes ({} applied)", outcome.applied.len()),
                    kind: Some(CodeActionKind::new(FIX_ALL)),
                    edit: Some(replace_all(uri, &text, &lines, outcome.text, self.encoding)),
                    ..CodeAction::default()
                });
            }
        }
        if wanted(UPGRADE) {
            actions.extend(upgrade_actions(uri, &text, &lines, self.encoding));
        }
        Ok(actions
            .into_iter()
            .map(CodeActionOrCommand::CodeAction)
            .collect())
    }

    pub(crate) fn definition(
        &mut self,
        params: &GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>, String> {
        let TextDocumentPositionParams {
            text_document,
            position,
        } = &params.text_document_position_params;
        let uri = &text_document.uri;
        let (offset, text) = self.offset(uri, *position)?;
        let Some(analysis) = Analysis::new(text) else {
            return Ok(None);
        };
        if let Some(target) = analysis.target_at(offset)
            && let Some(key) = analysis.definition(&target)
        {
            let span = analysis.doc.node(key).span;
            return Ok(Some(GotoDefinitionResponse::Scalar(
                self.location(uri, text, span),
            )));
        }
        // A file: a resource type or a `get_file` path, relative to this template.
        let Some(node) = analysis.scalar_at(offset) else {
            return Ok(None);
        };
        let Some(name) = analysis.doc.str_value(node) else {
            return Ok(None);
        };
        let template = analysis.template();
        let semantic = Semantic::new(&template);
        let is_type = template
            .resources
            .iter()
            .any(|r| template.field(r, "type") == Some(node));
        let is_file = semantic.calls.iter().any(|c| {
            c.status.function() == Function::GetFile && analysis.doc.resolve(c.args) == node
        });
        // An environment's `resource_registry` value that names a template file.
        let in_registry = analysis
            .doc
            .get(analysis.doc.root(), "resource_registry")
            .is_some_and(|registry| {
                let span = analysis.doc.node(registry).span;
                let here = analysis.doc.node(node).span;
                span.start <= here.start && here.end <= span.end
            })
            && [".yaml", ".yml", ".template"]
                .iter()
                .any(|suffix| name.ends_with(suffix));
        if !(is_type || is_file || in_registry) || name.contains("://") {
            return Ok(None);
        }
        let here = crate::path_of(uri);
        let file = here
            .parent()
            .unwrap_or(std::path::Path::new("/"))
            .join(name);
        if !file.is_file() {
            return Ok(None);
        }
        Ok(crate::uri_of(&file).map(|target| {
            GotoDefinitionResponse::Scalar(Location {
                uri: target,
                range: Range::default(),
            })
        }))
    }

    pub(crate) fn references(
        &mut self,
        params: &ReferenceParams,
    ) -> Result<Option<Vec<Location>>, String> {
        let uri = &params.text_document_position.text_document.uri;
        let (offset, text) = self.offset(uri, params.text_document_position.position)?;
        let Some(analysis) = Analysis::new(text) else {
            return Ok(None);
        };
        let Some(target) = analysis.target_at(offset) else {
            return Ok(None);
        };
        let include = params.context.include_declaration;
        Ok(Some(
            analysis
                .occurrences(&target)
                .into_iter()
                .filter(|o| include || !o.definition)
                .map(|o| self.location(uri, text, o.span))
                .collect(),
        ))
    }

    pub(crate) fn prepare_rename(
        &mut self,
        params: &TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>, String> {
        let uri = &params.text_document.uri;
        let (offset, text) = self.offset(uri, params.position)?;
        let Some(analysis) = Analysis::new(text) else {
            return Ok(None);
        };
        if analysis.target_at(offset).is_none() {
            return Ok(None);
        }
        let Some(node) = analysis.scalar_at(offset) else {
            return Ok(None);
        };
        let span = analysis.name_span(node);
        Ok(Some(PrepareRenameResponse::Range(
            self.location(uri, text, span).range,
        )))
    }

    pub(crate) fn rename(
        &mut self,
        params: &RenameParams,
    ) -> Result<Option<WorkspaceEdit>, String> {
        let uri = &params.text_document_position.text_document.uri;
        let (offset, text) = self.offset(uri, params.text_document_position.position)?;
        let new = &params.new_name;
        if new.is_empty()
            || !new
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        {
            return Err(format!(
                "`{new}` is not a name hotfix renames to: use letters, digits, `_`, `-` and `.`"
            ));
        }
        let Some(analysis) = Analysis::new(text) else {
            return Ok(None);
        };
        let Some(target) = analysis.target_at(offset) else {
            return Ok(None);
        };
        let lines = Lines::new(text);
        let edits = analysis
            .occurrences(&target)
            .into_iter()
            .map(|o| TextEdit {
                range: lines.range(text, o.span.start, o.span.end, self.encoding),
                new_text: new.clone(),
            })
            .collect();
        Ok(Some(workspace_edit(uri, edits)))
    }

    pub(crate) fn symbols(
        &mut self,
        params: &DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>, String> {
        let uri = &params.text_document.uri;
        let text = &self.document(uri)?.text;
        let Some(analysis) = Analysis::new(text) else {
            return Ok(None);
        };
        let template = analysis.template();
        let lines = Lines::new(text);
        let doc = &analysis.doc;
        let encoding = self.encoding;
        let symbol = |name: String, detail: Option<String>, kind, key, value, children| {
            let key_span = doc.node(key).span;
            let value_span = doc.node(value).span;
            #[allow(
                deprecated,
                reason = "the protocol's `deprecated` field must be written"
            )]
            DocumentSymbol {
                name,
                detail,
                kind,
                tags: None,
                deprecated: None,
                range: lines.range(
                    text,
                    key_span.start,
                    value_span.end.max(key_span.end),
                    encoding,
                ),
                selection_range: lines.range(text, key_span.start, key_span.end, encoding),
                children,
            }
        };
        let mut out = Vec::new();
        for section in &template.sections {
            let (list, kind) = match section.name.as_str() {
                "parameters" => (&template.parameters, SymbolKind::VARIABLE),
                "resources" => (&template.resources, SymbolKind::OBJECT),
                "outputs" => (&template.outputs, SymbolKind::PROPERTY),
                "conditions" => (&template.conditions, SymbolKind::BOOLEAN),
                _ => continue,
            };
            let children = list
                .iter()
                .map(|named| {
                    let detail = match section.name.as_str() {
                        "parameters" => template
                            .field(named, "type")
                            .and_then(|t| doc.str_value(t))
                            .map(str::to_owned),
                        "resources" => analysis.resource_type(named),
                        _ => None,
                    };
                    symbol(
                        named.name.clone(),
                        detail,
                        kind,
                        named.key,
                        named.value,
                        None,
                    )
                })
                .collect();
            out.push(symbol(
                section.name.clone(),
                None,
                SymbolKind::NAMESPACE,
                section.key,
                section.value,
                Some(children),
            ));
        }
        Ok(Some(DocumentSymbolResponse::Nested(out)))
    }

    pub(crate) fn hover(&mut self, params: &HoverParams) -> Result<Option<Hover>, String> {
        let TextDocumentPositionParams {
            text_document,
            position,
        } = &params.text_document_position_params;
        let uri = &text_document.uri;
        let (offset, text) = self.offset(uri, *position)?;
        // A rule code in a suppression comment.
        if let Some(markdown) = rule_in_comment(text, offset) {
            return Ok(Some(markdown_hover(markdown)));
        }
        let Some(analysis) = Analysis::new(text) else {
            return Ok(None);
        };
        let Some(node) = analysis.scalar_at(offset) else {
            return Ok(None);
        };
        let template = analysis.template();
        let version = analysis.version();
        let semantic = Semantic::new(&template);
        if let Some(call) = semantic.calls.iter().find(|c| c.key == node) {
            return Ok(Some(markdown_hover(function_hover(
                call.status.function(),
                version,
            ))));
        }
        if let Some(target) = analysis.target_at(offset) {
            let markdown = match &target {
                Target::Parameter(name) => template.parameter(name).map(|p| {
                    format!(
                        "parameter `{name}`\n\n```yaml\n{}\n```",
                        definition_text(&analysis, p.key, p.value)
                    )
                }),
                Target::Resource(name) => analysis.type_of(name).map(|t| {
                    let mut text = format!("resource `{name}`: `{t}`");
                    if let Some(schema) = resource_types::get(&t) {
                        text.push_str("\n\n");
                        text.push_str(&type_summary(&t, schema));
                    }
                    text
                }),
                Target::Condition(name) => template
                    .conditions
                    .iter()
                    .find(|c| &c.name == name)
                    .map(|c| {
                        format!(
                            "condition `{name}`\n\n```yaml\n{}\n```",
                            definition_text(&analysis, c.key, c.value)
                        )
                    }),
            };
            return Ok(markdown.map(markdown_hover));
        }
        if let Some(name) = analysis.doc.str_value(node)
            && let Some(schema) = resource_types::get(name)
            && template
                .resources
                .iter()
                .any(|r| template.field(r, "type") == Some(node))
        {
            return Ok(Some(markdown_hover(type_summary(name, schema))));
        }
        // A property name of a registered type.
        if let Some(resource) = analysis.resource_at(offset)
            && let Some(type_name) = analysis.resource_type(&resource)
            && let Some(schema) = resource_types::get(&type_name)
            && let Some(name) = analysis.doc.str_value(node)
            && let Some(property) = schema.properties.get(name)
        {
            return Ok(Some(markdown_hover(format!(
                "`{name}` of `{type_name}`\n\n{}",
                property_line(property)
            ))));
        }
        Ok(None)
    }

    pub(crate) fn completion(
        &mut self,
        params: &CompletionParams,
    ) -> Result<Option<CompletionResponse>, String> {
        let uri = &params.text_document_position.text_document.uri;
        let (offset, text) = self.offset(uri, params.text_document_position.position)?;
        let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let before = &text[line_start..offset];
        // A half-typed line may not load: analyse the text without it (the cursor then at the
        // start of the emptied line).
        let (analysis, at) = if let Some(analysis) = Analysis::new(text) {
            (Some(analysis), offset)
        } else {
            let line_end = text[offset..]
                .find(['\n', '\r'])
                .map_or(text.len(), |i| offset + i);
            let mut blanked = text.to_owned();
            blanked.replace_range(line_start..line_end, "");
            (Analysis::new(&blanked), line_start)
        };
        let Some(analysis) = analysis else {
            return Ok(None);
        };
        let template = analysis.template();
        let items = |names: Vec<(String, Option<String>)>, kind| {
            names
                .into_iter()
                .map(|(label, detail)| CompletionItem {
                    label,
                    detail,
                    kind: Some(kind),
                    ..CompletionItem::default()
                })
                .collect::<Vec<_>>()
        };
        let word_start = before
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '.')))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let head = before[..word_start].trim_end_matches(['"', '\'']);
        let context = head.trim_end();
        let after_key = |key: &str| {
            context.ends_with(&format!("{key}:")) || context.ends_with(&format!("{key}: ["))
        };
        let resources = || {
            template
                .resources
                .iter()
                .map(|r| (r.name.clone(), analysis.resource_type(r)))
                .collect::<Vec<_>>()
        };
        let list = if after_key("get_param") {
            items(
                template
                    .parameters
                    .iter()
                    .map(|p| {
                        let kind = template
                            .field(p, "type")
                            .and_then(|t| analysis.doc.str_value(t))
                            .map(str::to_owned);
                        (p.name.clone(), kind)
                    })
                    .collect(),
                CompletionItemKind::VARIABLE,
            )
        } else if after_key("get_resource") || after_key("depends_on") || after_key("get_attr") {
            items(resources(), CompletionItemKind::REFERENCE)
        } else if let Some(resource) = get_attr_resource(context) {
            let names = analysis
                .schema_of(resource)
                .map(|schema| {
                    schema
                        .attributes
                        .keys()
                        .map(|a| (a.clone(), None))
                        .collect()
                })
                .unwrap_or_default();
            items(names, CompletionItemKind::FIELD)
        } else if context.ends_with("type:") && analysis.resource_at(offset).is_some() {
            items(
                resource_types::all()
                    .iter()
                    .filter(|(_, t)| t.support_status.status != resource_types::Status::Hidden)
                    .map(|(n, _)| (n.to_owned(), None))
                    .collect(),
                CompletionItemKind::CLASS,
            )
        } else if context.is_empty() || context.ends_with('{') || context.ends_with(':') {
            key_completions(&analysis, at, before, context)
        } else {
            Vec::new()
        };
        Ok(Some(CompletionResponse::Array(list)))
    }
}

/// What may be written as a key: a property of the resource's type (in its `properties`), or
/// a function name of the template's version (after `{` or `key:`, or where no property fits).
fn key_completions(
    analysis: &Analysis,
    offset: usize,
    before: &str,
    context: &str,
) -> Vec<CompletionItem> {
    let template = analysis.template();
    let mut out = Vec::new();
    // On a line of its own after a resource's last key (`properties:` with nothing under it
    // yet), the cursor is past the resource's text: the resource is the one that text ends.
    let source = analysis.doc.source();
    let line_start = source
        .get(..offset)
        .map_or(0, |s| s.rfind('\n').map_or(0, |i| i + 1));
    let last = source
        .get(..line_start)
        .map(|s| s.trim_end().len().saturating_sub(1));
    let resource = analysis
        .resource_at(offset)
        .or_else(|| last.and_then(|at| analysis.resource_at(at)));
    if let Some(resource) = resource
        && let Some(type_name) = analysis.resource_type(&resource)
        && let Some(schema) = resource_types::get(&type_name)
        && in_properties(analysis, &resource, offset, before)
    {
        let given = template
            .field(&resource, "properties")
            .map(|p| analysis.doc.entries(p))
            .unwrap_or_default();
        for (name, property) in &schema.properties {
            let taken = given
                .iter()
                .any(|e| analysis.doc.str_value(e.key) == Some(name.as_str()));
            if !taken && property.implemented {
                out.push(CompletionItem {
                    label: name.clone(),
                    detail: Some(property_line(property)),
                    kind: Some(CompletionItemKind::PROPERTY),
                    ..CompletionItem::default()
                });
            }
        }
    }
    if (!context.is_empty() || out.is_empty())
        && let Some(version) = analysis.version()
    {
        for function in version.functions() {
            out.push(CompletionItem {
                label: function.name().to_owned(),
                detail: Some(function_summary(function).to_owned()),
                kind: Some(CompletionItemKind::FUNCTION),
                ..CompletionItem::default()
            });
        }
    }
    out
}

/// The resource named in `get_attr: [name, ` just before the cursor.
fn get_attr_resource(context: &str) -> Option<&str> {
    let at = context.rfind("get_attr:")?;
    let rest = context[at + "get_attr:".len()..].trim_start();
    let rest = rest.strip_prefix('[')?;
    let (name, after) = rest.split_once(',')?;
    after
        .trim()
        .is_empty()
        .then(|| name.trim().trim_matches(['"', '\'']))
}

/// Whether the cursor is in the `properties` mapping of a resource: after its `properties:`
/// key and indented deeper than it.
fn in_properties(
    analysis: &Analysis,
    resource: &hotfix_hot::Named,
    offset: usize,
    before: &str,
) -> bool {
    let doc = &analysis.doc;
    let Some(key) = doc.get_key(resource.value, "properties") else {
        return false;
    };
    let key_span = doc.node(key).span;
    if offset < key_span.end {
        return false;
    }
    let source = doc.source();
    let key_line_start = source[..key_span.start].rfind('\n').map_or(0, |i| i + 1);
    let key_indent = key_span.start - key_line_start;
    let indent = before.len() - before.trim_start().len();
    indent > key_indent
        && doc.get(resource.value, "properties").is_none_or(|p| {
            matches!(
                doc.node(p).kind,
                NodeKind::Mapping { .. } | NodeKind::Scalar(_)
            )
        })
}

fn markdown_hover(value: String) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: None,
    }
}

/// A definition's text as written (key and value), for a hover.
fn definition_text(
    analysis: &Analysis,
    key: hotfix_yaml::NodeId,
    value: hotfix_yaml::NodeId,
) -> String {
    let source = analysis.doc.source();
    let start = analysis.doc.node(key).span.start;
    let end = analysis.doc.node(value).span.end.max(start);
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = &source[line_start..start];
    let mut out = String::new();
    for (i, line) in source[start..end].lines().take(30).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line.strip_prefix(indent).unwrap_or(line));
    }
    out
}

/// One property's type, whether it is required, its default and constraints.
fn property_line(property: &Schema) -> String {
    let mut text = format!("{:?}", property.kind).to_lowercase();
    if property.required {
        text.push_str(", required");
    }
    if let Some(default) = &property.default {
        let _ = write!(text, ", default `{default}`");
    }
    if property.update_allowed {
        text.push_str(", updatable in place");
    }
    if property.immutable {
        text.push_str(", immutable");
    }
    for constraint in &property.constraints {
        let _ = write!(text, ", {constraint}");
    }
    if property.support_status.status != resource_types::Status::Supported {
        let _ = write!(text, " ({})", property.support_status);
    }
    text
}

/// A resource type's status, properties and attributes, for a hover.
fn type_summary(name: &str, schema: &ResourceType) -> String {
    let mut text = format!("**{name}**");
    if !schema.support_status.is_default() {
        let _ = write!(text, " ({})", schema.support_status);
    }
    text.push_str("\n\nProperties:\n");
    for (property, info) in &schema.properties {
        if info.implemented {
            let _ = writeln!(text, "- `{property}`: {}", property_line(info));
        }
    }
    if !schema.attributes.is_empty() {
        text.push_str("\nAttributes: ");
        let names: Vec<String> = schema.attributes.keys().map(|a| format!("`{a}`")).collect();
        text.push_str(&names.join(", "));
        text.push('\n');
    }
    text
}

/// A function's hover: what it does, and where the template's version stands with it.
fn function_hover(function: Function, version: Option<Version>) -> String {
    let mut text = format!("**{}**: {}", function.name(), function_summary(function));
    let since = if matches!(
        function,
        Function::Equals | Function::Not | Function::And | Function::Or
    ) {
        function.condition_since()
    } else {
        function.since()
    };
    if let Some(since) = since {
        let _ = write!(text, "\n\nSince `heat_template_version` {}", since.date());
    }
    if let Some(removed) = function.removed_in() {
        let _ = write!(
            text,
            "; removed in {} (an error there and after)",
            removed.date()
        );
    }
    if let Some(version) = version {
        let available = since.is_some_and(|s| version >= s)
            && function.removed_in().is_none_or(|r| version < r);
        let _ = write!(
            text,
            "\n\nThis template ({}): {}",
            version.date(),
            if available {
                "available"
            } else {
                "not available"
            }
        );
    }
    text
}

/// One line on what a function computes.
fn function_summary(function: Function) -> &'static str {
    match function {
        Function::GetParam => "the value of a parameter, or a path into it",
        Function::GetResource => "the reference id of a resource of this template",
        Function::GetFile => "the content of a file sent with the template",
        Function::ResourceFacade | Function::FnResourceFacade => {
            "a value of the parent stack's resource that this nested template implements"
        }
        Function::GetAttr => "an attribute of a resource, or a path into it",
        Function::ListJoin => "the strings of one or more lists joined with a delimiter",
        Function::StrReplace => "a template string with the keys of `params` replaced",
        Function::Repeat => "a template repeated for each item (or combination) of lists",
        Function::Digest => "the hex digest of a string with a hash algorithm",
        Function::StrSplit => "a string split on a delimiter, or one item of the result",
        Function::MapMerge => "maps merged, later keys winning",
        Function::Yaql => "the result of a YAQL expression over data",
        Function::MapReplace => "a map with keys and values renamed",
        Function::If => "one of two values, by a condition",
        Function::Filter => "a list without the given values",
        Function::StrReplaceStrict => "str_replace that fails when a key is not in the template",
        Function::MakeUrl => "a URL built from its parts, escaped as needed",
        Function::ListConcat => "lists joined into one",
        Function::ListConcatUnique => "lists joined into one, without repeated items",
        Function::StrReplaceVstrict => {
            "str_replace that fails when a key is missing or a value is empty"
        }
        Function::Contains => "whether a list or string holds a value (a condition)",
        Function::Equals => "whether two values are equal (a condition)",
        Function::Not => "the negation of a condition",
        Function::And => "whether every condition holds",
        Function::Or => "whether any condition holds",
        Function::FnSelect => "an item of a list or map (CloudFormation style)",
        Function::FnGetAzs => "the availability zones (CloudFormation style)",
        Function::FnJoin => "strings joined with a delimiter (CloudFormation style)",
        Function::FnSplit => "a string split on a delimiter (CloudFormation style)",
        Function::FnReplace => "a string with keys replaced (CloudFormation style)",
        Function::FnBase64 => "its argument unchanged (CloudFormation style)",
        Function::FnMemberListToMap => "a member list turned into a map (CloudFormation style)",
        Function::Ref => "a resource's reference id or a parameter's value (CloudFormation style)",
    }
}

/// The documentation of a rule whose code is under the cursor in a suppression comment.
fn rule_in_comment(text: &str, offset: usize) -> Option<String> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[line_start..line_end];
    let comment = line.find("hotfix: ignore")?;
    let at = offset - line_start;
    if at < comment {
        return None;
    }
    let start = line[..at]
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_ascii_alphanumeric() && c != '-')
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = line[at..]
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .map_or(line.len(), |i| at + i);
    let word = &line[start..end];
    let rule = hotfix_linter::rule_by_code(word).or_else(|| {
        hotfix_linter::all_rules()
            .iter()
            .copied()
            .find(|r| r.name == word)
    })?;
    Some(format!(
        "# {} `{}`\n\n{}",
        rule.code,
        rule.name,
        rule.documentation()
    ))
}

/// "Suppress CODE on this line" (a comment on the line above the finding, at its indentation)
/// or, with `whole_file`, "for this file" (a comment on the first line).
fn suppress(
    uri: &Uri,
    text: &str,
    lines: &Lines,
    diagnostic: &Diagnostic,
    lsp: &lsp_types::Diagnostic,
    encoding: Encoding,
    whole_file: bool,
) -> CodeAction {
    let code = diagnostic.code;
    let (at, comment, title) = if whole_file {
        // After a byte order mark, which must stay first.
        let at = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let comment = format!("# hotfix: ignore-file[{code}]\n");
        (at, comment, format!("Suppress {code} for this file"))
    } else {
        let start = lines.start(lsp.range.start.line as usize);
        let indent: String = text[start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        let comment = format!("{indent}# hotfix: ignore[{code}]\n");
        (start, comment, format!("Suppress {code} on this line"))
    };
    let position = lines.position(text, at, encoding);
    CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![lsp.clone()]),
        edit: Some(workspace_edit(
            uri,
            vec![TextEdit {
                range: Range::new(position, position),
                new_text: comment,
            }],
        )),
        ..CodeAction::default()
    }
}

/// "Upgrade this template to VERSION", for the next version and the latest, where the upgrade
/// goes through (Safe rewrites only).
fn upgrade_actions(uri: &Uri, text: &str, lines: &Lines, encoding: Encoding) -> Vec<CodeAction> {
    let Some(analysis) = Analysis::new(text) else {
        return Vec::new();
    };
    let hotfix_hot::VersionDecl::Valid { version, .. } = analysis.template().version else {
        return Vec::new();
    };
    let later: Vec<Version> = Version::ALL.into_iter().filter(|v| *v > version).collect();
    let mut targets: Vec<Version> = later.first().copied().into_iter().collect();
    if let Some(&last) = later.last()
        && !targets.contains(&last)
    {
        targets.push(last);
    }
    let mut out = Vec::new();
    for target in targets {
        let options = UpgradeOptions {
            target,
            unsafe_fixes: false,
            version_style: VersionStyle::Keep,
        };
        let Ok(upgrade) = hotfix_linter::upgrade::upgrade(text, &options) else {
            continue;
        };
        if matches!(upgrade.status, UpgradeStatus::Upgraded { .. }) && upgrade.text != text {
            let title = match target.name() {
                Some(name) => format!("Upgrade this template to {name} ({})", target.date()),
                None => format!("Upgrade this template to {}", target.date()),
            };
            out.push(CodeAction {
                title,
                kind: Some(CodeActionKind::new(UPGRADE)),
                edit: Some(replace_all(uri, text, lines, upgrade.text, encoding)),
                ..CodeAction::default()
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use hotfix_diagnostics::Span;

    use super::*;

    #[test]
    fn a_label_in_another_file_is_placed_in_that_files_text_and_encoding() {
        let text = "a: 1\n";
        let nested: Arc<str> = "# é𝄞\nparameters: {}\n".into();
        let at = nested.find("parameters").expect("the key");
        let mut diagnostic = Diagnostic::new("X003", "x", Severity::Error, "m", Span::new(0, 1));
        diagnostic.file_label(
            "/tmp/p q/n.yaml",
            nested.clone(),
            Span::new(1, at + 10),
            "declared here",
        );
        let uri: Uri = "file:///tmp/t.yaml".parse().expect("a URI");
        for (encoding, end_of_comment) in [(Encoding::Utf16, 5), (Encoding::Utf8, 8)] {
            let lsp = to_lsp_diagnostics(&uri, text, std::slice::from_ref(&diagnostic), encoding);
            let related = lsp[0].related_information.as_ref().expect("related");
            assert_eq!(related.len(), 1);
            let location = &related[0].location;
            assert_eq!(location.uri.as_str(), "file:///tmp/p%20q/n.yaml");
            assert_eq!(location.range.start, Position::new(0, 1));
            assert_eq!(location.range.end, Position::new(1, 10));
            // The comment's end, in the encoding's units, is where the label's first line ends.
            let whole = to_lsp_diagnostics(
                &uri,
                text,
                &[{
                    let mut d = diagnostic.clone();
                    d.file_labels[0].span = Span::new(0, nested.find('\n').expect("a line"));
                    d
                }],
                encoding,
            );
            let range = whole[0].related_information.as_ref().expect("related")[0]
                .location
                .range;
            assert_eq!(range.end, Position::new(0, end_of_comment));
        }
    }
}
