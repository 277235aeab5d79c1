//! C ABI of [`crate::drr::timeline`]: one machine's timeline (Elasecutor's `AR(j)` kept over
//! time) in memory the caller provides, set up as every object is:
//! `fairsched_drr_timeline_storage_size` then `fairsched_drr_timeline_init`. The memory belongs
//! to the caller: it must stay in place and alive while the handle is used, and is simply freed
//! afterwards. A handle must not be used from two threads at once.
//!
//! Series are time-major, as for the other DRR exports: the amount of kind `r` at step `t` is
//! `series[t * kinds + r]`. Executors get ids 1, 2, 3, ... in the order they are placed.

// The heartbeat takes every array as a pointer and its length.
#![allow(clippy::too_many_arguments)]

use super::drr::{FairschedDrrExecutors, METRICS};
use super::{
    boundary, decode, read, read_slice, table, write, write_slice, FairschedStatus, Status,
};
use crate::drr::timeline::{self, ExecutorRow, HEAPS};
use crate::drr::{Executor, Executors, Metric, Timeline};

/// A machine's timeline living in caller-provided memory. Opaque.
pub struct FairschedDrrTimeline {
    inner: Timeline<timeline::Borrowed<'static>>,
}

/// What one heartbeat of a timeline did (see `fairsched_drr_timeline_heartbeat`).
#[repr(C)]
pub struct FairschedDrrTimelineHeartbeat {
    /// Executors placed: the first `placed` entries of the placements.
    pub placed: usize,
    /// The machine's t_run afterwards.
    pub t_run: u32,
    /// θ(j) afterwards.
    pub drr: f64,
    /// The id of the first executor placed; the k-th placed (from 0) has id `first_id + k`.
    pub first_id: u64,
}

/// A timeline as a whole (see `fairsched_drr_timeline_stats_get`).
#[repr(C)]
pub struct FairschedDrrTimelineStats {
    /// The current step.
    pub now: u64,
    /// The id the next executor placed gets.
    pub next_id: u64,
    /// Executors running.
    pub running: u32,
    /// Executors the memory holds.
    pub capacity: u32,
    /// H, the steps of the available series.
    pub horizon: u32,
    /// t_run: the steps until the first running executor's series ends (H with none).
    pub t_run: u32,
    /// Resource kinds.
    pub kinds: u32,
    /// θ(j), the machine's DRR until t_run.
    pub drr: f64,
    /// Its TRC until t_run.
    pub trc: f64,
}

/// Writes into `*out_size` the bytes `fairsched_drr_timeline_init` needs for up to `capacity`
/// running executors on a machine of `kinds` kinds (1 to 8) over a horizon of `horizon` steps
/// (1 to 256): `(capacity + 1) * horizon * kinds` amounts and a row and a number per executor,
/// alignment slack included. Checks `out_size`, then the capacity (0 NOT_POSITIVE, UINT32_MAX
/// CAPACITY_TOO_LARGE), then `kinds` and `horizon` (0 EMPTY, above CAPACITY_FULL). Wraps
/// `drr::timeline::checked_amounts`.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_storage_size(
    capacity: u32,
    kinds: usize,
    horizon: u32,
    out_size: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let amounts = |capacity| Ok(timeline::checked_amounts(capacity, kinds, horizon)?);
        unsafe {
            table::storage_size_with_amounts::<FairschedDrrTimeline, ExecutorRow, HEAPS>(
                capacity, out_size, amounts,
            )
        }
    })
}

/// Builds the timeline of a machine of capacity `machine` (`machine_len` amounts, one per kind,
/// each positive and at most DBL_MAX / 256) over a horizon of `horizon` steps, at step 0 with
/// nothing running, for up to `capacity` running executors, inside `memory` (`memory_len`
/// bytes, at least what `fairsched_drr_timeline_storage_size` says for `capacity`,
/// `machine_len` and `horizon`; any alignment). On success `*out_timeline` points into
/// `memory`: keep `memory` to free it, in place and alive while the handle is used. Checks, in
/// this order: `out_timeline`, `memory` (NULL_POINTER), the capacity, the machine (as
/// `fairsched_drr_machine` checks a capacity) and `horizon` (0 EMPTY, above 256
/// CAPACITY_FULL), then BUFFER_TOO_SMALL. Wraps `Timeline::with_storage`.
///
/// # Safety
/// `memory` must be valid for writes of `memory_len` bytes and left alone while the handle
/// lives; `machine` must hold `machine_len` amounts; `out_timeline` must be NULL or valid for
/// a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_init(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    capacity: u32,
    machine: *const f64,
    machine_len: usize,
    horizon: u32,
    out_timeline: *mut *mut FairschedDrrTimeline,
) -> FairschedStatus {
    boundary(|| {
        let check = || {
            let machine = unsafe { read_slice(machine, machine_len) }?;
            let (resources, steps) = timeline::check_config(capacity as usize, machine, horizon)?;
            let amounts = timeline::amounts(capacity as usize, steps, resources.kinds());
            Ok((machine, amounts))
        };
        let build = |storage, machine: &[f64]| {
            let inner = Timeline::with_storage(storage, machine, horizon)?;
            Ok(FairschedDrrTimeline { inner })
        };
        unsafe {
            table::init_with_amounts(memory, memory_len, capacity, out_timeline, check, build)
        }
    })
}

