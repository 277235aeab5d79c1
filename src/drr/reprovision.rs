//! Dynamic reprovisioning (§III-C): when an executor runs slower than predicted, Elasecutor
//! gives it the machine's spare resources for one monitoring period, observes its usage `u_r`,
//! and scales the allocation of all its remaining stages by `u_r / p_r`, with `p_r` the usage
//! predicted for that period.

use super::series::{check_amounts, check_kinds, steps};
use crate::resources::MAX_KINDS;
use crate::{Error, Result};

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
    check_amounts(observed)?;
    check_amounts(predicted)?;
    let mut factors = [1.0; MAX_KINDS];
    for ((factor, &u), &p) in factors.iter_mut().zip(observed).zip(predicted) {
        if p > 0.0 {
            *factor = u / p;
        }
    }
    let rows = remaining.chunks_exact(kinds);
    let mut scaled = rows.flat_map(|row| row.iter().zip(factors).map(|(&amount, f)| amount * f));
    if !scaled.all(f64::is_finite) {
        return Err(Error::OutOfRange);
    }
    for row in remaining.chunks_exact_mut(kinds) {
        for (amount, f) in row.iter_mut().zip(factors) {
            *amount *= f;
        }
    }
    Ok(())
}
