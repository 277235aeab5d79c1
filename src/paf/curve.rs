//! Progress curves: how fast a job runs with `x` slots (§II-A's *progress rate*, §III-B's
//! performance-allocation curve).
//!
//! A curve is a table `p(0..=d)` over whole slots, `d` being the job's demand (its degree of
//! parallelism): `p(0) = 0`, finite, non-decreasing, at most [`MAX_PROGRESS`]; past `d` it is
//! flat. The paper's `sacrificeRate` and `benefitRate` (§III-B) are its increments
//! `Δ(x) = p(x) - p(x - 1)` at `x` and `x + 1`.
//!
//! Validation walks the table once; a [`Curve`] remembers the result, including how much of the
//! curve is concave ([`Curve::concave_from`]), so that allocating many times over the same
//! curves costs nothing per curve point.

use crate::num;
use crate::{Error, Result};

/// The largest progress value: 2^60, so that sums over any number of jobs stay finite.
pub const MAX_PROGRESS: f64 = 1_152_921_504_606_846_976.0;

/// Checks a table `p(0..=d)`: not empty; every value finite, not negative, at most
/// [`MAX_PROGRESS`]; `p(0) = 0`; never decreasing. Errors, for the first offending point in
/// that order of checks: [`Error::Empty`], [`Error::NotFinite`], [`Error::Negative`],
/// [`Error::OutOfRange`] (above the maximum, or `p(0) > 0`), [`Error::NotMonotone`]; a demand
/// beyond `u32::MAX` is [`Error::OutOfRange`].
pub fn check(points: &[f64]) -> Result<()> {
    // A valid table in one pass without branches on the data: `p(0) = 0`, never decreasing (so
    // never negative, and a NaN fails every comparison), the last value at most the maximum
    // (so every one is, and finite). Only a table that fails is walked again, for its error.
    let valid = match (points.first(), points.last()) {
        (Some(&first), Some(&last)) => {
            first == 0.0
                && last <= MAX_PROGRESS
                && u32::try_from(points.len().saturating_sub(1)).is_ok()
                && points
                    .iter()
                    .zip(points.iter().skip(1))
                    .fold(true, |rising, (below, at)| rising & (below <= at))
        }
        _ => false,
    };
    if valid {
        return Ok(());
    }
    let first = *points.first().ok_or(Error::Empty)?;
    if u32::try_from(points.len().saturating_sub(1)).is_err() {
        return Err(Error::OutOfRange);
    }
    let mut previous = 0.0;
    for &p in points {
        let p = num::finite(p)?;
        if p < 0.0 {
            return Err(Error::Negative);
        }
        if p > MAX_PROGRESS {
            return Err(Error::OutOfRange);
        }
        if p < previous {
            return Err(Error::NotMonotone);
        }
        previous = p;
    }
    if first != 0.0 {
        return Err(Error::OutOfRange);
    }
    Ok(())
}

/// `p(x)` of a checked table, flat past its end. (`#[inline]`, as the increments below: the
/// generic allocation is compiled in the caller's crate and probes them in its inner loops.)
#[inline]
pub(crate) fn at(points: &[f64], x: u32) -> f64 {
    let last = points.len().saturating_sub(1);
    points
        .get((x as usize).min(last))
        .copied()
        .unwrap_or_default()
}

/// `Δ(x) = p(x) - p(x - 1)` of a checked table for `x >= 1`: the gain of the `x`-th slot. Zero
/// past the demand (and, by convention, at `x = 0`). A zero gain is always `+0.0`: a curve may
/// hold `-0.0` (`p(1) = -0.0` after `p(0) = 0.0` is flat), whose difference `-0.0` the heaps,
/// which order rates by their bits, would put before `+0.0` where comparisons tie, and the
/// literal and fast methods must agree on every tie.
#[inline]
pub(crate) fn increment(points: &[f64], x: u32) -> f64 {
    match (points.get(x as usize), x.checked_sub(1)) {
        (Some(&p), Some(below)) => p - at(points, below) + 0.0,
        _ => 0.0,
    }
}

