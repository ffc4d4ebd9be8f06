//! The files of a tree and the links between them, resolved.

use std::collections::BTreeMap;

use hotfix_yaml::Span;

use crate::{FileFacts, FileKind, FileSource, LinkKind, StackPath};

/// Where a link leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A file the source has.
    File(StackPath),
    /// No such file, and nothing says a deployment makes it: Heat's client fails with
    /// `Could not fetch contents for file://…`.
    Missing(StackPath),
    /// No such file, but a `*.j2.yaml` source in its folder (a deployment renders it there:
    /// TripleO's `network/ports/*.yaml`, `*-role.yaml`), or a Jinja source of its own name
    /// beside it (`NAME.yaml.j2`, `NAME.j2.yaml`, also `.jinja2` and `.jinja`), which a
    /// deployment tool (TripleO, an Ansible `template` task) renders into it.
    Generated(StackPath),
    /// A path that exists only in a deployment's layout: absolute (an install prefix such as
    /// `/usr/share/openstack-tripleo-heat-templates`), or absent and outside the tree's roots
    /// or in a folder that does not exist either (a sibling checkout).
    Outside(StackPath),
    /// A URL other than `file://`: not looked at.
    Url(String),
    /// No such file, but a subfolder of its folder holds a file of that name: the layout of a
    /// tool that sends nested templates by file name (tacker's `BaseHOT/…/nested/`).
    Relocated(StackPath),
}

impl Target {
    /// The same target, its path's text shared with the copy `texts` keeps.
    pub(crate) fn shared_in(self, texts: &mut crate::Texts) -> Target {
        match self {
            Target::File(p) => Target::File(p.shared_in(texts)),
            Target::Missing(p) => Target::Missing(p.shared_in(texts)),
            Target::Generated(p) => Target::Generated(p.shared_in(texts)),
            Target::Outside(p) => Target::Outside(p.shared_in(texts)),
            Target::Relocated(p) => Target::Relocated(p.shared_in(texts)),
            Target::Url(url) => Target::Url(url),
        }
    }

    /// The file it names, when it names one.
    pub fn path(&self) -> Option<&StackPath> {
        match self {
            Target::File(p)
            | Target::Missing(p)
            | Target::Generated(p)
            | Target::Outside(p)
            | Target::Relocated(p) => Some(p),
            Target::Url(_) => None,
        }
    }
}

/// A link from one file to another, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The file that names the other.
    pub from: StackPath,
    pub kind: LinkKind,
    /// As written.
    pub reference: String,
    /// Where it is written in `from`.
    pub span: Span,
    pub target: Target,
}

/// The files of a tree, what each is, and every link between them.
#[derive(Debug, Default)]
pub struct Tree {
    /// The folders (or files) the tree was built from.
    pub roots: Vec<StackPath>,
    /// Every file read: the ones given and the ones links led to.
    pub files: BTreeMap<StackPath, FileFacts>,
    /// Every link, by file then position.
    pub links: Vec<Link>,
}

/// How many files a build follows links to beyond those it is given (a bound, not a limit any
/// real tree meets).
const MAX_FOLLOWED: usize = 10_000;

impl Tree {
    /// Reads `files` (with `facts` already known for some, say computed in parallel), follows
    /// every link to a template or environment not among them, and resolves each link.
    /// `roots` are the folders the tree spans: a missing file outside them is a deployment
    /// layout path, not a mistake.
    pub fn build(
        source: &dyn FileSource,
        roots: Vec<StackPath>,
        files: BTreeMap<StackPath, Option<FileFacts>>,
    ) -> Tree {
        let mut tree = Tree {
            roots,
            ..Tree::default()
        };
        let mut queue: Vec<StackPath> = Vec::new();
        for (path, facts) in files {
            match facts {
                Some(facts) => {
                    tree.files.insert(path, facts);
                }
                None => queue.push(path),
            }
        }
        let mut followed = 0;
        let mut pending: Vec<StackPath> = tree.files.keys().cloned().collect();
        loop {
            for path in queue.drain(..) {
                if tree.files.contains_key(&path) {
                    continue;
                }
                let Some(text) = source.read(&path) else {
                    continue;
                };
                tree.files.insert(path.clone(), FileFacts::of(&text));
                pending.push(path);
            }
            if pending.is_empty() {
                break;
            }
            for path in std::mem::take(&mut pending) {
                let facts = &tree.files[&path];
                for raw in &facts.links {
                    let target = tree.resolve(source, &path, raw);
                    if let Target::File(file) = &target
                        && !tree.files.contains_key(file)
                        && raw.kind != LinkKind::GetFile
                        && followed < MAX_FOLLOWED
                    {
                        followed += 1;
                        queue.push(file.clone());
                    }
                    tree.links.push(Link {
                        from: path.clone(),
                        kind: raw.kind.clone(),
                        reference: raw.reference.clone(),
                        span: raw.span,
                        target,
                    });
                }
            }
        }
        tree.links
            .sort_by(|a, b| (&a.from, a.span.start).cmp(&(&b.from, b.span.start)));
        tree
    }

