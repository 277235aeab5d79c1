//! Demand series and their validation. A series is time-major and flat: the amount of kind `r`
//! at step `t` is `series[t * kinds + r]` (module documentation of [`crate::drr`]).

use crate::num;
use crate::resources::MAX_KINDS;
use crate::{Error, Result};

/// The most time steps a series holds (a machine's horizon, an executor's lifetime).
pub const MAX_STEPS: usize = 256;

/// The most pending executors one [`crate::drr::min_frag()`] call considers.
pub const MAX_EXECUTORS: usize = 4096;

/// `kinds` if it is 1 to [`MAX_KINDS`]: [`Error::Empty`] for 0, [`Error::CapacityFull`] above.
pub(crate) fn check_kinds(kinds: usize) -> Result<usize> {
    match kinds {
        0 => Err(Error::Empty),
        1..=MAX_KINDS => Ok(kinds),
        _ => Err(Error::CapacityFull),
    }
}

/// The number of steps of a series of `len` amounts over `kinds` kinds: 1 to [`MAX_STEPS`]
/// ([`Error::LengthMismatch`] when `len` is not a multiple of `kinds`).
pub(crate) fn steps(len: usize, kinds: usize) -> Result<usize> {
    if len.checked_rem(kinds) != Some(0) {
        return Err(Error::LengthMismatch);
    }
    check_steps(rows(len, kinds))
}

/// Whole rows of `kinds` amounts in `len` amounts.
pub(crate) fn rows(len: usize, kinds: usize) -> usize {
    len.checked_div(kinds).unwrap_or(0)
}

/// `steps` if it is 1 to [`MAX_STEPS`]: [`Error::Empty`] for 0, [`Error::CapacityFull`] above.
pub(crate) fn check_steps(steps: usize) -> Result<usize> {
    match steps {
        0 => Err(Error::Empty),
        1..=MAX_STEPS => Ok(steps),
        _ => Err(Error::CapacityFull),
    }
}

/// `Ok` when every amount is finite and not negative. Valid input, the usual case, is checked
/// in one branch-free pass (it vectorizes); only invalid input is walked again to name the
/// first fault.
pub(crate) fn check_amounts(amounts: &[f64]) -> Result<()> {
    let valid = amounts
        .iter()
        .fold(true, |valid, &a| valid & (0.0..=f64::MAX).contains(&a));
    if valid {
        return Ok(());
    }
    for &a in amounts {
        if num::finite(a)? < 0.0 {
            return Err(Error::Negative);
        }
    }
    Ok(())
}

/// One executor's predicted demand series `RD[t][r]` for `t < T_i` (§III-B1's `D_i^r(t')`).
#[derive(Clone, Copy, Debug)]
pub struct Executor<'a> {
    demand: &'a [f64],
    kinds: usize,
}

impl<'a> Executor<'a> {
    /// The series `demand` over `kinds` kinds (1 to 8): 1 to [`MAX_STEPS`] steps of amounts,
    /// each finite and not negative.
    pub fn new(demand: &'a [f64], kinds: usize) -> Result<Self> {
        steps(demand.len(), check_kinds(kinds)?)?;
        check_amounts(demand)?;
        Ok(Executor { demand, kinds })
    }

    /// `T_i`: the steps the executor runs.
    pub fn steps(&self) -> usize {
        rows(self.demand.len(), self.kinds)
    }

    /// The number of kinds.
    pub fn kinds(&self) -> usize {
        self.kinds
    }

    /// The series, time-major.
    pub fn demand(&self) -> &'a [f64] {
        self.demand
    }
}

/// Pending executors back to back: executor `i`'s series starts where executor `i - 1`'s ends,
/// and runs `steps[i]` steps.
#[derive(Clone, Copy, Debug)]
pub struct Executors<'a> {
    demands: &'a [f64],
    steps: &'a [u32],
    kinds: usize,
}

impl<'a> Executors<'a> {
    /// At most [`MAX_EXECUTORS`] executors over `kinds` kinds (1 to 8), executor `i` running
    /// `steps[i]` steps (1 to [`MAX_STEPS`]); `demands` holds `Σ_i steps[i] · kinds` amounts
    /// ([`Error::LengthMismatch`] otherwise), each finite and not negative. None at all is
    /// allowed: a heartbeat with nothing pending places nothing.
    pub fn new(demands: &'a [f64], steps: &'a [u32], kinds: usize) -> Result<Self> {
        check_kinds(kinds)?;
        if steps.len() > MAX_EXECUTORS {
            return Err(Error::CapacityFull);
        }
        let mut total = 0usize;
        for &t in steps {
            total = total.saturating_add(check_steps(t as usize)?);
        }
        if Some(demands.len()) != total.checked_mul(kinds) {
            return Err(Error::LengthMismatch);
        }
        check_amounts(demands)?;
        Ok(Executors {
            demands,
            steps,
            kinds,
        })
    }

    /// The number of executors.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The number of kinds.
    pub fn kinds(&self) -> usize {
        self.kinds
    }

    /// The longest `T_i` (0 when there are none).
    pub fn longest(&self) -> usize {
        self.steps.iter().max().map_or(0, |&t| t as usize)
    }

    /// Every executor, in order.
    pub fn iter(&self) -> impl Iterator<Item = Executor<'a>> + 'a {
        let kinds = self.kinds;
        let mut rest = self.demands;
        self.steps.iter().map(move |&t| {
            let (demand, tail) = rest.split_at((t as usize).saturating_mul(kinds).min(rest.len()));
            rest = tail;
            Executor { demand, kinds }
        })
    }
}
