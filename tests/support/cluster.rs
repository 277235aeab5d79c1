//! A small discrete-event model of a slot cluster scheduled by CFQ, for tests and the example.
//!
//! `slots` identical slots run non-preemptive tasks. A job arrives with all its tasks pending
//! (one stage, the setting of the CFQ paper's Theorem 1) and its exact slot-time; whenever
//! slots are free, they are offered to CFQ in one batch and each slot starts the next task of
//! the job it was given. At one instant, task completions are handled before arrivals, and
//! offers come last.

use super::memory::CfqMemory;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One job of a workload.
#[derive(Clone, Debug)]
pub struct JobSpec {
    pub arrival: f64,
    pub weight: u32,
    /// Run time of each task on one slot.
    pub tasks: Vec<f64>,
}

impl JobSpec {
    /// Slot-time: the job's work on one slot.
    pub fn slot_time(&self) -> f64 {
        self.tasks.iter().sum()
    }
}

/// Theorem 1's bound on how late a job can finish against GPS: `2 l_max + L_max / M`, with
/// `l_max` the longest task and `L_max` the largest slot-time.
pub fn delay_bound(slots: u32, jobs: &[JobSpec]) -> f64 {
    let l_max = jobs
        .iter()
        .flat_map(|j| j.tasks.iter().copied())
        .fold(0.0, f64::max);
    let big_l_max = jobs.iter().map(JobSpec::slot_time).fold(0.0, f64::max);
    2.0 * l_max + big_l_max / f64::from(slots)
}

/// What happened to one job.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Real completion under CFQ, `f_j`.
    pub completion: f64,
    /// Completion in the GPS reference, `f̄_j`.
    pub gps_completion: f64,
}

/// Runs `jobs` (job `j` has id `j`) on `slots` slots under CFQ.
pub fn run(slots: u32, jobs: &[JobSpec]) -> Vec<Outcome> {
    let n = jobs.len();
    let start = jobs.iter().map(|j| j.arrival).fold(0.0, f64::min);
    let mut memory = CfqMemory::new(n);
    let mut cfq = memory.cfq(slots, start).unwrap();

    let mut by_arrival: Vec<usize> = (0..n).collect();
    by_arrival.sort_by(|&a, &b| jobs[a].arrival.total_cmp(&jobs[b].arrival));
    let mut arrivals = by_arrival.into_iter().peekable();
    // Running tasks by finish time (non-negative floats order like their bits).
    let mut running: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut next_task = vec![0; n];
    let mut unfinished: Vec<usize> = jobs.iter().map(|j| j.tasks.len()).collect();
    let mut completion = vec![f64::NAN; n];
    let mut free = slots as usize;
    let mut given = vec![0; slots as usize];
    let mut now = start;

    loop {
        let next_finish = running.peek().map(|Reverse((t, _))| f64::from_bits(*t));
        let next_arrival = arrivals.peek().map(|&j| jobs[j].arrival);
        now = match (next_finish, next_arrival) {
            (None, None) => break,
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
        };
        while let Some(&Reverse((t, j))) = running.peek() {
            if f64::from_bits(t) != now {
                break;
            }
            running.pop();
            free += 1;
            unfinished[j] -= 1;
            if unfinished[j] == 0 {
                completion[j] = now;
                cfq.complete(now, j as u64).unwrap();
            }
        }
        while let Some(&j) = arrivals.peek() {
            if jobs[j].arrival != now {
                break;
            }
            arrivals.next();
            cfq.arrive(now, j as u64, jobs[j].slot_time(), jobs[j].weight)
                .unwrap();
            cfq.set_pending(j as u64, jobs[j].tasks.len() as u32)
                .unwrap();
        }
        let assigned = cfq.offer(&mut given[..free]);
        for &id in &given[..assigned] {
            let j = id as usize;
            let finish = now + jobs[j].tasks[next_task[j]];
            next_task[j] += 1;
            running.push(Reverse((finish.to_bits(), j)));
        }
        free -= assigned;
    }

    // GPS completes everything within the total work of the last jobs, on at least one slot.
    let total: f64 = jobs.iter().map(JobSpec::slot_time).sum();
    cfq.advance(now + total + 1.0).unwrap();
    (0..n)
        .map(|j| Outcome {
            completion: completion[j],
            gps_completion: cfq.job(j as u64).unwrap().gps_completion.unwrap(),
        })
        .collect()
}
