//! What every command's JSON document holds (src/document.rs), checked the same way for each.

use serde_json::Value;
use std::collections::BTreeSet;

/// The keys of `object`, sorted.
fn keys(object: &Value) -> BTreeSet<&str> {
    object
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {object}"))
        .keys()
        .map(String::as_str)
        .collect()
}

/// Checks that `json` is `command`'s document: the five keys; tables with a unique name, a
/// title, a context and rows that all have the same keys, those `row_keys` gives for the
/// table's name where it names it; comparisons with their seven keys, unique names and a table
/// that exists. Where `text` is given, it holds each table's title and shows each comparison
/// in its subject's summary line as the percentage of its value. Returns the document and the
/// comparisons' names.
pub fn check_document(
    json: &str,
    command: &str,
    row_keys: &[(&str, &[&str])],
    text: Option<&str>,
) -> (Value, Vec<String>) {
    let json: Value = serde_json::from_str(json).unwrap();
    assert_eq!(
        keys(&json),
        BTreeSet::from(["command", "title", "parameters", "tables", "comparisons"])
    );
    assert_eq!(json["command"], command);
    assert!(json["title"].is_string());
    keys(&json["parameters"]);
    let tables = json["tables"].as_array().unwrap();
    assert!(!tables.is_empty());
    let mut names = BTreeSet::new();
    for table in tables {
        assert_eq!(
            keys(table),
            BTreeSet::from(["name", "title", "context", "rows"])
        );
        let name = table["name"].as_str().unwrap();
        assert!(names.insert(name), "table {name} twice");
        assert!(table["title"].is_string());
        keys(&table["context"]);
        let rows = table["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "table {name}");
        let wanted = match row_keys.iter().find(|(table, _)| *table == name) {
            Some((_, keys)) => keys.iter().copied().collect(),
            None => keys(&rows[0]),
        };
        for row in rows {
            assert_eq!(keys(row), wanted, "{name}: {row}");
        }
        if let Some(text) = text {
            assert!(
                text.contains(table["title"].as_str().unwrap()),
                "title of {name}"
            );
        }
    }
    let mut comparisons = Vec::new();
    for c in json["comparisons"].as_array().unwrap() {
        assert_eq!(
            keys(c),
            BTreeSet::from(["name", "table", "subject", "baseline", "measure", "value", "paper"])
        );
        let name = c["name"].as_str().unwrap().to_owned();
        assert!(!comparisons.contains(&name), "comparison {name} twice");
        assert!(names.contains(c["table"].as_str().unwrap()), "{c}");
        assert!(c["paper"].is_null() || c["paper"].is_f64(), "{c}");
        if let (Some(text), Some(value)) = (text, c["value"].as_f64()) {
            let (subject, measure) = (
                c["subject"].as_str().unwrap(),
                c["measure"].as_str().unwrap(),
            );
            // `subject against B1: m v, m v; against B2: m v`: B's part holds `m v` (in one of
            // the subject's lines: a document may compare the same rows in several tables).
            let lead = format!("{subject} ");
            let part = format!("against {}: ", c["baseline"].as_str().unwrap());
            let shown = format!("{measure} {:+.1}%", value * 100.0);
            let mut lines = text
                .lines()
                .filter_map(|l| l.strip_prefix(&lead))
                .filter(|l| l.starts_with("against "))
                .peekable();
            assert!(
                lines.peek().is_some(),
                "no summary line for {subject}:\n{text}"
            );
            assert!(
                lines.any(|line| line
                    .split("; ")
                    .filter_map(|p| p.strip_prefix(&part))
                    .any(|figures| figures.split(", ").any(|f| f == shown))),
                "{name}: {shown} not in the summary lines:\n{text}"
            );
        }
        comparisons.push(name);
    }
    (json, comparisons)
}
