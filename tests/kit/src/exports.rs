//! The C ABI's exports, read from the source of src/ffi, for the checks that must cover every
//! export, those of today and those still to come (tests/ffi_contract.rs, tests/no_alloc.rs).

use std::fs;
use std::path::PathBuf;

/// One `extern "C" fn` of src/ffi.
pub struct Export {
    /// The file it is defined in.
    pub file: PathBuf,
    /// Its name, as C calls it.
    pub name: String,
    /// Its source from just after the body's opening brace to the end of the file.
    pub body: String,
}

/// Every export of src/ffi.
pub fn exports() -> Vec<Export> {
    let mut exports = Vec::new();
    // This crate is tests/kit: the core is two directories up.
    for entry in fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../src/ffi")).unwrap() {
        let file = entry.unwrap().path();
        let source = fs::read_to_string(&file).unwrap();
        for (at, keyword) in source.match_indices("extern \"C\" fn ") {
            let rest = &source[at + keyword.len()..];
            let name = rest.split('(').next().unwrap().to_string();
            let body = rest[rest.find('{').unwrap() + 1..].to_string();
            exports.push(Export {
                file: file.clone(),
                name,
                body,
            });
        }
    }
    exports
}
