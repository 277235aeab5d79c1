//! DRR's pending executors laid out once through the C ABI (`fairsched_drr_executors_storage_size`,
//! `fairsched_drr_executors_init`, `fairsched_drr_min_frag_executors`,
//! `fairsched_drr_timeline_heartbeat_executors`): the same heartbeats as `fairsched_drr_min_frag`
//! and `fairsched_drr_timeline_heartbeat` over the same flat arrays, and every bad input refused
//! with the status those give it, writing nothing.
#![cfg(feature = "ffi")]

use fairsched::ffi::drr::*;
use fairsched::ffi::drr_timeline::*;
use fairsched::ffi::FairschedStatus;
use std::ptr::{null, null_mut};

const CAPACITY: [f64; 2] = [4.0, 8.0];
const HORIZON: u32 = 8;

/// A 64-bit LCG's numbers in [0, 1).
fn numbers(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` executors of 1 to `HORIZON` steps over `CAPACITY`'s kinds: their series back to back
/// and their steps.
fn pending(n: usize, seed: u64) -> (Vec<f64>, Vec<u32>) {
    let mut next = numbers(seed);
    let steps: Vec<u32> = (0..n)
        .map(|_| 1 + (next() * HORIZON as f64) as u32)
        .collect();
    let total = steps.iter().sum::<u32>() as usize * CAPACITY.len();
    let demands = (0..total)
        .map(|i| CAPACITY[i % CAPACITY.len()] * 0.3 * next())
        .collect();
    (demands, steps)
}

/// A machine with part of `CAPACITY` available at each step of the horizon.
fn machine() -> Vec<f64> {
    let mut next = numbers(9);
    (0..HORIZON as usize * CAPACITY.len())
        .map(|i| CAPACITY[i % CAPACITY.len()] * (0.5 + 0.5 * next()))
        .collect()
}

/// `fairsched_drr_executors_init` of the flat arrays into a block of their storage size (plus
/// `spare` bytes, or minus `-spare`): the status and the handle written, if any.
fn lay_out(
    memory: &mut Vec<u8>,
    demands: &[f64],
    steps: &[u32],
    kinds: usize,
    spare: isize,
) -> (FairschedStatus, *mut FairschedDrrExecutors) {
    let mut size = 0;
    let status =
        unsafe { fairsched_drr_executors_storage_size(demands.len(), steps.len(), &mut size) };
    assert_eq!(status, FairschedStatus::Ok);
    let size = size.checked_add_signed(spare).expect("a size");
    memory.resize(size.max(1), 0);
    let mut executors = null_mut();
    let status = unsafe {
        fairsched_drr_executors_init(
            memory.as_mut_ptr().cast(),
            size,
            demands.as_ptr(),
            demands.len(),
            steps.as_ptr(),
            steps.len(),
            kinds,
            &mut executors,
        )
    };
    (status, executors)
}

/// A heartbeat's outputs: the status, the machine's series, the placements and the summary.
type Beat = (FairschedStatus, Vec<f64>, Vec<u32>, usize, u32, u64);

fn beat(
    status: FairschedStatus,
    available: Vec<f64>,
    placements: Vec<u32>,
    out: &FairschedDrrHeartbeat,
) -> Beat {
    let drr = out.drr.to_bits();
    (status, available, placements, out.placed, out.t_run, drr)
}

fn sevens() -> FairschedDrrHeartbeat {
    FairschedDrrHeartbeat {
        placed: 7,
        t_run: 7,
        drr: 7.0,
    }
}

/// `fairsched_drr_min_frag` over the flat arrays, the machine `capacity` at t_run 5.
fn min_frag_flat(
    capacity: &[f64],
    demands: &[f64],
    steps: &[u32],
    metric: u32,
    room: usize,
) -> Beat {
    let (mut available, mut placements, mut out) = (machine(), vec![7; room], sevens());
    let status = unsafe {
        fairsched_drr_min_frag(
            capacity.as_ptr(),
            capacity.len(),
            available.as_mut_ptr(),
            available.len(),
            5,
            demands.as_ptr(),
            demands.len(),
            steps.as_ptr(),
            steps.len(),
            metric,
            placements.as_mut_ptr(),
            placements.len(),
            &mut out,
        )
    };
    beat(status, available, placements, &out)
}

/// `fairsched_drr_min_frag_executors` over laid out executors, as `min_frag_flat`.
fn min_frag_laid(
    capacity: &[f64],
    pending: *const FairschedDrrExecutors,
    metric: u32,
    room: usize,
) -> Beat {
    let (mut available, mut placements, mut out) = (machine(), vec![7; room], sevens());
    let status = unsafe {
        fairsched_drr_min_frag_executors(
            capacity.as_ptr(),
            capacity.len(),
            available.as_mut_ptr(),
            available.len(),
            5,
            pending,
            metric,
            placements.as_mut_ptr(),
            placements.len(),
            &mut out,
        )
    };
    beat(status, available, placements, &out)
}

#[test]
fn min_frag_over_laid_out_executors_is_min_frag_over_the_flat_arrays() {
    for (n, seed) in [(0, 1), (1, 2), (5, 3), (40, 4), (200, 5)] {
        let (demands, steps) = pending(n, seed);
        let mut memory = Vec::new();
        let (status, laid) = lay_out(&mut memory, &demands, &steps, CAPACITY.len(), 0);
        assert_eq!(status, FairschedStatus::Ok);
        for metric in 0..3 {
            let want = min_frag_flat(&CAPACITY, &demands, &steps, metric, n);
            assert_eq!(want.0, FairschedStatus::Ok);
            // Twice: a heartbeat leaves the executors as they were.
            for _ in 0..2 {
                assert_eq!(min_frag_laid(&CAPACITY, laid, metric, n), want, "n {n}");
            }
        }
    }
}

/// Every input `fairsched_drr_min_frag` refuses for its executors is refused by
/// `fairsched_drr_executors_init` with the same status, writing no handle.
#[test]
fn bad_executors_are_refused_as_min_frag_refuses_them() {
    let (demands, steps) = pending(3, 7);
    let mut nan = demands.clone();
    nan[1] = f64::NAN;
    let mut negative = demands.clone();
    negative[2] = -1.0;
    let mut zero_step = steps.clone();
    zero_step[1] = 0;
    let long: Vec<u32> = vec![257];
    let many = vec![1u32; 4097];
    let cases: Vec<(Vec<f64>, Vec<u32>, usize)> = vec![
        (nan, steps.clone(), 2),
        (negative, steps.clone(), 2),
        (demands.clone(), zero_step, 2),
        (vec![0.0; 257 * 2], long, 2),
        (vec![0.0; 4097 * 2], many, 2),
        (demands[1..].to_vec(), steps.clone(), 2),
        (demands.clone(), steps.clone(), 0),
        (vec![0.0; 9], vec![1], 9),
        (demands.clone(), steps.clone(), 3),
    ];
    for (demands, steps, kinds) in cases {
        let capacity = vec![100.0; kinds];
        let want = min_frag_flat(&capacity, &demands, &steps, 0, steps.len()).0;
        assert_ne!(want, FairschedStatus::Ok);
        let mut memory = Vec::new();
        let (status, laid) = lay_out(&mut memory, &demands, &steps, kinds, 0);
        assert_eq!((status, laid), (want, null_mut()), "kinds {kinds}");
    }
}

#[test]
fn executors_init_checks_its_pointers_and_size() {
    let (demands, steps) = pending(3, 8);
    let mut memory = Vec::new();
    let (status, laid) = lay_out(&mut memory, &demands, &steps, 2, -8);
    assert_eq!(
        (status, laid),
        (FairschedStatus::BufferTooSmall, null_mut())
    );
    let mut size = 0;
    let sized = unsafe { fairsched_drr_executors_storage_size(demands.len(), 3, &mut size) };
    assert_eq!(sized, FairschedStatus::Ok);
    let mut block = vec![0u8; size];
    let init = |memory: *mut u8, demands: *const f64, steps: *const u32, out| unsafe {
        fairsched_drr_executors_init(memory.cast(), size, demands, 6, steps, 3, 2, out)
    };
    let mut laid = null_mut();
    let (d, s) = (demands.as_ptr(), steps.as_ptr());
    assert_eq!(
        init(block.as_mut_ptr(), d, s, null_mut()),
        FairschedStatus::NullPointer
    );
    for (memory, d, s) in [
        (null_mut(), d, s),
        (block.as_mut_ptr(), null(), s),
        (block.as_mut_ptr(), d, null()),
    ] {
        assert_eq!(init(memory, d, s, &mut laid), FairschedStatus::NullPointer);
        assert!(laid.is_null());
    }
    let status = unsafe { fairsched_drr_executors_storage_size(usize::MAX, 1, &mut size) };
    assert_eq!(status, FairschedStatus::CapacityTooLarge);
    let status = unsafe { fairsched_drr_executors_storage_size(1, 1, null_mut()) };
    assert_eq!(status, FairschedStatus::NullPointer);
}

/// Every other bad input of a heartbeat gets the status `fairsched_drr_min_frag` gives it, and
/// nothing is written.
#[test]
fn min_frag_executors_refuses_bad_input_as_min_frag() {
    let (demands, steps) = pending(4, 11);
    let mut memory = Vec::new();
    let (status, laid) = lay_out(&mut memory, &demands, &steps, 2, 0);
    assert_eq!(status, FairschedStatus::Ok);
    let untouched = |(status, available, placements, placed, ..): Beat| {
        assert_eq!(available, machine());
        assert_eq!(placements, vec![7; placements.len()]);
        assert_eq!(placed, 7);
        status
    };
    // An unknown metric, too little room, a capacity of other kinds or none, a machine whose
    // horizon is shorter than an executor.
    let three = [4.0, 8.0, 1.0];
    for (capacity, metric, room) in [
        (&CAPACITY[..], 3, 4),
        (&CAPACITY[..], 0, 3),
        (&three[..], 0, 4),
        (&[][..], 0, 4),
        (&CAPACITY[..1], 0, 4),
        (&[1.0; 9][..], 0, 4),
    ] {
        let want = untouched(min_frag_flat(capacity, &demands, &steps, metric, room));
        assert_ne!(want, FairschedStatus::Ok);
        let got = untouched(min_frag_laid(capacity, laid, metric, room));
        assert_eq!(
            got, want,
            "capacity {capacity:?} metric {metric} room {room}"
        );
    }
    let long = [1.0; 2 * (HORIZON as usize + 1)];
    let mut longer_memory = Vec::new();
    let (status, longer) = lay_out(&mut longer_memory, &long, &[HORIZON + 1], 2, 0);
    assert_eq!(status, FairschedStatus::Ok);
    let want = untouched(min_frag_flat(&CAPACITY, &long, &[HORIZON + 1], 0, 1));
    assert_eq!(want, FairschedStatus::OutOfRange);
    assert_eq!(untouched(min_frag_laid(&CAPACITY, longer, 0, 1)), want);
    assert_eq!(
        untouched(min_frag_laid(&CAPACITY, null(), 0, 4)),
        FairschedStatus::NullPointer
    );
    let mut available = machine();
    let status = unsafe {
        fairsched_drr_min_frag_executors(
            CAPACITY.as_ptr(),
            2,
            available.as_mut_ptr(),
            available.len(),
            5,
            laid,
            0,
            [0u32; 4].as_mut_ptr(),
            4,
            null_mut(),
        )
    };
    assert_eq!(status, FairschedStatus::NullPointer);
    assert_eq!(available, machine());
}

/// A timeline of `CAPACITY` over `HORIZON` steps for 16 executors, one running for 3 steps.
fn timeline(memory: &mut Vec<u8>) -> *mut FairschedDrrTimeline {
    let mut size = 0;
    let status =
        unsafe { fairsched_drr_timeline_storage_size(16, CAPACITY.len(), HORIZON, &mut size) };
    assert_eq!(status, FairschedStatus::Ok);
    memory.resize(size, 0);
    let mut t = null_mut();
    let status = unsafe {
        fairsched_drr_timeline_init(
            memory.as_mut_ptr().cast(),
            size,
            16,
            CAPACITY.as_ptr(),
            CAPACITY.len(),
            HORIZON,
            &mut t,
        )
    };
    assert_eq!(status, FairschedStatus::Ok);
    let running = [1.0, 3.0, 2.0, 1.0, 0.5, 4.0];
    let mut id = 0;
    let status = unsafe { fairsched_drr_timeline_place(t, running.as_ptr(), 6, &mut id) };
    assert_eq!(status, FairschedStatus::Ok);
    t
}

/// A timeline heartbeat's outputs: the status, the placements, the summary and the series.
type TimelineBeat = (FairschedStatus, Vec<u32>, [u64; 5], Vec<f64>);

fn timeline_beat(
    t: *mut FairschedDrrTimeline,
    status: FairschedStatus,
    placements: Vec<u32>,
    out: &FairschedDrrTimelineHeartbeat,
) -> TimelineBeat {
    let mut available = vec![0.0; HORIZON as usize * CAPACITY.len()];
    let copied =
        unsafe { fairsched_drr_timeline_available(t, available.as_mut_ptr(), available.len()) };
    assert_eq!(copied, FairschedStatus::Ok);
    let summary = [
        out.placed as u64,
        out.t_run.into(),
        out.drr.to_bits(),
        out.first_id,
        0,
    ];
    (status, placements, summary, available)
}

fn timeline_sevens() -> FairschedDrrTimelineHeartbeat {
    FairschedDrrTimelineHeartbeat {
        placed: 7,
        t_run: 7,
        drr: 7.0,
        first_id: 7,
    }
}

/// `fairsched_drr_timeline_heartbeat` on a fresh timeline over the flat arrays.
fn timeline_flat(demands: &[f64], steps: &[u32], counts: &[u32], metric: u32) -> TimelineBeat {
    let mut memory = Vec::new();
    let t = timeline(&mut memory);
    let (mut placements, mut out) = (vec![7; 24], timeline_sevens());
    let status = unsafe {
        fairsched_drr_timeline_heartbeat(
            t,
            demands.as_ptr(),
            demands.len(),
            steps.as_ptr(),
            steps.len(),
            counts.as_ptr(),
            counts.len(),
            metric,
            placements.as_mut_ptr(),
            placements.len(),
            &mut out,
        )
    };
    timeline_beat(t, status, placements, &out)
}

/// `fairsched_drr_timeline_heartbeat_executors` on a fresh timeline, as `timeline_flat`.
fn timeline_laid(
    pending: *const FairschedDrrExecutors,
    counts: &[u32],
    metric: u32,
) -> TimelineBeat {
    let mut memory = Vec::new();
    let t = timeline(&mut memory);
    let (mut placements, mut out) = (vec![7; 24], timeline_sevens());
    let status = unsafe {
        fairsched_drr_timeline_heartbeat_executors(
            t,
            pending,
            counts.as_ptr(),
            counts.len(),
            metric,
            placements.as_mut_ptr(),
            placements.len(),
            &mut out,
        )
    };
    timeline_beat(t, status, placements, &out)
}

#[test]
fn timeline_heartbeat_over_laid_out_executors_is_the_flat_heartbeat() {
    for (n, seed) in [(0, 1), (3, 2), (30, 3)] {
        let (demands, steps) = pending(n, seed);
        let counts: Vec<u32> = (0..n as u32).map(|i| i % 3).collect();
        let mut memory = Vec::new();
        let (status, laid) = lay_out(&mut memory, &demands, &steps, 2, 0);
        assert_eq!(status, FairschedStatus::Ok);
        for metric in 0..3 {
            let want = timeline_flat(&demands, &steps, &counts, metric);
            assert_eq!(want.0, FairschedStatus::Ok);
            assert_eq!(timeline_laid(laid, &counts, metric), want);
        }
    }
}

/// Every bad input of a timeline heartbeat gets the status `fairsched_drr_timeline_heartbeat`
/// gives it, and nothing is written (the timeline's series and the outputs as they were).
#[test]
fn timeline_heartbeat_executors_refuses_bad_input_as_the_flat_heartbeat() {
    let untouched = timeline_flat(&[], &[], &[], 0).3;
    let (demands, steps) = pending(4, 12);
    let long = vec![1.0; 2 * (HORIZON as usize + 1)];
    let three = vec![0.5; 3 * 2];
    // Series, steps and kinds of the executors, their counts, the metric.
    type Case<'a> = (&'a [f64], &'a [u32], usize, &'a [u32], u32);
    let cases: [Case<'_>; 4] = [
        (&demands, &steps, 2, &[1, 1, 1], 0),
        (&demands, &steps, 2, &[1; 4], 3),
        (&long, &[HORIZON + 1], 2, &[1], 0),
        (&three, &[2], 3, &[1], 0),
    ];
    for (demands, steps, kinds, counts, metric) in cases {
        let want = timeline_flat(demands, steps, counts, metric);
        assert_ne!(want.0, FairschedStatus::Ok);
        let mut memory = Vec::new();
        let (status, laid) = lay_out(&mut memory, demands, steps, kinds, 0);
        assert_eq!(status, FairschedStatus::Ok);
        let got = timeline_laid(laid, counts, metric);
        assert_eq!(got, want);
        assert_eq!(got.1, vec![7; 24]);
        assert_eq!(got.2, [7, 7, 7.0f64.to_bits(), 7, 0]);
        assert_eq!(got.3, untouched);
    }
    assert_eq!(
        timeline_laid(null(), &[], 0).0,
        FairschedStatus::NullPointer
    );
    let mut memory = Vec::new();
    let (_, laid) = lay_out(&mut memory, &demands, &steps, 2, 0);
    let mut out = timeline_sevens();
    let status = unsafe {
        fairsched_drr_timeline_heartbeat_executors(
            null_mut(),
            laid,
            [1; 4].as_ptr(),
            4,
            0,
            [0; 4].as_mut_ptr(),
            4,
            &mut out,
        )
    };
    assert_eq!(status, FairschedStatus::NullPointer);
    assert_eq!(out.placed, 7);
}
