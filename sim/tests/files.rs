//! A run's files are written all or nothing, with no temporary file left behind.

mod scratch;

use fairsched_sim::files::write_all;
use scratch::{files, scratch};

#[test]
fn every_file_is_written_or_replaced() {
    let dir = scratch("files-written");
    let (a, b) = (dir.join("a.svg"), dir.join("b.svg"));
    std::fs::write(&b, "old").unwrap();
    let result = write_all(&[(a.clone(), "A".to_owned()), (b.clone(), "B".to_owned())]);
    let contents = (std::fs::read_to_string(&a), std::fs::read_to_string(&b));
    let names = files(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(result, Ok(()));
    assert_eq!(
        (contents.0.unwrap(), contents.1.unwrap()),
        ("A".into(), "B".into())
    );
    assert_eq!(names, ["a.svg", "b.svg"]);
}

/// A destination that cannot be written stops every write, the earlier ones too.
#[test]
fn a_failure_writes_nothing() {
    let dir = scratch("files-failure");
    let first = dir.join("first.svg");
    std::fs::write(&first, "old").unwrap();
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).unwrap();
    let missing = dir.join("missing").join("x.svg");
    let results = [
        write_all(&[
            (first.clone(), "new".to_owned()),
            (missing.clone(), "x".to_owned()),
        ]),
        write_all(&[
            (first.clone(), "new".to_owned()),
            (folder.clone(), "x".to_owned()),
        ]),
        write_all(&[
            (first.clone(), "new".to_owned()),
            (dir.join("none").join(".."), "x".to_owned()),
        ]),
    ];
    let kept = std::fs::read_to_string(&first).unwrap();
    let names = files(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(kept, "old");
    assert_eq!(names, ["first.svg", "folder"]);
    let [missing_result, folder_result, parent_result] = results;
    let missing_error = missing_result.unwrap_err();
    assert!(
        missing_error.starts_with(&format!("{}: No such file or directory", missing.display())),
        "{missing_error}"
    );
    assert_eq!(
        folder_result,
        Err(format!("{}: is a directory", folder.display()))
    );
    assert!(
        parent_result
            .as_ref()
            .unwrap_err()
            .ends_with("none/..: not a file name"),
        "{parent_result:?}"
    );
}