    /// What the file at `path` is, when the tree read it.
    pub fn kind(&self, path: &StackPath) -> Option<&FileKind> {
        self.files.get(path).map(|f| &f.kind)
    }

    /// The links written in `path`.
    pub fn links_from<'t>(&'t self, path: &'t StackPath) -> impl Iterator<Item = &'t Link> + 't {
        self.links.iter().filter(move |l| &l.from == path)
    }

    /// The links that lead to `path`.
    pub fn links_to<'t>(&'t self, path: &'t StackPath) -> impl Iterator<Item = &'t Link> + 't {
        self.links
            .iter()
            .filter(move |l| l.target.path() == Some(path))
    }

    fn resolve(&self, source: &dyn FileSource, from: &StackPath, raw: &crate::RawLink) -> Target {
        resolve_reference(
            source,
            &self.roots,
            from,
            &raw.reference,
            raw.base_url.as_deref(),
        )
    }
}

/// Where `reference`, written in the file `from`, leads (relative to `base_url` when given),
/// as python-heatclient joins it, and whether the file is there.
pub fn resolve_reference(
    source: &dyn FileSource,
    roots: &[StackPath],
    from: &StackPath,
    reference: &str,
    base_url: Option<&str>,
) -> Target {
    let base = match base_url {
        None => from.parent(),
        Some(url) => match url.strip_prefix("file://") {
            Some(path) => StackPath::new(path),
            None if url.contains("://") => return Target::Url(format!("{url}/{reference}")),
            None => StackPath::new(url),
        },
    };
    let mut path = match reference.strip_prefix("file://") {
        Some(absolute) => StackPath::new(absolute),
        None if reference.contains("://") => return Target::Url(reference.to_owned()),
        None => base.join(reference),
    };
    // An install prefix the configuration maps to a folder of the tree is read there.
    if path.is_absolute()
        && let Some(mapped) = source.map_prefix(&path)
    {
        path = mapped;
    }
    if path.is_absolute() && !roots.iter().any(|r| r.is_absolute() && path.starts_with(r)) {
        return Target::Outside(path);
    }
    if source.exists(&path) {
        return Target::File(path);
    }
    if !roots.iter().any(|r| path.starts_with(r)) {
        return Target::Outside(path);
    }
    let listing = source.list(&path.parent());
    // A folder that is not there either: a checkout beside this one, or a folder the
    // deployment makes. Only a file missing from a folder that exists is certain.
    if listing.is_empty() {
        return Target::Outside(path);
    }
    if listing
        .iter()
        .any(|name| name.ends_with(".j2.yaml") || renders(name, path.file_name()))
    {
        return Target::Generated(path);
    }
    let folder = path.parent();
    let elsewhere = listing.iter().find_map(|name| {
        let sub = folder.join(name);
        source
            .list(&sub)
            .iter()
            .any(|inner| inner == path.file_name())
            .then(|| sub.join(path.file_name()))
    });
    match elsewhere {
        Some(found) => Target::Relocated(found),
        None => Target::Missing(path),
    }
}

/// Whether the file `source` is a Jinja source of the file `name` (`lb.yaml`): `lb.yaml.j2`,
/// `lb.j2.yaml` (TripleO's convention), with `.jinja2` or `.jinja` for `.j2` too.
fn renders(source: &str, name: &str) -> bool {
    const JINJA: [&str; 3] = ["j2", "jinja2", "jinja"];
    if let Some(suffix) = source.strip_prefix(name).and_then(|s| s.strip_prefix('.')) {
        return JINJA.contains(&suffix);
    }
    let Some((stem, extension)) = name.rsplit_once('.') else {
        return false;
    };
    source
        .strip_prefix(stem)
        .and_then(|s| s.strip_prefix('.'))
        .and_then(|s| s.strip_suffix(extension))
        .and_then(|s| s.strip_suffix('.'))
        .is_some_and(|middle| JINJA.contains(&middle))
}

