//! C ABI of [`crate::paf`]: Performance-Aware Fair allocation over flat arrays.
//!
//! Allocation and enforcement need scratch space for a number of jobs fixed in advance: the
//! caller asks [`fairsched_paf_storage_size`] how many bytes a capacity needs, allocates them
//! (any alignment) and calls [`fairsched_paf_init`], which returns a handle pointing into that
//! memory. The memory belongs to the caller: it must stay in place and alive while the handle
//! is used, and is simply freed afterwards. A handle must not be used from two threads at once.
//! The Ernest and curve helpers need no handle, nor does building a curve from task durations
//! ([`fairsched_paf_curve_from_tasks`]), whose scratch the caller passes as an array.
//!
//! Jobs travel as flat arrays: `weights[j]` for `j < jobs_len`; job `j`'s progress curve
//! `p(0..=d_j)` at `points[curve_offsets[j] .. curve_offsets[j + 1]]`, where `curve_offsets`
//! has `jobs_len + 1` entries, starts at 0, never decreases and ends at `points_len` (the curves
//! concatenated in job order; a curve's length is its demand plus one). Per-job outputs are
//! arrays of `jobs_len` elements. A job without a progress curve (§IV-A) has `d_j + 1` points
//! that are all NaN: it keeps exactly its fair share, takes no part in transfers, and its two
//! progress outputs are NaN.

use super::{
    boundary, decode, laid_out, lay_out, read, read_slice, table, write, write_slice,
    FairschedStatus, Status,
};
use crate::paf::{
    curve, ernest, profile, Allocation, Borrowed, Bracket, Curve, Ernest, FlatJobs, Job, Method,
    Paf, Totals, HEAPS,
};

/// A PAF workspace living in caller-provided memory. Opaque.
pub struct FairschedPaf {
    inner: Paf<Borrowed<'static>>,
}

/// `method` of `fairsched_paf_allocate`: Algorithm 1 one slot at a time (the reference).
pub const FAIRSCHED_PAF_LITERAL: u32 = 0;
/// `method` of `fairsched_paf_allocate`: the fast algorithm (same result).
pub const FAIRSCHED_PAF_FAST: u32 = 1;
/// The method of each code.
const METHODS: [(u32, Method); 2] = [
    (FAIRSCHED_PAF_LITERAL, Method::Literal),
    (FAIRSCHED_PAF_FAST, Method::Fast),
];

/// The allocation as a whole, against fair sharing (see `fairsched_paf_allocate`).
#[repr(C)]
pub struct FairschedPafTotals {
    /// Slots allocated, the same under both: min(slots, sum of demands).
    pub slots: u64,
    /// Slots moved from givers to takers.
    pub moved: u64,
    /// Total progress at the fair shares.
    pub fair_progress: f64,
    /// Total progress at the PAF allocations (never below fair_progress).
    pub paf_progress: f64,
    /// The largest relative loss of a job, 1 - p(paf) / p(fair) (at most 1 - alpha).
    pub largest_loss: f64,
}

/// Writes into `*out_size` the bytes `fairsched_paf_init` needs for calls of up to `capacity`
/// jobs (alignment slack included). Wraps `table::check_capacity`.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_storage_size(
    capacity: u32,
    out_size: *mut usize,
) -> FairschedStatus {
    boundary(|| unsafe { table::storage_size::<FairschedPaf, Bracket, HEAPS>(capacity, out_size) })
}

/// Builds a PAF workspace for calls of up to `capacity` jobs inside `memory` (`memory_len`
/// bytes, at least what `fairsched_paf_storage_size` says; any alignment). On success
/// `*out_paf` points into `memory`: keep `memory` to free it, in place and alive while the
/// handle is used. Wraps `Paf::with_storage`.
///
/// # Safety
/// `memory` must be valid for writes of `memory_len` bytes and not used otherwise while the
/// handle lives; `out_paf` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_init(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    capacity: u32,
    out_paf: *mut *mut FairschedPaf,
) -> FairschedStatus {
    boundary(|| {
        let build = |storage, ()| {
            let inner = Paf::with_storage(storage)?;
            Ok(FairschedPaf { inner })
        };
        unsafe { table::init(memory, memory_len, capacity, out_paf, || Ok(()), build) }
    })
}

