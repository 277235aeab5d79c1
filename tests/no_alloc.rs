//! The core never allocates: a counting global allocator watches busy workloads of every
//! algorithm, through the Rust API and (with the `ffi` feature) through every export of the C
//! ABI (a test checks that each export is called here).

#[cfg(feature = "ffi")]
use fairsched_testkit::exports;
use fairsched_testkit::paf_outputs;

use fairsched::cfq::{Cfq, Inline, Profiler};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the allocations of the current thread (tests run on several).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// An object of the C ABI built in `memory` by its `_storage_size` and `_init` exports, both
/// asserted to succeed. Allocates nothing.
#[cfg(feature = "ffi")]
fn build<T>(
    memory: &mut [u64],
    storage_size: impl FnOnce(*mut usize) -> fairsched::ffi::FairschedStatus,
    init: impl FnOnce(*mut std::ffi::c_void, usize, *mut *mut T) -> fairsched::ffi::FairschedStatus,
) -> *mut T {
    use fairsched::ffi::FairschedStatus;
    let mut size = 0;
    assert_eq!(storage_size(&mut size), FairschedStatus::Ok);
    assert!(size <= size_of_val(memory));
    let mut object = std::ptr::null_mut();
    let status = init(memory.as_mut_ptr().cast(), size, &mut object);
    assert_eq!(status, FairschedStatus::Ok);
    object
}

/// Arrivals profiled by the naive profiler, stages, batch offers, re-profiles, completions,
/// removals, errors and queries on 64 jobs.
fn workload(cfq: &mut Cfq<Inline<64>>) {
    let mut given = [0; 16];
    let mut profiler = Profiler::new();
    for round in 0..200u64 {
        // Ten time units a round: GPS completes a job well before its id comes round again.
        let t = round as f64 * 10.0;
        let id = round % 64;
        let _ = cfq.remove(t, id);
        cfq.arrive(t, id, 1.0 + (round * 7 % 13) as f64, (round % 3 + 1) as u32)
            .unwrap();
        cfq.set_pending(id, (round % 5 + 1) as u32).unwrap();
        cfq.set_pending_batch(&[id, (id + 1) % 64], &[2, 0]).ok();
        cfq.offer(&mut given);
        profiler
            .observe_batch(&[0.5, (round % 7) as f64 * 0.1])
            .unwrap();
        let _ = profiler.observe(f64::NAN);
        cfq.reprofile(t + 0.25, id, profiler.estimate(round % 5 + 1).unwrap())
            .unwrap();
        let _ = cfq.complete(t + 0.5, (round + 32) % 64);
        let _ = cfq.gps_completion_estimate(id);
        let _ = cfq.job(id);
        let _ = cfq.arrive(f64::NAN, 999, 1.0, 1);
        cfq.set_slots(t + 0.5, (round % 4 + 1) as u32).unwrap();
    }
}

#[test]
fn rust_api_does_not_allocate() {
    let mut cfq = Cfq::<Inline<64>>::new(4, 0.0).unwrap();
    let before = allocations();
    workload(&mut cfq);
    assert_eq!(allocations(), before);
    assert!(cfq.stats().jobs > 0);
}

