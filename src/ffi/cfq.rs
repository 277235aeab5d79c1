//! C ABI of [`crate::cfq`]: a CFQ scheduler in memory the caller provides.
//!
//! The caller asks [`fairsched_cfq_storage_size`] how many bytes a capacity needs, allocates
//! them (any alignment), and calls [`fairsched_cfq_init`], which builds the scheduler inside that
//! memory and returns a handle pointing into it. The memory belongs to the caller: it must stay
//! put (no copy, no move) and alive while the handle is used, and is simply freed afterwards;
//! nothing else needs releasing. A handle must not be used from two threads at once.

use super::{
    boundary, read, read_slice, table, write, write_maybe, write_slice, FairschedStatus, Status,
};
use crate::cfq::{self, Borrowed, Cfq, JobRow, Profiler, HEAPS};

/// A CFQ scheduler living in caller-provided memory. Opaque.
pub struct FairschedCfq {
    inner: Cfq<Borrowed<'static>>,
}

/// What the scheduler knows about one job (see `fairsched_cfq_job_get`).
#[repr(C)]
pub struct FairschedCfqJobInfo {
    /// The caller's id.
    pub id: u64,
    /// Arrival time.
    pub arrival: f64,
    /// Slot-time given at arrival, or at the last `fairsched_cfq_reprofile`.
    pub slot_time: f64,
    /// Virtual finish time F = V(arrival) + slot_time / weight.
    pub virtual_finish: f64,
    /// GPS completion time when `gps_active` is false; 0 otherwise (see
    /// `fairsched_cfq_gps_completion_estimate`).
    pub gps_completion: f64,
    /// Real completion time when `completed` is true; 0 otherwise.
    pub completion: f64,
    /// Weight given at arrival.
    pub weight: u32,
    /// Tasks waiting for a slot.
    pub pending_tasks: u32,
    /// Whether the job waits for slots.
    pub backlogged: bool,
    /// Whether the job is still active in the GPS reference.
    pub gps_active: bool,
    /// Whether the job completed in the real system.
    pub completed: bool,
}

/// The scheduler as a whole (see `fairsched_cfq_stats_get`).
#[repr(C)]
pub struct FairschedCfqStats {
    /// Time of the last accepted call.
    pub now: f64,
    /// GPS virtual time at `now`.
    pub virtual_time: f64,
    /// Slots shared.
    pub slots: u32,
    /// Jobs the memory holds.
    pub capacity: u32,
    /// Jobs reachable by id.
    pub jobs: u32,
    /// Jobs with pending tasks.
    pub backlogged: u32,
    /// Jobs active in GPS (including removed ones GPS has not completed yet).
    pub gps_active: u32,
    /// Rows in use: jobs reachable by id plus removed jobs still active in GPS.
    pub rows_in_use: u32,
}

/// Writes into `*out_size` the number of bytes `fairsched_cfq_init` needs for `capacity` jobs
/// (alignment slack included). Wraps `table::check_capacity`.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_storage_size(
    capacity: u32,
    out_size: *mut usize,
) -> FairschedStatus {
    boundary(|| unsafe { table::storage_size::<FairschedCfq, JobRow, HEAPS>(capacity, out_size) })
}

/// Builds a CFQ scheduler for `capacity` jobs sharing `slots` slots, its clock at `start_time`,
/// inside `memory` (`memory_len` bytes, at least what `fairsched_cfq_storage_size` says; any
/// alignment). On success `*out_cfq` points into `memory`, possibly not at its start (it is
/// aligned inside it): keep `memory` to free it, and keep it in place and alive while the handle
/// is used. Nothing else needs releasing. A handle must not be used from two threads at once.
/// Wraps `Cfq::with_storage`.
///
/// # Safety
/// `memory` must be valid for writes of `memory_len` bytes and not used otherwise while the
/// handle lives.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_init(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    capacity: u32,
    slots: u32,
    start_time: f64,
    out_cfq: *mut *mut FairschedCfq,
) -> FairschedStatus {
    boundary(|| {
        let check = || Ok(cfq::check_config(capacity as usize, slots, start_time)?);
        let build = |storage, start_time| {
            let inner = Cfq::with_storage(storage, slots, start_time)?;
            Ok(FairschedCfq { inner })
        };
        unsafe { table::init(memory, memory_len, capacity, out_cfq, check, build) }
    })
}

