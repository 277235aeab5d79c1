//! The command line: a command per comparison with only its own options, every format of every
//! command, titled plots written all or nothing, and bad input reported on stderr with nothing
//! written.

mod common;
mod scratch;

use common::check_document;
use fairsched_sim::cli::{parse, Invocation};
use fairsched_sim::document::Format;
use scratch::{files, scratch};
use std::path::Path;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairsched-sim"))
        .args(args)
        .output()
        .unwrap()
}

/// The standard output of a run that must succeed.
fn stdout(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// A run's JSON document.
fn document(args: &[&str]) -> String {
    stdout(&[args, &["--format", "json"]].concat())
}

const SMALL: [&str; 4] = ["--jobs", "60", "--slots", "40"];

/// The options each command takes, as its help lists them (the help itself aside).
const COMMANDS: [(&str, &[&str]); 7] = [
    (
        "replay",
        &[
            "--trace",
            "--swim",
            "--slots",
            "--limit",
            "--load",
            "--jobs",
            "--seed",
            "--policies",
            "--error",
            "--format",
            "--svg",
            "--svg-slowdown",
            "--progress",
        ],
    ),
    ("packing", &["--seed", "--swim", "--phases", "--format"]),
    ("paf", &["--seed", "--format"]),
    ("paf-dynamic", &["--seed", "--format"]),
    ("reb", &["--seed", "--format"]),
    ("reb-dynamic", &["--seed", "--format"]),
    ("elastic", &["--seed", "--format"]),
];

/// The columns of a replay table's rows.
const REPLAY_ROW: [&str; 10] = [
    "policy",
    "mean_response",
    "median_response",
    "p95_response",
    "slowdown_1_10",
    "slowdown_11_50",
    "slowdown_over_50",
    "worst_gps_delay",
    "makespan",
    "utilization",
];

/// A usage error: two lines on stderr (what is wrong, and where the options are listed), nothing
/// on stdout, exit code 2.
fn refused(args: &[&str], says: &str, hint: &str) {
    let out = run(args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    assert_eq!(
        stderr,
        format!("fairsched-sim: {says}\n({hint})\n"),
        "{args:?}"
    );
}

#[test]
fn the_help_lists_the_commands_and_each_command_its_own_options() {
    let overview = stdout(&["--help"]);
    assert_eq!(overview, stdout(&["help"]));
    for (command, options) in COMMANDS {
        assert!(
            overview.contains(&format!("\n  {command} ")),
            "{command}:\n{overview}"
        );
        let help = stdout(&[command, "--help"]);
        assert_eq!(help, stdout(&["help", command]), "{command}");
        assert!(help.starts_with(&format!("fairsched-sim {command}: ")));
        let listed: Vec<&str> = help
            .lines()
            .filter_map(|l| l.strip_prefix("  --"))
            .map(|l| &l[..l.find(' ').unwrap_or(l.len())])
            .collect();
        let mut wanted: Vec<String> = options.iter().map(|o| o[2..].to_owned()).collect();
        wanted.push("help".to_owned());
        assert_eq!(listed, wanted, "{command}:\n{help}");
        assert!(help.lines().all(|l| l.chars().count() <= 92), "{help}");
    }
    // Replay's help names the command optional.
    assert!(stdout(&["replay", "--help"]).contains("usage: fairsched-sim [replay] [options]"));
    // An option list given without a command is replay's.
    assert_eq!(
        stdout(&["--slots", "3", "--help"]),
        stdout(&["replay", "--help"])
    );
}

/// Every option of another command is refused by name, pointing to the command's help.
#[test]
fn an_option_of_another_command_is_refused() {
    let all: Vec<&str> = COMMANDS[0].1.to_vec();
    for (command, options) in COMMANDS {
        for flag in all.iter().filter(|flag| !options.contains(flag)) {
            refused(
                &[command, flag, "1"],
                &format!("{flag} does not apply to {command}"),
                &format!("fairsched-sim {command} --help lists its options"),
            );
        }
    }
}

/// The old command line's mode flags point to the commands that replace them.
#[test]
fn the_old_mode_flags_point_to_their_commands() {
    for (command, _) in &COMMANDS[1..] {
        let flag = format!("--{command}");
        for args in [
            &[flag.as_str()][..],
            &["--seed", "2", &flag],
            &["paf", &flag],
        ] {
            refused(
                args,
                &format!("{flag} is a command now: fairsched-sim {command} [options]"),
                "fairsched-sim --help lists the commands",
            );
        }
    }
}

#[test]
fn bad_options_say_what_is_wrong_in_two_lines() {
    let replay = "fairsched-sim replay --help lists its options";
    let commands = "fairsched-sim --help lists the commands";
    for (args, says, hint) in [
        (
            &["--format", "xml"][..],
            "--format \"xml\": expected text, csv or json",
            replay,
        ),
        (&["--slots"], "--slots needs a value", replay),
        (
            &["--seed", "-1"],
            "--seed \"-1\": expected a whole number from 0 to 2^64 - 1",
            replay,
        ),
        (
            &["--jobs", "many"],
            "--jobs \"many\": expected a whole number from 0 to 1000000",
            replay,
        ),
        (
            &["--slots", "4294967295"],
            "--slots \"4294967295\": expected a whole number from 1 to 1000000",
            replay,
        ),
        (
            &["--load", "1e300"],
            "--load \"1e300\": expected a number above 0, at most 1000",
            replay,
        ),
        (&["--bogus"], "unknown option --bogus", replay),
        (
            &["reb", "--bogus"],
            "unknown option --bogus",
            "fairsched-sim reb --help lists its options",
        ),
        (
            &["--policies", "fair,lottery"],
            "--policies \"fair,lottery\": expected a comma-separated list among fifo, fair, \
             srpt, cfq, cfq-perturbed and cfq-naive",
            replay,
        ),
        (
            &["--policies", "fair,cfq,fair"],
            "--policies names fair twice",
            replay,
        ),
        (
            &["--trace", "t.tr", "--jobs", "9"],
            "--jobs does not apply to --trace: it sizes the synthetic workload",
            replay,
        ),
        (
            &["--policies", "fair,cfq", "--error", "0.1"],
            "--error does not apply: it is cfq-perturbed's, which --policies leaves out",
            replay,
        ),
        (
            &["--swim", "s.tsv", "--policies", "cfq", "--seed", "2"],
            "--seed does not apply: with --swim it seeds cfq-perturbed's errors, which \
             --policies leaves out",
            replay,
        ),
        (
            &["--trace", "t.tr", "--swim", "s.tsv"],
            "--trace and --swim exclude one another",
            replay,
        ),
        (
            &["--svg", "p.svg", "--svg-slowdown", "p.svg"],
            "--svg and --svg-slowdown name the same file",
            replay,
        ),
        (&["bogus"], "unknown command \"bogus\"", commands),
        (&["help", "bogus"], "unknown command \"bogus\"", commands),
        (
            &["--seed", "2", "paf"],
            "paf: the command comes first (fairsched-sim paf [options])",
            commands,
        ),
        (
            &["paf", "extra"],
            "unexpected argument \"extra\"",
            "fairsched-sim paf --help lists its options",
        ),
    ] {
        refused(args, says, hint);
    }
}

/// Every command takes every format (checked on the parsed options: some commands take
/// seconds to run unoptimized).
#[test]
fn every_command_takes_every_format() {
    for (command, _) in COMMANDS {
        for (name, format) in [
            ("text", Format::Text),
            ("csv", Format::Csv),
            ("json", Format::Json),
        ] {
            match parse(&[command, "--format", name].map(String::from)) {
                Ok(Invocation::Run(options)) => assert_eq!(options.format, format),
                other => panic!("{command} --format {name}: {other:?}"),
            }
        }
    }
}

#[test]
fn replay_is_the_default_command() {
    assert_eq!(stdout(&SMALL), stdout(&[&["replay"][..], &SMALL].concat()));
}

/// The table, a summary line per comparison computed from the table's own figures, and the
/// legend once.
#[test]
fn the_text_summarizes_each_table_and_ends_with_a_legend() {
    let text = stdout(&SMALL);
    for policy in ["FIFO", "FAIR", "SRPT", "CFQ", "CFQ ±20%", "CFQ naive"] {
        let rows = text
            .lines()
            // The policy's column is 10 wide; util ends the row.
            .filter(|l| l.chars().take(10).collect::<String>().trim_end() == policy)
            .filter(|l| l.ends_with('%') && !l.contains(" against "))
            .count();
        assert_eq!(rows, 2, "{policy}:\n{text}");
    }
    // A summary line of each comparison below each of the two tables.
    for lead in [
        "CFQ against FAIR: mean response time ",
        "CFQ ±20% against CFQ: mean response time ",
        "CFQ naive against CFQ: mean response time ",
    ] {
        assert_eq!(
            text.lines().filter(|l| l.starts_with(lead)).count(),
            2,
            "{lead}"
        );
    }
    assert!(text.contains("; against SRPT: mean response time "));
    for legend in [
        "FIFO       first come, first served",
        "CFQ ±E%    CFQ told each slot-time off",
        "CFQ naive  CFQ told the paper's naive estimate",
        "worst vs GPS: ",
        "mean slowdown by width: ",
        "util: ",
    ] {
        assert_eq!(text.matches(legend).count(), 1, "{legend}:\n{text}");
    }
    // The figures behind the lines are the table's: CFQ's mean over FAIR's, minus 1.
    let (json, names) = check_document(
        &document(&SMALL),
        "replay",
        &[("original", &REPLAY_ROW), ("load_0.9", &REPLAY_ROW)],
        Some(&text),
    );
    assert_eq!(names.len(), 16, "{names:?}");
    let table = &json["tables"][1];
    assert_eq!(table["name"], "load_0.9");
    let mean = |policy: &str| {
        let rows = table["rows"].as_array().unwrap();
        let row = rows.iter().find(|r| r["policy"] == policy).unwrap();
        row["mean_response"].as_f64().unwrap()
    };
    let comparison = json["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "cfq_vs_fair.mean_response@load_0.9")
        .unwrap();
    let value = comparison["value"].as_f64().unwrap();
    assert!(
        (value - (mean("CFQ") / mean("FAIR") - 1.0)).abs() < 1e-12,
        "{value}"
    );
    assert_eq!(comparison["table"], "load_0.9");
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

/// The replay's JSON: its parameters, a table a load and the comparisons of each.
#[test]
fn replay_json_is_complete() {
    let (json, names) = check_document(
        &document(&[&SMALL[..], &["--policies", "fair,srpt,cfq"]].concat()),
        "replay",
        &[("original", &REPLAY_ROW), ("load_0.9", &REPLAY_ROW)],
        None,
    );
    assert_eq!(
        names,
        [
            "cfq_vs_fair.mean_response@original",
            "cfq_vs_fair.p95_response@original",
            "cfq_vs_srpt.mean_response@original",
            "cfq_vs_srpt.p95_response@original",
            "cfq_vs_fair.mean_response@load_0.9",
            "cfq_vs_fair.p95_response@load_0.9",
            "cfq_vs_srpt.mean_response@load_0.9",
            "cfq_vs_srpt.p95_response@load_0.9",
        ]
    );
    let parameters = &json["parameters"];
    assert_eq!(parameters["workload"], "synthetic");
    assert_eq!(parameters["jobs"], 60);
    assert_eq!(parameters["slots"], 40);
    assert_eq!(parameters["policies"], "fair,srpt,cfq");
    // cfq-perturbed is not run: no error applies.
    assert!(parameters["error"].is_null());
    let tables = json["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    assert!((tables[1]["context"]["load"].as_f64().unwrap() - 0.9).abs() < 1e-9);
    for table in tables {
        assert_eq!(table["context"]["jobs"], 60);
        let rows = table["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2]["policy"], "CFQ");
        assert!(rows[2]["slowdown_1_10"].as_f64().unwrap() >= 1.0);
    }
    // A seed beyond what a double holds exactly is written exactly.
    let seed: serde_json::Value =
        serde_json::from_str(&document(&["paf", "--seed", "18446744073709551615"])).unwrap();
    assert_eq!(seed["parameters"]["seed"], u64::MAX);
}

/// CSV lines split into fields, quotes handled.
fn csv(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| {
            let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match (c, quoted) {
                    ('"', true) if chars.peek() == Some(&'"') => {
                        field.push('"');
                        chars.next();
                    }
                    ('"', _) => quoted = !quoted,
                    (',', false) => fields.push(std::mem::take(&mut field)),
                    (c, _) => field.push(c),
                }
            }
            fields.push(field);
            fields
        })
        .collect()
}

/// One header, then a line per row of every table, all with the header's columns; the table
/// column names each line's table.
#[test]
fn csv_has_a_header_and_a_line_per_row() {
    for (args, rows) in [
        (
            &[&SMALL[..], &["--policies", "fair,cfq", "--load", "0.8"]].concat(),
            2,
        ),
        (&SMALL.to_vec(), 12),
        (&vec!["paf"], 6),
        (&vec!["reb"], 15),
    ] {
        let text = stdout(&[&args[..], &["--format", "csv"]].concat());
        let lines = csv(&text);
        assert_eq!(lines.len(), 1 + rows, "{text}");
        assert_eq!(lines[0][0], "table");
        for line in &lines {
            assert_eq!(line.len(), lines[0].len(), "{line:?}");
        }
    }
    let text = stdout(&[&SMALL[..], &["--policies", "fair,cfq", "--format", "csv"]].concat());
    let lines = csv(&text);
    assert_eq!(
        lines[0][..7],
        [
            "table",
            "workload",
            "jobs",
            "slots",
            "load",
            "delay_bound",
            "policy"
        ]
    );
    assert_eq!(lines[0][7..], REPLAY_ROW[1..]);
    let tables: Vec<&str> = lines[1..].iter().map(|l| l[0].as_str()).collect();
    assert_eq!(tables, ["original", "original", "load_0.9", "load_0.9"]);
    assert_eq!(lines[4][6], "CFQ");
}

/// The columns of `packing`'s table.
const PACKING_ROW: [&str; 9] = [
    "packer",
    "makespan",
    "speedup",
    "mean_completion",
    "soft_fairness_mean",
    "soft_fairness_max",
    "theta",
    "utilization_cores",
    "utilization_memory",
];

#[test]
fn packing_compares_drf_qknobler_and_tetris() {
    let text = stdout(&["packing"]);
    for packer in [
        "DRF ",
        "QKnobler ρ=1 ",
        "QKnobler ρ=0.5 ",
        "QKnobler ρ=0 ",
        "Tetris ",
    ] {
        let rows = text
            .lines()
            .filter(|l| l.starts_with(packer) && !l.contains(" against "))
            .count();
        assert_eq!(rows, 1, "{packer}:\n{text}");
    }
    let (json, names) = check_document(
        &document(&["packing"]),
        "packing",
        &[("packing", &PACKING_ROW)],
        Some(&text),
    );
    assert_eq!(
        names,
        [
            "qknobler_0_vs_drf.makespan",
            "qknobler_0_vs_tetris.makespan",
            "qknobler_1_vs_drf.makespan",
            "qknobler_1_vs_tetris.makespan",
        ]
    );
    let rows = json["tables"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 13);
    // Tetris has no θ: null, as the text's "-".
    assert!(rows[12]["theta"].is_null());
    assert_eq!(json["parameters"]["seed"], 1);
}

/// `packing --phases`: the same jobs as one user each, maps then reduces, packed by
/// QKnobler-C2 at every knob (ρ = 1 is DRF), in the same table and document shapes.
#[test]
fn packing_in_two_phases() {
    let text = stdout(&["packing", "--phases"]);
    assert!(text.contains("maps then reduces"), "{text}");
    for rho in ["1", "0.5", "0"] {
        let packer = format!("QKnobler-C2 ρ={rho} ");
        let rows = text
            .lines()
            .filter(|l| l.starts_with(&packer) && !l.contains(" against "))
            .count();
        assert_eq!(rows, 1, "{packer}:\n{text}");
    }
    assert!(!text.contains("Tetris") && !text.contains("DRF "), "{text}");
    let (json, names) = check_document(
        &document(&["packing", "--phases"]),
        "packing",
        &[("packing", &PACKING_ROW)],
        Some(&text),
    );
    assert_eq!(names, ["qknobler_c2_0_vs_qknobler_c2_1.makespan"]);
    let rows = json["tables"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 11);
    // The speedup is over ρ = 1, and no row has θ.
    assert_eq!(rows[0]["speedup"], 1.0);
    assert!(rows.iter().all(|r| r["theta"].is_null()));
}

#[test]
fn paf_and_reb_print_their_tables_and_documents() {
    let text = stdout(&["paf"]);
    assert_eq!(text.matches("≤15%").count(), 1, "{text}");
    assert_eq!(text.matches("≤13%").count(), 1, "{text}");
    let row = [
        "slots",
        "alpha",
        "gain",
        "paper_gain",
        "largest_loss",
        "losers",
        "moved",
    ];
    let (json, names) = check_document(&document(&["paf"]), "paf", &[("paf", &row)], Some(&text));
    assert_eq!(names.len(), 6);
    let big = json["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "paf_0.9_vs_fair.progress@8000_slots")
        .unwrap();
    assert_eq!(big["paper"], 0.15);
    assert_eq!(big["value"], json["tables"][0]["rows"][4]["gain"]);

    let text = stdout(&["reb", "--seed", "3"]);
    assert!(text.contains("seeds 3-22"), "{text}");
    let row = ["jobs", "method", "mean_jct_sum", "mean_waiting"];
    let (json, names) = check_document(
        &document(&["reb", "--seed", "3"]),
        "reb",
        &[("reb", &row)],
        Some(&text),
    );
    assert_eq!(names.len(), 10);
    assert!(names.contains(&"hai_vs_shortest_job_optimal.mean_jct_sum@10_jobs".to_owned()));
    assert!(names.contains(&"hai_vs_max_min.mean_jct_sum@50_jobs".to_owned()));
    assert_eq!(json["parameters"]["seed"], 3);
}

#[test]
fn svg_plots_a_titled_cdf_and_slowdown_bars_per_policy() {
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
    assert_eq!(files(&dir), ["cdf.svg", "slowdown.svg"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success());
    // The workload with its seed, the slots and the offered load of the last table.
    let title = "synthetic CFQ §V-A workload (seed 1) at load 0.9: 60 jobs on 40 slots, \
                 offered load 0.90";
    for svg in [&cdf, &bars] {
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>\n"));
        assert!(svg.contains(&format!("<title>{title}</title>")), "{svg}");
        assert!(svg.contains(&format!("font-weight=\"bold\">{title}</text>")));
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

/// A trace's plot names the seed of the profiling errors, the one seed that plays a part.
#[test]
fn a_trace_plot_names_its_seed_slots_and_load() {
    let dir = scratch("trace-svg");
    let (trace, plot) = (dir.join("t.tr"), dir.join("cdf.svg"));
    std::fs::write(&trace, "0 2 2 1 3\n5 1 4 4\n9 3 1 1 1 1\n").unwrap();
    let text = stdout(&[
        "--trace",
        trace.to_str().unwrap(),
        "--slots",
        "2",
        "--seed",
        "7",
        "--svg",
        plot.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&plot).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    // 11 s of work over the 9 s between the first and the last arrival, on 2 slots.
    let title = format!(
        "trace {} (profiling seed 7): 3 jobs on 2 slots, offered load 0.61",
        trace.display()
    );
    assert!(svg.contains(&format!("<title>{title}</title>")), "{svg}");
    assert!(text.starts_with(&title), "{text}");
}

/// With two plots asked for, a failure on the second leaves the first unwritten, an existing
/// file in its place untouched, and no temporary file behind; nothing is printed.
#[test]
fn plots_are_written_all_or_nothing() {
    let dir = scratch("all-or-nothing");
    let first = dir.join("cdf.svg");
    let missing = dir.join("no-such-folder").join("slowdown.svg");
    let folder = dir.join("a-folder.svg");
    std::fs::create_dir(&folder).unwrap();
    let attempt = |second: &Path| {
        run(&[
            &SMALL[..],
            &[
                "--svg",
                first.to_str().unwrap(),
                "--svg-slowdown",
                second.to_str().unwrap(),
            ],
        ]
        .concat())
    };
    let fresh = attempt(&missing);
    let fresh_files = files(&dir);
    std::fs::write(&first, "old").unwrap();
    let over_folder = attempt(&folder);
    let kept = std::fs::read_to_string(&first).unwrap();
    let kept_files = files(&dir);
    std::fs::remove_dir_all(&dir).unwrap();

    for (out, second, problem) in [
        (&fresh, &missing, "No such file or directory"),
        (&over_folder, &folder, "is a directory"),
    ] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(out.stdout.is_empty());
        assert!(
            stderr.starts_with(&format!("fairsched-sim: {}: {problem}", second.display())),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    assert_eq!(fresh_files, ["a-folder.svg"]);
    assert_eq!(kept_files, ["a-folder.svg", "cdf.svg"]);
    assert_eq!(kept, "old");
}

/// A trace that cannot be read: one line naming the file, the line and the field; exit 1;
/// nothing on stdout, no plot.
fn bad_trace(name: &str, content: &[u8], says: &str) {
    let dir = scratch(name);
    let path = dir.join(name);
    let plot = dir.join("cdf.svg");
    std::fs::write(&path, content).unwrap();
    let option = if name.ends_with(".tsv") {
        "--swim"
    } else {
        "--trace"
    };
    let out = run(&[
        option,
        path.to_str().unwrap(),
        "--svg",
        plot.to_str().unwrap(),
    ]);
    let plotted = plot.exists();
    std::fs::remove_dir_all(&dir).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(!plotted);
    assert_eq!(
        stderr,
        format!("fairsched-sim: {}:{says}\n", path.display())
    );
}

#[test]
fn a_bad_trace_names_file_line_and_field_and_writes_nothing() {
    bad_trace(
        "bad.tr",
        b"1 1 2 2\n3 2 1 1 oops\n",
        "2: field 5: duration of task 2 of 2 \"oops\" is not a finite number",
    );
    bad_trace(
        "latin1.tr",
        b"1 1 2 2\n\n3 2 1 1 \xe92\n",
        "3: field 5: byte 0xe9 is not UTF-8 text",
    );
    bad_trace(
        "far.tr",
        b"1 1 2 2\n3e10 1 2 2\n",
        "2: field 1: arrival time 30000000000 is too large (at most 10000000000)",
    );
    bad_trace(
        "bad.tsv",
        b"job0\t1\t1\t10\t0\t10\njob1\t2\t1\t-5\t0\t0\n",
        "2: field 4: map input bytes -5 is negative",
    );
    bad_trace(
        "utf16.tsv",
        b"\xff\xfej\x00o\x00b\x00",
        "1: field 1: byte 0xff is not UTF-8 text",
    );
}

/// `packing --swim` takes the first 100 submission times of the day: fewer is an error.
#[test]
fn packing_needs_a_hundred_submissions() {
    let dir = scratch("short-swim");
    let path = dir.join("short.tsv");
    std::fs::write(&path, "job0\t1\t1\t10\t0\t10\njob1\t2\t1\t10\t0\t10\n").unwrap();
    let out = run(&["packing", "--swim", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("short.tsv: 2 jobs; the Table 1 workload needs 100 submission times"),
        "{stderr}"
    );
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

/// An argument that is not UTF-8 text is a usage error, not a panic.
#[test]
fn a_non_utf8_argument_is_a_usage_error() {
    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(env!("CARGO_BIN_EXE_fairsched-sim"))
        .arg("--trace")
        .arg(std::ffi::OsStr::from_bytes(b"t\xff.tr"))
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "fairsched-sim: argument \"t\\xFF.tr\" is not UTF-8 text\n\
         (fairsched-sim --help lists the commands)\n"
    );
}
