//! The naming table, `bindings/names.tsv`: one row per export of `include/fairsched.h`, naming
//! the same operation in the Rust core, Java and Go. This test keeps the table and the four
//! languages in step: an export missing from the table (or a row naming no export), a Rust,
//! Java or Go name that does not exist, or an export that a binding never calls fails it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A row of the table.
struct Row {
    c: String,
    rust: String,
    java: String,
    go: String,
}

fn table() -> Vec<Row> {
    let text = fs::read_to_string(Path::new(ROOT).join("bindings/names.tsv")).expect("names.tsv");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(
                cells.len(),
                4,
                "names.tsv: four tab-separated cells in {line:?}"
            );
            Row {
                c: cells[0].into(),
                rust: cells[1].into(),
                java: cells[2].into(),
                go: cells[3].into(),
            }
        })
        .collect()
}

/// The functions the header declares: every `fairsched_*(` that starts a declaration.
fn header_exports() -> BTreeSet<String> {
    let header = fs::read_to_string(Path::new(ROOT).join("include/fairsched.h")).expect("header");
    header
        .lines()
        .filter(|line| !line.trim_start().starts_with(['*', '/']))
        .flat_map(|line| {
            line.match_indices("fairsched_").filter_map(move |(at, _)| {
                let rest = &line[at..];
                let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
                rest[end..]
                    .starts_with('(')
                    .then(|| rest[..end].to_string())
            })
        })
        .collect()
}

/// Every file under `dir` whose name ends with `suffix`, concatenated.
fn sources(dir: &str, suffix: &str) -> String {
    fn walk(dir: &Path, suffix: &str, out: &mut String) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.map(|e| e.expect("entry").path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                walk(&path, suffix, out);
            } else if path.to_string_lossy().ends_with(suffix) {
                out.push_str(&fs::read_to_string(&path).expect("source"));
                out.push('\n');
            }
        }
    }
    let mut out = String::new();
    walk(&Path::new(ROOT).join(dir), suffix, &mut out);
    out
}

#[test]
fn every_export_has_one_row_and_every_row_an_export() {
    let exports = header_exports();
    assert!(exports.len() >= 40, "only {} exports found", exports.len());
    let rows: Vec<String> = table().into_iter().map(|row| row.c).collect();
    let named: BTreeSet<String> = rows.iter().cloned().collect();
    assert_eq!(named.len(), rows.len(), "names.tsv names an export twice");
    let missing: Vec<_> = exports.difference(&named).collect();
    let stale: Vec<_> = named.difference(&exports).collect();
    assert!(
        missing.is_empty(),
        "exports without a row in names.tsv: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "rows naming no export of the header: {stale:?}"
    );
}

#[test]
fn every_export_follows_the_c_conventions() {
    // `fairsched_<object>_<verb>`, lower case; a length follows its buffer as `<buffer>_len`.
    let header = fs::read_to_string(Path::new(ROOT).join("include/fairsched.h")).expect("header");
    let declarations = header
        .split(';')
        .filter(|d| d.contains("fairsched_status fairsched_"));
    for declaration in declarations {
        let name_at = declaration
            .find("fairsched_status fairsched_")
            .expect("found")
            + 17;
        let open = declaration[name_at..].find('(').expect("a parameter list") + name_at;
        let name = &declaration[name_at..open];
        assert!(
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{name}: not snake case"
        );
        let parameters: Vec<(&str, &str)> = declaration[open + 1..]
            .trim_end_matches(')')
            .split(',')
            .filter(|p| p.trim() != "void")
            .map(|p| {
                let p = p.trim();
                let split = p.rfind([' ', '*']).expect("a typed parameter");
                (p[..=split].trim(), &p[split + 1..])
            })
            .collect();
        for pair in parameters.windows(2) {
            let [(pointer_type, pointer), (length_type, length)] = pair else {
                unreachable!()
            };
            if pointer_type.ends_with('*') && *length_type == "size_t" {
                assert_eq!(
                    *length,
                    format!("{pointer}_len"),
                    "{name}: the length after `{pointer}` must be named `{pointer}_len`"
                );
            }
        }
    }
}

#[test]
fn every_rust_name_exists() {
    let core = sources("src", ".rs");
    for row in table() {
        if row.rust == "-" {
            continue;
        }
        // Methods may be defined in another module than their type's (QKnobler's round is a
        // method of the DRF queue), so the whole core is searched.
        let item = row.rust.rsplit("::").next().expect("a path");
        let defined = ["fn", "struct", "type", "const", "enum"]
            .iter()
            .any(|kind| core.contains(&format!("{kind} {item}")));
        assert!(defined, "{}: no `{item}` in src/", row.c);
    }
}

#[test]
fn every_java_name_exists_and_the_glue_calls_every_export() {
    let glue = sources("bindings/java/src/main/c", ".c");
    for row in table() {
        let (class, member) = row.java.split_once('.').expect("Class.member");
        // One public class a file: the member must be declared in its class's own file.
        let file = ["main", "test"]
            .iter()
            .map(|set| format!("{ROOT}/bindings/java/src/{set}/java/dev/fairsched/{class}.java"))
            .find_map(|path| fs::read_to_string(path).ok())
            .unwrap_or_else(|| panic!("{}: no Java class {class}", row.c));
        let declared = if member == "new" {
            file.contains(&format!("public {class}("))
        } else {
            file.contains(&format!(" {member}("))
        };
        assert!(declared, "{}: no Java {class}.{member}", row.c);
        assert!(
            glue.contains(&format!("{}(", row.c)),
            "{}: the JNI glue never calls it",
            row.c
        );
    }
}

#[test]
fn every_go_name_exists_and_the_binding_calls_every_export() {
    let go = sources("bindings/go/fairsched", ".go");
    for row in table() {
        let declared = match row.go.split_once('.') {
            Some((receiver, method)) => {
                go.contains(&format!("*{receiver}) {method}("))
                    || go.contains(&format!(" {receiver}) {method}("))
            }
            None => go.contains(&format!("func {}(", row.go)),
        };
        assert!(declared, "{}: no Go {}", row.c, row.go);
        assert!(
            go.contains(&format!("C.{}(", row.c)),
            "{}: the Go binding never calls it",
            row.c
        );
    }
}
