//! DRR and MinFrag on hand-built machines whose answers are worked out here as fractions
//! (Liu, Xu: *Elasecutor: Elastic Executor Scheduling in Data Analytics Systems*, IEEE/ACM
//! Transactions on Networking, 2021; §III-B2, Fig. 6), and every kind of bad input.

use fairsched::drr::timeline::{self, ExecutorRow, HEAPS};
use fairsched::drr::{
    min_frag, reprovision, reprovision_due, score_machines, Executor, Executors, Machine, Machines,
    Metric, Placed, Timeline, RHO,
};
use fairsched::Error;
use fairsched_testkit::memory::Memory;

/// Two kinds, capacity (4, 8), four steps.
const CAPACITY: [f64; 2] = [4.0, 8.0];
#[rustfmt::skip]
const AVAILABLE: [f64; 8] = [
    3.0, 6.0,
    2.0, 5.0,
    4.0, 8.0,
    1.0, 2.0,
];

fn machine(t_run: u32) -> Machine<'static> {
    Machine::new(&CAPACITY, &AVAILABLE, t_run).unwrap()
}

#[test]
fn machine_drr_averages_until_the_first_finish() {
    // Nothing runs (t_run = H = 4): CPU (3+2+4+1)/16 = 5/8, memory (6+5+8+2)/32 = 21/32.
    assert_eq!(machine(4).drr(), 21.0 / 32.0);
    assert_eq!(machine(4).trc(), 5.0 / 8.0 + 21.0 / 32.0);
    // A running executor finishes at step 1: CPU 3/4, memory 6/8.
    assert_eq!(machine(1).drr(), 3.0 / 4.0);
}

#[test]
fn new_executor_finishing_first_sets_t_star() {
    // T_i = 2 < t_run = 4, so t* = T_i = 2.
    let demand = [1.0, 2.0, 2.0, 1.0];
    let executor = Executor::new(&demand, 2).unwrap();
    let m = machine(4);
    assert_eq!(m.fits(&executor), Ok(true));
    // CPU ((3-1) + (2-2)) / (4+4) = 1/4; memory ((6-2) + (5-1)) / (8+8) = 1/2.
    assert_eq!(m.score(&executor, Metric::Drr), Ok(Some(0.5)));
    assert_eq!(m.score(&executor, Metric::Trc), Ok(Some(0.75)));
    // Tetris: peaks (2, 2) against step 0's (3, 6): 2/4 · 3/4 + 2/8 · 6/8 = 9/16.
    assert_eq!(m.score(&executor, Metric::Tetris), Ok(Some(9.0 / 16.0)));
}

#[test]
fn running_executor_finishing_first_sets_t_star() {
    let demand = [1.0; 6];
    let executor = Executor::new(&demand, 2).unwrap();
    // t_run = 1 < T_i = 3: t* = 1. CPU (3-1)/4 = 1/2, memory (6-1)/8 = 5/8.
    assert_eq!(
        machine(1).score(&executor, Metric::Drr),
        Ok(Some(5.0 / 8.0))
    );
    // Nothing running: t* = T_i = 3. CPU (2+1+3)/12 = 1/2, memory (5+4+7)/24 = 2/3.
    assert_eq!(
        machine(4).score(&executor, Metric::Drr),
        Ok(Some(16.0 / 24.0))
    );
}

#[test]
fn fit_is_checked_at_every_step_of_the_executor() {
    // Fits at steps 0-2, needs 2 CPUs at step 3 where only 1 is available.
    let demand = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 1.0];
    let executor = Executor::new(&demand, 2).unwrap();
    // Even though t* = 1 stops the sums early.
    assert_eq!(machine(1).fits(&executor), Ok(false));
    assert_eq!(machine(1).score(&executor, Metric::Drr), Ok(None));
    // An exact fit fits (RD <= AR).
    let executor = Executor::new(&AVAILABLE, 2).unwrap();
    assert_eq!(machine(4).score(&executor, Metric::Drr), Ok(Some(0.0)));
}

/// Fig. 6, reconstructed: the figure's series are not in the text, so these are one instance
/// consistent with every number it gives: capacities 16 cores, 64 GB, 10 Gbps, 500 MB/s; a
/// running executor finishing at `T` (8 steps of `T/8`); executor 1 finishing at `0.875 T`
/// (7 steps) and executor 2 at `1.125 T` (9 steps); `θ(1, j) = max{53/112, 165/448, 3/70,
/// 6/35}`, `θ(2, j) = max{13/32, 43/128, 1/10, 1/20}`; and no network left after executor 2.
mod fig6 {
    pub const CAPACITY: [f64; 4] = [16.0, 64.0, 10.0, 500.0];