#[cfg(feature = "ffi")]
#[test]
fn c_abi_does_not_allocate() {
    use fairsched::ffi::cfq::*;
    use fairsched::ffi::{fairsched_abi_version, fairsched_status_message};
    use fairsched::ffi::{FairschedStatus, FAIRSCHED_ABI_VERSION};
    use std::ptr;

    let mut memory = vec![0u64; 4096];
    let before = allocations();
    unsafe {
        let cfq = build(
            &mut memory,
            |size| fairsched_cfq_storage_size(64, size),
            |at, size, out| fairsched_cfq_init(at, size, 64, 4, 0.0, out),
        );
        let mut given = [0u64; 16];
        let mut assigned = 0;
        let (mut info, mut stats) = (std::mem::zeroed(), std::mem::zeroed());
        let (mut next, mut found, mut estimate) = (0, false, 0.0);
        let mut profiler = std::mem::zeroed();
        assert_eq!(
            fairsched_cfq_profiler_init(&mut profiler),
            FairschedStatus::Ok
        );
        for round in 0..200u64 {
            // As in `workload`: GPS completes a job well before its id comes round again.
            let t = round as f64 * 10.0;
            let id = round % 64;
            fairsched_cfq_remove(cfq, t, id);
            fairsched_cfq_arrive(cfq, t, id, 1.0 + (round % 13) as f64, 1);
            fairsched_cfq_set_pending(cfq, id, 3);
            fairsched_cfq_set_pending_batch(
                cfq,
                [id, (id + 1) % 64].as_ptr(),
                2,
                [2, 0].as_ptr(),
                2,
            );
            fairsched_cfq_peek(cfq, &mut next, &mut found);
            fairsched_cfq_offer(cfq, given.as_mut_ptr(), given.len(), &mut assigned);
            fairsched_cfq_profiler_observe(&mut profiler, (round % 7) as f64 * 0.1);
            fairsched_cfq_profiler_observe_batch(&mut profiler, [0.5, 1.5].as_ptr(), 2);
            fairsched_cfq_profiler_estimate(&profiler, 3, &mut estimate);
            fairsched_cfq_reprofile(cfq, t + 0.25, id, estimate);
            fairsched_cfq_complete(cfq, t + 0.5, (id + 32) % 64);
            fairsched_cfq_job_get(cfq, id, &mut info);
            fairsched_cfq_gps_completion_estimate(cfq, id, &mut estimate);
            fairsched_cfq_delay_bound(9.0, 16.0, (round % 4 + 1) as u32, &mut estimate);
            fairsched_cfq_arrive(cfq, f64::NAN, 1000, 1.0, 1);
            fairsched_cfq_offer(cfq, ptr::null_mut(), 4, &mut assigned);
            fairsched_cfq_set_slots(cfq, t + 0.5, (round % 4 + 1) as u32);
            fairsched_cfq_advance(cfq, t + 0.75);
        }
        let status = fairsched_cfq_stats_get(cfq, &mut stats);
        assert_eq!(status, FairschedStatus::Ok);
        assert!(stats.jobs > 0 && found && info.id == 199 % 64);
        fairsched_status_message(FairschedStatus::UnknownId as u32);
        assert_eq!(fairsched_abi_version(), FAIRSCHED_ABI_VERSION);
    }
    assert_eq!(allocations(), before);
}

/// The DRF queue's, divisible DRF's and QKnobler's exports.
#[cfg(feature = "ffi")]
#[test]
fn drf_and_qknobler_c_abi_do_not_allocate() {
    use fairsched::ffi::drf::*;
    use fairsched::ffi::qknobler::*;
    use fairsched::ffi::FairschedStatus;

    let capacity = [200.0, 1000.0];
    let (weights, demands) = ([1.0, 2.0], [1.0, 6.0, 1.0, 2.0]);
    let mut memory = vec![0u64; 1024];
    let (mut tasks, mut shares, mut whole) = ([0.0; 2], [0.0; 2], [0u64; 2]);
    let mut started = [0u64; 32];
    let before = allocations();
    unsafe {
        let queue = build(
            &mut memory,
            |size| fairsched_drf_queue_storage_size(8, size),
            |at, size, out| fairsched_drf_queue_init(at, size, 8, capacity.as_ptr(), 2, out),
        );
        for id in 0..2u64 {
            let demand = demands[id as usize * 2..].as_ptr();
            fairsched_drf_queue_add_user(queue, id, weights[id as usize], demand, 2);
            fairsched_drf_queue_set_pending(queue, id, 40);
        }
        let (mut next, mut found, mut n) = (0, false, 0);
        let mut round = std::mem::zeroed();
        fairsched_drf_queue_allocate_round(
            queue,
            [20.0, 100.0].as_ptr(),
            2,
            started.as_mut_ptr(),
            32,
            &mut n,
        );
        fairsched_drf_queue_qknobler_round(
            queue,
            0.5,
            capacity.as_ptr(),
            2,
            [8.0, 40.0].as_ptr(),
            2,
            started.as_mut_ptr(),
            32,
            &mut round,
        );
        fairsched_drf_queue_tasks_started(queue, 0, 2);
        fairsched_drf_queue_tasks_finished(queue, 1, 1);
        fairsched_drf_queue_start_next(queue, &mut next, &mut found);
        fairsched_drf_queue_next(queue, &mut next, &mut found);
        let (mut info, mut stats) = (std::mem::zeroed(), std::mem::zeroed());
        fairsched_drf_queue_user_get(queue, next, &mut info);
        fairsched_drf_queue_remove_user(queue, 1 - next);
        let status = fairsched_drf_queue_stats_get(queue, &mut stats);
        assert_eq!(status, FairschedStatus::Ok);
        assert!(n > 0 && round.started > 0 && found && info.running > 0 && stats.users == 1);

        let mut phi = 0.0;
        // The users, as both calls take them.
        let (c, w, d) = (capacity.as_ptr(), weights.as_ptr(), demands.as_ptr());
        let status = fairsched_drf_divisible(
            c,
            2,
            w,
            2,
            d,
            4,
            tasks.as_mut_ptr(),
            2,
            shares.as_mut_ptr(),
            2,
            &mut phi,
        );
        assert_eq!(status, FairschedStatus::Ok);
        let mut summary = std::mem::zeroed();
        let status = fairsched_qknobler_allocate(
            c,
            2,
            w,
            2,
            d,
            4,
            0.5,
            tasks.as_mut_ptr(),
            2,
            shares.as_mut_ptr(),
            2,
            whole.as_mut_ptr(),
            2,
            &mut summary,
        );
        assert_eq!(status, FairschedStatus::Ok);

        // Heterogeneous tasks (§6.1 C2): the estimate and the decision.
        let (mut average, mut counted) = ([0.0; 2], 0u64);
        let pending = [2.0, 8.0, 2.0, 8.0, 1.0, 2.0];
        let status = fairsched_qknobler_average_demand(
            [4.0, 10.0].as_ptr(),
            2,
            [2.0, 4.0].as_ptr(),
            2,
            2,
            pending.as_ptr(),
            6,
            average.as_mut_ptr(),
            2,
            &mut counted,
        );
        assert_eq!(status, FairschedStatus::Ok);
        let (mut choice, mut chosen) = (std::mem::zeroed(), false);
        let status = fairsched_qknobler_choose(
            0.5,
            c,
            2,
            [4.0, 12.0].as_ptr(),
            2,
            [4.0, 12.0].as_ptr(),
            2,
            w,
            2,
            [1.0, 6.0, 0.0, 0.0].as_ptr(),
            4,
            shares.as_ptr(),
            2,
            d,
            4,
            &mut choice,
            &mut chosen,
        );
        assert_eq!(status, FairschedStatus::Ok);
        assert!(chosen && counted == 2);
    }
    assert_eq!(allocations(), before);
    assert!(whole.iter().sum::<u64>() > 0);
}

