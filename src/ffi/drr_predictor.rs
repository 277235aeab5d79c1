//! C ABI of [`crate::drr::predictor`]: Elasecutor's prediction of an executor's demand series
//! from its application's past runs (§IV-C), in memory the caller provides, set up as every
//! object is: `fairsched_drr_predictor_storage_size` then `fairsched_drr_predictor_init`. The
//! memory belongs to the caller: it must stay in place and alive while the handle is used, and
//! is simply freed afterwards. A handle must not be used from two threads at once.
//!
//! Series are time-major, as for the other DRR exports: the amount of kind `r` at step `t` is
//! `series[t * kinds + r]`. Applications are the caller's 64-bit ids.

use super::{boundary, read, read_slice, table, write, write_slice, FairschedStatus};
use crate::drr::predictor::{ApplicationRow, Config, HEAPS};
use crate::drr::Predictor;

/// A predictor living in caller-provided memory. Opaque.
pub struct FairschedDrrPredictor {
    inner: Predictor<crate::drr::predictor::Borrowed<'static>>,
}

/// What `fairsched_drr_predictor_predict` wrote.
#[repr(C)]
pub struct FairschedDrrPrediction {
    /// The steps of the series written.
    pub steps: u32,
    /// The runs averaged: the window, or 0 when the series is the peak.
    pub runs: u32,
}

/// Writes into `*out_size` the bytes `fairsched_drr_predictor_init` needs for up to `capacity`
/// applications, each keeping its last `window` runs (1 to 16) of up to `steps` steps (1 to
/// 256) over `kinds` kinds (1 to 8): `capacity * window * steps * kinds` amounts and a row
/// and a number per application, alignment slack included. Checks `out_size`, then the
/// capacity (0 NOT_POSITIVE, UINT32_MAX CAPACITY_TOO_LARGE), then `kinds` (0 EMPTY, above
/// CAPACITY_FULL), `window` (0 NOT_POSITIVE, above OUT_OF_RANGE) and `steps` (0 EMPTY, above
/// CAPACITY_FULL). Wraps `drr::predictor::Config::amounts`.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_predictor_storage_size(
    capacity: u32,
    kinds: usize,
    window: u32,
    steps: u32,
    out_size: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let amounts = |capacity| Ok(Config::new(capacity, kinds, window, steps)?.amounts(capacity));
        unsafe {
            table::storage_size_with_amounts::<FairschedDrrPredictor, ApplicationRow, HEAPS>(
                capacity, out_size, amounts,
            )
        }
    })
}

/// Builds a predictor with no application, as `fairsched_drr_predictor_storage_size` describes
/// it, inside `memory` (`memory_len` bytes, at least that storage size; any alignment). On
/// success `*out_predictor` points into `memory`: keep `memory` to free it, in place and alive
/// while the handle is used. Checks, in this order: `out_predictor`, `memory` (NULL_POINTER),
/// the capacity, the configuration (as the storage size does), then BUFFER_TOO_SMALL. Wraps
/// `Predictor::with_storage`.
///
/// # Safety
/// `memory` must be valid for writes of `memory_len` bytes and left alone while the handle
/// lives; `out_predictor` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_predictor_init(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    capacity: u32,
    kinds: usize,
    window: u32,
    steps: u32,
    out_predictor: *mut *mut FairschedDrrPredictor,
) -> FairschedStatus {
    boundary(|| {
        let check = || {
            let config = Config::new(capacity as usize, kinds, window, steps)?;
            Ok(((), config.amounts(capacity as usize)))
        };
        let build = |storage, ()| {
            let inner = Predictor::with_storage(storage, kinds, window, steps)?;
            Ok(FairschedDrrPredictor { inner })
        };
        unsafe {
            table::init_with_amounts(memory, memory_len, capacity, out_predictor, check, build)
        }
    })
}

/// Records a finished run of application `id`: `run` (`run_len` amounts) is the demand series
/// one of its executors used, 1 to the predictor's steps; the first run of an id adds the
/// application, and once its window is full each run replaces the oldest. Errors:
/// LENGTH_MISMATCH (not whole steps), EMPTY (no step), CAPACITY_FULL (more steps than the
/// predictor keeps; or a new application when `capacity` are held), NOT_FINITE or NEGATIVE
/// (an amount). Wraps `Predictor::record`.
///
/// # Safety
/// `predictor` must be NULL or a handle from `fairsched_drr_predictor_init` whose memory is
/// still valid; `run` must hold `run_len` amounts (NULL allowed for 0).
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_predictor_record(
    predictor: *mut FairschedDrrPredictor,
    id: u64,
    run: *const f64,
    run_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let predictor = unsafe { write(predictor) }?;
        let run = unsafe { read_slice(run, run_len) }?;
        Ok(predictor.inner.record(id, run)?)
    })
}

/// Forgets application `id` and its runs (UNKNOWN_ID for an id not held). Wraps
/// `Predictor::forget`.
///
/// # Safety
/// As for `fairsched_drr_predictor_record`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_predictor_forget(
    predictor: *mut FairschedDrrPredictor,
    id: u64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(predictor) }?.inner.forget(id)?))
}

/// Writes into `*out_runs` how many runs of application `id` are kept, 0 to the window (0 for
/// an id never recorded or forgotten). Wraps `Predictor::runs`.
///
/// # Safety
/// `predictor` must be NULL or a valid handle; `out_runs` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_predictor_runs(
    predictor: *const FairschedDrrPredictor,
    id: u64,
    out_runs: *mut u32,
) -> FairschedStatus {
    boundary(|| {
        let predictor = unsafe { read(predictor) }?;
        let out = unsafe { write(out_runs) }?;
        // At most the window, 16.
        *out = u32::try_from(predictor.inner.runs(id)).unwrap_or(u32::MAX);
        Ok(())
    })
}

/// Writes the predicted demand series of one executor of application `id` to the front of
/// `out_series`, and what it wrote to `*out_prediction`: with the window's runs recorded,
/// their mean, step by step over the runs that lasted that long (as long as the longest);
/// otherwise `peak` (`peak_len` amounts, one per kind, finite and not negative) for `steps`
/// steps (1 to the predictor's steps). Errors, in this order: LENGTH_MISMATCH (`peak_len` not
/// the kinds), NOT_FINITE or NEGATIVE (`peak`), EMPTY (`steps` 0), CAPACITY_FULL (`steps`
/// above the predictor's), LENGTH_MISMATCH (`out_series` shorter than the series; room for
/// the predictor's steps always suffices). On error nothing is written. Wraps
/// `Predictor::predict`.
///
/// # Safety
/// `predictor` must be NULL or a valid handle; each array must hold its length in amounts
/// (NULL allowed for 0); `out_prediction` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_predictor_predict(
    predictor: *const FairschedDrrPredictor,
    id: u64,
    peak: *const f64,
    peak_len: usize,
    steps: u32,
    out_series: *mut f64,
    out_series_len: usize,
    out_prediction: *mut FairschedDrrPrediction,
) -> FairschedStatus {
    boundary(|| {
        let predictor = unsafe { read(predictor) }?;
        let peak = unsafe { read_slice(peak, peak_len) }?;
        let series = unsafe { write_slice(out_series, out_series_len) }?;
        let out = unsafe { write(out_prediction) }?;
        let prediction = predictor.inner.predict(id, peak, steps, series)?;
        // At most 256 steps and 16 runs.
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        *out = FairschedDrrPrediction {
            steps: count(prediction.steps),
            runs: count(prediction.runs),
        };
        Ok(())
    })
}
