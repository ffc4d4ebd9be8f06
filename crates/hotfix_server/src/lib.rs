//! `hotfix server`: a language server for Heat templates, over the Language Server Protocol.
//!
//! The server links the linter in: findings appear as the user types (the changes already sent read first), with the
//! same rules, settings and suppression comments as `hotfix lint`. It offers each finding's fix
//! as a code action (Safe ones preferred, Unsafe ones labelled), "fix all", suppression
//! comments and "upgrade this template", and it knows the template's names: go to definition,
//! find references and rename for parameters, resources and conditions; an outline; hover and
//! completion for functions, parameters, resources, resource types, their properties and
//! attributes.
//!
//! What depends on where the file lies (which `hotfix.toml` applies, what a file is, the
//! environments and nested templates around it) comes through [`Project`]: [`DiskProject`],
//! the one `hotfix server` runs, asks `hotfix_workspace`'s project the questions `hotfix lint`
//! asks it, so that the command line and the editor see the same thing; tests give their own. The crate speaks the protocol with `lsp-server`
//! (the scaffold rust-analyzer and ruff use): one thread handles every message in order, and
//! linting a template takes milliseconds.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::RecvTimeoutError;
use hotfix_linter::Settings;
use hotfix_stack::{FileFacts, FileSource, StackPath};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    HoverProviderCapability, InitializeParams, InitializeResult, OneOf, PositionEncodingKind,
    RenameOptions, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
    WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};

mod analysis;
mod disk;
mod features;
mod text;
pub mod transport;

pub use disk::DiskProject;
use text::Encoding;

/// What the server asks of the front door about a file on disk.
pub trait Project {
    /// The settings for the file at `path` (its nearest `hotfix.toml`), `Ok(None)` when the
    /// configuration excludes the file, or why the configuration cannot be read.
    fn settings(&self, path: &Path) -> Result<Option<Settings>, String>;

    /// What a file is: a template, an environment file, or something hotfix does not lint.
    fn kind(&self, path: &Path, text: &str) -> FileKind;

    /// Everything a lint of the file at `path` (whose text is `text`) reads about the files
    /// around it, in one answer, given the editor's workspace folders: `Ok(None)` when the
    /// configuration excludes it or it is not a file to lint. By default: its
    /// [`Project::settings`] and [`Project::kind`], its own folder, nothing read past it.
    fn context(
        &self,
        path: &Path,
        text: &str,
        _workspace: &[PathBuf],
    ) -> Result<Option<Context>, String> {
        let kind = self.kind(path, text);
        if kind == FileKind::Other {
            return Ok(None);
        }
        Ok(self.settings(path)?.map(|settings| Context {
            settings,
            kind,
            k2hr3: false,
            files: None,
            roots: vec![StackPath::new(&path.to_string_lossy()).parent()],
            registry: None,
            stack_templates: Vec::new(),
            stack_environments: Vec::new(),
        }))
    }

    /// A file was saved in the editor (`text`, as saved), or changed on disk (`None`, from
    /// `workspace/didChangeWatchedFiles`): what the project read of it may be out of date.
    fn changed(&self, _path: &Path, _text: Option<&str>) {}
}

/// What a lint of one file reads about the files around it, as `hotfix lint` reads them.
pub struct Context {
    /// Its settings (the Cloudify imports and K2HR3 variables it is read with included).
    pub settings: Settings,
    /// What it is linted as.
    pub kind: FileKind,
    /// Whether it is a K2HR3 template (the `K` rules).
    pub k2hr3: bool,
    /// Where the files it names (nested templates, `get_file` and registry targets) are read
    /// from, for the rules that look past one file; the server reads the documents open in the
    /// editor first, from their unsaved text. `None`: those rules do not run. The source
    /// should not keep what it read: files change while the server runs.
    pub files: Option<Arc<dyn FileSource + Send + Sync>>,
    /// The folders its lint spans (a missing file outside them belongs to a deployment
    /// layout, see `hotfix_linter::Files`).
    pub roots: Vec<StackPath>,
    /// What custom resource types stand for where it is linted (its `[[stacks]]` entry's
    /// environments, else the tree's).
    pub registry: Option<Arc<hotfix_stack::LazyRegistry>>,
    /// For an environment file given with a template (by a `[[stacks]]` entry): the templates
    /// it is given with, to check its `parameters` against.
    pub stack_templates: Vec<(StackPath, Arc<FileFacts>)>,
    /// For such an environment file: the environments of its `[[stacks]]` entry (itself
    /// included), in order.
    pub stack_environments: Vec<StackPath>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("settings", &self.settings)
            .field("kind", &self.kind)
            .field("k2hr3", &self.k2hr3)
            .field("roots", &self.roots)
            .field("stack_templates", &self.stack_templates)
            .finish_non_exhaustive()
    }
}

