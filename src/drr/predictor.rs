//! Demand series predicted from past runs, as Elasecutor's prediction module makes them for
//! recurring applications (Liu, Xu: *Elasecutor: Elastic Executor Scheduling in Data Analytics
//! Systems*, IEEE/ACM Transactions on Networking, 2021; §II-B, §III-B, §IV-C).
//!
//! §II-B finds the per-stage execution time and peak usage of a recurring application's
//! executors stable from run to run; §IV-C: "Our current implementation simply uses the
//! average resource time series of the latest 3 runs as the prediction result for recurring
//! workloads with the same settings", and for applications never seen, "we need to collect
//! data for several runs before we can predict the resource demand time series. Until then,
//! the applications are allowed to run with peak demanded resources." A [`Predictor`] does
//! exactly that, with these choices where the paper is silent:
//!
//! - **Window.** An application's prediction is the mean of its last `window` runs (the
//!   paper's 3, up to [`MAX_WINDOW`]). Until `window` runs are recorded, there is no
//!   prediction: the caller's peak is used, as for an application never seen (the paper waits
//!   for "several runs"; a window of 1 predicts from the last run alone).
//! - **Series of different lengths** are averaged step by step over the runs that lasted that
//!   long: the prediction runs as long as the longest of them, and step `t` is the mean of the
//!   runs that reached step `t`. A run that had ended used nothing at `t`, but averaging its
//!   zero in would predict less than any run still going at `t` used, and the scheduler
//!   reserves what it predicts (§III-B1's constraint (2)).
//! - **Order.** Sums run from the oldest run of the window to the newest, then one division:
//!   the result is exact to the operations, the same on every platform.
//! - **Peak.** The caller gives the peak (one amount per kind: the application's request, its
//!   executors' configuration) and the steps to reserve it for; the prediction is that vector
//!   at every step.
//!
//! What the predictor holds is bounded: up to `capacity` applications (a [`crate::table`] of
//! one [`ApplicationRow`] each, addressed by the caller's 64-bit ids through its `numbers`
//! column), each with its last `window` runs of up to `steps` steps over `kinds` kinds, in a
//! column of [`amounts`]`(capacity, window, steps, kinds)` amounts.

use super::series::{self, check_amounts, check_kinds, check_steps};
use crate::id_index::{self, impl_row, Links, TableHead};
use crate::table::{self, Parts, PartsMut, Storage, Vacant};
use crate::{Error, Result};

/// A predictor's table has no heap.
pub const HEAPS: usize = 0;

/// The most runs a prediction averages.
pub const MAX_WINDOW: usize = 16;

/// One application: its id, how many runs are recorded (up to the window), the slot the next
/// run goes to, and each slot's length in steps. Its runs are the row's block of the amounts,
/// one slot of `steps · kinds` amounts a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApplicationRow {
    id: u64,
    links: Links,
    runs: u32,
    next: u32,
    lengths: [u16; MAX_WINDOW],
}

impl_row!(ApplicationRow);

impl Vacant for ApplicationRow {
    type Key = u64;
    const VACANT: ApplicationRow = ApplicationRow {
        id: 0,
        links: Links::NONE,
        runs: 0,
        next: 0,
        lengths: [0; MAX_WINDOW],
    };
}

/// Arrays for `N` applications and `A` amounts, owned: `A` must be at least
/// [`amounts`]`(N, window, steps, kinds)` (box it when large).
pub type Inline<const N: usize, const A: usize> = table::Inline<ApplicationRow, N, HEAPS, A>;

/// Slices the caller owns: a row and a number per application, and the amounts.
pub type Borrowed<'a> = table::BorrowedWithAmounts<'a, ApplicationRow, HEAPS>;

/// The amounts a predictor of `capacity` applications, each with its last `window` runs of up
/// to `steps` steps over `kinds` kinds, needs: their product (`usize::MAX` when that does not
/// fit a `usize`).
pub const fn amounts(capacity: usize, window: usize, steps: usize, kinds: usize) -> usize {
    capacity
        .saturating_mul(window)
        .saturating_mul(steps)
        .saturating_mul(kinds)
}

/// What [`Predictor::predict`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// The steps of the series written.
    pub steps: usize,
    /// The runs averaged: the window, or 0 when the series is the peak.
    pub runs: usize,
}

/// A predictor's configuration, validated: the kinds, the window and the most steps of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    kinds: usize,
    window: usize,
    steps: usize,
}

