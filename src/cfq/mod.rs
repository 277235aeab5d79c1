//! CFQ: Cluster Fair Queueing (Chen, Wang, Zhang, Li: *Cluster Fair Queueing: Speeding up
//! Data-Parallel Jobs with Delay Guarantees*, IEEE INFOCOM 2017).
//!
//! CFQ keeps an idealized fair scheduler, the cluster GPS, as a reference: every active job
//! receives `slots * w / W` slots, infinitely divisible. A job arriving at `a` with slot-time
//! `L` (its task run times summed on one slot) and weight `w` gets the virtual finish time
//! `F = V(a) + L / w`, the virtual time at which GPS completes it (§IV-C). Whenever a slot frees,
//! CFQ offers it to the backlogged job with the smallest `F`. Theorem 1 bounds how late a job
//! can finish against GPS: `f_j - f̄_j <= 2 l_max + L_max / M` (unweighted, constant `M`;
//! [`delay_bound`] computes it, and it holds with weights too).
//!
//! Two systems, one state:
//! - **GPS reference**: a job is active in GPS from its arrival until V reaches its `F`,
//!   whatever happens to it in the real system. The real time of that moment is the job's GPS
//!   completion time `f̄` ([`JobInfo::gps_completion`]), the reference for predictable
//!   performance. Departures are processed in order of `F` as time advances.
//! - **Real system**: a job is *backlogged* while it has pending tasks ([`Cfq::set_pending`]);
//!   [`Cfq::offer`] hands out `k` free slots in one call, each to the backlogged job with the
//!   smallest key and each consuming one pending task. The key is (virtual finish, arrival time,
//!   id): ties go to the earlier arrival, then to the lower id.
//!
//! Lifecycle: [`Cfq::arrive`] → [`Cfq::set_pending`] / [`Cfq::offer`] any number of times
//! (stages), and [`Cfq::reprofile`] while GPS has not completed the job, to correct its
//! slot-time → [`Cfq::complete`] (optional: records the real completion and keeps the job
//! queryable) → [`Cfq::remove`] (forgets the id; a job still active in GPS keeps its place
//! there, and its row, until its virtual finish, so the reference never depends on the real
//! system).
//!
//! Profiling: the slot-time a job arrives with is the caller's estimate (§IV-C: "profiled
//! once, upon arrival"). [`Profiler`] is the paper's naive profiler of §V-B (tasks × the mean
//! run time of every task finished so far); [`Cfq::reprofile`] corrects an estimate later.
//!
//! Costs: O(log N) per arrival, pending change, completion, removal and GPS departure;
//! O(log N) per job drained by an offer, O(1) per further slot given to the same job.
//!
//! Domain (so that no derived value can overflow): times in `[-MAX_TIME, MAX_TIME]`,
//! slot-times in `(0, MAX_SLOT_TIME]`, weights and slots positive integers. Times are in any
//! unit the caller likes, the same for time and slot-time. Weight 0 is rejected: a job with no
//! share would never finish in GPS.

mod bound;
mod gps;
mod profiler;
mod storage;

pub use bound::delay_bound;
pub use profiler::Profiler;
pub use storage::{Borrowed, Inline, JobRow, HEAPS};

use crate::heap::{self, Heap};
use crate::id_index::{self, TableHead};
use crate::num::{self, order_bits};
use crate::table::{self, Parts, PartsMut, Storage};
use crate::{Error, Result};
use gps::VirtualClock;
use storage::ArrivalThenId;

use storage::{BACKLOG, GPS};

/// The largest magnitude of a time: 2^60.
pub const MAX_TIME: f64 = 1_152_921_504_606_846_976.0;
/// The largest slot-time: 2^60.
pub const MAX_SLOT_TIME: f64 = 1_152_921_504_606_846_976.0;

