//! What hotfix's test files share, each of which had its own copy: running the `hotfix` binary
//! as a user would ([`Hotfix`]), the workspace's folder, the Python that has Heat, the team's
//! shared folder, and temporary trees of files (written, copied, or a repository's).
//!
//! A dev-dependency only (`publish = false`): tests may panic here, with what to install or
//! set, and nothing here is part of hotfix.

#![allow(
    clippy::missing_panics_doc,
    reason = "every helper panics when the test cannot go on, saying why (the crate's docs say so)"
)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The path of the `hotfix` binary, for [`Hotfix::new`]: `env!("CARGO_BIN_EXE_hotfix")`, read
/// where the test is compiled (Cargo gives it to the root package's integration tests only).
#[macro_export]
macro_rules! hotfix_binary {
    () => {
        env!("CARGO_BIN_EXE_hotfix")
    };
}

/// How a test file runs the `hotfix` binary: its arguments before and after the test's own, its
/// environment, its folder. A `const` of each test file; [`Hotfix::run`] and [`Hotfix::run_in`]
/// run it.
///
/// ```
/// use hotfix_testkit::Hotfix;
///
/// // In a test of the root package: `Hotfix::new(hotfix_binary!())`.
/// const HOTFIX: Hotfix = Hotfix::new("/usr/bin/hotfix").plain().before(&["lint"]);
/// let command = HOTFIX.command_in(std::path::Path::new("repo"), &["t.yaml"]);
/// assert_eq!(command.get_args().collect::<Vec<_>>(), ["lint", "t.yaml"]);
/// ```
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct Hotfix {
    binary: &'static str,
    before: &'static [&'static str],
    after: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    no_color: bool,
    github_actions: GithubActions,
    no_stdin: bool,
    pwd: bool,
    folder: Option<&'static str>,
}

impl Hotfix {
    /// The binary at `binary` (see [`hotfix_binary!`]), with the test's arguments only, in the
    /// test's environment and folder.
    pub const fn new(binary: &'static str) -> Hotfix {
        Hotfix {
            binary,
            before: &[],
            after: &[],
            env: &[],
            no_color: false,
            github_actions: GithubActions::AsInTheTest,
            no_stdin: false,
            pwd: false,
            folder: None,
        }
    }

    /// As at a plain terminal outside CI: [`Hotfix::no_color`] and
    /// [`Hotfix::outside_github_actions`].
    pub const fn plain(self) -> Hotfix {
        self.no_color().outside_github_actions()
    }

    /// With `NO_COLOR=1`.
    pub const fn no_color(self) -> Hotfix {
        Hotfix {
            no_color: true,
            ..self
        }
    }

    /// With `GITHUB_ACTIONS` unset (in a GitHub workflow hotfix writes GitHub's annotations).
    pub const fn outside_github_actions(self) -> Hotfix {
        Hotfix {
            github_actions: GithubActions::Unset,
            ..self
        }
    }

    /// With `GITHUB_ACTIONS=true`, as in a GitHub workflow (in place of
    /// [`Hotfix::outside_github_actions`]).
    pub const fn in_github_actions(self) -> Hotfix {
        Hotfix {
            github_actions: GithubActions::Set,
            ..self
        }
    }

    /// With nothing on standard input (a test's own input would otherwise be read).
    pub const fn without_stdin(self) -> Hotfix {
        Hotfix {
            no_stdin: true,
            ..self
        }
    }

    /// With `PWD` set to the folder it runs in, as a shell sets it.
    pub const fn with_pwd(self) -> Hotfix {
        Hotfix { pwd: true, ..self }
    }

    /// Arguments before the test's own (a command: `lint`).
    pub const fn before(self, args: &'static [&'static str]) -> Hotfix {
        Hotfix {
            before: args,
            ..self
        }
    }

    /// Arguments after the test's own (`--no-config`).
    pub const fn after(self, args: &'static [&'static str]) -> Hotfix {
        Hotfix {
            after: args,
            ..self
        }
    }

    /// Environment variables set for each run.
    pub const fn env(self, vars: &'static [(&'static str, &'static str)]) -> Hotfix {
        Hotfix { env: vars, ..self }
    }

    /// Run in `folder` when [`Hotfix::run`] is given none.
    pub const fn in_folder(self, folder: &'static str) -> Hotfix {
        Hotfix {
            folder: Some(folder),
            ..self
        }
    }

    /// The command for `args` in the folder of [`Hotfix::in_folder`] (else in the test's), to
    /// be run as the test wants.
    pub fn command<S: AsRef<OsStr>>(&self, args: &[S]) -> Command {
        self.build(self.folder.map(Path::new), args)
    }

    /// The command for `args` in `dir`, to be run as the test wants.
    pub fn command_in<S: AsRef<OsStr>>(&self, dir: &Path, args: &[S]) -> Command {
        self.build(Some(dir), args)
    }

    fn build<S: AsRef<OsStr>>(&self, dir: Option<&Path>, args: &[S]) -> Command {
        let mut command = Command::new(self.binary);
        if let Some(dir) = dir {
            command.current_dir(dir);
            if self.pwd {
                command.env("PWD", dir);
            }
        }
        command.args(self.before).args(args).args(self.after);
        if self.no_color {
            command.env("NO_COLOR", "1");
        }
        match self.github_actions {
            GithubActions::AsInTheTest => {}
            GithubActions::Unset => {
                command.env_remove("GITHUB_ACTIONS");
            }
            GithubActions::Set => {
                command.env("GITHUB_ACTIONS", "true");
            }
        }
        for (name, value) in self.env {
            command.env(name, value);
        }
        if self.no_stdin {
            command.stdin(Stdio::null());
        }
        command
    }

    /// Runs `hotfix ARGS` in its folder (see [`Hotfix::command`]) to its end.
    pub fn run<S: AsRef<OsStr>>(&self, args: &[S]) -> Output {
        self.command(args).output().expect("run hotfix")
    }

    /// Runs `hotfix ARGS` in `dir` to its end.
    pub fn run_in<S: AsRef<OsStr>>(&self, dir: &Path, args: &[S]) -> Output {
        self.command_in(dir, args).output().expect("run hotfix")
    }
}

