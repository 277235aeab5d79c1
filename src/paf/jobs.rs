//! The jobs PAF allocates among: a weight and a progress curve each, seen through [`Jobs`].
//!
//! A job may have no curve (§IV-A, "Curve Preparation": "for those jobs, we simply allocate
//! them the fair share and exclude them from the slot transferring process"): it has a weight
//! and a demand only, gets exactly its weighted max-min fair share, and neither gives nor takes
//! slots in Algorithm 1. Its progress is unknown (NaN in the per-job outputs).
//!
//! Two views: a slice of [`Job`]s, whose curves were checked once when built (Rust callers
//! who allocate many times over the same curves), and [`FlatJobs`], the C ABI's flat arrays,
//! checked on every call.

use super::curve::{self, Curve};
use crate::{Error, Result};

/// One job: its weight in the fair share and its progress curve (the curve's length fixes its
/// demand), or, for a job without a curve, its demand alone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job<'a> {
    weight: u32,
    /// [`Curve::NONE`] for a job without a curve: one less branch on every read of the points
    /// than an `Option` (whose `None` reads as no points anyway), which the allocation does a
    /// thousand times and more for 200 jobs.
    curve: Curve<'a>,
    demand: u32,
}

impl<'a> Job<'a> {
    /// A job of `weight` (at least 1, else [`Error::NotPositive`]: a job with no share would
    /// have no fair allocation to protect).
    pub fn new(weight: u32, curve: Curve<'a>) -> Result<Self> {
        Self::checked(weight, curve, curve.demand())
    }

    /// A job of `weight` (as [`Job::new`]) and `demand` slots whose progress curve is unknown:
    /// it keeps exactly its fair share and takes no part in transfers (§IV-A).
    pub fn without_curve(weight: u32, demand: u32) -> Result<Self> {
        Self::checked(weight, Curve::NONE, demand)
    }

    fn checked(weight: u32, curve: Curve<'a>, demand: u32) -> Result<Self> {
        if weight == 0 {
            return Err(Error::NotPositive);
        }
        Ok(Job {
            weight,
            curve,
            demand,
        })
    }

    /// The job's weight.
    pub fn weight(&self) -> u32 {
        self.weight
    }

    /// The job's curve, `None` for a job without one.
    pub fn curve(&self) -> Option<Curve<'a>> {
        Some(self.curve).filter(|curve| !curve.points().is_empty())
    }

    /// The job's demand: slots beyond it add nothing.
    pub fn demand(&self) -> u32 {
        self.demand
    }
}

/// Read access to checked jobs, by index `0..len()`.
pub trait Jobs {
    /// Number of jobs.
    fn len(&self) -> usize;
    /// Whether there is no job.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Weight of job `job` (at least 1).
    fn weight(&self, job: usize) -> u32;
    /// Checked table `p(0..=d)` of job `job`; empty for a job without a curve.
    fn points(&self, job: usize) -> &[f64];
    /// [`curve::concave_from`] of job `job`'s curve (0 without a curve).
    fn concave_from(&self, job: usize) -> u32;
    /// Whether job `job`'s curve is concave on `x..=d` (`concave_from(job) <= x`; true without
    /// a curve).
    fn concave_above(&self, job: usize, x: u32) -> bool {
        self.concave_from(job) <= x
    }
    /// Demand `d` of job `job`, with or without a curve.
    fn demand(&self, job: usize) -> u32;
    /// Whether job `job` has a curve (a checked curve has at least one point).
    fn has_curve(&self, job: usize) -> bool {
        !self.points(job).is_empty()
    }
}

// `#[inline]`: `Paf::allocate` is generic, so it is compiled in the caller's crate, where these
// accessors, called for every increment the allocation probes, would otherwise stay calls.
impl Jobs for [Job<'_>] {
    #[inline]
    fn len(&self) -> usize {
        <[Job<'_>]>::len(self)
    }
    #[inline]
    fn weight(&self, job: usize) -> u32 {
        self.get(job).map_or(1, |j| j.weight)
    }
    #[inline]
    fn points(&self, job: usize) -> &[f64] {
        self.get(job).map_or(&[], |j| j.curve.points())
    }
    #[inline]
    fn concave_from(&self, job: usize) -> u32 {
        self.get(job).map_or(0, |j| j.curve.concave_from())
    }
    #[inline]
    fn demand(&self, job: usize) -> u32 {
        self.get(job).map_or(0, |j| j.demand)
    }
}

/// Jobs as flat arrays, the layout of the C ABI: `weights[j]`, and job `j`'s curve
/// `p(0..=d_j)` at `points[offsets[j]..offsets[j + 1]]` (so `offsets` has one entry more than
/// `weights`, starts at 0 and ends at `points.len()`; the curves are concatenated in job order).
/// A job without a curve (§IV-A) has `d_j + 1` points that are all NaN ("progress unknown"):
/// its range still gives its demand, and no checked curve contains a NaN.
#[derive(Clone, Copy, Debug)]
pub struct FlatJobs<'a> {
    weights: &'a [u32],
    offsets: &'a [u32],
    points: &'a [f64],
}

