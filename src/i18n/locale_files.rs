//! Checks of the locale files themselves: every language has every message of English, and each
//! message uses the same variables in every language.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The messages of one `.ftl` file: each key with the variables (`$name`) its text uses.
fn messages(path: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let body = match starts_message(line) {
            Some((key, body)) => {
                assert!(
                    out.insert(key.to_owned(), BTreeSet::new()).is_none(),
                    "{}: {key} twice",
                    path.display()
                );
                current = Some(key.to_owned());
                body
            }
            None => line,
        };
        let key = current
            .as_ref()
            .unwrap_or_else(|| panic!("{}: text before the first key", path.display()));
        let vars = out.get_mut(key).expect("inserted above");
        for (at, _) in body.match_indices('$') {
            let name: String = body[at + 1..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            vars.insert(name);
        }
    }
    out
}

/// The key and the text of a line that starts a message or term (`key = text`, `-term = text`);
/// none for a line that continues one (indented, or a lone `}` or variant).
fn starts_message(line: &str) -> Option<(&str, &str)> {
    let (key, body) = line.split_once('=')?;
    let key = key.trim_end();
    let name = key.strip_prefix('-').unwrap_or(key);
    let is_identifier = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    is_identifier.then_some((key, body))
}

#[test]
fn every_language_has_every_english_message_with_the_same_variables() {
    let locales = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    let files: Vec<_> = std::fs::read_dir(locales.join("en"))
        .expect("locales/en")
        .map(|entry| entry.expect("locales/en entry").file_name())
        .collect();
    assert!(!files.is_empty());
    for lang in ["ru", "uz"] {
        let theirs: BTreeSet<_> = std::fs::read_dir(locales.join(lang))
            .expect(lang)
            .map(|entry| entry.expect("locale entry").file_name())
            .collect();
        assert_eq!(
            theirs,
            files.iter().cloned().collect(),
            "locales/{lang}: the files of en"
        );
        for file in &files {
            let english = messages(&locales.join("en").join(file));
            let other = messages(&locales.join(lang).join(file));
            let name = file.to_string_lossy();
            let missing: Vec<_> = english.keys().filter(|k| !other.contains_key(*k)).collect();
            assert!(
                missing.is_empty(),
                "locales/{lang}/{name} lacks {missing:?}"
            );
            let extra: Vec<_> = other.keys().filter(|k| !english.contains_key(*k)).collect();
            assert!(
                extra.is_empty(),
                "locales/{lang}/{name} has, unlike en, {extra:?}"
            );
            for (key, vars) in &english {
                assert_eq!(
                    &other[key], vars,
                    "locales/{lang}/{name}: the variables of {key}"
                );
            }
        }
    }
}
