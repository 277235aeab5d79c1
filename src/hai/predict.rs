//! JCT tables from what a predictor gives, for [`super::Batch`].
//!
//! ReB's predictor does not output JCTs (Hu, Li, Guo: *Balance Resource Allocation for Spark Jobs
//! Based on Prediction of the Optimal Resource*, Tsinghua Science and Technology 25(4), 2020,
//! §3.3): given two configurations of a job it predicts the difference of their JCTs,
//! `ΔJCT(C(d1), C(d2)) = J(d1) - J(d2)`, and HAI consumes the differences between allocations
//! θ apart (Algorithm 2, §4.3: `ΔJCT_v(A_v, A_v + θ)`, `ΔJCT_u(A_u, A_u - θ)`).
//! [`table_from_differences`] turns those differences and one known JCT into a table.
//!
//! The alternative the paper sets against its predictor is Ernest's model (§2.2;
//! Venkataraman et al., NSDI 2016): [`table_from_samples`] fits `JCT(a) = a0 + a1 a + a2 / a +
//! a3 ln a` (every `a_i ≥ 0`) to a few measured runs with the core's non-negative least squares
//! ([`crate::paf::ernest::fit`]) and tabulates it ([`table_from_ernest`]).
//!
//! Every table written is `cap / θ + 1` values, `JCT(0), JCT(θ), …, JCT(cap)` with `cap =
//! (table.len() - 1) θ`: `JCT(0) = +∞` (the job waits without cores), every other value
//! finite, positive and at most [`MAX_JCT`](super::MAX_JCT), so the table passes
//! [`super::Hai::allocate`]'s checks. A rejected call writes nothing.

use super::table::checked_jct;
use crate::paf::ernest::{self, Ernest};
use crate::{Error, Result};

/// Checks a table's shape for `theta` and returns its steps, `cap / θ`: [`Error::NotPositive`]
/// for a `θ` of 0 or a table of fewer than two values (a cap of 0), [`Error::OutOfRange`] when
/// the cap, `(table.len() - 1) θ`, exceeds `u32::MAX`.
fn steps(theta: u32, table: &[f64]) -> Result<u32> {
    let steps = table.len().saturating_sub(1);
    if theta == 0 || steps == 0 {
        return Err(Error::NotPositive);
    }
    let steps = u32::try_from(steps).map_err(|_| Error::OutOfRange)?;
    steps.checked_mul(theta).ok_or(Error::OutOfRange)?;
    Ok(steps)
}

/// Writes a job's JCT table from one known JCT and the predicted differences between
/// consecutive allocations (module documentation): `jct_at_reference` is the JCT on `reference`
/// cores, and `differences[i] = ΔJCT((i + 1) θ, (i + 2) θ) = JCT((i + 1) θ) - JCT((i + 2) θ)`,
/// ReB's `ΔJCT_v(A_v, A_v + θ)` at `A_v = (i + 1) θ`: how much the JCT falls when the job gets
/// θ more (negative past its optimum). So `table.len() - 2` differences, one per step between
/// `θ` and the cap; any finite value.
///
/// The table is summed outward from the reference: `JCT(a + θ) = JCT(a) - ΔJCT(a, a + θ)` up
/// to the cap, then `JCT(a) = JCT(a + θ) + ΔJCT(a, a + θ)` down to θ, each value rounded once.
/// `table[0]` is `+∞`.
///
/// Errors, in this order (nothing is written): those of the table's shape,
/// [`Error::NotPositive`] (`θ` of 0, fewer than two values) and [`Error::OutOfRange`] (a cap
/// above `u32::MAX`); [`Error::LengthMismatch`] for `differences` not of `table.len() - 2`
/// values; [`Error::OutOfRange`] for a `reference` of 0, not a multiple of `θ` or above the
/// cap; for `jct_at_reference`, [`Error::NotFinite`], [`Error::NotPositive`] and
/// [`Error::OutOfRange`] (above [`MAX_JCT`](super::MAX_JCT)); [`Error::NotFinite`] for the
/// first difference that is not finite; then the same three for the first JCT of the table, in
/// the order it is summed, that is not finite, not positive or above
/// [`MAX_JCT`](super::MAX_JCT).
pub fn table_from_differences(
    theta: u32,
    reference: u32,
    jct_at_reference: f64,
    differences: &[f64],
    table: &mut [f64],
) -> Result<()> {
    let steps = steps(theta, table)?;
    if differences.len() != table.len().saturating_sub(2) {
        return Err(Error::LengthMismatch);
    }
    let at = match (reference.checked_div(theta), reference.checked_rem(theta)) {
        (Some(at), Some(0)) if at > 0 && at <= steps => at as usize,
        _ => return Err(Error::OutOfRange),
    };
    let base = checked_jct(jct_at_reference)?;
    for &difference in differences {
        crate::num::finite(difference)?;
    }
    sum_outward(at, base, differences, |_, _| ())?;
    sum_outward(at, base, differences, |k, jct| {
        if let Some(slot) = table.get_mut(k) {
            *slot = jct;
        }
    })?;
    if let Some(waiting) = table.first_mut() {
        *waiting = f64::INFINITY;
    }
    Ok(())
}

