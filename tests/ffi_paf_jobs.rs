//! PAF's jobs laid out once through the C ABI (`fairsched_paf_jobs_storage_size`,
//! `fairsched_paf_jobs_init`, `fairsched_paf_allocate_jobs`): the same allocation as
//! `fairsched_paf_allocate` over the same flat arrays, and every bad input refused with the
//! status `fairsched_paf_allocate` gives it, writing nothing.
#![cfg(feature = "ffi")]

use fairsched::ffi::paf::*;
use fairsched::ffi::FairschedStatus;
use fairsched_testkit::paf_outputs::Outputs;
use std::ptr::{null, null_mut};

/// A PAF workspace for `capacity` jobs in `memory`.
fn workspace(memory: &mut [u64], capacity: u32) -> *mut FairschedPaf {
    let mut paf = null_mut();
    let status = unsafe {
        fairsched_paf_init(
            memory.as_mut_ptr().cast(),
            size_of_val(memory),
            capacity,
            &mut paf,
        )
    };
    assert_eq!(status, FairschedStatus::Ok);
    paf
}

/// `fairsched_paf_jobs_init` of the flat arrays into a block of their storage size (plus
/// `spare` bytes, or minus `-spare`): the status and the handle written, if any.
fn lay_out(
    memory: &mut Vec<u8>,
    weights: &[u32],
    offsets: &[u32],
    points: &[f64],
    spare: isize,
) -> (FairschedStatus, *mut FairschedPafJobs) {
    let mut size = 0;
    let status = unsafe { fairsched_paf_jobs_storage_size(weights.len(), points.len(), &mut size) };
    assert_eq!(status, FairschedStatus::Ok);
    let size = size.checked_add_signed(spare).expect("a size");
    memory.resize(size.max(1), 0);
    let mut jobs = null_mut();
    let status = unsafe {
        fairsched_paf_jobs_init(
            memory.as_mut_ptr().cast(),
            size,
            weights.as_ptr(),
            weights.len(),
            offsets.as_ptr(),
            points.as_ptr(),
            points.len(),
            &mut jobs,
        )
    };
    (status, jobs)
}

/// `fairsched_paf_allocate` over the flat arrays: the status, the outputs and the totals.
fn allocate_flat(
    paf: *mut FairschedPaf,
    weights: &[u32],
    offsets: &[u32],
    points: &[f64],
    slots: u32,
    method: u32,
) -> (FairschedStatus, Outputs, [f64; 5]) {
    let mut out = Outputs::filled(weights.len(), 7, 7.0);
    let mut totals = sevens();
    let status = unsafe {
        fairsched_paf_allocate(
            paf,
            weights.as_ptr(),
            weights.len(),
            offsets.as_ptr(),
            points.as_ptr(),
            points.len(),
            slots,
            0.8,
            method,
            out.fair.as_mut_ptr(),
            out.min.as_mut_ptr(),
            out.paf.as_mut_ptr(),
            out.fair_progress.as_mut_ptr(),
            out.paf_progress.as_mut_ptr(),
            &mut totals,
        )
    };
    (status, out, flat(&totals))
}

/// `fairsched_paf_allocate_jobs` for `n` jobs: the status, the outputs and the totals.
fn allocate_jobs(
    paf: *mut FairschedPaf,
    jobs: *const FairschedPafJobs,
    n: usize,
    slots: u32,
    method: u32,
) -> (FairschedStatus, Outputs, [f64; 5]) {
    let mut out = Outputs::filled(n, 7, 7.0);
    let mut totals = sevens();
    let status = unsafe {
        fairsched_paf_allocate_jobs(
            paf,
            jobs,
            slots,
            0.8,
            method,
            out.fair.as_mut_ptr(),
            out.min.as_mut_ptr(),
            out.paf.as_mut_ptr(),
            out.fair_progress.as_mut_ptr(),
            out.paf_progress.as_mut_ptr(),
            &mut totals,
        )
    };
    (status, out, flat(&totals))
}

/// Totals no call has written: every field 7.
fn sevens() -> FairschedPafTotals {
    FairschedPafTotals {
        slots: 7,
        moved: 7,
        fair_progress: 7.0,
        paf_progress: 7.0,
        largest_loss: 7.0,
    }
}

