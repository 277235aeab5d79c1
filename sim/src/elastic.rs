//! Executors whose demand varies over time, packed onto multi-resource machines (Liu, Xu:
//! *Elasecutor: Elastic Executor Scheduling in Data Analytics Systems*, IEEE/ACM Transactions
//! on Networking, 2021; §III-B): MinFrag with DRR against TRC (§V-F, Table XI) and
//! Tetris (§V-A, §V-B).
//!
//! **The model.** Time advances in steps. An application arrives with `N_i` identical
//! executors, each with a predicted demand series (the core's layout, see
//! [`fairsched::drr`]); the simulator knows each machine's available series over a horizon
//! `H` (the longest executor) and slides it by one step a step. Executors are not preempted:
//! once placed, an executor holds its series on its machine until the series ends, and the
//! application completes with its last executor (§III-B1, constraints (1)-(3)). At every
//! step, after the step's arrivals join the queue, each machine in turn has a heartbeat
//! (Algorithm 1): the core's [`Timeline::heartbeat`] chooses, among the waiting executors in
//! arrival order, which start on it now. Each machine is a core [`Timeline`], which keeps its
//! available series, its running executors and `t_run` (the steps until a running executor
//! there finishes, `H` when none does) and lets executors go when their series end; the
//! simulator keeps only time and the queue.
//!
//! **Policies** ([`POLICIES`]): MinFrag with [`Metric::Drr`] (Elasecutor) and with
//! [`Metric::Trc`] (Table XI's alternative), both reserving each executor's time series; and
//! Tetris as §V-A describes it: the greedy alignment of peak demand with what the machine has
//! ([`Metric::Tetris`]) *reserving the peak demand for the executor's lifetime*, which is
//! what the paper blames for Tetris' makespan (§V-B). A fourth row, the same alignment
//! reserving the time series, separates the two effects.
//!
//! **Candidates.** An application's waiting executors are identical, so one entry stands for
//! all of them: the heartbeat gets one executor of each waiting application, in arrival order
//! (the first [`MAX_EXECUTORS`] applications), with its count of waiting executors, and
//! places up to that many copies, each choice made again over every copy left (Algorithm 1
//! over every waiting executor: copies tie, and ties go to the earlier).
//!
//! **Measures** ([`ElasticRun`], [`compare`] and [`ElasticSummary`]): makespan (the last completion; the paper's
//! headline), application completion time (ACT: completion minus arrival; the arrival counts
//! from its step), and utilization of each kind: the demand actually used (the time series
//! under every policy, also where the peak is reserved) over the capacity during the
//! makespan.

pub mod workload;

use crate::document::{
    change, fields, identifier, Comparison, Document, Fields, Measure, Part, Table,
};
use crate::memory::Memory;
use crate::metrics::percentile;
use fairsched::drr::timeline::{self, ExecutorRow, HEAPS};
use fairsched::drr::{Executors, Metric, Timeline, MAX_EXECUTORS, MAX_STEPS};
use std::fmt::{self, Write};

/// One application: when it arrives, how many executors it asks for, and the predicted
/// demand series of each of them.
#[derive(Clone, Debug, PartialEq)]
pub struct App {
    /// The step at which it arrives.
    pub arrival: u32,
    /// `N_i`: its executors, all alike.
    pub executors: u32,
    /// One executor's demand series, time-major (`demand[t * kinds + r]`), `T_i` steps.
    pub demand: Vec<f64>,
}

impl App {
    /// `T_i`: the steps each executor runs.
    pub fn steps(&self, kinds: usize) -> usize {
        self.demand.len() / kinds.max(1)
    }

    /// The executor's peak demand of each kind.
    pub fn peak(&self, kinds: usize) -> Vec<f64> {
        let mut peak = vec![0.0; kinds];
        for row in self.demand.chunks_exact(kinds) {
            for (p, &d) in peak.iter_mut().zip(row) {
                *p = d.max(*p);
            }
        }
        peak
    }
}

/// What a placement holds on its machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reservation {
    /// The predicted time series (Elasecutor's elastic allocation).
    Series,
    /// The peak of each kind over the whole lifetime (static allocation, as Tetris).
    Peak,
}