/// PAF's exports: the workspace, both methods, enforcement, Ernest, the curve helpers and a
/// curve from task durations.
#[cfg(feature = "ffi")]
#[test]
fn paf_c_abi_does_not_allocate() {
    use fairsched::ffi::paf::*;
    use fairsched::ffi::FairschedStatus;

    let weights = [1, 3];
    let offsets = [0, 5, 10];
    let points = [0.0, 0.5, 0.75, 0.875, 0.9375, 0.0, 0.25, 0.5, 0.75, 1.0];
    let mut out = paf_outputs::Outputs::filled(2, 0, 0.0);
    let mut memory = vec![0u64; 256];
    let mut jobs_memory = vec![0u64; 64];
    let (mut given, mut table, mut coefficients) = ([0u32; 4], [0.0; 9], [0.0; 4]);
    let before = allocations();
    unsafe {
        let paf = build(
            &mut memory,
            |size| fairsched_paf_storage_size(4, size),
            |at, size, out| fairsched_paf_init(at, size, 4, out),
        );
        let mut totals = std::mem::zeroed();
        for method in [FAIRSCHED_PAF_LITERAL, FAIRSCHED_PAF_FAST] {
            let status = fairsched_paf_allocate(
                paf,
                weights.as_ptr(),
                2,
                offsets.as_ptr(),
                points.as_ptr(),
                points.len(),
                6,
                0.8,
                method,
                out.fair.as_mut_ptr(),
                out.min.as_mut_ptr(),
                out.paf.as_mut_ptr(),
                out.fair_progress.as_mut_ptr(),
                out.paf_progress.as_mut_ptr(),
                &mut totals,
            );
            assert_eq!(status, FairschedStatus::Ok);
        }
        let jobs = build(
            &mut jobs_memory,
            |size| fairsched_paf_jobs_storage_size(2, points.len(), size),
            |at, size, out| {
                fairsched_paf_jobs_init(
                    at,
                    size,
                    weights.as_ptr(),
                    2,
                    offsets.as_ptr(),
                    points.as_ptr(),
                    points.len(),
                    out,
                )
            },
        );
        let status = fairsched_paf_allocate_jobs(
            paf,
            jobs,
            6,
            0.8,
            FAIRSCHED_PAF_FAST,
            out.fair.as_mut_ptr(),
            out.min.as_mut_ptr(),
            out.paf.as_mut_ptr(),
            out.fair_progress.as_mut_ptr(),
            out.paf_progress.as_mut_ptr(),
            &mut totals,
        );
        assert_eq!(status, FairschedStatus::Ok);
        let mut assigned = 0;
        fairsched_paf_enforce(
            paf,
            [1, 2].as_ptr(),
            2,
            out.paf.as_ptr(),
            2,
            [0, 1].as_ptr(),
            2,
            given.as_mut_ptr(),
            4,
            &mut assigned,
        );
        let (slots, runtimes) = ([1, 2, 4, 8, 16], [1.0, 0.6, 0.4, 0.3, 0.28]);
        fairsched_paf_ernest_fit(
            slots.as_ptr(),
            5,
            runtimes.as_ptr(),
            5,
            coefficients.as_mut_ptr(),
        );
        fairsched_paf_ernest_tabulate(coefficients.as_ptr(), table.as_mut_ptr(), table.len());
        let mut from = 0;
        fairsched_paf_curve_check(table.as_ptr(), table.len(), &mut from);
        let status = fairsched_paf_concave_envelope(points.as_ptr(), 5, table.as_mut_ptr(), 5);
        assert_eq!(status, FairschedStatus::Ok);
        let (tasks, mut scratch, mut shortest) = ([4.0, 2.0, 6.0, 2.0], [0.0; 4], 0.0);
        let status = fairsched_paf_curve_from_tasks(
            tasks.as_ptr(),
            4,
            2.0,
            scratch.as_mut_ptr(),
            4,
            table.as_mut_ptr(),
            5,
            &mut shortest,
        );
        assert!(status == FairschedStatus::Ok && shortest == 5.0);
        assert!(assigned == 4 && totals.slots == 6);
    }
    assert_eq!(allocations(), before);
}

