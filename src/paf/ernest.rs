//! Ernest curves (§IV-A; Venkataraman et al., NSDI'16): a job's normalized run time on `x`
//! slots is `t(x) = a0 + a1 x + a2 / x + a3 ln x` with every `a_i >= 0`, and its progress is
//! `p(x) = 1 / t(x)` (`p(0) = 0`).
//!
//! [`fit`] finds the coefficients from a few measured (slots, normalized run time) samples by
//! non-negative least squares on the features `[1, x, 1/x, ln x]`:
//! - **No normal equations.** Each sample row is rotated into a 4x5 triangle `[R | z]` by
//!   Givens rotations as it streams in (no storage per sample), so `min ‖A a - y‖` becomes
//!   `min ‖R a - z‖` with the condition number of `A`, not its square.
//! - **Column scaling.** The features span many orders of magnitude (`x` in the hundreds,
//!   `1/x` near zero), so `R`'s columns are scaled to unit norm (the norms of `A`'s columns,
//!   which rotations keep), which leaves the sign constraints as they are.
//! - **Rank.** When a scaled diagonal entry of `R` is at most [`RANK_TOLERANCE`], the samples
//!   leave some combination of the features undetermined (fewer than four distinct slot
//!   counts, or counts so close that the features are nearly dependent): [`Error::Underdetermined`].
//! - **Lawson-Hanson.** The active-set method solves the non-negative problem exactly on the
//!   4x4 triangle; each sub-problem on the free coefficients is again a small Givens QR.

use super::curve::MAX_PROGRESS;
use crate::num;
use crate::{Error, Result};

/// Number of coefficients (and features).
pub const FEATURES: usize = 4;
/// The largest coefficient, and the largest run time a sample may have: 2^60.
pub const MAX_COEFFICIENT: f64 = 1_152_921_504_606_846_976.0;
/// A scaled diagonal entry of `R` at or below this means the samples cannot determine the fit.
pub const RANK_TOLERANCE: f64 = 1e-10;
/// Lawson-Hanson stops when no coefficient's gradient exceeds this, relative to `‖y‖`.
const GRADIENT_TOLERANCE: f64 = 1e-12;

const COLUMNS: usize = FEATURES + 1;
/// `[R | z]`: an upper-triangular `R` with the rotated right-hand side as its last column.
type Triangle = [[f64; COLUMNS]; FEATURES];

/// An Ernest model with checked coefficients.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ernest {
    coefficients: [f64; FEATURES],
}

/// The features `[1, x, 1/x, ln x]` of `x >= 1` slots.
fn features(slots: u32) -> [f64; FEATURES] {
    let x = f64::from(slots);
    [1.0, x, 1.0 / x, libm::log(x)]
}

impl Ernest {
    /// Checks `[a0, a1, a2, a3]`: finite ([`Error::NotFinite`]), not negative
    /// ([`Error::Negative`]), at most [`MAX_COEFFICIENT`] ([`Error::OutOfRange`]), and
    /// `a0 + a1 + a2 > 0` so that `t(1) > 0` ([`Error::NotPositive`]).
    pub fn new(coefficients: [f64; FEATURES]) -> Result<Self> {
        for a in coefficients {
            let a = num::finite(a)?;
            if a < 0.0 {
                return Err(Error::Negative);
            }
            if a > MAX_COEFFICIENT {
                return Err(Error::OutOfRange);
            }
        }
        let [a0, a1, a2, _] = coefficients;
        num::positive(a0 + a1 + a2)?;
        Ok(Ernest {
            coefficients: coefficients.map(|a| a + 0.0),
        })
    }

    /// `[a0, a1, a2, a3]`.
    pub fn coefficients(&self) -> [f64; FEATURES] {
        self.coefficients
    }

    /// `t(x)` for `x >= 1` slots; infinite for 0 (the job does not run).
    pub fn runtime(&self, slots: u32) -> f64 {
        if slots == 0 {
            return f64::INFINITY;
        }
        features(slots)
            .iter()
            .zip(self.coefficients)
            .map(|(f, a)| f * a)
            .sum()
    }

