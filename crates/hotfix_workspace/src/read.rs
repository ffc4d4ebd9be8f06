//! Reading inputs with a bound: a template can be no larger than Heat's limit, so hotfix never
//! reads more than a few times that (a `/dev/zero`, a 1 GB JSON file in the tree, a FIFO that
//! never ends are not read whole).

use std::io::{self, Read as _};
use std::path::Path;

/// How many bytes hotfix reads of one input at most: Heat's limit counts characters, and a
/// character has at most 4 bytes in UTF-8, so a template within the limit always fits.
pub const BOUND: usize = 4 * hotfix_yaml::MAX_TEMPLATE_SIZE;

/// An input, read up to [`BOUND`].
#[derive(Debug)]
pub enum Input {
    Whole(Vec<u8>),
    /// Longer than [`BOUND`]: its first bytes (for telling what it is) and, counted as the
    /// rest streamed by without being kept, its length in characters as Heat would count them.
    TooLarge {
        head: Vec<u8>,
        chars: usize,
        /// False when the input was too long to be counted to its end (`chars` is then a lower
        /// bound).
        exact: bool,
    },
}

/// Reads a file named on the command line (a regular file, a FIFO, `/dev/stdin`, a process
/// substitution, …: what the user names is read as it comes) up to the bound.
pub fn file(path: &Path) -> io::Result<Input> {
    let file = std::fs::File::open(path)?;
    let size = regular_size(&file);
    stream(file, size)
}

/// Reads a file found in a tree (walked, not named) up to the bound, when it is a regular
/// file: one that has become a FIFO or a device since it was listed is refused, not waited on.
pub fn regular(path: &Path) -> io::Result<Input> {
    let (file, size) = open_regular(path)?;
    stream(file, size)
}

/// Reads a file found in a tree as [`regular`] does, but its first `prefix` bytes first: when
/// `skip` finds in them a reason not to read on, that reason (the rest is never read).
pub fn file_unless<T>(
    path: &Path,
    prefix: usize,
    skip: impl FnOnce(&[u8]) -> Option<T>,
) -> io::Result<Result<Input, T>> {
    let (mut file, size) = open_regular(path)?;
    let mut head = Vec::with_capacity(size.min(prefix));
    (&mut file).take(prefix as u64).read_to_end(&mut head)?;
    if let Some(reason) = skip(&head) {
        return Ok(Err(reason));
    }
    stream(io::Cursor::new(head).chain(file), size).map(Ok)
}

/// A regular file's size, which says how much to set aside: one allocation, not a growing
/// series of them (which, over thousands of files and threads, fragments the allocator's
/// memory); 0 for anything else.
fn regular_size(file: &std::fs::File) -> usize {
    file.metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)
        .and_then(|m| usize::try_from(m.len()).ok())
        .unwrap_or(0)
}

