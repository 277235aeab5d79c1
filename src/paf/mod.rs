//! PAF: Performance-Aware Fair scheduling (Chen, Wang, Li: *Performance-Aware Fair Scheduling:
//! Exploiting Demand Elasticity of Data Analytics Jobs*, IEEE INFOCOM 2018).
//!
//! Jobs are elastic: most run nearly as fast on far fewer slots than they ask for (§II). PAF
//! starts from the weighted max-min fair share and moves slots from jobs that barely notice
//! the loss to jobs that gain the most, while every job keeps at least an `α` fraction of the
//! progress it would make at its fair share (§III-A). With concave progress curves the result
//! maximizes total progress under that constraint (problem (1), Theorem 1).
//!
//! The pieces, one module each:
//! - [`curve`]: progress curves `p(0..=d)` (tables), concavity, the upper concave envelope;
//! - [`ernest`]: Ernest's model `p(x) = 1 / (a0 + a1 x + a2 / x + a3 ln x)` (§IV-A), fitted
//!   by non-negative least squares, tabulated into a curve;
//! - [`profile`]: a curve from a job's observed task durations, exactly (list scheduling on
//!   `x` slots with JVM warm-up, §II-B), and the JCT on any number of slots;
//! - [`Job`], [`FlatJobs`] and the [`Jobs`] view over either;
//! - fair shares (water-filling in whole slots), minimum allocations and Algorithm 1
//!   ([`Paf::allocate`]), literal or fast, with identical results;
//! - enforcement (§IV-B): which jobs get `k` free slots ([`Paf::enforce`]);
//! - jobs without a curve (§IV-A, [`Job::without_curve`]): their fair share, no transfers.
//!
//! A [`Paf`] is only scratch space: capacity for `N` jobs, fixed at construction ([`Inline`]
//! for Rust callers, [`Borrowed`] for memory the caller provides). Every call validates its
//! input first and, on error, writes nothing.
//!
//! **Non-concave curves.** Algorithm 1 still stops (every transfer strictly raises total
//! progress, so no allocation repeats) but is then a heuristic: a job may give and later take,
//! and the result need not solve problem (1). [`Method::Fast`] still returns exactly what
//! [`Method::Literal`] does. To get Theorem 1's guarantee back, allocate on the curves'
//! [`curve::concave_envelope`]s, which is optimal for the envelopes.

pub mod curve;
mod enforce;
pub mod ernest;
mod fair_share;
mod jobs;
pub mod profile;
mod storage;
mod transfer;

pub use curve::{Curve, MAX_PROGRESS};
pub use ernest::Ernest;
pub use jobs::{FlatJobs, Job, Jobs};
pub use storage::{Borrowed, Inline, HEAPS};
pub use transfer::Bracket;

use crate::heap::HeapSlot;
use crate::num;
use crate::table::{self, PartsMut, Storage};
use crate::{Error, Result};
use transfer::Step;

/// How [`Paf::allocate`] runs Algorithm 1. Both give the same allocation, bit for bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The paper's loop, one slot per transfer, with indexed heaps: O(M log N). The reference.
    Literal,
    /// A selection by threshold when every curve is concave above its minimum allocation;
    /// otherwise the paper's loop moving blocks of slots between curve breakpoints.
    Fast,
}

/// Where [`Paf::allocate`] writes its per-job results: five slices, each as long as the jobs.
pub struct Allocation<'a> {
    /// Fair share (weighted max-min, whole slots).
    pub fair: &'a mut [u32],
    /// `minAlloc`: the fewest slots keeping `α` of the progress at the fair share.
    pub min: &'a mut [u32],
    /// PAF allocation: Algorithm 1's result.
    pub paf: &'a mut [u32],
    /// Progress at the fair share.
    pub fair_progress: &'a mut [f64],
    /// Progress at the PAF allocation.
    pub paf_progress: &'a mut [f64],
}

/// The allocation as a whole, against fair sharing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Slots allocated, the same under both (`min(slots, Σ demands)`).
    pub slots: u64,
    /// Slots moved from givers to takers.
    pub moved: u64,
    /// Total progress at the fair shares.
    pub fair_progress: f64,
    /// Total progress at the PAF allocations (never below `fair_progress`).
    pub paf_progress: f64,
    /// The largest relative loss of a job, `1 - p(paf) / p(fair)` (0 when none loses; at
    /// most `1 - α`).
    pub largest_loss: f64,
}

/// A PAF workspace over storage `S` (see [`Inline`] and [`Borrowed`]).
pub struct Paf<S: Storage<Bracket, HEAPS>> {
    storage: S,
}

impl<const N: usize> Paf<Inline<N>> {
    /// A workspace for calls of up to `N` jobs ([`table::check_capacity`]).
    pub fn new() -> Result<Self> {
        Self::with_storage(Inline::new())
    }
}

impl<S: Storage<Bracket, HEAPS>> Paf<S> {
    /// A workspace over `storage`, whose capacity is its length ([`table::check_capacity`]).
    pub fn with_storage(storage: S) -> Result<Self> {
        table::check_capacity(storage.capacity())?;
        Ok(Paf { storage })
    }

    /// The most jobs one call can take.
    pub fn capacity(&self) -> usize {
        self.storage.capacity()
    }