    /// (12, 40, 6, 300) available until `T`, all of the capacity afterwards.
    pub fn available() -> Vec<f64> {
        let mut series = [12.0, 40.0, 6.0, 300.0].repeat(8);
        series.extend(CAPACITY);
        series
    }

    #[rustfmt::skip]
    pub const EXECUTOR_1: [f64; 28] = [
        5.0, 17.0, 6.0, 300.0,
        5.0, 17.0, 6.0, 200.0,
        5.0, 17.0, 6.0, 200.0,
        4.0, 16.0, 6.0, 200.0,
        4.0, 16.0, 5.0, 200.0,
        4.0, 16.0, 5.0, 200.0,
        4.0, 16.0, 5.0, 200.0,
    ];

    #[rustfmt::skip]
    pub const EXECUTOR_2: [f64; 36] = [
        6.0, 20.0, 6.0, 300.0,
        6.0, 20.0, 5.0, 300.0,
        6.0, 20.0, 5.0, 300.0,
        6.0, 20.0, 5.0, 300.0,
        5.0, 17.0, 5.0, 250.0,
        5.0, 17.0, 5.0, 250.0,
        5.0, 17.0, 5.0, 250.0,
        5.0, 17.0, 4.0, 250.0,
        4.0, 8.0, 2.0, 100.0,
    ];
}

#[test]
fn fig6_per_kind_shares_and_drr() {
    let available = fig6::available();
    let m = Machine::new(&fig6::CAPACITY, &available, 8).unwrap();
    let one = Executor::new(&fig6::EXECUTOR_1, 4).unwrap();
    let two = Executor::new(&fig6::EXECUTOR_2, 4).unwrap();
    assert_eq!(m.score(&one, Metric::Drr), Ok(Some(53.0 / 112.0)));
    assert_eq!(m.score(&two, Metric::Drr), Ok(Some(13.0 / 32.0)));
    // TRC sums the four shares the paper lists.
    let trc = |shares: [f64; 4]| shares.iter().sum::<f64>();
    let trc_one = trc([53.0 / 112.0, 165.0 / 448.0, 3.0 / 70.0, 6.0 / 35.0]);
    let trc_two = trc([13.0 / 32.0, 43.0 / 128.0, 1.0 / 10.0, 1.0 / 20.0]);
    approx::assert_relative_eq!(m.score(&one, Metric::Trc).unwrap().unwrap(), trc_one);
    approx::assert_relative_eq!(m.score(&two, Metric::Trc).unwrap().unwrap(), trc_two);
}

#[test]
fn fig6_min_frag_takes_executor_2_and_then_nothing_fits() {
    let mut available = fig6::available();
    let demands = [&fig6::EXECUTOR_1[..], &fig6::EXECUTOR_2[..]].concat();
    let pending = Executors::new(&demands, &[7, 9], 4).unwrap();
    let mut placed = [u32::MAX; 2];
    let beat = min_frag(
        &fig6::CAPACITY,
        &mut available,
        8,
        &pending,
        Metric::Drr,
        &mut placed,
    )
    .unwrap();
    assert_eq!(beat.placed, 1);
    assert_eq!(placed[0], 1);
    assert_eq!(beat.t_run, 8);
    // Executor 2 took all the network at step 0: executor 1 needs 6 Gbps there.
    assert_eq!(&available[..4], &[6.0, 20.0, 0.0, 0.0]);
    // θ(j) afterwards is θ(2, j).
    assert_eq!(beat.drr, 13.0 / 32.0);
}

