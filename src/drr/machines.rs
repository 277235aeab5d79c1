//! One executor scored against many machines in one call: the other side of placement, for a
//! scheduler choosing where a new executor goes (or checking a cluster in a batch).

use super::machine::{check_executor, Machine};
use super::series::{self, check_kinds, Executor};
use super::Metric;
use crate::resources::Resources;
use crate::{Error, Result};

/// Machines over flat arrays sharing `kinds` and a horizon `H`: machine `j`'s capacity is
/// `capacities[j * kinds ..][.. kinds]`, its available series `available[j * H * kinds ..][..
/// H * kinds]` (time-major), its `t_run` `t_runs[j]`.
#[derive(Clone, Copy, Debug)]
pub struct Machines<'a> {
    capacities: &'a [f64],
    available: &'a [f64],
    t_runs: &'a [u32],
    kinds: usize,
}

impl<'a> Machines<'a> {
    /// At least one machine (`t_runs.len()` of them) over `kinds` kinds (1 to 8), each valid as
    /// in [`Machine::new`]. `capacities` holds `kinds` amounts a machine and `available` the
    /// same whole number of steps (1 to 256) for every machine ([`Error::LengthMismatch`]
    /// otherwise).
    pub fn new(
        capacities: &'a [f64],
        kinds: usize,
        available: &'a [f64],
        t_runs: &'a [u32],
    ) -> Result<Self> {
        check_kinds(kinds)?;
        let n = t_runs.len();
        if n == 0 {
            return Err(Error::Empty);
        }
        if Some(capacities.len()) != n.checked_mul(kinds)
            || available.len().checked_rem(n) != Some(0)
        {
            return Err(Error::LengthMismatch);
        }
        let machines = Machines {
            capacities,
            available,
            t_runs,
            kinds,
        };
        series::steps(machines.stride(), kinds)?;
        for (capacity, available, t_run) in machines.parts() {
            Machine::new(capacity, available, t_run)?;
        }
        Ok(machines)
    }

    /// The number of machines.
    pub fn len(&self) -> usize {
        self.t_runs.len()
    }

    /// Never true: there is at least one machine.
    pub fn is_empty(&self) -> bool {
        self.t_runs.is_empty()
    }

    /// `H`, the horizon every machine shares.
    pub fn steps(&self) -> usize {
        series::rows(self.stride(), self.kinds)
    }

    /// Every machine, in order.
    pub fn iter(&self) -> impl Iterator<Item = Machine<'a>> + 'a {
        self.parts().map(|(capacity, available, t_run)| {
            Machine::trusted(Resources::validated(capacity), available, t_run as usize)
        })
    }

    /// Amounts per machine in `available`.
    fn stride(&self) -> usize {
        series::rows(self.available.len(), self.t_runs.len())
    }

    /// Each machine's capacity, available series and `t_run`, as the caller gave them.
    fn parts(&self) -> impl Iterator<Item = (&'a [f64], &'a [f64], u32)> + 'a {
        let capacities = self.capacities.chunks_exact(self.kinds);
        let available = self.available.chunks_exact(self.stride().max(1));
        capacities
            .zip(available)
            .zip(self.t_runs.iter().copied())
            .map(|((capacity, available), t_run)| (capacity, available, t_run))
    }
}

/// Scores `executor` on every machine under `metric` (as [`Machine::score`]): `fits[j]` tells
/// whether it fits machine `j`, `scores[j]` is its score there, or [`Metric::worst`] (`+∞`, for
/// Tetris `-∞`) where it does not fit, so that the best machine is simply the best score. Both
/// outputs hold one slot a machine ([`Error::LengthMismatch`] otherwise); the executor must
/// have the machines' kinds ([`Error::LengthMismatch`]) and run at most their horizon
/// ([`Error::OutOfRange`]). Nothing is written on error.
pub fn score_machines(
    machines: &Machines<'_>,
    executor: &Executor<'_>,
    metric: Metric,
    fits: &mut [bool],
    scores: &mut [f64],
) -> Result<()> {
    check_executor(
        machines.kinds,
        machines.steps(),
        executor.kinds(),
        executor.steps(),
    )?;
    if fits.len() != machines.len() || scores.len() != machines.len() {
        return Err(Error::LengthMismatch);
    }
    for ((machine, fit), score) in machines.iter().zip(fits).zip(scores) {
        let scored = machine.score_checked(executor, metric);
        *fit = scored.is_some();
        *score = scored.unwrap_or(metric.worst());
    }
    Ok(())
}
