//! What the repository says of itself holds (issue 28's habits): the README's crate table lists
//! every crate of the workspace, and the crates cite no file that is not in the repository.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folders of the workspace's member crates under `crates/` (the members are `.` and
/// `crates/*`: the test checks that first).
fn member_crates() -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let manifest: toml::Table = manifest.parse().expect("Cargo.toml is TOML");
    let members = manifest["workspace"]["members"]
        .as_array()
        .expect("workspace.members");
    assert_eq!(
        members
            .iter()
            .map(|m| m.as_str().expect("a member path"))
            .collect::<Vec<_>>(),
        [".", "crates/*"],
        "the workspace's members changed: teach member_crates() to list them"
    );
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .map(|e| e.expect("list").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    crates.sort();
    crates
}

fn package_name(folder: &Path) -> String {
    let manifest = std::fs::read_to_string(folder.join("Cargo.toml")).expect("a manifest");
    let manifest: toml::Table = manifest.parse().expect("a manifest is TOML");
    manifest["package"]["name"]
        .as_str()
        .expect("package.name")
        .to_owned()
}

/// The first cell of each row of the README's crate table (the table under `Crates`), the
/// name in its first backticks.
fn readme_crate_table(readme: &str) -> Vec<String> {
    let lines: Vec<&str> = readme.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.trim() == "| crate | what it does |")
        .expect("the README's crate table (`| crate | what it does |`)");
    lines[header + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cell = row.split('|').nth(1).expect("a first cell");
            cell.split('`')
                .nth(1)
                .expect("a name in backticks")
                .to_owned()
        })
        .collect()
}

#[test]
fn the_readme_lists_every_crate_of_the_workspace() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let listed: Vec<String> = readme_crate_table(&readme);
    // The root package is listed by its command's name.
    let mut members: BTreeSet<String> = member_crates().iter().map(|c| package_name(c)).collect();
    members.insert("hotfix".to_owned());
    let listed_set: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(
        listed.len(),
        listed_set.len(),
        "a crate listed twice: {listed:?}"
    );
    let missing: Vec<_> = members.difference(&listed_set).collect();
    let extra: Vec<_> = listed_set.difference(&members).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "README.md's crate table lacks {missing:?} and lists {extra:?}, which the workspace \
         does not have"
    );
}

/// Files of other repositories that comments cite by their path there: the path, and the
/// repository, which the citing file must name.
const OTHER_REPOSITORIES: &[(&str, &str)] = &[
    ("src/fingerprints.ts", "codeql-action"),
    ("src/fingerprints.test.ts", "codeql-action"),
    (
        "src/testdata/fingerprinting.expected.sarif",
        "codeql-action",
    ),
];

/// What a comment block citing the shared folder must say of it.
const OUTSIDE: [&str; 2] = ["beside the repository", "outside the repository"];

/// The comment lines of a Rust file (the text from `//` on, `///` and `//!` included) with
/// their line numbers, in blocks of consecutive lines, without the lines of fenced code blocks
/// (a doc example's `get_file: scripts/boot.sh` is a template's, not a citation).
fn comment_blocks(text: &str) -> Vec<Vec<(usize, String)>> {
    let mut blocks: Vec<Vec<(usize, String)>> = Vec::new();
    let mut block: Vec<(usize, String)> = Vec::new();
    let mut fenced = false;
    for (number, line) in text.lines().enumerate() {
        // A `//` inside a string (a URL) starts no comment: only a line that is a comment, or
        // code followed by `// ` outside quotes, counts.
        let comment = match line.trim_start().strip_prefix("//") {
            Some(rest) => Some(rest),
            None => line
                .find(" // ")
                .filter(|&at| line[..at].matches('"').count() % 2 == 0)
                .map(|at| &line[at + 3..]),
        };
        let Some(comment) = comment else {
            blocks.extend((!block.is_empty()).then(|| std::mem::take(&mut block)));
            fenced = false;
            continue;
        };
        let comment = comment.trim_start_matches(['/', '!']);
        if comment.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            block.push((number + 1, comment.to_owned()));
        }
    }
    blocks.extend((!block.is_empty()).then_some(block));
    blocks
}