    /// Algorithm 1 for `jobs` sharing `slots` slots with fairness knob `alpha`: fair shares,
    /// minimum allocations, PAF allocations and the progress at each, into `out`.
    ///
    /// Jobs without a curve (§IV-A, [`Job::without_curve`]) count in the fair shares as any job,
    /// then keep them: for such a job `paf = min = fair` and both progresses are NaN; the totals
    /// count only jobs with a curve (`slots` counts every job). Exactly: the other jobs' PAF
    /// allocations are Algorithm 1's on those jobs alone, started from their fair shares among
    /// all jobs (with the minimum allocations of those shares), moving `Σ fair` of theirs.
    ///
    /// Errors: [`Error::NotPositive`] for 0 slots; [`Error::NotFinite`] or
    /// [`Error::OutOfRange`] for an `alpha` outside `[0, 1]`; [`Error::CapacityFull`] for more
    /// jobs than the capacity; [`Error::LengthMismatch`] unless every slice of `out` is as long
    /// as the jobs. (The jobs were checked when their view was built.)
    pub fn allocate<J: Jobs + ?Sized>(
        &mut self,
        jobs: &J,
        slots: u32,
        alpha: f64,
        method: Method,
        out: Allocation<'_>,
    ) -> Result<Totals> {
        if slots == 0 {
            return Err(Error::NotPositive);
        }
        if !(0.0..=1.0).contains(&num::finite(alpha)?) {
            return Err(Error::OutOfRange);
        }
        let n = jobs.len();
        if n > self.capacity() {
            return Err(Error::CapacityFull);
        }
        let Allocation {
            fair,
            min,
            paf,
            fair_progress,
            paf_progress,
        } = out;
        if [
            fair.len(),
            min.len(),
            paf.len(),
            fair_progress.len(),
            paf_progress.len(),
        ]
        .iter()
        .any(|&len| len != n)
        {
            return Err(Error::LengthMismatch);
        }

        let PartsMut {
            rows: brackets,
            numbers: order,
            heaps,
            ..
        } = self.storage.parts_mut();
        fair_share::fair_shares(jobs, slots, order, fair);
        // A job without a curve can give nothing (its minimum is its fair share) and takes
        // nothing (no points: every benefit is 0, never above a sacrifice): §IV-A. The
        // progress at the fair share, which the minimum starts from, is kept for the totals.
        for (j, ((m, p), &f)) in min
            .iter_mut()
            .zip(fair_progress.iter_mut())
            .zip(fair.iter())
            .enumerate()
        {
            // A job has a curve when it has points ([`Jobs::has_curve`]), asked once per job.
            let points = jobs.points(j);
            (*m, *p) = if points.is_empty() {
                (f, f64::NAN)
            } else {
                transfer::min_alloc(points, f, alpha)
            };
        }
        paf.copy_from_slice(fair);
        let [givers, takers] = heaps;
        let (givers, takers) = (
            givers.get_mut(..n).unwrap_or_default(),
            takers.get_mut(..n).unwrap_or_default(),
        );
        match method {
            Method::Literal => transfer::greedy(jobs, min, paf, givers, takers, Step::Slot),
            Method::Fast if transfer::concave_above_min(jobs, min) => {
                transfer::select(jobs, min, paf, brackets)
            }
            Method::Fast => transfer::greedy(jobs, min, paf, givers, takers, Step::Run),
        }

        let mut totals = Totals::default();
        for j in 0..n {
            let (f, x) = (
                fair.get(j).copied().unwrap_or_default(),
                paf.get(j).copied().unwrap_or_default(),
            );
            // No wrap: fewer than 2^32 jobs (the capacity is) add values below 2^32.
            totals.slots = totals.slots.wrapping_add(u64::from(f));
            totals.moved = totals.moved.wrapping_add(u64::from(f.saturating_sub(x)));
            let points = jobs.points(j);
            let has_curve = !points.is_empty();
            let at_fair = fair_progress.get(j).copied().unwrap_or_default();
            let at_paf = if has_curve {
                curve::at(points, x)
            } else {
                f64::NAN
            };
            if let Some(p) = paf_progress.get_mut(j) {
                *p = at_paf;
            }
            if !has_curve {
                continue;
            }
            totals.fair_progress += at_fair;
            totals.paf_progress += at_paf;
            // Only a job that loses can raise the largest loss (0 or more): the others' `1 -
            // at_paf / at_fair` is at most 0, so they skip the division.
            if at_paf < at_fair {
                totals.largest_loss = totals.largest_loss.max(1.0 - at_paf / at_fair);
            }
        }
        Ok(totals)
    }

    /// Which jobs get `out.len()` free slots (§IV-B): each slot to a job below its target,
    /// the one holding the fewest slots per unit of weight (smallest `running[j] /
    /// weights[j]`, as Spark's fair scheduler; ties to the lower index), which then counts it
    /// as running. Writes one job index per slot and returns how many were given, fewer when
    /// every job reaches its target. Re-allocating at every task completion and enforcing this
    /// way gains over fair sharing on the simulator's workload over time, where ordering by
    /// the fraction of the target held loses (see the measurements in `enforce`'s module).
    ///
    /// Errors: [`Error::LengthMismatch`] unless `weights`, `targets` and `running` have the
    /// same length; [`Error::NotPositive`] for a weight of 0; [`Error::CapacityFull`] for more
    /// jobs than the capacity.
    pub fn enforce(
        &mut self,
        weights: &[u32],
        targets: &[u32],
        running: &[u32],
        out: &mut [u32],
    ) -> Result<usize> {
        if targets.len() != running.len() || weights.len() != targets.len() {
            return Err(Error::LengthMismatch);
        }
        if weights.contains(&0) {
            return Err(Error::NotPositive);
        }
        if targets.len() > self.capacity() {
            return Err(Error::CapacityFull);
        }
        let [heap, _] = self.storage.parts_mut().heaps;
        let heap: &mut [HeapSlot<u64>] = heap.get_mut(..targets.len()).unwrap_or_default();
        Ok(enforce::enforce(weights, targets, running, out, heap))
    }
}