/// Moves time `steps` steps on (0 is allowed and changes nothing): the available series slides,
/// and every executor whose series has ended by then is let go, finished as predicted; their
/// number goes to `*out_finished`. OUT_OF_RANGE when the clock would pass 2^64 - 257. Wraps
/// `Timeline::advance`.
///
/// # Safety
/// `timeline` must be NULL or a handle from `fairsched_drr_timeline_init` whose memory is
/// still valid; `out_finished` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_advance(
    timeline: *mut FairschedDrrTimeline,
    steps: u64,
    out_finished: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let timeline = unsafe { write(timeline) }?;
        let out = unsafe { write(out_finished) }?;
        *out = timeline.inner.advance(steps)?;
        Ok(())
    })
}

/// Places one executor now, reserving `demand` (its series from the current step,
/// `demand_len` amounts over the machine's kinds, at most the horizon), and writes its id to
/// `*out_id`. Errors: LENGTH_MISMATCH (not whole steps of the machine's kinds), EMPTY (no step),
/// CAPACITY_FULL (more than 256 steps; or the timeline runs as many executors as its capacity),
/// NOT_FINITE or NEGATIVE (an amount), OUT_OF_RANGE (longer than the horizon), DOES_NOT_FIT
/// (some step needs more of a kind than is available). Wraps `Timeline::place`.
///
/// # Safety
/// As for `fairsched_drr_timeline_advance`; `demand` must hold `demand_len` amounts (NULL
/// allowed for 0); `out_id` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_place(
    timeline: *mut FairschedDrrTimeline,
    demand: *const f64,
    demand_len: usize,
    out_id: *mut u64,
) -> FairschedStatus {
    boundary(|| {
        let timeline = &mut unsafe { write(timeline) }?.inner;
        let demand = unsafe { read_slice(demand, demand_len) }?;
        let out = unsafe { write(out_id) }?;
        let executor = Executor::new(demand, timeline.machine().kinds())?;
        *out = timeline.place(&executor)?;
        Ok(())
    })
}

/// Releases executor `id` before its series ends (finished early, or stopped): the rest of its
/// series becomes available again. UNKNOWN_ID for an id not running (never placed, released,
/// or let go when its series ended). Wraps `Timeline::release`.
///
/// # Safety
/// As for `fairsched_drr_timeline_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_release(
    timeline: *mut FairschedDrrTimeline,
    id: u64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(timeline) }?.inner.release(id)?))
}

/// Reprovisioning (§III-C) of running executor `id`: its series from the current step on is
/// scaled by `observed[r] / predicted[r]` per kind (both of the machine's kinds; a kind
/// predicted at zero is left as it is), as `fairsched_drr_reprovision` scales a series.
/// Errors, in this order: LENGTH_MISMATCH, NOT_FINITE or NEGATIVE (`observed`, `predicted`);
/// UNKNOWN_ID; OUT_OF_RANGE (a scaled amount would overflow); DOES_NOT_FIT (the scaled series
/// needs more than the machine has at some step). Wraps `Timeline::reprovision`.
///
/// # Safety
/// As for `fairsched_drr_timeline_advance`; each array must hold its length in amounts (NULL
/// allowed for 0).
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_reprovision(
    timeline: *mut FairschedDrrTimeline,
    id: u64,
    observed: *const f64,
    observed_len: usize,
    predicted: *const f64,
    predicted_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let timeline = unsafe { write(timeline) }?;
        let observed = unsafe { read_slice(observed, observed_len) }?;
        let predicted = unsafe { read_slice(predicted, predicted_len) }?;
        Ok(timeline.inner.reprovision(id, observed, predicted)?)
    })
}

/// One MinFrag heartbeat (Algorithm 1) of the machine: over the `steps_len` pending executors
/// (`demands` back to back, executor i running `steps[i]` steps, over the machine's kinds),
/// executor i standing for `counts[i]` identical ones (an application's executors; 1 for one,
/// 0 for none; `counts_len` must be `steps_len`), places the fitting one with the best score
/// under `metric` (FAIRSCHED_DRR_METRIC_*) until none fits, `out_placements_len` are placed,
/// or the timeline runs as many executors as its capacity. Writes the placed executors'
/// pending indices, in order, to the front of `out_placements` (an index repeats for copies),
/// and the summary; the executors get ids `first_id`, `first_id + 1`, ... in that order.
/// Errors: OUT_OF_RANGE (an unknown metric; an executor longer than the horizon); as
/// `fairsched_drr_min_frag` for the executors; LENGTH_MISMATCH (`counts_len`). On error
/// nothing is written. Wraps `Timeline::heartbeat`.
///
/// # Safety
/// As for `fairsched_drr_timeline_advance`; each array must hold its length in elements (NULL
/// allowed for 0); `out_heartbeat` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_heartbeat(
    timeline: *mut FairschedDrrTimeline,
    demands: *const f64,
    demands_len: usize,
    steps: *const u32,
    steps_len: usize,
    counts: *const u32,
    counts_len: usize,
    metric: u32,
    out_placements: *mut u32,
    out_placements_len: usize,
    out_heartbeat: *mut FairschedDrrTimelineHeartbeat,
) -> FairschedStatus {
    boundary(|| {
        let timeline = &mut unsafe { write(timeline) }?.inner;
        let demands = unsafe { read_slice(demands, demands_len) }?;
        let steps = unsafe { read_slice(steps, steps_len) }?;
        let counts = unsafe { read_slice(counts, counts_len) }?;
        let placements = unsafe { write_slice(out_placements, out_placements_len) }?;
        let out = unsafe { write(out_heartbeat) }?;
        let metric = decode(metric, &METRICS)?;
        let pending = Executors::new(demands, steps, timeline.machine().kinds())?;
        heartbeat(timeline, &pending, counts, metric, placements, out)
    })
}