impl Config {
    /// Checks a predictor's configuration, before any memory is touched: `capacity` as
    /// [`table::check_capacity`], then `kinds` (1 to 8: [`Error::Empty`] for 0,
    /// [`Error::CapacityFull`] above), `window` (1 to [`MAX_WINDOW`]: [`Error::NotPositive`]
    /// for 0, [`Error::OutOfRange`] above) and `steps`, the most steps of a run (1 to
    /// [`series::MAX_STEPS`]: [`Error::Empty`] for 0, [`Error::CapacityFull`] above).
    pub fn new(capacity: usize, kinds: usize, window: u32, steps: u32) -> Result<Self> {
        table::check_capacity(capacity)?;
        let kinds = check_kinds(kinds)?;
        let window = match window as usize {
            0 => return Err(Error::NotPositive),
            w @ 1..=MAX_WINDOW => w,
            _ => return Err(Error::OutOfRange),
        };
        let steps = check_steps(steps as usize)?;
        Ok(Config {
            kinds,
            window,
            steps,
        })
    }

    /// The amounts a predictor of `capacity` applications with this configuration needs.
    pub fn amounts(&self, capacity: usize) -> usize {
        amounts(capacity, self.window, self.steps, self.kinds)
    }

    /// Amounts per run: `steps · kinds`.
    fn stride(&self) -> usize {
        self.steps.saturating_mul(self.kinds)
    }
}

/// Demand series predicted from past runs, over storage `S` (see [`Inline`] and
/// [`Borrowed`]).
pub struct Predictor<S: Storage<ApplicationRow, HEAPS>> {
    storage: S,
    table: TableHead,
    config: Config,
}

impl<const N: usize, const A: usize> Predictor<Inline<N, A>> {
    /// A predictor for up to `N` applications; as [`Predictor::with_storage`].
    pub fn new(kinds: usize, window: u32, steps: u32) -> Result<Self> {
        Self::with_storage(Inline::new(), kinds, window, steps)
    }
}

impl<S: Storage<ApplicationRow, HEAPS>> Predictor<S> {
    /// A predictor with no application, for series over `kinds` kinds, averaging the last
    /// `window` runs of each application, each run up to `steps` steps (errors as
    /// [`Config::new`]). `storage` holds [`Predictor::capacity`] applications; its amounts
    /// must number at least [`amounts`]`(capacity, window, steps, kinds)`
    /// ([`Error::LengthMismatch`] otherwise).
    pub fn with_storage(mut storage: S, kinds: usize, window: u32, steps: u32) -> Result<Self> {
        let config = Config::new(storage.capacity(), kinds, window, steps)?;
        let need = config.amounts(storage.capacity());
        if storage.parts().amounts.len() < need {
            return Err(Error::LengthMismatch);
        }
        let parts = storage.parts_mut();
        parts.amounts.get_mut(..need).unwrap_or_default().fill(0.0);
        let table = table::reset(parts);
        Ok(Predictor {
            storage,
            table,
            config,
        })
    }

    /// The most applications it holds.
    pub fn capacity(&self) -> usize {
        self.storage.capacity()
    }

    /// The applications with a run recorded.
    pub fn applications(&self) -> usize {
        self.table.used()
    }

    /// The kinds of every series.
    pub fn kinds(&self) -> usize {
        self.config.kinds
    }

    /// The runs a prediction averages.
    pub fn window(&self) -> usize {
        self.config.window
    }

    /// The most steps of a run (and of a prediction).
    pub fn steps(&self) -> usize {
        self.config.steps
    }

    /// The runs of application `id` recorded and kept, 0 to the window (0 for an id never
    /// recorded or forgotten).
    pub fn runs(&self, id: u64) -> usize {
        let Parts { rows, numbers, .. } = self.storage.parts();
        id_index::find(numbers, rows, id)
            .and_then(|row| rows.get(row as usize))
            .map_or(0, |r| r.runs as usize)
    }

    /// Records a finished run of application `id`: `run` is the demand series one of its
    /// executors used, time-major, 1 to [`Predictor::steps`] steps. The first run of an id
    /// adds the application; once the window is full, each run replaces the oldest.
    ///
    /// Errors, in this order (nothing changes): `run` not whole steps
    /// ([`Error::LengthMismatch`]), of no step ([`Error::Empty`]) or of more steps than the
    /// predictor keeps ([`Error::CapacityFull`]); an amount not finite or negative
    /// ([`Error::NotFinite`], [`Error::Negative`]); a new application when
    /// [`Predictor::capacity`] of them are held ([`Error::CapacityFull`]).
    pub fn record(&mut self, id: u64, run: &[f64]) -> Result<()> {
        let config = self.config;
        let steps = series::steps(run.len(), config.kinds)?;
        if steps > config.steps {
            return Err(Error::CapacityFull);
        }
        check_amounts(run)?;
        let PartsMut {
            rows,
            numbers: buckets,
            amounts,
            ..
        } = self.storage.parts_mut();
        let row = match id_index::find(buckets, rows, id) {
            Some(row) => row,
            None => {
                let row = id_index::allocate(rows, &mut self.table).ok_or(Error::CapacityFull)?;
                if let Some(r) = rows.get_mut(row as usize) {
                    *r = ApplicationRow {
                        id,
                        links: r.links,
                        ..ApplicationRow::VACANT
                    };
                }
                id_index::index(buckets, rows, row);
                row
            }
        };
        let Some(r) = rows.get_mut(row as usize) else {
            return Ok(());
        };
        let slot = r.next as usize;
        if let Some(length) = r.lengths.get_mut(slot) {
            *length = u16::try_from(steps).unwrap_or(u16::MAX);
        }
        let next = slot
            .saturating_add(1)
            .checked_rem(config.window)
            .unwrap_or(0);
        r.next = u32::try_from(next).unwrap_or(0);
        r.runs = r.runs.saturating_add(1).min(config.window as u32);
        let at = run_at(&config, row, slot);
        let block = amounts.get_mut(at..).unwrap_or_default();
        for (stored, &amount) in block.iter_mut().zip(run) {
            *stored = amount;
        }
        Ok(())
    }

