//! One machine as MinFrag sees it at a heartbeat: capacity, predicted available series and the
//! earliest finish of its running executors (§III-B2, Table V's `AR(j)`).

use super::remaining::{Against, Remaining};
use super::series::{self, Executor, Executors, MAX_STEPS};
use super::Metric;
use crate::resources::Resources;
use crate::{Error, Result};

/// The largest capacity accepted: [`MAX_STEPS`] steps of it still sum to a finite number.
const MAX_CAPACITY: f64 = f64::MAX / MAX_STEPS as f64;

/// A machine `j`: capacity `C[r]`, available series `AR[t][r]` for `t < H`, and `t_run`.
#[derive(Clone, Copy, Debug)]
pub struct Machine<'a> {
    capacity: Resources,
    available: &'a [f64],
    t_run: usize,
}

impl<'a> Machine<'a> {
    /// A machine of `capacity` (1 to 8 kinds, each positive and at most `f64::MAX / 256`,
    /// [`Error::OutOfRange`] above) with `available` (time-major, 1 to [`MAX_STEPS`] steps:
    /// the horizon `H`; each amount finite, not negative and at most the capacity of its
    /// kind, [`Error::OutOfRange`] above) and `t_run`, the earliest step at which a running
    /// executor finishes: 1 to `H`, with `H` when none runs or none finishes within the
    /// horizon ([`Error::OutOfRange`] otherwise).
    pub fn new(capacity: &[f64], available: &'a [f64], t_run: u32) -> Result<Self> {
        let capacity = machine_capacity(capacity)?;
        let steps = series::steps(available.len(), capacity.kinds())?;
        check_available(&capacity, available)?;
        let t_run = t_run as usize;
        if !(1..=steps).contains(&t_run) {
            return Err(Error::OutOfRange);
        }
        Ok(Machine {
            capacity,
            available,
            t_run,
        })
    }

    /// A machine from parts already validated by [`Machine::new`] (or derived from validated
    /// parts by a placement, which keeps them valid).
    pub(crate) fn trusted(capacity: Resources, available: &'a [f64], t_run: usize) -> Self {
        Machine {
            capacity,
            available,
            t_run,
        }
    }

    /// The capacity.
    pub fn capacity(&self) -> &Resources {
        &self.capacity
    }

    /// The available series, time-major.
    pub fn available(&self) -> &'a [f64] {
        self.available
    }

    /// `H`: the steps the available series covers.
    pub fn steps(&self) -> usize {
        series::rows(self.available.len(), self.capacity.kinds())
    }

    /// `t_run`.
    pub fn t_run(&self) -> usize {
        self.t_run
    }

    /// `θ(j)`: the machine's DRR until `t_run` (§III-B2, Fig. 5), in [0, 1].
    pub fn drr(&self) -> f64 {
        Remaining::of(&self.capacity, self.available, self.t_run).drr()
    }

    /// TRC until `t_run` (§V-F), in [0, kinds].
    pub fn trc(&self) -> f64 {
        Remaining::of(&self.capacity, self.available, self.t_run).trc()
    }

    /// Whether `executor` fits: `RD[t][r] <= AR[t][r]` for every `t < T_i` and every kind.
    /// [`Error::LengthMismatch`] when the kinds differ, [`Error::OutOfRange`] when the executor
    /// runs longer than the horizon.
    pub fn fits(&self, executor: &Executor<'_>) -> Result<bool> {
        Ok(self.score(executor, Metric::Drr)?.is_some())
    }

    /// `executor`'s score under `metric` if it were placed here (for DRR `θ(i, j)` with
    /// `t* = min(t_run, T_i)`, in [0, 1]), or `None` when it does not fit. Errors as
    /// [`Machine::fits`].
    pub fn score(&self, executor: &Executor<'_>, metric: Metric) -> Result<Option<f64>> {
        self.check(executor)?;
        Ok(self.score_checked(executor, metric))
    }

    /// [`Error::LengthMismatch`] when `executor` has other kinds, [`Error::OutOfRange`] when it
    /// is longer than the horizon.
    pub(crate) fn check(&self, executor: &Executor<'_>) -> Result<()> {
        check_executor(
            self.capacity.kinds(),
            self.steps(),
            executor.kinds(),
            executor.steps(),
        )
    }

    /// [`Machine::score`] for an executor that passed [`Machine::check`].
    pub(crate) fn score_checked(&self, executor: &Executor<'_>, metric: Metric) -> Option<f64> {
        Remaining::after(Against {
            capacity: &self.capacity,
            available: self.available,
            demand: executor.demand(),
            t_star: self.t_run.min(executor.steps()),
            metric,
        })
    }
}

/// A machine's capacity as [`Machine::new`] takes it: 1 to 8 kinds, each positive and at most
/// `f64::MAX / 256` ([`Error::OutOfRange`] above).
pub(crate) fn machine_capacity(capacity: &[f64]) -> Result<Resources> {
    let capacity = Resources::capacity(capacity)?;
    if capacity.as_slice().iter().any(|&c| c > MAX_CAPACITY) {
        return Err(Error::OutOfRange);
    }
    Ok(capacity)
}

/// [`check_executor`] for each of `pending`, the first error in their order: they share their
/// kinds, so the first has the kinds error if any has, and the longest is the one to test
/// against the horizon (one pass over the steps instead of a test each). None at all passes.
pub(crate) fn check_pending(
    machine_kinds: usize,
    horizon: usize,
    pending: &Executors<'_>,
) -> Result<()> {
    if pending.is_empty() {
        return Ok(());
    }
    check_executor(machine_kinds, horizon, pending.kinds(), pending.longest())
}

/// [`Error::LengthMismatch`] when an executor's kinds differ from a machine's, and
/// [`Error::OutOfRange`] when it runs longer than the machine's horizon (an error,
/// not a guess about what the machine has afterwards).
pub(crate) fn check_executor(
    machine_kinds: usize,
    horizon: usize,
    kinds: usize,
    steps: usize,
) -> Result<()> {
    if kinds != machine_kinds {
        return Err(Error::LengthMismatch);
    }
    if steps > horizon {
        return Err(Error::OutOfRange);
    }
    Ok(())
}

/// `Ok` when every amount of `available` is finite, not negative and at most its kind's
/// capacity. Valid input, the usual case, is checked in one branch-free pass (`0 <= a <= C[r]`
/// holds for finite amounts only, capacities being finite); only invalid input is read again,
/// to name its fault as [`series::check_amounts`] does, or [`Error::OutOfRange`].
pub(crate) fn check_available(capacity: &Resources, available: &[f64]) -> Result<()> {
    if super::remaining::within(capacity, available) {
        return Ok(());
    }
    series::check_amounts(available)?;
    Err(Error::OutOfRange)
}