/// The smallest `k` such that the increments `Δ(k + 1), ..., Δ(d)` never increase, that is,
/// the curve is concave on `k..=d` (0 for a curve concave everywhere). Allocation takes the fast
/// path when every job's curve is concave above its minimum allocation.
pub fn concave_from(points: &[f64]) -> u32 {
    let demand = points.len().saturating_sub(1) as u32;
    let mut k = demand.saturating_sub(1);
    while k > 0 && increment(points, k) >= increment(points, k.saturating_add(1)) {
        k = k.saturating_sub(1);
    }
    k
}

/// Whether the checked table is concave on `x..=d`, that is, [`concave_from`] is at most `x`:
/// the increments `Δ(x + 1), ..., Δ(d)` never increase. Walks those increments only, in one
/// pass without branches on the data.
pub(crate) fn concave_above(points: &[f64], x: u32) -> bool {
    let above = points.get(x as usize..).unwrap_or_default();
    above
        .iter()
        .zip(above.iter().skip(1))
        .zip(above.iter().skip(2))
        .fold(true, |concave, ((&a, &b), &c)| concave & (b - a >= c - b))
}

/// A checked curve, with how much of it is concave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve<'a> {
    points: &'a [f64],
    concave_from: u32,
}

impl Curve<'static> {
    /// No curve: no points, unlike every checked table (which has `p(0)`). What a job without
    /// a curve keeps in its place, so that reading a job's points takes no branch on whether
    /// it has a curve.
    pub(crate) const NONE: Curve<'static> = Curve {
        points: &[],
        concave_from: 0,
    };
}

impl<'a> Curve<'a> {
    /// A curve over the table `p(0..=d)`, checked as [`check`] says.
    pub fn new(points: &'a [f64]) -> Result<Self> {
        check(points)?;
        Ok(Curve {
            points,
            concave_from: concave_from(points),
        })
    }

    /// The table, `p(0..=d)`.
    pub fn points(&self) -> &'a [f64] {
        self.points
    }

    /// The demand `d`: slots beyond it add nothing.
    pub fn demand(&self) -> u32 {
        self.points.len().saturating_sub(1) as u32
    }

    /// `p(x)`, flat past the demand.
    pub fn at(&self, x: u32) -> f64 {
        at(self.points, x)
    }

    /// See [`concave_from`].
    pub fn concave_from(&self) -> u32 {
        self.concave_from
    }

    /// Whether the increments never increase: the setting of the paper's Theorem 1.
    pub fn is_concave(&self) -> bool {
        self.concave_from == 0
    }
}