/// `Timeline::heartbeat` with its summary written to `out`.
fn heartbeat(
    timeline: &mut Timeline<timeline::Borrowed<'static>>,
    pending: &Executors<'_>,
    counts: &[u32],
    metric: Metric,
    placements: &mut [u32],
    out: &mut FairschedDrrTimelineHeartbeat,
) -> Status<()> {
    let placed = timeline.heartbeat(pending, counts, metric, placements)?;
    *out = FairschedDrrTimelineHeartbeat {
        placed: placed.placed,
        t_run: placed.t_run,
        drr: placed.drr,
        first_id: placed.first_id,
    };
    Ok(())
}

/// `fairsched_drr_timeline_heartbeat` over executors laid out by
/// `fairsched_drr_executors_init`: the same result, the executors not checked again (only
/// against the machine: its kinds, LENGTH_MISMATCH, and its horizon, OUT_OF_RANGE);
/// `counts_len` must be their number. Statuses as `fairsched_drr_timeline_heartbeat` for valid
/// executors (NULL_POINTER also for a NULL `pending`).
///
/// # Safety
/// As for `fairsched_drr_timeline_advance`; `pending` must be NULL or a handle from
/// `fairsched_drr_executors_init` whose memory is still valid; each array must hold its length
/// in elements (NULL allowed for 0); `out_heartbeat` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_heartbeat_executors(
    timeline: *mut FairschedDrrTimeline,
    pending: *const FairschedDrrExecutors,
    counts: *const u32,
    counts_len: usize,
    metric: u32,
    out_placements: *mut u32,
    out_placements_len: usize,
    out_heartbeat: *mut FairschedDrrTimelineHeartbeat,
) -> FairschedStatus {
    boundary(|| {
        let timeline = &mut unsafe { write(timeline) }?.inner;
        let pending = &unsafe { read(pending) }?.inner;
        let counts = unsafe { read_slice(counts, counts_len) }?;
        let placements = unsafe { write_slice(out_placements, out_placements_len) }?;
        let out = unsafe { write(out_heartbeat) }?;
        let metric = decode(metric, &METRICS)?;
        heartbeat(timeline, pending, counts, metric, placements, out)
    })
}

/// Writes the timeline's state into `*out_stats`. Wraps `Timeline::stats`.
///
/// # Safety
/// `timeline` must be NULL or a valid handle; `out_stats` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_stats_get(
    timeline: *const FairschedDrrTimeline,
    out_stats: *mut FairschedDrrTimelineStats,
) -> FairschedStatus {
    boundary(|| {
        let timeline = unsafe { read(timeline) }?;
        let out = unsafe { write(out_stats) }?;
        let stats = timeline.inner.stats();
        // Counts fit: the capacity is below u32::MAX (checked at init), kinds and steps small.
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        *out = FairschedDrrTimelineStats {
            now: stats.now,
            next_id: stats.next_id,
            running: count(stats.running),
            capacity: count(stats.capacity),
            horizon: count(stats.horizon),
            t_run: count(stats.t_run),
            kinds: count(stats.kinds),
            drr: stats.drr,
            trc: stats.trc,
        };
        Ok(())
    })
}

/// Copies the machine's available series from the current step, H steps of its kinds, into
/// `out_available` (`out_available_len` must be exactly H * kinds: LENGTH_MISMATCH otherwise).
/// Wraps `Timeline::available`.
///
/// # Safety
/// `timeline` must be NULL or a valid handle; `out_available` must hold `out_available_len`
/// amounts (NULL allowed for 0).
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_timeline_available(
    timeline: *const FairschedDrrTimeline,
    out_available: *mut f64,
    out_available_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let timeline = unsafe { read(timeline) }?;
        let out = unsafe { write_slice(out_available, out_available_len) }?;
        let available = timeline.inner.available();
        if out.len() != available.len() {
            return Err(FairschedStatus::LengthMismatch);
        }
        out.copy_from_slice(available);
        Ok(())
    })
}
