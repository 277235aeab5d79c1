//! "Drain and re-enter": the steady state of a busy CFQ scheduler.
//!
//! `jobs` jobs arrive at t = 0 with slot-times `1 + (i * 7919 % 10007)` (weight 1, id `i`).
//! Jobs `0..backlogged` have one pending task each; the rest wait, idle, in a FIFO. One step
//! gives `k` slots: each drains the backlogged job with the smallest key (CFQ's pick), then as
//! many idle jobs re-enter the backlog from the front of the FIFO (the update the decisions
//! cause: new stages arriving), and the drained jobs join its back. The backlog size is
//! constant, so every step costs the same.

use fairsched::cfq::{Borrowed, Cfq};
use std::collections::VecDeque;

/// The tests' heap storage, shared rather than copied.
pub use fairsched_testkit::memory::{CfqMemory, Memory};

/// Slot-time of job `i`: spread over 1..=10007 by a multiplicative pattern.
pub fn slot_time(i: u64) -> f64 {
    1.0 + ((i * 7919) % 10007) as f64
}

/// The CFQ side of the workload.
pub struct DrainAndReenter<'a> {
    cfq: Cfq<Borrowed<'a>>,
    idle: VecDeque<u64>,
    given: Vec<u64>,
    ones: Vec<u32>,
    reentering: Vec<u64>,
}

impl<'a> DrainAndReenter<'a> {
    /// `jobs` jobs of which `backlogged` wait for slots; steps give up to `k` slots.
    pub fn new(memory: &'a mut CfqMemory, jobs: u64, backlogged: u64, k: usize) -> Self {
        Self::with_pending(memory, jobs, backlogged, k, 1)
    }

    /// As [`DrainAndReenter::new`], each backlogged job with `pending` tasks.
    pub fn with_pending(
        memory: &'a mut CfqMemory,
        jobs: u64,
        backlogged: u64,
        k: usize,
        pending: u32,
    ) -> Self {
        let mut cfq = memory.cfq(1000, 0.0).expect("valid configuration");
        for i in 0..jobs {
            cfq.arrive(0.0, i, slot_time(i), 1)
                .expect("room for every job");
        }
        for i in 0..backlogged {
            cfq.set_pending(i, pending).expect("known job");
        }
        DrainAndReenter {
            cfq,
            idle: (backlogged..jobs).collect(),
            given: vec![0; k],
            ones: vec![1; k],
            reentering: Vec::with_capacity(k),
        }
    }

    /// One decision with single calls: `offer` one slot, one job re-enters.
    pub fn decide_one(&mut self) -> u64 {
        let given = &mut self.given[..1];
        self.cfq.offer(given);
        let drained = given[0];
        let next = self.idle.pop_front().expect("the FIFO is never empty");
        self.cfq.set_pending(next, 1).expect("known job");
        self.idle.push_back(drained);
        drained
    }

    /// One decision on a job that keeps tasks waiting (the common case of a wide stage): the
    /// pick and a decrement, the backlog unchanged. Call on a workload built with
    /// [`DrainAndReenter::with_pending`].
    pub fn decide_keep(&mut self) -> u64 {
        let given = &mut self.given[..1];
        self.cfq.offer(given);
        given[0]
    }

    /// `k` decisions with batch calls: one `offer`, one `set_pending_batch`.
    pub fn decide_batch(&mut self) -> usize {
        let n = self.cfq.offer(&mut self.given);
        self.reentering.clear();
        self.reentering.extend(self.idle.drain(..n));
        self.cfq
            .set_pending_batch(&self.reentering, &self.ones[..n])
            .expect("known jobs");
        self.idle.extend(&self.given[..n]);
        n
    }
}

/// The baseline: what Spark's `FairSchedulingAlgorithm` path does on every offer. It collects
/// the schedulable jobs (in insertion order, as `Pool.getSortedTaskSetQueue` does), sorts them
/// with the comparator, and takes the first with a pending task. Same jobs, same keys, same
/// answers as [`DrainAndReenter::decide_one`].
pub struct ResortEveryOffer {
    jobs: Vec<(f64, u64, u32)>,
    idle: VecDeque<u64>,
    sorted: Vec<(f64, u64)>,
}

impl ResortEveryOffer {
    pub fn new(jobs: u64, backlogged: u64) -> Self {
        ResortEveryOffer {
            jobs: (0..jobs)
                .map(|i| (slot_time(i), i, u32::from(i < backlogged)))
                .collect(),
            idle: (backlogged..jobs).collect(),
            sorted: Vec::with_capacity(jobs as usize),
        }
    }

    /// One decision: collect, sort, pick; then the same update as CFQ's.
    pub fn decide_one(&mut self) -> u64 {
        self.sorted.clear();
        self.sorted.extend(
            self.jobs
                .iter()
                .filter(|&&(_, _, pending)| pending > 0)
                .map(|&(finish, id, _)| (finish, id)),
        );
        self.sorted
            .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let drained = self.sorted[0].1;
        self.jobs[drained as usize].2 -= 1;
        let next = self.idle.pop_front().expect("the FIFO is never empty");
        self.jobs[next as usize].2 = 1;
        self.idle.push_back(drained);
        drained
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The baseline answers exactly as CFQ does, so the comparison is fair.
    #[test]
    fn baseline_and_cfq_decide_alike() {
        let mut memory = CfqMemory::new(300);
        let mut cfq = DrainAndReenter::new(&mut memory, 300, 150, 1);
        let mut baseline = ResortEveryOffer::new(300, 150);
        for _ in 0..2000 {
            assert_eq!(cfq.decide_one(), baseline.decide_one());
        }
    }
}
