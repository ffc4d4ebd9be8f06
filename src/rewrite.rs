//! Rewriting a template in place, safely: what `hotfix upgrade` and `hotfix lint --fix` write;
//! and writing reports (`--output`, baselines) the same way ([`Replacement`]).
//!
//! - The new text goes to a temporary file in the target's folder, created exclusively (a
//!   random name, `O_CREAT|O_EXCL`, which never follows a planted symbolic link) and private
//!   (mode 0600) until it is complete, synced, given the original's permissions, owner and
//!   group (where the user may), and renamed over the original: the file is either the old text
//!   or the new, never half-written.
//! - A symbolic link is written through: its target gets the new text and the link stays.
//! - A file with other hard links, extended attributes or POSIX ACLs would lose them to a new
//!   inode, so it is rewritten in place instead (same inode: truncated and written, then
//!   synced), after the caller has proven the new text. That is the one case where a crash
//!   in the middle could leave a partial file; the alternative, refusing, would leave such
//!   repositories without upgrades.
//! - A read-only file, or one deleted during the run, is left alone with a clear error.
//! - Temporary files carry the writer's process id (`.NAME.hotfix-PID-RANDOM.tmp`): one left by
//!   a run that was killed is recognised (its process is gone) and removed by the next run
//!   that writes into the same folder.

use std::ffi::OsString;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// How a file was rewritten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rewritten {
    /// A new file renamed over the old one.
    Replaced,
    /// The same inode, written in place (hard links, extended attributes or ACLs kept).
    InPlace,
}

/// Writes `text` as the new content of the template at `path` (see the module docs), only if
/// the file still holds `read`, the bytes the new text was made from: an edit saved while
/// hotfix worked is never overwritten (the file is left alone, with an error that says so).
pub(crate) fn rewrite(path: &Path, read: &[u8], text: &[u8]) -> io::Result<Rewritten> {
    // Write through symbolic links: the link stays, its target changes.
    let target = std::fs::canonicalize(path)?;
    let metadata = std::fs::metadata(&target)?;
    if !metadata.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    if metadata.permissions().readonly() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the file is read-only",
        ));
    }
    let dir = target.parent().unwrap_or(Path::new("/"));
    remove_stale_temporaries(dir);
    if must_keep_inode(&target, &metadata) {
        write_in_place(&target, &metadata, read, text)?;
        return Ok(Rewritten::InPlace);
    }
    let mut temp = temporary_beside(&target)?;
    temp.write_all(text)?;
    temp.as_file().sync_all()?;
    keep_owner(temp.as_file(), &metadata);
    temp.as_file().set_permissions(metadata.permissions())?;
    // The original may have been deleted while we worked: do not resurrect it. It may have been
    // saved again: do not overwrite the edit. (Compared as late as can be: what is saved in
    // the instant between the comparison and the rename is still lost.)
    // Opened without waiting: a FIFO put in its place would block a plain open.
    let mut current = match crate::read::open_regular(&target) {
        Ok((file, _)) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                "the file was deleted during the run",
            ));
        }
        Err(err) if err.kind() == io::ErrorKind::InvalidInput => {
            return Err(io::Error::other(
                "the file was replaced during the run (it is no longer a regular file); it is \
                 left alone",
            ));
        }
        Err(err) => return Err(err),
    };
    unchanged(&mut current, read)?;
    temp.persist(&target).map_err(|err| err.error)?;
    sync_folder(dir);
    Ok(Rewritten::Replaced)
}

