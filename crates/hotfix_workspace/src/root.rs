//! The project of a path: the one answer to "which folders does this file belong to", shared by
//! the cross-file checks (the folders a lint spans and reads environments in), configuration
//! discovery and the language server.
//!
//! A project's root is the nearest folder at or above a path that holds a `hotfix.toml` or is
//! the root of a version control checkout ([`VERSION_CONTROL`]). Outside any project a run spans
//! only what the user named: a folder named, or a named file's own folder (the files in it, not
//! its subfolders); never the working folder or another parent.

use std::path::{Component, Path, PathBuf};

use hotfix_stack::StackPath;

/// The name of hotfix's configuration file: a folder that holds one is a project's root.
pub const CONFIG_FILE: &str = "hotfix.toml";

/// What makes a folder the root of a version control checkout: `.git` (a folder, or the file
/// of a worktree or submodule), `.hg` (Mercurial) or `.svn` (Subversion 1.7 and later, which
/// keeps it at the checkout's root only).
pub const VERSION_CONTROL: [&str; 3] = [".git", ".hg", ".svn"];

/// Whether `folder` is the root of a version control checkout.
pub fn is_version_control_root(folder: &Path) -> bool {
    VERSION_CONTROL
        .iter()
        .any(|marker| folder.join(marker).exists())
}

/// The root of the project of `path` (absolute, without `.` or `..`): the nearest folder at or
/// above it that holds a `hotfix.toml` or is a version control root; `None` outside any
/// project.
pub fn root_of(path: &Path) -> Option<&Path> {
    path.ancestors()
        .find(|dir| dir.join(CONFIG_FILE).is_file() || is_version_control_root(dir))
}

/// The folders a run spans, as the run names files (relative to the working folder when the
/// path was given relative, else absolute).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scope {
    /// Each folder spanned: a missing file outside them is a deployment layout path, not a
    /// mistake. Sorted, none inside another.
    pub roots: Vec<StackPath>,
    /// Of the roots, those outside any project that come from a named file (its own folder):
    /// the files in them are read for the tree's environments, not their subfolders.
    pub shallow: Vec<StackPath>,
    /// The working folder, absolute: a root above it names the files under it by `..`, and
    /// those are named back the way the run names them.
    pub cwd: StackPath,
}

