//! C ABI of [`crate::hai`]: ReB's allocation of cores over flat arrays.
//!
//! A call needs scratch space for a number of jobs fixed in advance: the caller asks
//! [`fairsched_hai_storage_size`] how many bytes a capacity needs, allocates them (any
//! alignment) and calls [`fairsched_hai_init`], which returns a handle pointing into that
//! memory. The memory belongs to the caller: it must stay in place and alive while the handle
//! is used, and is simply freed afterwards. A handle must not be used from two threads at once.
//! The layout of a batch is documented on [`fairsched_hai_allocate`], so that it reaches the
//! header.

// The allocation export takes every array as a pointer and its length.
#![allow(clippy::too_many_arguments)]

use super::{boundary, decode, read_slice, table, write, write_slice, FairschedStatus};
use crate::hai::{Batch, Borrowed, Hai, JobRow, Summary, HEAPS};
use crate::Result;

/// An HAI workspace living in caller-provided memory. Opaque.
pub struct FairschedHai {
    inner: Hai<Borrowed<'static>>,
}

/// `method` of `fairsched_hai_allocate`: ReB Algorithm 1 alone, the shortest-job-optimal
/// allocation, from no allocation.
pub const FAIRSCHED_HAI_SHORTEST_JOB_OPTIMAL: u32 = 0;
/// `method` of `fairsched_hai_allocate`: ReB's allocation, the shortest-job-optimal start then
/// the HAI transfers (Algorithms 1 and 2), from no allocation.
pub const FAIRSCHED_HAI_ALLOCATE: u32 = 1;
/// `method` of `fairsched_hai_allocate`: a rebalance from the allocation in `cores`, after a
/// job arrived (add it with 0 cores) or left (drop it from the arrays). Every job keeps what it
/// holds; the free cores go to the jobs below their optimum, by increasing least JCT, each up to
/// its optimum (the first that does not fit gets the rest, rounded down to a multiple of
/// theta); then the jobs that held no cores and still lack take cores from the others while
/// that lowers Σ JCT. From no allocation, this is FAIRSCHED_HAI_ALLOCATE.
pub const FAIRSCHED_HAI_REBALANCE: u32 = 2;

/// A call of the workspace: what a method code runs.
type Call = fn(&mut Hai<Borrowed<'static>>, &Batch, &mut [u32], &mut [f64]) -> Result<Summary>;

/// The call of each code.
const METHODS: [(u32, Call); 3] = [
    (
        FAIRSCHED_HAI_SHORTEST_JOB_OPTIMAL,
        Hai::shortest_job_optimal,
    ),
    (FAIRSCHED_HAI_ALLOCATE, Hai::allocate),
    (FAIRSCHED_HAI_REBALANCE, Hai::rebalance),
];

/// What an HAI call did, besides the allocation it wrote (see `fairsched_hai_allocate`).
#[repr(C)]
pub struct FairschedHaiSummary {
    /// Σ JCT before the first transfer: after the shortest-job-optimal start (for a rebalance,
    /// after the free cores were handed out). INFINITY while a job waits.
    pub jct_sum_start: f64,
    /// Σ JCT of the allocation written; at most `jct_sum_start`.
    pub jct_sum: f64,
    /// Cores moved, in steps of theta.
    pub transfers: u32,
}

/// Writes into `*out_size` the bytes `fairsched_hai_init` needs for batches of up to
/// `capacity` jobs (alignment slack included, 60 bytes a job). Wraps `table::check_capacity`.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_hai_storage_size(
    capacity: u32,
    out_size: *mut usize,
) -> FairschedStatus {
    boundary(|| unsafe { table::storage_size::<FairschedHai, JobRow, HEAPS>(capacity, out_size) })
}

/// Builds an HAI workspace for batches of up to `capacity` jobs inside `memory` (`memory_len`
/// bytes, at least what `fairsched_hai_storage_size` says; any alignment). On success
/// `*out_hai` points into `memory`: keep `memory` to free it, in place and alive while the
/// handle is used. Wraps `Hai::with_storage`.
///
/// # Safety
/// `memory` must be valid for writes of `memory_len` bytes and not used otherwise while the
/// handle lives; `out_hai` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_hai_init(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    capacity: u32,
    out_hai: *mut *mut FairschedHai,
) -> FairschedStatus {
    boundary(|| {
        let build = |storage, ()| {
            let inner = Hai::with_storage(storage)?;
            Ok(FairschedHai { inner })
        };
        unsafe { table::init(memory, memory_len, capacity, out_hai, || Ok(()), build) }
    })
}

