//! The variables file of a K2HR3 template (`FILE.vars.json` beside `FILE`): a JSON object of
//! variable names and values, as the K2HR3 Template Engine is given them.

use std::path::{Path, PathBuf};

use hotfix_k2hr3::{Value, Variables};

/// The variables of the JSON file at `path` (a regular file within the read bound).
pub fn variables(path: &Path) -> Result<Variables, String> {
    let display = path.display();
    // A regular file only: a FIFO would be waited on.
    let text = crate::read::text_within(path, crate::read::BOUND)
        .map_err(|err| format!("cannot read the variables {display}: {err}"))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|err| format!("invalid variables {display}: {err}"))?;
    let Value::Object(entries) = value else {
        return Err(format!(
            "invalid variables {display}: a JSON object is expected (variable name → value), \
             not {}",
            value.type_name()
        ));
    };
    Ok(entries.into_iter().collect())
}

/// The names the variables file of the K2HR3 template `path` gives (`FILE.vars.json` beside
/// `FILE`); none when there is no such file.
pub fn given_variables(path: &Path) -> Result<Vec<String>, String> {
    let mut name = path.as_os_str().to_owned();
    name.push(".vars.json");
    let vars = PathBuf::from(name);
    // Anything at that name is read (a FIFO or a folder there is an error, not no variables).
    if std::fs::symlink_metadata(&vars).is_err() {
        return Ok(Vec::new());
    }
    variables(&vars).map(|vars| vars.into_keys().collect())
}