    /// `p(x) = 1 / t(x)`, and `p(0) = 0`.
    pub fn progress(&self, slots: u32) -> f64 {
        1.0 / self.runtime(slots)
    }

    /// Writes the curve `p̃(0..out.len())` for a job of demand `out.len() - 1`, where
    /// `p̃(x) = max_{y <= x} p(y)`: with `a1 > 0` the run time grows again past some `x`, and a
    /// job given more slots than help it leaves the rest idle, so its progress never falls.
    /// The result passes [`super::curve::check`]. Errors, before anything is written:
    /// [`Error::Empty`] for an empty `out`; [`Error::OutOfRange`] when progress could exceed
    /// [`MAX_PROGRESS`] (`a0 + a1 + a2 / d < 2^-60`) or the demand exceeds `u32::MAX`.
    pub fn tabulate(&self, out: &mut [f64]) -> Result<()> {
        let demand = out.len().checked_sub(1).ok_or(Error::Empty)?;
        let demand = u32::try_from(demand).map_err(|_| Error::OutOfRange)?;
        let [a0, a1, a2, _] = self.coefficients;
        // For 1 <= x <= d: t(x) >= a0 + a1 + a2 / d, as a1 x >= a1, a2 / x >= a2 / d, ln x >= 0.
        if demand > 0 && 1.0 / (a0 + a1 + a2 / f64::from(demand)) > MAX_PROGRESS {
            return Err(Error::OutOfRange);
        }
        let mut best = 0.0;
        for (x, slot) in out.iter_mut().enumerate() {
            best = self.progress(x as u32).max(best);
            *slot = best;
        }
        Ok(())
    }
}

/// Rotates `rows`, in order, into `triangle` (Givens), each zeroed column by column: row `i`
/// into line 0, then line 1, and so on. Software-pipelined: each step rotates the newest row
/// into line 0 while the three before it go into lines 1, 2 and 3, four rotations that
/// depend on none of each other (each line still takes the rows in order, and each row the
/// lines in order, so every rotation computes what row-by-row streaming computes, bit for
/// bit); three rows of zeros drain the pipeline (a rotation of a zero entry does nothing).
/// Row by row, a row's four rotations form one chain of square roots and divisions, and the
/// next row's chain waits on the first of them only; on this machine the processor did not
/// overlap the rows by itself (an Ernest fit's ten samples took 310 ns to absorb, 36 ns more a
/// sample; pipelined, 278 ns and 28 ns). Always inlined into its two callers, so that the
/// rows stay in registers where they can.
#[inline(always)]
fn absorb(triangle: &mut Triangle, rows: impl Iterator<Item = [f64; COLUMNS]>) {
    let mut waiting = [[0.0; COLUMNS]; FEATURES - 1];
    for mut row in rows.chain([[0.0; COLUMNS]; FEATURES - 1]) {
        let [l0, l1, l2, l3] = &mut *triangle;
        let [w1, w2, w3] = &mut waiting;
        rotate::<3>(l3, w3);
        rotate::<2>(l2, w2);
        rotate::<1>(l1, w1);
        rotate::<0>(l0, &mut row);
        *w3 = *w2;
        *w2 = *w1;
        *w1 = row;
    }
}

/// `|e|` from this to [`MOVE_MAX`] squares to a normal number, and then `sqrt(e * e)` is `|e|`
/// exactly (the square root of a correctly rounded square, in binary floating point).
const MOVE_MIN: f64 = 1e-150;
/// See [`MOVE_MIN`].
const MOVE_MAX: f64 = 1e150;