/// DRR's exports: a machine's scores, MinFrag heartbeats (over flat and laid out executors),
/// scoring machines, reprovisioning.
#[cfg(feature = "ffi")]
#[test]
fn drr_c_abi_does_not_allocate() {
    use fairsched::ffi::drr::*;
    use fairsched::ffi::FairschedStatus;

    let capacity = [4.0, 8.0, 4.0, 8.0];
    let demands = [1.0; 12];
    let steps = [2, 4];
    let mut series = [4.0, 8.0, 3.0, 6.0, 4.0, 8.0, 2.0, 8.0];
    let mut placed = [0u32; 2];
    let (mut fits, mut scores) = ([false; 2], [0.0; 2]);
    let mut executors_memory = vec![0u64; 64];
    let before = allocations();
    unsafe {
        let (mut drr, mut trc) = (0.0, 0.0);
        fairsched_drr_machine(
            capacity.as_ptr(),
            2,
            series.as_ptr(),
            8,
            4,
            &mut drr,
            &mut trc,
        );
        let mut beat = std::mem::zeroed();
        let status = fairsched_drr_min_frag(
            capacity.as_ptr(),
            2,
            series.as_mut_ptr(),
            8,
            4,
            demands.as_ptr(),
            12,
            steps.as_ptr(),
            2,
            FAIRSCHED_DRR_METRIC_DRR,
            placed.as_mut_ptr(),
            2,
            &mut beat,
        );
        assert_eq!(status, FairschedStatus::Ok);
        let pending = build(
            &mut executors_memory,
            |size| fairsched_drr_executors_storage_size(12, 2, size),
            |at, size, out| {
                fairsched_drr_executors_init(
                    at,
                    size,
                    demands.as_ptr(),
                    12,
                    steps.as_ptr(),
                    2,
                    2,
                    out,
                )
            },
        );
        let status = fairsched_drr_min_frag_executors(
            capacity.as_ptr(),
            2,
            series.as_mut_ptr(),
            8,
            4,
            pending,
            FAIRSCHED_DRR_METRIC_DRR,
            placed.as_mut_ptr(),
            2,
            &mut beat,
        );
        assert_eq!(status, FairschedStatus::Ok);
        let status = fairsched_drr_score_machines(
            capacity.as_ptr(),
            4,
            2,
            [4.0; 16].as_ptr(),
            16,
            [4, 2].as_ptr(),
            2,
            demands.as_ptr(),
            6,
            FAIRSCHED_DRR_METRIC_TETRIS,
            fits.as_mut_ptr(),
            2,
            scores.as_mut_ptr(),
            2,
        );
        assert_eq!(status, FairschedStatus::Ok);
        let status = fairsched_drr_reprovision(
            series.as_mut_ptr(),
            8,
            2,
            [1.0, 2.0].as_ptr(),
            2,
            [2.0, 1.0].as_ptr(),
            2,
        );
        assert_eq!(status, FairschedStatus::Ok);
        assert!(beat.placed > 0 && drr > 0.0 && fits[0]);
    }
    assert_eq!(allocations(), before);
}

