//! ReB's allocators over time (Hu, Li, Guo: *Balance Resource Allocation for Spark Jobs Based on
//! Prediction of the Optimal Resource*, Tsinghua Science and Technology 25(4), 2020; §4-§6): jobs
//! with the JCT tables of the static comparison ([`reb_batch`]) arrive and leave on `C` = 200 cores
//! (θ = 1), and every policy re-decides the whole allocation at each arrival and each completion.
//! The paper runs its allocator when jobs are submitted (§5) and, in Fig. 3b, a job left without
//! cores "did not start until Job 1 completed and released the resource": arrivals and departures
//! are the moments of decision.
//!
//! **How a job executes** (chosen once, before any run): the table gives the JCT of the whole
//! job on a fixed allocation, `JCT(a) = w / a + c a` (§4, Fig. 1), so a job holding `a` cores
//! does `1 / JCT(a)` of its work per second (fluid: any fraction, re-evaluated whenever its
//! allocation changes). A job may hold no cores: it then waits (`JCT(0) = +∞`, as in the
//! tables), as Job 4 does in Fig. 3b. A decision sees each job's *remaining* JCT table, the
//! table times the fraction of its work not done: what ReB's predictor would say of the rest
//! of a job, and what `Σ JCT` must count for the jobs already under way. Optima do not change
//! with that scaling; the order of the shortest-job-optimal start becomes the shortest
//! *remaining* job first.
//!
//! **Policies**, all through the core's [`fairsched::hai::Hai`] or the static comparison's
//! [`crate::reb::max_min`]:
//!
//! | policy | at each arrival and completion |
//! | --- | --- |
//! | HAI rebalance | the core's `rebalance` from the current allocation: a job keeps its cores, free ones go to the jobs below their optimum, then transfers to the jobs holding none (the first call, from no allocation, is `allocate`) |
//! | HAI re-planned | the core's `allocate` from no allocation: Algorithms 1 and 2 on the jobs present, as if they were a new batch |
//! | shortest-job-optimal | the core's `shortest_job_optimal` (Algorithm 1) from no allocation: running jobs may be preempted, down to zero cores |
//! | max-min | the static `max_min`, the equal split water-filled up to each table's cap |
//!
//! The paper does not say which HAI it runs once jobs leave; `rebalance` is the core's answer
//! for a scheduler reacting to arrivals and departures, and re-planning is the other reading.
//!
//! **Workloads** (seeded; the tables are [`reb_batch`]'s):
//!
//! | workload | arrivals |
//! | --- | --- |
//! | batches at once ([`at_once`]) | 10 to 50 jobs at time 0, as §6.1 submits its PageRank jobs "at the same time" |
//! | Poisson ([`poisson`]) | [`POISSON_JOBS`] jobs, exponential gaps (from a second stream, seeded by the seed's complement), scaled to an offered load |
//!
//! The **offered load** is the work at the optimum, `Σ_j A_opt_j · D_j` core-seconds, over
//! `C` times the span from the first arrival to the last: at load 1 the cluster could just run
//! every job at its optimum on average. A job on fewer cores uses fewer core-seconds
//! (`a JCT(a) = w + c a²` falls to `w`, half the optimum's `2 w`), so loads up to about 2 can be
//! carried at all. [`POISSON_LOADS`] are 0.9, busy but below the optimum's capacity, and 1.5,
//! where the optima do not fit even on average (the batches' regime: 10 jobs' optima already
//! add up to about 325 cores).
//!
//! **Measures**: a job's JCT is its completion minus its arrival (waiting included); the mean,
//! the median and the 95th percentile (nearest rank, [`percentile`]) over every job of the
//! runs; the makespan (first arrival to last completion, mean over the runs); the time each
//! job spends present with zero cores (mean and largest) and the share of jobs that ever do.
//!
//! **Why HAI rebalance loses to max-min from 20 jobs at once.** HAI minimizes `Σ JCT`
//! of one allocation held to the end (ReB §4.3), and at the optimum of `Σ_j x_j JCT_j(a_j)`
//! (`x_j` the work left) the jobs with the most work get the most cores: it plans for every job
//! to finish late together. Over time the cores come back at every completion, and the mean JCT
//! rewards jobs finishing early, so that objective is the wrong one. Moving cores between running
//! jobs to lower it (`rebalance` never does) makes the loss larger, and re-planning from scratch
//! does too. Rules tried in its place (`sim/tests/reb_rules.rs`, which prints this table; mean
//! JCT against max-min / against shortest-job-optimal, seeds 1-20):
//!
//! | rule | 10 at once | 20 | 30 | 40 | 50 | load 0.9 | load 1.5 |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | HAI rebalance (the core's) | -3.2 / -6.8% | +9.5 / -4.1% | +14.2 / -0.7% | +16.3 / +2.3% | +16.1 / +3.3% | -4.5 / -13.7% | +9.4 / -73.4% |
//! | HAI re-planned | -2.3 / -6.0% | +17.4 / +2.9% | +26.6 / +10.0% | +30.9 / +15.1% | +31.5 / +17.0% | -3.1 / -12.4% | +15.1 / -72.0% |
//! | `Σ JCT`, transfers between running jobs | -3.4 / -7.0% | +16.5 / +2.0% | +27.3 / +10.7% | +34.1 / +17.9% | +36.2 / +21.2% | -3.5 / -12.8% | +14.3 / -72.2% |
//! | completion rate | -5.3 / -8.8% | -3.3 / -15.3% | -7.0 / -19.1% | -10.7 / -21.5% | -13.9 / -23.3% | -5.7 / -14.8% | +27.7 / -68.9% |
//! | max-min to the optimum | -5.4 / -8.9% | -1.0 / -13.3% | -0.4 / -13.4% | -0.2 / -12.2% | -0.1 / -11.1% | -6.4 / -15.4% | -3.4 / -76.5% |
//!
//! A rule that raises the rate at which jobs complete (`Σ_j 1 / JCT_j(a_j)`, every job θ first)
//! wins in batches, but under sustained overload (load 1.5) it gives jobs their optimum, where
//! a core does half the work it does for a job on few cores, and loses to max-min. Only max-min stopped at each job's optimum
//! never loses to max-min, and it is max-min itself whenever the equal share is below every
//! optimum. No rule of HAI's family wins everywhere, so the core's `rebalance` is unchanged and
//! this is the regime where it loses: many jobs at once, or sustained overload.