/// A packing policy: the core's metric for MinFrag's choice, and what is reserved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The score [`fairsched::drr::min_frag`] optimizes.
    pub metric: Metric,
    /// What a placed executor holds.
    pub reservation: Reservation,
}

impl Policy {
    /// The policy choosing by `metric` and reserving `reservation`.
    pub const fn new(metric: Metric, reservation: Reservation) -> Policy {
        Policy {
            metric,
            reservation,
        }
    }
}

/// Elasecutor's MinFrag with DRR.
pub const DRR: Policy = Policy::new(Metric::Drr, Reservation::Series);
/// MinFrag with TRC (Table XI).
pub const TRC: Policy = Policy::new(Metric::Trc, Reservation::Series);
/// Tetris as the paper compares it (§V-A): alignment, peak reserved.
pub const TETRIS: Policy = Policy::new(Metric::Tetris, Reservation::Peak);
/// Tetris' alignment with the series reserved: not in the paper, it separates the metric
/// from the reservation.
pub const TETRIS_SERIES: Policy = Policy::new(Metric::Tetris, Reservation::Series);
/// The policies compared, in the table's order.
pub const POLICIES: [Policy; 4] = [DRR, TRC, TETRIS, TETRIS_SERIES];

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (self.metric, self.reservation) {
            (Metric::Drr, Reservation::Series) => "MinFrag DRR",
            (Metric::Trc, Reservation::Series) => "MinFrag TRC",
            (Metric::Tetris, Reservation::Peak) => "Tetris (peak)",
            (Metric::Tetris, Reservation::Series) => "Tetris, series",
            (Metric::Drr, Reservation::Peak) => "DRR, peak",
            (Metric::Trc, Reservation::Peak) => "TRC, peak",
        })
    }
}

/// One executor started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Its application's index.
    pub app: usize,
    /// The machine's index.
    pub machine: usize,
    /// The step it starts; it runs until `start + T_i`.
    pub start: u32,
}

/// What happened in one run, in steps.
#[derive(Clone, Debug, PartialEq)]
pub struct ElasticRun {
    /// Every executor started, in the order they started.
    pub placements: Vec<Placement>,
    /// The step each application's last executor ends, by index.
    pub completions: Vec<u32>,
    /// The last completion.
    pub makespan: u32,
    /// For each kind: demand used (the series) over the capacity during the makespan.
    pub utilization: Vec<f64>,
}

/// The most executors a machine of `capacity` can run at once: at every step each running
/// executor holds at least the smallest amount any reserved series has of some kind, so no more
/// than the capacity over that amount fit; unbounded (`usize::MAX`) when every kind has a zero
/// somewhere in some series.
fn most_running(capacity: &[f64], reserved: &[Vec<f64>], kinds: usize) -> usize {
    (0..kinds)
        .filter_map(|r| {
            let least = reserved
                .iter()
                .flat_map(|series| series.iter().skip(r).step_by(kinds))
                .fold(f64::INFINITY, |least, &amount| least.min(amount));
            (least > 0.0).then(|| (capacity[r] / least).floor() as usize)
        })
        .min()
        .unwrap_or(usize::MAX)
}

/// The waiting applications as the core takes them, rebuilt when the queue changes.
struct Candidates {
    demands: Vec<f64>,
    steps: Vec<u32>,
    /// The application of each candidate.
    apps: Vec<usize>,
}