/// Every export of the C ABI is called by a test of this file, so under the counting
/// allocator; except the one that panics on purpose (a panic allocates its payload).
#[cfg(feature = "ffi")]
#[test]
fn every_export_is_watched() {
    let source = include_str!("no_alloc.rs");
    let missing: Vec<String> = exports::exports()
        .into_iter()
        .map(|export| export.name)
        .filter(|name| name != "fairsched_testing_panic" && !source.contains(&format!("{name}(")))
        .collect();
    assert!(
        missing.is_empty(),
        "not called under the counting allocator: {missing:?}"
    );
}

/// DRF's queue, progressive filling, QKnobler's two stages (with its linear program) and its
/// online rounds.
#[test]
fn drf_and_qknobler_do_not_allocate() {
    use fairsched::drf::{Divisible, DrfQueue, Inline as DrfInline, Users};
    use fairsched::qknobler::{allocate, heterogeneous, Allocation};

    let capacity = [200.0, 1000.0, 50.0];
    let weights = [1.0, 2.0, 1.0, 3.0];
    let demands = [1.0, 6.0, 0.5, 1.0, 2.0, 0.0, 2.0, 4.0, 1.0, 3.0, 1.0, 2.0];
    let mut queue = DrfQueue::<DrfInline<16>>::new(&capacity).unwrap();
    let (mut fair, mut efficient, mut whole) = ([0.0; 4], [0.0; 4], [0; 4]);
    let mut started = [0u64; 64];
    let before = allocations();
    let users = Users::new(&capacity, &weights, &demands).unwrap();
    let _ = Divisible::of(&users).tasks(&users, 0);
    for rho in [0.0, 0.3, 0.9, 1.0] {
        let out = Allocation {
            fair: &mut fair,
            efficient: &mut efficient,
            whole: &mut whole,
        };
        allocate(&users, rho, out).unwrap();
    }
    for id in 0..4u64 {
        let demand = &demands[id as usize * 3..id as usize * 3 + 3];
        queue.add_user(id, weights[id as usize], demand).unwrap();
        queue.set_pending(id, 50).unwrap();
    }
    queue
        .allocate_round(&[100.0, 500.0, 20.0], &mut started)
        .unwrap();
    queue
        .qknobler_round(0.5, &[16.0, 64.0, 4.0], &[16.0, 64.0, 4.0], &mut started)
        .unwrap();
    queue.tasks_finished(1, 1).unwrap();
    let _ = queue.add_user(1, f64::NAN, &[1.0, 1.0, 1.0]);
    // Heterogeneous tasks (§6.1 C2): the estimate and the decision.
    let mut average = [0.0; 3];
    heterogeneous::average_demand(&capacity, &[0.0; 3], 0, &demands, &mut average).unwrap();
    let allocated = [0.0; 12];
    let users = heterogeneous::ActiveUsers {
        weights: &weights,
        allocated: &allocated,
        max_shares: &[0.1; 4],
        next: &demands,
    };
    let choice = heterogeneous::choose(0.5, &capacity, &capacity, &capacity, users).unwrap();
    assert_eq!(allocations(), before);
    assert!(queue.user(0).unwrap().running > 0 && choice.is_some());
}

