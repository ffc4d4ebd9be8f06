//! Paths as the user sees them, symbolic links included.
//!
//! The system's working directory has every link resolved; the shell's (`$PWD`) keeps the
//! links the user went through. Paths in reports and configuration globs are relative to
//! folders the user named (the repository root, the configuration's folder), so they are
//! worked out from the shell's names, and from where the links lead only when those names do
//! not reach the folder.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The working directory as the user's shell names it: `$PWD` when it is an absolute path
/// without `.` or `..` that leads to the working directory (what `pwd` prints), else the
/// system's.
pub fn current_dir() -> std::io::Result<PathBuf> {
    let system = std::env::current_dir()?;
    let shell = std::env::var_os("PWD").map(PathBuf::from);
    Ok(match shell {
        Some(shell)
            if shell.is_absolute()
                && !shell
                    .components()
                    .any(|c| matches!(c, Component::CurDir | Component::ParentDir))
                && same_file(&shell, &system) =>
        {
            shell
        }
        _ => system,
    })
}

/// `path` (relative to `cwd`, or absolute) made absolute with `.` and `..` taken out by name,
/// keeping the links on the way, when that leads to the file the system opens for it. A `..`
/// after a link leaves the link's target, not the folder holding the link: when the two
/// differ, the path with every link resolved.
pub fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    let joined = cwd.join(path);
    let named = normalize(&joined);
    if !joined.components().any(|c| c == Component::ParentDir) || same_file(&named, &joined) {
        return named;
    }
    joined.canonicalize().unwrap_or(named)
}

/// `path` (relative to `cwd`, or absolute) relative to `base`, when it lies under it: by the
/// names the user sees; else under where the links to `base` lead (the path named through
/// another link to the same folder); else with every link resolved on both sides.
pub fn under(base: &Path, cwd: &Path, path: &Path) -> Option<PathBuf> {
    let absolute = absolute(cwd, path);
    if let Ok(inside) = absolute.strip_prefix(base) {
        return Some(inside.to_path_buf());
    }
    let base = base.canonicalize().ok()?;
    if let Ok(inside) = absolute.strip_prefix(&base) {
        return Some(inside.to_path_buf());
    }
    let file = absolute.canonicalize().ok()?;
    file.strip_prefix(base).ok().map(Path::to_path_buf)
}

/// [`absolute`] and [`under`] for the many files of a walk against one base and working
/// directory, with each folder's answer worked out once: both follow links and resolve `..`
/// by asking the file system, folder by folder, which a tree of thousands of files would
/// otherwise ask again for every file, several times (settings, globs, reports).
///
/// A file's answer is its folder's answer with its name added, which holds for a file that is
/// not itself a symbolic link; a link (or a file that cannot be looked at) is worked out on its
/// own. A folder's path with every link resolved is its parent's with its name added, unless it
/// is a link itself: one look at each folder instead of one per component of every path. Clones
/// share what was worked out.
#[derive(Clone, Debug, Default)]
pub struct Resolver {
    memo: Arc<Mutex<Memo>>,
}

/// What a [`Resolver`] has worked out, each part bounded.
#[derive(Debug, Default)]
struct Memo {
    folders: HashMap<FolderKey, Folder>,
    /// Whether the file a path names is a symbolic link (`None`: it cannot be looked at).
    links: HashMap<PathBuf, Option<bool>>,
    /// Absolute paths without `.` or `..`, with every link resolved (`None`: no such file).
    resolved: HashMap<PathBuf, Option<PathBuf>>,
}

/// A folder as a file's path names it, with the base and working directory it is worked out
/// against.
type FolderKey = (PathBuf, PathBuf, PathBuf);

/// How many folders (and paths of each other kind) a [`Resolver`] remembers.
const MEMO_FOLDERS: usize = 256;

/// What [`absolute`] and [`under`] give for one folder.
#[derive(Clone, Debug)]
struct Folder {
    absolute: PathBuf,
    under: Option<PathBuf>,
}

/// Inserts into a memo that forgets everything once it holds `MEMO_FOLDERS * 4` entries: a walk
/// meets a folder's files together, so the last ones are those asked about again, and memory
/// must not grow with the tree.
fn remember<K: std::hash::Hash + Eq, V: Clone>(memo: &mut HashMap<K, V>, key: K, value: V) -> V {
    if memo.len() >= MEMO_FOLDERS * 4 {
        memo.clear();
    }
    memo.insert(key, value.clone());
    value
}

impl Resolver {
    /// [`absolute`]`(cwd, path)`.
    pub fn absolute(&self, cwd: &Path, path: &Path) -> PathBuf {
        match self.folder(Path::new(""), cwd, path) {
            Some((folder, name)) => folder.absolute.join(name),
            None => absolute(cwd, path),
        }
    }

    /// [`under`]`(base, cwd, path)`.
    pub fn under(&self, base: &Path, cwd: &Path, path: &Path) -> Option<PathBuf> {
        match self.folder(base, cwd, path) {
            Some((folder, name)) => folder.under.map(|inside| inside.join(name)),
            None => under(base, cwd, path),
        }
    }

