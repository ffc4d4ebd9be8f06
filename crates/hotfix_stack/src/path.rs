//! The canonical path of a file in a stack: what the analysis names files by.

use std::sync::Arc;

/// A file's path with `/` separators, `.` and empty components removed and `..` applied
/// lexically, as python-heatclient joins paths (`urllib.parse.urljoin` on `file://` URLs, which
/// never asks the file system about symbolic links). Absolute paths start with `/`; a relative
/// path is relative to wherever the file source reads from (the CLI: the working folder) and
/// keeps the leading `..` it cannot apply.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[must_use]
pub struct StackPath(Arc<str>);

impl StackPath {
    /// The same path, its text shared with the copy `texts` keeps ([`crate::Texts`]).
    pub(crate) fn shared_in(&self, texts: &mut crate::Texts) -> StackPath {
        StackPath(texts.shared(&self.0))
    }

    /// The canonical form of `text` (`\` is a separator too, for Windows paths).
    pub fn new(text: &str) -> StackPath {
        // Most paths are canonical already (a folder's path joined with a plain name, a
        // prefix of a canonical path): kept as they are, without splitting and joining.
        if is_canonical(text) {
            return StackPath(Arc::from(text));
        }
        // A walk of `.` names every file `./a/b.yaml`: canonical once its `./` is gone.
        let mut rest = text;
        while let Some(after) = rest.strip_prefix("./") {
            rest = after.trim_start_matches('/');
        }
        if rest.len() < text.len() && !rest.is_empty() && is_canonical(rest) {
            return StackPath(Arc::from(rest));
        }
        StackPath::normalized(text)
    }