/// The totals as numbers, NaN-safe to compare through their bits.
fn flat(t: &FairschedPafTotals) -> [f64; 5] {
    [
        t.slots as f64,
        t.moved as f64,
        t.fair_progress,
        t.paf_progress,
        t.largest_loss,
    ]
}

/// Every output and total as 64-bit words (floats by their bits), to compare bit for bit.
fn bits(o: &Outputs, t: &[f64; 5]) -> Vec<u64> {
    let counts = o
        .fair
        .iter()
        .chain(&o.min)
        .chain(&o.paf)
        .map(|&c| u64::from(c));
    let reals = o.fair_progress.iter().chain(&o.paf_progress).chain(t);
    counts.chain(reals.map(|x| x.to_bits())).collect()
}

/// Three jobs, one without a curve (all NaN), one convex at first: both methods give, bit for
/// bit, what the flat call gives, call after call, and after the arrays laid out change.
#[test]
fn jobs_laid_out_allocate_as_the_flat_arrays() {
    let mut memory = vec![0u64; 512];
    let paf = workspace(&mut memory, 4);
    let weights = [1, 2, 3];
    let offsets = [0, 5, 9, 14];
    let nan = f64::NAN;
    let mut points = [
        0.0, 0.5, 0.75, 0.875, 0.9375, nan, nan, nan, nan, 0.0, 0.05, 0.4, 0.7, 0.8,
    ];
    let mut block = Vec::new();
    let (status, jobs) = lay_out(&mut block, &weights, &offsets, &points, 0);
    assert_eq!(status, FairschedStatus::Ok);
    for method in [FAIRSCHED_PAF_LITERAL, FAIRSCHED_PAF_FAST] {
        for slots in [1, 4, 9, 30] {
            let (want_status, want, want_totals) =
                allocate_flat(paf, &weights, &offsets, &points, slots, method);
            assert_eq!(want_status, FairschedStatus::Ok);
            for _ in 0..2 {
                let (status, got, totals) = allocate_jobs(paf, jobs, 3, slots, method);
                assert_eq!(status, FairschedStatus::Ok);
                assert_eq!(bits(&got, &totals), bits(&want, &want_totals));
            }
        }
    }
    let (_, before, before_totals) = allocate_jobs(paf, jobs, 3, 9, FAIRSCHED_PAF_FAST);
    points[3] = 0.0;
    let (changed, _, _) = allocate_flat(paf, &weights, &offsets, &points, 9, FAIRSCHED_PAF_FAST);
    assert_eq!(changed, FairschedStatus::NotMonotone);
    let (_, after, after_totals) = allocate_jobs(paf, jobs, 3, 9, FAIRSCHED_PAF_FAST);
    assert_eq!(bits(&after, &after_totals), bits(&before, &before_totals));

    let mut empty = Vec::new();
    let (status, none) = lay_out(&mut empty, &[], &[0], &[], 0);
    assert_eq!(status, FairschedStatus::Ok);
    let (status, out, totals) = allocate_jobs(paf, none, 0, 9, FAIRSCHED_PAF_FAST);
    assert!(status == FairschedStatus::Ok && out.paf.is_empty() && totals[0] == 0.0);
}

/// Every bad set of jobs gets the status `fairsched_paf_allocate` gives it, and no handle.
#[test]
fn bad_jobs_are_refused_as_the_flat_call_refuses_them() {
    let mut memory = vec![0u64; 512];
    let paf = workspace(&mut memory, 4);
    let nan = f64::NAN;
    let cases: [(&[u32], &[u32], &[f64]); 8] = [
        (&[0], &[0, 2], &[0.0, 1.0]),
        (&[1], &[0, 3], &[0.0, 0.5, 0.25]),
        (&[1], &[0, 0], &[]),
        (&[1], &[0, 2], &[0.0, nan]),
        (&[1], &[1, 2], &[0.0, 1.0]),
        (&[1], &[0, 1], &[0.0, 1.0]),
        (&[1, 1], &[0, 2, 1], &[0.0, 1.0]),
        (&[1], &[0, 2], &[0.0, f64::INFINITY]),
    ];
    for (weights, offsets, points) in cases {
        let (want, _, _) = allocate_flat(paf, weights, offsets, points, 4, FAIRSCHED_PAF_FAST);
        assert_ne!(
            want,
            FairschedStatus::Ok,
            "{weights:?} {offsets:?} {points:?}"
        );
        let mut block = Vec::new();
        let (status, jobs) = lay_out(&mut block, weights, offsets, points, 0);
        assert_eq!(status, want, "{weights:?} {offsets:?} {points:?}");
        assert!(jobs.is_null());
    }
}