/// What an open document is, as `hotfix lint` tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A HOT template, a Cloudify blueprint or a K2HR3 template: linted by the rules for it.
    Template,
    /// A Heat environment file: the environment rules.
    Environment,
    /// Anything else: no findings.
    Other,
}

/// Runs the server over standard input and output until the client says `exit`, reading
/// messages with [`transport::read_frame`]'s bounds.
///
/// # Errors
/// When the connection fails or the client breaks the protocol's framing.
pub fn run_stdio(project: &dyn Project) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (connection, io_threads) =
        transport::connect(io::BufReader::new(io::stdin()), io::stdout());
    let served = run(&connection, project);
    drop(connection);
    // Broken framing ends the session: its error says why, before the server's own.
    io_threads.join()?;
    served
}

/// Runs the server on a connection until the client says `exit`.
///
/// # Errors
/// When the connection fails or the client breaks the protocol.
pub fn run(
    connection: &Connection,
    project: &dyn Project,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    // Parameters that are not `initialize`'s get an error, and the client may try again.
    let (id, params) = loop {
        let (id, params) = match connection.initialize_start() {
            Ok(start) => start,
            Err(err) if err.channel_is_disconnected() => {
                return Err("the client closed the connection before `initialize`".into());
            }
            Err(err) => return Err(err.into()),
        };
        match serde_json::from_value::<InitializeParams>(params) {
            Ok(params) => break (id, params),
            Err(err) => {
                let error = Response::new_err(id, ErrorCode::InvalidParams as i32, err.to_string());
                connection.sender.send(Message::Response(error))?;
            }
        }
    };
    let encoding = negotiate(&params);
    let result = InitializeResult {
        capabilities: capabilities(encoding),
        server_info: Some(ServerInfo {
            name: "hotfix".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;
    watch_configurations(connection, &params)?;
    let mut server = Server {
        connection,
        project,
        workspace: workspace_folders(&params),
        encoding,
        documents: HashMap::new(),
        pending: HashMap::new(),
    };
    server.main_loop()
}

/// Asks the client to say when a `hotfix.toml` or any other file changes, where it can be asked
/// (dynamic registration of `workspace/didChangeWatchedFiles`): the open documents are then
/// linted again with the new settings and environments.
fn watch_configurations(
    connection: &Connection,
    params: &InitializeParams,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let can = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    if !can {
        return Ok(());
    }
    // The configurations, and every file: an environment may have any name (the tree's are
    // found by content), and a template may read any file (`get_file`). A project is read
    // again when one of its environments changes outside the editor (a checkout, a
    // generator); the open documents are linted again on any change.
    let options = lsp_types::DidChangeWatchedFilesRegistrationOptions {
        watchers: ["**/hotfix.toml", "**/*"]
            .into_iter()
            .map(|glob| lsp_types::FileSystemWatcher {
                glob_pattern: lsp_types::GlobPattern::String(glob.to_owned()),
                kind: None,
            })
            .collect(),
    };
    let registration = lsp_types::RegistrationParams {
        registrations: vec![lsp_types::Registration {
            id: "hotfix.toml".to_owned(),
            method: lsp_types::notification::DidChangeWatchedFiles::METHOD.to_owned(),
            register_options: Some(serde_json::to_value(options)?),
        }],
    };
    let request = Request::new(
        lsp_server::RequestId::from("register-hotfix.toml".to_owned()),
        lsp_types::request::RegisterCapability::METHOD.to_owned(),
        registration,
    );
    connection.sender.send(Message::Request(request))?;
    Ok(())
}

/// The workspace folders the client opened: its `workspaceFolders`, else its `rootUri`.
fn workspace_folders(params: &InitializeParams) -> Vec<PathBuf> {
    if let Some(folders) = &params.workspace_folders {
        return folders.iter().map(|f| path_of(&f.uri)).collect();
    }
    #[expect(
        deprecated,
        reason = "clients without workspace folders send only a root URI"
    )]
    let root = params.root_uri.as_ref();
    root.map(path_of).into_iter().collect()
}

/// UTF-8 positions when the client offers them, else UTF-16 (the protocol's default).
fn negotiate(params: &InitializeParams) -> Encoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|e| e.contains(&PositionEncodingKind::UTF8)) {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    }
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::new(features::FIX_ALL),
                CodeActionKind::new(features::UPGRADE),
            ]),
            ..CodeActionOptions::default()
        })),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![
                ":".to_owned(),
                " ".to_owned(),
                "[".to_owned(),
                ",".to_owned(),
            ]),
            ..CompletionOptions::default()
        }),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}