    /// The canonical form of `text`, worked out part by part.
    fn normalized(text: &str) -> StackPath {
        let absolute = text.starts_with(['/', '\\']);
        let mut parts: Vec<&str> = Vec::new();
        for part in text.split(['/', '\\']) {
            match part {
                "" | "." => {}
                ".." => match parts.last() {
                    Some(&last) if last != ".." => {
                        parts.pop();
                    }
                    // `/..` is `/`, as urljoin makes it.
                    _ if absolute => {}
                    _ => parts.push(".."),
                },
                _ => parts.push(part),
            }
        }
        let joined = parts.join("/");
        let text = match (absolute, joined.is_empty()) {
            (true, _) => format!("/{joined}"),
            (false, true) => ".".to_owned(),
            (false, false) => joined,
        };
        StackPath(Arc::from(text))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_absolute(&self) -> bool {
        self.0.starts_with('/')
    }

    /// The folder holding this file (`.` for a bare file name).
    pub fn parent(&self) -> StackPath {
        match self.0.rsplit_once('/') {
            Some(("", _)) => StackPath::new("/"),
            Some((dir, _)) => StackPath::new(dir),
            None => StackPath::new("."),
        }
    }

    /// The last component.
    pub fn file_name(&self) -> &str {
        self.0.rsplit_once('/').map_or(&self.0, |(_, name)| name)
    }

    /// `reference` read relative to this folder (an absolute `reference` stands alone).
    pub fn join(&self, reference: &str) -> StackPath {
        if reference.starts_with(['/', '\\']) || self.0.as_ref() == "." {
            return StackPath::new(reference);
        }
        // This path is canonical: so is it joined with a canonical reference that climbs no
        // folder (`a.yaml`, `sub/b.yaml`, the usual), without splitting and joining again.
        let canonical = is_canonical(reference) && reference != ".";
        if canonical && reference.starts_with("..") {
            return self.climb(reference);
        }
        let plain = canonical && !reference.starts_with("..");
        let separator = if self.0.ends_with('/') { "" } else { "/" };
        let mut text = String::with_capacity(self.0.len() + separator.len() + reference.len());
        text.push_str(&self.0);
        text.push_str(separator);
        text.push_str(reference);
        if plain {
            return StackPath(Arc::from(text));
        }
        StackPath::new(&text)
    }

    /// [`StackPath::join`] of a canonical `reference` that climbs (`../a.yaml`): a folder of
    /// this path dropped for each leading `..` (none above `/`; kept as `..` where a relative
    /// path has no folder left), then the rest added, as normalizing the joined text does,
    /// without splitting and joining it.
    fn climb(&self, reference: &str) -> StackPath {
        let mut base: &str = &self.0;
        let mut above = 0;
        let mut rest = reference;
        while let Some(after) = rest.strip_prefix("..") {
            if !(after.is_empty() || after.starts_with('/')) {
                break;
            }
            rest = after.strip_prefix('/').unwrap_or(after);
            base = match base.rsplit_once('/') {
                // Nothing above the root.
                _ if base == "/" => base,
                // Nothing left to drop of a relative path: it climbs above where it starts.
                _ if base == "." || base == ".." => {
                    above += 1;
                    base
                }
                Some((_, "..")) => {
                    above += 1;
                    base
                }
                Some(("", _)) => "/",
                Some((folder, _)) => folder,
                None => ".",
            };
        }
        let mut text = String::with_capacity(base.len() + 3 * above + 1 + rest.len());
        let mut add = |part: &str| {
            if !(text.is_empty() || text.ends_with('/')) {
                text.push('/');
            }
            text.push_str(part);
        };
        if base != "." {
            add(base);
        }
        for _ in 0..above {
            add("..");
        }
        if !rest.is_empty() {
            add(rest);
        }
        if text.is_empty() {
            text.push('.');
        }
        StackPath(Arc::from(text))
    }

    /// Whether this path is `folder` or inside it (lexically). A relative folder of `..` only
    /// (`../..`) holds the working folder: every relative path that climbs no higher is in it.
    pub fn starts_with(&self, folder: &StackPath) -> bool {
        if folder.as_str() == "." {
            return !self.is_absolute() && !self.0.starts_with("..");
        }
        if folder.0.split('/').all(|part| part == "..") {
            let ups = |path: &str| path.split('/').take_while(|part| *part == "..").count();
            return !self.is_absolute() && ups(&self.0) <= ups(&folder.0);
        }
        if folder.as_str() == "/" {
            return self.is_absolute();
        }
        self.0 == folder.0
            || self
                .0
                .strip_prefix(folder.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    }
}

impl std::fmt::Debug for StackPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl std::fmt::Display for StackPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `text` is what [`StackPath::normalized`] makes of it: `.`, `/`, or parts joined by
/// single `/` (after one leading `/` when absolute), none empty, `.`, or holding `\`, and `..`
/// only as the leading parts of a relative path.
fn is_canonical(text: &str) -> bool {
    if text == "." || text == "/" {
        return true;
    }
    // Read as bytes (`/`, `.` and `\` are ASCII): splitting a `str` at a `char` costs several
    // times more, and paths are checked by the thousand.
    let (absolute, rest) = match text.as_bytes() {
        [b'/', rest @ ..] => (true, rest),
        bytes => (false, bytes),
    };
    if rest.is_empty() || rest.contains(&b'\\') {
        return false;
    }
    let mut climbing = !absolute;
    for part in rest.split(|&b| b == b'/') {
        match part {
            b".." if climbing => {}
            b"" | b"." | b".." => return false,
            _ => climbing = false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts of `rounds` rounds of joining every text so far with each of `parts` (from
    /// the empty text), each with and without a leading `/`.
    fn paths_of(parts: &[&str], rounds: usize) -> Vec<String> {
        let mut texts = vec![String::new()];
        for _ in 0..rounds {
            let mut longer = Vec::new();
            for text in &texts {
                for part in parts {
                    longer.push(if text.is_empty() {
                        (*part).to_owned()
                    } else {
                        format!("{text}/{part}")
                    });
                }
            }
            texts.extend(longer);
        }
        texts
            .iter()
            .flat_map(|t| [t.clone(), format!("/{t}")])
            .collect()
    }

    #[test]
    fn a_canonical_text_is_kept_and_any_other_normalized_alike() {
        // Every path of up to four parts drawn from these, with and without a leading `/`.
        let texts = paths_of(&["a", "b.yaml", ".", "..", "", "c\\d", "..."], 4);
        let mut canonical = 0;
        for text in texts {
            let slow = StackPath::normalized(&text);
            assert_eq!(StackPath::new(&text), slow, "{text:?}");
            assert_eq!(is_canonical(&text), text == slow.as_str(), "{text:?}");
            canonical += usize::from(is_canonical(&text));
        }
        assert!(canonical > 100, "{canonical}");
    }

    #[test]
    fn a_join_is_the_normalized_text_of_both() {
        // Every folder and reference of up to three parts drawn from these, with and without a
        // leading `/`: the quick join of a plain reference agrees with normalizing the text.
        let texts = paths_of(&["a", ".", "..", "", "c\\d", "..."], 3);
        for folder in &texts {
            let folder = StackPath::new(folder);
            for reference in &texts {
                let expected = if reference.starts_with('/') || folder.as_str() == "." {
                    StackPath::normalized(reference)
                } else {
                    StackPath::normalized(&format!("{}/{reference}", folder.as_str()))
                };
                assert_eq!(folder.join(reference), expected, "{folder:?} {reference:?}");
            }
        }
    }

    #[test]
    fn joins_as_heatclient_joins_file_urls() {
        let dir = StackPath::new("env/./sub/");
        assert_eq!(dir.as_str(), "env/sub");
        assert_eq!(dir.join("../t.yaml").as_str(), "env/t.yaml");
        assert_eq!(dir.join("../../../t.yaml").as_str(), "../t.yaml");
        assert_eq!(dir.join("/usr/share/x.yaml").as_str(), "/usr/share/x.yaml");
        assert_eq!(StackPath::new("/a/../../b").as_str(), "/b");
        assert_eq!(StackPath::new(".").join("t.yaml").as_str(), "t.yaml");
        assert_eq!(StackPath::new("t.yaml").parent().as_str(), ".");
        assert_eq!(StackPath::new("/t.yaml").parent().as_str(), "/");
        assert_eq!(StackPath::new("a\\b.yaml").as_str(), "a/b.yaml");
    }

    #[test]
    fn knows_what_is_inside_a_folder() {
        let root = StackPath::new("repo");
        assert!(StackPath::new("repo/a.yaml").starts_with(&root));
        assert!(!StackPath::new("repository/a.yaml").starts_with(&root));
        assert!(StackPath::new("a.yaml").starts_with(&StackPath::new(".")));
        assert!(!StackPath::new("../a.yaml").starts_with(&StackPath::new(".")));
        let above = StackPath::new("../..");
        assert!(StackPath::new("a.yaml").starts_with(&above));
        assert!(StackPath::new("../b/a.yaml").starts_with(&above));
        assert!(StackPath::new("../../c/a.yaml").starts_with(&above));
        assert!(!StackPath::new("../../../a.yaml").starts_with(&above));
        assert!(!StackPath::new("/a.yaml").starts_with(&above));
    }
}