/// PAF allocates (literal and fast), fits, tabulates, enforces and builds curves from task
/// durations without allocating.
#[test]
fn paf_does_not_allocate() {
    use fairsched::paf::{ernest, profile, Curve, Inline, Job, Method, Paf};
    let mut paf = Paf::<Inline<8>>::new().unwrap();
    let tables = [[0.0, 0.5, 0.75, 0.875, 0.9375], [0.0, 0.25, 0.5, 0.75, 1.0]];
    let mut out = paf_outputs::Outputs::filled(8, 0, 0.0);
    let mut table = [0.0; 33];
    let mut given = [0; 16];
    let before = allocations();
    let jobs: [Job; 8] = core::array::from_fn(|j| {
        Job::new(j as u32 % 3 + 1, Curve::new(&tables[j % 2]).unwrap()).unwrap()
    });
    for method in [Method::Literal, Method::Fast] {
        paf.allocate(&jobs[..], 20, 0.9, method, out.allocation())
            .unwrap();
    }
    let model = ernest::fit(&[1, 2, 4, 8, 16], &[1.0, 0.6, 0.4, 0.3, 0.28]).unwrap();
    model.tabulate(&mut table).unwrap();
    paf.enforce(&[1; 8], &out.paf, &[0; 8], &mut given).unwrap();
    let (tasks, mut scratch) = ([40.0, 2.5, 6.0, 2.0, 17.0, 1.0, 8.0, 3.0], [0.0; 8]);
    profile::curve_from_tasks(&tasks, 3.0, &mut scratch, &mut table[..9]).unwrap();
    profile::makespan(&tasks, 3.0, 3, &mut scratch).unwrap();
    assert_eq!(allocations(), before);
    assert!(out.paf.iter().sum::<u32>() == 20);
}

/// A batch of `jobs` U-shaped jobs (optimum `4 + j % 5` cores, table up to twice that), θ = 1,
/// on `capacity` cores: the tables are built before the allocator is watched.
fn hai_batch(jobs: u32) -> (Vec<u32>, Vec<f64>) {
    let optima = (0..jobs).map(|j| 4 + j % 5);
    let caps = optima.clone().map(|a| 2 * a).collect();
    let jct = optima
        .flat_map(|a| (0..=2 * a).map(move |x| f64::from(a * a) / f64::from(x) + f64::from(x)))
        .collect();
    (caps, jct)
}

/// ReB's predicted differences of the PageRank table (§4.2, θ = 10), and runs of
/// `20 + a / 2 + 400 / a`, for the tables built from predictions.
const HAI_DIFFERENCES: [f64; 5] = [70.0, 16.0, 4.0, -2.0, -5.0];
const HAI_RUNS: ([u32; 5], [f64; 5]) = ([1, 2, 4, 8, 16], [420.5, 221.0, 122.0, 74.0, 53.0]);

#[test]
fn hai_rust_api_does_not_allocate() {
    use fairsched::hai::{Batch, Hai, Inline};
    let (caps, jct) = hai_batch(40);
    let mut hai = Hai::<Inline<64>>::new().unwrap();
    let (mut cores, mut out) = (vec![0; 40], vec![0.0; 40]);
    let mut table = vec![0.0; 7];
    let before = allocations();
    fairsched::hai::table_from_differences(10, 40, 80.0, &HAI_DIFFERENCES, &mut table).unwrap();
    fairsched::hai::table_from_samples(&HAI_RUNS.0, &HAI_RUNS.1, 4, &mut table).unwrap();
    for capacity in 20..120 {
        let batch = Batch {
            capacity,
            theta: 1,
            caps: &caps,
            jct: &jct,
        };
        hai.shortest_job_optimal(&batch, &mut cores, &mut out)
            .unwrap();
        hai.allocate(&batch, &mut cores, &mut out).unwrap();
        hai.rebalance(&batch, &mut cores, &mut out).unwrap();
        let _ = hai.allocate(&Batch { theta: 0, ..batch }, &mut cores, &mut out);
    }
    assert_eq!(allocations(), before);
    assert!(cores.iter().all(|&c| c > 0));
}

#[cfg(feature = "ffi")]
#[test]
fn hai_c_abi_does_not_allocate() {
    use fairsched::ffi::hai::*;

    let (caps, jct) = hai_batch(40);
    let mut memory = vec![0u64; 1024];
    let (mut cores, mut out) = (vec![0u32; 40], vec![0.0; 40]);
    let mut summary = FairschedHaiSummary {
        jct_sum_start: 0.0,
        jct_sum: 0.0,
        transfers: 0,
    };
    let before = allocations();
    unsafe {
        let hai = build(
            &mut memory,
            |size| fairsched_hai_storage_size(40, size),
            |at, size, out| fairsched_hai_init(at, size, 40, out),
        );
        // Allocate last: its summary shows transfers (3 is an unknown method).
        for method in [3, 0, 2, 1] {
            fairsched_hai_allocate(
                hai,
                method,
                100,
                1,
                caps.as_ptr(),
                caps.len(),
                jct.as_ptr(),
                jct.len(),
                cores.as_mut_ptr(),
                cores.len(),
                out.as_mut_ptr(),
                out.len(),
                &mut summary,
            );
        }
    }
    let (mut table, mut coefficients) = ([0.0; 7], [0.0; 4]);
    let (d, (runs_cores, runs_jct)) = (HAI_DIFFERENCES, HAI_RUNS);
    let statuses = unsafe {
        [
            fairsched_hai_table_from_differences(
                10,
                40,
                80.0,
                d.as_ptr(),
                d.len(),
                table.as_mut_ptr(),
                table.len(),
            ),
            fairsched_hai_table_from_samples(
                4,
                runs_cores.as_ptr(),
                runs_cores.len(),
                runs_jct.as_ptr(),
                runs_jct.len(),
                table.as_mut_ptr(),
                table.len(),
                coefficients.as_mut_ptr(),
            ),
        ]
    };
    assert_eq!(allocations(), before);
    assert!(summary.transfers > 0);
    assert_eq!(statuses, [fairsched::ffi::FairschedStatus::Ok; 2]);
}