/// Fig. 6 on a machine's timeline: the running executor is placed first (what it leaves is
/// the figure's (12, 40, 6, 300) until `T`), the heartbeat takes executor 2 as
/// `fairsched::drr::min_frag` does, and executor 1, which no longer fits, fits once the
/// running executor has finished.
#[test]
fn fig6_on_a_timeline() {
    let mut memory = Memory::<ExecutorRow, HEAPS>::with_amounts(4, timeline::amounts(4, 9, 4));
    let mut t = Timeline::with_storage(memory.storage_with_amounts(), &fig6::CAPACITY, 9).unwrap();
    let running = [4.0, 24.0, 4.0, 200.0].repeat(8);
    assert_eq!(t.place(&Executor::new(&running, 4).unwrap()), Ok(1));
    assert_eq!(t.available(), fig6::available());
    assert_eq!(t.t_run(), 8);
    let one = Executor::new(&fig6::EXECUTOR_1, 4).unwrap();
    let two = Executor::new(&fig6::EXECUTOR_2, 4).unwrap();
    assert_eq!(t.view().score(&one, Metric::Drr), Ok(Some(53.0 / 112.0)));
    assert_eq!(t.view().score(&two, Metric::Drr), Ok(Some(13.0 / 32.0)));

    let demands = [&fig6::EXECUTOR_1[..], &fig6::EXECUTOR_2[..]].concat();
    let pending = Executors::new(&demands, &[7, 9], 4).unwrap();
    let mut placed = [u32::MAX; 2];
    let beat = t
        .heartbeat(&pending, &[1, 1], Metric::Drr, &mut placed)
        .unwrap();
    let want = Placed {
        placed: 1,
        first_id: 2,
        t_run: 8,
        drr: 13.0 / 32.0,
    };
    assert_eq!((beat, placed[0]), (want, 1));
    assert_eq!(&t.available()[..4], &[6.0, 20.0, 0.0, 0.0]);

    // At T the running executor finishes; executor 2 has one step left (4, 8, 2, 100), and
    // executor 1 fits.
    assert_eq!(t.advance(8), Ok(1));
    assert_eq!(&t.available()[..4], &[12.0, 56.0, 8.0, 400.0]);
    assert_eq!(t.t_run(), 1);
    let pending = Executors::new(&fig6::EXECUTOR_1, &[7], 4).unwrap();
    let beat = t
        .heartbeat(&pending, &[1], Metric::Drr, &mut placed)
        .unwrap();
    assert_eq!((beat.placed, beat.first_id, beat.t_run), (1, 3, 1));
}

#[test]
fn min_frag_breaks_ties_by_index_and_updates_t_run() {
    // Two identical one-step executors each taking half the machine at step 0; then a third
    // that needs step 1 too. Nothing runs: t_run = H = 2.
    let capacity = [2.0];
    let mut available = [2.0, 2.0];
    let demands = [1.0, 1.0, 1.0, 1.0];
    let pending = Executors::new(&demands, &[1, 1, 2], 1).unwrap();
    let mut placed = [u32::MAX; 3];
    let beat = min_frag(
        &capacity,
        &mut available,
        2,
        &pending,
        Metric::Drr,
        &mut placed,
    )
    .unwrap();
    // Round 1: executors 0 and 1 leave (2-1)/2 = 1/2 with t* = 1, executor 2 leaves
    // ((2-1) + (2-1)) / 4 = 1/2 with t* = 2: a three-way tie, and executor 0 goes first.
    // Round 2 (t_run = 1): executors 1 and 2 both leave (1-1)/2 = 0 with t* = 1: executor 1.
    // Round 3: executor 2 needs the unit of step 0 that is gone.
    assert_eq!(&placed[..beat.placed], &[0, 1]);
    assert_eq!(beat.t_run, 1);
    assert_eq!(available, [0.0, 2.0]);
    assert_eq!(beat.drr, 0.0);
}

#[test]
fn min_frag_with_tetris_prefers_the_best_aligned() {
    // One kind: the larger peak aligns better with the idle capacity.
    let capacity = [4.0];
    let mut available = [4.0];
    let demands = [1.0, 3.0];
    let pending = Executors::new(&demands, &[1, 1], 1).unwrap();
    let mut placed = [u32::MAX; 2];
    let beat = min_frag(
        &capacity,
        &mut available,
        1,
        &pending,
        Metric::Tetris,
        &mut placed,
    )
    .unwrap();
    assert_eq!(&placed[..beat.placed], &[1, 0]);
    assert_eq!(available, [0.0]);
}