/// A CFQ scheduler over storage `S` (see [`Inline`] and [`Borrowed`]).
pub struct Cfq<S: Storage<JobRow, HEAPS>> {
    clock: VirtualClock,
    table: TableHead,
    /// Jobs reachable by id (rows in use minus forgotten rows still in GPS).
    jobs: usize,
    gps_len: usize,
    backlog_len: usize,
    storage: S,
}

/// What the scheduler knows about one job.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JobInfo {
    /// The caller's id.
    pub id: u64,
    /// Arrival time.
    pub arrival: f64,
    /// Slot-time given at arrival, or at the last [`Cfq::reprofile`].
    pub slot_time: f64,
    /// Weight given at arrival.
    pub weight: u32,
    /// Virtual finish time `F = V(arrival) + slot_time / weight` (with the slot-time of the
    /// last [`Cfq::reprofile`], if any).
    pub virtual_finish: f64,
    /// Tasks waiting for a slot.
    pub pending_tasks: u32,
    /// Whether the job waits for slots (pending tasks > 0).
    pub backlogged: bool,
    /// The real time at which GPS completed the job; `None` while it is active in GPS (see
    /// [`Cfq::gps_completion_estimate`]).
    pub gps_completion: Option<f64>,
    /// The time given to [`Cfq::complete`] or [`Cfq::remove`]; `None` while running.
    pub completion: Option<f64>,
}

/// A snapshot of the scheduler as a whole.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Time of the last accepted call.
    pub now: f64,
    /// GPS virtual time at `now`.
    pub virtual_time: f64,
    /// Slots shared.
    pub slots: u32,
    /// Rows available in all.
    pub capacity: usize,
    /// Jobs reachable by id.
    pub jobs: usize,
    /// Jobs with pending tasks.
    pub backlogged: usize,
    /// Jobs active in GPS (including forgotten ones).
    pub gps_active: usize,
    /// Rows in use: jobs reachable by id plus forgotten jobs still active in GPS.
    pub rows_in_use: usize,
}

impl<const N: usize> Cfq<Inline<N>> {
    /// A scheduler for up to `N` jobs sharing `slots` slots, its clock at `start_time`.
    pub fn new(slots: u32, start_time: f64) -> Result<Self> {
        Self::with_storage(Inline::new(), slots, start_time)
    }
}

/// Checks what [`Cfq::with_storage`] checks, before any storage exists: the capacity
/// ([`table::check_capacity`]), at least one slot, a start time in range. Returns the start.
pub fn check_config(capacity: usize, slots: u32, start_time: f64) -> Result<f64> {
    table::check_capacity(capacity)?;
    if slots == 0 {
        return Err(Error::NotPositive);
    }
    checked_time(start_time, -MAX_TIME)
}

/// `t` if it is finite, within `±MAX_TIME` and not before `last`, in that order of checks.
fn checked_time(t: f64, last: f64) -> Result<f64> {
    let t = num::finite(t)?;
    if t.abs() > MAX_TIME {
        return Err(Error::OutOfRange);
    }
    if t < last {
        return Err(Error::TimeWentBackwards);
    }
    Ok(t)
}

/// `slot_time` if it is in CFQ's slot-time domain `(0, MAX_SLOT_TIME]`: [`Error::NotFinite`],
/// [`Error::NotPositive`] or [`Error::OutOfRange`] otherwise, in that order of checks.
pub(crate) fn checked_slot_time(slot_time: f64) -> Result<f64> {
    let slot_time = num::positive(slot_time)?;
    if slot_time > MAX_SLOT_TIME {
        return Err(Error::OutOfRange);
    }
    Ok(slot_time)
}

/// The row of job `id`, found in the table's `numbers` and `rows`, if it has not completed in
/// the real system. A free function over the parts, so that a call takes the storage's parts
/// once (each take builds the views anew).
#[inline]
fn running_row_of(numbers: &[u32], rows: &[JobRow], id: u64) -> Result<u32> {
    let row = known_row_of(numbers, rows, id)?;
    match rows.get(row as usize) {
        Some(r) if r.completed => Err(Error::JobCompleted),
        _ => Ok(row),
    }
}

