//! The slot cluster: a discrete-event model that replays a workload under one policy.
//!
//! `slots` identical slots run non-preemptive tasks. A job arrives with all its tasks waiting;
//! whenever slots are free, the policy hands them out, and each slot given to a job starts
//! that job's next task (tasks start in the order the workload lists them). A job completes
//! when its last task finishes. At one instant, task completions are handled first, then
//! arrivals, then the free slots are handed out, so a slot freed at `t` can go to a job
//! arriving at `t`.
//!
//! **JVM warm-up** (PAF paper, INFOCOM 2018, §V-B "Setup"): a slot remembers the job whose task
//! last ran on it, and a task starting on a slot warm for its own job runs its run time divided
//! by the job's [`Job::warmup`] δ. The policy decides which job gets a slot, the cluster which
//! free slot that is: the job's own warm slot if it has one (Spark's executors keep running
//! their application's tasks, so a job's next task goes where its JVM is already warm); else a
//! slot no job can start warm (never used, or last used by a job with no task left to start);
//! else, taking it from its job, a slot warm for the earliest-arrived job that has one free.
//! Slots differ in nothing else, so the cluster counts free slots by the job they are warm for
//! rather than naming them. With δ = 1 (every workload but the PAF one) the choice changes
//! nothing: a run is the same, bit for bit, as without warm-up.

use crate::workload::{Job, Workload};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

/// What a policy may know about a job at any moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JobState {
    /// Tasks waiting for a slot.
    pub pending: u32,
    /// Tasks running.
    pub running: u32,
    /// Run time of the tasks that have not started, summed.
    pub unstarted_work: f64,
}

/// Starts the next task of a job on a free slot and returns the job's state afterwards.
pub type Start<'a> = dyn FnMut(usize) -> JobState + 'a;

/// A scheduling policy: told what happens, it decides who gets free slots.
pub trait Policy {
    /// Job `job` (its index in the workload) arrives at `now` with all its tasks pending.
    fn arrive(&mut self, now: f64, job: usize, spec: &Job) -> fairsched::Result<()>;

    /// Hands out up to `free` slots: `start(job)` starts the next task of `job` (which must
    /// have a pending task) on one slot and returns the job's state afterwards.
    fn assign(&mut self, free: usize, start: &mut Start<'_>) -> fairsched::Result<()>;

    /// A task of `job` that ran `run_time` finished at `now`; `state` is the job's state after.
    fn task_finished(
        &mut self,
        now: f64,
        job: usize,
        run_time: f64,
        state: &JobState,
    ) -> fairsched::Result<()>;

    /// The last task of `job` finished at `now`.
    fn job_finished(&mut self, now: f64, job: usize) -> fairsched::Result<()>;
}

/// What happened in one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Completion time of each job, by index in the workload.
    pub completions: Vec<f64>,
    /// From the first arrival to the last completion.
    pub makespan: f64,
    /// Busy slot-time over the slot-time available during the makespan.
    pub utilization: f64,
}

/// The free slots, by the job whose task last ran on them (see the module documentation).
struct FreeSlots {
    /// Free slots warm for each job that still has tasks to start.
    warm: Vec<u32>,
    /// The jobs with a free warm slot, by index (the earliest arrival first).
    warm_jobs: BTreeSet<usize>,
    /// Free slots no job can start warm.
    cold: u32,
}

impl FreeSlots {
    /// Takes a free slot for a task of `job` and says whether it is warm for `job`.
    fn take(&mut self, job: usize) -> bool {
        if self.warm[job] > 0 {
            self.take_warm(job);
            return true;
        }
        if self.cold > 0 {
            self.cold -= 1;
        } else if let Some(&other) = self.warm_jobs.first() {
            self.take_warm(other);
        }
        false
    }

    fn take_warm(&mut self, job: usize) {
        self.warm[job] -= 1;
        if self.warm[job] == 0 {
            self.warm_jobs.remove(&job);
        }
    }