/// NULL pointers, a block too small, sizes past the address space, and the allocation's own
/// bad input (NULL handles, an unknown method, no slot, more jobs than the workspace holds):
/// each its status, nothing written.
#[test]
fn bad_input_is_refused_and_writes_nothing() {
    let (weights, offsets, points) = (
        [1u32, 2, 3],
        [0u32, 2, 4, 6],
        [0.0, 1.0, 0.0, 0.5, 0.0, 2.0],
    );
    let mut size = 7;
    unsafe {
        assert_eq!(
            fairsched_paf_jobs_storage_size(3, 6, null_mut()),
            FairschedStatus::NullPointer
        );
        assert_eq!(
            fairsched_paf_jobs_storage_size(usize::MAX / 8, 6, &mut size),
            FairschedStatus::CapacityTooLarge
        );
        assert_eq!(
            fairsched_paf_jobs_storage_size(3, usize::MAX / 4, &mut size),
            FairschedStatus::CapacityTooLarge
        );
    }
    assert_eq!(size, 7);

    let mut block = Vec::new();
    // The storage size includes 7 bytes of slack to align the block: 8 fewer never fit.
    let (status, jobs) = lay_out(&mut block, &weights, &offsets, &points, -8);
    assert!(status == FairschedStatus::BufferTooSmall && jobs.is_null());
    let mut jobs = null_mut();
    let mut memory = [0u64; 64];
    unsafe {
        let at = memory.as_mut_ptr().cast();
        let init = |memory, weights, offsets, points, out| {
            fairsched_paf_jobs_init(memory, 512, weights, 3, offsets, points, 6, out)
        };
        let (w, o, p) = (weights.as_ptr(), offsets.as_ptr(), points.as_ptr());
        assert_eq!(init(at, w, o, p, null_mut()), FairschedStatus::NullPointer);
        assert_eq!(
            init(null_mut(), w, o, p, &mut jobs),
            FairschedStatus::NullPointer
        );
        assert_eq!(
            init(at, null(), o, p, &mut jobs),
            FairschedStatus::NullPointer
        );
        assert_eq!(
            init(at, w, null(), p, &mut jobs),
            FairschedStatus::NullPointer
        );
        assert_eq!(
            init(at, w, o, null(), &mut jobs),
            FairschedStatus::NullPointer
        );
    }
    assert!(jobs.is_null());

    let mut workspace_memory = vec![0u64; 512];
    let paf = workspace(&mut workspace_memory, 2);
    let (status, jobs) = lay_out(&mut block, &weights, &offsets, &points, 0);
    assert_eq!(status, FairschedStatus::Ok);
    let untouched = bits(&Outputs::filled(3, 7, 7.0), &[7.0; 5]);
    for (paf, jobs, slots, method, want) in [
        (
            null_mut(),
            jobs,
            4,
            FAIRSCHED_PAF_FAST,
            FairschedStatus::NullPointer,
        ),
        (
            paf,
            null_mut(),
            4,
            FAIRSCHED_PAF_FAST,
            FairschedStatus::NullPointer,
        ),
        (paf, jobs, 4, 9, FairschedStatus::OutOfRange),
        (
            paf,
            jobs,
            0,
            FAIRSCHED_PAF_FAST,
            FairschedStatus::NotPositive,
        ),
        (
            paf,
            jobs,
            4,
            FAIRSCHED_PAF_FAST,
            FairschedStatus::CapacityFull,
        ),
    ] {
        let (status, out, totals) = allocate_jobs(paf, jobs, 3, slots, method);
        assert_eq!(status, want);
        assert_eq!(bits(&out, &totals), untouched);
        if !paf.is_null() && !jobs.is_null() {
            let (flat_status, _, _) =
                allocate_flat(paf, &weights, &offsets, &points, slots, method);
            assert_eq!(status, flat_status);
        }
    }
    let mut totals = sevens();
    let status = unsafe {
        fairsched_paf_allocate_jobs(
            paf,
            jobs,
            4,
            0.8,
            FAIRSCHED_PAF_FAST,
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            &mut totals,
        )
    };
    assert_eq!(status, FairschedStatus::NullPointer);
    assert_eq!(flat(&totals), [7.0; 5]);
}