/// Where else in the tree a missing `reference` (written in the file `from`) is, when a
/// deployment tool that assembles files may put it in place: the same reference read from a
/// folder above `from`'s (`files/x.sh` written in `templates/a/t.yaml`, found as
/// `files/x.sh` at the top), or its file in a folder beside `from`'s (`x.sh` written in
/// `templates/t.yaml`, found in `fragments/`). python-heatclient still fails on the reference
/// as written; tools that send files by name or copy them into place (k3s's and pnda's
/// deployment scripts, say) do not. Only inside the tree's roots.
pub fn found_elsewhere(
    source: &dyn FileSource,
    roots: &[StackPath],
    from: &StackPath,
    reference: &str,
) -> Option<StackPath> {
    if reference.contains("://") || reference.starts_with('/') {
        return None;
    }
    let inside = |path: &StackPath| roots.iter().any(|root| path.starts_with(root));
    let folder = from.parent();
    let mut above = folder.parent();
    while inside(&above) && above != folder {
        let candidate = above.join(reference);
        if source.exists(&candidate) {
            return Some(candidate);
        }
        let next = above.parent();
        if next == above {
            break;
        }
        above = next;
    }
    let name = reference.rsplit('/').next().unwrap_or(reference);
    let parent = folder.parent();
    if !inside(&parent) || parent == folder {
        return None;
    }
    let siblings = source.list(&parent);
    siblings.iter().find_map(|sibling| {
        let candidate = parent.join(sibling).join(name);
        (candidate.parent() != folder && source.exists(&candidate)).then_some(candidate)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemorySource;

    #[test]
    fn a_missing_file_is_found_where_a_deployment_tool_may_assemble_it() {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/templates/app/t.yaml",
                "heat_template_version: rocky\n",
            )
            .insert("repo/scripts/setup.sh", "#!/bin/sh\n")
            .insert("repo/templates/k3s.yaml", "heat_template_version: rocky\n")
            .insert("repo/fragments/selinux.sh", "#!/bin/sh\n");
        let roots = [StackPath::new("repo")];
        let found = |from: &str, reference: &str| {
            found_elsewhere(&source, &roots, &StackPath::new(from), reference)
                .map(|p| p.to_string())
        };
        // The same path read from a folder above.
        assert_eq!(
            found("repo/templates/app/t.yaml", "scripts/setup.sh").as_deref(),
            Some("repo/scripts/setup.sh")
        );
        // Its name in a folder beside the template's.
        assert_eq!(
            found("repo/templates/k3s.yaml", "selinux.sh").as_deref(),
            Some("repo/fragments/selinux.sh")
        );
        // Nowhere, or only outside the roots: nothing.
        assert_eq!(found("repo/templates/app/t.yaml", "scripts/other.sh"), None);
        assert_eq!(found("repo/templates/k3s.yaml", "/etc/selinux.sh"), None);
        let roots = [StackPath::new("repo/templates")];
        assert_eq!(
            found_elsewhere(
                &source,
                &roots,
                &StackPath::new("repo/templates/app/t.yaml"),
                "scripts/setup.sh"
            ),
            None
        );
    }

    fn build(source: &MemorySource, given: &[&str]) -> Tree {
        let files = given.iter().map(|p| (StackPath::new(p), None)).collect();
        Tree::build(source, vec![StackPath::new("repo")], files)
    }

    fn targets(tree: &Tree) -> Vec<(String, String, Target)> {
        tree.links
            .iter()
            .map(|l| (l.from.to_string(), l.reference.clone(), l.target.clone()))
            .collect()
    }

    #[test]
    fn resolves_types_and_files_relative_to_their_file_and_follows_nested_templates() {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/top.yaml",
                "heat_template_version: rocky\nresources:\n  a: {type: nested/a.yaml}\n",
            )
            .insert(
                "repo/nested/a.yaml",
                "heat_template_version: rocky\nresources:\n  b: {type: ../b.yaml}\n  \
                 c: {type: OS::Heat::SoftwareConfig, properties: {config: {get_file: run.sh}}}\n",
            )
            .insert("repo/b.yaml", "heat_template_version: rocky\n")
            .insert("repo/nested/run.sh", "#!/bin/sh\n");
        let tree = build(&source, &["repo/top.yaml"]);
        assert_eq!(
            tree.files.len(),
            3,
            "run.sh is a file, not a template to read"
        );
        assert_eq!(
            targets(&tree),
            vec![
                (
                    "repo/nested/a.yaml".to_owned(),
                    "../b.yaml".to_owned(),
                    Target::File(StackPath::new("repo/b.yaml"))
                ),
                (
                    "repo/nested/a.yaml".to_owned(),
                    "run.sh".to_owned(),
                    Target::File(StackPath::new("repo/nested/run.sh"))
                ),
                (
                    "repo/top.yaml".to_owned(),
                    "nested/a.yaml".to_owned(),
                    Target::File(StackPath::new("repo/nested/a.yaml"))
                ),
            ]
        );
        assert_eq!(
            tree.kind(&StackPath::new("repo/b.yaml")),
            Some(&FileKind::Template)
        );
    }

    #[test]
    fn tells_missing_files_from_deployment_layout_paths() {
        let mut source = MemorySource::new();
        source
            .insert(
                "repo/environments/env.yaml",
                "resource_registry:\n  \
                 My::Gone: ../renamed.yaml\n  \
                 My::NoFolder: ../gone/x.yaml\n  \
                 My::Flat: flat.yaml\n  \
                 My::Port: ../network/ports/external.yaml\n  \
                 My::Abs: /usr/share/openstack-tripleo-heat-templates/x.yaml\n  \
                 My::Sibling: ../../other-checkout/y.yaml\n  \
                 My::Url: https://example.com/z.yaml\n  \
                 My::Rendered: ../templates/lb.yaml\n  \
                 My::RenderedYml: ../templates/db.yml\n  \
                 My::NotRendered: ../templates/web.yaml\n",
            )
            .insert(
                "repo/templates/lb.yaml.j2",
                "heat_template_version: {{ v }}\n",
            )
            .insert(
                "repo/templates/db.j2.yml",
                "heat_template_version: {{ v }}\n",
            )
            .insert(
                "repo/templates/web.yaml.j2.orig",
                "heat_template_version: rocky\n",
            )
            .insert(
                "repo/templates/lb-web.yaml.j2",
                "heat_template_version: {{ v }}\n",
            )
            .insert("repo/network/ports/port.network.j2.yaml", "{{ x }}\n")
            .insert("repo/b.yaml", "heat_template_version: rocky\n")
            .insert(
                "repo/environments/nested/flat.yaml",
                "heat_template_version: rocky\n",
            );
        let tree = build(&source, &["repo/environments/env.yaml"]);
        let found: Vec<Target> = tree.links.iter().map(|l| l.target.clone()).collect();
        assert_eq!(
            found,
            vec![
                Target::Missing(StackPath::new("repo/renamed.yaml")),
                Target::Outside(StackPath::new("repo/gone/x.yaml")),
                Target::Relocated(StackPath::new("repo/environments/nested/flat.yaml")),
                Target::Generated(StackPath::new("repo/network/ports/external.yaml")),
                Target::Outside(StackPath::new(
                    "/usr/share/openstack-tripleo-heat-templates/x.yaml"
                )),
                Target::Outside(StackPath::new("other-checkout/y.yaml")),
                Target::Url("https://example.com/z.yaml".to_owned()),
                Target::Generated(StackPath::new("repo/templates/lb.yaml")),
                Target::Generated(StackPath::new("repo/templates/db.yml")),
                Target::Missing(StackPath::new("repo/templates/web.yaml")),
            ]
        );
    }

    #[test]
    fn a_registry_base_url_replaces_the_environment_folder() {
        let mut source = MemorySource::new();
        source.insert(
            "repo/env.yaml",
            "resource_registry:\n  base_url: file:///srv/t/\n  My::A: a.yaml\n",
        );
        let tree = build(&source, &["repo/env.yaml"]);
        assert_eq!(
            tree.links[0].target,
            Target::Outside(StackPath::new("/srv/t/a.yaml"))
        );
        assert_eq!(tree.links_to(&StackPath::new("/srv/t/a.yaml")).count(), 1);
    }
}