/// The row of job `id`, found in the table's `numbers` and `rows`.
#[inline]
fn known_row_of(numbers: &[u32], rows: &[JobRow], id: u64) -> Result<u32> {
    id_index::find(numbers, rows, id).ok_or(Error::UnknownId)
}

/// Gives `row` `pending` waiting tasks: above zero it is backlogged (it enters the backlog
/// whose first `backlog_len` slots are in use, if it is not there), zero takes it out.
#[inline]
fn set_pending_of(
    rows: &mut [JobRow],
    backlog: &mut [heap::HeapSlot<u64>],
    backlog_len: &mut usize,
    row: u32,
    pending: u32,
) {
    let Some(r) = rows.get_mut(row as usize) else {
        return;
    };
    r.pending = pending;
    let key = order_bits(r.finish);
    let mut backlog = Heap::new(backlog, backlog_len, ArrivalThenId(rows));
    if pending == 0 {
        backlog.remove(row);
    } else if !heap::contains(backlog.slots(), row) {
        backlog.push(row, key);
    }
}

impl<S: Storage<JobRow, HEAPS>> Cfq<S> {
    /// A scheduler over `storage` (whose contents are overwritten) for `slots` slots, its clock
    /// at `start_time`. Capacity is the storage's length: at least 1, below `u32::MAX`.
    pub fn with_storage(mut storage: S, slots: u32, start_time: f64) -> Result<Self> {
        let start = check_config(storage.capacity(), slots, start_time)?;
        let table = table::reset(storage.parts_mut());
        Ok(Cfq {
            clock: VirtualClock::new(slots, start),
            table,
            jobs: 0,
            gps_len: 0,
            backlog_len: 0,
            storage,
        })
    }

    /// Number of jobs the storage holds.
    pub fn capacity(&self) -> usize {
        self.storage.capacity()
    }

    /// Number of jobs reachable by id.
    pub fn len(&self) -> usize {
        self.jobs
    }

    /// Whether no job is reachable by id.
    pub fn is_empty(&self) -> bool {
        self.jobs == 0
    }

    /// Time of the last accepted call.
    pub fn now(&self) -> f64 {
        self.clock.now
    }

    /// The whole scheduler at a glance.
    pub fn stats(&self) -> Stats {
        Stats {
            now: self.clock.now,
            virtual_time: self
                .clock
                .virtual_at(self.clock.now, self.smallest_active_finish()),
            slots: self.clock.slots(),
            capacity: self.capacity(),
            jobs: self.jobs,
            backlogged: heap::count(self.storage.parts().heaps[BACKLOG], self.backlog_len),
            gps_active: self.gps_len,
            rows_in_use: self.table.used(),
        }
    }

    /// Moves the clock to `now`, processing GPS departures up to it.
    pub fn advance(&mut self, now: f64) -> Result<()> {
        let t = checked_time(now, self.clock.now)?;
        self.advance_gps(t);
        Ok(())
    }

    /// From `now` on, GPS shares `slots` slots (machines joined or left). V is advanced to
    /// `now` with the old count first.
    pub fn set_slots(&mut self, now: f64, slots: u32) -> Result<()> {
        let t = checked_time(now, self.clock.now)?;
        if slots == 0 {
            return Err(Error::NotPositive);
        }
        self.advance_gps(t);
        self.clock.reanchor(t, self.smallest_active_finish());
        self.clock.set_slots(slots);
        Ok(())
    }