/// ReB's allocation of `total_cores` cores, in steps of `theta`, to a batch of `caps_len` jobs,
/// by `method` (FAIRSCHED_HAI_SHORTEST_JOB_OPTIMAL, _ALLOCATE or _REBALANCE): writes each job's
/// cores into `cores`, its predicted JCT into `out_jct`, and `*out_summary`; nothing on
/// failure. Wraps `Hai::shortest_job_optimal`, `Hai::allocate` and `Hai::rebalance`.
///
/// The batch is two arrays. `caps` holds each job's cap in cores, a positive multiple of
/// `theta`. `jct` holds the JCT tables concatenated in job order: job j's table is the
/// `caps[j] / theta + 1` values `JCT_j(0), JCT_j(theta), ..., JCT_j(caps[j])`, starting right
/// after job j - 1's (at `Σ_{i<j} (caps[i] / theta + 1)`); `jct_len` is the sum over all jobs.
/// JCT_j(0) is INFINITY for a job that waits without cores, or a finite estimate; every other
/// value is finite and positive. `cores` and `out_jct` hold one value per job; `cores` is
/// also the input of a rebalance (the current allocation).
///
/// Errors, in this order: NULL_POINTER (a NULL pointer, except for an array of length 0);
/// OUT_OF_RANGE (an unknown `method`); LENGTH_MISMATCH (`cores` or `out_jct` not of length
/// `caps_len`); NOT_POSITIVE (`theta` 0, or `total_cores` below `theta`); CAPACITY_FULL (more
/// jobs than the workspace holds); then job by job: NOT_POSITIVE (a cap of 0), OUT_OF_RANGE (a
/// cap not a multiple of `theta`), LENGTH_MISMATCH (`jct` too short), NOT_FINITE (NaN,
/// -INFINITY, or INFINITY past JCT_j(0)), NOT_POSITIVE (a JCT of 0 or less), OUT_OF_RANGE (a
/// JCT above 2^60), and for a rebalance OUT_OF_RANGE (an allocation above the cap or not a
/// multiple of `theta`); LENGTH_MISMATCH (`jct` too long); for a rebalance, OUT_OF_RANGE
/// (allocations adding up to more than `total_cores`).
///
/// # Safety
/// `hai` must be NULL or a handle from `fairsched_hai_init` whose memory is still valid;
/// `caps` and `jct` must be valid for reads of their lengths in elements, `cores` for reads and
/// writes, `out_jct` for writes, `out_summary` for a write (NULL is allowed for a length of 0);
/// no two may overlap.
#[no_mangle]
pub unsafe extern "C" fn fairsched_hai_allocate(
    hai: *mut FairschedHai,
    method: u32,
    total_cores: u32,
    theta: u32,
    caps: *const u32,
    caps_len: usize,
    jct: *const f64,
    jct_len: usize,
    cores: *mut u32,
    cores_len: usize,
    out_jct: *mut f64,
    out_jct_len: usize,
    out_summary: *mut FairschedHaiSummary,
) -> FairschedStatus {
    boundary(|| {
        let hai = &mut unsafe { write(hai) }?.inner;
        let summary = unsafe { write(out_summary) }?;
        let caps = unsafe { read_slice(caps, caps_len) }?;
        let jct = unsafe { read_slice(jct, jct_len) }?;
        let cores = unsafe { write_slice(cores, cores_len) }?;
        let out_jct = unsafe { write_slice(out_jct, out_jct_len) }?;
        let batch = Batch {
            capacity: total_cores,
            theta,
            caps,
            jct,
        };
        let done = decode(method, &METHODS)?(hai, &batch, cores, out_jct)?;
        *summary = FairschedHaiSummary {
            jct_sum_start: done.jct_sum_start,
            jct_sum: done.jct_sum,
            transfers: done.transfers,
        };
        Ok(())
    })
}
