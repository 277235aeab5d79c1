//! `fairsched-sim`: replays a workload on a simulated slot cluster under several policies and
//! prints the comparison. Run with `--help` for the options.

use fairsched_sim::elastic;
use fairsched_sim::elastic::workload::{
    elasecutor_paper, ELASTIC_MACHINE, ELASTIC_MACHINES, ELASTIC_NEW, ELASTIC_RECURRING,
    ELASTIC_RUNS, STEP_SECONDS,
};
use fairsched_sim::machines::{compare_packers, makespan_bound, packers};
use fairsched_sim::paf::{PAF_PAPER_ALPHAS, PAF_PAPER_JOBS, PAF_PAPER_SLOTS};
use fairsched_sim::policy::{PolicyKind, Profiler};
use fairsched_sim::reb::{REB_BATCHES, REB_SIZES};
use fairsched_sim::report::{self, Format, Report};
use fairsched_sim::synthetic::{self, CFQ_PAPER_JOBS, CFQ_PAPER_SLOTS, TABLE_1_JOBS};
use fairsched_sim::{paf_dynamic, reb_dynamic, report_of, svg, swim, trace};
use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
fairsched-sim: replay a workload on a simulated slot cluster and compare scheduling policies

usage: fairsched-sim [options]

  --packing          compare DRF, QKnobler (ρ from 1 to 0 in steps of 0.1) and Tetris on
                     multi-resource machines with the QKnobler paper's Table 1 workload
                     instead: makespan and soft fairness (takes --seed and --format; with
                     --swim, the first 100 submission times of that SWIM day, as the paper)
  --paf              the PAF paper's static simulation (§V-B): 200 jobs with concave
                     progress curves on 800, 2,000 and 8,000 slots, PAF at α = 0.9 and 0.99
                     against fair sharing (takes --seed; text only)
  --paf-dynamic      the PAF paper's simulation over time (§V-B): 200 jobs arriving as in
                     the Google trace, JVM warm-up on reused slots, PAF at α = 1, 0.9 and
                     0.99 re-allocating at every arrival and departure against FAIR, on
                     800, 2,000 and 8,000 slots (takes --seed; text only)
  --reb              ReB's static comparison: HAI against shortest-job-optimal and max-min
                     on 20 seeded batches each of 10 to 50 jobs, 200 cores, θ = 1 (takes
                     --seed, the first batch's; text only)
  --reb-dynamic      ReB's allocators over time: HAI (rebalanced, or re-planned), shortest-
                     job-optimal and max-min re-deciding at each arrival and completion, on
                     batches of 10 to 50 jobs at once and Poisson arrivals at load 0.9 and
                     1.5, 20 runs each, 200 cores (takes --seed, the first run's; text only)
  --elastic          Elasecutor's comparison (§V): 132 applications whose executors' demand
                     varies over time on 35 machines of 4 resource kinds, packed by the
                     core's MinFrag with DRR and with TRC, and by Tetris' alignment
                     reserving the peak (and the series); 5 runs (takes --seed, the
                     applications'; each run draws their arrivals; text only)
  --trace PATH       replay a Google 2011 sub-trace (Hawk format) instead of the synthetic
                     CFQ §V-A workload
  --swim PATH        replay a SWIM Facebook workload (FB-2009 or FB-2010 .tsv) instead: tasks
                     and run times derived from its bytes (see sim/README.md)
  --slots N          slots of the cluster (default: 200 for the synthetic workload, 8000 for
                     a Google trace, as in the CFQ paper, 1200 for SWIM: FB-2009's 600
                     machines, 2 slots each)
  --limit JOBS       replay only the first JOBS jobs to arrive
  --load L           stretch or compress the arrivals to an offered load of L (work over the
                     slot-time between the first and the last arrival); without it, the
                     synthetic workload is replayed as generated and at load 0.9
  --jobs N           jobs of the synthetic workload (default 500)
  --seed S           seed of the synthetic workload and of the profiling errors (default 1)
  --policies LIST    comma-separated, among fifo, fair, srpt, cfq, cfq-perturbed, cfq-naive
                     (default: all of them)
  --error E          largest relative profiling error of cfq-perturbed (default 0.2)
  --format F         text (default), csv or json
  --svg PATH         also write the response-time CDF of every policy to PATH (of the
                     last table when there are several)
  --svg-slowdown PATH  also write the mean slowdown of every policy in each job-width bin
                     to PATH (of the last table)
  --progress         show which policy is running on stderr (the default when stderr is
                     a terminal; replays of large traces take seconds a policy)
  --help             this text
";

/// What the command line asks for.
struct Options {
    trace: Option<PathBuf>,
    swim: Option<PathBuf>,
    slots: Option<u32>,
    limit: Option<usize>,
    load: Option<f64>,
    jobs: usize,
    seed: u64,
    policies: Vec<String>,
    error: f64,
    format: Format,
    svg: Option<PathBuf>,
    svg_slowdown: Option<PathBuf>,
    mode: Mode,
    /// Whether to show the policy being replayed on stderr.
    progress: bool,
}

/// What a run does: replay a workload under the slot policies (the default), or one of the
/// papers' own comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Replay,
    Packing,
    Paf,
    PafDynamic,
    Reb,
    RebDynamic,
    Elastic,
}

/// The modes' flags, and whether they print a text table only.
const MODES: [(&str, Mode, bool); 6] = [
    ("--packing", Mode::Packing, false),
    ("--paf", Mode::Paf, true),
    ("--paf-dynamic", Mode::PafDynamic, true),
    ("--reb", Mode::Reb, true),
    ("--reb-dynamic", Mode::RebDynamic, true),
    ("--elastic", Mode::Elastic, true),
];

/// The options that take a value.
const VALUED: [&str; 12] = [
    "--trace",
    "--swim",
    "--slots",
    "--limit",
    "--load",
    "--jobs",
    "--seed",
    "--error",
    "--svg",
    "--svg-slowdown",
    "--policies",
    "--format",
];

/// Parses the arguments; `Ok(None)` asks for the usage text.
fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        trace: None,
        swim: None,
        slots: None,
        limit: None,
        load: None,
        jobs: CFQ_PAPER_JOBS,
        seed: 1,
        policies: ["fifo", "fair", "srpt", "cfq", "cfq-perturbed", "cfq-naive"]
            .map(String::from)
            .to_vec(),
        error: 0.2,
        format: Format::Text,
        svg: None,
        svg_slowdown: None,
        mode: Mode::Replay,
        progress: std::io::stderr().is_terminal(),
    };
    // The mode's flag and whether it is text only, once one is given.
    let mut mode: Option<(&str, bool)> = None;
    let mut args = args;
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        if flag == "--progress" {
            options.progress = true;
            continue;
        }
        if let Some(&(name, chosen, text_only)) = MODES.iter().find(|(name, ..)| *name == flag) {
            if let Some((other, _)) = mode {
                return Err(format!("{other} and {name} exclude one another"));
            }
            options.mode = chosen;
            mode = Some((name, text_only));
            continue;
        }
        if !VALUED.contains(&flag.as_str()) {
            return Err(format!("unknown option {flag}"));
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let expected = |what: &str| format!("{flag} {value:?}: expected {what}");
        match flag.as_str() {
            "--trace" => options.trace = Some(PathBuf::from(&value)),
            "--swim" => options.swim = Some(PathBuf::from(&value)),
            "--slots" => {
                options.slots = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&n: &u32| n > 0)
                        .ok_or_else(|| expected("a positive integer"))?,
                )
            }
            "--limit" => {
                options.limit = Some(
                    value
                        .parse()
                        .map_err(|_| expected("a whole number from 0 up"))?,
                )
            }
            "--load" => {
                options.load = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&l: &f64| l > 0.0 && l.is_finite())
                        .ok_or_else(|| expected("a positive number"))?,
                )
            }
            "--jobs" => {
                options.jobs = value
                    .parse()
                    .map_err(|_| expected("a whole number from 0 up"))?
            }
            "--seed" => {
                options.seed = value
                    .parse()
                    .map_err(|_| expected("a whole number from 0 to 2^64 - 1"))?
            }
            "--error" => {
                options.error = value
                    .parse()
                    .ok()
                    .filter(|e: &f64| (0.0..1.0).contains(e))
                    .ok_or_else(|| expected("a number in [0, 1)"))?
            }
            "--svg" => options.svg = Some(PathBuf::from(&value)),
            "--svg-slowdown" => options.svg_slowdown = Some(PathBuf::from(&value)),
            "--policies" => options.policies = value.split(',').map(str::to_owned).collect(),
            "--format" => {
                options.format = match value.as_str() {
                    "text" => Format::Text,
                    "csv" => Format::Csv,
                    "json" => Format::Json,
                    _ => return Err(expected("text, csv or json")),
                }
            }
            _ => unreachable!("{flag} is in VALUED"),
        }
    }
    let traces = [&options.trace, &options.swim];
    if traces.iter().all(|trace| trace.is_some()) {
        return Err("--trace and --swim exclude one another".to_owned());
    }
    if let Some((name, text_only)) = mode {
        let submissions = options.mode == Mode::Packing && options.trace.is_none();
        if traces.iter().any(|trace| trace.is_some()) && !submissions {
            return Err(format!(
                "{name} runs its own workload, not a trace (--packing takes the submission \
                 times of --swim)"
            ));
        }
        if text_only && options.format != Format::Text {
            return Err(format!("{name} prints a text table only"));
        }
    }
    Ok(Some(options))
}