/// An open document.
#[derive(Debug)]
pub(crate) struct Doc {
    pub(crate) text: String,
    pub(crate) version: i32,
}

struct Server<'c> {
    connection: &'c Connection,
    project: &'c dyn Project,
    /// The client's workspace folders, as paths.
    workspace: Vec<PathBuf>,
    encoding: Encoding,
    documents: HashMap<Uri, Doc>,
    /// Documents changed since they were last linted, with when they may be linted.
    pending: HashMap<Uri, Instant>,
}

impl Server<'_> {
    fn main_loop(&mut self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        loop {
            let message = match self.pending.values().min() {
                None => match self.connection.receiver.recv() {
                    Ok(message) => message,
                    Err(_) => return Ok(()),
                },
                Some(&due) => {
                    let wait = due.saturating_duration_since(Instant::now());
                    match self.connection.receiver.recv_timeout(wait) {
                        Ok(message) => message,
                        Err(RecvTimeoutError::Timeout) => {
                            self.lint_due()?;
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => return Ok(()),
                    }
                }
            };
            match message {
                Message::Request(request) => {
                    if self.connection.handle_shutdown(&request)? {
                        return Ok(());
                    }
                    self.request(request)?;
                }
                Message::Notification(notification) => self.notification(notification)?,
                Message::Response(_) => {}
            }
        }
    }

    /// Lints and publishes every document whose quiet time is over.
    fn lint_due(&mut self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let now = Instant::now();
        let due: Vec<Uri> = self
            .pending
            .iter()
            .filter(|&(_, &at)| at <= now)
            .map(|(uri, _)| uri.clone())
            .collect();
        for uri in due {
            self.pending.remove(&uri);
            self.publish(&uri)?;
        }
        Ok(())
    }

    fn notification(
        &mut self,
        notification: Notification,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        use lsp_types::notification as n;
        match notification.method.clone().as_str() {
            n::DidOpenTextDocument::METHOD => {
                let Some(params) =
                    self.params::<lsp_types::DidOpenTextDocumentParams>(notification)?
                else {
                    return Ok(());
                };
                let uri = params.text_document.uri;
                self.documents.insert(
                    uri.clone(),
                    Doc {
                        text: params.text_document.text,
                        version: params.text_document.version,
                    },
                );
                self.publish(&uri)?;
            }
            n::DidChangeTextDocument::METHOD => {
                let Some(params) =
                    self.params::<lsp_types::DidChangeTextDocumentParams>(notification)?
                else {
                    return Ok(());
                };
                let uri = params.text_document.uri;
                if let Some(doc) = self.documents.get_mut(&uri) {
                    text::apply_changes(
                        &mut doc.text,
                        params
                            .content_changes
                            .iter()
                            .map(|change| (change.range, change.text.as_str())),
                        self.encoding,
                    );
                    doc.version = params.text_document.version;
                    // No quiet time: the changes already sent (a burst of keys, or those
                    // typed while the last lint ran) are read first, then it is linted once.
                    self.pending.insert(uri, Instant::now());
                }
            }
            n::DidSaveTextDocument::METHOD => {
                let Some(params) =
                    self.params::<lsp_types::DidSaveTextDocumentParams>(notification)?
                else {
                    return Ok(());
                };
                self.saved(&params.text_document.uri)?;
            }
            n::DidCloseTextDocument::METHOD => {
                let Some(params) =
                    self.params::<lsp_types::DidCloseTextDocumentParams>(notification)?
                else {
                    return Ok(());
                };
                let uri = params.text_document.uri;
                self.documents.remove(&uri);
                self.pending.remove(&uri);
                self.send_diagnostics(&uri, Vec::new(), None)?;
            }
            n::DidChangeWorkspaceFolders::METHOD => {
                let Some(params) =
                    self.params::<lsp_types::DidChangeWorkspaceFoldersParams>(notification)?
                else {
                    return Ok(());
                };
                let removed: Vec<PathBuf> = params
                    .event
                    .removed
                    .iter()
                    .map(|f| path_of(&f.uri))
                    .collect();
                self.workspace.retain(|w| !removed.contains(w));
                self.workspace
                    .extend(params.event.added.iter().map(|f| path_of(&f.uri)));
                // The folders a file's lint spans may have changed.
                self.publish_all()?;
            }
            n::DidChangeWatchedFiles::METHOD => {
                let Some(params) =
                    self.params::<lsp_types::DidChangeWatchedFilesParams>(notification)?
                else {
                    return Ok(());
                };
                // A configuration or an environment may have changed: the project reads them
                // again, and every open document is linted again.
                for change in &params.changes {
                    self.project.changed(&path_of(&change.uri), None);
                }
                self.publish_all()?;
            }
            n::DidChangeConfiguration::METHOD => {
                self.publish_all()?;
            }
            _ => {}
        }
        Ok(())
    }

    /// A notification's parameters; `None` when they are not what its method takes: the
    /// notification is dropped, with a log message that says why (a notification gets no
    /// answer, and one bad message must not end the session).
    fn params<P: serde::de::DeserializeOwned>(
        &self,
        notification: Notification,
    ) -> Result<Option<P>, Box<dyn std::error::Error + Send + Sync>> {
        match serde_json::from_value(notification.params) {
            Ok(params) => Ok(Some(params)),
            Err(err) => {
                let params = lsp_types::LogMessageParams {
                    typ: lsp_types::MessageType::ERROR,
                    message: format!(
                        "hotfix: {} was dropped: its parameters are invalid: {err}",
                        notification.method
                    ),
                };
                let log = Notification::new(
                    lsp_types::notification::LogMessage::METHOD.to_owned(),
                    params,
                );
                self.connection.sender.send(Message::Notification(log))?;
                Ok(None)
            }
        }
    }

    fn request(
        &mut self,
        request: Request,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        use lsp_types::request as r;
        let id = request.id.clone();
        let result = match request.method.as_str() {
            r::CodeActionRequest::METHOD => self.handle(request, |s, p| s.code_actions(&p)),
            r::GotoDefinition::METHOD => self.handle(request, |s, p| s.definition(&p)),
            r::References::METHOD => self.handle(request, |s, p| s.references(&p)),
            r::PrepareRenameRequest::METHOD => self.handle(request, |s, p| s.prepare_rename(&p)),
            r::Rename::METHOD => self.handle(request, |s, p| s.rename(&p)),
            r::DocumentSymbolRequest::METHOD => self.handle(request, |s, p| s.symbols(&p)),
            r::HoverRequest::METHOD => self.handle(request, |s, p| s.hover(&p)),
            r::Completion::METHOD => self.handle(request, |s, p| s.completion(&p)),
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("hotfix does not answer {}", request.method),
            )),
        };
        let response = match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.connection.sender.send(Message::Response(response))?;
        Ok(())
    }

    /// Decodes a request's parameters, answers them, and encodes the answer.
    fn handle<P: serde::de::DeserializeOwned, R: serde::Serialize>(
        &mut self,
        request: Request,
        answer: impl FnOnce(&mut Self, P) -> Result<R, String>,
    ) -> Result<serde_json::Value, (ErrorCode, String)> {
        let params: P = serde_json::from_value(request.params)
            .map_err(|err| (ErrorCode::InvalidParams, err.to_string()))?;
        // A bug in one answer must not end the editor's session: it fails that request.
        let answered =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(self, params)))
                .map_err(|_| {
                    (
                        ErrorCode::InternalError,
                        "hotfix failed on this request (a bug: please report it with the file)"
                            .to_owned(),
                    )
                })?
                .map_err(|err| (ErrorCode::RequestFailed, err))?;
        serde_json::to_value(answered).map_err(|err| (ErrorCode::InternalError, err.to_string()))
    }

    /// A document was saved: the project reads it again where it keeps what it read, and the
    /// documents it may bear on are linted again.
    fn saved(&mut self, uri: &Uri) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let path = path_of(uri);
        let text = self.documents.get(uri).map(|doc| doc.text.as_str());
        self.project.changed(&path, text);
        self.pending.remove(uri);
        // What the lint makes of it (a `[[stacks]]` entry's environment is one whatever it
        // holds), not what its text alone says.
        let environment = text.is_some_and(|text| {
            self.project
                .context(&path, text, &self.workspace)
                .ok()
                .flatten()
                .is_some_and(|context| context.kind == FileKind::Environment)
        });
        if environment || path.file_name().is_some_and(|n| n == "hotfix.toml") {
            // What custom types stand for may have changed for every open template.
            self.publish_all()
        } else {
            self.publish(uri)
        }
    }

    /// Lints every open document and sends its diagnostics.
    fn publish_all(&mut self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let uris: Vec<Uri> = self.documents.keys().cloned().collect();
        for uri in uris {
            self.publish(&uri)?;
        }
        Ok(())
    }

    /// Lints a document and sends its diagnostics.
    fn publish(&mut self, uri: &Uri) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let Some(doc) = self.documents.get(uri) else {
            return Ok(());
        };
        let version = doc.version;
        let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.lint(uri)))
            .unwrap_or_else(|_| {
                Err("linting this file failed (a bug: please report it with the file)".to_owned())
            });
        let diagnostics = match linted {
            Ok(Some((diagnostics, _))) => {
                let doc = &self.documents[uri];
                features::to_lsp_diagnostics(uri, &doc.text, &diagnostics, self.encoding)
            }
            Ok(None) => Vec::new(),
            Err(message) => {
                self.show_message(lsp_types::MessageType::ERROR, &message)?;
                Vec::new()
            }
        };
        self.send_diagnostics(uri, diagnostics, Some(version))
    }

    fn send_diagnostics(
        &self,
        uri: &Uri,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let params = lsp_types::PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics,
            version,
        };
        let notification = Notification::new(
            lsp_types::notification::PublishDiagnostics::METHOD.to_owned(),
            params,
        );
        self.connection
            .sender
            .send(Message::Notification(notification))?;
        Ok(())
    }

    fn show_message(
        &self,
        typ: lsp_types::MessageType,
        message: &str,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let params = lsp_types::ShowMessageParams {
            typ,
            message: format!("hotfix: {message}"),
        };
        let notification = Notification::new(
            lsp_types::notification::ShowMessage::METHOD.to_owned(),
            params,
        );
        self.connection
            .sender
            .send(Message::Notification(notification))?;
        Ok(())
    }

    /// The findings of a document with its settings, `Ok(None)` when it is not a template to
    /// lint (not a template, or excluded by the configuration).
    pub(crate) fn lint(
        &self,
        uri: &Uri,
    ) -> Result<Option<(Vec<hotfix_diagnostics::Diagnostic>, Settings)>, String> {
        let Some(doc) = self.documents.get(uri) else {
            return Ok(None);
        };
        let path = path_of(uri);
        let Some(context) = self.project.context(&path, &doc.text, &self.workspace)? else {
            return Ok(None);
        };
        let name = path.to_string_lossy();
        let bytes = doc.text.as_bytes();
        if context.k2hr3 {
            let diagnostics = match hotfix_yaml::check_bytes(bytes) {
                Ok(text) => hotfix_linter::lint_k2hr3(text, &context.settings),
                Err(err) => hotfix_linter::load_failure(err, &context.settings),
            };
            return Ok(Some((diagnostics, context.settings)));
        }
        let stack_path = StackPath::new(&name);
        let buffers = context
            .files
            .as_deref()
            .map(|disk| Buffers::new(self.documents.iter(), disk));
        let files = buffers.as_ref().map(|source| hotfix_linter::Files {
            source,
            path: &stack_path,
            roots: &context.roots,
            registry: context.registry.as_deref(),
            stack_templates: &context.stack_templates,
            stack_environments: &context.stack_environments,
        });
        let settings = &context.settings;
        let diagnostics = if context.kind == FileKind::Environment {
            hotfix_linter::lint_environment(&name, bytes, settings, files.as_ref())
        } else {
            hotfix_linter::lint_with_files(&name, bytes, settings, files.as_ref())
        };
        let settings = context.settings;
        Ok(Some((diagnostics, settings)))
    }

    pub(crate) fn document(&self, uri: &Uri) -> Result<&Doc, String> {
        self.documents
            .get(uri)
            .ok_or_else(|| format!("{} is not open", uri.as_str()))
    }
}

