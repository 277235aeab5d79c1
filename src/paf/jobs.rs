//! The jobs PAF allocates among: a weight and a progress curve each, seen through [`Jobs`].
//!
//! Two views: a slice of [`Job`]s, whose curves were checked once when built (Rust callers
//! who allocate many times over the same curves), and [`FlatJobs`], the C ABI's flat arrays,
//! checked on every call.

use super::curve::{self, Curve};
use crate::{Error, Result};

/// One job: its weight in the fair share and its progress curve (the curve's length fixes its
/// demand).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job<'a> {
    weight: u32,
    curve: Curve<'a>,
}

impl<'a> Job<'a> {
    /// A job of `weight` (at least 1, else [`Error::NotPositive`]: a job with no share would
    /// have no fair allocation to protect).
    pub fn new(weight: u32, curve: Curve<'a>) -> Result<Self> {
        if weight == 0 {
            return Err(Error::NotPositive);
        }
        Ok(Job { weight, curve })
    }

    /// The job's weight.
    pub fn weight(&self) -> u32 {
        self.weight
    }

    /// The job's curve.
    pub fn curve(&self) -> Curve<'a> {
        self.curve
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
    /// Checked table `p(0..=d)` of job `job`.
    fn points(&self, job: usize) -> &[f64];
    /// [`curve::concave_from`] of job `job`'s curve.
    fn concave_from(&self, job: usize) -> u32;
    /// Demand `d` of job `job`.
    fn demand(&self, job: usize) -> u32 {
        self.points(job).len().saturating_sub(1) as u32
    }
}

impl Jobs for [Job<'_>] {
    fn len(&self) -> usize {
        <[Job<'_>]>::len(self)
    }
    fn weight(&self, job: usize) -> u32 {
        self.get(job).map_or(1, |j| j.weight)
    }
    fn points(&self, job: usize) -> &[f64] {
        self.get(job).map_or(&[0.0], |j| j.curve.points())
    }
    fn concave_from(&self, job: usize) -> u32 {
        self.get(job).map_or(0, |j| j.curve.concave_from())
    }
}

/// Jobs as flat arrays, the layout of the C ABI: `weights[j]`, and job `j`'s curve
/// `p(0..=d_j)` at `points[offsets[j]..offsets[j + 1]]` (so `offsets` has one entry more than
/// `weights`, starts at 0 and ends at `points.len()`; the curves are concatenated in job order).
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
    /// [`curve::check`] (an empty one is [`Error::Empty`]).
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
            curve::check(table)?;
        }
        Ok(FlatJobs {
            weights,
            offsets,
            points,
        })
    }
}

impl Jobs for FlatJobs<'_> {
    fn len(&self) -> usize {
        self.weights.len()
    }
    fn weight(&self, job: usize) -> u32 {
        self.weights.get(job).copied().unwrap_or(1)
    }
    fn points(&self, job: usize) -> &[f64] {
        let start = self.offsets.get(job).copied().unwrap_or_default() as usize;
        let end = self
            .offsets
            .get(job.saturating_add(1))
            .copied()
            .unwrap_or_default() as usize;
        self.points.get(start..end).unwrap_or(&[0.0])
    }
    /// Walks the curve: O(d) per call, once per job and allocation.
    fn concave_from(&self, job: usize) -> u32 {
        curve::concave_from(self.points(job))
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
    }
}
