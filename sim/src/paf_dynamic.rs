//! The PAF paper's simulation over time (Chen, Wang, Li: *Performance-Aware Fair Scheduling:
//! Exploiting Demand Elasticity of Data Analytics Jobs*, IEEE INFOCOM 2018; §V-B "Setup" and
//! "Workloads"): jobs arrive and leave a slot cluster whose slots remember the job that last ran on
//! them (JVM warm-up, see [`crate::cluster`]); PAF, the core's [`fairsched::paf::Paf`],
//! re-allocates at every arrival, departure and task completion, against Spark's fair scheduler (FAIR,
//! [`PolicyKind::Fair`]), on the paper's 800, 2,000 and 8,000 slots at α = 0.9 and 0.99 (and 1, see
//! [`PAF_DYNAMIC_ALPHAS`]).
//!
//! **The workload** ([`paf_over_time`], seeded). The paper gives the ranges of §V-B; what it
//! takes "based on the Google traces" comes from the Google 2011 cluster trace, Hawk's
//! sub-trace (10,000 jobs). Chosen once, before any run:
//!
//! | per job | value | from |
//! | --- | --- | --- |
//! | submission interval | exponential, mean 9.35 s | the sub-trace: 10,000 jobs over 93,526 s |
//! | degree of parallelism (tasks, one stage) | uniform 1-200 | §V-B |
//! | weight | uniform 1-20 | §V-B |
//! | JVM warm-up factor δ | uniform in [1, 8] | §V-B |
//! | Pareto shape β | uniform in [1.6, 16] | §V-B (Hopper's typical range) |
//! | mean task duration μ | log-uniform in [14, 1,300] s | the sub-trace's per-job mean task duration: log-mean 4.91 (136 s), log-deviation 1.31; a log-uniform with the same two |
//! | task durations | Pareto of shape β and scale `μ (β - 1) / β` (mean μ) | §V-B |
//!
//! The offered load (work at δ = 1 over the slot-time of the arrival span) is 0.37 on 8,000
//! slots, 1.49 on 2,000 and 3.73 on 800 (seed 1): as the paper says, the small clusters are
//! overloaded.
//!
//! **Progress curves** ([`Profile`]). PAF needs each job's progress rate on `x` slots (§II-A:
//! the shortest JCT over the JCT on `x` slots). The profile here is exact, as a perfect
//! profiler would give it (§III assumes one): the job alone on `x` slots, its tasks started in
//! order on the first free slot, each slot's first task cold and the others warm
//! ([`crate::metrics::alone`]); the core builds the curve ([`fairsched::paf::profile`]).
//! With warm-up a job can be fastest on fewer slots than its width (its longest task started
//! warm), so the shortest JCT is the least over every `x`, and `p(x) = shortest / alone(x)`,
//! kept at its running maximum as the core's [`fairsched::paf::Ernest::tabulate`] does (PAF is
//! told that slots past a job's best count add nothing). Warm-up makes these curves
//! strongly concave: with δ = 8 a job on few slots runs most tasks eight times faster. They
//! are not always concave (list scheduling), and the core's Algorithm 1 is then its
//! documented heuristic; the α guarantee holds either way. Their flat parts cost nothing to
//! give, so even α = 1 moves slots.
//!
//! **PAF over time.** At every instant when a job arrived or left or a task finished, the active
//! jobs (arrived, not finished) are allocated by `Paf::allocate` (fast method) with their curves
//! cut at the tasks they have left (pending and running: a job cannot hold more slots than that),
//! giving each a target. Free slots go by `Paf::enforce` (§IV-B: among the jobs below their
//! target, the one holding the fewest slots per unit of weight first, as Spark's fair scheduler
//! orders jobs), targets capped at the tasks a job has left. Slots beyond every target are not
//! left idle: they go on by the same order, past the targets (ties to the earlier arrival), as
//! Spark offers every free slot to some job. Nothing is preempted, so a job above its target
//! keeps its slots until its tasks end.
//!
//! **Why this cadence and order** (seeds 1-3, gain of the average progress rate over FAIR,
//! 800 / 2,000 slots, α = 0.9): re-allocating only at arrivals and departures and serving the
//! smallest fraction of the target first loses 7.0% / 9.3% (even with the fair shares as
//! targets: 6.7% / 7.0%, so the order, not the transfers, loses: it holds back jobs capped at a
//! small demand); serving the fewest slots per weight below target gains 0.0% / +1.0%, and with
//! a re-allocation at every task completion as well +0.9% / +1.5% (every seed and α at or above
//! FAIR: +0.5% to +3.6%). Serving the largest absolute deficit first loses 22-32%.
//!
//! **Measures** (§V-B and §II-A): a job's progress rate is its shortest JCT over its
//! response time; the table gives the average over jobs, its gain over FAIR, the
//! largest loss of any job against its progress under FAIR (`1 - p(PAF) / p(FAIR)`), how many
//! jobs lose more than `1 - α`, and, at the re-allocations, the largest loss the core reports
//! against the instantaneous fair shares (at most `1 - α`: the guarantee PAF gives), with the
//! core's own gain there (total progress at PAF's allocation over that at the fair shares,
//! averaged over the re-allocations: the static table's measure, along the run).

