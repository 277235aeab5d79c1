//! The command line: formats, and bad input reported on stderr with nothing on stdout.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairsched-sim"))
        .args(args)
        .output()
        .unwrap()
}

const SMALL: [&str; 4] = ["--jobs", "60", "--slots", "40"];

#[test]
fn text_table_lists_every_policy() {
    let out = run(&SMALL);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for policy in ["FIFO", "FAIR", "SRPT", "CFQ", "CFQ ±20%", "CFQ naive"] {
        assert!(
            text.lines().any(|l| l.starts_with(policy)),
            "{policy} missing:\n{text}"
        );
    }
}

/// `--progress` names each policy on stderr as it runs (what a terminal sees by default) and
/// changes nothing on stdout; without it, and stderr not a terminal, stderr stays empty.
#[test]
fn progress_goes_to_stderr_only() {
    let quiet = run(&SMALL);
    let shown = run(&[&SMALL[..], &["--progress"]].concat());
    assert!(quiet.status.success() && shown.status.success());
    assert_eq!(quiet.stdout, shown.stdout);
    assert!(quiet.stderr.is_empty());
    let stderr = String::from_utf8(shown.stderr).unwrap();
    assert!(stderr.contains(": FIFO (1 of 6)"), "{stderr}");
    assert!(stderr.contains(": CFQ naive (6 of 6)"), "{stderr}");
}

#[test]
fn packing_compares_drf_qknobler_and_tetris() {
    let out = run(&["--packing"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for packer in [
        "DRF ",
        "QKnobler ρ=1 ",
        "QKnobler ρ=0.5 ",
        "QKnobler ρ=0 ",
        "Tetris ",
    ] {
        let rows = text.lines().filter(|l| l.starts_with(packer)).count();
        assert_eq!(rows, 1, "{packer}:\n{text}");
    }
}

#[test]
fn csv_has_a_header_and_a_row_per_policy() {
    let out = run(&[
        &SMALL[..],
        &["--format", "csv", "--policies", "fair,cfq", "--load", "0.8"],
    ]
    .concat());
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("workload,jobs,slots,load,policy,mean_response"));
    let columns = lines[0].split(',').count();
    for line in &lines[1..] {
        // The workload's name holds no comma, so every row splits into the header's columns.
        assert_eq!(line.split(',').count(), columns, "{line}");
    }
    assert!(lines[2].contains(",CFQ,"));
}

#[test]
fn json_is_valid_and_complete() {
    let out = run(&[&SMALL[..], &["--format", "json"]].concat());
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The workload as generated, then at load 0.9.
    let reports = json.as_array().unwrap();
    assert_eq!(reports.len(), 2);
    assert!((reports[1]["load"].as_f64().unwrap() - 0.9).abs() < 1e-9);
    for report in reports {
        assert_eq!(report["jobs"], 60);
        assert_eq!(report["slots"], 40);
        let policies = report["policies"].as_array().unwrap();
        assert_eq!(policies.len(), 6);
        assert!(policies
            .iter()
            .all(|p| p["mean_response"].as_f64().unwrap() > 0.0));
        assert_eq!(policies[3]["policy"], "CFQ");
        assert!(policies[3]["slowdown_1_10"].as_f64().unwrap() >= 1.0);
    }
}

/// A directory of its own for one test.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fairsched-sim-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn svg_plots_a_cdf_and_slowdown_bars_per_policy() {
    let dir = scratch("svg");
    let (cdf, bars) = (dir.join("cdf.svg"), dir.join("slowdown.svg"));
    let out = run(&[
        &SMALL[..],
        &[
            "--policies",
            "fair,srpt,cfq",
            "--svg",
            cdf.to_str().unwrap(),
            "--svg-slowdown",
            bars.to_str().unwrap(),
        ],
    ]
    .concat());
    let (cdf, bars) = (
        std::fs::read_to_string(&cdf).unwrap(),
        std::fs::read_to_string(&bars).unwrap(),
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success());
    for svg in [&cdf, &bars] {
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>\n"));
        for policy in ["FAIR", "SRPT", "CFQ"] {
            assert!(svg.contains(&format!(">{policy}</text>")), "{policy}");
        }
    }
    assert_eq!(cdf.matches("<polyline").count(), 3);
    // A bar a policy in each bin that has jobs (the run's workload has all three widths),
    // titled with its value.
    assert_eq!(bars.matches("<rect x=").count(), 9);
    for bin in ["1-10", "11-50", ">50"] {
        assert!(bars.contains(&format!("<title>CFQ {bin}: ")), "{bin}");
    }
}