/// The counter itself works, so the tests above can fail.
#[test]
fn counter_sees_allocations() {
    let before = allocations();
    let boxed = std::hint::black_box(Box::new(7));
    assert_eq!(allocations(), before + 1);
    drop(boxed);
}

#[test]
fn drr_does_not_allocate() {
    use fairsched::drr::*;
    let capacity = [4.0, 8.0];
    let demands = [1.0; 24];
    let steps = [2, 4, 3, 3];
    let mut placed = [0u32; 4];
    let (mut fits, mut scores) = ([false; 2], [0.0; 2]);
    let available = [4.0; 16];
    let before = allocations();
    for metric in [Metric::Drr, Metric::Trc, Metric::Tetris] {
        let mut series = [4.0, 8.0, 3.0, 6.0, 4.0, 8.0, 2.0, 8.0];
        let pending = Executors::new(&demands, &steps, 2).unwrap();
        let beat = min_frag(&capacity, &mut series, 4, &pending, metric, &mut placed).unwrap();
        assert!(beat.placed > 0);
        let machines = Machines::new(&[4.0, 8.0, 4.0, 8.0], 2, &available, &[4, 2]).unwrap();
        let executor = Executor::new(&demands[..6], 2).unwrap();
        score_machines(&machines, &executor, metric, &mut fits, &mut scores).unwrap();
        reprovision(&mut series, 2, &[1.0, 2.0], &[2.0, 1.0]).unwrap();
    }
    assert_eq!(allocations(), before);
}

/// A machine's timeline (placing, a heartbeat with copies, reprovisioning, releasing, advancing)
/// and the predictor (recording, predicting, forgetting), and reprovisioning's trigger.
#[test]
fn drr_timeline_and_predictor_do_not_allocate() {
    use fairsched::drr::{
        predictor, reprovision_due, timeline, Executor, Executors, Metric, Predictor, Timeline, RHO,
    };
    let mut t =
        Timeline::<timeline::Inline<8, { timeline::amounts(8, 6, 2) }>>::new(&[4.0, 8.0], 6)
            .unwrap();
    let mut p = Predictor::<predictor::Inline<4, { predictor::amounts(4, 3, 6, 2) }>>::new(2, 3, 6)
        .unwrap();
    let demand = [1.0, 2.0, 1.0, 1.0, 0.5, 1.0];
    let mut series = [0.0; 12];
    let mut placed = [0u32; 8];
    let mut due = [false; 3];
    let before = allocations();
    for round in 0..20u64 {
        let id = t.place(&Executor::new(&demand[..4], 2).unwrap()).unwrap();
        let pending = Executors::new(&demand, &[1, 2], 2).unwrap();
        t.heartbeat(&pending, &[2, 1], Metric::Drr, &mut placed)
            .unwrap();
        let _ = t.reprovision(id, &[1.5, 1.0], &[1.0, 1.0]);
        t.release(id).unwrap();
        let _ = t.release(id);
        t.advance(round % 3).unwrap();
        assert!(t.stats().drr >= 0.0 && t.view().t_run() > 0);
        p.record(round % 5, &demand[..2 + 2 * (round as usize % 3)])
            .unwrap_or(());
        p.predict(round % 5, &[2.0, 2.0], 3, &mut series).unwrap();
        let _ = p.forget(round % 7);
        reprovision_due(&[1.0, 1.2, 3.0], &[1.0; 3], RHO, &mut due).unwrap();
    }
    assert_eq!(allocations(), before);
    assert!(due[2] && p.applications() > 0);
}

