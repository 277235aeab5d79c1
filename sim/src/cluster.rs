//! The slot cluster: a discrete-event model that replays a workload under one policy.
//!
//! `slots` identical slots run non-preemptive tasks. A job arrives with all its tasks waiting;
//! whenever slots are free, the policy hands them out, and each slot given to a job starts
//! that job's next task (tasks start in the order the workload lists them). A job completes
//! when its last task finishes. At one instant, task completions are handled first, then
//! arrivals, then the free slots are handed out, so a slot freed at `t` can go to a job
//! arriving at `t`.

use crate::workload::{Job, Workload};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    fn task_finished(&mut self, now: f64, job: usize, run_time: f64, state: &JobState);

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
            policy.task_finished(now, j, f64::from_bits(run_time), state);
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
            let run_time = jobs[j].tasks[next_task[j]];
            next_task[j] += 1;
            state.pending -= 1;
            state.running += 1;
            // Exactly zero once every task started, whatever the rounding on the way.
            state.unstarted_work = if state.pending == 0 {
                0.0
            } else {
                state.unstarted_work - run_time
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
            workload.total_work() / capacity
        } else {
            0.0
        },
    })
}