use crate::cluster::{self, JobState, Policy, Run, Start};
use crate::document::{Comparison, Document, Part, Table};
use crate::paf::{paper_gain, MAX_JOBS};
use crate::policy::PolicyKind;
use crate::report::{Report, COLUMN_LEGEND};
use crate::rng::SplitMix;
use crate::synthetic::{between, log_uniform, uniform, unit};
use crate::workload::{Job, Workload};
use fairsched::paf::{self, Allocation, Curve, Inline, Method, Paf, Totals};
use std::fmt::Write;

/// The mean interval between submissions in the Google 2011 sub-trace, seconds.
pub const MEAN_INTERVAL: f64 = 9.35;

/// The knobs compared: the paper's α = 0.9 and 0.99, after α = 1, which keeps every job at
/// its fair progress (it moves only slots a job's flat curve does not use) and so separates
/// what PAF's transfers do from what enforcing targets over time does.
pub const PAF_DYNAMIC_ALPHAS: [f64; 3] = [1.0, 0.9, 0.99];

/// The §V-B workload over time of `jobs` jobs (see the module documentation), from `seed`.
pub fn paf_over_time(jobs: usize, seed: u64) -> Workload {
    let mut rng = SplitMix(seed);
    let mut arrival = 0.0;
    Workload::new(
        (0..jobs)
            .map(|_| {
                let width = between(&mut rng, 1, 200);
                let weight = between(&mut rng, 1, 20) as u32;
                let warmup = uniform(&mut rng, 1.0, 8.0);
                let shape = uniform(&mut rng, 1.6, 16.0);
                let mean = log_uniform(&mut rng, 14.0, 1300.0);
                let scale = mean * (shape - 1.0) / shape;
                let tasks = (0..width)
                    .map(|_| scale / (1.0 - unit(&mut rng)).powf(1.0 / shape))
                    .collect();
                let job = Job {
                    arrival,
                    weight,
                    tasks,
                    warmup,
                };
                arrival -= MEAN_INTERVAL * (1.0 - unit(&mut rng)).ln();
                job
            })
            .collect(),
    )
}

/// What PAF knows of a job: how fast it runs alone on any number of slots.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// The shortest JCT alone, over every number of slots (§II-A).
    pub shortest: f64,
    /// The progress curve `p(0..=width)` (see the module documentation), up to 1.
    pub curve: Vec<f64>,
}

impl Profile {
    /// `job`'s profile, exact: the core's [`fairsched::paf::profile::curve_from_tasks`], the
    /// job alone on each number of slots up to its width ([`crate::metrics::alone`]). Errors are the core's (no
    /// task, a duration or warm-up factor outside its domain, a job taking no time).
    pub fn of(job: &Job) -> fairsched::Result<Self> {
        let mut scratch = vec![0.0; job.width()];
        let mut curve = vec![0.0; job.width() + 1];
        let shortest =
            paf::profile::curve_from_tasks(&job.tasks, job.warmup, &mut scratch, &mut curve)?;
        Ok(Profile { shortest, curve })
    }
}

/// One re-allocation of a PAF run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reallocation {
    /// When.
    pub time: f64,
    /// Active jobs allocated.
    pub jobs: usize,
    /// The core's totals: progress at the fair shares and at PAF's, the largest loss.
    pub totals: Totals,
}

/// A job's tasks waiting and running, as the policy last heard.
#[derive(Clone, Copy, Debug, Default)]
struct Tasks {
    pending: u32,
    running: u32,
}