    /// The answers for the folder of `path`, and its name, when `path` names a file that is not
    /// a symbolic link.
    fn folder<'p>(
        &self,
        base: &Path,
        cwd: &Path,
        path: &'p Path,
    ) -> Option<(Folder, &'p std::ffi::OsStr)> {
        let Some(Component::Normal(name)) = path.components().next_back() else {
            return None;
        };
        let parent = path.parent()?;
        let mut memo = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
        let joined = cwd.join(path);
        let known = memo.links.get(&joined).copied();
        let is_link = known.unwrap_or_else(|| {
            let link = std::fs::symlink_metadata(&joined)
                .ok()
                .map(|m| m.is_symlink());
            remember(&mut memo.links, joined, link)
        });
        if is_link != Some(false) {
            return None;
        }
        let key = (base.to_path_buf(), cwd.to_path_buf(), parent.to_path_buf());
        if let Some(folder) = memo.folders.get(&key) {
            return Some((folder.clone(), name));
        }
        let absolute = absolute(cwd, parent);
        let under = if base.as_os_str().is_empty() {
            None
        } else {
            memo.under(base, &absolute)
        };
        let folder = remember(&mut memo.folders, key, Folder { absolute, under });
        Some((folder, name))
    }
}

impl Memo {
    /// [`under`] of a path already made [`absolute`].
    fn under(&mut self, base: &Path, absolute: &Path) -> Option<PathBuf> {
        if let Ok(inside) = absolute.strip_prefix(base) {
            return Some(inside.to_path_buf());
        }
        let base = self.resolved(base)?;
        if let Ok(inside) = absolute.strip_prefix(&base) {
            return Some(inside.to_path_buf());
        }
        let file = self.resolved(absolute)?;
        file.strip_prefix(base).ok().map(Path::to_path_buf)
    }

    /// `path` (absolute) with every link resolved, as `canonicalize` gives it: its parent's,
    /// with its name added when it is not a link itself.
    fn resolved(&mut self, path: &Path) -> Option<PathBuf> {
        if let Some(known) = self.resolved.get(path) {
            return known.clone();
        }
        let plain = path.is_absolute()
            && path
                .components()
                .all(|c| matches!(c, Component::RootDir | Component::Normal(_)));
        let found = match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) if plain => match std::fs::symlink_metadata(path) {
                Ok(metadata) if !metadata.is_symlink() => {
                    self.resolved(parent).map(|p| p.join(name))
                }
                Ok(_) => path.canonicalize().ok(),
                Err(_) => None,
            },
            _ => path.canonicalize().ok(),
        };
        remember(&mut self.resolved, path.to_path_buf(), found)
    }
}

/// `.` and `..` taken out without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether two paths lead to the same file or folder.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    }
}

