//! The answers the Java (JNI) and Go (cgo) benchmarks must reproduce: for every workload they
//! time (bindings/java/src/test/java/dev/fairsched/bench/, bindings/go/fairsched/bench_test.go),
//! a checksum of what the Rust workload computes, pinned here and asserted there. A binding
//! whose answers differ is not timing the same work, so its figure is not compared.
//!
//! The checksum is FNV-1a over 64-bit words: from `0xcbf29ce484222325`, each word `v` makes
//! `h = (h ^ v) · 0x100000001b3` (wrapping); a float enters as its IEEE-754 bits, a count or
//! id as an unsigned integer.
//!
//! Run: `cargo test -p fairsched-bench --test bindings`

use fairsched::drr::timeline::{self, ExecutorRow, HEAPS};
use fairsched::drr::{min_frag, Executor, Executors, Metric, Timeline};
use fairsched::hai::{Hai, Inline};
use fairsched::paf::{ernest, Method};
use fairsched_bench::cfq::{CfqMemory, DrainAndReenter};
use fairsched_bench::drf::{busy_queue, decide, round, DrfMemory, Knobbed, Shares, ROUND_TASKS};
use fairsched_bench::drr::{executors, machine, CAPACITY, HORIZON};
use fairsched_bench::{hai, paf};
use fairsched_testkit::memory::Memory as Storage;

/// FNV-1a over 64-bit words.
struct Checksum(u64);

impl Checksum {
    fn new() -> Self {
        Checksum(0xcbf2_9ce4_8422_2325)
    }

    fn word(&mut self, v: u64) -> &mut Self {
        self.0 = (self.0 ^ v).wrapping_mul(0x100_0000_01b3);
        self
    }

    fn float(&mut self, x: f64) -> &mut Self {
        self.word(x.to_bits())
    }
}

/// `cfq_batch_10k/k`: the ids given by the first 1,000 steps (offer k, re-enter k), in order.
fn cfq_batch(k: usize) -> u64 {
    let mut memory = CfqMemory::new(10_000);
    let mut workload = DrainAndReenter::new(&mut memory, 10_000, 5_000, k);
    let mut sum = Checksum::new();
    for _ in 0..1_000 {
        let n = workload.decide_batch();
        assert_eq!(n, k);
        for &id in workload.given(n) {
            sum.word(id);
        }
    }
    sum.0
}

/// Batches of one decide as single decisions (`DrainAndReenter::decide_one`), which the
/// benchmarks' baselines are checked against.
#[test]
fn cfq_batches_of_one_decide_as_single_decisions() {
    let mut memory = CfqMemory::new(10_000);
    let mut workload = DrainAndReenter::new(&mut memory, 10_000, 5_000, 1);
    let mut sum = Checksum::new();
    for _ in 0..1_000 {
        sum.word(workload.decide_one());
    }
    assert_eq!(sum.0, cfq_batch(1));
}

/// `drf_next_user/queue/10000`: the first 10,000 users whose task starts.
fn drf_next_user() -> u64 {
    let mut memory = DrfMemory::for_users(10_000);
    let mut queue = busy_queue(&mut memory, 10_000, Shares::Patterned);
    let mut sum = Checksum::new();
    for _ in 0..10_000 {
        sum.word(decide(&mut queue));
    }
    sum.0
}

/// `drf_round/queue/10000`: the first 100 rounds, each its count then its ids.
fn drf_round() -> u64 {
    let mut memory = DrfMemory::for_users(10_000);
    let mut queue = busy_queue(&mut memory, 10_000, Shares::Patterned);
    let mut out = [0; ROUND_TASKS];
    let mut sum = Checksum::new();
    for _ in 0..100 {
        let n = round(&mut queue, &mut out);
        sum.word(n as u64);
        for &id in &out[..n] {
            sum.word(id);
        }
    }
    sum.0
}

/// `qknobler_allocate/m4/n`: every user's whole, fair and efficient tasks (in that order, user
/// by user), then the efficiency.
fn qknobler(n: usize) -> u64 {
    let mut knobbed = Knobbed::new(n, 4);
    let summary = knobbed.allocate();
    let mut sum = Checksum::new();
    for i in 0..n {
        sum.word(knobbed.whole[i])
            .float(knobbed.fair[i])
            .float(knobbed.efficient[i]);
    }
    sum.float(summary.efficiency).0
}

/// `paf_allocate_200_jobs_8000_slots/fast`: the totals (slots, moved, fair progress, PAF
/// progress, largest loss).
fn paf_fast() -> u64 {
    let workload = paf::Workload::new();
    let jobs = workload.jobs();
    let totals = paf::Allocator::new().allocate(&jobs, Method::Fast);
    Checksum::new()
        .word(totals.slots)
        .word(totals.moved)
        .float(totals.fair_progress)
        .float(totals.paf_progress)
        .float(totals.largest_loss)
        .0
}

/// `ernest_fit/10_samples`: the four coefficients.
fn ernest_fit() -> u64 {
    let (slots, runtimes) = paf::ernest_samples();
    let fit = ernest::fit(&slots, &runtimes)
        .expect("a fit")
        .coefficients();
    let mut sum = Checksum::new();
    for a in fit {
        sum.float(a);
    }
    sum.0
}