/// The upper concave envelope of the curve `points` (the smallest concave curve above it, on
/// whole slots), written into `out`, which must have the same length. It is a valid curve
/// (`p(0) = 0`, non-decreasing, equal to `p` at the hull's vertices) and the remedy this crate
/// takes for non-concave curves: Algorithm 1 on envelopes is optimal for the envelopes
/// (Theorem 1). Points between vertices are interpolated, so increments along one hull
/// segment may differ in the last bits. Errors: as [`check`] for `points`;
/// [`Error::LengthMismatch`] for `out`; `out` is written only on success.
pub fn concave_envelope(points: &[f64], out: &mut [f64]) -> Result<()> {
    check(points)?;
    if out.len() != points.len() {
        return Err(Error::LengthMismatch);
    }
    // Andrew's monotone chain, upper hull, left to right. The stack of vertex indices lives in
    // `out` itself: after pushing `h` vertices it occupies out[..h], and a vertex's index is
    // never below its stack position, so filling segments right to left never overwrites a
    // vertex not yet read.
    let p = |x: usize| points.get(x).copied().unwrap_or_default();
    let vertex = |out: &[f64], at: usize| out.get(at).map_or(0, |&v| v as usize);
    let mut top = 0usize;
    for x in 0..points.len() {
        while top >= 2 {
            let (a, b) = (
                vertex(out, top.saturating_sub(2)),
                vertex(out, top.saturating_sub(1)),
            );
            // Drop b when it lies on or below the chord from a to x.
            let above = (p(b) - p(a)) * (x.saturating_sub(a)) as f64
                > (p(x) - p(a)) * (b.saturating_sub(a)) as f64;
            if above {
                break;
            }
            top = top.saturating_sub(1);
        }
        if let Some(slot) = out.get_mut(top) {
            *slot = x as f64;
        }
        top = top.saturating_add(1);
    }
    let mut right = vertex(out, top.saturating_sub(1));
    if let Some(last) = out.get_mut(right) {
        *last = p(right);
    }
    for at in (0..top.saturating_sub(1)).rev() {
        let left = vertex(out, at);
        let (p_left, p_right) = (p(left), p(right));
        let span = right.saturating_sub(left) as f64;
        for x in left..right {
            if let Some(slot) = out.get_mut(x) {
                *slot = p_left + (p_right - p_left) * (x.saturating_sub(left)) as f64 / span;
            }
        }
        right = left;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_names_the_first_fault() {
        assert_eq!(check(&[]), Err(Error::Empty));
        assert_eq!(check(&[0.0, f64::NAN]), Err(Error::NotFinite));
        assert_eq!(check(&[0.0, -1.0]), Err(Error::Negative));
        assert_eq!(check(&[0.0, 2.0, 1.0]), Err(Error::NotMonotone));
        assert_eq!(check(&[0.5, 1.0]), Err(Error::OutOfRange));
        assert_eq!(check(&[0.0, MAX_PROGRESS * 2.0]), Err(Error::OutOfRange));
        assert_eq!(check(&[0.0]), Ok(()));
        assert_eq!(check(&[-0.0, 1.0]), Ok(()));
    }

    #[test]
    fn increments_and_flat_tail() {
        let p = [0.0, 0.5, 0.75, 0.875];
        assert_eq!(increment(&p, 1), 0.5);
        assert_eq!(increment(&p, 3), 0.125);
        assert_eq!(increment(&p, 4), 0.0);
        assert_eq!(at(&p, 9), 0.875);
        assert_eq!(concave_from(&p), 0);
        // Convex start (0.1 then 0.4), concave from 1 on.
        assert_eq!(concave_from(&[0.0, 0.1, 0.5, 0.7, 0.8]), 1);
        assert_eq!(concave_from(&[0.0, 0.1, 0.2, 0.5]), 2);
        assert_eq!(concave_from(&[0.0]), 0);
        for p in [
            &[0.0, 0.1, 0.5, 0.7, 0.8][..],
            &[0.0, 0.1, 0.2, 0.5],
            &[0.0],
            &p,
        ] {
            for x in 0..6 {
                assert_eq!(concave_above(p, x), concave_from(p) <= x, "{p:?} above {x}");
            }
        }
        // A flat step written with -0.0 gains +0.0, bit for bit.
        assert_eq!(increment(&[0.0, -0.0], 1).to_bits(), 0.0f64.to_bits());
        assert_eq!(increment(&[-0.0, 0.0], 1).to_bits(), 0.0f64.to_bits());
    }

    #[test]
    fn envelope_of_an_s_curve() {
        let p = [0.0, 0.1, 0.2, 0.9, 1.0];
        let mut out = [7.0; 5];
        concave_envelope(&p, &mut out).unwrap();
        let expected = [0.0, 0.3, 0.6, 0.9, 1.0];
        assert!(out.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-15));
        assert_eq!(
            (out[0], out[3], out[4]),
            (0.0, 0.9, 1.0),
            "vertices are exact"
        );
        assert!(Curve::new(&out).is_ok());
        // Concave up to rounding inside a segment.
        let steps = [1, 2, 3, 4].map(|x| increment(&out, x));
        assert!(steps.windows(2).all(|w| w[1] <= w[0] + 1e-15), "{steps:?}");
        assert_eq!(
            concave_envelope(&p, &mut [0.0; 4]),
            Err(Error::LengthMismatch)
        );
    }
}
