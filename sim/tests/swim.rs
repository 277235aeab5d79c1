//! The SWIM Facebook reader: the tasks it derives from bytes, errors that name the file, the
//! line and the field, and CFQ against FAIR and SRPT on a real SWIM day.

use fairsched_sim::compare;
use fairsched_sim::policy::{PolicyKind, Profiler};
use fairsched_sim::swim::{parse_swim, read_swim, SLOT_THROUGHPUT, SPLIT_BYTES, TASK_STARTUP};
use fairsched_sim::trace::TraceError;
use std::path::Path;

const MIB: f64 = 1024.0 * 1024.0;

#[test]
fn tasks_follow_the_bytes() {
    assert_eq!(SPLIT_BYTES, 64.0 * MIB);
    assert_eq!((TASK_STARTUP, SLOT_THROUGHPUT), (2.0, 8.0 * MIB));
    let mib = |n: f64| (n * MIB).to_string();
    let text = [
        // Map-only, 100 MiB in, 8 MiB out: two maps moving 54 MiB each, 2 + 54 / 8 s.
        format!("job0\t30\t30\t{}\t0\t{}", mib(100.0), mib(8.0)),
        // 1 KiB in, 200 MiB shuffled, 16 MiB out: four maps (none writes more than 64 MiB),
        // then four reduces; with an input path after, as in one of the files.
        format!("job1 10 -20 1024 {} {} inputPath1", mib(200.0), mib(16.0)),
        // Nothing at all still runs one map of the startup alone.
        "job2\t10\t0\t0\t0\t0".to_owned(),
    ]
    .join("\n");
    let workload = parse_swim("fb.tsv", &text).unwrap();
    let jobs = workload.jobs();
    assert_eq!(
        jobs.iter().map(|job| job.arrival).collect::<Vec<_>>(),
        [10.0, 10.0, 30.0]
    );
    let (map, reduce) = (
        2.0 + (1024.0 / MIB + 200.0) / 4.0 / 8.0,
        2.0 + 216.0 / 4.0 / 8.0,
    );
    assert_eq!(
        jobs[0].tasks,
        [map, map, map, map, reduce, reduce, reduce, reduce]
    );
    assert_eq!(jobs[1].tasks, [2.0]);
    assert_eq!(jobs[2].tasks, [2.0 + 54.0 / 8.0; 2]);
    assert!(jobs.iter().all(|job| job.weight == 1));
}

/// The error for `text`, as the reader words it.
fn error(text: &str) -> String {
    let err = parse_swim("bad.tsv", text).unwrap_err();
    assert!(matches!(err, TraceError::Field { .. }));
    err.to_string()
}

#[test]
fn errors_name_the_file_the_line_and_the_field() {
    let good = "job0 1 1 10 0 10\n";
    assert_eq!(
        error(&format!("{good}job1 x 1 10 0 10")),
        "bad.tsv:2: field 2: submission time \"x\" is not a finite number"
    );
    assert_eq!(
        error("job0 1 NaN 10 0 10"),
        "bad.tsv:1: field 3: gap to the previous submission \"NaN\" is not a finite number"
    );
    assert_eq!(
        error("job0 1 1 -10 0 10"),
        "bad.tsv:1: field 4: map input bytes -10 is negative"
    );
    assert_eq!(
        error("job0 1 1 10 inf 10"),
        "bad.tsv:1: field 5: shuffle bytes \"inf\" is not a finite number"
    );
    assert_eq!(
        error(&format!("{good}\n{good}job9 1 1 10 0")),
        "bad.tsv:4: field 6: reduce output bytes missing"
    );
    assert_eq!(
        error("job0 -1 1 10 0 10"),
        "bad.tsv:1: field 2: submission time -1 is negative"
    );
    assert_eq!(
        error("job0 1 1e400 10 0 10"),
        "bad.tsv:1: field 3: gap to the previous submission 1e400 is too large"
    );
    assert_eq!(
        error("job0 1 1 1e16 0 10"),
        "bad.tsv:1: field 4: map input bytes 10000000000000000 is too large (at most \
         3355443200000000)"
    );
    // 50,000,000 maps of the largest input, and a reduce: the bytes are in range, the tasks
    // are not, and none is made.
    assert_eq!(
        error("job0 1 1 3355443200000000 1 0"),
        "bad.tsv:1: field 6: the job's 50000001 tasks bring the file's past 50000000, the most \
         the simulator replays"
    );
    let path = std::env::temp_dir().join(format!("fairsched-swim-{}.tsv", std::process::id()));
    std::fs::write(&path, b"job0 1 1 10 0 10\njob\xff 2 1 10 0 10\n").unwrap();
    let err = read_swim(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        err.to_string(),
        format!("{}:2: field 1: byte 0xff is not UTF-8 text", path.display())
    );
    let err = read_swim(Path::new("no/such.tsv")).unwrap_err();
    assert!(matches!(err, TraceError::Io { .. }));
    assert!(err.to_string().starts_with("no/such.tsv: "), "{err}");
}

