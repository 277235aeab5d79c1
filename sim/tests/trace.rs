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

/// Values out of the simulator's range (src/workload.rs), or too large for a number at all.
#[test]
fn out_of_range_values_are_refused() {
    assert_eq!(
        error("-1 1 2 2"),
        "bad.tr:1: field 1: arrival time -1 is negative"
    );
    assert_eq!(
        error("1e400 1 2 2"),
        "bad.tr:1: field 1: arrival time 1e400 is too large (at most 10000000000)"
    );
    assert_eq!(
        error("1 1 2 2e10"),
        "bad.tr:1: field 4: duration of task 1 of 1 20000000000 is too large (at most 10000000000)"
    );
    assert_eq!(
        error("1 1 -2 2"),
        "bad.tr:1: field 3: mean task duration -2 is negative"
    );
    assert_eq!(
        error("1 +2 2 2 2"),
        "bad.tr:1: field 2: number of tasks \"+2\" is not a positive integer"
    );
    for count in ["50000001", "99999999999999999999999"] {
        assert_eq!(
            error(&format!("1 {count} 2 2")),
            format!(
                "bad.tr:1: field 2: number of tasks {count} brings the trace's past 50000000, \
                 the most the simulator replays"
            )
        );
    }
}

/// -0 reads as 0: the cluster orders times by their bits, which order like the times only
/// from +0 up.
#[test]
fn a_negative_zero_is_zero() {
    let workload = parse_google("t.tr", "-0 1 2 2\r\n1 1 2 2\r\n").unwrap();
    assert_eq!(workload.jobs()[0].arrival.to_bits(), 0);
    assert_eq!(workload.jobs().len(), 2);
}

/// A byte that is not UTF-8 is named with its line and field.
#[test]
fn bytes_that_are_not_utf8_are_named() {
    let path = std::env::temp_dir().join(format!("fairsched-trace-{}.tr", std::process::id()));
    std::fs::write(&path, b"1 1 2 2\n3 1 2 \xc3(\n").unwrap();
    let err = read_google(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(
        matches!(
            err,
            TraceError::Field {
                line: 2,
                field: 4,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!("{}:2: field 4: byte 0xc3 is not UTF-8 text", path.display())
    );
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