    /// A job arrives at `now` with `slot_time` of work and `weight`. It starts with no pending
    /// task; its virtual finish time is fixed here.
    ///
    /// [`Error::CapacityFull`] is judged at the time of the previous call: rows of forgotten
    /// jobs are freed as GPS completes them, so [`Cfq::advance`] first to reclaim them.
    pub fn arrive(&mut self, now: f64, id: u64, slot_time: f64, weight: u32) -> Result<()> {
        let t = checked_time(now, self.clock.now)?;
        let slot_time = checked_slot_time(slot_time)?;
        if weight == 0 {
            return Err(Error::NotPositive);
        }
        if self.known_row(id).is_ok() {
            return Err(Error::DuplicateId);
        }
        if self.table.used() >= self.capacity() {
            return Err(Error::CapacityFull);
        }

        self.advance_gps(t);
        self.clock.reanchor(t, self.smallest_active_finish());
        let start = self.clock.virtual_at(t, None);
        let finish = start + slot_time / f64::from(weight);
        self.clock.add_weight(weight);
        let PartsMut {
            rows,
            numbers: buckets,
            heaps: [gps, _],
            ..
        } = self.storage.parts_mut();
        let Some(row) = id_index::allocate(rows, &mut self.table) else {
            return Err(Error::CapacityFull);
        };
        if let Some(r) = rows.get_mut(row as usize) {
            r.id = id;
            r.arrival = t;
            r.slot_time = slot_time;
            r.weight = weight;
            r.finish = finish;
            r.gps_tag = start;
            r.completion = 0.0;
            r.pending = 0;
            r.gps_active = true;
            r.completed = false;
            r.forgotten = false;
        }
        Heap::new(gps, &mut self.gps_len, ArrivalThenId(rows)).push(row, order_bits(finish));
        id_index::index(buckets, rows, row);
        self.jobs = self.jobs.saturating_add(1);
        Ok(())
    }

    /// Corrects job `id`'s slot-time to `slot_time` at `now`, while it runs: the SPEC's
    /// "unless the caller explicitly re-profiles the job". As if `slot_time` had been known at
    /// arrival, its GPS start tag is kept: with `a` its arrival and `w` its weight,
    ///
    /// 1. the clock advances to `now` first, processing GPS departures up to it, as every
    ///    timed call does (with the job's old virtual finish, which held until `now`);
    /// 2. the job's virtual finish becomes `F' = V(a) + slot_time / w`, computed from `V(a)`
    ///    as stored at arrival, so it is bit for bit the `F` an arrival with `slot_time` would
    ///    have had (never `F + (L' - L) / w`, which rounds twice);
    /// 3. if `F' <= V(now)`, the job leaves GPS at `now`: its GPS completion is `now`, its
    ///    weight no longer counts in `W`, and `F'` (below `V(now)`) stays its backlog key; if
    ///    `F' > V(now)`, it stays in GPS until V reaches `F'`;
    /// 4. both heaps re-key it in O(log N): GPS (if still active there) and the backlog (if
    ///    backlogged, or when it next is). [`JobInfo::slot_time`] is `slot_time` from now on.
    ///
    /// A job GPS has already completed (judged at the previous call, see below) can still be
    /// corrected, and usually needs it most: an under-estimated job leaves GPS early and would
    /// otherwise keep its too-small key. Its GPS completion stands (the reference's past does
    /// not change) and it does not re-enter GPS; only its backlog key moves, to
    /// `F' = F + (L' - L) / w` (its start tag is no longer kept once GPS has completed it; the
    /// two roundings only place it in the backlog).
    ///
    /// V is re-anchored at `now` (as an arrival does), so that `F'` is compared with the same
    /// `V(now)` that later departures are computed from, and no GPS completion can fall before
    /// `now`. Re-profiling at the arrival's own time with the true slot-time gives exactly the
    /// schedule of an arrival with it (tested).
    ///
    /// Refused, with nothing changed, in this order: a bad time (as [`Cfq::advance`]); a
    /// slot-time outside `(0, MAX_SLOT_TIME]` ([`Error::NotFinite`], [`Error::NotPositive`],
    /// [`Error::OutOfRange`], as [`Cfq::arrive`]); an unknown id ([`Error::UnknownId`]); a job
    /// that completed in the real system ([`Error::JobCompleted`]). Whether GPS has completed
    /// the job is judged at the time of the previous call, since telling whether GPS completes
    /// it before `now` takes advancing to `now`: a job whose old estimate runs out in GPS
    /// between the previous call and `now` gets the `F'` of step 2 (its start tag was still
    /// kept), its GPS completion stands and the new key takes effect in the backlog only.
    pub fn reprofile(&mut self, now: f64, id: u64, slot_time: f64) -> Result<()> {
        let t = checked_time(now, self.clock.now)?;
        let slot_time = checked_slot_time(slot_time)?;
        let row = self.running_row(id)?;
        let finish = match self.storage.parts().rows.get(row as usize) {
            Some(r) if r.gps_active => r.gps_tag + slot_time / f64::from(r.weight),
            Some(r) => r.finish + (slot_time - r.slot_time) / f64::from(r.weight),
            None => return Err(Error::UnknownId),
        };
        self.advance_gps(t);
        self.clock.reanchor(t, self.smallest_active_finish());
        let v_now = self.clock.virtual_at(t, None);
        let PartsMut {
            rows,
            heaps: [gps, backlog],
            ..
        } = self.storage.parts_mut();
        let Some(r) = rows.get_mut(row as usize) else {
            return Ok(());
        };
        r.slot_time = slot_time;
        r.finish = finish;
        let (in_gps, leaves) = (r.gps_active, r.gps_active && finish <= v_now);
        if leaves {
            r.gps_active = false;
            r.gps_tag = t;
            self.clock.remove_weight(r.weight);
        }
        let key = order_bits(finish);
        let mut gps = Heap::new(gps, &mut self.gps_len, ArrivalThenId(rows));
        if leaves {
            gps.remove(row);
        } else if in_gps {
            gps.update(row, key);
        }
        Heap::new(backlog, &mut self.backlog_len, ArrivalThenId(rows)).update(row, key);
        Ok(())
    }