/// A day of SWIM's Facebook samples (FB-2009 or FB-2010), when this checkout sits beside the
/// folder of public traces.
fn swim_day(name: &str) -> Option<std::path::PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/traces/swim-fb")
        .join(name);
    path.exists().then_some(path).or_else(|| {
        eprintln!("skipped: {name} is not here");
        None
    })
}

/// Every file reads, with the job counts its README gives.
#[test]
fn reads_the_facebook_days() {
    for (name, jobs) in [
        ("FB-2009_samples_24_times_1hr_0.tsv", 5_894),
        ("FB-2009_samples_24_times_1hr_1.tsv", 6_638),
        ("FB-2010_samples_24_times_1hr_withInputPaths_0.tsv", 25_428),
    ] {
        let Some(path) = swim_day(name) else { return };
        let workload = read_swim(&path).unwrap();
        assert_eq!(workload.jobs().len(), jobs, "{name}");
        let longest = workload
            .jobs()
            .iter()
            .map(|job| job.longest_task())
            .fold(0.0, f64::max);
        assert!(longest <= TASK_STARTUP + 2.0 * SPLIT_BYTES / SLOT_THROUGHPUT);
    }
}

/// The CFQ paper's comparison on a Facebook day (FB-2009, the sampling the QKnobler paper
/// takes its submissions from), its first 1,000 jobs on 1,200 slots at load 0.9: CFQ well
/// below FAIR, close to SRPT, and every job within Theorem 1's bound of GPS.
#[test]
fn cfq_against_fair_and_srpt_on_a_facebook_day() {
    let Some(path) = swim_day("FB-2009_samples_24_times_1hr_1.tsv") else {
        return;
    };
    let slots = 1200;
    let workload = read_swim(&path)
        .unwrap()
        .truncated(1000)
        .at_load(slots, 0.9);
    let policies = [
        PolicyKind::Fair,
        PolicyKind::Srpt,
        PolicyKind::Cfq(Profiler::Exact),
    ];
    let report = compare("FB-2009", &workload, slots, &policies).unwrap();
    let [fair, srpt, cfq] = [0, 1, 2].map(|i| &report.summaries[i]);
    eprintln!(
        "FB-2009, 1,000 jobs: mean response FAIR {:.1}, SRPT {:.1}, CFQ {:.1}; worst against \
         GPS {:.1} (bound {:.1})",
        fair.mean, srpt.mean, cfq.mean, cfq.worst_gps_delay, report.delay_bound
    );
    assert!(
        cfq.mean < 0.8 * fair.mean,
        "CFQ {} against FAIR {}",
        cfq.mean,
        fair.mean
    );
    assert!(
        cfq.mean <= 1.1 * srpt.mean,
        "CFQ {} against SRPT {}",
        cfq.mean,
        srpt.mean
    );
    assert!(cfq.worst_gps_delay <= report.delay_bound);
}
