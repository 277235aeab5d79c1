//! The policies compared: the baselines of the CFQ paper's evaluation (§V-A) and CFQ itself,
//! which is the core's [`fairsched::cfq::Cfq`], driven through its Rust API.
//!
//! - **FIFO**: the earliest arrival first (Spark's default).
//! - **FAIR**: Spark's fair scheduler within a pool, which re-decides at every free slot: the
//!   job with the fewest running tasks per unit of weight first (instantaneous weighted
//!   max-min by running tasks), ties to the earlier arrival. Spark's `minShare` is not modelled
//!   (every job's is 0, Spark's default, under which it plays no part).
//! - **SRPT**: the job with the least work left to start first (the run times of its tasks not
//!   yet started: tasks are not preempted, so only those can still be reordered).
//! - **CFQ**: the job with the smallest virtual finish time in GPS first, its slot-time given by
//!   a [`Profiler`]: exact, perturbed (the paper's ±20% experiment) or naive (§V-B).

use crate::cluster::{self, JobState, Policy, Run, Start};
use crate::memory::CfqMemory;
use crate::rng::SplitMix;
use crate::synthetic::unit;
use crate::workload::{Job, Workload};
use fairsched::cfq::{self, Borrowed, Cfq};
use fairsched::Error;
use std::collections::BTreeSet;
use std::fmt;

/// How CFQ learns a job's slot-time at its arrival (CFQ paper §IV-D and §V-B).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Profiler {
    /// The true slot-time.
    Exact,
    /// The true slot-time times a factor uniform in `[1 - error, 1 + error]`, drawn per job
    /// from `seed`.
    Perturbed {
        /// The largest relative error, in `[0, 1)`.
        error: f64,
        /// Seed of the errors.
        seed: u64,
    },
    /// The paper's naive profiler: the job's task count times the mean run time of every task
    /// finished before the job arrived (the true slot-time while no task has finished yet).
    Naive,
}

/// A policy the simulator can run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PolicyKind {
    /// First in, first out.
    Fifo,
    /// Spark's fair scheduler.
    Fair,
    /// Smallest remaining work first.
    Srpt,
    /// Cluster Fair Queueing, through the core.
    Cfq(Profiler),
}

impl PolicyKind {
    /// The four policies of the CFQ paper's comparison, CFQ with exact profiling.
    pub const PAPER: [PolicyKind; 4] = [
        PolicyKind::Fifo,
        PolicyKind::Fair,
        PolicyKind::Srpt,
        PolicyKind::Cfq(Profiler::Exact),
    ];

    /// Replays `workload` on `slots` slots under this policy.
    pub fn run(self, workload: &Workload, slots: u32) -> fairsched::Result<Run> {
        match self {
            PolicyKind::Cfq(profiler) => {
                let start = workload.jobs().first().map_or(0.0, |job| job.arrival);
                let mut memory = CfqMemory::new(workload.jobs().len().max(1));
                let mut policy = CfqPolicy {
                    cfq: memory.cfq(slots, start)?,
                    profiler,
                    offered: Vec::new(),
                    naive: cfq::Profiler::new(),
                };
                cluster::simulate(workload, slots, &mut policy)
            }
            PolicyKind::Fifo => Priority::new(Order::Arrival).run(workload, slots),
            PolicyKind::Fair => Priority::new(Order::RunningPerWeight).run(workload, slots),
            PolicyKind::Srpt => Priority::new(Order::UnstartedWork).run(workload, slots),
        }
    }
}

impl fmt::Display for PolicyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyKind::Fifo => write!(f, "FIFO"),
            PolicyKind::Fair => write!(f, "FAIR"),
            PolicyKind::Srpt => write!(f, "SRPT"),
            PolicyKind::Cfq(Profiler::Exact) => write!(f, "CFQ"),
            PolicyKind::Cfq(Profiler::Perturbed { error, .. }) => {
                write!(f, "CFQ ±{:.0}%", error * 100.0)
            }
            PolicyKind::Cfq(Profiler::Naive) => write!(f, "CFQ naive"),
        }
    }
}

/// What a baseline orders the backlogged jobs by, before their index (arrival order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Nothing: FIFO.
    Arrival,
    /// Running tasks per unit of weight: FAIR.
    RunningPerWeight,
    /// Work not yet started: SRPT.
    UnstartedWork,
}

/// A baseline: the backlogged jobs ordered by (key, index), the first gets the next slot.
/// Keys are non-negative floats as their bits, which order alike.
struct Priority {
    order: Order,
    weights: Vec<u32>,
    /// Each job's key while it is backlogged.
    keys: Vec<Option<u64>>,
    backlog: BTreeSet<(u64, usize)>,
}