/// `hai_allocate/heaps/n=50,C=200`: every job's cores, then the transfers and the total JCT.
fn hai_allocate() -> u64 {
    let workload = hai::Workload::new(50, 200);
    let mut hai = Box::new(Hai::<Inline<1_000>>::new().expect("a capacity of 1,000"));
    let (mut cores, mut jct) = (vec![0; 50], vec![0.0; 50]);
    let summary = hai
        .allocate(&workload.batch(), &mut cores, &mut jct)
        .unwrap();
    let mut sum = Checksum::new();
    for c in cores {
        sum.word(c.into());
    }
    sum.word(summary.transfers.into()).float(summary.jct_sum).0
}

/// `t_run` of the DRR workloads' machine (bench/benches/drr.rs).
const T_RUN: u32 = 40;

/// `drr_heartbeat/min_frag/Drr`: the count placed, the placements, `t_run` and `θ` after.
fn drr_heartbeat() -> u64 {
    let mut available = machine(1);
    let (demands, steps) = executors(100, 2);
    let pending = Executors::new(&demands, &steps, CAPACITY.len()).expect("valid");
    let mut placements = vec![0; steps.len()];
    let beat = min_frag(
        &CAPACITY,
        &mut available,
        T_RUN,
        &pending,
        Metric::Drr,
        &mut placements,
    )
    .expect("valid heartbeat");
    let mut sum = Checksum::new();
    sum.word(beat.placed as u64);
    for &p in &placements[..beat.placed] {
        sum.word(p.into());
    }
    sum.word(beat.t_run.into()).float(beat.drr).0
}

/// `drr_timeline/heartbeat`: on bench/benches/drr.rs' busy timeline (room for 64 executors,
/// one running until `T_RUN`), the count placed, the placements, the first id, `t_run` and `θ`.
fn drr_timeline() -> u64 {
    let memory = Storage::<ExecutorRow, HEAPS>::with_amounts(
        64,
        timeline::amounts(64, HORIZON, CAPACITY.len()),
    );
    let mut t = Timeline::with_storage(memory, &CAPACITY, HORIZON as u32).expect("valid");
    let running: Vec<f64> = machine(1)
        .iter()
        .take(T_RUN as usize * CAPACITY.len())
        .enumerate()
        .map(|(i, have)| (CAPACITY[i % CAPACITY.len()] - have).max(0.0))
        .collect();
    t.place(&Executor::new(&running, CAPACITY.len()).expect("valid"))
        .expect("fits");
    let (demands, steps) = executors(100, 2);
    let pending = Executors::new(&demands, &steps, CAPACITY.len()).expect("valid");
    let mut placements = vec![0; steps.len()];
    let counts = vec![1; steps.len()];
    let placed = t
        .heartbeat(&pending, &counts, Metric::Drr, &mut placements)
        .expect("valid heartbeat");
    let mut sum = Checksum::new();
    sum.word(placed.placed as u64);
    for &p in &placements[..placed.placed] {
        sum.word(p.into());
    }
    sum.word(placed.first_id)
        .word(placed.t_run.into())
        .float(placed.drr)
        .0
}

/// The pinned checksums, by the Rust criterion id the binding figures compare with; the Java
/// (`Checksums.java`) and Go (`bench_test.go`) tables hold the same.
const PINNED: [(&str, u64); 12] = [
    ("cfq_batch_10k/1", 0x3a11_8567_9d3e_d4e1),
    ("cfq_batch_10k/16", 0x3eae_5cc3_5c42_ba91),
    ("cfq_batch_10k/256", 0x122c_1b98_ce90_daa7),
    ("drf_next_user/queue/10000", 0x1fb4_4726_9073_5a75),
    ("drf_round/queue/10000", 0x969c_ed82_8caa_48a7),
    ("qknobler_allocate/m4/10", 0x2bcb_3137_55f6_7d6e),
    ("qknobler_allocate/m4/1000", 0xc4f9_23f8_934d_ab3d),
    (
        "paf_allocate_200_jobs_8000_slots/fast",
        0xd8e6_612e_c434_cbce,
    ),
    ("ernest_fit/10_samples", 0xe24e_a343_4fa9_5126),
    ("hai_allocate/heaps/n=50,C=200", 0x9d6e_44ca_4af2_caef),
    ("drr_heartbeat/min_frag/Drr", 0xe992_3146_054e_9079),
    ("drr_timeline/heartbeat", 0x087a_bcff_2a46_b391),
];

#[test]
fn the_workloads_give_the_pinned_checksums() {
    let computed = [
        ("cfq_batch_10k/1", cfq_batch(1)),
        ("cfq_batch_10k/16", cfq_batch(16)),
        ("cfq_batch_10k/256", cfq_batch(256)),
        ("drf_next_user/queue/10000", drf_next_user()),
        ("drf_round/queue/10000", drf_round()),
        ("qknobler_allocate/m4/10", qknobler(10)),
        ("qknobler_allocate/m4/1000", qknobler(1_000)),
        ("paf_allocate_200_jobs_8000_slots/fast", paf_fast()),
        ("ernest_fit/10_samples", ernest_fit()),
        ("hai_allocate/heaps/n=50,C=200", hai_allocate()),
        ("drr_heartbeat/min_frag/Drr", drr_heartbeat()),
        ("drr_timeline/heartbeat", drr_timeline()),
    ];
    for ((id, sum), (pinned_id, pinned)) in computed.iter().zip(PINNED) {
        assert_eq!(id, &pinned_id);
        assert_eq!(*sum, pinned, "{id}: {sum:016x}, pinned {pinned:016x}");
    }
}