    /// Forgets application `id` and its runs ([`Error::UnknownId`] for an id not held): its
    /// next run is a first one.
    pub fn forget(&mut self, id: u64) -> Result<()> {
        let PartsMut {
            rows,
            numbers: buckets,
            ..
        } = self.storage.parts_mut();
        let row = id_index::find(buckets, rows, id).ok_or(Error::UnknownId)?;
        id_index::unindex(buckets, rows, row);
        id_index::release(rows, &mut self.table, row);
        Ok(())
    }

    /// The predicted demand series of one executor of application `id`, time-major, written to
    /// the front of `out`: with [`Predictor::window`] runs recorded, their mean (as the module
    /// documentation says: step by step over the runs that lasted that long, as long as the
    /// longest); otherwise, the application being new or not seen enough, `peak` (one amount
    /// per kind, finite and not negative) for `steps` steps (1 to [`Predictor::steps`]).
    ///
    /// Errors, in this order (nothing is written): `peak` not of the predictor's kinds
    /// ([`Error::LengthMismatch`]), an amount of it not finite or negative
    /// ([`Error::NotFinite`], [`Error::Negative`]); `steps` 0 ([`Error::Empty`]) or above
    /// [`Predictor::steps`] ([`Error::CapacityFull`]); `out` shorter than the series
    /// ([`Error::LengthMismatch`]; room for [`Predictor::steps`] steps always suffices).
    pub fn predict(
        &self,
        id: u64,
        peak: &[f64],
        steps: u32,
        out: &mut [f64],
    ) -> Result<Prediction> {
        let config = self.config;
        if peak.len() != config.kinds {
            return Err(Error::LengthMismatch);
        }
        check_amounts(peak)?;
        let steps = match check_steps(steps as usize)? {
            s if s > config.steps => return Err(Error::CapacityFull),
            s => s,
        };
        let Parts {
            rows,
            numbers: buckets,
            amounts,
            ..
        } = self.storage.parts();
        let seen = id_index::find(buckets, rows, id)
            .and_then(|row| Some((row, rows.get(row as usize)?)))
            .filter(|(_, r)| r.runs as usize == config.window);
        let Some((row, r)) = seen else {
            let len = steps.saturating_mul(config.kinds);
            let out = out.get_mut(..len).ok_or(Error::LengthMismatch)?;
            for step in out.chunks_exact_mut(config.kinds) {
                for (value, &amount) in step.iter_mut().zip(peak) {
                    *value = amount;
                }
            }
            return Ok(Prediction { steps, runs: 0 });
        };
        // Oldest first: the window is full, so the oldest run is in the slot written next.
        let slots = || {
            (0..config.window).map(|j| {
                let slot = (r.next as usize).saturating_add(j);
                slot.checked_rem(config.window).unwrap_or(0)
            })
        };
        let length = |slot: usize| r.lengths.get(slot).map_or(0, |&l| usize::from(l));
        let longest = slots().map(length).max().unwrap_or(0);
        let len = longest.saturating_mul(config.kinds);
        let out = out.get_mut(..len).ok_or(Error::LengthMismatch)?;
        for (t, step) in out.chunks_exact_mut(config.kinds).enumerate() {
            for (k, value) in step.iter_mut().enumerate() {
                let (mut sum, mut runs) = (0.0, 0u32);
                for slot in slots().filter(|&slot| length(slot) > t) {
                    let at = run_at(&config, row, slot)
                        .saturating_add(t.saturating_mul(config.kinds))
                        .saturating_add(k);
                    sum += amounts.get(at).copied().unwrap_or(0.0);
                    runs = runs.saturating_add(1);
                }
                *value = sum / f64::from(runs);
            }
        }
        Ok(Prediction {
            steps: longest,
            runs: config.window,
        })
    }
}

/// Where run `slot` of the application in `row` starts among the amounts.
fn run_at(config: &Config, row: u32, slot: usize) -> usize {
    (row as usize)
        .saturating_mul(config.window)
        .saturating_add(slot)
        .saturating_mul(config.stride())
}
