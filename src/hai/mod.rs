//! HAI: ReB's heuristic allocation initialization (Hu, Li, Guo: *Balance Resource Allocation for
//! Spark Jobs Based on Prediction of the Optimal Resource*, Tsinghua Science and Technology
//! 25(4), 2020).
//!
//! A batch of Spark-like jobs shares `C` cores. Each job's completion time (JCT) depends on its
//! allocation and is not monotone: too few cores and it crawls, too many and system overheads
//! take over (§1, Fig. 1). ReB predicts every job's JCT table over the allocations `0, θ, 2θ, …,
//! cap_j` ([`Batch`]) and minimizes the average JCT in two steps:
//!
//! 1. **Shortest-job-optimal** (Algorithm 1, §4.2): jobs in increasing `D_j`, the least JCT
//!    they can reach (ties: lower index), each given `A_opt_j`, the smallest allocation
//!    reaching it, while cores last; the first job that does not fit gets the rest, rounded down
//!    to a multiple of `θ`, and the later ones nothing. Optimal for a few jobs, starving for the
//!    others: with four jobs of optimum 40 on 120 cores, one waits (§4.2, Fig. 3).
//! 2. **HAI transfers** (Algorithm 2, §4.3): the jobs that got their optimum (J1) give `θ`
//!    cores at a time to the others (J2), from the donor whose JCT rises least to the acceptor
//!    whose JCT falls most, while the fall exceeds the rise. `Σ JCT` never increases, and the
//!    loop ends within `Σ_{J1} A_opt_j / θ` transfers (Theorem 1, §4.4). The split is made
//!    once; donors and acceptors wait in loser trees, so a transfer costs O(log n) instead of
//!    the paper's O(n) rescan, and the whole call O(Σ table lengths + (n + transfers) log n).
//!
//! [`Hai::shortest_job_optimal`] stops after step 1; [`Hai::allocate`] runs both;
//! [`Hai::rebalance`] runs both from a current allocation, for a scheduler reacting to a job
//! arriving or leaving (see its documentation for exactly what it keeps).
//!
//! The tables come from a predictor. ReB's predicts the difference of two allocations' JCTs
//! (§3.3), not JCTs: [`table_from_differences`] builds a table from those differences and one
//! known JCT; [`table_from_samples`] fits Ernest's model to a few measured runs instead, and
//! [`table_from_ernest`] tabulates a model.
//!
//! HAI is a heuristic: the problem is NP-hard (§4.3), and the split can leave cores where a
//! better allocation exists (tests/hai_exhaustive.rs measures the gap on small cases).
//!
//! Memory: a call works in one row, one number and two heap slots per job (60 bytes), either owned
//! ([`Inline`], sized by a const generic) or the caller's slices ([`Borrowed`]). They are
//! scratch: nothing survives from one call to the next. The tables and outputs are the
//! caller's slices. A rejected call writes none of its outputs.
//!
//! Ties, in every ordering: equal keys go to the lower job index. JCT
//! differences are compared as computed (`JCT(a - θ) - JCT(a)` against `JCT(a) - JCT(a + θ)`),
//! so results are bit-identical on every platform.

mod init;
mod predict;
mod storage;
mod table;
mod transfer;
mod tree;

pub use predict::{table_from_differences, table_from_ernest, table_from_samples};
pub use storage::{Borrowed, Inline, Slot, HEAPS};
pub use table::{Batch, JobRow, MAX_JCT, VACANT_ROW};

use crate::table::{PartsMut, Storage};
use crate::{Error, Result};
use table::Tables;

/// What a call did, besides the allocation it wrote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// `Σ_j JCT_j(A_j)` before the first transfer: after the shortest-job-optimal start (or,
    /// for a rebalance, after the free cores were handed out). `+∞` while a job waits.
    pub jct_sum_start: f64,
    /// `Σ_j JCT_j(A_j)` of the allocation written; at most `jct_sum_start`.
    pub jct_sum: f64,
    /// Cores moved, in steps of `θ`.
    pub transfers: u32,
}

/// ReB's allocator over storage `S` (see [`Inline`] and [`Borrowed`]), which holds its scratch
/// for up to [`Hai::capacity`] jobs.
pub struct Hai<S: Storage<JobRow, HEAPS>> {
    storage: S,
}

/// Which steps a call runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Steps {
    /// Algorithm 1 alone, from no allocation.
    StartOnly,
    /// Algorithms 1 and 2, from no allocation.
    StartAndTransfer,
    /// Algorithms 1 and 2, from the allocation given.
    Rebalance,
}

impl<const N: usize> Hai<Inline<N>> {
    /// An allocator for batches of up to `N` jobs ([`crate::table::check_capacity`]).
    pub fn new() -> Result<Self> {
        Self::with_storage(Inline::new())
    }
}

impl<S: Storage<JobRow, HEAPS>> Hai<S> {
    /// An allocator working in `storage`, whose capacity is its length
    /// ([`crate::table::check_capacity`]).
    pub fn with_storage(storage: S) -> Result<Self> {
        crate::table::check_capacity(storage.capacity())?;
        Ok(Hai { storage })
    }

    /// The most jobs a call can take.
    pub fn capacity(&self) -> usize {
        self.storage.capacity()
    }