/// Algorithm 1 for `weights_len` jobs (one weight each) (layout in the header's PAF section) sharing `slots` slots
/// with fairness knob `alpha` in [0, 1], by `method` (`FAIRSCHED_PAF_LITERAL` or
/// `FAIRSCHED_PAF_FAST`, same result). Writes, per job, the fair share, minAlloc, PAF
/// allocation and the progress at both into the five `out_` arrays (`weights_len` each; NULL
/// allowed when 0), and the totals into `*out_totals`. Every job is checked first: a failed
/// call writes nothing. Wraps `FlatJobs::new` and `Paf::allocate`.
///
/// # Safety
/// `paf` must be NULL or a handle from `fairsched_paf_init` whose memory is still valid; each
/// array must hold the elements said above (NULL allowed for none); `out_totals` must be NULL
/// or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_allocate(
    paf: *mut FairschedPaf,
    weights: *const u32,
    weights_len: usize,
    curve_offsets: *const u32,
    points: *const f64,
    points_len: usize,
    slots: u32,
    alpha: f64,
    method: u32,
    out_fair: *mut u32,
    out_min: *mut u32,
    out_paf: *mut u32,
    out_fair_progress: *mut f64,
    out_paf_progress: *mut f64,
    out_totals: *mut FairschedPafTotals,
) -> FairschedStatus {
    boundary(|| {
        let workspace = unsafe { write(paf) }?;
        let weights = unsafe { read_slice(weights, weights_len) }?;
        let offsets = unsafe { read_slice(curve_offsets, weights_len.saturating_add(1)) }?;
        let points = unsafe { read_slice(points, points_len) }?;
        let out = unsafe {
            outputs(
                weights_len,
                out_fair,
                out_min,
                out_paf,
                out_fair_progress,
                out_paf_progress,
            )
        }?;
        let totals = unsafe { write(out_totals) }?;
        let method = decode(method, &METHODS)?;
        let jobs = FlatJobs::new(weights, offsets, points)?;
        *totals = workspace
            .inner
            .allocate(&jobs, slots, alpha, method, out)?
            .into();
        Ok(())
    })
}

/// The five per-job outputs of an allocation of `n` jobs, or NULL_POINTER.
///
/// # Safety
/// Each pointer must be NULL or valid for writes of `n` elements, none overlapping another.
unsafe fn outputs<'a>(
    n: usize,
    fair: *mut u32,
    min: *mut u32,
    paf: *mut u32,
    fair_progress: *mut f64,
    paf_progress: *mut f64,
) -> Status<Allocation<'a>> {
    unsafe {
        Ok(Allocation {
            fair: write_slice(fair, n)?,
            min: write_slice(min, n)?,
            paf: write_slice(paf, n)?,
            fair_progress: write_slice(fair_progress, n)?,
            paf_progress: write_slice(paf_progress, n)?,
        })
    }
}

impl From<Totals> for FairschedPafTotals {
    fn from(t: Totals) -> Self {
        FairschedPafTotals {
            slots: t.slots,
            moved: t.moved,
            fair_progress: t.fair_progress,
            paf_progress: t.paf_progress,
            largest_loss: t.largest_loss,
        }
    }
}

/// Jobs laid out once in caller-provided memory (`fairsched_paf_jobs_init`) for any number of
/// allocations (`fairsched_paf_allocate_jobs`): their weights and curves copied, each curve
/// checked once, with where its concave tail starts, as Rust callers keep a slice of
/// `paf::Job`. Opaque.
pub struct FairschedPafJobs {
    jobs: &'static [Job<'static>],
}