impl Priority {
    fn new(order: Order) -> Self {
        Priority {
            order,
            weights: Vec::new(),
            keys: Vec::new(),
            backlog: BTreeSet::new(),
        }
    }

    fn run(mut self, workload: &Workload, slots: u32) -> fairsched::Result<Run> {
        cluster::simulate(workload, slots, &mut self)
    }

    fn key(&self, job: usize, state: &JobState) -> u64 {
        match self.order {
            Order::Arrival => 0,
            Order::RunningPerWeight => {
                (f64::from(state.running) / f64::from(self.weights[job])).to_bits()
            }
            Order::UnstartedWork => state.unstarted_work.to_bits(),
        }
    }

    /// Re-files `job` after its state changed: backlogged under its new key, or not at all.
    fn refresh(&mut self, job: usize, state: &JobState) {
        if let Some(old) = self.keys[job].take() {
            self.backlog.remove(&(old, job));
        }
        if state.pending > 0 {
            let key = self.key(job, state);
            self.backlog.insert((key, job));
            self.keys[job] = Some(key);
        }
    }
}

impl Policy for Priority {
    fn arrive(&mut self, _now: f64, job: usize, spec: &Job) -> fairsched::Result<()> {
        if job >= self.keys.len() {
            self.keys.resize(job + 1, None);
            self.weights.resize(job + 1, 1);
        }
        self.weights[job] = spec.weight;
        let state = JobState {
            pending: spec.tasks.len() as u32,
            running: 0,
            unstarted_work: spec.slot_time(),
        };
        self.refresh(job, &state);
        Ok(())
    }

    fn assign(&mut self, free: usize, start: &mut Start<'_>) -> fairsched::Result<()> {
        for _ in 0..free {
            let Some(&(_, job)) = self.backlog.first() else {
                break;
            };
            let state = start(job);
            self.refresh(job, &state);
        }
        Ok(())
    }

    fn task_finished(
        &mut self,
        _now: f64,
        job: usize,
        _run_time: f64,
        state: &JobState,
    ) -> fairsched::Result<()> {
        self.refresh(job, state);
        Ok(())
    }

    fn job_finished(&mut self, _now: f64, _job: usize) -> fairsched::Result<()> {
        Ok(())
    }
}

/// CFQ: the core decides; the simulator only tells it about arrivals and completions.
struct CfqPolicy<'m> {
    cfq: Cfq<Borrowed<'m>>,
    profiler: Profiler,
    /// The ids one offer writes.
    offered: Vec<u64>,
    /// The core's naive profiler, told the run time of every task finished so far.
    naive: cfq::Profiler,
}

impl CfqPolicy<'_> {
    /// The slot-time CFQ is told for job `job` at its arrival.
    fn profile(&self, job: usize, spec: &Job) -> fairsched::Result<f64> {
        let exact = spec.slot_time();
        match self.profiler {
            Profiler::Exact => Ok(exact),
            Profiler::Perturbed { error, seed } => {
                let draw = unit(&mut SplitMix(seed.wrapping_add(job as u64)));
                Ok(exact * (1.0 + error * (2.0 * draw - 1.0)))
            }
            // Before any task has finished (or while every one took no time) the core has no
            // estimate: the job is told its true slot-time.
            Profiler::Naive => match self.naive.estimate(spec.tasks.len() as u64) {
                Err(Error::Empty | Error::NotPositive) => Ok(exact),
                estimate => estimate,
            },
        }
    }
}

impl Policy for CfqPolicy<'_> {
    fn arrive(&mut self, now: f64, job: usize, spec: &Job) -> fairsched::Result<()> {
        let id = job as u64;
        let slot_time = self.profile(job, spec)?;
        self.cfq.arrive(now, id, slot_time, spec.weight)?;
        self.cfq.set_pending(id, spec.tasks.len() as u32)
    }

    fn assign(&mut self, free: usize, start: &mut Start<'_>) -> fairsched::Result<()> {
        self.offered.resize(free, 0);
        let given = self.cfq.offer(&mut self.offered);
        for &id in &self.offered[..given] {
            start(id as usize);
        }
        Ok(())
    }

    fn task_finished(
        &mut self,
        _now: f64,
        _job: usize,
        run_time: f64,
        _state: &JobState,
    ) -> fairsched::Result<()> {
        self.naive.observe(run_time)
    }

    fn job_finished(&mut self, now: f64, job: usize) -> fairsched::Result<()> {
        self.cfq.complete(now, job as u64)
    }
}