/// The paths in `comment` that start with a top-level folder of the repository (`scripts/…`,
/// `testdata/…`) or with `../shared/`, up to the first character no path of ours has (a
/// placeholder `<CODE>` or `NAME.yaml` ends it), without a sentence's final punctuation.
fn cited_paths(comment: &str, folders: &[String]) -> Vec<String> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_-./@+".contains(c);
    let mut out = Vec::new();
    let mut from = 0;
    while from < comment.len() {
        let rest = &comment[from..];
        let Some(offset) = rest.find(|c: char| is_path(c)) else {
            break;
        };
        let start = from + offset;
        let end = comment[start..]
            .find(|c: char| !is_path(c))
            .map_or(comment.len(), |e| start + e);
        let word = comment[start..end].trim_end_matches(['.', ',', ':', ';']);
        let top = word.split('/').next().unwrap_or_default();
        if word.starts_with("../shared/")
            || (word.contains('/') && folders.iter().any(|f| f == top))
        {
            out.push(word.to_owned());
        }
        from = end;
    }
    out
}

/// A comment in `crates/*/src` or `src/` that names a file of the repository names one that
/// exists: a path that starts with a top-level folder of the repository (`scripts/`,
/// `testdata/`, `docs/`, `src/`, …) must resolve from the repository's root or from the
/// crate's own folder (`tests/reader.rs` in `hotfix_yaml`). Not checked: fenced code blocks (a
/// template's `get_file: scripts/boot.sh`), string literals, and words that start with no
/// top-level folder. A path in the team's shared folder (`../shared/…`) is allowed where its
/// comment says the folder is beside or outside the repository; another repository's file
/// where it is listed in `OTHER_REPOSITORIES` and the citing file names that repository.
#[test]
fn the_crates_cite_no_file_that_is_not_in_the_repository() {
    let root = root();
    let mut folders: Vec<String> = std::fs::read_dir(&root)
        .expect("the repository")
        .map(|e| e.expect("list"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "target" && name != ".git" && !name.starts_with(".venv"))
        .collect();
    folders.sort();
    let mut sources = vec![(root.clone(), root.join("src"))];
    for folder in member_crates() {
        sources.push((folder.clone(), folder.join("src")));
    }
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (crate_folder, src) in sources {
        let mut files = Vec::new();
        hotfix_testkit::rust_files(&src, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a UTF-8 source file");
            let shown = file
                .strip_prefix(&root)
                .expect("inside")
                .display()
                .to_string();
            for block in comment_blocks(&text) {
                let says_outside = OUTSIDE
                    .iter()
                    .any(|o| block.iter().any(|(_, line)| line.contains(o)));
                for (number, line) in &block {
                    for path in cited_paths(line, &folders) {
                        checked += 1;
                        let fault = if path.starts_with("../shared/") {
                            (!says_outside).then_some(
                                "in the shared folder: say in the comment that it is beside \
                                 the repository",
                            )
                        } else {
                            let here =
                                root.join(&path).exists() || crate_folder.join(&path).exists();
                            let elsewhere = OTHER_REPOSITORIES
                                .iter()
                                .any(|(p, repository)| *p == path && text.contains(repository));
                            (!here && !elsewhere).then_some("no such file in the repository")
                        };
                        if let Some(fault) = fault {
                            wrong.push(format!("{shown}:{number}: `{path}`: {fault}"));
                        }
                    }
                }
            }
        }
    }
    assert!(
        checked > 10,
        "only {checked} citations found: is the scan broken?"
    );
    assert!(
        wrong.is_empty(),
        "comments citing files that are not in the repository (write an example path that \
         starts with no top-level folder, or put it in a code block):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_citation_is_found_in_a_comment_and_not_in_a_code_block() {
    let folders = ["scripts".to_owned(), "testdata".to_owned()];
    let text = "/// See `scripts/test.sh`, and testdata/rules/<CODE>/.\n\
                /// ```yaml\n/// get_file: scripts/boot.sh\n/// ```\n\
                let url = \"https://example.com/scripts/x\"; // scripts/y.sh.\n\
                //! (`../shared/oracles/heat/stack.py`, beside the repository)\n";
    let blocks = comment_blocks(text);
    let cited: Vec<Vec<String>> = blocks
        .iter()
        .flatten()
        .map(|(_, line)| cited_paths(line, &folders))
        .collect();
    assert_eq!(
        cited,
        [
            vec!["scripts/test.sh".to_owned(), "testdata/rules/".to_owned()],
            vec!["scripts/y.sh".to_owned()],
            vec!["../shared/oracles/heat/stack.py".to_owned()],
        ]
    );
}