/// Writes into `*out_size` the number of bytes `fairsched_paf_jobs_init` needs for `jobs_len`
/// jobs whose curves hold `points_len` points in all (alignment slack included);
/// CAPACITY_TOO_LARGE when that is not addressable.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_jobs_storage_size(
    jobs_len: usize,
    points_len: usize,
    out_size: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let out = unsafe { write(out_size) }?;
        *out = laid_out::<FairschedPafJobs, Job<'static>, f64>(jobs_len, points_len)?
            .0
            .bytes()?;
        Ok(())
    })
}

/// Lays out `weights_len` jobs (the flat arrays of `fairsched_paf_allocate`: one weight each,
/// curves at `points[curve_offsets[j] .. curve_offsets[j + 1]]`) inside `memory` (`memory_len`
/// bytes, at least what `fairsched_paf_jobs_storage_size` says for `weights_len` and
/// `points_len`; any alignment), copying them, so that `fairsched_paf_allocate_jobs` allocates
/// over them without checking them again. Checks, in this order: `out_jobs` and `memory` for
/// NULL, the arrays as `fairsched_paf_allocate` checks them (the same statuses), then the size
/// (BUFFER_TOO_SMALL). On success `*out_jobs` points into `memory`: keep `memory` to free it,
/// in place and alive while the handle is used; the arrays passed are not used afterwards.
/// Wraps `FlatJobs::new`, `Curve::new` and `Job::new`.
///
/// # Safety
/// `memory` must be NULL or valid for writes of `memory_len` bytes and not used otherwise
/// while the handle lives; each array must hold the elements said above (NULL allowed for
/// none); `out_jobs` must be NULL or valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_paf_jobs_init(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    weights: *const u32,
    weights_len: usize,
    curve_offsets: *const u32,
    points: *const f64,
    points_len: usize,
    out_jobs: *mut *mut FairschedPafJobs,
) -> FairschedStatus {
    boundary(|| {
        let out = unsafe { write(out_jobs) }?;
        if memory.is_null() {
            return Err(FairschedStatus::NullPointer);
        }
        let weights = unsafe { read_slice(weights, weights_len) }?;
        let offsets = unsafe { read_slice(curve_offsets, weights_len.saturating_add(1)) }?;
        let points = unsafe { read_slice(points, points_len) }?;
        FlatJobs::new(weights, offsets, points)?;
        let vacant = Job::without_curve(1, 0)?;
        // SAFETY: the caller promised the memory is ours while the handle lives.
        let (handle, jobs, copied) = unsafe {
            lay_out::<FairschedPafJobs, Job<'static>, f64>(
                memory,
                memory_len,
                (weights.len(), vacant),
                (points.len(), 0.0),
            )
        }?;
        copied.copy_from_slice(points);
        let copied: &'static [f64] = copied;
        for ((job, &weight), ends) in jobs.iter_mut().zip(weights).zip(offsets.windows(2)) {
            let range = match *ends {
                [start, end] => copied.get(start as usize..end as usize),
                _ => None,
            }
            .ok_or(FairschedStatus::NotMonotone)?;
            // FlatJobs::new let through only checked curves and ranges of NaNs alone.
            *job = match range.first() {
                Some(p) if p.is_nan() => {
                    Job::without_curve(weight, range.len().saturating_sub(1) as u32)?
                }
                _ => Job::new(weight, Curve::new(range)?)?,
            };
        }
        unsafe { handle.write(FairschedPafJobs { jobs }) };
        *out = handle;
        Ok(())
    })
}