    /// Sets the number of tasks job `id` has waiting for a slot: above zero the job is
    /// backlogged, zero takes it out of the backlog.
    // Always inlined: a drain and the next job's entry are one decision, and the call's own
    // frame cost 11 of its 300 instructions (callgrind, 10K jobs).
    #[inline(always)]
    pub fn set_pending(&mut self, id: u64, pending_tasks: u32) -> Result<()> {
        let PartsMut {
            rows,
            numbers,
            heaps: [_, backlog],
            ..
        } = self.storage.parts_mut();
        let row = running_row_of(numbers, rows, id)?;
        set_pending_of(rows, backlog, &mut self.backlog_len, row, pending_tasks);
        Ok(())
    }

    /// [`Cfq::set_pending`] for many jobs in one call; all or nothing (every id is checked
    /// first). A repeated id takes its last count.
    pub fn set_pending_batch(&mut self, ids: &[u64], pending_tasks: &[u32]) -> Result<()> {
        if ids.len() != pending_tasks.len() {
            return Err(Error::LengthMismatch);
        }
        let PartsMut {
            rows,
            numbers,
            heaps: [_, backlog],
            ..
        } = self.storage.parts_mut();
        for &id in ids {
            running_row_of(numbers, rows, id)?;
        }
        for (&id, &pending) in ids.iter().zip(pending_tasks) {
            let row = running_row_of(numbers, rows, id)?;
            set_pending_of(rows, backlog, &mut self.backlog_len, row, pending);
        }
        Ok(())
    }