/// Runs `apps` on `machines` (capacities, the same kinds each) under `policy`.
/// [`fairsched::Error::OutOfRange`] when an executor fits no machine even empty (it would
/// never run) or runs longer than the core's [`MAX_STEPS`]; other errors are the core's
/// (a demand that is negative or not finite, kinds that differ).
pub fn run(machines: &[Vec<f64>], apps: &[App], policy: Policy) -> fairsched::Result<ElasticRun> {
    let kinds = machines.first().map_or(0, Vec::len);
    if kinds == 0 || machines.iter().any(|m| m.len() != kinds) {
        return Err(fairsched::Error::LengthMismatch);
    }
    if apps.iter().any(|a| a.demand.len() % kinds != 0) {
        return Err(fairsched::Error::LengthMismatch);
    }
    let horizon = apps.iter().map(|a| a.steps(kinds)).max().unwrap_or(1);
    if horizon > MAX_STEPS {
        return Err(fairsched::Error::OutOfRange);
    }
    // What each application's executors reserve.
    let reserved: Vec<Vec<f64>> = apps
        .iter()
        .map(|app| match policy.reservation {
            Reservation::Series => app.demand.clone(),
            Reservation::Peak => app.peak(kinds).repeat(app.steps(kinds)),
        })
        .collect();
    let fits_empty = |app: &App| {
        let peak = app.peak(kinds);
        machines
            .iter()
            .any(|m| peak.iter().zip(m).all(|(p, c)| p <= c))
    };
    if !apps.iter().all(fits_empty) {
        return Err(fairsched::Error::OutOfRange);
    }

    let waiting_at_first: usize = apps.iter().map(|a| a.executors as usize).sum();
    let mut timelines = machines
        .iter()
        .map(|capacity| {
            let room = most_running(capacity, &reserved, kinds).min(waiting_at_first) + 1;
            let memory = Memory::<ExecutorRow, HEAPS>::with_amounts(
                room,
                timeline::amounts(room, horizon, kinds),
            );
            Timeline::with_storage(memory, capacity, horizon as u32)
        })
        .collect::<fairsched::Result<Vec<_>>>()?;
    let mut order: Vec<usize> = (0..apps.len()).collect();
    order.sort_by_key(|&a| apps[a].arrival);
    let mut arrived = 0;
    // Waiting executors of each application in the queue, in arrival order.
    let mut queue: Vec<(usize, u32)> = Vec::new();
    let mut waiting = waiting_at_first;
    let mut candidates = Candidates {
        demands: Vec::new(),
        steps: Vec::new(),
        apps: Vec::new(),
    };
    // The core's view of the candidates, validated once per rebuild; `None` when stale.
    let mut pending: Option<Executors<'_>> = None;
    let mut counts = Vec::new();
    let mut chosen = vec![0; timelines.iter().map(|t| t.capacity()).max().unwrap_or(0)];
    let mut placements = Vec::with_capacity(waiting);
    let mut completions: Vec<u32> = apps.iter().map(|a| a.arrival).collect();
    let mut used = vec![0.0; kinds];
    let mut now: u32 = 0;
    while waiting > 0 {
        while let Some(&a) = order.get(arrived).filter(|&&a| apps[a].arrival <= now) {
            if apps[a].executors > 0 {
                queue.push((a, apps[a].executors));
                pending = None;
            }
            arrived += 1;
        }
        for (m, machine) in timelines.iter_mut().enumerate() {
            if queue.is_empty() {
                break;
            }
            let executors = match pending {
                Some(executors) => executors,
                None => {
                    candidates.rebuild(&queue, &reserved, kinds);
                    Executors::new(&candidates.demands, &candidates.steps, kinds)?
                }
            };
            pending = Some(executors);
            counts.clear();
            counts.extend(queue.iter().take(MAX_EXECUTORS).map(|&(_, left)| left));
            let beat = machine.heartbeat(&executors, &counts, policy.metric, &mut chosen)?;
            // The room was sized so that it never cuts a heartbeat short.
            if machine.running() >= machine.capacity() {
                return Err(fairsched::Error::CapacityFull);
            }
            for &i in &chosen[..beat.placed] {
                let a = candidates.apps[i as usize];
                let app = &apps[a];
                let end = now + app.steps(kinds) as u32;
                completions[a] = completions[a].max(end);
                for row in app.demand.chunks_exact(kinds) {
                    for (u, d) in used.iter_mut().zip(row) {
                        *u += d;
                    }
                }
                placements.push(Placement {
                    app: a,
                    machine: m,
                    start: now,
                });
                waiting -= 1;
                queue[i as usize].1 -= 1;
            }
            if queue.iter().any(|&(_, left)| left == 0) {
                // Applications with no executor left waiting leave the candidates.
                queue.retain(|&(_, left)| left > 0);
                pending = None;
            }
        }
        for machine in &mut timelines {
            machine.advance(1)?;
        }
        now += 1;
    }
    let makespan = completions.iter().copied().max().unwrap_or(0);
    let total: Vec<f64> = (0..kinds)
        .map(|r| machines.iter().map(|m| m[r]).sum::<f64>() * f64::from(makespan))
        .collect();
    Ok(ElasticRun {
        placements,
        completions,
        makespan,
        utilization: used
            .iter()
            .zip(&total)
            .map(|(u, t)| if *t > 0.0 { u / t } else { 0.0 })
            .collect(),
    })
}