/// A private temporary file in `target`'s folder, named after it and after this process
/// (`.NAME.hotfix-PID-RANDOM.tmp`), created exclusively.
fn temporary_beside(target: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = folder_of(target);
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    // A name near the system's limit (255 bytes) leaves no room for the suffix: keep its start.
    let mut short = name.len().min(100);
    while !name.is_char_boundary(short) {
        short -= 1;
    }
    let prefix = format!(".{}.hotfix-{}-", &name[..short], std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    private(&mut builder);
    builder.tempfile_in(dir)
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A report (`--output`, a baseline) written as it is made, through a temporary file of the
/// same kind as a template's, and put in place at [`Replacement::commit`]: readers see the old
/// file or the complete new one, never a part. Dropped without a commit (an error, Ctrl-C), it
/// leaves the old file as it was and no temporary file.
///
/// A symbolic link is written through (the link stays); an existing file keeps its permissions,
/// a new one is readable by all (0644). A path that is neither a file nor a folder (`/dev/null`,
/// `/dev/stdout`, a named pipe) is written to as it is: it has no text to keep whole.
pub(crate) struct Replacement {
    inner: Inner,
}

enum Inner {
    Temporary {
        temp: io::BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
        permissions: Option<std::fs::Permissions>,
    },
    Stream(io::BufWriter<std::fs::File>),
}

impl Replacement {
    /// Starts the new text of the file at `path`.
    pub(crate) fn create(path: &Path) -> io::Result<Replacement> {
        let target = match std::fs::canonicalize(path) {
            Ok(target) => target,
            // A new file (or a dangling link, which is replaced like a new file).
            Err(err) if err.kind() == io::ErrorKind::NotFound => path.to_path_buf(),
            Err(err) => return Err(err),
        };
        let permissions = match std::fs::metadata(&target) {
            Ok(metadata) if metadata.is_dir() => {
                return Err(io::Error::other("a folder, not a file"));
            }
            Ok(metadata) if !metadata.is_file() => {
                let stream = std::fs::OpenOptions::new().write(true).open(&target)?;
                return Ok(Replacement {
                    inner: Inner::Stream(io::BufWriter::new(stream)),
                });
            }
            Ok(metadata) => Some(metadata.permissions()),
            Err(_) => None,
        };
        remove_stale_temporaries(folder_of(&target));
        let temp = temporary_beside(&target)?;
        Ok(Replacement {
            inner: Inner::Temporary {
                temp: io::BufWriter::new(temp),
                target,
                permissions,
            },
        })
    }

    /// Puts the complete text in place.
    pub(crate) fn commit(self) -> io::Result<()> {
        let (temp, target, permissions) = match self.inner {
            Inner::Stream(mut stream) => return stream.flush(),
            Inner::Temporary {
                temp,
                target,
                permissions,
            } => (temp, target, permissions),
        };
        let temp = temp.into_inner().map_err(io::IntoInnerError::into_error)?;
        temp.as_file().sync_all()?;
        match permissions {
            Some(permissions) => temp.as_file().set_permissions(permissions)?,
            None => set_default_permissions(temp.as_file())?,
        }
        temp.persist(&target).map_err(|err| err.error)?;
        sync_folder(folder_of(&target));
        Ok(())
    }
}

impl io::Write for Replacement {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.inner {
            Inner::Temporary { temp, .. } => temp.write(buf),
            Inner::Stream(stream) => stream.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Temporary { temp, .. } => temp.flush(),
            Inner::Stream(stream) => stream.flush(),
        }
    }
}

/// Writes `bytes` as the whole new text of the report at `path` (see [`Replacement`]).
pub(crate) fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut replacement = Replacement::create(path)?;
    replacement.write_all(bytes)?;
    replacement.commit()
}

/// A new report is for everyone to read.
#[cfg(unix)]
fn set_default_permissions(file: &std::fs::File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_default_permissions(_: &std::fs::File) -> io::Result<()> {
    Ok(())
}

/// The temporary files a run of hotfix writes, by name.
fn temporary_owner(name: &OsString) -> Option<u32> {
    let name = name.to_str()?;
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, tail) = rest.rsplit_once(".hotfix-")?;
    let (pid, random) = tail.split_once('-')?;
    if random.is_empty() {
        return None;
    }
    pid.parse().ok()
}

/// Removes the temporary files of runs that were killed before they could clean up.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = temporary_owner(&entry.file_name()) else {
            continue;
        };
        if pid != std::process::id() && !process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        // It exists, but belongs to someone else.
        Err(err) => err == rustix::io::Errno::PERM,
    }
}