/// A path as text, losslessly: as it is when it is UTF-8 without control characters; otherwise
/// every byte that is not part of valid UTF-8, and every control character (bidi controls
/// included, see [`hotfix_diagnostics::is_unsafe`]), is written as `\xHH`, and a backslash as
/// `\\`, so that the text names exactly one path, a file name with a line break cannot break a
/// line of output, and none can drive a terminal.
pub fn escaped(path: &Path) -> String {
    let bytes = path_bytes(path);
    // On Windows a backslash separates folders; elsewhere it is part of a name and, once names
    // are escaped, must be escaped itself.
    let backslash_is_text = cfg!(unix);
    let needs_escape = |c: char| {
        c.is_control() || hotfix_diagnostics::is_unsafe(c) || (c == '\\' && backslash_is_text)
    };
    let plain = std::str::from_utf8(&bytes)
        .ok()
        .filter(|text| !text.chars().any(needs_escape));
    if let Some(text) = plain {
        return text.to_owned();
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    let mut rest: &[u8] = &bytes;
    while !rest.is_empty() {
        let (valid, invalid) = match std::str::from_utf8(rest) {
            Ok(text) => (text, &[][..]),
            Err(err) => {
                let (valid, after) = rest.split_at(err.valid_up_to());
                let bad = err.error_len().unwrap_or(after.len());
                (
                    std::str::from_utf8(valid).unwrap_or_default(),
                    &after[..bad],
                )
            }
        };
        for c in valid.chars() {
            if c == '\\' && backslash_is_text {
                out.push_str("\\\\");
            } else if c.is_control() || hotfix_diagnostics::is_unsafe(c) {
                // Every byte of its UTF-8 form (`\xC2\x85` for U+0085), never to be confused
                // with a lone byte that is not UTF-8 (`\x85`).
                let mut utf8 = [0; 4];
                for byte in c.encode_utf8(&mut utf8).bytes() {
                    let _ = write!(out, "\\x{byte:02X}");
                }
            } else {
                out.push(c);
            }
        }
        for byte in invalid {
            let _ = write!(out, "\\x{byte:02X}");
        }
        rest = &rest[valid.len() + invalid.len()..];
    }
    out
}

/// The bytes of a path as the system gives them (on Unix, the raw bytes of the name).
pub fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        std::borrow::Cow::Borrowed(std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()))
    }
    #[cfg(not(unix))]
    {
        std::borrow::Cow::Owned(path.to_string_lossy().into_owned().into_bytes())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn escaped_names_name_exactly_one_path() {
        use std::os::unix::ffi::OsStrExt as _;
        let name = |bytes: &[u8]| escaped(Path::new(std::ffi::OsStr::from_bytes(bytes)));
        assert_eq!(name(b"plain.yaml"), "plain.yaml");
        assert_eq!(name(b"a\x85.yaml"), "a\\x85.yaml");
        assert_eq!(name("a\u{85}.yaml".as_bytes()), "a\\xC2\\x85.yaml");
        assert_eq!(name(b"a\\x85.yaml"), "a\\\\x85.yaml");
        assert_eq!(name(b"two\nlines"), "two\\x0Alines");
    }

    #[test]
    fn the_resolver_gives_what_absolute_and_under_give() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(top.join("deep/inner/project/sub")).unwrap();
        std::fs::create_dir_all(top.join("deep/inner/other")).unwrap();
        std::fs::create_dir_all(top.join("other")).unwrap();
        for file in [
            "deep/inner/other/a.yaml",
            "other/a.yaml",
            "deep/inner/project/sub/b.yaml",
        ] {
            std::fs::write(top.join(file), "").unwrap();
        }
        symlink(top.join("deep/inner/project"), top.join("project")).unwrap();
        // A file that is a link to a file elsewhere, and a link to a folder.
        symlink(
            top.join("other/a.yaml"),
            top.join("deep/inner/project/sub/l.yaml"),
        )
        .unwrap();
        symlink(top.join("other"), top.join("deep/inner/project/linked")).unwrap();
        let paths = [
            "x.yaml",
            "sub/b.yaml",
            "sub/l.yaml",
            "sub/../sub/b.yaml",
            "sub/../sub/l.yaml",
            "../other/a.yaml",
            "../project/sub/l.yaml",
            "linked/a.yaml",
            "linked/../other/a.yaml",
            "sub",
            "sub/..",
            ".",
        ];
        let cwds = [top.join("project"), top.clone(), top.join("deep/inner")];
        let bases = [
            top.join("project"),
            top.clone(),
            top.join("deep"),
            top.join("other"),
            top.join("nowhere"),
        ];
        let resolver = Resolver::default();
        // Twice: the second time from what the first worked out.
        for _ in 0..2 {
            for cwd in &cwds {
                for path in paths.iter().map(Path::new) {
                    assert_eq!(
                        resolver.absolute(cwd, path),
                        absolute(cwd, path),
                        "{path:?}"
                    );
                    for base in &bases {
                        assert_eq!(
                            resolver.under(base, cwd, path),
                            under(base, cwd, path),
                            "{path:?} under {base:?} from {cwd:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn names_through_links_are_kept_unless_a_dot_dot_leaves_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(top.join("deep/inner/project/sub")).unwrap();
        std::fs::create_dir_all(top.join("deep/inner/other")).unwrap();
        std::fs::create_dir_all(top.join("other")).unwrap();
        std::fs::write(top.join("deep/inner/other/a.yaml"), "").unwrap();
        std::fs::write(top.join("other/a.yaml"), "").unwrap();
        symlink(top.join("deep/inner/project"), top.join("project")).unwrap();
        let cwd = top.join("project");

        // Without `..`, and with a `..` that stays inside: the names as given.
        assert_eq!(absolute(&cwd, Path::new("x.yaml")), cwd.join("x.yaml"));
        assert_eq!(
            absolute(&cwd, Path::new("sub/../x.yaml")),
            cwd.join("x.yaml")
        );
        // `project/..` is `deep/inner` for the system, not `top`: the resolved path.
        assert_eq!(
            absolute(&cwd, Path::new("../other/a.yaml")),
            top.join("deep/inner/other/a.yaml")
        );
        assert_eq!(
            under(&top.join("deep"), &cwd, Path::new("../other/a.yaml")),
            Some(PathBuf::from("inner/other/a.yaml"))
        );
        // A folder under the base through a link: the link's name, not its target's.
        assert_eq!(
            under(
                &top.join("project"),
                &top,
                Path::new("deep/inner/project/sub")
            ),
            Some(PathBuf::from("sub"))
        );
        symlink(top.join("other"), top.join("deep/inner/project/linked")).unwrap();
        assert_eq!(
            under(
                &top.join("project"),
                &top,
                Path::new("deep/inner/project/linked/a.yaml")
            ),
            Some(PathBuf::from("linked/a.yaml"))
        );
        // A file under the base by its link's target only.
        assert_eq!(
            under(
                &top.join("deep/inner/project"),
                &top,
                Path::new("project/sub")
            ),
            Some(PathBuf::from("sub"))
        );
        assert_eq!(under(&top.join("other"), &cwd, Path::new("x.yaml")), None);
    }
}