/// The project's files as the editor has them: an open document's unsaved text, else what the
/// project reads.
struct Buffers<'a> {
    /// The open documents by path (named once a lint: a template asks about each file it
    /// names, and an editor may hold hundreds of documents open).
    documents: HashMap<StackPath, &'a Doc>,
    disk: &'a (dyn FileSource + Send + Sync),
}

impl<'a> Buffers<'a> {
    fn new(
        documents: impl Iterator<Item = (&'a Uri, &'a Doc)>,
        disk: &'a (dyn FileSource + Send + Sync),
    ) -> Buffers<'a> {
        let documents = documents
            .map(|(uri, doc)| (StackPath::new(&path_of(uri).to_string_lossy()), doc))
            .collect();
        Buffers { documents, disk }
    }

    fn open(&self, path: &StackPath) -> Option<&Doc> {
        self.documents.get(path).copied()
    }
}

impl FileSource for Buffers<'_> {
    fn read(&self, path: &StackPath) -> Option<std::sync::Arc<str>> {
        match self.open(path) {
            Some(doc) => Some(doc.text.as_str().into()),
            None => self.disk.read(path),
        }
    }

    fn exists(&self, path: &StackPath) -> bool {
        self.open(path).is_some() || self.disk.exists(path)
    }

    fn list(&self, dir: &StackPath) -> Vec<String> {
        self.disk.list(dir)
    }

    fn map_prefix(&self, path: &StackPath) -> Option<StackPath> {
        self.disk.map_prefix(path)
    }
}

/// The file a `file:` URI names (percent-decoded); another URI as its text.
pub(crate) fn path_of(uri: &Uri) -> PathBuf {
    let text = uri.as_str();
    let Some(rest) = text.strip_prefix("file://") else {
        return PathBuf::from(text);
    };
    // `file:///path` or `file://host/path`: the path starts at the first slash.
    let path = rest.find('/').map_or(rest, |i| &rest[i..]);
    let mut bytes = Vec::with_capacity(path.len());
    let raw = path.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%'
            && let Some(byte) = raw
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            bytes.push(byte);
            i += 3;
            continue;
        }
        bytes.push(raw[i]);
        i += 1;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt as _;
        PathBuf::from(std::ffi::OsString::from_vec(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// The `file:` URI of a path.
pub(crate) fn uri_of(path: &Path) -> Option<Uri> {
    let mut text = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            text.push(char::from(byte));
        } else {
            let _ = write!(text, "%{byte:02X}");
        }
    }
    text.parse().ok()
}
