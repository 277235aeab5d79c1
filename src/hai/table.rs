//! A batch of jobs as ReB's predictor describes them (§4.1, §5): one JCT table per job over
//! the allocations `0, θ, 2θ, …, cap_j`, validated and loaded into one row per job.

use crate::num;
use crate::{Error, Result};

/// The largest finite JCT a table may hold: 2^60, in any time unit. Differences and sums of
/// JCTs then stay finite for any number of jobs.
pub const MAX_JCT: f64 = 1_152_921_504_606_846_976.0;

/// A batch of jobs sharing `capacity` cores, allocated in steps of `theta` cores.
///
/// Tables are concatenated in job order: job `j`'s table is the next `cap_j / θ + 1` values of
/// `jct`, `JCT_j(0), JCT_j(θ), …, JCT_j(cap_j)`. `JCT_j(0)` is the completion time if the job
/// gets no core: `+∞` when it waits for cores, or any finite estimate. Every other value is
/// finite and positive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Batch<'a> {
    /// Cores to share, `C`: at least `theta`.
    pub capacity: u32,
    /// The step `θ`: every allocation is a multiple of it. Positive.
    pub theta: u32,
    /// Per job, the largest allocation its table covers, `cap_j`: a positive multiple of `θ`.
    pub caps: &'a [u32],
    /// The JCT tables, concatenated in job order (`Σ_j (cap_j / θ + 1)` values).
    pub jct: &'a [f64],
}

/// What HAI knows about one job while it works: where its table starts, and allocations
/// counted in steps of `θ`. Opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobRow {
    /// Index of `JCT_j(0)` in [`Batch::jct`].
    offset: usize,
    /// `cap_j / θ`.
    pub(super) cap: u32,
    /// `A_opt_j / θ`: the smallest allocation with the least JCT.
    pub(super) opt: u32,
    /// The allocation, `A_j / θ`.
    pub(super) steps: u32,
    /// Whether the job held cores when the call began (see [`super::Hai::rebalance`]).
    pub(super) held: bool,
}

/// The empty value of a [`JobRow`], to fill storage with.
pub const VACANT_ROW: JobRow = JobRow {
    offset: 0,
    cap: 0,
    opt: 0,
    steps: 0,
    held: false,
};

/// Checks `batch` and loads a row per job into `rows`; with `current` (one allocation in
/// cores per job: the caller checked its length), each job starts from it, otherwise from
/// nothing. Returns the steps left free. The checks and their order are those documented on
/// [`super::Hai::allocate`] and [`super::Hai::rebalance`], after the outputs'
/// lengths.
pub(super) fn load(batch: &Batch, current: Option<&[u32]>, rows: &mut [JobRow]) -> Result<u32> {
    let theta = batch.theta;
    if theta == 0 || batch.capacity < theta {
        return Err(Error::NotPositive);
    }
    let rows = rows
        .get_mut(..batch.caps.len())
        .ok_or(Error::CapacityFull)?;
    let mut offset = 0usize;
    let mut held = 0u64;
    for (j, (row, &cap)) in rows.iter_mut().zip(batch.caps).enumerate() {
        if cap == 0 {
            return Err(Error::NotPositive);
        }
        let steps = whole_steps(cap, theta)?;
        let end = offset
            .checked_add(steps as usize)
            .and_then(|last| last.checked_add(1))
            .ok_or(Error::LengthMismatch)?;
        let table = batch.jct.get(offset..end).ok_or(Error::LengthMismatch)?;
        let opt = checked_optimum(table)?;
        let cores = current
            .and_then(|current| current.get(j))
            .copied()
            .unwrap_or(0);
        if cores > cap {
            return Err(Error::OutOfRange);
        }
        held = held.saturating_add(u64::from(cores));
        *row = JobRow {
            offset,
            cap: steps,
            opt,
            steps: whole_steps(cores, theta)?,
            held: cores > 0,
        };
        offset = end;
    }
    if offset != batch.jct.len() {
        return Err(Error::LengthMismatch);
    }
    let free = u64::from(batch.capacity)
        .checked_sub(held)
        .ok_or(Error::OutOfRange)?;
    // At most the capacity, so within u32.
    Ok(free.checked_div(u64::from(theta)).unwrap_or(0) as u32)
}

/// `cores / theta`, or [`Error::OutOfRange`] when `cores` is not a multiple of `theta` (> 0).
fn whole_steps(cores: u32, theta: u32) -> Result<u32> {
    match (cores.checked_div(theta), cores.checked_rem(theta)) {
        (Some(steps), Some(0)) => Ok(steps),
        _ => Err(Error::OutOfRange),
    }
}