/// The C ABI of the timeline, the predictor and reprovisioning's trigger.
#[cfg(feature = "ffi")]
#[test]
fn drr_timeline_and_predictor_c_abi_do_not_allocate() {
    use fairsched::ffi::drr::*;
    use fairsched::ffi::drr_predictor::*;
    use fairsched::ffi::drr_timeline::*;
    use fairsched::ffi::FairschedStatus;

    let mut timeline_memory = vec![0u64; 1024];
    let mut predictor_memory = vec![0u64; 1024];
    let mut executors_memory = vec![0u64; 64];
    let machine = [4.0, 8.0];
    let demand = [1.0, 2.0, 1.0, 1.0, 0.5, 1.0];
    let (steps, counts) = ([1u32, 2], [2u32, 1]);
    let mut placed = [0u32; 8];
    let mut available = [0.0; 12];
    let mut series = [0.0; 12];
    let mut due = [false; 2];
    let before = allocations();
    unsafe {
        let t = build(
            &mut timeline_memory,
            |size| fairsched_drr_timeline_storage_size(8, 2, 6, size),
            |at, size, out| fairsched_drr_timeline_init(at, size, 8, machine.as_ptr(), 2, 6, out),
        );
        let p = build(
            &mut predictor_memory,
            |size| fairsched_drr_predictor_storage_size(4, 2, 3, 6, size),
            |at, size, out| fairsched_drr_predictor_init(at, size, 4, 2, 3, 6, out),
        );
        let pending = build(
            &mut executors_memory,
            |size| fairsched_drr_executors_storage_size(6, 2, size),
            |at, size, out| {
                fairsched_drr_executors_init(
                    at,
                    size,
                    demand.as_ptr(),
                    6,
                    steps.as_ptr(),
                    2,
                    2,
                    out,
                )
            },
        );
        for round in 0..20u64 {
            let mut id = 0;
            let status = fairsched_drr_timeline_place(t, demand.as_ptr(), 4, &mut id);
            assert_eq!(status, FairschedStatus::Ok);
            let mut beat = std::mem::zeroed();
            let status = fairsched_drr_timeline_heartbeat(
                t,
                demand.as_ptr(),
                6,
                steps.as_ptr(),
                2,
                counts.as_ptr(),
                2,
                FAIRSCHED_DRR_METRIC_DRR,
                placed.as_mut_ptr(),
                placed.len(),
                &mut beat,
            );
            assert_eq!(status, FairschedStatus::Ok);
            let status = fairsched_drr_timeline_heartbeat_executors(
                t,
                pending,
                counts.as_ptr(),
                2,
                FAIRSCHED_DRR_METRIC_DRR,
                placed.as_mut_ptr(),
                placed.len(),
                &mut beat,
            );
            assert_eq!(status, FairschedStatus::Ok);
            fairsched_drr_timeline_reprovision(t, id, [1.5, 1.0].as_ptr(), 2, [1.0; 2].as_ptr(), 2);
            assert_eq!(fairsched_drr_timeline_release(t, id), FairschedStatus::Ok);
            let mut finished = 0;
            fairsched_drr_timeline_advance(t, round % 3, &mut finished);
            let mut stats = std::mem::zeroed();
            assert_eq!(
                fairsched_drr_timeline_stats_get(t, &mut stats),
                FairschedStatus::Ok
            );
            let status = fairsched_drr_timeline_available(t, available.as_mut_ptr(), 12);
            assert_eq!(status, FairschedStatus::Ok);
            let run = 2 + 2 * (round as usize % 3);
            fairsched_drr_predictor_record(p, round % 5, demand.as_ptr(), run);
            let mut prediction = std::mem::zeroed();
            let status = fairsched_drr_predictor_predict(
                p,
                round % 5,
                [2.0, 2.0].as_ptr(),
                2,
                3,
                series.as_mut_ptr(),
                series.len(),
                &mut prediction,
            );
            assert_eq!(status, FairschedStatus::Ok);
            let mut runs = 0;
            fairsched_drr_predictor_runs(p, round % 5, &mut runs);
            fairsched_drr_predictor_forget(p, round % 7);
            let mut count = 0;
            let status = fairsched_drr_reprovision_due(
                [1.0, 3.0].as_ptr(),
                2,
                [1.0, 1.0].as_ptr(),
                2,
                FAIRSCHED_DRR_RHO,
                due.as_mut_ptr(),
                2,
                &mut count,
            );
            assert_eq!((status, count), (FairschedStatus::Ok, 1));
        }
    }
    assert_eq!(allocations(), before);
    assert!(due[1]);
}