/// `fairsched_paf_allocate` over jobs laid out by `fairsched_paf_jobs_init`: the same result,
/// the jobs not checked again. The five `out_` arrays hold one element per job. Statuses as
/// `fairsched_paf_allocate` for valid jobs (NULL_POINTER also for a NULL `jobs`).
///
/// # Safety
/// `paf` must be NULL or a handle from `fairsched_paf_init`, `jobs` NULL or a handle from
/// `fairsched_paf_jobs_init`, each with its memory still valid; the arrays must hold the
/// elements said above (NULL allowed for none) and not overlap the jobs' memory; `out_totals`
/// must be NULL or valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_paf_allocate_jobs(
    paf: *mut FairschedPaf,
    jobs: *const FairschedPafJobs,
    slots: u32,
    alpha: f64,
    method: u32,
    out_fair: *mut u32,
    out_min: *mut u32,
    out_paf: *mut u32,
    out_fair_progress: *mut f64,
    out_paf_progress: *mut f64,
    out_totals: *mut FairschedPafTotals,
) -> FairschedStatus {
    boundary(|| {
        let workspace = unsafe { write(paf) }?;
        let jobs = unsafe { read(jobs) }?.jobs;
        let n = jobs.len();
        let out = unsafe {
            outputs(
                n,
                out_fair,
                out_min,
                out_paf,
                out_fair_progress,
                out_paf_progress,
            )
        }?;
        let totals = unsafe { write(out_totals) }?;
        let method = decode(method, &METHODS)?;
        *totals = workspace
            .inner
            .allocate(jobs, slots, alpha, method, out)?
            .into();
        Ok(())
    })
}

/// Which jobs get `out_jobs_len` free slots (§IV-B): each to a job below its target, the one
/// holding the fewest slots per unit of weight (smallest `running[j] / weights[j]`, ties to
/// the lower index). Writes one job index per slot into `out_jobs` and the count into
/// `*out_assigned` (fewer when every job reaches its target). `weights`, `targets` and
/// `running` hold one value per job (LENGTH_MISMATCH otherwise; a weight of 0 is
/// NOT_POSITIVE). Wraps `Paf::enforce`.
///
/// # Safety
/// As for `fairsched_paf_allocate`; each array must hold its length in elements.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_enforce(
    paf: *mut FairschedPaf,
    weights: *const u32,
    weights_len: usize,
    targets: *const u32,
    targets_len: usize,
    running: *const u32,
    running_len: usize,
    out_jobs: *mut u32,
    out_jobs_len: usize,
    out_assigned: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let workspace = unsafe { write(paf) }?;
        let weights = unsafe { read_slice(weights, weights_len) }?;
        let targets = unsafe { read_slice(targets, targets_len) }?;
        let running = unsafe { read_slice(running, running_len) }?;
        let out = unsafe { write_slice(out_jobs, out_jobs_len) }?;
        let assigned = unsafe { write(out_assigned) }?;
        *assigned = workspace.inner.enforce(weights, targets, running, out)?;
        Ok(())
    })
}

/// Fits an Ernest model to samples (`slots[i]` slots, normalized run time `runtimes[i]`; the
/// two of equal length, LENGTH_MISMATCH otherwise) by non-negative least squares; writes
/// `a0..a3` into `out_coefficients` (4 doubles). Wraps `paf::ernest::fit`.
///
/// # Safety
/// `slots` and `runtimes` must hold their lengths in elements (NULL allowed for 0);
/// `out_coefficients` must be NULL or valid for 4 writes.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_ernest_fit(
    slots: *const u32,
    slots_len: usize,
    runtimes: *const f64,
    runtimes_len: usize,
    out_coefficients: *mut f64,
) -> FairschedStatus {
    boundary(|| {
        let out = unsafe { write_slice(out_coefficients, ernest::FEATURES) }?;
        let slots = unsafe { read_slice(slots, slots_len) }?;
        let runtimes = unsafe { read_slice(runtimes, runtimes_len) }?;
        out.copy_from_slice(&ernest::fit(slots, runtimes)?.coefficients());
        Ok(())
    })
}

/// Writes the progress curve `p(0..out_points_len)` of the Ernest model `coefficients` (4
/// doubles, a0..a3) into `out_points`, never falling (`Ernest::tabulate`): a job of demand
/// `out_points_len - 1`. Wraps `Ernest::new` and `Ernest::tabulate`.
///
/// # Safety
/// `coefficients` must be NULL or valid for 4 reads; `out_points` must hold `out_points_len`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_ernest_tabulate(
    coefficients: *const f64,
    out_points: *mut f64,
    out_points_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let given = unsafe { read_slice(coefficients, ernest::FEATURES) }?;
        let out = unsafe { write_slice(out_points, out_points_len) }?;
        let mut a = [0.0; ernest::FEATURES];
        a.copy_from_slice(given);
        Ok(Ernest::new(a)?.tabulate(out)?)
    })
}