    /// The shortest-job-optimal allocation (Algorithm 1): writes each job's allocation in cores
    /// into `cores` and its predicted JCT into `jct` (one per job each).
    ///
    /// Errors: as [`Hai::allocate`].
    pub fn shortest_job_optimal(
        &mut self,
        batch: &Batch,
        cores: &mut [u32],
        jct: &mut [f64],
    ) -> Result<Summary> {
        self.run(batch, cores, jct, Steps::StartOnly)
    }

    /// ReB's allocation: the shortest-job-optimal start, then the HAI transfers (Algorithms 1
    /// and 2). Writes each job's allocation in cores into `cores` and its predicted JCT into
    /// `jct`.
    ///
    /// Errors, in this order (the first that applies is returned; nothing is written):
    /// - [`Error::LengthMismatch`]: `cores` or `jct` does not hold one value per job;
    /// - [`Error::NotPositive`]: `θ` is zero, or the capacity is below `θ`;
    /// - [`Error::CapacityFull`]: more jobs than [`Hai::capacity`];
    /// - job by job, in index order: [`Error::NotPositive`] for a cap of zero,
    ///   [`Error::OutOfRange`] for a cap that is not a multiple of `θ`,
    ///   [`Error::LengthMismatch`] for a table running past the end of [`Batch::jct`], then for
    ///   its values [`Error::NotFinite`] (NaN, `-∞`, or `+∞` at an allocation of `θ` or more),
    ///   [`Error::NotPositive`] (zero or negative) and [`Error::OutOfRange`] (above
    ///   [`MAX_JCT`]);
    /// - [`Error::LengthMismatch`]: values left in [`Batch::jct`] after the last table.
    pub fn allocate(
        &mut self,
        batch: &Batch,
        cores: &mut [u32],
        jct: &mut [f64],
    ) -> Result<Summary> {
        self.run(batch, cores, jct, Steps::StartAndTransfer)
    }

    /// Rebalances from the allocation in `cores` (in cores, one per job), in place, after a job
    /// arrived (add it with 0 cores) or left (drop it; its cores become free), or when the
    /// capacity changed. Writes the new allocation into `cores` and each job's predicted JCT
    /// into `jct`.
    ///
    /// What "from the current allocation" means:
    /// 1. every job keeps what it holds;
    /// 2. the free cores (`C - Σ_j cores_j`) go to the jobs below their optimum, as the
    ///    shortest-job-optimal start hands them out: by increasing `D_j`, each up to
    ///    `A_opt_j`, the first that does not fit gets the rest rounded down to a multiple of
    ///    `θ`;
    /// 3. the transfers run with the split recomputed from this state: the acceptors (J2) are
    ///    the jobs that held no cores when the call began and are still below their optimum;
    ///    every other job, and so every running job, is a donor (J1).
    ///
    /// So an arriving job takes what is free and then, if that is not its optimum, cores from
    /// the running jobs while that lowers `Σ JCT`; cores a departing job frees go to the jobs
    /// below their optimum, shortest first; a running job keeps at least `θ`; and cores never
    /// move between two running jobs (no churn). A capacity below what the jobs hold is an
    /// error: take cores back first. From no allocation at all this is exactly
    /// [`Hai::allocate`]; to re-plan everything instead, call [`Hai::allocate`].
    ///
    /// Errors: those of [`Hai::allocate`], in the same order, where a job's checks end
    /// with [`Error::OutOfRange`] for an allocation above its cap or not a multiple of `θ`; then
    /// [`Error::OutOfRange`] if the allocations add up to more than the capacity.
    pub fn rebalance(
        &mut self,
        batch: &Batch,
        cores: &mut [u32],
        jct: &mut [f64],
    ) -> Result<Summary> {
        self.run(batch, cores, jct, Steps::Rebalance)
    }

    /// Checks everything, then runs `steps` and writes the outputs.
    fn run(
        &mut self,
        batch: &Batch,
        cores: &mut [u32],
        jct: &mut [f64],
        steps: Steps,
    ) -> Result<Summary> {
        let n = batch.caps.len();
        if cores.len() != n || jct.len() != n {
            return Err(Error::LengthMismatch);
        }
        let capacity = self.capacity();
        let PartsMut {
            rows,
            heaps: [donors, acceptors],
            ..
        } = self.storage.parts_mut();
        let current = (steps == Steps::Rebalance).then_some(&*cores);
        let free = table::load(batch, current, rows.get_mut(..capacity).unwrap_or_default())?;

        // Everything is checked: from here on nothing fails.
        let tables = Tables::new(batch);
        let rows = rows.get_mut(..n).unwrap_or_default();
        let donors = donors.get_mut(..n).unwrap_or_default();
        let acceptors = acceptors.get_mut(..n).unwrap_or_default();
        init::fill(tables, rows, donors, free);
        let jct_sum_start = tables.total(rows);
        let transfers = match steps {
            Steps::StartOnly => 0,
            Steps::StartAndTransfer | Steps::Rebalance => {
                transfer::transfer(tables, rows, donors, acceptors)
            }
        };
        for ((row, cores), jct) in rows.iter().zip(cores).zip(jct) {
            *cores = row.steps.saturating_mul(batch.theta);
            *jct = tables.now(row);
        }
        Ok(Summary {
            jct_sum_start,
            jct_sum: tables.total(rows),
            transfers,
        })
    }
}