/// Whether hotfix runs as in a GitHub workflow (`GITHUB_ACTIONS`).
#[derive(Clone, Copy, Debug)]
enum GithubActions {
    AsInTheTest,
    Unset,
    Set,
}

/// The workspace's folder (the repository's root).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/hotfix_testkit is two folders below the workspace")
        .to_path_buf()
}

/// The Python that has Heat: `HOTFIX_PYTHON`, or `.venv-heat` in the repository (made by
/// `scripts/setup-oracle.sh`, which `scripts/test.sh` runs). A test that needs it fails here,
/// saying so, when it is missing.
pub fn python() -> PathBuf {
    let python = std::env::var_os("HOTFIX_PYTHON")
        .map_or_else(|| workspace().join(".venv-heat/bin/python"), PathBuf::from);
    assert!(
        python.exists(),
        "this test needs Heat's Python environment at {} (run scripts/setup-oracle.sh, which \
         needs python3, or set HOTFIX_PYTHON)",
        python.display()
    );
    python
}

/// The team's shared folder, beside the repository and not part of it: `HOTFIX_SHARED`, or
/// `../shared` beside the workspace. Not checked: the tests that need it say what they need.
pub fn shared() -> PathBuf {
    std::env::var_os("HOTFIX_SHARED").map_or_else(|| workspace().join("../shared"), PathBuf::from)
}

/// A temporary folder holding `files` (each a path relative to it, with `/` separators, and
/// its text; folders made as needed). Removed when dropped.
pub fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (path, text) in files {
        write(&dir.path().join(path), text);
    }
    dir
}

/// A temporary folder that is a version-control root (it holds an empty `.git`), as a
/// checkout is: hotfix takes it as the project's root. Removed when dropped.
pub fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(dir.path().join(".git")).expect("make a folder");
    dir
}

/// Copies a folder and everything in it; the copies are writable (the shared corpus is
/// read-only on disk, and the tests rewrite their copies).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("file system");
    for entry in std::fs::read_dir(from).expect("file system") {
        let entry = entry.expect("file system");
        let target = to.join(entry.file_name());
        let kind = entry.file_type().expect("file system");
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("file system");
            let mut permissions = std::fs::metadata(&target)
                .expect("file system")
                .permissions();
            #[allow(clippy::permissions_set_readonly_false, reason = "a private test copy")]
            permissions.set_readonly(false);
            std::fs::set_permissions(&target, permissions).expect("file system");
        }
    }
}

/// Adds the `.rs` files below `folder` (at any depth) to `out`, and sorts `out`.
pub fn rust_files(folder: &Path, out: &mut Vec<PathBuf>) {
    fn walk(folder: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(folder).expect("list a source folder") {
            let path = entry.expect("list a source folder").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    walk(folder, out);
    out.sort();
}

/// Writes `text` to `path`, making its folders first.
pub fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("make a folder");
    }
    std::fs::write(path, text).expect("write a file");
}

#[cfg(test)]
mod tests {
    use super::*;

    const ECHO: Hotfix = Hotfix::new("/bin/echo")
        .plain()
        .before(&["lint"])
        .after(&["--no-config"])
        .env(&[("COLUMNS", "100")]);

    #[test]
    fn a_command_has_its_arguments_in_order_and_its_environment() {
        let dir = tree(&[("a/b.yaml", "x: 1\n")]);
        let command = ECHO.with_pwd().command_in(dir.path(), &["t.yaml"]);
        let args: Vec<_> = command.get_args().collect();
        assert_eq!(args, ["lint", "t.yaml", "--no-config"]);
        let envs: Vec<_> = command.get_envs().collect();
        assert!(envs.contains(&(OsStr::new("NO_COLOR"), Some(OsStr::new("1")))));
        assert!(envs.contains(&(OsStr::new("GITHUB_ACTIONS"), None)));
        assert!(envs.contains(&(OsStr::new("COLUMNS"), Some(OsStr::new("100")))));
        assert!(envs.contains(&(OsStr::new("PWD"), Some(dir.path().as_os_str()))));
        assert_eq!(command.get_current_dir(), Some(dir.path()));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/b.yaml")).expect("written"),
            "x: 1\n"
        );
        let github = ECHO.in_github_actions().command(&["x"]);
        assert!(
            github
                .get_envs()
                .any(|e| e == (OsStr::new("GITHUB_ACTIONS"), Some(OsStr::new("true"))))
        );
        assert_eq!(ECHO.run(&["a"]).stdout, b"lint a --no-config\n");
    }

    #[test]
    fn a_repository_has_a_git_folder_and_a_copy_has_every_file() {
        let from = tree(&[("a.yaml", "a\n"), ("b/c.yaml", "c\n")]);
        let repository = repository();
        assert!(repository.path().join(".git").is_dir());
        copy_tree(from.path(), &repository.path().join("t"));
        let read = |p: &str| std::fs::read_to_string(repository.path().join(p)).expect("copied");
        assert_eq!(
            (read("t/a.yaml"), read("t/b/c.yaml")),
            ("a\n".into(), "c\n".into())
        );
    }
}