/// Checks the curve `points` (`p(0..points_len)`) as allocation does and writes into
/// `*out_concave_from` the smallest `k` such that it is concave on `k..=d` (0: concave).
/// Wraps `curve::check` and `curve::concave_from`.
///
/// # Safety
/// `points` must hold `points_len` elements; `out_concave_from` must be NULL or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_curve_check(
    points: *const f64,
    points_len: usize,
    out_concave_from: *mut u32,
) -> FairschedStatus {
    boundary(|| {
        let out = unsafe { write(out_concave_from) }?;
        let points = unsafe { read_slice(points, points_len) }?;
        *out = crate::paf::Curve::new(points)?.concave_from();
        Ok(())
    })
}

/// Writes the upper concave envelope of the curve `points` into `out_points` (of the same
/// length, LENGTH_MISMATCH otherwise). Wraps `curve::concave_envelope`.
///
/// # Safety
/// Each array must hold its length in elements; they must not overlap.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_concave_envelope(
    points: *const f64,
    points_len: usize,
    out_points: *mut f64,
    out_points_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let points = unsafe { read_slice(points, points_len) }?;
        let out = unsafe { write_slice(out_points, out_points_len) }?;
        Ok(curve::concave_envelope(points, out)?)
    })
}

/// Writes the progress curve `p(0..out_points_len)` of a job whose `durations_len` tasks take
/// `durations` (in start order) into `out_points`, and its shortest JCT into `*out_shortest`:
/// the job alone on `x` slots as list scheduling runs it, a slot's first task cold, its later
/// ones warm (duration / `warmup`, the JVM warm-up factor, at least 1; PAF paper §II-B, §V-B);
/// `p(x)` is the running maximum of the shortest JCT over the JCT on `x` slots (§II-A), 1 from
/// the fewest slots giving the shortest JCT on. `scratch` (`scratch_len` doubles, at least
/// `durations_len`) is the caller's room for the slots' heap, its contents unspecified after
/// the call. Nothing else is written on failure. Wraps `paf::profile::curve_from_tasks`.
///
/// Errors, in this order: NULL_POINTER (a NULL pointer, except for an array of length 0);
/// EMPTY (no task); NOT_FINITE or NEGATIVE for the first bad duration; OUT_OF_RANGE (the
/// durations sum beyond DBL_MAX); NOT_FINITE or OUT_OF_RANGE (below 1) for `warmup`;
/// LENGTH_MISMATCH (`out_points_len` not `durations_len + 1`); CAPACITY_FULL (`scratch_len`
/// below `durations_len`); NOT_POSITIVE (every duration 0, or the longest over `warmup` rounds
/// to 0: the job would take no time).
///
/// # Safety
/// Each array must be valid for its length in elements (reads for `durations`, writes for the
/// others); `out_shortest` must be NULL or valid for a write; no two may overlap.
#[no_mangle]
pub unsafe extern "C" fn fairsched_paf_curve_from_tasks(
    durations: *const f64,
    durations_len: usize,
    warmup: f64,
    scratch: *mut f64,
    scratch_len: usize,
    out_points: *mut f64,
    out_points_len: usize,
    out_shortest: *mut f64,
) -> FairschedStatus {
    boundary(|| {
        let durations = unsafe { read_slice(durations, durations_len) }?;
        let scratch = unsafe { write_slice(scratch, scratch_len) }?;
        let out = unsafe { write_slice(out_points, out_points_len) }?;
        let shortest = unsafe { write(out_shortest) }?;
        *shortest = profile::curve_from_tasks(durations, warmup, scratch, out)?;
        Ok(())
    })
}