/// Checks one table and returns its optimum in steps: the smallest allocation with the least
/// JCT (`A_opt_j = argmin_a JCT_j(a)`).
///
/// A valid table, the common case, costs two tight passes: one for a branch-free validity flag
/// and the least value together, one for the first position of that value. Only an invalid
/// table is walked value by value, to name its first bad value.
fn checked_optimum(table: &[f64]) -> Result<u32> {
    let Some((&waiting, running)) = table.split_first() else {
        return Err(Error::LengthMismatch);
    };
    if waiting != f64::INFINITY {
        checked_jct(waiting)?;
    }
    let (valid, least) = scan(running);
    if !valid {
        for &jct in running {
            checked_jct(jct)?;
        }
    }
    if waiting <= least {
        return Ok(0);
    }
    // A table has at most cap_j / θ + 1 values, so its indices fit u32.
    Ok(first(running, least).saturating_add(1) as u32)
}

/// Whether every value is a valid JCT of a running job (positive, at most [`MAX_JCT`]; NaN is
/// not), and the least of them (`+∞` if there are none; meaningful when they are valid). Kept
/// in four independent lanes, flags and minima: one running minimum would make every
/// comparison wait for the one before, and the lanes compile to vector instructions.
fn scan(values: &[f64]) -> (bool, f64) {
    let min = |least: f64, value: f64| if value < least { value } else { least };
    let good = |value: f64| (value > 0.0) & (value <= MAX_JCT);
    let mut chunks = values.chunks_exact(4);
    let mut lanes = [f64::INFINITY; 4];
    let mut valid = [true; 4];
    for chunk in &mut chunks {
        for ((lane, valid), &value) in lanes.iter_mut().zip(&mut valid).zip(chunk) {
            *lane = min(*lane, value);
            *valid &= good(value);
        }
    }
    let rest = chunks.remainder();
    let least = lanes
        .iter()
        .chain(rest)
        .fold(f64::INFINITY, |least, &value| min(least, value));
    let valid = rest
        .iter()
        .fold(valid.iter().all(|&valid| valid), |valid, &value| {
            valid & good(value)
        });
    (valid, least)
}

/// The position of the first value equal to `value` (0 if there is none), four at a time: a
/// group is tested with one branch-free flag, which compiles to vector comparisons, and only
/// the group holding it is searched.
fn first(values: &[f64], value: f64) -> usize {
    let mut chunks = values.chunks_exact(4);
    let mut at = 0usize;
    for chunk in &mut chunks {
        if chunk
            .iter()
            .fold(false, |hit, &other| hit | (other == value))
        {
            break;
        }
        at = at.saturating_add(4);
    }
    let rest = values.get(at..).unwrap_or_default();
    rest.iter()
        .position(|&other| other == value)
        .map_or(0, |offset| at.saturating_add(offset))
}

/// A finite JCT: positive and at most [`MAX_JCT`].
pub(super) fn checked_jct(jct: f64) -> Result<f64> {
    let jct = num::positive(jct)?;
    if jct > MAX_JCT {
        return Err(Error::OutOfRange);
    }
    Ok(jct)
}

/// The loaded tables: JCTs looked up through the rows.
#[derive(Clone, Copy)]
pub(super) struct Tables<'a> {
    jct: &'a [f64],
}

impl<'a> Tables<'a> {
    /// The tables of a batch whose rows [`load`] filled.
    pub(super) fn new(batch: &Batch<'a>) -> Self {
        Tables { jct: batch.jct }
    }

    /// `JCT_j(steps · θ)`. Total: a step outside the table (which the algorithms never ask
    /// for) reads as `+∞`.
    pub(super) fn at(&self, row: &JobRow, steps: u32) -> f64 {
        row.offset
            .checked_add(steps as usize)
            .and_then(|at| self.jct.get(at))
            .copied()
            .unwrap_or(f64::INFINITY)
    }

    /// The job's JCT at its allocation.
    pub(super) fn now(&self, row: &JobRow) -> f64 {
        self.at(row, row.steps)
    }

    /// `D_j`: the least JCT the job can reach.
    pub(super) fn best(&self, row: &JobRow) -> f64 {
        self.at(row, row.opt)
    }

    /// How much the job's JCT rises when it gives `θ`: `JCT_j(A_j - θ) - JCT_j(A_j)`. Finite
    /// for a job that keeps at least `θ`.
    pub(super) fn rise(&self, row: &JobRow) -> f64 {
        self.at(row, row.steps.saturating_sub(1)) - self.now(row)
    }

    /// How much the job's JCT falls when it gets `θ`: `JCT_j(A_j) - JCT_j(A_j + θ)`; `+∞`
    /// for a job that waits for cores (`JCT_j(0) = +∞`). For a job below its cap.
    pub(super) fn fall(&self, row: &JobRow) -> f64 {
        self.now(row) - self.at(row, row.steps.saturating_add(1))
    }

    /// `Σ_j JCT_j(A_j)`, summed in job order from `+0` (so that no job sums to `0`, not
    /// `-0`); `+∞` while a job waits for cores.
    pub(super) fn total(&self, rows: &[JobRow]) -> f64 {
        rows.iter().fold(0.0, |sum, row| sum + self.now(row))
    }
}