use crate::document::{change, identifier, Comparison, Document, Part, Table};
use crate::metrics::percentile;
use crate::reb::{
    allocate, reb_batch, rebalance, JctTables, RebMethod, REB_CORES, REB_SIZES, REB_THETA,
};
use crate::rng::SplitMix;
use crate::synthetic::unit;
use std::fmt::{self, Write};

/// Jobs of a Poisson run.
pub const POISSON_JOBS: usize = 500;
/// The offered loads of the Poisson runs (module documentation).
pub const POISSON_LOADS: [f64; 2] = [0.9, 1.5];
/// Runs of each workload in the table (seeds `seed..seed + RUNS`).
pub const RUNS: u64 = 20;

/// Jobs arriving over time: job `j` arrives at `arrivals[j]` with `tables`' table `j`.
#[derive(Clone, Debug)]
pub struct Arrivals {
    /// Arrival times in seconds, in increasing order.
    pub arrivals: Vec<f64>,
    /// The jobs' JCT tables, in the same order.
    pub tables: JctTables,
}

/// A batch of `jobs` jobs ([`reb_batch`] from `seed`) submitted at once, at time 0.
pub fn at_once(jobs: usize, seed: u64) -> Arrivals {
    Arrivals {
        arrivals: vec![0.0; jobs],
        tables: reb_batch(jobs, seed),
    }
}

/// `jobs` jobs ([`reb_batch`] from `seed`) arriving as a Poisson process at offered `load`
/// (module documentation); the first at time 0.
pub fn poisson(jobs: usize, load: f64, seed: u64) -> Arrivals {
    let tables = reb_batch(jobs, seed);
    let mut rng = SplitMix(!seed);
    let mut at = 0.0;
    let mut arrivals: Vec<f64> = (0..jobs)
        .map(|j| {
            if j > 0 {
                at -= (1.0 - unit(&mut rng)).ln();
            }
            at
        })
        .collect();
    let work: f64 = (0..jobs)
        .map(|j| {
            let (cores, jct) = optimum(tables.table(j));
            f64::from(cores) * jct
        })
        .sum();
    if at > 0.0 {
        let scale = work / (f64::from(REB_CORES) * load * at);
        arrivals.iter_mut().for_each(|t| *t *= scale);
    }
    Arrivals { arrivals, tables }
}