    /// Hands out up to `out.len()` free slots: each to the backlogged job with the smallest
    /// (virtual finish, arrival, id), each consuming one of its pending tasks. Writes one job
    /// id per slot and returns how many were written (fewer when the backlog runs dry).
    // Inlined where the caller allows it: a caller offering a slice of known length (one slot,
    // the common decision) gets the loop for that length alone, and any caller saves the
    // call's frame. Drain and re-enter, 10K jobs: 271.8 -> 228.8 instructions a decision with
    // one slot known at compile time, 289.9 -> 280.9 with the length known at run time only
    // (callgrind, (Ir(2N) - Ir(N)) / N).
    #[inline]
    pub fn offer(&mut self, out: &mut [u64]) -> usize {
        let PartsMut {
            rows,
            heaps: [_, backlog],
            ..
        } = self.storage.parts_mut();
        let slots = out.len();
        let mut free = out;
        while !free.is_empty() {
            // One view of the backlog a job: its rows are read through the tie-break's shared
            // borrow, and the job's count written once the view is gone.
            let shared: &[JobRow] = rows;
            let mut queue = Heap::new(&mut *backlog, &mut self.backlog_len, ArrivalThenId(shared));
            // A hole the previous drain left is filled first, when another slot follows it
            // in the same call (a single slot leaves it for the next entry to fill).
            let Some((_, row)) = queue.top() else {
                break;
            };
            let Some(job) = shared.get(row as usize) else {
                break;
            };
            let take = free.len().min(job.pending as usize);
            let Some((given, rest)) = core::mem::take(&mut free).split_at_mut_checked(take) else {
                break;
            };
            free = rest;
            if take == 0 {
                break;
            }
            match given {
                // The common take, one slot: written without setting up a fill loop.
                [one] => *one = job.id,
                _ => given.fill(job.id),
            }
            let left = job.pending.saturating_sub(take as u32);
            if left == 0 {
                // Leave the root a hole: when a job enters the backlog next (the common
                // sequel of a drain), it fills the hole in one pass.
                queue.pop_leaving_hole();
            }
            if let Some(job) = rows.get_mut(row as usize) {
                job.pending = left;
            }
        }
        slots.saturating_sub(free.len())
    }

    /// The job the next free slot would go to, without giving it.
    pub fn peek(&self) -> Option<u64> {
        let parts = self.storage.parts();
        let (_, row) = heap::peek(
            parts.heaps[BACKLOG],
            self.backlog_len,
            &ArrivalThenId(parts.rows),
        )?;
        parts.rows.get(row as usize).map(|r| r.id)
    }

    /// Job `id` finished in the real system at `now`: it leaves the backlog for good and stays
    /// queryable until [`Cfq::remove`]. Its place in GPS is unchanged.
    pub fn complete(&mut self, now: f64, id: u64) -> Result<()> {
        let t = checked_time(now, self.clock.now)?;
        let row = self.running_row(id)?;
        self.advance_gps(t);
        self.finish_in_real_system(row, t);
        Ok(())
    }

    /// Forgets job `id` at `now`, completing it first if it has not completed (a cancelled
    /// job). The id can be reused at once; a job still active in GPS keeps its place, and its
    /// row, until GPS completes it.
    pub fn remove(&mut self, now: f64, id: u64) -> Result<()> {
        let t = checked_time(now, self.clock.now)?;
        let row = self.known_row(id)?;
        self.advance_gps(t);
        self.finish_in_real_system(row, t);
        let PartsMut {
            rows,
            numbers: buckets,
            ..
        } = self.storage.parts_mut();
        id_index::unindex(buckets, rows, row);
        self.jobs = self.jobs.saturating_sub(1);
        match rows.get_mut(row as usize) {
            Some(r) if r.gps_active => r.forgotten = true,
            _ => id_index::release(rows, &mut self.table, row),
        }
        Ok(())
    }

