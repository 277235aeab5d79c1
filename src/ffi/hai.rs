//! C ABI of [`crate::hai`]: ReB's allocation of cores over flat arrays.
//!
//! A call needs scratch space for a number of jobs fixed in advance: the caller asks
//! [`fairsched_hai_storage_size`] how many bytes a capacity needs, allocates them (any
//! alignment) and calls [`fairsched_hai_init`], which returns a handle pointing into that
//! memory. The memory belongs to the caller: it must stay in place and alive while the handle
//! is used, and is simply freed afterwards. A handle must not be used from two threads at once.
//! The layout of a batch is documented on [`fairsched_hai_allocate`], so that it reaches the
//! header. Building a job's table from predictions ([`fairsched_hai_table_from_differences`],
//! [`fairsched_hai_table_from_samples`]) needs no workspace.

// The allocation export takes every array as a pointer and its length.
#![allow(clippy::too_many_arguments)]

use super::{boundary, decode, read_slice, table, write, write_slice, FairschedStatus};
use crate::hai::{self, Batch, Borrowed, Hai, JobRow, Summary, HEAPS};
use crate::paf::ernest::FEATURES;
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

/// Writes a job's JCT table from one known JCT and ReB's predicted differences (§3.3, §4.3)
/// into `out_table` (`out_table_len` values: JCT at 0, theta, ..., cap, with cap =
/// (`out_table_len` - 1) theta): `jct_at_reference` is the JCT on `reference` cores, and
/// `differences[i]` = JCT((i + 1) theta) - JCT((i + 2) theta), how much the JCT falls when the
/// job gets theta more cores at (i + 1) theta (negative past its optimum); `out_table_len` - 2
/// of them. The table is summed outward from the reference, first up to the cap, then down to
/// theta; `out_table[0]` is INFINITY (the job waits). Nothing is written on failure. Wraps
/// `hai::table_from_differences`.
///
/// Errors, in this order: NULL_POINTER (a NULL pointer, except for an array of length 0);
/// NOT_POSITIVE (`theta` 0, or `out_table_len` below 2); OUT_OF_RANGE (a cap above
/// UINT32_MAX); LENGTH_MISMATCH (`differences_len` not `out_table_len` - 2); OUT_OF_RANGE
/// (`reference` 0, not a multiple of `theta`, or above the cap); NOT_FINITE, NOT_POSITIVE or
/// OUT_OF_RANGE (above 2^60) for `jct_at_reference`; NOT_FINITE (a difference NaN or
/// infinite); NOT_POSITIVE or OUT_OF_RANGE for the first summed JCT that is 0 or less, or above
/// 2^60.
///
/// # Safety
/// `differences` must be valid for reads of `differences_len` elements, `out_table` for writes
/// of `out_table_len` elements (NULL is allowed for a length of 0); they must not overlap.
#[no_mangle]
pub unsafe extern "C" fn fairsched_hai_table_from_differences(
    theta: u32,
    reference: u32,
    jct_at_reference: f64,
    differences: *const f64,
    differences_len: usize,
    out_table: *mut f64,
    out_table_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let differences = unsafe { read_slice(differences, differences_len) }?;
        let table = unsafe { write_slice(out_table, out_table_len) }?;
        Ok(hai::table_from_differences(
            theta,
            reference,
            jct_at_reference,
            differences,
            table,
        )?)
    })
}

/// Fits Ernest's model JCT(a) = a0 + a1 a + a2 / a + a3 ln a (every a_i >= 0) to measured runs
/// (`jct[i]` seconds on `cores[i]` cores; at least four, on distinct enough core counts) by
/// non-negative least squares, writes its table into `out_table` (`out_table_len` values: JCT
/// at 0, theta, ..., cap, with cap = (`out_table_len` - 1) theta, and INFINITY at 0) and the
/// coefficients a0..a3 into `out_coefficients` (4 doubles). Nothing is written on failure.
/// Wraps `hai::table_from_samples`.
///
/// Errors, in this order: NULL_POINTER (a NULL pointer, except for an array of length 0;
/// `out_coefficients` never); NOT_POSITIVE (`theta` 0, or `out_table_len` below 2);
/// OUT_OF_RANGE (a cap above UINT32_MAX); the fit's, as `fairsched_paf_ernest_fit`
/// (LENGTH_MISMATCH, EMPTY, NOT_POSITIVE, NOT_FINITE, OUT_OF_RANGE, UNDERDETERMINED); then
/// NOT_POSITIVE or OUT_OF_RANGE (above 2^60) for the first JCT of the table that is.
///
/// # Safety
/// `cores` and `jct` must be valid for reads of their lengths in elements, `out_table` for
/// writes of `out_table_len` elements (NULL is allowed for a length of 0), `out_coefficients`
/// for writes of 4; no two may overlap.
#[no_mangle]
pub unsafe extern "C" fn fairsched_hai_table_from_samples(
    theta: u32,
    cores: *const u32,
    cores_len: usize,
    jct: *const f64,
    jct_len: usize,
    out_table: *mut f64,
    out_table_len: usize,
    out_coefficients: *mut f64,
) -> FairschedStatus {
    boundary(|| {
        let cores = unsafe { read_slice(cores, cores_len) }?;
        let jct = unsafe { read_slice(jct, jct_len) }?;
        let table = unsafe { write_slice(out_table, out_table_len) }?;
        let coefficients = unsafe { write_slice(out_coefficients, FEATURES) }?;
        let model = hai::table_from_samples(cores, jct, theta, table)?;
        coefficients.copy_from_slice(&model.coefficients());
        Ok(())
    })
}