/// The policy a name on the command line stands for.
fn policy(name: &str, options: &Options) -> Result<PolicyKind, String> {
    Ok(match name {
        "fifo" => PolicyKind::Fifo,
        "fair" => PolicyKind::Fair,
        "srpt" => PolicyKind::Srpt,
        "cfq" => PolicyKind::Cfq(Profiler::Exact),
        "cfq-perturbed" => PolicyKind::Cfq(Profiler::Perturbed {
            error: options.error,
            seed: options.seed,
        }),
        "cfq-naive" => PolicyKind::Cfq(Profiler::Naive),
        _ => return Err(format!("unknown policy {name:?} (see --help)")),
    })
}

/// The packing comparison on the QKnobler Table 1 workload, submitted at once or at the first
/// submission times of a SWIM day.
fn packing(options: &Options) -> Result<String, String> {
    let (users, submitted) = match &options.swim {
        None => (
            synthetic::qknobler_table_1(options.seed),
            "all at 0".to_owned(),
        ),
        Some(path) => {
            let day = swim::read_swim(path).map_err(|e| e.to_string())?;
            let times: Vec<f64> = day.jobs().iter().map(|job| job.arrival).collect();
            let first = times
                .get(..TABLE_1_JOBS)
                .and_then(|times| <&[f64; TABLE_1_JOBS]>::try_from(times).ok())
                .ok_or_else(|| {
                    format!(
                        "{}: {} jobs; the Table 1 workload needs {TABLE_1_JOBS} submission times",
                        path.display(),
                        times.len()
                    )
                })?;
            (
                synthetic::qknobler_table_1_submitted(options.seed, first),
                format!("submitted as the first jobs of {}", path.display()),
            )
        }
    };
    let machines = vec![synthetic::QKNOBLER_MACHINE.to_vec(); synthetic::QKNOBLER_MACHINES];
    let summaries = compare_packers(&machines, &users, &packers())
        .map_err(|e| format!("the core rejected the workload: {e}"))?;
    Ok(report::render_packing(
        &format!(
            "QKnobler Table 1 workload (seed {}, {submitted})",
            options.seed
        ),
        &format!(
            "{} machines of <{} cores, {} GB>",
            machines.len(),
            synthetic::QKNOBLER_MACHINE[0],
            synthetic::QKNOBLER_MACHINE[1]
        ),
        makespan_bound(&machines, &users),
        &summaries,
        options.format,
    ))
}