/// The scope of a run over `paths` (relative to `cwd`, or absolute): for each, its project's
/// root; outside any project, a folder named itself, and a file named the folder of the
/// workspace (an editor's) holding it, unless that is `/` or the home folder, else its own
/// folder, read one level deep.
pub fn scope(paths: &[PathBuf], cwd: &Path, workspace: &[PathBuf]) -> Scope {
    let default = [PathBuf::from(".")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    let home = std::env::var_os("HOME").map(|h| crate::paths::normalize(Path::new(&h)));
    let mut whole = Vec::new();
    let mut shallow = Vec::new();
    for path in paths {
        let absolute = crate::paths::absolute(cwd, path);
        let named = absolute.is_dir();
        let folder = if named {
            absolute.as_path()
        } else {
            absolute.parent().unwrap_or(Path::new("/"))
        };
        let name = |folder: &Path| named_as(path, cwd, folder);
        if let Some(root) = root_of(folder) {
            whole.push(name(root));
        } else if named {
            whole.push(name(folder));
        } else if let Some(open) = workspace
            .iter()
            // Named as the file's folder is: `..` read, as the command line reads it.
            .map(|w| crate::paths::absolute(cwd, w))
            .find(|w| {
                folder.starts_with(w)
                    && w.parent().is_some()
                    && home.as_deref() != Some(w.as_path())
            })
        {
            whole.push(name(&open));
        } else {
            shallow.push(name(folder));
        }
    }
    whole.sort();
    whole.dedup();
    // A folder inside another is read with it.
    let inside = |p: &StackPath, of: &[StackPath]| of.iter().any(|r| r != p && p.starts_with(r));
    let kept: Vec<StackPath> = whole
        .iter()
        .filter(|r| !inside(r, &whole))
        .cloned()
        .collect();
    shallow.sort();
    shallow.dedup();
    shallow.retain(|r| !kept.iter().any(|w| r.starts_with(w)));
    let mut roots = kept;
    roots.extend(shallow.iter().cloned());
    roots.sort();
    Scope {
        roots,
        shallow,
        cwd: crate::stack_path(&crate::paths::normalize(cwd)),
    }
}

impl Scope {
    /// `path` (named as the run names files) named absolutely, lexically from the working
    /// folder: the one name the run's sets of files are kept by.
    pub fn absolute(&self, path: &StackPath) -> StackPath {
        absolute(&self.cwd, path)
    }

    /// A path found under a root as the run names it: one that climbs out of the working
    /// folder and back into it (`../w/env.yaml`, found under the root `..`) without the climb.
    pub fn name(&self, path: StackPath) -> StackPath {
        if !path.as_str().starts_with("..") || !self.cwd.is_absolute() {
            return path;
        }
        let absolute = self.cwd.join(path.as_str());
        if absolute == self.cwd {
            return StackPath::new(".");
        }
        let prefix = format!("{}/", self.cwd.as_str().trim_end_matches('/'));
        match absolute.as_str().strip_prefix(&prefix) {
            Some(inside) => StackPath::new(inside),
            None => path,
        }
    }
}

/// Which root of a scope holds a file: the roots by their absolute paths, a file's found by
/// its folders one by one (not by comparing it with every root: a run over files named one by
/// one may span thousands of folders).
#[derive(Debug)]
pub struct RootIndex {
    by_path: std::collections::HashMap<StackPath, usize>,
    cwd: StackPath,
}

impl RootIndex {
    pub fn new(scope: &Scope) -> RootIndex {
        RootIndex {
            by_path: scope
                .roots
                .iter()
                .enumerate()
                .map(|(i, root)| (scope.absolute(root), i))
                .collect(),
            cwd: scope.cwd.clone(),
        }
    }

    /// The index (in the scope's roots) of the root the file or folder `path` (named as the
    /// run names files) lies under, when one holds it.
    pub fn of(&self, path: &StackPath) -> Option<usize> {
        let mut at = absolute(&self.cwd, path);
        loop {
            if let Some(&root) = self.by_path.get(&at) {
                return Some(root);
            }
            let parent = at.parent();
            if parent == at {
                return None;
            }
            at = parent;
        }
    }
}

/// `path` named absolutely, lexically from the folder `cwd` ([`Scope::absolute`]).
fn absolute(cwd: &StackPath, path: &StackPath) -> StackPath {
    if path.is_absolute() {
        path.clone()
    } else {
        cwd.join(path.as_str())
    }
}

/// The absolute `path` named from the absolute folder `cwd`: relative, by `..` where it lies
/// above it.
pub fn relative_to(cwd: &StackPath, path: &StackPath) -> StackPath {
    named_as(
        Path::new("."),
        Path::new(cwd.as_str()),
        Path::new(path.as_str()),
    )
}

/// The absolute `folder` (at or above the folder of `path`, or its workspace) named as `path`
/// is: relative to `cwd` (`..` where it lies above) when `path` is relative, else absolute.
fn named_as(path: &Path, cwd: &Path, folder: &Path) -> StackPath {
    if path.is_absolute() {
        return crate::stack_path(folder);
    }
    let cwd = crate::paths::normalize(cwd);
    let common = cwd
        .components()
        .zip(folder.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut relative = PathBuf::new();
    for _ in cwd.components().skip(common) {
        relative.push(Component::ParentDir);
    }
    for part in folder.components().skip(common) {
        relative.push(part);
    }
    crate::stack_path(&relative)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_s_root_is_found_by_its_folders_however_the_run_names_it() {
        let scope = |roots: &[&str], cwd: &str| Scope {
            roots: roots.iter().map(|r| StackPath::new(r)).collect(),
            shallow: Vec::new(),
            cwd: StackPath::new(cwd),
        };
        let of = |scope: &Scope, path: &str| RootIndex::new(scope).of(&StackPath::new(path));
        let two = scope(&["a", "b/c", "/abs"], "/w");
        assert_eq!(of(&two, "a/x.yaml"), Some(0));
        assert_eq!(of(&two, "a"), Some(0));
        assert_eq!(of(&two, "b/c/d/e.yaml"), Some(1));
        assert_eq!(of(&two, "/w/a/y.yaml"), Some(0));
        assert_eq!(of(&two, "../w/b/c/z.yaml"), Some(1));
        assert_eq!(of(&two, "/abs/t.yaml"), Some(2));
        assert_eq!(of(&two, "b/x.yaml"), None);
        assert_eq!(of(&two, "ab/x.yaml"), None);
        assert_eq!(of(&two, "/elsewhere/x.yaml"), None);
        let above = scope(&[".."], "/w/sub");
        assert_eq!(of(&above, "x.yaml"), Some(0));
        assert_eq!(of(&above, "../other/x.yaml"), Some(0));
        assert_eq!(of(&above, "../../x.yaml"), None);
        let here = scope(&["."], "/w");
        assert_eq!(of(&here, "x/y.yaml"), Some(0));
        assert_eq!(of(&here, "../x.yaml"), None);
    }

    fn names(roots: &[StackPath]) -> Vec<&str> {
        roots.iter().map(StackPath::as_str).collect()
    }

    #[test]
    fn a_named_file_outside_any_project_spans_its_own_folder_one_level_deep() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("w/sub")).expect("mkdir");
        std::fs::write(dir.path().join("w/sub/t.yaml"), "").expect("write");
        let cwd = dir.path().join("w");
        let scope = scope(&[PathBuf::from("sub/t.yaml")], &cwd, &[]);
        assert_eq!(names(&scope.roots), ["sub"]);
        assert_eq!(names(&scope.shallow), ["sub"]);
        // Named itself, a folder is read whole.
        let scope = super::scope(&[PathBuf::from("sub")], &cwd, &[]);
        assert_eq!(names(&scope.roots), ["sub"]);
        assert!(scope.shallow.is_empty());
    }

    #[test]
    fn a_file_in_a_project_spans_the_project_named_as_the_file_is() {
        for marker in [".git", ".hg", ".svn", "hotfix.toml"] {
            let dir = tempfile::tempdir().expect("temp dir");
            let repo = dir.path().join("repo");
            std::fs::create_dir_all(repo.join("a/b")).expect("mkdir");
            if marker == "hotfix.toml" {
                std::fs::write(repo.join(marker), "").expect("write");
            } else {
                std::fs::create_dir(repo.join(marker)).expect("mkdir");
            }
            std::fs::write(repo.join("a/b/t.yaml"), "").expect("write");
            let cwd = repo.join("a");
            let scope = scope(&[PathBuf::from("b/t.yaml"), PathBuf::from("b")], &cwd, &[]);
            assert_eq!(names(&scope.roots), [".."], "{marker}");
            assert!(scope.shallow.is_empty());
            // Files under the working folder, found from the root above it, as the run names
            // them.
            assert_eq!(
                scope.name(StackPath::new("../a/b/e.yaml")).as_str(),
                "b/e.yaml"
            );
            assert_eq!(
                scope.name(StackPath::new("../c/e.yaml")).as_str(),
                "../c/e.yaml"
            );
            assert_eq!(scope.name(StackPath::new("../a")).as_str(), ".");
            let absolute = repo.join("a/b/t.yaml");
            let scope = super::scope(&[absolute], &cwd, &[]);
            assert_eq!(scope.roots, [crate::stack_path(&repo)]);
        }
    }

    #[test]
    fn a_workspace_folder_spans_its_files_unless_it_is_the_home_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let workspace = dir.path().join("w");
        std::fs::create_dir_all(workspace.join("sub")).expect("mkdir");
        let file = workspace.join("sub/t.yaml");
        std::fs::write(&file, "").expect("write");
        let scope = scope(
            std::slice::from_ref(&file),
            Path::new("/"),
            std::slice::from_ref(&workspace),
        );
        assert_eq!(scope.roots, [crate::stack_path(&workspace)]);
        assert!(scope.shallow.is_empty());
        // The folder and the file named through `..`, each or both: the same folder.
        let around = workspace.join("sub/..");
        let through = around.join("sub/t.yaml");
        for (file, workspace) in [
            (&file, &around),
            (&through, &workspace),
            (&through, &around),
        ] {
            let named = super::scope(
                std::slice::from_ref(file),
                Path::new("/"),
                std::slice::from_ref(workspace),
            );
            assert!(named.shallow.is_empty(), "{file:?} in {workspace:?}");
            assert_eq!(named.roots.len(), 1, "{file:?} in {workspace:?}");
        }
        let root = super::scope(
            std::slice::from_ref(&file),
            Path::new("/"),
            &[PathBuf::from("/")],
        );
        let own = [crate::stack_path(&workspace.join("sub"))];
        assert_eq!(root.roots, own);
        assert_eq!(root.shallow, own);
    }
}
