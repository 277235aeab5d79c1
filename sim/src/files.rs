//! Writing a run's files all or nothing: with two plots asked for, a failure on the second
//! leaves the first unwritten (and an existing file where it goes untouched).
//!
//! Every destination is checked first (not a directory, a file name), then each file is
//! written to a new temporary file beside its destination, and only when all are written are
//! they renamed over their destinations; on any failure the temporary files are removed. A
//! rename within a folder does not fail once a file could be created in it, short of a change
//! to the folder while the run writes.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes each of `files` (where, and what) or none of them. Errors: the first destination
/// that could not be written, as `path: what the system said`.
pub fn write_all(files: &[(PathBuf, String)]) -> Result<(), String> {
    let failed =
        |path: &Path, error: &dyn std::fmt::Display| format!("{}: {error}", path.display());
    let temporaries = files
        .iter()
        .map(|(path, _)| match (path.is_dir(), beside(path)) {
            (false, Some(temporary)) => Ok(temporary),
            (true, _) => Err(failed(path, &"is a directory")),
            (false, None) => Err(failed(path, &"not a file name")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut created = Vec::new();
    let mut result = Ok(());
    for ((path, contents), temporary) in files.iter().zip(&temporaries) {
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(temporary)
            .and_then(|mut file| {
                created.push(temporary);
                file.write_all(contents.as_bytes())
            });
        if let Err(error) = written {
            result = Err(failed(path, &error));
            break;
        }
    }
    if result.is_ok() {
        for ((path, _), temporary) in files.iter().zip(&temporaries) {
            if let Err(error) = fs::rename(temporary, path) {
                result = Err(failed(path, &error));
                break;
            }
        }
    }
    if result.is_err() {
        for temporary in created {
            // Those renamed are gone already.
            let _ = fs::remove_file(temporary);
        }
    }
    result
}

/// A temporary file's path in the folder of `path`, unique to this process (none when `path`
/// names no file).
fn beside(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let mut temporary = std::ffi::OsString::from(".");
    temporary.push(name);
    temporary.push(format!(".{}.tmp", std::process::id()));
    Some(path.with_file_name(temporary))
}