#[test]
fn a_bad_trace_names_file_line_and_field_and_writes_nothing() {
    let dir = scratch("bad-trace");
    let path = dir.join("bad.tr");
    let plot = dir.join("cdf.svg");
    std::fs::write(&path, "1 1 2 2\n3 2 1 1 oops\n").unwrap();
    let out = run(&[
        "--trace",
        path.to_str().unwrap(),
        "--svg",
        plot.to_str().unwrap(),
    ]);
    let plotted = plot.exists();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(!plotted);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("bad.tr:2: field 5: duration of task 2 of 2 \"oops\""),
        "{stderr}"
    );
}

#[test]
fn a_bad_swim_file_is_named_and_excludes_a_trace() {
    let dir = scratch("bad-swim");
    let path = dir.join("bad.tsv");
    std::fs::write(&path, "job0\t1\t1\t10\t0\t10\njob1\t2\t1\t-5\t0\t0\n").unwrap();
    let path = path.to_str().unwrap();
    let bad = run(&["--swim", path]);
    let both = run(&["--swim", path, "--trace", path]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(bad.stdout.is_empty());
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert!(
        stderr.contains("bad.tsv:2: field 4: map input bytes -5 is negative"),
        "{stderr}"
    );
    assert_eq!(both.status.code(), Some(2));
    assert!(both.stdout.is_empty());
}

/// `--packing --swim` takes the first 100 submission times of the day: fewer is an error.
#[test]
fn packing_needs_a_hundred_submissions() {
    let dir = scratch("short-swim");
    let path = dir.join("short.tsv");
    std::fs::write(&path, "job0\t1\t1\t10\t0\t10\njob1\t2\t1\t10\t0\t10\n").unwrap();
    let out = run(&["--packing", "--swim", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("short.tsv: 2 jobs; the Table 1 workload needs 100 submission times"),
        "{stderr}"
    );
}

/// A usage error is two lines on stderr: what is wrong, and where the options are listed (not
/// the whole help); nothing on stdout; exit code 2.
#[test]
fn bad_options_say_what_is_wrong_in_two_lines() {
    for (args, says) in [
        (&["--format", "xml"][..], "--format"),
        (&["--slots"], "--slots"),
        (
            &["--seed", "-1"],
            "--seed \"-1\": expected a whole number from 0 to 2^64 - 1",
        ),
        (
            &["--jobs", "many"],
            "--jobs \"many\": expected a whole number from 0 up",
        ),
        (&["--bogus"], "unknown option --bogus"),
    ] {
        let out = run(args);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 2, "{args:?}: {stderr}");
        assert!(
            stderr.ends_with("(fairsched-sim --help lists the options)\n"),
            "{stderr}"
        );
    }
    // A policy name is checked when the run starts: one line, pointing to the help.
    let out = run(&["--policies", "lottery"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr,
        "fairsched-sim: unknown policy \"lottery\" (see --help)\n"
    );
}

#[test]
fn paf_and_reb_print_their_tables() {
    let out = run(&["--paf"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("≤15%").count(), 1, "{text}");
    assert_eq!(text.matches("≤13%").count(), 1, "{text}");
    let out = run(&["--reb", "--seed", "3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("seeds 3-22"), "{text}");
    let out = run(&["--paf", "--reb"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// A reader that goes away before the output is written (`fairsched-sim | head -0`) ends the
/// run quietly: exit 0, nothing on stderr, no panic.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairsched-sim"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The run takes a while before it prints: the pipe's only reader is gone by then.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "{stderr}");
}

/// A full disk is a clear error, not a panic.
#[test]
fn a_full_stdout_is_an_error_message() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fairsched-sim"))
        .arg("--help")
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("fairsched-sim: cannot write the output:"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