/// A table's optimum `(A_opt, D)`: the smallest allocation with the least JCT, and that JCT.
fn optimum(table: &[f64]) -> (u32, f64) {
    (0u32..)
        .zip(table)
        .fold((0, f64::INFINITY), |best, (a, &jct)| {
            if jct < best.1 {
                (a, jct)
            } else {
                best
            }
        })
}

/// How the cores are re-decided at each arrival and completion (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The core's `Hai::rebalance` from the current allocation.
    HaiRebalance,
    /// A static method ([`allocate`]) on the jobs present, from no allocation.
    Replan(RebMethod),
}

/// The policies in the order of the table.
pub const POLICIES: [Policy; 4] = [
    Policy::HaiRebalance,
    Policy::Replan(RebMethod::Hai),
    Policy::Replan(RebMethod::ShortestJobOptimal),
    Policy::Replan(RebMethod::MaxMin),
];

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::HaiRebalance => f.write_str("HAI rebalance"),
            Policy::Replan(RebMethod::Hai) => f.write_str("HAI re-planned"),
            Policy::Replan(method) => method.fmt(f),
        }
    }
}

/// One run of a policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Each job's JCT: completion minus arrival, in seconds.
    pub jct: Vec<f64>,
    /// Each job's time present with zero cores, in seconds.
    pub waited: Vec<f64>,
    /// From the first arrival to the last completion, in seconds.
    pub makespan: f64,
    /// The most cores held at once, over every decision.
    pub peak_cores: u32,
}

/// Runs `jobs` under `policy` (module documentation). Errors: the core's (none for the
/// workloads of this module).
pub fn simulate(jobs: &Arrivals, policy: Policy) -> fairsched::Result<Run> {
    simulate_with(jobs, |remaining, held| match policy {
        Policy::HaiRebalance => rebalance(remaining, held),
        Policy::Replan(method) => {
            held.copy_from_slice(&allocate(remaining, method)?.cores);
            Ok(())
        }
    })
}

/// Runs `jobs` as [`simulate`] does, with `decide` re-deciding the cores at each arrival and
/// completion: it gets the remaining tables of the jobs present (in arrival order) and the
/// cores they hold, which it overwrites with their new allocation (within their caps and
/// [`REB_CORES`]). For rules other than [`POLICIES`] (sim/tests/reb_rules.rs). Errors:
/// `decide`'s.
pub fn simulate_with(
    jobs: &Arrivals,
    mut decide: impl FnMut(&JctTables, &mut [u32]) -> fairsched::Result<()>,
) -> fairsched::Result<Run> {
    let Arrivals { arrivals, tables } = jobs;
    let n = arrivals.len();
    let mut left = vec![1.0; n];
    let mut cores = vec![0u32; n];
    let mut completion = vec![0.0; n];
    let mut waited = vec![0.0; n];
    let mut present: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut now = arrivals.first().copied().unwrap_or(0.0);
    let mut peak_cores = 0;
    while next < n || !present.is_empty() {
        while next < n && arrivals[next] <= now {
            present.push(next);
            next += 1;
        }
        if present.is_empty() {
            now = arrivals[next];
            continue;
        }
        redecide(tables, &present, &left, &mut cores, &mut decide)?;
        peak_cores = peak_cores.max(present.iter().map(|&j| cores[j]).sum());
        // A waiting job's finish is +∞ (`JCT(0)`).
        let finish: Vec<f64> = present
            .iter()
            .map(|&j| now + left[j] * tables.jct(j, cores[j]))
            .collect();
        let then = finish.iter().copied().fold(
            arrivals.get(next).copied().unwrap_or(f64::INFINITY),
            f64::min,
        );
        if !then.is_finite() {
            // Unreachable: every policy gives cores to some job when jobs are present.
            return Err(fairsched::Error::Underdetermined);
        }
        for (&j, &end) in present.iter().zip(&finish) {
            if cores[j] == 0 {
                waited[j] += then - now;
            } else {
                let rest = left[j] - (then - now) / tables.jct(j, cores[j]);
                left[j] = if end <= then { 0.0 } else { rest.max(0.0) };
            }
        }
        now = then;
        present.retain(|&j| {
            let running = left[j] > 0.0;
            if !running {
                completion[j] = now;
                cores[j] = 0;
            }
            running
        });
    }
    Ok(Run {
        jct: completion
            .iter()
            .zip(arrivals)
            .map(|(c, a)| c - a)
            .collect(),
        waited,
        makespan: completion.iter().copied().fold(0.0, f64::max)
            - arrivals.first().copied().unwrap_or(0.0),
        peak_cores,
    })
}

