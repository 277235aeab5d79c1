//! Running a command of the command line ([`crate::cli`]): the comparison its options ask for,
//! as a [`Document`], and the plots to write. Nothing is written here: the caller writes the
//! plots (all or none, [`crate::files`]) and then the document, so that a run that fails
//! leaves nothing behind.

use crate::cli::{Command, Options};
use crate::document::{Document, Fields, Value};
use crate::elastic::workload::{
    elasecutor_paper, ELASTIC_MACHINE, ELASTIC_MACHINES, ELASTIC_NEW, ELASTIC_RECURRING,
    ELASTIC_RUNS, STEP_SECONDS,
};
use crate::machines::{compare_packers, makespan_bound, packers, phased_packers};
use crate::paf::{PAF_PAPER_ALPHAS, PAF_PAPER_JOBS, PAF_PAPER_SLOTS};
use crate::reb::{REB_BATCHES, REB_SIZES};
use crate::report::{COLUMN_LEGEND, POLICY_LEGEND};
use crate::synthetic::{self, CFQ_PAPER_SLOTS, TABLE_1_JOBS};
use crate::trace::TraceError;
use crate::workload::Workload;
use crate::{elastic, machines, paf, paf_dynamic, reb, reb_dynamic, report_of, svg, swim, trace};
use std::path::{Path, PathBuf};

/// What a run produces.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    /// What to print.
    pub document: Document,
    /// The plots to write: where, and the SVG.
    pub plots: Vec<(PathBuf, String)>,
}

/// Runs the command of `options`. Errors: a workload that cannot be read, or that the core
/// rejects, as one line.
pub fn run(options: &Options) -> Result<Output, String> {
    let document = match options.command {
        Command::Replay => return replay(options),
        Command::Packing => packing(options),
        Command::Paf => paf(options),
        Command::PafDynamic => paf_dynamic(options),
        Command::Reb => reb(options),
        Command::RebDynamic => reb_dynamic(options),
        Command::Elastic => elastic(options),
    }?;
    Ok(Output {
        document,
        plots: Vec::new(),
    })
}

/// The message of an error of the core.
fn rejected(what: &str) -> impl Fn(fairsched::Error) -> String + '_ {
    move |e| format!("the core rejected {what}: {e}")
}

/// A trace reader.
type Reader = fn(&Path) -> Result<Workload, TraceError>;

/// The offered load the default run adds to the synthetic workload's own (see sim/README.md).
const BUSY: f64 = 0.9;

