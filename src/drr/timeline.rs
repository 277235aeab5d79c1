//! One machine over time, as Elasecutor's scheduling module keeps it (Liu, Xu: *Elasecutor:
//! Elastic Executor Scheduling in Data Analytics Systems*, IEEE/ACM Transactions on
//! Networking, 2021; §III-B, Table V's `AR(j)`, and §III-C): the executors running on it, each
//! holding its predicted demand series from the step it started, and what that leaves, the
//! available series `AR` over a horizon of `H` steps from now.
//!
//! The timeline is what a caller otherwise keeps beside [`crate::drr::min_frag()`]: it
//! [advances](Timeline::advance) time by steps (an executor whose series has ended has finished
//! as predicted and is let go), [places](Timeline::place) executors (each reserves its series
//! from the current step), [releases](Timeline::release) executors that finish earlier than
//! predicted (the rest of their series comes back), [reprovisions](Timeline::reprovision) a
//! running executor (§III-C: its remaining series scaled by observed over predicted usage),
//! and knows `t_run` (the steps until the first running executor's series ends, `H` with none
//! running). A MinFrag heartbeat is then one call, [`Timeline::heartbeat`], on the timeline's
//! own view of the machine ([`Timeline::view`]).
//!
//! **Nothing is over-committed.** Every call that takes resources checks, step by step and
//! kind by kind, that the machine has them ([`Error::DoesNotFit`] otherwise, with nothing
//! changed), so `AR` never goes below zero.
//!
//! **`AR` is exact.** At every step `t` and kind `r`, `AR[t][r]` is the capacity minus the
//! demand of every executor running at `t`, subtracted one at a time in the order they were
//! placed: `((C[r] - d_1) - d_2) - ...`, bit for bit. Placing an executor subtracts its series
//! from `AR` as that order does; releasing or reprovisioning one recomputes the steps it held
//! in that order, so that no rounding residue of an add-back is left behind. Executors are
//! numbered in the order they were placed: ids `1, 2, 3, ...`, never reused by a timeline.
//!
//! **Memory.** A [`crate::table`] of one [`ExecutorRow`] per executor (`capacity` of them: the
//! most a machine runs at once), its `numbers` column holding the running ones in placement
//! order, no heap, and a column of [`amounts`]`(capacity, H, kinds)` amounts: `AR`, then each
//! row's demand series, `H` steps each (an executor's series runs at most `H` steps).
//!
//! ```
//! use fairsched::drr::{timeline, Executor, Executors, Metric, Timeline};
//!
//! // One kind of capacity 4, a horizon of 3 steps, room for 8 executors.
//! type Storage = timeline::Inline<8, { timeline::amounts(8, 3, 1) }>;
//! let mut machine = Timeline::<Storage>::new(&[4.0], 3)?;
//! // An application of 3 executors of 2 then 1, and one executor of 1 for three steps.
//! let pending = Executors::new(&[2.0, 1.0, 1.0, 1.0, 1.0], &[2, 3], 1)?;
//! let mut placed = [0u32; 8];
//! let beat = machine.heartbeat(&pending, &[3, 1], Metric::Drr, &mut placed)?;
//! assert_eq!(&placed[..beat.placed], &[0, 0]); // two copies fill step 0
//! assert_eq!(machine.available(), [0.0, 2.0, 4.0]);
//! machine.advance(1)?; // one step on: the third copy fits
//! assert_eq!(machine.place(&Executor::new(&[2.0, 1.0], 1)?), Ok(3));
//! machine.release(1)?; // executor 1 finished early
//! assert_eq!(machine.available(), [1.0, 3.0, 4.0]);
//! # Ok::<(), fairsched::Error>(())
//! ```

use super::machine::{check_executor, check_pending, machine_capacity, Machine};
use super::min_frag::place;
use super::remaining::fits;
use super::reprovision::{factors, scaled};
use super::series::{check_kinds, check_steps, Executor, Executors, MAX_STEPS};
use super::Metric;
use crate::id_index::{self, impl_row, Links, TableHead};
use crate::resources::{Resources, MAX_KINDS};
use crate::table::{self, Parts, PartsMut, Storage, Vacant};
use crate::{Error, Result};

/// A timeline's table has no heap.
pub const HEAPS: usize = 0;