/// Re-decides the cores of the `present` jobs by `decide`, on their remaining tables.
fn redecide(
    tables: &JctTables,
    present: &[usize],
    left: &[f64],
    cores: &mut [u32],
    decide: &mut impl FnMut(&JctTables, &mut [u32]) -> fairsched::Result<()>,
) -> fairsched::Result<()> {
    let remaining = JctTables {
        caps: present.iter().map(|&j| tables.caps[j]).collect(),
        jct: present
            .iter()
            .flat_map(|&j| tables.table(j).iter().map(move |jct| jct * left[j]))
            .collect(),
    };
    let mut held: Vec<u32> = present.iter().map(|&j| cores[j]).collect();
    decide(&remaining, &mut held)?;
    for (&j, cores_now) in present.iter().zip(held) {
        cores[j] = cores_now;
    }
    Ok(())
}

/// A policy's runs of one workload, summarized (module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The workload: a batch size, or a Poisson load.
    pub workload: Scenario,
    /// The policy.
    pub policy: Policy,
    /// JCT over every job of the runs: mean, median and 95th percentile, in seconds.
    pub mean: f64,
    /// Median JCT.
    pub median: f64,
    /// 95th percentile of the JCTs.
    pub p95: f64,
    /// Mean makespan over the runs.
    pub makespan: f64,
    /// Mean time a job spends present with zero cores.
    pub mean_wait: f64,
    /// The longest time any job spends present with zero cores.
    pub max_wait: f64,
    /// The share of jobs that ever hold zero cores while present.
    pub waited: f64,
    /// The most cores held at once in any run.
    pub peak_cores: u32,
}

/// A workload of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scenario {
    /// [`at_once`] with this many jobs.
    AtOnce(usize),
    /// [`poisson`] with [`POISSON_JOBS`] jobs at this load.
    Poisson(f64),
}

impl Scenario {
    /// The workload as the table names it: `10 at once`, `load 0.9`.
    pub fn label(self) -> String {
        match self {
            Scenario::AtOnce(jobs) => format!("{jobs} at once"),
            Scenario::Poisson(load) => format!("load {load}"),
        }
    }

    /// The workload from `seed`.
    pub fn generate(self, seed: u64) -> Arrivals {
        match self {
            Scenario::AtOnce(jobs) => at_once(jobs, seed),
            Scenario::Poisson(load) => poisson(POISSON_JOBS, load, seed),
        }
    }
}

/// The workloads of the table: every batch size of the static comparison, then every load.
pub fn scenarios() -> Vec<Scenario> {
    REB_SIZES
        .iter()
        .map(|&jobs| Scenario::AtOnce(jobs))
        .chain(POISSON_LOADS.iter().map(|&load| Scenario::Poisson(load)))
        .collect()
}

/// Every policy on `runs` runs of each of `workloads` (seeds `seed..seed + runs`).
pub fn compare(workloads: &[Scenario], runs: u64, seed: u64) -> fairsched::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for &workload in workloads {
        let generated: Vec<Arrivals> = (0..runs)
            .map(|r| workload.generate(seed.wrapping_add(r)))
            .collect();
        for policy in POLICIES {
            let runs = generated
                .iter()
                .map(|jobs| simulate(jobs, policy))
                .collect::<fairsched::Result<Vec<_>>>()?;
            rows.push(summarize(workload, policy, &runs));
        }
    }
    Ok(rows)
}