/// Moves the clock to `now`, processing GPS departures. Wraps `Cfq::advance`.
///
/// # Safety
/// `cfq` must be NULL or a handle from `fairsched_cfq_init` whose memory is still valid.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_advance(
    cfq: *mut FairschedCfq,
    now: f64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(cfq) }?.inner.advance(now)?))
}

/// From `now` on, GPS shares `slots` slots. Wraps `Cfq::set_slots`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_set_slots(
    cfq: *mut FairschedCfq,
    now: f64,
    slots: u32,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(cfq) }?.inner.set_slots(now, slots)?))
}

/// Job `job_id` arrives at `now` with `slot_time` of work and `weight` (>= 1), with no pending
/// task. Wraps `Cfq::arrive`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_arrive(
    cfq: *mut FairschedCfq,
    now: f64,
    job_id: u64,
    slot_time: f64,
    weight: u32,
) -> FairschedStatus {
    boundary(|| {
        let cfq = unsafe { write(cfq) }?;
        Ok(cfq.inner.arrive(now, job_id, slot_time, weight)?)
    })
}

/// Corrects the slot-time of job `job_id` to `slot_time` at `now`, as if it had been known at
/// arrival: the clock advances to `now`, then the job's virtual finish becomes
/// F' = V(arrival) + slot_time / weight (bit for bit what an arrival with `slot_time` would have
/// given); if F' <= V(now) the job leaves GPS at `now` (its GPS completion). Its places in GPS
/// and in the backlog follow. A job GPS had completed by the previous call keeps its GPS
/// completion, and only its backlog key moves, to F + (slot_time - old slot_time) / weight.
/// FAIRSCHED_STATUS_JOB_COMPLETED for a job that completed in the real system. Other statuses as
/// `fairsched_cfq_arrive` for `now` and `slot_time`, then UNKNOWN_ID. Wraps `Cfq::reprofile`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_reprofile(
    cfq: *mut FairschedCfq,
    now: f64,
    job_id: u64,
    slot_time: f64,
) -> FairschedStatus {
    boundary(|| {
        let cfq = unsafe { write(cfq) }?;
        Ok(cfq.inner.reprofile(now, job_id, slot_time)?)
    })
}

/// Sets the number of tasks job `job_id` has waiting for a slot. Wraps `Cfq::set_pending`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_set_pending(
    cfq: *mut FairschedCfq,
    job_id: u64,
    pending_tasks: u32,
) -> FairschedStatus {
    boundary(|| {
        Ok(unsafe { write(cfq) }?
            .inner
            .set_pending(job_id, pending_tasks)?)
    })
}

/// Sets pending tasks for many jobs at once, all or nothing. Wraps `Cfq::set_pending_batch`.
///
/// # Safety
/// As for `fairsched_cfq_advance`; each array must hold its length in elements (NULL allowed
/// for length 0).
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_set_pending_batch(
    cfq: *mut FairschedCfq,
    job_ids: *const u64,
    job_ids_len: usize,
    pending_tasks: *const u32,
    pending_tasks_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let cfq = unsafe { write(cfq) }?;
        let ids = unsafe { read_slice(job_ids, job_ids_len) }?;
        let pending = unsafe { read_slice(pending_tasks, pending_tasks_len) }?;
        Ok(cfq.inner.set_pending_batch(ids, pending)?)
    })
}

/// Hands out `out_job_ids_len` free slots, smallest virtual finish first, one job id per slot
/// into `out_job_ids` (NULL allowed when 0); `*out_assigned` is how many were written. Wraps
/// `Cfq::offer`.
///
/// # Safety
/// As for `fairsched_cfq_advance`; `out_job_ids` must have room for `out_job_ids_len` ids.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_offer(
    cfq: *mut FairschedCfq,
    out_job_ids: *mut u64,
    out_job_ids_len: usize,
    out_assigned: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let cfq = unsafe { write(cfq) }?;
        let assigned = unsafe { write(out_assigned) }?;
        let ids = unsafe { write_slice(out_job_ids, out_job_ids_len) }?;
        *assigned = cfq.inner.offer(ids);
        Ok(())
    })
}