/// The last step a timeline's clock reaches: [`MAX_STEPS`] short of `u64::MAX`, so that every
/// executor's end step is a `u64`.
pub const MAX_NOW: u64 = u64::MAX - MAX_STEPS as u64;

/// One running executor: its id, the step it started and how many steps its series runs. Its
/// series is the row's block of the amounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecutorRow {
    id: u64,
    start: u64,
    steps: u32,
    links: Links,
}

impl_row!(ExecutorRow);

impl Vacant for ExecutorRow {
    type Key = u64;
    const VACANT: ExecutorRow = ExecutorRow {
        id: 0,
        start: 0,
        steps: 0,
        links: Links::NONE,
    };
}

impl ExecutorRow {
    /// The step its series ends: it runs over `start..end`.
    fn end(&self) -> u64 {
        self.start.saturating_add(u64::from(self.steps))
    }
}

/// Arrays for `N` executors and `A` amounts, owned: `A` must be at least
/// [`amounts`]`(N, H, kinds)` (box it when large).
pub type Inline<const N: usize, const A: usize> = table::Inline<ExecutorRow, N, HEAPS, A>;

/// Slices the caller owns: a row and a number per executor, and the amounts.
pub type Borrowed<'a> = table::BorrowedWithAmounts<'a, ExecutorRow, HEAPS>;

/// The amounts a timeline of `capacity` executors over a horizon of `horizon` steps and `kinds`
/// kinds needs: `(capacity + 1) · horizon · kinds` (`AR`, then one series per executor);
/// `usize::MAX` when that does not fit a `usize`.
pub const fn amounts(capacity: usize, horizon: usize, kinds: usize) -> usize {
    capacity
        .saturating_add(1)
        .saturating_mul(horizon)
        .saturating_mul(kinds)
}

/// [`amounts`] for `kinds` kinds (1 to 8: [`Error::Empty`] for 0, [`Error::CapacityFull`]
/// above) and a horizon of `horizon` steps (1 to [`MAX_STEPS`], the same errors).
pub fn checked_amounts(capacity: usize, kinds: usize, horizon: u32) -> Result<usize> {
    let kinds = check_kinds(kinds)?;
    let horizon = check_steps(horizon as usize)?;
    Ok(amounts(capacity, horizon, kinds))
}

/// What [`Timeline::heartbeat`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// Executors placed; their pending indices are the first `placed` entries of the
    /// placements, in order.
    pub placed: usize,
    /// The id of the first one placed: the `k`-th placed (from 0) has id `first_id + k`. The
    /// id the next executor placed will get when none was placed.
    pub first_id: u64,
    /// The machine's `t_run` afterwards.
    pub t_run: u32,
    /// `θ(j)` afterwards.
    pub drr: f64,
}

/// A timeline as a whole.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// The current step.
    pub now: u64,
    /// The id the next executor placed gets.
    pub next_id: u64,
    /// Executors running.
    pub running: usize,
    /// Executors the memory holds.
    pub capacity: usize,
    /// `H`, the steps of `AR`.
    pub horizon: usize,
    /// Resource kinds.
    pub kinds: usize,
    /// `t_run`: 1 to `H`.
    pub t_run: usize,
    /// `θ(j)`, the machine's DRR until `t_run`.
    pub drr: f64,
    /// Its TRC until `t_run`.
    pub trc: f64,
}

/// A machine's timeline over storage `S` (see [`Inline`] and [`Borrowed`]).
pub struct Timeline<S: Storage<ExecutorRow, HEAPS>> {
    storage: S,
    table: TableHead,
    machine: Resources,
    horizon: usize,
    now: u64,
    next_id: u64,
}

impl<const N: usize, const A: usize> Timeline<Inline<N, A>> {
    /// A timeline for up to `N` running executors; as [`Timeline::with_storage`].
    pub fn new(machine: &[f64], horizon: u32) -> Result<Self> {
        Self::with_storage(Inline::new(), machine, horizon)
    }
}