/// The Givens rotation of `line`, row `K` of the triangle, with `row` that zeroes `row[K]`,
/// applied to columns `K..` (the earlier ones are zero in `line` and done with in `row`).
/// `K` is a constant so that the update is unrolled. Every triangle starts all `+0.0`.
fn rotate<const K: usize>(line: &mut [f64; COLUMNS], row: &mut [f64; COLUMNS]) {
    let (Some(&pivot), Some(&entry)) = (line.get(K), row.get(K)) else {
        return;
    };
    if entry == 0.0 {
        return;
    }
    let (Some(tops), Some(bottoms)) = (line.get_mut(K..), row.get_mut(K..)) else {
        return;
    };
    if pivot == 0.0 && (MOVE_MIN..=MOVE_MAX).contains(&entry.abs()) {
        // A zero pivot: no row has reached this line yet (a rotation leaves a pivot of about
        // its radius, never zero), so the line is all `+0.0`, and it takes the row up to its
        // sign. The radius is |entry| exactly, so the rotation below would have `c = +0` and
        // `s = ±1`, and give `+0 · 0 + s · b`: `s · b + 0.0`, the same without the products of
        // zeros (each least-squares solve of Lawson-Hanson starts a fresh triangle, so these
        // are common; they took 11% off a fit). The row is left zero, as the rotation leaves it.
        let s = if entry < 0.0 { -1.0 } else { 1.0 };
        for (top, bottom) in tops.iter_mut().zip(bottoms) {
            *top = s * *bottom + 0.0;
            *bottom = 0.0;
        }
        return;
    }
    // No overflow: inputs are bounded (features below 2^33, run times at most 2^60), so
    // squares stay far below f64's range and hypot's care is not needed.
    let radius = libm::sqrt(pivot * pivot + entry * entry);
    let (c, s) = (pivot / radius, entry / radius);
    for (top, bottom) in tops.iter_mut().zip(bottoms) {
        let (t, b) = (*top, *bottom);
        *top = c * t + s * b;
        *bottom = c * b - s * t;
    }
}

/// Divides line `K` of `R` by the column norms `norms` (the `z` column is left as it is).
/// Left of the diagonal every entry is `+0.0`, which dividing would keep: only columns 0 to 2
/// (`1`, `x`, `1/x`) have entries there, and their norms are never zero. So only columns `K..`
/// are divided, `K` a constant, as in [`rotate`], so that the loop is unrolled: with `K` read
/// at run time, skipping the first `K` columns was a call into the iterator's `nth`, once a
/// line (an Ernest fit took 3% longer).
#[inline(always)]
fn scale<const K: usize>(line: &mut [f64; COLUMNS], norms: &[f64; FEATURES]) {
    for (a, norm) in line.iter_mut().zip(norms).skip(K) {
        *a /= norm;
    }
}

/// `min ‖R s - z‖` over the coefficients marked `free` (the others 0), by a Givens QR of the
/// free columns. `R` has full rank, so the sub-problem does too. Each of the 15 patterns a
/// solve can ask for has its own copy of [`least_squares_of`], in which the packing of the
/// free columns is known at compile time (on the benchmark's samples a fit took a sixth less
/// time than with the pattern read at run time: the packing's branches and most of the
/// rotations' checks fold away).
fn least_squares(r: &Triangle, free: [bool; FEATURES]) -> [f64; FEATURES] {
    const F: bool = false;
    const T: bool = true;
    match free {
        // Never asked for: a solve follows the freeing of a coefficient.
        [F, F, F, F] => [0.0; FEATURES],
        [T, F, F, F] => least_squares_of::<T, F, F, F>(r),
        [F, T, F, F] => least_squares_of::<F, T, F, F>(r),
        [T, T, F, F] => least_squares_of::<T, T, F, F>(r),
        [F, F, T, F] => least_squares_of::<F, F, T, F>(r),
        [T, F, T, F] => least_squares_of::<T, F, T, F>(r),
        [F, T, T, F] => least_squares_of::<F, T, T, F>(r),
        [T, T, T, F] => least_squares_of::<T, T, T, F>(r),
        [F, F, F, T] => least_squares_of::<F, F, F, T>(r),
        [T, F, F, T] => least_squares_of::<T, F, F, T>(r),
        [F, T, F, T] => least_squares_of::<F, T, F, T>(r),
        [T, T, F, T] => least_squares_of::<T, T, F, T>(r),
        [F, F, T, T] => least_squares_of::<F, F, T, T>(r),
        [T, F, T, T] => least_squares_of::<T, F, T, T>(r),
        [F, T, T, T] => least_squares_of::<F, T, T, T>(r),
        [T, T, T, T] => least_squares_of::<T, T, T, T>(r),
    }
}