/// The PAF paper's static simulation (§V-B) on its three cluster sizes and two knobs.
fn paf(options: &Options) -> Result<String, String> {
    let jobs = fairsched_sim::paf::paf_paper(PAF_PAPER_JOBS, options.seed);
    let outcomes = fairsched_sim::paf::compare(&jobs, &PAF_PAPER_SLOTS, &PAF_PAPER_ALPHAS)
        .map_err(|e| format!("the core rejected the workload: {e}"))?;
    Ok(fairsched_sim::paf::render(
        &format!("PAF §V-B workload (seed {})", options.seed),
        PAF_PAPER_JOBS,
        &outcomes,
    ))
}

/// ReB's static comparison on batches of 10 to 50 jobs.
fn reb(options: &Options) -> Result<String, String> {
    let rows = fairsched_sim::reb::compare(&REB_SIZES, REB_BATCHES, options.seed)
        .map_err(|e| format!("the core rejected a batch: {e}"))?;
    Ok(fairsched_sim::reb::render(&rows, REB_BATCHES, options.seed))
}

/// The PAF paper's simulation over time (§V-B): its own table, then the standard ones.
fn paf_dynamic(options: &Options) -> Result<String, String> {
    let name = format!("PAF §V-B workload over time (seed {})", options.seed);
    let workload = paf_dynamic::paf_over_time(PAF_PAPER_JOBS, options.seed);
    let (outcomes, reports) = paf_dynamic::compare(
        &name,
        &workload,
        &PAF_PAPER_SLOTS,
        &paf_dynamic::PAF_DYNAMIC_ALPHAS,
    )
    .map_err(|e| format!("the core rejected the workload: {e}"))?;
    Ok(format!(
        "{}\n{}",
        paf_dynamic::render(&name, PAF_PAPER_JOBS, &outcomes),
        report::render(&reports, Format::Text)
    ))
}

/// ReB's allocators over time, on batches at once and Poisson arrivals.
fn reb_dynamic(options: &Options) -> Result<String, String> {
    let rows = reb_dynamic::compare(&reb_dynamic::scenarios(), reb_dynamic::RUNS, options.seed)
        .map_err(|e| format!("the core rejected a decision: {e}"))?;
    Ok(reb_dynamic::render(&rows, reb_dynamic::RUNS, options.seed))
}