impl Tasks {
    fn left(self) -> u32 {
        self.pending + self.running
    }
}

/// PAF over time: the core allocates and enforces, the simulator tells it who is active.
struct PafPolicy<'c> {
    paf: Paf<Inline<MAX_JOBS>>,
    slots: u32,
    alpha: f64,
    /// Every job's profile, by index in the workload.
    profiles: &'c [Profile],
    weights: Vec<u32>,
    tasks: Vec<Tasks>,
    /// The active jobs, by index (arrival order), and the target of each.
    active: Vec<usize>,
    targets: Vec<u32>,
    /// Whether a job arrived or left or a task finished since the last allocation, and when.
    changed: Option<f64>,
    log: Vec<Reallocation>,
}

impl PafPolicy<'_> {
    /// Allocates the active jobs anew with the core's Algorithm 1.
    fn reallocate(&mut self, now: f64) -> fairsched::Result<()> {
        let jobs = self
            .active
            .iter()
            .map(|&j| {
                let left = self.tasks[j].left() as usize;
                paf::Job::new(
                    self.weights[j],
                    Curve::new(&self.profiles[j].curve[..=left])?,
                )
            })
            .collect::<fairsched::Result<Vec<_>>>()?;
        let n = jobs.len();
        let (mut fair, mut min) = (vec![0; n], vec![0; n]);
        let (mut fair_progress, mut paf_progress) = (vec![0.0; n], vec![0.0; n]);
        self.targets.resize(n, 0);
        let totals = self.paf.allocate(
            jobs.as_slice(),
            self.slots,
            self.alpha,
            Method::Fast,
            Allocation {
                fair: &mut fair,
                min: &mut min,
                paf: &mut self.targets,
                fair_progress: &mut fair_progress,
                paf_progress: &mut paf_progress,
            },
        )?;
        self.log.push(Reallocation {
            time: now,
            jobs: n,
            totals,
        });
        Ok(())
    }

    /// Starts a task of the active job at `position`.
    fn start(&mut self, position: usize, start: &mut Start<'_>) {
        let j = self.active[position];
        let state = start(j);
        self.tasks[j] = Tasks {
            pending: state.pending,
            running: state.running,
        };
    }
}

impl Policy for PafPolicy<'_> {
    fn arrive(&mut self, now: f64, job: usize, spec: &Job) -> fairsched::Result<()> {
        if job >= self.tasks.len() {
            self.tasks.resize(job + 1, Tasks::default());
            self.weights.resize(job + 1, 1);
        }
        self.weights[job] = spec.weight;
        self.tasks[job] = Tasks {
            pending: spec.width() as u32,
            running: 0,
        };
        self.active.push(job);
        self.changed = Some(now);
        Ok(())
    }

    fn assign(&mut self, free: usize, start: &mut Start<'_>) -> fairsched::Result<()> {
        if let Some(now) = self.changed.take() {
            if !self.active.is_empty() {
                self.reallocate(now)?;
            }
        }
        let weights: Vec<u32> = self.active.iter().map(|&j| self.weights[j]).collect();
        let (targets, running): (Vec<u32>, Vec<u32>) = self
            .active
            .iter()
            .zip(&self.targets)
            .map(|(&j, &target)| (target.min(self.tasks[j].left()), self.tasks[j].running))
            .unzip();
        let mut given = vec![0; free];
        let count = self.paf.enforce(&weights, &targets, &running, &mut given)?;
        for &position in &given[..count] {
            self.start(position as usize, start);
        }
        for _ in count..free {
            // Past the targets, the same order as enforce: the fewest running per unit of
            // weight first.
            let per_weight =
                |i: usize| f64::from(self.tasks[self.active[i]].running) / f64::from(weights[i]);
            let Some(position) = (0..self.active.len())
                .filter(|&i| self.tasks[self.active[i]].pending > 0)
                .min_by(|&a, &b| per_weight(a).total_cmp(&per_weight(b)).then(a.cmp(&b)))
            else {
                break;
            };
            self.start(position, start);
        }
        Ok(())
    }

    fn task_finished(
        &mut self,
        now: f64,
        job: usize,
        _run_time: f64,
        state: &JobState,
    ) -> fairsched::Result<()> {
        self.tasks[job] = Tasks {
            pending: state.pending,
            running: state.running,
        };
        // Re-allocate before the freed slot is offered: a job's curve is cut at its tasks left.
        self.changed = Some(now);
        Ok(())
    }

    fn job_finished(&mut self, now: f64, job: usize) -> fairsched::Result<()> {
        if let Some(position) = self.active.iter().position(|&j| j == job) {
            self.active.remove(position);
            self.targets.remove(position);
        }
        self.changed = Some(now);
        Ok(())
    }
}