/// The slot policies on a workload, once as it is and at the offered loads asked for.
fn replay(options: &Options) -> Result<Output, String> {
    let policies = options.policies();
    let seed = options.seed;
    let perturbed = options.perturbed();
    // A trace: what the parameters call it, what its name says, its reader and its slots.
    let traced = match (&options.trace, &options.swim) {
        (Some(path), _) => Some((path, "google", "trace", trace::read_google as Reader, 8000)),
        (None, Some(path)) => Some((
            path,
            "swim",
            "SWIM workload",
            swim::read_swim as Reader,
            1200,
        )),
        (None, None) => None,
    };
    let (source, path, name, workload, default_slots, loads) = match traced {
        Some((path, source, kind, read, slots)) => {
            let mut name = format!("{kind} {}", path.display());
            // A trace's seed plays a part in the perturbed profiler only: named where it does.
            if perturbed {
                name.push_str(&format!(" (profiling seed {seed})"));
            }
            let workload = read(path).map_err(|e| e.to_string())?;
            (
                source,
                Some(path),
                name,
                workload,
                slots,
                vec![options.load],
            )
        }
        None => (
            "synthetic",
            None,
            format!("synthetic CFQ §V-A workload (seed {seed})"),
            synthetic::cfq_paper(options.jobs, seed),
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
    let mut parts = Vec::new();
    let mut last = None;
    for load in loads {
        let (table, title, workload) = match load {
            Some(load) => (
                format!("load_{load}"),
                format!("{name} at load {load}"),
                workload.clone().at_load(slots, load),
            ),
            None => ("original".to_owned(), name.clone(), workload.clone()),
        };
        let runs = policies.iter().enumerate().map(|(i, policy)| {
            if options.progress {
                eprint!(
                    "\r\x1b[K{title}: {policy} ({} of {})",
                    i + 1,
                    policies.len()
                );
            }
            Ok((policy.to_string(), policy.run(&workload, slots)?))
        });
        let report = report_of(&title, &workload, slots, runs);
        if options.progress {
            eprint!("\r\x1b[K");
        }
        let report = report.map_err(rejected("the workload"))?;
        parts.push(report.part(&table));
        last = Some(report);
    }
    let mut plots = Vec::new();
    if let Some(last) = &last {
        if let Some(path) = &options.svg {
            plots.push((path.clone(), svg::response_cdf(last)));
        }
        if let Some(path) = &options.svg_slowdown {
            plots.push((path.clone(), svg::slowdown_bars(last)));
        }
    }
    let parameters: Fields = vec![
        ("workload", source.into()),
        ("path", path.map(|path| path.display().to_string()).into()),
        (
            "jobs",
            (source == "synthetic").then_some(options.jobs).into(),
        ),
        ("seed", seed.into()),
        ("slots", slots.into()),
        ("limit", options.limit.into()),
        ("load", options.load.into()),
        ("policies", options.policies.join(",").into()),
        ("error", perturbed.then_some(options.error).into()),
    ];
    let legend = format!("{POLICY_LEGEND}\n{COLUMN_LEGEND}");
    let title = format!("{name} on {slots} slots");
    Ok(Output {
        document: Document::new("replay", title, parameters, parts, &legend),
        plots,
    })
}

/// The packing comparison on the QKnobler Table 1 workload, submitted at once or at the first
/// submission times of a SWIM day.
fn packing(options: &Options) -> Result<Document, String> {
    let (users, submitted, first) = match &options.swim {
        None => (
            synthetic::qknobler_table_1(options.seed),
            "all at 0".to_owned(),
            None,
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
                Some(*first),
            )
        }
    };
    // With --phases, the same jobs as one user each, maps then reduces, packed by QKnobler-C2.
    let (users, packers, submitted) = if options.phases {
        (
            synthetic::qknobler_table_1_phased(options.seed, first.as_ref()),
            phased_packers(),
            format!("{submitted}, maps then reduces"),
        )
    } else {
        (users, packers(), submitted)
    };
    let machines = vec![synthetic::QKNOBLER_MACHINE.to_vec(); synthetic::QKNOBLER_MACHINES];
    let summaries =
        compare_packers(&machines, &users, &packers).map_err(rejected("the workload"))?;
    let parameters = vec![
        ("seed", options.seed.into()),
        (
            "swim",
            options
                .swim
                .as_ref()
                .map(|path| path.display().to_string())
                .into(),
        ),
    ];
    let [cores, memory] = synthetic::QKNOBLER_MACHINE;
    Ok(machines::document(
        parameters,
        &format!(
            "QKnobler Table 1 workload (seed {}, {submitted})",
            options.seed
        ),
        &format!(
            "{} machines of <{cores} cores, {memory} GB>",
            machines.len()
        ),
        &["utilization_cores", "utilization_memory"],
        makespan_bound(&machines, &users),
        &summaries,
    ))
}

/// The PAF paper's static simulation (§V-B) on its three cluster sizes and two knobs.
fn paf(options: &Options) -> Result<Document, String> {
    let jobs = paf::paf_paper(PAF_PAPER_JOBS, options.seed);
    let outcomes = paf::compare(&jobs, &PAF_PAPER_SLOTS, &PAF_PAPER_ALPHAS)
        .map_err(rejected("the workload"))?;
    Ok(paf::document(options.seed, PAF_PAPER_JOBS, &outcomes))
}

/// The PAF paper's simulation over time (§V-B): its own table, then the standard ones.
fn paf_dynamic(options: &Options) -> Result<Document, String> {
    let name = format!("PAF §V-B workload over time (seed {})", options.seed);
    let workload = paf_dynamic::paf_over_time(PAF_PAPER_JOBS, options.seed);
    let (outcomes, reports) = paf_dynamic::compare(
        &name,
        &workload,
        &PAF_PAPER_SLOTS,
        &paf_dynamic::PAF_DYNAMIC_ALPHAS,
    )
    .map_err(rejected("the workload"))?;
    Ok(paf_dynamic::document(
        &name,
        options.seed,
        PAF_PAPER_JOBS,
        &outcomes,
        &reports,
    ))
}

/// ReB's static comparison on batches of 10 to 50 jobs.
fn reb(options: &Options) -> Result<Document, String> {
    let rows = reb::compare(&REB_SIZES, REB_BATCHES, options.seed).map_err(rejected("a batch"))?;
    Ok(reb::document(&rows, REB_BATCHES, options.seed))
}

/// ReB's allocators over time, on batches at once and Poisson arrivals.
fn reb_dynamic(options: &Options) -> Result<Document, String> {
    let rows = reb_dynamic::compare(&reb_dynamic::scenarios(), reb_dynamic::RUNS, options.seed)
        .map_err(rejected("a decision"))?;
    Ok(reb_dynamic::document(
        &rows,
        reb_dynamic::RUNS,
        options.seed,
    ))
}

/// Elasecutor's comparison: the paper's workload, its runs, every policy.
fn elastic(options: &Options) -> Result<Document, String> {
    let runs: Vec<_> = (1..=ELASTIC_RUNS)
        .map(|run| elasecutor_paper(ELASTIC_RECURRING, ELASTIC_NEW, options.seed, run))
        .collect();
    let machines = vec![ELASTIC_MACHINE.to_vec(); ELASTIC_MACHINES];
    let summaries = elastic::compare(&machines, &runs, &elastic::POLICIES, STEP_SECONDS)
        .map_err(rejected("the workload"))?;
    let executors: u32 = runs[0].iter().map(|app| app.executors).sum();
    let [cores, memory, network, disk] = ELASTIC_MACHINE;
    let parameters = vec![
        ("seed", options.seed.into()),
        ("runs", ELASTIC_RUNS.into()),
        ("machines", ELASTIC_MACHINES.into()),
        ("step_seconds", Value::from(STEP_SECONDS)),
    ];
    Ok(elastic::document(
        &format!(
            "Elasecutor §V-A workload (seed {}, runs 1-{ELASTIC_RUNS}): {} applications, \
             {executors} executors on {ELASTIC_MACHINES} machines of \
             <{cores} cores, {memory} GB, {network} Gbps, {disk} MB/s>; steps of {STEP_SECONDS} s",
            options.seed,
            runs[0].len(),
        ),
        parameters,
        &summaries,
    ))
}