#[cfg(not(unix))]
fn process_alive(_: u32) -> bool {
    // Without a way to ask, assume it runs: a stale file stays rather than a live one going.
    true
}

/// Temporary files are readable by their owner only until they are complete.
#[cfg(unix)]
fn private(builder: &mut tempfile::Builder<'_, '_>) {
    use std::os::unix::fs::PermissionsExt as _;
    builder.permissions(std::fs::Permissions::from_mode(0o600));
}

#[cfg(not(unix))]
fn private(_: &mut tempfile::Builder<'_, '_>) {}

/// Whether a new inode would lose something: other hard links, extended attributes (POSIX ACLs
/// are stored as extended attributes too).
#[cfg(unix)]
fn must_keep_inode(path: &Path, metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    metadata.nlink() > 1 || has_own_xattrs(path)
}

#[cfg(not(unix))]
fn must_keep_inode(_: &Path, _: &std::fs::Metadata) -> bool {
    false
}

/// Extended attributes a new file would not get by itself. Labels the system gives every file
/// (an SELinux context, macOS's quarantine and provenance marks) do not count: were they
/// counted, every file on such a system would be rewritten in place, without the atomicity of
/// a rename.
#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
fn has_own_xattrs(path: &Path) -> bool {
    const EVERY_FILE_HAS: [&[u8]; 3] = [
        b"security.selinux",
        b"com.apple.quarantine",
        b"com.apple.provenance",
    ];
    // An error (no support for extended attributes on this file system) means none.
    let Ok(size) = rustix::fs::listxattr_query(path) else {
        return false;
    };
    if size == 0 {
        return false;
    }
    let mut names = vec![0; size];
    let Ok(len) = rustix::fs::listxattr(path, &mut names) else {
        // The list changed meanwhile: assume something worth keeping is there.
        return true;
    };
    names[..len]
        .split(|&b| b == 0)
        .filter(|name| !name.is_empty())
        .any(|name| !EVERY_FILE_HAS.contains(&name))
}

/// Elsewhere rustix lists no extended attributes: only hard links count.
#[cfg(all(
    unix,
    not(any(target_os = "linux", target_os = "android", target_vendor = "apple"))
))]
fn has_own_xattrs(_: &Path) -> bool {
    false
}

/// Writes the same inode: opened without following a link, and only if it is still the file
/// that was checked (a link or another file put in its place meanwhile is refused).
fn write_in_place(
    path: &Path,
    checked: &std::fs::Metadata,
    read: &[u8],
    text: &[u8],
) -> io::Result<()> {
    use std::io::Seek as _;
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true);
    no_follow(&mut options);
    let mut file = options.open(path)?;
    if !same_file(&file.metadata()?, checked) {
        return Err(io::Error::other(
            "the file was replaced during the run; it is left alone",
        ));
    }
    unchanged(&mut file, read)?;
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(text)?;
    file.sync_all()
}

/// Fails unless `file` (open at its start) holds exactly `read`.
fn unchanged(file: &mut std::fs::File, read: &[u8]) -> io::Result<()> {
    use std::io::Read as _;
    let changed = || {
        io::Error::other(
            "the file changed on disk during the run (it no longer holds the text hotfix read); \
             it is left alone: run hotfix again",
        )
    };
    if file.metadata()?.len() != read.len() as u64 {
        return Err(changed());
    }
    // One byte more than expected, to see a file that grew after the size was taken.
    let mut current = Vec::with_capacity(read.len() + 1);
    std::io::Read::by_ref(file)
        .take(read.len() as u64 + 1)
        .read_to_end(&mut current)?;
    if current != read {
        return Err(changed());
    }
    Ok(())
}

#[cfg(unix)]
fn no_follow(options: &mut std::fs::OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt as _;
    #[allow(clippy::cast_possible_wrap, reason = "open(2) flags are a C int")]
    options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
}

#[cfg(not(unix))]
fn no_follow(_: &mut std::fs::OpenOptions) {}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    true
}

