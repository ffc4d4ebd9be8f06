//! Blueprint helpers the rule tests and the oracle tests share.

use std::path::{Path, PathBuf};

/// What the local imports of a blueprint declare, read relative to its folder.
pub(crate) fn blueprint_imports(
    path: &Path,
    text: &str,
) -> Option<std::sync::Arc<hotfix_blueprint::Imported>> {
    let doc = hotfix_yaml::parse(text).ok()?;
    let blueprint = hotfix_blueprint::Blueprint::new(&doc)?;
    let dir = path.parent()?.to_path_buf();
    let mut pending: Vec<PathBuf> = blueprint
        .imports
        .iter()
        .filter(|i| i.kind == hotfix_blueprint::ImportKind::Local)
        .map(|i| dir.join(&i.text))
        .collect();
    if pending.is_empty() {
        return None;
    }
    let mut imported = hotfix_blueprint::Imported::new();
    let mut seen = Vec::new();
    while let Some(file) = pending.pop() {
        if seen.contains(&file) || seen.len() > 64 {
            continue;
        }
        seen.push(file.clone());
        let Some(doc) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| hotfix_yaml::parse(&t).ok())
        else {
            imported.complete = false;
            continue;
        };
        let base = file.parent().unwrap_or(Path::new("")).to_path_buf();
        for next in imported.add(&doc) {
            pending.push(base.join(next));
        }
    }
    Some(std::sync::Arc::new(imported))
}