    /// What the scheduler knows about job `id`.
    pub fn job(&self, id: u64) -> Result<JobInfo> {
        let row = self.known_row(id)?;
        let parts = self.storage.parts();
        let r = parts.rows.get(row as usize).ok_or(Error::UnknownId)?;
        Ok(JobInfo {
            id: r.id,
            arrival: r.arrival,
            slot_time: r.slot_time,
            weight: r.weight,
            virtual_finish: r.finish,
            pending_tasks: r.pending,
            backlogged: heap::contains(parts.heaps[BACKLOG], row),
            gps_completion: (!r.gps_active).then_some(r.gps_tag),
            completion: r.completed.then_some(r.completion),
        })
    }

    /// Job `id`'s GPS completion time: exact once GPS has completed it; before that, the time
    /// GPS will complete it if no further job arrives and the slot count stays. O(N): with no
    /// arrivals, each active job `i` holds weight `w_i` until V reaches `min(F_i, F_j)`, so
    /// `f̄_j = now + Σ_i w_i (min(F_i, F_j) - V(now)) / slots`.
    pub fn gps_completion_estimate(&self, id: u64) -> Result<f64> {
        let info = self.job(id)?;
        if let Some(done) = info.gps_completion {
            return Ok(done);
        }
        let parts = self.storage.parts();
        let now = self.clock.now;
        let v = self.clock.virtual_at(now, self.smallest_active_finish());
        let active = parts.heaps[GPS].get(..self.gps_len).unwrap_or_default();
        let weighted_work: f64 = active
            .iter()
            .filter_map(|slot| parts.rows.get(slot.item() as usize))
            .map(|r| f64::from(r.weight) * (r.finish.min(info.virtual_finish) - v))
            .sum();
        Ok(now + weighted_work / f64::from(self.clock.slots()))
    }

    fn known_row(&self, id: u64) -> Result<u32> {
        let parts = self.storage.parts();
        known_row_of(parts.numbers, parts.rows, id)
    }

    /// The row of job `id` if it has not completed in the real system.
    fn running_row(&self, id: u64) -> Result<u32> {
        let parts = self.storage.parts();
        running_row_of(parts.numbers, parts.rows, id)
    }

    fn smallest_active_finish(&self) -> Option<f64> {
        let Parts { rows, heaps, .. } = self.storage.parts();
        let (_, row) = heap::peek(heaps[GPS], self.gps_len, &ArrivalThenId(rows))?;
        rows.get(row as usize).map(|r| r.finish)
    }

    fn finish_in_real_system(&mut self, row: u32, t: f64) {
        let PartsMut {
            rows,
            heaps: [_, backlog],
            ..
        } = self.storage.parts_mut();
        set_pending_of(rows, backlog, &mut self.backlog_len, row, 0);
        if let Some(r) = rows.get_mut(row as usize) {
            if !r.completed {
                r.completed = true;
                r.completion = t;
            }
        }
    }

    /// Processes GPS departures up to real time `t` in order of virtual finish, then sets the
    /// clock to `t`. V is re-anchored only at departures, so advancing in one step or in many
    /// gives bit-identical results.
    fn advance_gps(&mut self, t: f64) {
        let PartsMut {
            rows,
            heaps: [gps, _],
            ..
        } = self.storage.parts_mut();
        while let Some((first, row)) = heap::peek(gps, self.gps_len, &ArrivalThenId(rows)) {
            let Some(finish) = rows.get(row as usize).map(|r| r.finish) else {
                break;
            };
            let departure = self.clock.time_of(finish);
            if departure > t {
                break;
            }
            self.clock.depart_at(finish, departure);
            while let Some((key, row)) = heap::peek(gps, self.gps_len, &ArrivalThenId(rows)) {
                if key != first {
                    break;
                }
                Heap::new(gps, &mut self.gps_len, ArrivalThenId(rows)).pop();
                let Some(r) = rows.get_mut(row as usize) else {
                    continue;
                };
                self.clock.remove_weight(r.weight);
                r.gps_active = false;
                r.gps_tag = departure;
                if r.forgotten {
                    id_index::release(rows, &mut self.table, row);
                }
            }
        }
        self.clock.now = t;
    }
}
