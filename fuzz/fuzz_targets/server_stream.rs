//! Any bytes as `hotfix server`'s standard input, framing and all, read by its own reader
//! (`hotfix_server::transport`): headers, lengths that lie, bodies that are not JSON-RPC,
//! parameters of the wrong shape. Half the inputs start with a valid `initialize`, so that
//! what follows reaches the session. Nothing may panic, a frame is never larger than the bound,
//! and the server must stop once the input ends.
//!
//! The project is what `hotfix server` builds for a file ([`hotfix_server::Project::context`]),
//! its files in memory: every document is linted with the files around it (a nested template,
//! an environment mapping a type to it, the template an environment is given with), so that
//! the rules that read past one file run on what the editor sends.

#![no_main]

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hotfix_linter::{Selector, Settings};
use hotfix_server::transport::{Frame, MAX_MESSAGE, connect, read_frame};
use hotfix_server::{Context, FileKind};
use hotfix_stack::{
    EnvironmentFacts, FileFacts, FileSource, LazyRegistry, MemorySource, Registry, StackPath,
};
use libfuzzer_sys::fuzz_target;

/// The folder of the project, and its files.
const ROOT: &str = "/fuzz";
const TOP: &str = "/fuzz/top.yaml";
const ENVIRONMENT: &str = "/fuzz/env.yaml";
const FILES: [(&str, &str); 3] = [
    (
        TOP,
        "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\nresources:\n  n: {type: My::Nested}\n  m: {type: nested.yaml, properties: {flavor: {get_param: flavor}}}\n",
    ),
    (
        "/fuzz/nested.yaml",
        "heat_template_version: rocky\nparameters:\n  flavor: {type: string}\noutputs:\n  name: {value: {get_param: flavor}}\n",
    ),
    (
        ENVIRONMENT,
        "resource_registry:\n  My::Nested: nested.yaml\nparameter_defaults:\n  flavor: m1.small\n",
    ),
];

/// Every rule, on a project of three files in memory.
struct Everything {
    files: Arc<MemorySource>,
    registry: Arc<LazyRegistry>,
    top: Arc<FileFacts>,
}

impl Everything {
    fn new() -> Everything {
        let mut files = MemorySource::new();
        for (path, text) in FILES {
            files.insert(path, text);
        }
        let roots = [StackPath::new(ROOT)];
        let environment =
            EnvironmentFacts::given(&files, &roots, &StackPath::new(ENVIRONMENT), FILES[2].1)
                .expect("the environment loads");
        let top = files
            .facts(&StackPath::new(TOP))
            .expect("the template loads");
        Everything {
            files: Arc::new(files),
            registry: Arc::new(LazyRegistry::ready(Registry::given(vec![environment]))),
            top,
        }
    }
}

impl hotfix_server::Project for Everything {
    fn settings(&self, _: &Path) -> Result<Option<Settings>, String> {
        Ok(Some(Settings {
            select: vec![Selector::All],
            ..Settings::default()
        }))
    }

    fn kind(&self, _: &Path, text: &str) -> FileKind {
        // Both kinds, by the text's first byte.
        if text.starts_with('r') {
            FileKind::Environment
        } else {
            FileKind::Template
        }
    }

    fn context(
        &self,
        path: &Path,
        text: &str,
        _workspace: &[PathBuf],
    ) -> Result<Option<Context>, String> {
        let Some(settings) = self.settings(path)? else {
            return Ok(None);
        };
        let kind = self.kind(path, text);
        let stack_templates = if kind == FileKind::Environment {
            vec![(StackPath::new(TOP), Arc::clone(&self.top))]
        } else {
            Vec::new()
        };
        Ok(Some(Context {
            settings,
            kind,
            k2hr3: false,
            files: Some(Arc::clone(&self.files) as Arc<dyn FileSource + Send + Sync>),
            roots: vec![StackPath::new(ROOT)],
            registry: Some(Arc::clone(&self.registry)),
            stack_templates,
            stack_environments: Vec::new(),
        }))
    }
}

fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fuzz_target!(|data: &[u8]| {
    // The reader alone: every frame within the bound, and the stream read to its end or to
    // broken framing.
    let mut reader = Cursor::new(data);
    while let Ok(Some(frame)) = read_frame(&mut reader) {
        if let Frame::Message(message) = frame {
            let json = serde_json::to_string(&message).expect("a message encodes");
            assert!(json.len() <= 2 * MAX_MESSAGE);
        }
    }
    // The whole server on those bytes.
    let mut input = Vec::new();
    if data.first().is_some_and(|b| b & 1 == 1) {
        input.extend(framed(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#,
        ));
        input.extend(framed(
            r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
        ));
    }
    input.extend_from_slice(data);
    let (connection, threads) = connect(Cursor::new(input), std::io::sink());
    let _ = hotfix_server::run(&connection, &Everything::new());
    drop(connection);
    let _ = threads.join();
});