/// Replays `workload` on `slots` slots under PAF at `alpha`, with `profiles[j]` the profile
/// of job `j`; returns the run and every re-allocation.
///
/// Errors: the core's ([`fairsched::Error::CapacityFull`] with more than [`MAX_JOBS`] jobs
/// active at once).
pub fn run_paf(
    workload: &Workload,
    profiles: &[Profile],
    slots: u32,
    alpha: f64,
) -> fairsched::Result<(Run, Vec<Reallocation>)> {
    let mut policy = PafPolicy {
        paf: Paf::new()?,
        slots,
        alpha,
        profiles,
        weights: Vec::new(),
        tasks: Vec::new(),
        active: Vec::new(),
        targets: Vec::new(),
        changed: None,
        log: Vec::new(),
    };
    let run = cluster::simulate(workload, slots, &mut policy)?;
    Ok((run, policy.log))
}

/// Each job's progress rate in a run whose response times are `responses`: its shortest JCT
/// over its response time (§II-A).
pub fn progress_rates(profiles: &[Profile], responses: &[f64]) -> Vec<f64> {
    profiles
        .iter()
        .zip(responses)
        .map(|(profile, response)| profile.shortest / response)
        .collect()
}

/// One policy on one cluster size.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Slots of the cluster.
    pub slots: u32,
    /// PAF's knob; `None` for FAIR.
    pub alpha: Option<f64>,
    /// The average progress rate.
    pub progress: f64,
    /// The average progress rate over FAIR's, minus 1.
    pub gain: f64,
    /// The largest `1 - p / p(FAIR)` of any job (0 when none is slower than under FAIR).
    pub largest_loss: f64,
    /// Jobs whose progress rate is below `α` times theirs under FAIR.
    pub beyond_alpha: usize,
    /// The core's own measure at each re-allocation, averaged over them: total progress at
    /// PAF's allocation over total progress at the fair shares, minus 1 (the static gain).
    pub instant_gain: f64,
    /// The largest loss the core reports at a re-allocation, against the fair shares of the
    /// moment (at most `1 - α`).
    pub worst_instant_loss: f64,
}

/// FAIR and PAF at each of `alphas` on each cluster size of `slots`: the outcomes (FAIR first
/// on each size) and the standard report of each size.
pub fn compare(
    name: &str,
    workload: &Workload,
    slots: &[u32],
    alphas: &[f64],
) -> fairsched::Result<(Vec<Outcome>, Vec<Report>)> {
    let profiles = workload
        .jobs()
        .iter()
        .map(Profile::of)
        .collect::<fairsched::Result<Vec<_>>>()?;
    let (mut outcomes, mut reports) = (Vec::new(), Vec::new());
    for &size in slots {
        let fair = PolicyKind::Fair.run(workload, size)?;
        let mut runs = vec![(PolicyKind::Fair.to_string(), fair, None, Vec::new())];
        for &alpha in alphas {
            let (run, log) = run_paf(workload, &profiles, size, alpha)?;
            runs.push((format!("PAF α={alpha}"), run, Some(alpha), log));
        }
        let report = crate::report_of(
            &format!("{name} on {size} slots"),
            workload,
            size,
            runs.iter()
                .map(|(policy, run, ..)| Ok((policy.clone(), run.clone()))),
        )?;
        let rates: Vec<Vec<f64>> = report
            .summaries
            .iter()
            .map(|s| progress_rates(&profiles, &s.responses))
            .collect();
        let average = |rates: &[f64]| rates.iter().sum::<f64>() / rates.len().max(1) as f64;
        for ((_, _, alpha, log), rates_here) in runs.iter().zip(&rates) {
            let losses = rates_here.iter().zip(&rates[0]).map(|(p, f)| 1.0 - p / f);
            outcomes.push(Outcome {
                slots: size,
                alpha: *alpha,
                progress: average(rates_here),
                gain: average(rates_here) / average(&rates[0]) - 1.0,
                largest_loss: losses.clone().fold(0.0, f64::max),
                beyond_alpha: alpha.map_or(0, |a| losses.filter(|&l| l > 1.0 - a).count()),
                instant_gain: log
                    .iter()
                    .map(|r| r.totals.paf_progress / r.totals.fair_progress - 1.0)
                    .sum::<f64>()
                    / log.len().max(1) as f64,
                worst_instant_loss: log
                    .iter()
                    .map(|r| r.totals.largest_loss)
                    .fold(0.0, f64::max),
            });
        }
        reports.push(report);
    }
    Ok((outcomes, reports))
}

