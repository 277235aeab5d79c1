//! `fairsched-sim`: replays a workload on a simulated slot cluster under several policies and
//! prints the comparison. Run with `--help` for the options.

use fairsched_sim::machines::{compare_packers, makespan_bound, PACKERS};
use fairsched_sim::paf::{PAF_PAPER_ALPHAS, PAF_PAPER_JOBS, PAF_PAPER_SLOTS};
use fairsched_sim::policy::{PolicyKind, Profiler};
use fairsched_sim::reb::{REB_BATCHES, REB_SIZES};
use fairsched_sim::report::{self, Format};
use fairsched_sim::synthetic::{self, CFQ_PAPER_JOBS, CFQ_PAPER_SLOTS};
use fairsched_sim::{compare, svg, trace};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
fairsched-sim: replay a workload on a simulated slot cluster and compare scheduling policies

usage: fairsched-sim [options]

  --packing          compare DRF, QKnobler (ρ = 1, 0.5, 0) and Tetris on multi-resource
                     machines with the QKnobler paper's Table 1 workload instead (takes
                     --seed and --format)
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
  --trace PATH       replay a Google 2011 sub-trace (Hawk format) instead of the synthetic
                     CFQ §V-A workload
  --slots N          slots of the cluster (default: 200 for the synthetic workload, 8000 for
                     a trace, as in the CFQ paper)
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
  --help             this text
";

/// What the command line asks for.
struct Options {
    trace: Option<PathBuf>,
    slots: Option<u32>,
    limit: Option<usize>,
    load: Option<f64>,
    jobs: usize,
    seed: u64,
    policies: Vec<String>,
    error: f64,
    format: Format,
    svg: Option<PathBuf>,
    packing: bool,
    paf: bool,
    paf_dynamic: bool,
    reb: bool,
}

/// The options that take a value.
const VALUED: [&str; 10] = [
    "--trace",
    "--slots",
    "--limit",
    "--load",
    "--jobs",
    "--seed",
    "--error",
    "--svg",
    "--policies",
    "--format",
];

/// Parses the arguments; `Ok(None)` asks for the usage text.
fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        trace: None,
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
        packing: false,
        paf: false,
        paf_dynamic: false,
        reb: false,
    };
    let mut args = args;
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        let mode = match flag.as_str() {
            "--packing" => Some(&mut options.packing),
            "--paf" => Some(&mut options.paf),
            "--paf-dynamic" => Some(&mut options.paf_dynamic),
            "--reb" => Some(&mut options.reb),
            _ => None,
        };
        if let Some(mode) = mode {
            *mode = true;
            continue;
        }
        if !VALUED.contains(&flag.as_str()) {
            return Err(format!("unknown option {flag}"));
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let expected = |what: &str| format!("{flag} {value:?}: expected {what}");
        match flag.as_str() {
            "--trace" => options.trace = Some(PathBuf::from(&value)),
            "--slots" => {
                options.slots = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&n: &u32| n > 0)
                        .ok_or_else(|| expected("a positive integer"))?,
                )
            }
            "--limit" => options.limit = Some(value.parse().map_err(|_| expected("an integer"))?),
            "--load" => {
                options.load = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&l: &f64| l > 0.0 && l.is_finite())
                        .ok_or_else(|| expected("a positive number"))?,
                )
            }
            "--jobs" => options.jobs = value.parse().map_err(|_| expected("an integer"))?,
            "--seed" => options.seed = value.parse().map_err(|_| expected("an integer"))?,
            "--error" => {
                options.error = value
                    .parse()
                    .ok()
                    .filter(|e: &f64| (0.0..1.0).contains(e))
                    .ok_or_else(|| expected("a number in [0, 1)"))?
            }
            "--svg" => options.svg = Some(PathBuf::from(&value)),
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
    let modes = [
        options.packing,
        options.paf,
        options.paf_dynamic,
        options.reb,
    ];
    if modes.iter().filter(|&&on| on).count() > 1 {
        return Err("--packing, --paf, --paf-dynamic and --reb exclude one another".to_owned());
    }
    if modes.contains(&true) && options.trace.is_some() {
        return Err(
            "--packing, --paf, --paf-dynamic and --reb run their own workload, not a trace"
                .to_owned(),
        );
    }
    if (options.paf || options.paf_dynamic || options.reb) && options.format != Format::Text {
        return Err("--paf, --paf-dynamic and --reb print a text table only".to_owned());
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

/// The packing comparison on the QKnobler Table 1 workload.
fn packing(options: &Options) -> Result<String, String> {
    let users = synthetic::qknobler_table_1(options.seed);
    let machines = vec![synthetic::QKNOBLER_MACHINE.to_vec(); synthetic::QKNOBLER_MACHINES];
    let summaries = compare_packers(&machines, &users, &PACKERS)
        .map_err(|e| format!("the core rejected the workload: {e}"))?;
    Ok(report::render_packing(
        &format!("QKnobler Table 1 workload (seed {})", options.seed),
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

/// The PAF paper's simulation over time (§V-B): its own table, then the standard ones.
fn paf_dynamic(options: &Options) -> Result<String, String> {
    let name = format!("PAF §V-B workload over time (seed {})", options.seed);
    let workload = fairsched_sim::paf_dynamic::paf_over_time(PAF_PAPER_JOBS, options.seed);
    let (outcomes, reports) = fairsched_sim::paf_dynamic::compare(
        &name,
        &workload,
        &PAF_PAPER_SLOTS,
        &fairsched_sim::paf_dynamic::PAF_DYNAMIC_ALPHAS,
    )
    .map_err(|e| format!("the core rejected the workload: {e}"))?;
    Ok(format!(
        "{}\n{}",
        fairsched_sim::paf_dynamic::render(&name, PAF_PAPER_JOBS, &outcomes),
        report::render(&reports, Format::Text)
    ))
}

/// ReB's static comparison on batches of 10 to 50 jobs.
fn reb(options: &Options) -> Result<String, String> {
    let rows = fairsched_sim::reb::compare(&REB_SIZES, REB_BATCHES, options.seed)
        .map_err(|e| format!("the core rejected a batch: {e}"))?;
    Ok(fairsched_sim::reb::render(&rows, REB_BATCHES, options.seed))
}

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
    let (name, workload, default_slots, loads) = match &options.trace {
        Some(path) => (
            format!("trace {}", path.display()),
            trace::read_google(path).map_err(|e| e.to_string())?,
            8000,
            vec![options.load],
        ),
        None => (
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
            compare(&name, &workload, slots, &policies)
                .map_err(|e| format!("the core rejected the workload: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let (Some(path), Some(last)) = (&options.svg, reports.last()) {
        std::fs::write(path, svg::response_cdf(last))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(report::render(&reports, options.format))
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)) {
        Ok(None) => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Some(options)) => match (if options.packing {
            packing
        } else if options.paf {
            paf
        } else if options.paf_dynamic {
            paf_dynamic
        } else if options.reb {
            reb
        } else {
            run
        })(&options)
        {
            Ok(output) => {
                print!("{output}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("fairsched-sim: {message}");
                ExitCode::FAILURE
            }
        },
        Err(message) => {
            eprintln!("fairsched-sim: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