impl Candidates {
    /// One executor of each application in the queue, its reserved series, in arrival order:
    /// the first [`MAX_EXECUTORS`].
    fn rebuild(&mut self, queue: &[(usize, u32)], reserved: &[Vec<f64>], kinds: usize) {
        self.demands.clear();
        self.steps.clear();
        self.apps.clear();
        for &(a, _) in queue.iter().take(MAX_EXECUTORS) {
            self.demands.extend_from_slice(&reserved[a]);
            self.steps.push((reserved[a].len() / kinds) as u32);
            self.apps.push(a);
        }
    }
}

/// One policy over several runs, in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct ElasticSummary {
    /// The policy.
    pub policy: Policy,
    /// Each run's makespan.
    pub makespans: Vec<f64>,
    /// Every application's completion time, all runs pooled, sorted.
    pub acts: Vec<f64>,
    /// Utilization of each kind, the mean over the runs.
    pub utilization: Vec<f64>,
}

impl ElasticSummary {
    /// The makespans' mean.
    pub fn mean(&self) -> f64 {
        self.makespans.iter().sum::<f64>() / self.makespans.len().max(1) as f64
    }

    /// The makespans' median (nearest rank).
    pub fn median(&self) -> f64 {
        let mut sorted = self.makespans.clone();
        sorted.sort_by(f64::total_cmp);
        percentile(&sorted, 0.5)
    }

    /// The makespans' standard deviation (over the runs as a population).
    pub fn std(&self) -> f64 {
        let mean = self.mean();
        let square: f64 = self.makespans.iter().map(|m| (m - mean).powi(2)).sum();
        (square / self.makespans.len().max(1) as f64).sqrt()
    }

    /// The `q`-quantile of the completion times (nearest rank).
    pub fn act(&self, q: f64) -> f64 {
        percentile(&self.acts, q)
    }
}

/// Runs each of `runs` (applications) on `machines` under each of `policies`; times are
/// converted from steps to seconds with `step` seconds a step.
pub fn compare(
    machines: &[Vec<f64>],
    runs: &[Vec<App>],
    policies: &[Policy],
    step: f64,
) -> fairsched::Result<Vec<ElasticSummary>> {
    policies
        .iter()
        .map(|&policy| {
            let mut summary = ElasticSummary {
                policy,
                makespans: Vec::new(),
                acts: Vec::new(),
                utilization: vec![0.0; machines.first().map_or(0, Vec::len)],
            };
            for apps in runs {
                let run = run(machines, apps, policy)?;
                summary.makespans.push(f64::from(run.makespan) * step);
                summary.acts.extend(
                    apps.iter()
                        .zip(&run.completions)
                        .map(|(app, &done)| f64::from(done - app.arrival) * step),
                );
                for (total, u) in summary.utilization.iter_mut().zip(&run.utilization) {
                    *total += u / runs.len() as f64;
                }
            }
            summary.acts.sort_by(f64::total_cmp);
            Ok(summary)
        })
        .collect()
}

/// DRR's reductions against TRC in Table XI, in percent: makespan mean, median and standard
/// deviation; ACT p50, p90 and p99.
pub const PAPER_TRC: [f64; 6] = [11.5, 13.4, 5.7, 2.3, 6.1, 11.0];
/// DRR's reduction against Tetris on the mean and median makespan (§V-B, Fig. 7a: "about"), in
/// percent.
pub const PAPER_TETRIS: f64 = 60.0;

/// What DRR is compared on.
const MEASURES: [Measure<ElasticSummary>; 6] = [
    ("makespan_mean", "makespan mean", ElasticSummary::mean),
    ("makespan_median", "makespan median", ElasticSummary::median),
    ("makespan_std", "makespan std", ElasticSummary::std),
    ("act_p50", "ACT p50", |s| s.act(0.5)),
    ("act_p90", "ACT p90", |s| s.act(0.9)),
    ("act_p99", "ACT p99", |s| s.act(0.99)),
];