/// Checks a timeline's configuration, before any memory is touched: `capacity` as
/// [`table::check_capacity`], then the machine's `capacity` per kind as
/// [`crate::drr::Machine::new`] takes it, then `horizon`, 1 to [`MAX_STEPS`]
/// ([`Error::Empty`] for 0, [`Error::CapacityFull`] above). Returns the capacity and the
/// horizon validated.
pub fn check_config(capacity: usize, machine: &[f64], horizon: u32) -> Result<(Resources, usize)> {
    table::check_capacity(capacity)?;
    let machine = machine_capacity(machine)?;
    let horizon = check_steps(horizon as usize)?;
    Ok((machine, horizon))
}

impl<S: Storage<ExecutorRow, HEAPS>> Timeline<S> {
    /// A timeline of a machine of capacity `machine` (one amount per kind, 1 to 8 kinds, each
    /// positive and at most `f64::MAX / 256`) over a horizon of `horizon` steps (1 to
    /// [`MAX_STEPS`]), at step 0, with nothing running: `AR` is the capacity at every step.
    /// `storage` holds [`Timeline::capacity`] executors; its amounts must number at least
    /// [`amounts`]`(capacity, horizon, kinds)` ([`Error::LengthMismatch`] otherwise). Other
    /// errors as [`check_config`].
    pub fn with_storage(mut storage: S, machine: &[f64], horizon: u32) -> Result<Self> {
        let (machine, horizon) = check_config(storage.capacity(), machine, horizon)?;
        let need = amounts(storage.capacity(), horizon, machine.kinds());
        if storage.parts().amounts.len() < need {
            return Err(Error::LengthMismatch);
        }
        let parts = storage.parts_mut();
        let available = parts.amounts.get_mut(..need).unwrap_or_default();
        available.fill(0.0);
        for row in available.chunks_exact_mut(machine.kinds()).take(horizon) {
            for (have, &c) in row.iter_mut().zip(machine.as_slice()) {
                *have = c;
            }
        }
        let table = table::reset(parts);
        Ok(Timeline {
            storage,
            table,
            machine,
            horizon,
            now: 0,
            next_id: 1,
        })
    }

    /// The most executors it runs at once.
    pub fn capacity(&self) -> usize {
        self.storage.capacity()
    }

    /// The machine's capacity.
    pub fn machine(&self) -> &Resources {
        &self.machine
    }

    /// `H`: the steps `AR` covers.
    pub fn horizon(&self) -> usize {
        self.horizon
    }

    /// The current step.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The executors running.
    pub fn running(&self) -> usize {
        self.table.used()
    }

    /// The id the next executor placed gets.
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// `AR`, the available series from the current step, time-major: `H` steps.
    pub fn available(&self) -> &[f64] {
        let stride = self.stride();
        self.storage
            .parts()
            .amounts
            .get(..stride)
            .unwrap_or_default()
    }

    /// `t_run`: the steps until the first running executor's series ends, 1 to `H`; `H` when
    /// none runs.
    pub fn t_run(&self) -> usize {
        let Parts { rows, numbers, .. } = self.storage.parts();
        let running = numbers.get(..self.table.used()).unwrap_or_default();
        running
            .iter()
            .filter_map(|&row| rows.get(row as usize))
            .map(|row| row.end().saturating_sub(self.now))
            .min()
            .map_or(self.horizon, |t| {
                usize::try_from(t).unwrap_or(usize::MAX).min(self.horizon)
            })
    }