/// [`least_squares`] for the free coefficients `[F0, F1, F2, F3]`. Kept out of line, so that
/// Lawson-Hanson's loop stays small around the call.
#[inline(never)]
fn least_squares_of<const F0: bool, const F1: bool, const F2: bool, const F3: bool>(
    r: &Triangle,
) -> [f64; FEATURES] {
    let free = [F0, F1, F2, F3];
    // The free columns, packed to the left, with z last; rotated into a fresh triangle. Line
    // `k` of `R` is `+0.0` left of its diagonal (no rotation writes there), and saying so
    // here lets each rotation of a known zero be dropped at compile time.
    let mut packed: Triangle = [[0.0; COLUMNS]; FEATURES];
    let rows = r.iter().enumerate().map(|(k, line)| {
        let mut row = [0.0; COLUMNS];
        let mut at = 0;
        for (j, (&value, &f)) in line.iter().zip(&free).enumerate() {
            if f {
                if let Some(slot) = row.get_mut(at) {
                    *slot = if j < k { 0.0 } else { value };
                }
                at = at.saturating_add(1);
            }
        }
        if let (Some(slot), Some(&z)) = (row.last_mut(), line.last()) {
            *slot = z;
        }
        row
    });
    absorb(&mut packed, rows);
    let count = free.iter().filter(|&&f| f).count();
    let mut packed_solution = [0.0; FEATURES];
    for i in (0..count).rev() {
        let Some(line) = packed.get(i) else { continue };
        let known: f64 = line
            .iter()
            .zip(packed_solution.iter())
            .enumerate()
            .filter(|&(j, _)| j > i && j < count)
            .map(|(_, (a, s))| a * s)
            .sum();
        let (diagonal, z) = (
            line.get(i).copied().unwrap_or(1.0),
            line.last().copied().unwrap_or(0.0),
        );
        if let Some(s) = packed_solution.get_mut(i) {
            *s = (z - known) / diagonal;
        }
    }
    let mut solution = [0.0; FEATURES];
    let mut unpack = packed_solution.into_iter();
    for (s, &f) in solution.iter_mut().zip(free.iter()) {
        if f {
            *s = unpack.next().unwrap_or(0.0);
        }
    }
    solution
}

/// `Rᵀ (z - R b)`: the gradient of `-½‖R b - z‖²`; positive where raising `b_j` helps.
fn gradient(r: &Triangle, b: &[f64; FEATURES]) -> [f64; FEATURES] {
    let residual = r.map(|line| {
        line.last().copied().unwrap_or(0.0) - line.iter().zip(b).map(|(a, x)| a * x).sum::<f64>()
    });
    let mut w = [0.0; FEATURES];
    for (line, rho) in r.iter().zip(residual) {
        for (wj, a) in w.iter_mut().zip(line) {
            *wj += a * rho;
        }
    }
    w
}