#[test]
fn scoring_across_machines() {
    let capacities = [4.0, 8.0, 4.0, 8.0, 8.0, 8.0];
    let mut available = AVAILABLE.to_vec();
    available.extend([0.0; 8]);
    available.extend([8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0]);
    let machines = Machines::new(&capacities, 2, &available, &[4, 4, 1]).unwrap();
    let demand = [1.0, 2.0, 2.0, 1.0];
    let executor = Executor::new(&demand, 2).unwrap();
    let mut fits = [false; 3];
    let mut scores = [0.0; 3];
    score_machines(&machines, &executor, Metric::Drr, &mut fits, &mut scores).unwrap();
    assert_eq!(fits, [true, false, true]);
    // Machine 2: t* = 1: CPU (8-1)/8, memory (8-2)/8.
    assert_eq!(scores, [0.5, f64::INFINITY, 7.0 / 8.0]);
}

#[test]
fn reprovisioning_scales_each_kind_by_observed_over_predicted() {
    let mut remaining = [2.0, 4.0, 1.0, 3.0, 6.0, 5.0];
    reprovision(&mut remaining, 3, &[3.0, 1.0, 7.0], &[2.0, 4.0, 0.0]).unwrap();
    // CPU · 3/2, memory · 1/4, the third kind predicted at zero left alone.
    assert_eq!(remaining, [3.0, 1.0, 1.0, 4.5, 1.5, 5.0]);
}

/// §III-C: reprovisioning is due when a stage has run longer than ρ times its expected time.
#[test]
fn reprovisioning_is_due_past_rho_times_the_expected_time() {
    let mut due = [true; 4];
    // ρ = 1.1 on stages expected to take 10 steps: due past 11.
    let count = reprovision_due(&[10.0, 10.5, 12.0, 0.0], &[10.0; 4], RHO, &mut due);
    assert_eq!((count, due), (Ok(1), [false, false, true, false]));
    // Strictly past: exactly ρ times is not due yet.
    let after = f64::from_bits(3.0f64.to_bits() + 1);
    let count = reprovision_due(&[3.0, after], &[2.0, 2.0], 1.5, &mut due[..2]);
    assert_eq!((count, &due[..2]), (Ok(1), &[false, true][..]));
    // ρ = 1: any delay.
    assert_eq!(reprovision_due(&[2.5], &[2.0], 1.0, &mut due[..1]), Ok(1));
    assert_eq!(reprovision_due(&[], &[], RHO, &mut []), Ok(0));

    use Error::*;
    let mut due = [true, false];
    let cases: [(&[f64], &[f64], f64, Error); 9] = [
        (&[1.0], &[1.0, 1.0], RHO, LengthMismatch),
        (&[1.0, 1.0], &[1.0, 1.0], f64::NAN, NotFinite),
        (&[1.0, 1.0], &[1.0, 1.0], f64::INFINITY, NotFinite),
        (&[1.0, 1.0], &[1.0, 1.0], 0.99, OutOfRange),
        (&[1.0, -1.0], &[1.0, 1.0], RHO, Negative),
        (&[1.0, f64::INFINITY], &[1.0, 1.0], RHO, NotFinite),
        (&[1.0, 1.0], &[1.0, 0.0], RHO, NotPositive),
        (&[1.0, 1.0], &[-1.0, 1.0], RHO, Negative),
        (&[1.0, 1.0], &[f64::NAN, 1.0], RHO, NotFinite),
    ];
    for (elapsed, expected, rho, error) in cases {
        let result = reprovision_due(elapsed, expected, rho, &mut due);
        assert_eq!(result, Err(error), "{elapsed:?} {expected:?} {rho}");
    }
    assert_eq!(
        reprovision_due(&[1.0; 2], &[1.0; 2], RHO, &mut due[..1]),
        Err(LengthMismatch)
    );
    assert_eq!(due, [true, false]);
}