impl<'a> FlatJobs<'a> {
    /// Checks every job: [`Error::LengthMismatch`] unless `offsets.len() == weights.len() + 1`,
    /// `offsets[0] == 0` and the last offset is `points.len()`; [`Error::NotMonotone`] for a
    /// decreasing offset; [`Error::NotPositive`] for a weight of 0; then each curve as
    /// [`curve::check`] (an empty one is [`Error::Empty`]), unless every one of its points is
    /// NaN (a job without a curve).
    pub fn new(weights: &'a [u32], offsets: &'a [u32], points: &'a [f64]) -> Result<Self> {
        let ends = (offsets.first(), offsets.last());
        if offsets.len() != weights.len().saturating_add(1)
            || ends.0 != Some(&0)
            || ends.1.map(|&end| end as usize) != Some(points.len())
        {
            return Err(Error::LengthMismatch);
        }
        if weights.contains(&0) {
            return Err(Error::NotPositive);
        }
        for pair in offsets.windows(2) {
            let (start, end) = match *pair {
                [start, end] => (start as usize, end as usize),
                _ => continue,
            };
            let table = points.get(start..end).ok_or(Error::NotMonotone)?;
            if table.is_empty() || !table.iter().all(|p| p.is_nan()) {
                curve::check(table)?;
            }
        }
        Ok(FlatJobs {
            weights,
            offsets,
            points,
        })
    }
}

impl FlatJobs<'_> {
    /// Job `job`'s range of `points`: its curve, or NaNs for a job without one.
    fn range(&self, job: usize) -> &[f64] {
        let start = self.offsets.get(job).copied().unwrap_or_default() as usize;
        let end = self
            .offsets
            .get(job.saturating_add(1))
            .copied()
            .unwrap_or_default() as usize;
        self.points.get(start..end).unwrap_or(&[])
    }
}

impl Jobs for FlatJobs<'_> {
    fn len(&self) -> usize {
        self.weights.len()
    }
    fn weight(&self, job: usize) -> u32 {
        self.weights.get(job).copied().unwrap_or(1)
    }
    /// Empty for a job without a curve (its range, checked, starts with NaN only then).
    fn points(&self, job: usize) -> &[f64] {
        let range = self.range(job);
        if range.first().is_some_and(|p| p.is_nan()) {
            return &[];
        }
        range
    }
    fn demand(&self, job: usize) -> u32 {
        self.range(job).len().saturating_sub(1) as u32
    }
    /// Walks the curve: O(d) per call.
    fn concave_from(&self, job: usize) -> u32 {
        curve::concave_from(self.points(job))
    }
    /// Walks the curve above `x` only: O(d - x), once per job and allocation.
    fn concave_above(&self, job: usize, x: u32) -> bool {
        curve::concave_above(self.points(job), x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_layout_is_checked() {
        let points = [0.0, 1.0, 0.0, 0.5, 0.6];
        assert!(FlatJobs::new(&[1, 2], &[0, 2, 5], &points).is_ok());
        let fails = |w: &[u32], o: &[u32], p: &[f64]| FlatJobs::new(w, o, p).err();
        assert_eq!(
            fails(&[1, 2], &[0, 2], &points),
            Some(Error::LengthMismatch)
        );
        assert_eq!(
            fails(&[1, 2], &[1, 2, 5], &points),
            Some(Error::LengthMismatch)
        );
        assert_eq!(
            fails(&[1, 2], &[0, 2, 4], &points),
            Some(Error::LengthMismatch)
        );
        assert_eq!(
            fails(&[1, 2], &[0, 3, 2], &points[..2]),
            Some(Error::NotMonotone)
        );
        assert_eq!(fails(&[1, 2], &[0, 2, 2], &points[..2]), Some(Error::Empty));
        assert_eq!(
            fails(&[0, 2], &[0, 2, 5], &points),
            Some(Error::NotPositive)
        );
        assert_eq!(
            fails(&[1, 2], &[0, 3, 5], &points),
            Some(Error::NotMonotone)
        );
        assert!(FlatJobs::new(&[], &[0], &[]).is_ok());
        let jobs = FlatJobs::new(&[1, 2], &[0, 2, 5], &points).unwrap();
        assert_eq!((jobs.demand(0), jobs.demand(1)), (1, 2));
        assert_eq!(jobs.points(1), &[0.0, 0.5, 0.6]);
        assert!(jobs.has_curve(0) && jobs.has_curve(1));

        // All NaN: a job without a curve of demand 2; NaN among numbers is still no curve.
        let nan = f64::NAN;
        let points = [0.0, 1.0, nan, nan, nan];
        let jobs = FlatJobs::new(&[1, 2], &[0, 2, 5], &points).unwrap();
        assert_eq!(
            (jobs.demand(1), jobs.points(1), jobs.has_curve(1)),
            (2, &[][..], false)
        );
        assert_eq!(jobs.concave_from(1), 0);
        assert_eq!(
            fails(&[1, 2], &[0, 2, 5], &[0.0, 1.0, nan, 0.5, nan]),
            Some(Error::NotFinite)
        );
        assert_eq!(
            fails(&[1, 2], &[0, 2, 5], &[0.0, 1.0, 0.0, nan, nan]),
            Some(Error::NotFinite)
        );
    }

    #[test]
    fn jobs_without_curves_have_a_demand_only() {
        let points = [0.0, 0.5];
        let jobs = [
            Job::new(2, Curve::new(&points).unwrap()).unwrap(),
            Job::without_curve(3, 7).unwrap(),
        ];
        assert_eq!(Job::without_curve(0, 7), Err(Error::NotPositive));
        assert_eq!(
            (jobs[1].weight(), jobs[1].demand(), jobs[1].curve()),
            (3, 7, None)
        );
        let view: &[Job] = &jobs;
        assert_eq!((view.demand(0), view.has_curve(0)), (1, true));
        assert_eq!(
            (view.demand(1), view.has_curve(1), view.points(1)),
            (7, false, &[][..])
        );
        assert_eq!(view.concave_from(1), 0);
    }
}