/// Lawson-Hanson: `min ‖R b - z‖` subject to `b >= 0`, for a full-rank `R`.
fn lawson_hanson(r: &Triangle, tolerance: f64) -> [f64; FEATURES] {
    let mut b = [0.0; FEATURES];
    let mut free = [false; FEATURES];
    // Each outer round frees one coefficient; with four, a handful of rounds suffice (the
    // bound only guards against rounding cycling between two choices).
    for _ in 0..3 * FEATURES {
        let w = gradient(r, &b);
        let entering = (0..FEATURES)
            .filter(|&j| free.get(j) == Some(&false))
            .filter_map(|j| w.get(j).map(|&wj| (j, wj)))
            .filter(|&(_, wj)| wj > tolerance)
            .max_by(|x, y| x.1.total_cmp(&y.1));
        let Some((j, _)) = entering else { break };
        if let Some(f) = free.get_mut(j) {
            *f = true;
        }
        for _ in 0..FEATURES {
            let s = least_squares(r, free);
            let blocked =
                |j: usize| free.get(j) == Some(&true) && s.get(j).is_some_and(|&v| v <= 0.0);
            if !(0..FEATURES).any(blocked) {
                b = s;
                break;
            }
            // Move from b toward s until the first free coefficient reaches zero; that one
            // (and any other at or below zero) is fixed at exactly zero.
            let Some((first, step)) = (0..FEATURES)
                .filter(|&j| blocked(j))
                .filter_map(|j| Some((j, *b.get(j)?, *s.get(j)?)))
                .map(|(j, bj, sj)| (j, bj / (bj - sj)))
                .min_by(|x, y| x.1.total_cmp(&y.1))
            else {
                break;
            };
            for (j, ((bj, sj), fj)) in b.iter_mut().zip(s).zip(free.iter_mut()).enumerate() {
                *bj += step * (sj - *bj);
                if *fj && (j == first || *bj <= 0.0) {
                    *bj = 0.0;
                    *fj = false;
                }
            }
        }
    }
    b
}

/// Fits an Ernest model to samples: job `i` ran on `slots[i]` slots in normalized run time
/// `runtimes[i]` (its run time divided by the shortest). Errors: [`Error::LengthMismatch`];
/// [`Error::Empty`] for no sample; [`Error::NotPositive`] for 0 slots or a run time not above
/// 0; [`Error::NotFinite`]; [`Error::OutOfRange`] for a run time above [`MAX_COEFFICIENT`];
/// [`Error::Underdetermined`] when the samples cannot determine the four coefficients (fewer
/// than four samples, see the module documentation for the rank test) or determine only a
/// model with `t(1) = 0`.
pub fn fit(slots: &[u32], runtimes: &[f64]) -> Result<Ernest> {
    if slots.len() != runtimes.len() {
        return Err(Error::LengthMismatch);
    }
    if slots.is_empty() {
        return Err(Error::Empty);
    }
    for (&x, &y) in slots.iter().zip(runtimes) {
        if x == 0 {
            return Err(Error::NotPositive);
        }
        if num::positive(y)? > MAX_COEFFICIENT {
            return Err(Error::OutOfRange);
        }
    }
    if slots.len() < FEATURES {
        return Err(Error::Underdetermined);
    }

    let mut r: Triangle = [[0.0; COLUMNS]; FEATURES];
    let rows = slots.iter().zip(runtimes).map(|(&x, &y)| {
        let [f0, f1, f2, f3] = features(x);
        [f0, f1, f2, f3, y]
    });
    absorb(&mut r, rows);
    let norm_y: f64 = runtimes.iter().fold(0.0, |sum, &y| sum + y * y);
    // Column norms of A (rotations keep them), then unit columns.
    let mut norms = [0.0; FEATURES];
    for (j, norm) in norms.iter_mut().enumerate() {
        *norm = libm::sqrt(r.iter().filter_map(|line| line.get(j)).map(|a| a * a).sum());
    }
    let [l0, l1, l2, l3] = &mut r;
    scale::<0>(l0, &norms);
    scale::<1>(l1, &norms);
    scale::<2>(l2, &norms);
    scale::<3>(l3, &norms);
    let full_rank = r
        .iter()
        .enumerate()
        .all(|(k, line)| line.get(k).is_some_and(|d| d.abs() > RANK_TOLERANCE));
    if !full_rank {
        return Err(Error::Underdetermined);
    }
    let scaled = lawson_hanson(&r, GRADIENT_TOLERANCE * libm::sqrt(norm_y));
    let mut coefficients = [0.0; FEATURES];
    for ((a, b), norm) in coefficients.iter_mut().zip(scaled).zip(norms) {
        *a = b / norm;
    }
    Ernest::new(coefficients).map_err(|_| Error::Underdetermined)
}