    /// The machine as MinFrag sees it now: its capacity, `AR` and `t_run`.
    pub fn view(&self) -> Machine<'_> {
        Machine::trusted(self.machine, self.available(), self.t_run())
    }

    /// The timeline as a whole.
    pub fn stats(&self) -> Stats {
        let view = self.view();
        Stats {
            now: self.now,
            next_id: self.next_id,
            running: self.running(),
            capacity: self.capacity(),
            horizon: self.horizon,
            kinds: self.machine.kinds(),
            t_run: view.t_run(),
            drr: view.drr(),
            trc: view.trc(),
        }
    }

    /// Moves time `steps` steps on: `AR` slides by that many steps, the steps entering at its
    /// end are the whole capacity (no executor reaches that far), and every executor whose
    /// series has ended by the new step has finished as predicted and is let go. Returns how
    /// many were let go. 0 steps change nothing. [`Error::OutOfRange`] when the clock would
    /// pass [`MAX_NOW`].
    pub fn advance(&mut self, steps: u64) -> Result<usize> {
        let now = self
            .now
            .checked_add(steps)
            .filter(|&now| now <= MAX_NOW)
            .ok_or(Error::OutOfRange)?;
        let (stride, kinds) = (self.stride(), self.machine.kinds());
        let PartsMut {
            rows,
            numbers,
            amounts,
            ..
        } = self.storage.parts_mut();
        let running = self.table.used();
        let mut kept = 0usize;
        for k in 0..running {
            let Some(row) = numbers.get(k).copied() else {
                break;
            };
            if rows.get(row as usize).is_some_and(|r| r.end() <= now) {
                id_index::release(rows, &mut self.table, row);
            } else {
                if let Some(slot) = numbers.get_mut(kept) {
                    *slot = row;
                }
                kept = kept.saturating_add(1);
            }
        }
        let available = amounts.get_mut(..stride).unwrap_or_default();
        let shift = usize::try_from(steps).map_or(self.horizon, |s| s.min(self.horizon));
        let entering = shift.saturating_mul(kinds);
        if entering <= available.len() {
            available.rotate_left(entering);
        }
        let rows_left = self.horizon.saturating_sub(shift);
        for row in available.chunks_exact_mut(kinds).skip(rows_left) {
            for (have, &c) in row.iter_mut().zip(self.machine.as_slice()) {
                *have = c;
            }
        }
        self.now = now;
        Ok(running.saturating_sub(kept))
    }

    /// Places one executor now: it reserves `demand` (its series from this step) and gets the
    /// next id, which is returned. Errors, in this order (nothing changes): the executor's
    /// kinds are not the machine's ([`Error::LengthMismatch`]) or it runs longer than the
    /// horizon ([`Error::OutOfRange`]); no room for another executor
    /// ([`Error::CapacityFull`], also when the ids ran out); it does not fit, some step of it
    /// needing more of a kind than `AR` has ([`Error::DoesNotFit`]).
    pub fn place(&mut self, demand: &Executor<'_>) -> Result<u64> {
        check_executor(
            self.machine.kinds(),
            self.horizon,
            demand.kinds(),
            demand.steps(),
        )?;
        if self.room() == 0 {
            return Err(Error::CapacityFull);
        }
        if !fits(&self.machine, self.available(), demand.demand()) {
            return Err(Error::DoesNotFit);
        }
        let stride = self.stride();
        let available = self.storage.parts_mut().amounts;
        for (have, &need) in available.iter_mut().take(stride).zip(demand.demand()) {
            *have -= need;
        }
        Ok(self.hold(demand))
    }

    /// Releases executor `id` before its series ends (it finished early, or was stopped): the
    /// rest of its series comes back to `AR`. [`Error::UnknownId`] for an id that is not
    /// running (never placed, released, or let go when its series ended).
    pub fn release(&mut self, id: u64) -> Result<()> {
        let (position, row) = self.find(id)?;
        let held = self.steps_left(row);
        let PartsMut { rows, numbers, .. } = self.storage.parts_mut();
        let running = numbers.get_mut(..self.table.used()).unwrap_or_default();
        if let Some(after) = running.get_mut(position..) {
            after.rotate_left(1);
        }
        id_index::release(rows, &mut self.table, row);
        self.recompute(held);
        Ok(())
    }

    /// Reprovisions executor `id` (§III-C): its remaining series, from the current step to its
    /// end, is scaled by `observed[r] / predicted[r]` for each kind `r`, the usage observed
    /// over one monitoring period against the usage predicted for it (a kind predicted at zero
    /// is left as it is), exactly as [`crate::drr::reprovision()`] scales a series; `AR` follows.
    ///
    /// Errors, in this order (nothing changes): `observed` or `predicted` not of the machine's
    /// kinds ([`Error::LengthMismatch`]) or an amount not finite or negative
    /// ([`Error::NotFinite`], [`Error::Negative`]); `id` not running ([`Error::UnknownId`]); a
    /// scaled amount would overflow ([`Error::OutOfRange`]); the scaled series does not fit,
    /// which the paper leaves to task rescheduling (§III-D) ([`Error::DoesNotFit`]).
    pub fn reprovision(&mut self, id: u64, observed: &[f64], predicted: &[f64]) -> Result<()> {
        let factors = factors(self.machine.kinds(), observed, predicted)?;
        let (_, row) = self.find(id)?;
        let held = self.steps_left(row);
        let kinds = self.machine.kinds();
        let remaining = self.remaining_mut(row);
        if !remaining
            .chunks_exact(kinds)
            .all(|step| scaled(step, &factors).all(f64::is_finite))
        {
            return Err(Error::OutOfRange);
        }
        let scaling = Some((row, &factors));
        let fits = (0..held).all(|t| {
            let (values, kinds) = (self.fold(t, scaling), self.machine.kinds());
            values.iter().take(kinds).all(|&have| have >= 0.0)
        });
        if !fits {
            return Err(Error::DoesNotFit);
        }
        for step in self.remaining_mut(row).chunks_exact_mut(kinds) {
            for (amount, f) in step.iter_mut().zip(factors) {
                *amount *= f;
            }
        }
        self.recompute(held);
        Ok(())
    }

    /// One MinFrag heartbeat (Algorithm 1, §III-B2) on this machine: among the `pending`
    /// executors that fit `AR`, place the one with the best score under `metric` (for DRR the
    /// smallest `θ(i, j)`; ties: lower index), and repeat until none fits, `placements` is
    /// full, or the machine runs [`Timeline::capacity`] executors. Pending executor `i` stands
    /// for `counts[i]` identical executors (an application's `N_i`, §III-B1; 1 for a single
    /// executor, 0 for none): it may be placed up to that many times, each copy with its own id,
    /// which is the heartbeat Algorithm 1 makes over the copies one after another.
    ///
    /// Each executor placed is placed as [`Timeline::place`] places it: its index goes to the
    /// front of `placements` (in order; an index repeats for copies), its id is the next one
    /// ([`Placed::first_id`] onwards). Errors, before anything changes: `counts` not one per
    /// pending executor, or an executor of other kinds than the machine's
    /// ([`Error::LengthMismatch`]); one running longer than the horizon ([`Error::OutOfRange`]).
    pub fn heartbeat(
        &mut self,
        pending: &Executors<'_>,
        counts: &[u32],
        metric: Metric,
        placements: &mut [u32],
    ) -> Result<Placed> {
        check_pending(self.machine.kinds(), self.horizon, pending)?;
        if counts.len() != pending.len() {
            return Err(Error::LengthMismatch);
        }
        let limit = placements.len().min(self.room());
        let placements = placements.get_mut(..limit).unwrap_or_default();
        let (t_run, first_id, stride) = (self.t_run(), self.next_id, self.stride());
        let machine = self.machine;
        let available = self.storage.parts_mut().amounts;
        let available = available.get_mut(..stride).unwrap_or_default();
        let (placed, _) = place(
            &machine,
            available,
            t_run,
            pending,
            Some(counts),
            metric,
            placements,
        );
        for &chosen in placements.iter().take(placed) {
            if let Some(executor) = pending.iter().nth(chosen as usize) {
                self.hold(&executor);
            }
        }
        let view = self.view();
        Ok(Placed {
            placed,
            first_id,
            t_run: u32::try_from(view.t_run()).unwrap_or(u32::MAX),
            drr: view.drr(),
        })
    }

    /// Amounts per series: `H · kinds`.
    fn stride(&self) -> usize {
        self.horizon.saturating_mul(self.machine.kinds())
    }

    /// How many more executors can be placed: free rows, and ids left.
    fn room(&self) -> usize {
        let ids = usize::try_from(u64::MAX.saturating_sub(self.next_id)).unwrap_or(usize::MAX);
        self.capacity().saturating_sub(self.running()).min(ids)
    }

    /// Records `executor` as running from now, with the next id, in a free row (there is one:
    /// [`Timeline::room`]); `AR` already holds its series. Returns its id.
    fn hold(&mut self, executor: &Executor<'_>) -> u64 {
        let (id, stride, now) = (self.next_id, self.stride(), self.now);
        let PartsMut {
            rows,
            numbers,
            amounts,
            ..
        } = self.storage.parts_mut();
        let Some(row) = id_index::allocate(rows, &mut self.table) else {
            return id;
        };
        if let Some(r) = rows.get_mut(row as usize) {
            r.id = id;
            r.start = now;
            r.steps = u32::try_from(executor.steps()).unwrap_or(u32::MAX);
        }
        let block = (row as usize).saturating_add(1).saturating_mul(stride);
        let series = amounts.get_mut(block..).unwrap_or_default();
        for (slot, &need) in series.iter_mut().zip(executor.demand()) {
            *slot = need;
        }
        if let Some(last) = numbers.get_mut(self.table.used().saturating_sub(1)) {
            *last = row;
        }
        self.next_id = id.saturating_add(1);
        id
    }

    /// The position among the running executors (in placement order) and the row of `id`.
    fn find(&self, id: u64) -> Result<(usize, u32)> {
        let Parts { rows, numbers, .. } = self.storage.parts();
        let running = numbers.get(..self.table.used()).unwrap_or_default();
        let position = running
            .binary_search_by_key(&id, |&row| rows.get(row as usize).map_or(0, |r| r.id))
            .map_err(|_| Error::UnknownId)?;
        let row = running.get(position).copied().ok_or(Error::UnknownId)?;
        Ok((position, row))
    }

    /// The steps of `AR` the executor in `row` holds: from now to the end of its series.
    fn steps_left(&self, row: u32) -> usize {
        let rows = self.storage.parts().rows;
        rows.get(row as usize).map_or(0, |r| {
            let left = r.end().saturating_sub(self.now);
            usize::try_from(left).unwrap_or(usize::MAX)
        })
    }

    /// The executor in `row`'s series from now to its end.
    fn remaining_mut(&mut self, row: u32) -> &mut [f64] {
        let (stride, kinds, now) = (self.stride(), self.machine.kinds(), self.now);
        let PartsMut { rows, amounts, .. } = self.storage.parts_mut();
        let Some(r) = rows.get(row as usize) else {
            return &mut [];
        };
        let done = usize::try_from(now.saturating_sub(r.start)).unwrap_or(usize::MAX);
        let steps = r.steps as usize;
        let block = (row as usize).saturating_add(1).saturating_mul(stride);
        let series = amounts.get_mut(block..).unwrap_or_default();
        let range = done.saturating_mul(kinds)..steps.saturating_mul(kinds);
        series.get_mut(range).unwrap_or_default()
    }

    /// `AR` at step `t` from now, kind by kind, computed from the running executors: the
    /// capacity, minus each one's demand at that step in placement order. With `scaling`, the
    /// executor in that row counts scaled by those factors, as [`scaled`] scales.
    fn fold(&self, t: usize, scaling: Option<(u32, &[f64; MAX_KINDS])>) -> [f64; MAX_KINDS] {
        let (stride, kinds) = (self.stride(), self.machine.kinds());
        let at = self.now.saturating_add(t as u64);
        let Parts {
            rows,
            numbers,
            amounts,
            ..
        } = self.storage.parts();
        let mut values = [0.0; MAX_KINDS];
        for (value, &c) in values.iter_mut().zip(self.machine.as_slice()) {
            *value = c;
        }
        for &row in numbers.get(..self.table.used()).unwrap_or_default() {
            let Some(r) = rows.get(row as usize).filter(|r| at < r.end()) else {
                continue;
            };
            let step = usize::try_from(at.saturating_sub(r.start)).unwrap_or(usize::MAX);
            let block = (row as usize).saturating_add(1).saturating_mul(stride);
            let from = block.saturating_add(step.saturating_mul(kinds));
            let need = amounts
                .get(from..from.saturating_add(kinds))
                .unwrap_or_default();
            let factors = match scaling {
                Some((scaled_row, factors)) if scaled_row == row => *factors,
                _ => [1.0; MAX_KINDS],
            };
            let needs = scaled(need, &factors);
            for (value, need) in values.iter_mut().zip(needs) {
                *value -= need;
            }
        }
        values
    }

    /// Recomputes the first `steps` steps of `AR` from the running executors ([`Self::fold`]).
    fn recompute(&mut self, steps: usize) {
        let kinds = self.machine.kinds();
        for t in 0..steps.min(self.horizon) {
            let values = self.fold(t, None);
            let from = t.saturating_mul(kinds);
            let available = self.storage.parts_mut().amounts;
            let row = available
                .get_mut(from..from.saturating_add(kinds))
                .unwrap_or_default();
            for (have, &value) in row.iter_mut().zip(&values) {
                *have = value;
            }
        }
    }
}
