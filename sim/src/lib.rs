//! # fairsched-sim
//!
//! A discrete-event replay simulator that shows what fairsched's algorithms do for a cluster
//! before they go into a scheduler: workloads (seeded synthetic generators, or a trace) are
//! replayed on a simulated slot cluster under several policies, and each run is summarized by
//! the metrics of the CFQ paper (Chen, Wang, Zhang, Li: *Cluster Fair Queueing: Speeding up
//! Data-Parallel Jobs with Delay Guarantees*, IEEE INFOCOM 2017; §V): response times, slowdown
//! by job width, the worst delay against the ideal fair share (GPS), makespan and utilization.
//!
//! - [`workload`]: jobs (arrival, weight, task run times) and Theorem 1's delay bound;
//! - [`synthetic`]: the seeded generators (CFQ §V-A, the elephant and mice of Fig. 9);
//! - [`trace`]: the Google 2011 (Hawk) sub-trace reader;
//! - [`swim`]: the reader of SWIM's Facebook workloads;
//! - [`cluster`]: the slot cluster, the [`cluster::Policy`] interface and the event loop;
//! - [`policy`]: FIFO, FAIR and SRPT, and CFQ driving the core's [`fairsched::cfq::Cfq`];
//! - [`machines`]: multi-resource machines packed by the core's DRF, QKnobler and Tetris;
//! - [`elastic`]: Elasecutor's executors with time-varying demand, packed by the core's
//!   MinFrag with DRR, TRC and Tetris' alignment;
//! - [`paf`]: the PAF paper's static comparison (progress curves, PAF against fair sharing);
//! - [`paf_dynamic`]: the PAF paper's simulation over time (JVM warm-up, PAF against FAIR);
//! - [`reb`]: ReB's static comparison (JCT tables, HAI against shortest-job-optimal and max-min);
//! - [`reb_dynamic`]: the same allocators over time, re-deciding as jobs arrive and complete;
//! - [`metrics`]: GPS completions from the core and the per-policy summary;
//! - [`report`]: a replay's table, with CFQ's comparisons and the legend;
//! - [`document`]: what a command prints (tables, comparisons), as text, CSV or JSON;
//! - [`svg`]: the response-time CDF and the slowdown bars as SVG plots;
//! - [`cli`]: the command line, a command per comparison with its own options;
//! - [`commands`]: running a command into its document and plots;
//! - [`files`]: writing the plots all or nothing.

pub mod cli;
pub mod cluster;
pub mod commands;
pub mod document;
pub mod elastic;
pub mod files;
pub mod machines;
pub mod metrics;
pub mod paf;
pub mod paf_dynamic;
pub mod policy;
pub mod reb;
pub mod reb_dynamic;
pub mod report;
pub mod svg;
pub mod swim;
pub mod synthetic;
pub mod trace;
pub mod workload;

// Heap-backed storage for the core's tables, and the seeded generator: shared with the core's
// tests and benchmarks (tests/kit).
use fairsched_testkit::{memory, rng};

use cluster::Run;
use metrics::{gps_completions, Summary};
use policy::PolicyKind;
use report::Report;
use workload::Workload;

/// Replays `workload` (described by `name`) on `slots` slots under each of `policies` and
/// summarizes every run against the core's GPS reference.
pub fn compare(
    name: &str,
    workload: &Workload,
    slots: u32,
    policies: &[PolicyKind],
) -> fairsched::Result<Report> {
    let runs = policies
        .iter()
        .map(|policy| Ok((policy.to_string(), policy.run(workload, slots)?)));
    report_of(name, workload, slots, runs)
}

/// Summarizes `runs` of `workload` (described by `name`) on `slots` slots, each with the name
/// of its policy, against the core's GPS reference.
pub fn report_of(
    name: &str,
    workload: &Workload,
    slots: u32,
    runs: impl IntoIterator<Item = fairsched::Result<(String, Run)>>,
) -> fairsched::Result<Report> {
    let gps = gps_completions(workload, slots)?;
    let summaries = runs
        .into_iter()
        .map(|run| {
            let (policy, run) = run?;
            Summary::of(policy, workload, slots, &run, &gps)
        })
        .collect::<fairsched::Result<Vec<_>>>()?;
    Ok(Report {
        workload: name.to_owned(),
        jobs: workload.jobs().len(),
        slots,
        load: workload.load(slots),
        delay_bound: workload.delay_bound(slots)?,
        summaries,
    })
}