/// The keys of the utilization of each kind.
const UTILIZATION: [&str; 4] = [
    "utilization_cpu",
    "utilization_memory",
    "utilization_network",
    "utilization_disk",
];

/// The paper's figure for DRR against `other` on the `measure`-th of [`MEASURES`], as a
/// relative change (a reduction of 11.5% is -0.115).
fn paper(other: Policy, measure: usize) -> Option<f64> {
    let reduction = if other == TRC {
        PAPER_TRC[measure]
    } else if other == TETRIS && measure < 2 {
        PAPER_TETRIS
    } else {
        return None;
    };
    Some(-reduction / 100.0)
}

/// The comparison as the `elastic` command prints it: `summaries` of [`compare`] under the
/// heading `title`, then DRR's reductions against every other policy as Table XI states them
/// (when DRR is among them), which are the document's comparisons.
pub fn document(title: &str, parameters: Fields, summaries: &[ElasticSummary]) -> Document {
    let mut text = format!(
        "{title}\n\n{:<16}{:>27}{:>27}   utilization, mean of runs\n\
         {:<16}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}   {:>5} {:>5} {:>5} {:>5}\n",
        "",
        "makespan s",
        "ACT s",
        "policy",
        "mean",
        "median",
        "std",
        "p50",
        "p90",
        "p99",
        "CPU",
        "mem",
        "net",
        "disk"
    );
    for s in summaries {
        let _ = write!(text, "{:<16}", s.policy.to_string());
        for (_, _, figure) in MEASURES {
            let _ = write!(text, "{:>9.0}", figure(s));
        }
        text.push_str("  ");
        for u in &s.utilization {
            let _ = write!(text, " {:>4.0}%", 100.0 * u);
        }
        text.push('\n');
    }
    let table = Table {
        name: "elastic".to_owned(),
        title: title.to_owned(),
        context: Vec::new(),
        rows: summaries
            .iter()
            .map(|s| {
                let mut row = vec![("policy", s.policy.to_string().into())];
                row.extend(MEASURES.map(|(id, _, figure)| (id, figure(s).into())));
                row.extend(fields(&UTILIZATION, &s.utilization));
                row
            })
            .collect(),
    };
    let mut comparisons = Vec::new();
    if let Some(drr) = summaries.iter().find(|s| s.policy == DRR) {
        // Reductions: how much lower DRR's figure is, the opposite of a comparison's value.
        let line = |label: &str, reductions: &[f64]| {
            format!(
                "  {label:<22}{:>6.1} {:>6.1} {:>6.1}     {:>6.1} {:>6.1} {:>6.1}\n",
                reductions[0],
                reductions[1],
                reductions[2],
                reductions[3],
                reductions[4],
                reductions[5]
            )
        };
        text.push_str("\nDRR's reduction, %    makespan mean, median, std;  ACT p50, p90, p99\n");
        let (subject, drr_label) = (identifier(&DRR.to_string()), DRR.to_string());
        for other in summaries.iter().filter(|s| s.policy != DRR) {
            let label = other.policy.to_string();
            let ours: Vec<Comparison> = MEASURES
                .iter()
                .enumerate()
                .map(|(k, &(measure, name, figure))| {
                    Comparison::new(
                        "elastic",
                        None,
                        (&subject, &drr_label),
                        (&identifier(&label), &label),
                        (measure, name),
                        change(figure(drr), figure(other)),
                    )
                    .with_paper(paper(other.policy, k))
                })
                .collect();
            let reductions: Vec<f64> = ours.iter().map(|c| -100.0 * c.value).collect();
            text.push_str(&line(&format!("against {label}"), &reductions));
            comparisons.extend(ours);
        }
        text.push_str(&line("paper, TRC (Table XI)", &PAPER_TRC));
        let _ = writeln!(
            text,
            "  paper, Tetris (§V-B, Fig. 7a)  about {PAPER_TETRIS:.0} on the mean and median"
        );
    }
    let part = Part {
        table,
        comparisons,
        text,
    };
    Document::new("elastic", title.to_owned(), parameters, vec![part], "")
}