/// Gives the new file the original's owner and group where the user may (root may; others may
/// at least choose among their own groups); silently keeps what it has otherwise.
#[cfg(unix)]
fn keep_owner(file: &std::fs::File, original: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt as _;
    if std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid())).is_err() {
        let _ = std::os::unix::fs::fchown(file, None, Some(original.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) {}

/// Makes the rename durable (best effort: not every system can sync a folder).
fn sync_folder(dir: &Path) {
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
}

/// Every path once, by what it names on disk: `d`, `./d` and `d/../d` are one folder.
pub(crate) fn dedup_by_canonical(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut seen = std::collections::HashSet::new();
    paths
        .into_iter()
        .filter(|path| seen.insert(std::fs::canonicalize(path).unwrap_or_else(|_| path.clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).expect("read")
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .expect("read_dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".hotfix-"))
            .collect()
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, "old").expect("write");
        assert_eq!(
            rewrite(&path, b"old", b"new").expect("rewrite"),
            Rewritten::Replaced
        );
        assert_eq!(read(&path), "new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, "old").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        rewrite(&path, b"old", b"new").expect("rewrite");
        let mode = std::fs::metadata(&path).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn writes_through_a_symbolic_link_and_keeps_the_link() {
        let dir = tempfile::tempdir().expect("tempdir");
        let real = dir.path().join("real.yaml");
        let link = dir.path().join("link.yaml");
        std::fs::write(&real, "old").expect("write");
        std::os::unix::fs::symlink("real.yaml", &link).expect("symlink");
        rewrite(&link, b"old", b"new").expect("rewrite");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("lstat")
                .file_type()
                .is_symlink()
        );
        assert_eq!(read(&real), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_with_hard_links_keeps_its_inode() {
        use std::os::unix::fs::MetadataExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.yaml");
        let other = dir.path().join("other.yaml");
        std::fs::write(&path, "a much longer old text").expect("write");
        std::fs::hard_link(&path, &other).expect("link");
        let inode = std::fs::metadata(&path).expect("stat").ino();
        assert_eq!(
            rewrite(&path, b"a much longer old text", b"new").expect("rewrite"),
            Rewritten::InPlace
        );
        assert_eq!(std::fs::metadata(&path).expect("stat").ino(), inode);
        assert_eq!(read(&other), "new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn an_edit_saved_during_the_run_is_not_overwritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.yaml");
        // Saved meanwhile: other bytes of the same length, and a longer text.
        for edit in ["odd", "old and edited"] {
            std::fs::write(&path, edit).expect("write");
            let err = rewrite(&path, b"old", b"new").expect_err("changed");
            assert!(err.to_string().contains("changed on disk"), "{err}");
            assert_eq!(read(&path), edit);
            assert!(leftovers(dir.path()).is_empty());
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_edit_saved_during_the_run_is_not_overwritten_in_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, "edited").expect("write");
        std::fs::hard_link(&path, dir.path().join("other.yaml")).expect("link");
        let err = rewrite(&path, b"old", b"new").expect_err("changed");
        assert!(err.to_string().contains("changed on disk"), "{err}");
        assert_eq!(read(&path), "edited");
    }

    #[test]
    fn a_read_only_file_is_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, "old").expect("write");
        let mut permissions = std::fs::metadata(&path).expect("stat").permissions();
        permissions.set_readonly(true);
        std::fs::set_permissions(&path, permissions).expect("chmod");
        let err = rewrite(&path, b"old", b"new").expect_err("read-only");
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(read(&path), "old");
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_at_a_temporary_name_is_never_followed() {
        // An attacker cannot guess the random part; even a link at every name of the old,
        // predictable scheme changes nothing.
        let dir = tempfile::tempdir().expect("tempdir");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").expect("write");
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, "old").expect("write");
        let planted = dir
            .path()
            .join(format!(".t.yaml.hotfix-{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, planted).expect("symlink");
        rewrite(&path, b"old", b"new").expect("rewrite");
        assert_eq!(read(&victim), "precious");
        assert_eq!(read(&path), "new");
    }

    #[test]
    fn a_name_near_the_systems_limit_is_rewritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(format!("{}.yaml", "x".repeat(245)));
        std::fs::write(&path, "old").expect("write");
        rewrite(&path, b"old", b"new").expect("rewrite");
        assert_eq!(read(&path), "new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_with_a_user_attribute_keeps_its_inode() {
        use std::os::unix::fs::MetadataExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, "old").expect("write");
        if rustix::fs::setxattr(
            &path,
            "user.hotfix-test",
            b"1",
            rustix::fs::XattrFlags::empty(),
        )
        .is_err()
        {
            println!("skipped: this file system takes no user extended attributes");
            return;
        }
        let inode = std::fs::metadata(&path).expect("stat").ino();
        assert_eq!(
            rewrite(&path, b"old", b"new").expect("rewrite"),
            Rewritten::InPlace
        );
        assert_eq!(std::fs::metadata(&path).expect("stat").ino(), inode);
        assert_eq!(read(&path), "new");
    }

    #[test]
    fn recognises_the_temporary_files_of_hotfix_only() {
        let owner = |name: &str| temporary_owner(&OsString::from(name));
        assert_eq!(owner(".t.yaml.hotfix-1234-aB3xYz.tmp"), Some(1234));
        assert_eq!(owner(".a.hotfix-b.yaml.hotfix-77-Q.tmp"), Some(77));
        assert_eq!(owner(".t.yaml.hotfix-1234.tmp"), None);
        assert_eq!(owner("t.yaml.hotfix-1234-x.tmp"), None);
        assert_eq!(owner(".t.yaml.hotfix-12x-y.tmp"), None);
        assert_eq!(owner(".t.yaml"), None);
    }

    #[cfg(unix)]
    #[test]
    fn removes_the_temporary_files_of_a_killed_run_but_not_of_a_running_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut dead = std::process::Command::new("true").spawn().expect("spawn");
        let dead_pid = dead.id();
        dead.wait().expect("wait");
        let stale = dir
            .path()
            .join(format!(".t.yaml.hotfix-{dead_pid}-abc.tmp"));
        let live = dir.path().join(".t.yaml.hotfix-1-abc.tmp"); // pid 1 always runs
        std::fs::write(&stale, "half").expect("write");
        std::fs::write(&live, "half").expect("write");
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, "old").expect("write");
        rewrite(&path, b"old", b"new").expect("rewrite");
        assert!(!stale.exists());
        assert!(live.exists());
    }

    #[test]
    fn the_same_folder_named_three_ways_is_one_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path().join("d");
        std::fs::create_dir(&d).expect("mkdir");
        let paths = vec![d.clone(), d.join("."), d.join("../d")];
        assert_eq!(dedup_by_canonical(paths), [d]);
    }

    #[test]
    fn a_report_is_put_in_place_only_when_complete() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("report.sarif");
        std::fs::write(&path, "old").expect("write");
        let mut replacement = Replacement::create(&path).expect("create");
        replacement.write_all(b"new, ").expect("write");
        assert_eq!(read(&path), "old");
        // Dropped (an error, Ctrl-C): the old report stays, and no temporary file.
        drop(replacement);
        assert_eq!(read(&path), "old");
        assert!(leftovers(dir.path()).is_empty());
        let mut replacement = Replacement::create(&path).expect("create");
        replacement.write_all(b"new").expect("write");
        replacement.commit().expect("commit");
        assert_eq!(read(&path), "new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_report_is_written_through_a_link_with_the_permissions_it_had() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        std::fs::write(&real, "old").expect("write");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        std::os::unix::fs::symlink("real.json", &link).expect("symlink");
        replace(&link, b"new").expect("replace");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("lstat")
                .file_type()
                .is_symlink()
        );
        assert_eq!(read(&real), "new");
        let mode = std::fs::metadata(&real).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        // A new report is readable by all.
        let fresh = dir.path().join("fresh.json");
        replace(&fresh, b"x").expect("replace");
        let mode = std::fs::metadata(&fresh)
            .expect("stat")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644);
    }
}