/// The job the next slot would go to, without giving it: `*out_found` tells whether there is
/// one, and `*out_job_id` is written only when there is. Wraps `Cfq::peek`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_peek(
    cfq: *const FairschedCfq,
    out_job_id: *mut u64,
    out_found: *mut bool,
) -> FairschedStatus {
    boundary(|| {
        let cfq = unsafe { read(cfq) }?;
        let out = unsafe { write_maybe(out_job_id, out_found) }?;
        out.set(cfq.inner.peek());
        Ok(())
    })
}

/// Job `job_id` finished in the real system at `now`. Wraps `Cfq::complete`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_complete(
    cfq: *mut FairschedCfq,
    now: f64,
    job_id: u64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(cfq) }?.inner.complete(now, job_id)?))
}

/// Forgets job `job_id` at `now` (completing it first if needed); its place in GPS is kept
/// until GPS completes it. Wraps `Cfq::remove`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_remove(
    cfq: *mut FairschedCfq,
    now: f64,
    job_id: u64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(cfq) }?.inner.remove(now, job_id)?))
}

/// What the scheduler knows about job `job_id`. Wraps `Cfq::job`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_job_get(
    cfq: *const FairschedCfq,
    job_id: u64,
    out_info: *mut FairschedCfqJobInfo,
) -> FairschedStatus {
    boundary(|| {
        let cfq = unsafe { read(cfq) }?;
        let out = unsafe { write(out_info) }?;
        let job = cfq.inner.job(job_id)?;
        *out = FairschedCfqJobInfo {
            id: job.id,
            arrival: job.arrival,
            slot_time: job.slot_time,
            virtual_finish: job.virtual_finish,
            gps_completion: job.gps_completion.unwrap_or(0.0),
            completion: job.completion.unwrap_or(0.0),
            weight: job.weight,
            pending_tasks: job.pending_tasks,
            backlogged: job.backlogged,
            gps_active: job.gps_completion.is_none(),
            completed: job.completion.is_some(),
        };
        Ok(())
    })
}

/// Job `job_id`'s GPS completion time: exact once GPS completed it, else assuming no further
/// arrival and constant slots. O(N). Wraps `Cfq::gps_completion_estimate`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_gps_completion_estimate(
    cfq: *const FairschedCfq,
    job_id: u64,
    out_time: *mut f64,
) -> FairschedStatus {
    boundary(|| {
        let cfq = unsafe { read(cfq) }?;
        let out = unsafe { write(out_time) }?;
        *out = cfq.inner.gps_completion_estimate(job_id)?;
        Ok(())
    })
}

/// The scheduler as a whole. Wraps `Cfq::stats`.
///
/// # Safety
/// As for `fairsched_cfq_advance`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_stats_get(
    cfq: *const FairschedCfq,
    out_stats: *mut FairschedCfqStats,
) -> FairschedStatus {
    boundary(|| {
        let cfq = unsafe { read(cfq) }?;
        let out = unsafe { write(out_stats) }?;
        let stats = cfq.inner.stats();
        // Counts fit: capacity is below u32::MAX (checked at init).
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        *out = FairschedCfqStats {
            now: stats.now,
            virtual_time: stats.virtual_time,
            slots: stats.slots,
            capacity: count(stats.capacity),
            jobs: count(stats.jobs),
            backlogged: count(stats.backlogged),
            gps_active: count(stats.gps_active),
            rows_in_use: count(stats.rows_in_use),
        };
        Ok(())
    })
}

/// The CFQ paper's naive profiler (§V-B): the mean run time of every task observed, and a new
/// job's slot-time estimated as its tasks times that mean. A plain value the caller owns (on
/// the stack, in a struct, anywhere; copy it freely): no storage to ask for, nothing to
/// release. All zeros is the empty profiler, as `fairsched_cfq_profiler_init` writes it. The
/// fields are readable; change them only through the calls. Not to be used from two threads
/// at once.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct FairschedCfqProfiler {
    /// Durations observed.
    pub count: u64,
    /// Their sum, rounded to nearest.
    pub sum: f64,
    /// The exact sum minus `sum`: the sum is kept as two doubles, so that billions of
    /// observations add no drift (see the `cfq::Profiler` documentation).
    pub sum_low: f64,
}

impl FairschedCfqProfiler {
    fn get(&self) -> Profiler {
        Profiler::from_parts(self.count, self.sum, self.sum_low)
    }

