//! Folders of their own for tests that write files.

use std::path::{Path, PathBuf};

/// A new folder for the test named `test`, in the system's temporary folder.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fairsched-sim-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names of the files in `dir`, sorted.
pub fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}