/// The comparison as the `paf-dynamic` command prints it: `outcomes` and `reports` of
/// [`compare`] on the workload `name` of `jobs` jobs from `seed`; the paper's figure beside the
/// 8,000-slot rows, and a summary line per cluster size and knob.
pub fn document(
    name: &str,
    seed: u64,
    jobs: usize,
    outcomes: &[Outcome],
    reports: &[Report],
) -> Document {
    let title = format!(
        "{name}: {jobs} jobs arriving over time, JVM warm-up; PAF (the core's) re-allocating at \
         every arrival, departure and task completion, against FAIR"
    );
    let mut text = format!(
        "{title}\n\n{:>6} {:<11} {:>9} {:>8} {:>6} {:>11} {:>13} {:>11} {:>11}\n",
        "slots",
        "policy",
        "progress",
        "vs FAIR",
        "paper",
        "alloc gain",
        "largest loss",
        "beyond 1-α",
        "alloc loss"
    );
    let policy = |o: &Outcome| o.alpha.map_or("FAIR".to_owned(), |a| format!("PAF α={a}"));
    let paper = |o: &Outcome| o.alpha.and_then(|a| paper_gain(o.slots, a));
    for o in outcomes {
        let dash = || "-".to_owned();
        let paf = |text: &dyn Fn() -> String| o.alpha.map_or_else(dash, |_| text());
        let _ = writeln!(
            text,
            "{:>6} {:<11} {:>9.3} {:>8} {:>6} {:>11} {:>13} {:>11} {:>11}",
            o.slots,
            policy(o),
            o.progress,
            paf(&|| format!("{:+.1}%", o.gain * 100.0)),
            paper(o).map_or_else(dash, |gain| format!("+{:.0}%", gain * 100.0)),
            paf(&|| format!("{:+.1}%", o.instant_gain * 100.0)),
            paf(&|| format!("{:.1}%", o.largest_loss * 100.0)),
            paf(&|| o.beyond_alpha.to_string()),
            paf(&|| format!("{:.2}%", o.worst_instant_loss * 100.0)),
        );
    }
    let table = Table {
        name: "progress".to_owned(),
        title: title.clone(),
        context: Vec::new(),
        rows: outcomes
            .iter()
            .map(|o| {
                // What only PAF has: none for FAIR, as the text's "-".
                let paf = |x: f64| o.alpha.map(|_| x);
                vec![
                    ("slots", o.slots.into()),
                    ("policy", policy(o).into()),
                    ("alpha", o.alpha.into()),
                    ("progress", o.progress.into()),
                    ("gain", paf(o.gain).into()),
                    ("paper_gain", paper(o).into()),
                    ("instant_gain", paf(o.instant_gain).into()),
                    ("largest_loss", paf(o.largest_loss).into()),
                    ("beyond_alpha", o.alpha.map(|_| o.beyond_alpha).into()),
                    ("worst_instant_loss", paf(o.worst_instant_loss).into()),
                ]
            })
            .collect(),
    };
    let comparisons = outcomes
        .iter()
        .filter_map(|o| {
            let alpha = o.alpha?;
            Some(
                Comparison::new(
                    "progress",
                    Some(&format!("{}_slots", o.slots)),
                    (
                        &format!("paf_{alpha}"),
                        &format!("{} on {} slots", policy(o), o.slots),
                    ),
                    ("fair", "FAIR"),
                    ("progress", "average progress rate"),
                    o.gain,
                )
                .with_paper(paper(o)),
            )
        })
        .collect();
    let mut parts = vec![Part::summarized(table, comparisons, text)];
    parts.extend(
        reports
            .iter()
            .map(|report| report.part(&format!("{}_slots", report.slots))),
    );
    let parameters = vec![("seed", seed.into()), ("jobs", jobs.into())];
    Document::new("paf-dynamic", title, parameters, parts, COLUMN_LEGEND)
}