#[test]
fn bad_input_is_an_error_that_changes_nothing() {
    use Error::*;
    assert_eq!(
        Machine::new(&[0.0, 8.0], &AVAILABLE, 4).err(),
        Some(NotPositive)
    );
    assert_eq!(
        Machine::new(&[4.0, 1e308], &AVAILABLE, 4).err(),
        Some(OutOfRange)
    );
    assert_eq!(
        Machine::new(&[4.0, 5.0], &AVAILABLE, 4).err(),
        Some(OutOfRange)
    );
    assert_eq!(
        Machine::new(&CAPACITY, &AVAILABLE, 0).err(),
        Some(OutOfRange)
    );
    assert_eq!(
        Machine::new(&CAPACITY, &AVAILABLE, 5).err(),
        Some(OutOfRange)
    );
    assert_eq!(
        Machine::new(&CAPACITY, &AVAILABLE[..7], 3).err(),
        Some(LengthMismatch)
    );
    assert_eq!(Machine::new(&CAPACITY, &[], 1).err(), Some(Empty));
    assert_eq!(
        Machine::new(&CAPACITY, &[1.0, -1.0], 1).err(),
        Some(Negative)
    );
    assert_eq!(
        Machine::new(&CAPACITY, &[1.0, f64::NAN], 1).err(),
        Some(NotFinite)
    );
    assert_eq!(
        Machine::new(&CAPACITY, &[1.0; 514], 1).err(),
        Some(CapacityFull)
    );
    assert_eq!(
        Machine::new(&[1.0; 9], &[1.0; 9], 1).err(),
        Some(CapacityFull)
    );
    assert_eq!(
        Executor::new(&[1.0, f64::INFINITY], 2).err(),
        Some(NotFinite)
    );
    assert_eq!(Executor::new(&[1.0], 0).err(), Some(Empty));
    assert_eq!(Executors::new(&[1.0], &[1, 0], 1).err(), Some(Empty));
    assert_eq!(Executors::new(&[1.0], &[2], 1).err(), Some(LengthMismatch));
    assert_eq!(Executors::new(&[-1.0], &[1], 1).err(), Some(Negative));
    let many = vec![1; 4097];
    assert_eq!(Executors::new(&[], &many, 1).err(), Some(CapacityFull));

    // Longer than the horizon, other kinds.
    let long = Executor::new(&[0.0; 10], 2).unwrap();
    assert_eq!(machine(4).score(&long, Metric::Drr), Err(OutOfRange));
    let one_kind = Executor::new(&[0.0; 2], 1).unwrap();
    assert_eq!(machine(4).fits(&one_kind), Err(LengthMismatch));

    // A heartbeat rejected for any reason leaves the series and the placements alone.
    let demands = [1.0; 12];
    let run = |steps: &[u32], placements: &mut [u32], t_run: u32| {
        let mut available = AVAILABLE;
        let pending =
            Executors::new(&demands[..steps.iter().sum::<u32>() as usize * 2], steps, 2).unwrap();
        let result = min_frag(
            &CAPACITY,
            &mut available,
            t_run,
            &pending,
            Metric::Drr,
            placements,
        );
        assert_eq!(available, AVAILABLE);
        result.err()
    };
    let mut placed = [7u32; 2];
    assert_eq!(run(&[1, 5], &mut placed, 4), Some(OutOfRange));
    assert_eq!(run(&[1, 1], &mut placed[..1], 4), Some(LengthMismatch));
    assert_eq!(run(&[1, 1], &mut placed, 9), Some(OutOfRange));
    assert_eq!(placed, [7, 7]);

    let mut remaining = [1.0, 2.0];
    assert_eq!(
        reprovision(&mut remaining, 2, &[1e308, 1.0], &[1e-10, 1.0]),
        Err(OutOfRange)
    );
    assert_eq!(
        reprovision(&mut remaining, 2, &[1.0], &[1.0]),
        Err(LengthMismatch)
    );
    assert_eq!(
        reprovision(&mut remaining, 2, &[-1.0, 1.0], &[1.0, 1.0]),
        Err(Negative)
    );
    assert_eq!(remaining, [1.0, 2.0]);

    let capacities = [4.0, 8.0];
    let machines = Machines::new(&capacities, 2, &AVAILABLE, &[4]).unwrap();
    let executor = Executor::new(&[1.0, 1.0], 2).unwrap();
    let (mut fits, mut scores) = ([false; 2], [9.0; 2]);
    let result = score_machines(&machines, &executor, Metric::Drr, &mut fits, &mut scores);
    assert_eq!(result, Err(LengthMismatch));
    assert_eq!((fits, scores), ([false; 2], [9.0; 2]));
    assert_eq!(
        Machines::new(&capacities, 2, &AVAILABLE, &[]).err(),
        Some(Empty)
    );
    assert_eq!(
        Machines::new(&capacities, 2, &AVAILABLE, &[4, 4]).err(),
        Some(LengthMismatch)
    );
    assert_eq!(
        Machines::new(&capacities, 2, &AVAILABLE, &[5]).err(),
        Some(OutOfRange)
    );
}