    fn set(&mut self, profiler: Profiler) {
        (self.count, self.sum, self.sum_low) = profiler.parts();
    }

    /// Applies `change` to a copy of the profiler and writes it back only on success.
    fn update(&mut self, change: impl FnOnce(&mut Profiler) -> crate::Result<()>) -> Status {
        let mut profiler = self.get();
        change(&mut profiler)?;
        self.set(profiler);
        Ok(())
    }
}

/// Writes the empty profiler into `*out_profiler`. Wraps `cfq::Profiler::new`.
///
/// # Safety
/// `out_profiler` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_profiler_init(
    out_profiler: *mut FairschedCfqProfiler,
) -> FairschedStatus {
    boundary(|| {
        unsafe { write(out_profiler) }?.set(Profiler::new());
        Ok(())
    })
}

/// Observes one finished task that ran `duration`: finite (FAIRSCHED_STATUS_NOT_FINITE), not
/// negative (FAIRSCHED_STATUS_NEGATIVE) and at most 2^60 (FAIRSCHED_STATUS_OUT_OF_RANGE, as is
/// a count of observations past 2^64 - 1). Wraps `cfq::Profiler::observe`.
///
/// # Safety
/// `profiler` must be NULL or point to a profiler valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_profiler_observe(
    profiler: *mut FairschedCfqProfiler,
    duration: f64,
) -> FairschedStatus {
    boundary(|| unsafe { write(profiler) }?.update(|p| p.observe(duration)))
}

/// Observes `durations_len` finished tasks in one call, all or nothing (each duration checked
/// as by `fairsched_cfq_profiler_observe` first; NULL allowed for length 0). Wraps
/// `cfq::Profiler::observe_batch`.
///
/// # Safety
/// As for `fairsched_cfq_profiler_observe`; `durations` must hold `durations_len` doubles.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_profiler_observe_batch(
    profiler: *mut FairschedCfqProfiler,
    durations: *const f64,
    durations_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let profiler = unsafe { write(profiler) }?;
        let durations = unsafe { read_slice(durations, durations_len) }?;
        profiler.update(|p| p.observe_batch(durations))
    })
}

/// Writes into `*out_bound` Theorem 1's bound on how late CFQ completes a job against GPS,
/// `2 * longest_task + largest_slot_time / slots` (it holds with weights too): `longest_task`
/// the longest run time of any task and `largest_slot_time` the largest slot-time of any job,
/// each in (0, 2^60] (FAIRSCHED_STATUS_NOT_FINITE, _NOT_POSITIVE or _OUT_OF_RANGE otherwise),
/// `longest_task` at most `largest_slot_time` (FAIRSCHED_STATUS_OUT_OF_RANGE otherwise),
/// `slots` at least 1 (FAIRSCHED_STATUS_NOT_POSITIVE). Wraps `cfq::delay_bound`.
///
/// # Safety
/// `out_bound` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_delay_bound(
    longest_task: f64,
    largest_slot_time: f64,
    slots: u32,
    out_bound: *mut f64,
) -> FairschedStatus {
    boundary(|| {
        let out = unsafe { write(out_bound) }?;
        *out = cfq::delay_bound(longest_task, largest_slot_time, slots)?;
        Ok(())
    })
}

/// Writes into `*out_slot_time` the slot-time of a new job of `tasks` tasks: `tasks` times the
/// mean duration observed, ready for `fairsched_cfq_arrive` or `fairsched_cfq_reprofile`.
/// FAIRSCHED_STATUS_NOT_POSITIVE for 0 tasks; FAIRSCHED_STATUS_EMPTY before any observation;
/// an estimate outside (0, 2^60] is FAIRSCHED_STATUS_NOT_POSITIVE (every duration was 0) or
/// FAIRSCHED_STATUS_OUT_OF_RANGE. Wraps `cfq::Profiler::estimate`.
///
/// # Safety
/// `profiler` must be NULL or point to a profiler valid for reads; `out_slot_time` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_cfq_profiler_estimate(
    profiler: *const FairschedCfqProfiler,
    tasks: u64,
    out_slot_time: *mut f64,
) -> FairschedStatus {
    boundary(|| {
        let profiler = unsafe { read(profiler) }?;
        let out = unsafe { write(out_slot_time) }?;
        *out = profiler.get().estimate(tasks)?;
        Ok(())
    })
}
