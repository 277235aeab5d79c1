//! Contracts of the C ABI that the compiler cannot check: every export runs inside the panic
//! boundary, and the committed header is the one cbindgen generates from the code.
#![cfg(feature = "ffi")]

use fairsched_testkit::exports;

/// Every `extern "C" fn` in src/ffi starts its body with `boundary(` or `guard(`.
#[test]
fn every_export_uses_the_panic_boundary() {
    let exports = exports::exports();
    for export in &exports {
        let first = export.body.trim_start();
        assert!(
            first.starts_with("boundary(") || first.starts_with("guard("),
            "{}: export {} does not start with the panic boundary",
            export.file.display(),
            export.name
        );
    }
    assert!(exports.len() >= 15, "found only {} exports", exports.len());
}

/// include/fairsched.h is exactly what build.rs generated into OUT_DIR for this build.
#[test]
fn committed_header_is_fresh() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/fairsched.h"));
    let committed = include_str!("../include/fairsched.h");
    assert!(
        generated == committed,
        "include/fairsched.h is stale: run scripts/update-header and commit it"
    );
}

/// Status codes are 0..FAIRSCHED_STATUS_COUNT, each used once: the core's errors plus OK,
/// NULL_POINTER, BUFFER_TOO_SMALL and PANIC, which only the ABI returns.
#[test]
fn status_codes_are_dense_and_counted() {
    use fairsched::ffi::{FairschedStatus, FAIRSCHED_STATUS_COUNT};
    use fairsched::Error;
    let mut codes: Vec<u32> = Error::ALL
        .iter()
        .map(|&e| FairschedStatus::from(e) as u32)
        .chain([
            FairschedStatus::Ok as u32,
            FairschedStatus::NullPointer as u32,
            FairschedStatus::BufferTooSmall as u32,
            FairschedStatus::Panic as u32,
        ])
        .collect();
    codes.sort_unstable();
    assert_eq!(codes, (0..FAIRSCHED_STATUS_COUNT).collect::<Vec<_>>());
}