/// The row of `policy`'s `runs` of `workload`.
pub fn summarize(workload: Scenario, policy: Policy, runs: &[Run]) -> Row {
    let mut jct: Vec<f64> = runs
        .iter()
        .flat_map(|run| run.jct.iter().copied())
        .collect();
    jct.sort_by(f64::total_cmp);
    let waits: Vec<f64> = runs
        .iter()
        .flat_map(|run| run.waited.iter().copied())
        .collect();
    let jobs = jct.len().max(1) as f64;
    Row {
        workload,
        policy,
        mean: jct.iter().sum::<f64>() / jobs,
        median: percentile(&jct, 0.5),
        p95: percentile(&jct, 0.95),
        makespan: runs.iter().map(|run| run.makespan).sum::<f64>() / runs.len().max(1) as f64,
        mean_wait: waits.iter().sum::<f64>() / jobs,
        max_wait: waits.iter().copied().fold(0.0, f64::max),
        waited: waits.iter().filter(|&&w| w > 0.0).count() as f64 / jobs,
        peak_cores: runs.iter().map(|run| run.peak_cores).max().unwrap_or(0),
    }
}

/// The comparison as the `reb-dynamic` command prints it: `rows` of [`compare`] on `runs` runs
/// a workload from `seed`, and a summary line per workload: HAI rebalancing against
/// shortest-job-optimal and max-min on the mean JCT.
pub fn document(rows: &[Row], runs: u64, seed: u64) -> Document {
    let title = format!(
        "ReB over time (seeds {seed}-{}): {REB_CORES} cores, θ = {REB_THETA}; every policy \
         re-decides at each arrival and completion",
        seed.wrapping_add(runs.saturating_sub(1)),
    );
    let mut text = format!(
        "{title}\nJCT over every job of {runs} runs a workload; makespan: their mean\n\n\
         {:<14} {:<22} {:>9} {:>9} {:>9} {:>10} {:>12} {:>10} {:>7}\n",
        "workload",
        "policy",
        "mean s",
        "median s",
        "p95 s",
        "makespan s",
        "zero-core s",
        "max s",
        "waited"
    );
    for row in rows {
        let _ = writeln!(
            text,
            "{:<14} {:<22} {:>9.1} {:>9.1} {:>9.1} {:>10.1} {:>12.1} {:>10.1} {:>6.0}%",
            row.workload.label(),
            row.policy.to_string(),
            row.mean,
            row.median,
            row.p95,
            row.makespan,
            row.mean_wait,
            row.max_wait,
            100.0 * row.waited
        );
    }
    let table = Table {
        name: "reb_dynamic".to_owned(),
        title: title.clone(),
        context: vec![("cores", REB_CORES.into()), ("theta", REB_THETA.into())],
        rows: rows
            .iter()
            .map(|row| {
                let (jobs, load) = match row.workload {
                    Scenario::AtOnce(jobs) => (jobs, None),
                    Scenario::Poisson(load) => (POISSON_JOBS, Some(load)),
                };
                vec![
                    ("workload", row.workload.label().into()),
                    ("jobs", jobs.into()),
                    ("load", load.into()),
                    ("policy", row.policy.to_string().into()),
                    ("mean", row.mean.into()),
                    ("median", row.median.into()),
                    ("p95", row.p95.into()),
                    ("makespan", row.makespan.into()),
                    ("mean_wait", row.mean_wait.into()),
                    ("max_wait", row.max_wait.into()),
                    ("waited", row.waited.into()),
                    ("peak_cores", row.peak_cores.into()),
                ]
            })
            .collect(),
    };
    let mut comparisons = Vec::new();
    for hai in rows.iter().filter(|row| row.policy == Policy::HaiRebalance) {
        let workload = hai.workload.label();
        let others = rows.iter().filter(|row| {
            row.workload == hai.workload
                && matches!(
                    row.policy,
                    Policy::Replan(RebMethod::ShortestJobOptimal | RebMethod::MaxMin)
                )
        });
        for other in others {
            let policy = other.policy.to_string();
            comparisons.push(Comparison::new(
                "reb_dynamic",
                Some(&identifier(&workload)),
                ("hai_rebalance", &format!("HAI rebalance ({workload})")),
                (&identifier(&policy), &policy),
                ("mean", "mean JCT"),
                change(hai.mean, other.mean),
            ));
        }
    }
    let parameters = vec![
        ("seed", seed.into()),
        ("runs", runs.into()),
        ("poisson_jobs", POISSON_JOBS.into()),
    ];
    let part = Part::summarized(table, comparisons, text);
    let footer = format!(
        "Poisson runs: {POISSON_JOBS} jobs each; zero-core s: mean time a job is present without \
         cores; waited: the jobs that ever are\n"
    );
    Document::new("reb-dynamic", title, parameters, vec![part], &footer)
}
