//! Dynamic reprovisioning (§III-C): when an executor runs slower than predicted, Elasecutor
//! gives it the machine's spare resources for one monitoring period, observes its usage `u_r`,
//! and scales the allocation of all its remaining stages by `u_r / p_r`, with `p_r` the usage
//! predicted for that period. Here: when to do it ([`reprovision_due`]) and what it does to a
//! series ([`reprovision`]; [`crate::drr::Timeline::reprovision`] does it to an executor a
//! machine's timeline holds).

use super::series::{check_amounts, check_kinds, steps};
use crate::num;
use crate::resources::MAX_KINDS;
use crate::{Error, Result};

/// The paper's `ρ` (§III-C): reprovisioning is triggered when a stage has run longer than
/// `ρ` times its expected execution time, "experimentally determined to balance application
/// performance and resource wastage".
pub const RHO: f64 = 1.1;

/// Scales `remaining` (an executor's remaining demand series, time-major over `kinds` kinds,
/// 1 to 256 steps) by `observed[r] / predicted[r]` for each kind `r` (both `kinds` amounts,
/// finite and not negative). A kind predicted at zero is left as it is: a zero prediction has
/// nothing to scale, and the probe cannot tell how the unpredicted usage spreads over the
/// remaining stages. [`Error::OutOfRange`] when a scaled amount would overflow. Nothing is
/// written on error.
pub fn reprovision(
    remaining: &mut [f64],
    kinds: usize,
    observed: &[f64],
    predicted: &[f64],
) -> Result<()> {
    steps(remaining.len(), check_kinds(kinds)?)?;
    if observed.len() != kinds || predicted.len() != kinds {
        return Err(Error::LengthMismatch);
    }
    check_amounts(remaining)?;
    let factors = factors(kinds, observed, predicted)?;
    if !remaining
        .chunks_exact(kinds)
        .all(|row| scaled(row, &factors).all(f64::is_finite))
    {
        return Err(Error::OutOfRange);
    }
    for row in remaining.chunks_exact_mut(kinds) {
        for (amount, f) in row.iter_mut().zip(factors) {
            *amount *= f;
        }
    }
    Ok(())
}

/// The factor of each kind, `observed[r] / predicted[r]` (1 where the prediction is zero),
/// from `kinds` observed and `kinds` predicted amounts, each finite and not negative
/// ([`Error::LengthMismatch`], then the amounts' errors, otherwise).
pub(crate) fn factors(
    kinds: usize,
    observed: &[f64],
    predicted: &[f64],
) -> Result<[f64; MAX_KINDS]> {
    if observed.len() != kinds || predicted.len() != kinds {
        return Err(Error::LengthMismatch);
    }
    check_amounts(observed)?;
    check_amounts(predicted)?;
    let mut factors = [1.0; MAX_KINDS];
    for ((factor, &u), &p) in factors.iter_mut().zip(observed).zip(predicted) {
        if p > 0.0 {
            *factor = u / p;
        }
    }
    Ok(factors)
}

/// One step's amounts scaled by `factors`, kind by kind: the one product every reprovisioning
/// computes, so that a series scaled here and an executor scaled on a timeline agree bit for
/// bit.
pub(crate) fn scaled<'a>(
    row: &'a [f64],
    factors: &'a [f64; MAX_KINDS],
) -> impl Iterator<Item = f64> + 'a {
    row.iter().zip(factors).map(|(&amount, &f)| amount * f)
}

/// §III-C's trigger for a batch of executors, one call per monitoring period: executor `i` is
/// due for reprovisioning when its current stage has run `elapsed[i]` (finite, not negative)
/// and that is longer than `rho` times the stage's expected execution time `expected[i]`
/// (finite, positive; the same unit): `elapsed[i] > rho · expected[i]`, strictly, so a stage
/// running exactly `rho` times its expected time is not due yet. Equivalently, its progress
/// has fallen below `1 / rho` of what was expected. The paper's `rho` is [`RHO`], 1.1; any
/// finite `rho` of at least 1 is accepted ([`Error::NotFinite`], [`Error::OutOfRange`] below
/// 1: a stage on time must never be due).
///
/// Writes whether each executor is due into `due` and returns how many are. The three slices
/// hold one entry per executor ([`Error::LengthMismatch`]); an elapsed time that is not finite
/// or negative, an expected one that is not finite or not positive, is an error
/// ([`Error::NotFinite`], [`Error::Negative`], [`Error::NotPositive`]). Nothing is written on
/// error.
pub fn reprovision_due(
    elapsed: &[f64],
    expected: &[f64],
    rho: f64,
    due: &mut [bool],
) -> Result<usize> {
    if expected.len() != elapsed.len() || due.len() != elapsed.len() {
        return Err(Error::LengthMismatch);
    }
    if num::finite(rho)? < 1.0 {
        return Err(Error::OutOfRange);
    }
    check_amounts(elapsed)?;
    check_amounts(expected)?;
    if expected.contains(&0.0) {
        return Err(Error::NotPositive);
    }
    let mut count = 0usize;
    for ((due, &elapsed), &expected) in due.iter_mut().zip(elapsed).zip(expected) {
        *due = elapsed > rho * expected;
        count = count.saturating_add(usize::from(*due));
    }
    Ok(count)
}
