//! The Google 2011 sub-trace reader: what it accepts, and errors that name the file, the line
//! and the field.

use fairsched_sim::trace::{parse_google, read_google, TraceError};
use std::path::Path;

#[test]
fn reads_jobs_in_order_of_arrival() {
    let text = "20.5 2 1.5 1 2\n\n10 1 3.25 3.25\n";
    let workload = parse_google("t.tr", text).unwrap();
    let jobs = workload.jobs();
    assert_eq!(jobs.len(), 2);
    assert_eq!((jobs[0].arrival, jobs[0].tasks.clone()), (10.0, vec![3.25]));
    assert_eq!(
        (jobs[1].arrival, jobs[1].tasks.clone()),
        (20.5, vec![1.0, 2.0])
    );
    assert!(jobs.iter().all(|job| job.weight == 1));
}

/// The error for `text`, as the reader words it.
fn error(text: &str) -> String {
    let err = parse_google("bad.tr", text).unwrap_err();
    assert!(matches!(err, TraceError::Field { .. }));
    err.to_string()
}

#[test]
fn errors_name_the_file_the_line_and_the_field() {
    let good = "1 1 2 2\n";
    assert_eq!(
        error(&format!("{good}x 1 2 2")),
        "bad.tr:2: field 1: arrival time \"x\" is not a finite number"
    );
    assert_eq!(
        error("1 0 2"),
        "bad.tr:1: field 2: number of tasks \"0\" is not a positive integer"
    );
    assert_eq!(
        error("1 2.5 2 2 2"),
        "bad.tr:1: field 2: number of tasks \"2.5\" is not a positive integer"
    );
    assert_eq!(
        error("1 2 NaN 2 2"),
        "bad.tr:1: field 3: mean task duration \"NaN\" is not a finite number"
    );
    assert_eq!(
        error(&format!("{good}{good}1 3 2 2 2")),
        "bad.tr:3: field 6: duration of task 3 of 3 missing"
    );
    assert_eq!(
        error("1 2 2 2 -1"),
        "bad.tr:1: field 5: duration of task 2 of 2 -1 is not positive"
    );
    assert_eq!(
        error("1 2 2 2 inf"),
        "bad.tr:1: field 5: duration of task 2 of 2 \"inf\" is not a finite number"
    );
    assert_eq!(
        error("1 1 2 2 7"),
        "bad.tr:1: field 5: \"7\" follows the 1 task durations the line announces"
    );
    assert_eq!(error("1"), "bad.tr:1: field 2: number of tasks missing");
}

#[test]
fn a_missing_file_is_named() {
    let err = read_google(Path::new("no/such.tr")).unwrap_err();
    assert!(matches!(err, TraceError::Io { .. }));
    assert!(err.to_string().starts_with("no/such.tr: "), "{err}");
}

/// The Google 2011 cluster trace's Hawk sub-trace, when this checkout sits beside the folder of
/// public traces: the counts its README gives.
#[test]
fn reads_the_google_sub_trace() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/traces/google2011-hawk-subtrace/GOOG_subtrace.tr");
    if !path.exists() {
        eprintln!("skipped: {} is not here", path.display());
        return;
    }
    let workload = read_google(&path).unwrap();
    assert_eq!(workload.jobs().len(), 10_000);
    let tasks: usize = workload.jobs().iter().map(|job| job.width()).sum();
    assert_eq!(tasks, 312_558);
    assert_eq!(workload.jobs()[0].arrival, 1_406_471.0);
}