/// The text of the regular file at `path`, of at most `bound` bytes: how hotfix reads every
/// file it opens for what a file names (nested templates, environments of the tree, `get_file`
/// targets, Cloudify imports, configurations). A FIFO, a device or a folder is refused before
/// it is read (it could block or never end), and so is a file over the bound, unread.
pub fn text_within(path: &Path, bound: usize) -> io::Result<String> {
    let (file, size) = open_regular(path)?;
    if size > bound {
        return Err(too_long(bound));
    }
    let mut bytes = Vec::with_capacity(size + 1);
    file.take(bound as u64 + 1).read_to_end(&mut bytes)?;
    // The file may have grown since it was measured.
    if bytes.len() > bound {
        return Err(too_long(bound));
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// The error of a file larger than `bound` bytes.
fn too_long(bound: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("it is larger than {bound} bytes"),
    )
}

/// Opens `path` for reading when it is a regular file, and says its size. It is opened
/// without blocking (a FIFO with no writer would wait forever), then refused unless regular.
pub fn open_regular(path: &Path) -> io::Result<(std::fs::File, usize)> {
    let file = open_listed(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok((file, usize::try_from(metadata.len()).unwrap_or(usize::MAX)))
}

/// Opens `path`, which a walk listed as a regular file, for reading, without asking again what
/// it is: it is opened without blocking, so that one that has become a FIFO since it was listed
/// reads as empty or fails, and whoever reads it stops at a bound (a device that never ends).
/// A walk over thousands of files saves a system call per file.
pub fn open_listed(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(i32::try_from(rustix::fs::OFlags::NONBLOCK.bits()).unwrap_or(0));
    }
    options.open(path)
}

/// Reads standard input up to the bound.
pub fn stdin() -> io::Result<Input> {
    stream(io::stdin().lock(), 0)
}

/// Reads `reader` up to the bound; `size` is what it is expected to hold (0 when unknown).
fn stream(mut reader: impl io::Read, size: usize) -> io::Result<Input> {
    // One more byte than expected, to see the end without growing.
    let mut head = Vec::with_capacity(size.min(BOUND) + 1);
    (&mut reader)
        .take(BOUND as u64 + 1)
        .read_to_end(&mut head)?;
    if head.len() <= BOUND {
        return Ok(Input::Whole(head));
    }
    // Count what follows in characters (UTF-8 lead bytes), keeping nothing of it, and stop
    // counting far past the limit: the message only needs to say by how much it is over.
    let mut chars = count_chars(&head);
    let mut buffer = vec![0; 64 * 1024];
    let mut read = head.len();
    let mut exact = false;
    while read < 64 * BOUND {
        let n = reader.read(&mut buffer)?;
        if n == 0 {
            exact = true;
            break;
        }
        chars += count_chars(&buffer[..n]);
        read += n;
    }
    head.truncate(64 * 1024);
    Ok(Input::TooLarge { head, chars, exact })
}

/// Characters in UTF-8 bytes: every byte that is not a continuation byte.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_only_regular_files_within_the_bound() {
        let dir = tempfile::tempdir().expect("temp dir");
        let small = dir.path().join("small.yaml");
        std::fs::write(&small, "a: 1\n").expect("write");
        assert_eq!(text_within(&small, 5).expect("read"), "a: 1\n");
        let err = text_within(&small, 4).expect_err("too large");
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        let err = text_within(dir.path(), BOUND).expect_err("a folder");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        #[cfg(unix)]
        {
            let err = text_within(Path::new("/dev/zero"), BOUND).expect_err("a device");
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
            // A FIFO without a writer is refused at once, not waited on.
            let fifo = dir.path().join("fifo.yaml");
            rustix::fs::mkfifoat(
                rustix::fs::CWD,
                &fifo,
                rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            )
            .expect("mkfifo");
            let err = text_within(&fifo, BOUND).expect_err("a FIFO");
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_file_found_in_a_tree_that_is_a_fifo_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo.yaml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let err = regular(&fifo).expect_err("a FIFO");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        let err = file_unless(&fifo, 10, |_| None::<()>).expect_err("a FIFO");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        let err = regular(Path::new("/dev/zero")).expect_err("a device");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        let regular_file = dir.path().join("t.yaml");
        std::fs::write(&regular_file, "a: 1\n").expect("write");
        assert!(matches!(regular(&regular_file), Ok(Input::Whole(bytes)) if bytes == b"a: 1\n"));
    }

    #[test]
    fn reads_an_input_within_the_bound_whole() {
        let Input::Whole(bytes) = stream(&b"heat_template_version: pike\n"[..], 28).expect("read")
        else {
            panic!("whole");
        };
        assert_eq!(bytes.len(), 28);
    }

    #[test]
    fn an_endless_input_is_not_read_whole() {
        let Input::TooLarge { head, chars, exact } = stream(io::repeat(b'a'), 0).expect("read")
        else {
            panic!("too large");
        };
        assert_eq!(head.len(), 64 * 1024);
        assert!(chars > hotfix_yaml::MAX_TEMPLATE_SIZE);
        assert!(!exact);
    }

    #[test]
    fn a_file_is_read_past_its_first_bytes_only_when_they_say_to() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f");
        let text = "x".repeat(100);
        std::fs::write(&path, &text).expect("write");
        let mut seen = 0;
        let skipped = file_unless(&path, 10, |head| {
            seen = head.len();
            Some("no")
        })
        .expect("read");
        assert!(matches!(skipped, Err("no")));
        assert_eq!(seen, 10);
        let Ok(Input::Whole(bytes)) = file_unless(&path, 10, |_| None::<()>).expect("read") else {
            panic!("whole");
        };
        assert_eq!(bytes, text.as_bytes());
    }

    #[test]
    fn counts_characters_as_heat_does() {
        let text = "é".repeat(BOUND / 2 + 10);
        let Input::TooLarge { chars, exact, .. } = stream(text.as_bytes(), 0).expect("read") else {
            panic!("too large");
        };
        assert_eq!(chars, BOUND / 2 + 10);
        assert!(exact);
    }
}