/// Sums the table from `base` at step `at` as [`table_from_differences`] documents, checking
/// every JCT, and hands each to `visit` with its step. Stops at the first bad JCT.
fn sum_outward(
    at: usize,
    base: f64,
    differences: &[f64],
    mut visit: impl FnMut(usize, f64),
) -> Result<()> {
    visit(at, base);
    let below = at.saturating_sub(1);
    let (down, up) = differences.split_at(below.min(differences.len()));
    let mut jct = base;
    for (k, difference) in (at.saturating_add(1)..).zip(up) {
        jct = checked_jct(jct - difference)?;
        visit(k, jct);
    }
    let mut jct = base;
    for (k, difference) in (1..at).rev().zip(down.iter().rev()) {
        jct = checked_jct(jct + difference)?;
        visit(k, jct);
    }
    Ok(())
}

/// Writes the JCT table of an Ernest model: `table[k] = model.runtime(k θ)`, `JCT(a) = a0 +
/// a1 a + a2 / a + a3 ln a`, for `k ≥ 1`, and `table[0] = +∞`. The model is taken as it is, in
/// seconds (or any unit): not normalized, and not made monotone (a JCT that rises again past
/// the optimum is what HAI needs to see).
///
/// Errors (nothing is written): those of the table's shape, as [`table_from_differences`];
/// then [`Error::NotPositive`] or [`Error::OutOfRange`] for the first JCT, by allocation, that
/// is not positive (it can only underflow to 0) or is above [`MAX_JCT`](super::MAX_JCT).
pub fn table_from_ernest(model: &Ernest, theta: u32, table: &mut [f64]) -> Result<()> {
    let steps = steps(theta, table)?;
    // The cap, `steps θ`, fits u32 (checked above), so every `k θ` up to it does; and
    // `runtime(0)` is `+∞`, the table's first value.
    let jct = |k: u32| model.runtime(k.saturating_mul(theta));
    for k in 1..=steps {
        checked_jct(jct(k))?;
    }
    for (k, slot) in (0u32..).zip(table.iter_mut()) {
        *slot = jct(k);
    }
    Ok(())
}

/// Fits an Ernest model to measured runs, `jct[i]` seconds on `cores[i]` cores, and writes its
/// table as [`table_from_ernest`] does; returns the model. The fit is
/// [`crate::paf::ernest::fit`]'s: non-negative least squares on the features `[1, a, 1/a,
/// ln a]`, from at least four runs on distinct enough core counts.
///
/// Errors, in this order (nothing is written): those of the table's shape, as
/// [`table_from_differences`]; the fit's ([`Error::LengthMismatch`], [`Error::Empty`],
/// [`Error::NotPositive`] for 0 cores or a JCT not above 0, [`Error::NotFinite`],
/// [`Error::OutOfRange`] for a JCT above [`MAX_JCT`](super::MAX_JCT),
/// [`Error::Underdetermined`]); then [`table_from_ernest`]'s.
pub fn table_from_samples(
    cores: &[u32],
    jct: &[f64],
    theta: u32,
    table: &mut [f64],
) -> Result<Ernest> {
    steps(theta, table)?;
    let model = ernest::fit(cores, jct)?;
    table_from_ernest(&model, theta, table)?;
    Ok(model)
}