    /// A task of `job` freed its slot; `pending` tasks of `job` are still to start.
    fn free(&mut self, job: usize, pending: u32) {
        if pending == 0 {
            self.cold += 1;
        } else {
            self.warm[job] += 1;
            self.warm_jobs.insert(job);
        }
    }

    /// `job` started its last task: its free warm slots can serve nobody warm any more.
    fn cool(&mut self, job: usize) {
        self.cold += std::mem::take(&mut self.warm[job]);
        self.warm_jobs.remove(&job);
    }
}

/// Replays `workload` on `slots` slots under `policy`. A policy that starts a task of a job
/// with none pending is a bug and panics.
pub fn simulate(
    workload: &Workload,
    slots: u32,
    policy: &mut dyn Policy,
) -> fairsched::Result<Run> {
    let jobs = workload.jobs();
    let mut states: Vec<JobState> = jobs
        .iter()
        .map(|job| JobState {
            pending: job.tasks.len() as u32,
            running: 0,
            unstarted_work: job.slot_time(),
        })
        .collect();
    let mut next_task = vec![0usize; jobs.len()];
    let mut completions = vec![f64::NAN; jobs.len()];
    // Running tasks by finish time (non-negative times order like their bits), then job.
    let mut running: BinaryHeap<Reverse<(u64, usize, u64)>> = BinaryHeap::new();
    let mut arrivals = jobs.iter().enumerate().peekable();
    let mut free = slots as usize;
    let mut slots_by_job = FreeSlots {
        warm: vec![0; jobs.len()],
        warm_jobs: BTreeSet::new(),
        cold: slots,
    };
    // Slot-time the warm starts saved (exactly 0 when every δ is 1).
    let mut saved = 0.0;
    let start_time = jobs.first().map_or(0.0, |job| job.arrival);
    let mut now = start_time;

    loop {
        let next_finish = running.peek().map(|Reverse((t, ..))| f64::from_bits(*t));
        let next_arrival = arrivals.peek().map(|(_, job)| job.arrival);
        now = match (next_finish, next_arrival) {
            (None, None) => break,
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
        };
        while let Some(&Reverse((t, j, run_time))) = running.peek() {
            if f64::from_bits(t) != now {
                break;
            }
            running.pop();
            free += 1;
            let state = &mut states[j];
            state.running -= 1;
            slots_by_job.free(j, state.pending);
            policy.task_finished(now, j, f64::from_bits(run_time), state)?;
            if state.running == 0 && state.pending == 0 {
                completions[j] = now;
                policy.job_finished(now, j)?;
            }
        }
        while let Some(&(j, job)) = arrivals.peek() {
            if job.arrival != now {
                break;
            }
            arrivals.next();
            policy.arrive(now, j, job)?;
        }
        let mut started = 0;
        policy.assign(free, &mut |j| {
            let state = &mut states[j];
            assert!(
                state.pending > 0 && started < free,
                "the policy started a task of job {j}, which has none pending, or too many tasks"
            );
            let task = jobs[j].tasks[next_task[j]];
            let run_time = if slots_by_job.take(j) {
                task / jobs[j].warmup
            } else {
                task
            };
            saved += task - run_time;
            next_task[j] += 1;
            state.pending -= 1;
            state.running += 1;
            if state.pending == 0 {
                slots_by_job.cool(j);
            }
            // Exactly zero once every task started, whatever the rounding on the way.
            state.unstarted_work = if state.pending == 0 {
                0.0
            } else {
                state.unstarted_work - task
            };
            running.push(Reverse(((now + run_time).to_bits(), j, run_time.to_bits())));
            started += 1;
            *state
        })?;
        free -= started;
    }

    let makespan = now - start_time;
    let capacity = makespan * f64::from(slots);
    Ok(Run {
        completions,
        makespan,
        utilization: if capacity > 0.0 {
            (workload.total_work() - saved) / capacity
        } else {
            0.0
        },
    })
}