/// Elasecutor's comparison: the paper's workload, its runs, every policy.
fn elastic(options: &Options) -> Result<String, String> {
    let runs: Vec<_> = (1..=ELASTIC_RUNS)
        .map(|run| elasecutor_paper(ELASTIC_RECURRING, ELASTIC_NEW, options.seed, run))
        .collect();
    let machines = vec![ELASTIC_MACHINE.to_vec(); ELASTIC_MACHINES];
    let summaries = elastic::compare(&machines, &runs, &elastic::POLICIES, STEP_SECONDS)
        .map_err(|e| format!("the core rejected the workload: {e}"))?;
    let executors: u32 = runs[0].iter().map(|app| app.executors).sum();
    let [cores, memory, network, disk] = ELASTIC_MACHINE;
    Ok(elastic::render(
        &format!(
            "Elasecutor §V-A workload (seed {}, runs 1-{ELASTIC_RUNS}): {} applications, \
             {executors} executors on {ELASTIC_MACHINES} machines of \
             <{cores} cores, {memory} GB, {network} Gbps, {disk} MB/s>; steps of {STEP_SECONDS} s",
            options.seed,
            runs[0].len(),
        ),
        &summaries,
    ))
}

/// Draws a report as an SVG.
type Plot = fn(&Report) -> String;

/// The offered load the default run adds to the synthetic workload's own (see sim/README.md).
const BUSY: f64 = 0.9;

/// Runs the comparisons, writes the plot if asked and renders the reports: nothing is written
/// unless the whole workload was read and replayed.
fn run(options: &Options) -> Result<String, String> {
    let policies = options
        .policies
        .iter()
        .map(|name| policy(name, options))
        .collect::<Result<Vec<_>, _>>()?;
    let (name, workload, default_slots, loads) = match (&options.trace, &options.swim) {
        (Some(path), _) => (
            format!("trace {}", path.display()),
            trace::read_google(path).map_err(|e| e.to_string())?,
            8000,
            vec![options.load],
        ),
        (None, Some(path)) => (
            format!("SWIM workload {}", path.display()),
            swim::read_swim(path).map_err(|e| e.to_string())?,
            1200,
            vec![options.load],
        ),
        (None, None) => (
            format!("synthetic CFQ §V-A workload (seed {})", options.seed),
            synthetic::cfq_paper(options.jobs, options.seed),
            CFQ_PAPER_SLOTS,
            match options.load {
                Some(load) => vec![Some(load)],
                None => vec![None, Some(BUSY)],
            },
        ),
    };
    let workload = match options.limit {
        Some(limit) => workload.truncated(limit),
        None => workload,
    };
    if workload.jobs().is_empty() {
        return Err(format!("{name}: no job to replay"));
    }
    let slots = options.slots.unwrap_or(default_slots);
    let reports = loads
        .into_iter()
        .map(|load| {
            let (name, workload) = match load {
                Some(load) => (
                    format!("{name} at load {load}"),
                    workload.clone().at_load(slots, load),
                ),
                None => (name.clone(), workload.clone()),
            };
            let runs = policies.iter().enumerate().map(|(i, policy)| {
                if options.progress {
                    eprint!("\r\x1b[K{name}: {policy} ({} of {})", i + 1, policies.len());
                }
                Ok((policy.to_string(), policy.run(&workload, slots)?))
            });
            let report = report_of(&name, &workload, slots, runs);
            if options.progress {
                eprint!("\r\x1b[K");
            }
            report.map_err(|e| format!("the core rejected the workload: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let plots: [(&Option<PathBuf>, Plot); 2] = [
        (&options.svg, svg::response_cdf),
        (&options.svg_slowdown, svg::slowdown_bars),
    ];
    for (path, plot) in plots {
        if let (Some(path), Some(last)) = (path, reports.last()) {
            std::fs::write(path, plot(last)).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(report::render(&reports, options.format))
}

/// Writes `text` to stdout. A reader that went away (`fairsched-sim ... | head`) ends the run
/// quietly, as Unix tools do; any other failure to write (a full disk) is an error message, never
/// a panic.
fn emit(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fairsched-sim: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)) {
        Ok(None) => emit(USAGE),
        Ok(Some(options)) => match (match options.mode {
            Mode::Replay => run,
            Mode::Packing => packing,
            Mode::Paf => paf,
            Mode::PafDynamic => paf_dynamic,
            Mode::Reb => reb,
            Mode::RebDynamic => reb_dynamic,
            Mode::Elastic => elastic,
        })(&options)
        {
            Ok(output) => emit(&output),
            Err(message) => {
                eprintln!("fairsched-sim: {message}");
                ExitCode::FAILURE
            }
        },
        Err(message) => {
            eprintln!("fairsched-sim: {message}\n(fairsched-sim --help lists the options)");
            ExitCode::from(2)
        }
    }
}
