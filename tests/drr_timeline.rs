//! A machine's timeline (Liu, Xu: *Elasecutor: Elastic Executor Scheduling in Data Analytics
//! Systems*, IEEE/ACM Transactions on Networking, 2021; §III-B's `AR(j)` and `t_run`, §III-C's
//! reprovisioning): a hand-built sequence worked out exactly, the heartbeat's copies and
//! capacity, bad input that changes nothing, and random sequences of every event against the
//! naive timeline of the test kit, which recomputes `AR` from the running executors from
//! scratch: the same outcomes and the same `AR`, bit for bit, after every event. (Fig. 6 on a
//! timeline is in tests/drr_paper.rs, beside its reconstruction.)

use fairsched::drr::timeline::{self, ExecutorRow, Stats, HEAPS};
use fairsched::drr::{Executor, Executors, Metric, Placed, Timeline};
use fairsched::Error;
use fairsched_testkit::drr_naive;
use fairsched_testkit::memory::Memory;
use fairsched_testkit::rng::SplitMix;

type Storage = Memory<ExecutorRow, HEAPS>;

/// Heap storage for `capacity` executors over `horizon` steps of `kinds` kinds.
fn memory(capacity: usize, horizon: usize, kinds: usize) -> Storage {
    Storage::with_amounts(capacity, timeline::amounts(capacity, horizon, kinds))
}

fn executor(demand: &[f64], kinds: usize) -> Executor<'_> {
    Executor::new(demand, kinds).unwrap()
}

/// The state a failed call must leave as it was (with `AR`, bit for bit).
fn state<S: fairsched::table::Storage<ExecutorRow, HEAPS>>(t: &Timeline<S>) -> (Stats, Vec<u64>) {
    let bits = t.available().iter().map(|a| a.to_bits()).collect();
    (t.stats(), bits)
}

#[test]
fn hand_built_sequence() {
    // CPU 4, memory 8; four steps.
    let mut m = memory(4, 4, 2);
    let mut t = Timeline::with_storage(m.storage_with_amounts(), &[4.0, 8.0], 4).unwrap();
    assert_eq!(t.available(), [4.0, 8.0].repeat(4));
    assert_eq!((t.t_run(), t.now(), t.running(), t.next_id()), (4, 0, 0, 1));
    // Executor 1: all the CPU and half the memory for two steps.
    assert_eq!(t.place(&executor(&[4.0, 4.0, 4.0, 4.0], 2)), Ok(1));
    // Executor 2 needs a CPU at step 0: none left.
    let two = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0];
    assert_eq!(t.place(&executor(&two, 2)), Err(Error::DoesNotFit));
    // One step on: executor 1 has one step left.
    assert_eq!(t.advance(1), Ok(0));
    assert_eq!(t.available(), [0.0, 4.0, 4.0, 8.0, 4.0, 8.0, 4.0, 8.0]);
    assert_eq!(t.t_run(), 1);
    t.release(1).unwrap();
    assert_eq!(t.available(), [4.0, 8.0].repeat(4));
    assert_eq!(t.place(&executor(&two, 2)), Ok(2));
    assert_eq!(t.available(), [3.0, 8.0].repeat(4));
    assert_eq!(t.t_run(), 4);
    // The CPU it used in the probe was twice the prediction: its remaining series doubles.
    t.advance(1).unwrap();
    t.reprovision(2, &[2.0, 0.0], &[1.0, 0.0]).unwrap();
    assert_eq!(t.available(), [2.0, 8.0, 2.0, 8.0, 2.0, 8.0, 4.0, 8.0]);
    // Five times would need 5 CPUs of 4: refused, nothing changed.
    let before = state(&t);
    assert_eq!(
        t.reprovision(2, &[5.0, 0.0], &[1.0, 0.0]),
        Err(Error::DoesNotFit)
    );
    assert_eq!(state(&t), before);
    // Its series ends at step 5 (placed at 1, four steps): advancing there lets it go.
    assert_eq!(t.advance(3), Ok(1));
    assert_eq!((t.now(), t.running(), t.t_run()), (5, 0, 4));
    assert_eq!(t.available(), [4.0, 8.0].repeat(4));
    assert_eq!(t.release(2), Err(Error::UnknownId));
    assert_eq!(t.next_id(), 3);
}

#[test]
fn release_recomputes_exactly_where_adding_back_would_not() {
    // 0.1 + 0.2 is not 0.3 in floating point: AR must not keep a residue of the released one.
    let mut m = memory(4, 1, 1);
    let mut t = Timeline::with_storage(m.storage_with_amounts(), &[1.0], 1).unwrap();
    t.place(&executor(&[0.1], 1)).unwrap();
    t.place(&executor(&[0.2], 1)).unwrap();
    assert_eq!(t.available(), [1.0 - 0.1 - 0.2]);
    t.release(1).unwrap();
    assert_eq!(t.available(), [1.0 - 0.2]);
    assert_ne!(1.0 - 0.1 - 0.2 + 0.1, 1.0 - 0.2, "the add-back this avoids");
}

#[test]
fn heartbeat_places_copies_and_stops_at_the_capacity() {
    // One kind of capacity 10, three steps; an application of 4 executors of 2 a step for two
    // steps, and one executor of 3 a step for three.
    let mut m = memory(3, 3, 1);
    let mut t = Timeline::with_storage(m.storage_with_amounts(), &[10.0], 3).unwrap();
    let demands = [2.0, 2.0, 3.0, 3.0, 3.0];
    let pending = Executors::new(&demands, &[2, 3], 1).unwrap();
    let mut placements = [u32::MAX; 8];
    let placed = t
        .heartbeat(&pending, &[4, 1], Metric::Drr, &mut placements)
        .unwrap();
    // Round 1: the application's executor leaves (8+8)/20 = 4/5, the other (7+7+7)/30 = 7/10:
    // executor 1 first (t_run = 3). Then t_run = 3 and the application's copies leave
    // (5+5)/20 = 1/2, then (3+3)/20: two more copies, and the capacity of 3 is reached.
    assert_eq!(
        placed,
        Placed {
            placed: 3,
            first_id: 1,
            t_run: 2,
            drr: 3.0 / 10.0,
        }
    );
    assert_eq!(&placements[..3], &[1, 0, 0]);
    assert_eq!(t.available(), [3.0, 3.0, 7.0]);
    assert_eq!(t.running(), 3);
    assert_eq!(
        t.heartbeat(&pending, &[4, 1], Metric::Drr, &mut placements)
            .unwrap()
            .placed,
        0
    );
}

#[test]
fn heartbeat_stops_when_the_placements_are_full() {
    let mut m = memory(8, 2, 1);
    let mut t = Timeline::with_storage(m.storage_with_amounts(), &[8.0], 2).unwrap();
    let pending = Executors::new(&[1.0], &[1], 1).unwrap();
    let mut placements = [u32::MAX; 2];
    let placed = t
        .heartbeat(&pending, &[5], Metric::Trc, &mut placements)
        .unwrap();
    assert_eq!((placed.placed, placed.first_id), (2, 1));
    assert_eq!(placements, [0, 0]);
    assert_eq!(t.available(), [6.0, 8.0]);
}

#[test]
fn inline_storage_holds_a_timeline() {
    const AMOUNTS: usize = timeline::amounts(2, 4, 2);
    let mut t = Timeline::<timeline::Inline<2, AMOUNTS>>::new(&[4.0, 8.0], 4).unwrap();
    assert_eq!(t.place(&executor(&[1.0, 1.0], 2)), Ok(1));
    assert_eq!(t.place(&executor(&[1.0, 1.0], 2)), Ok(2));
    assert_eq!(t.place(&executor(&[1.0, 1.0], 2)), Err(Error::CapacityFull));
    assert_eq!(t.capacity(), 2);
}

#[test]
fn bad_configuration_is_refused() {
    let build = |capacity: usize, amounts: usize, machine: &[f64], horizon: u32| {
        let mut m = Storage::with_amounts(capacity, amounts);
        Timeline::with_storage(m.storage_with_amounts(), machine, horizon).err()
    };
    let enough = timeline::amounts(2, 4, 2);
    assert_eq!(build(0, enough, &[4.0, 8.0], 4), Some(Error::NotPositive));
    assert_eq!(build(2, enough, &[0.0, 8.0], 4), Some(Error::NotPositive));
    assert_eq!(
        build(2, enough, &[f64::NAN, 8.0], 4),
        Some(Error::NotFinite)
    );
    assert_eq!(build(2, enough, &[4.0, 1e308], 4), Some(Error::OutOfRange));
    assert_eq!(build(2, enough, &[], 4), Some(Error::Empty));
    assert_eq!(build(2, enough, &[1.0; 9], 4), Some(Error::CapacityFull));
    assert_eq!(build(2, enough, &[4.0, 8.0], 0), Some(Error::Empty));
    assert_eq!(
        build(2, enough, &[4.0, 8.0], 257),
        Some(Error::CapacityFull)
    );
    assert_eq!(
        build(2, enough - 1, &[4.0, 8.0], 4),
        Some(Error::LengthMismatch)
    );
    assert_eq!(build(2, enough, &[4.0, 8.0], 4), None);
    assert_eq!(timeline::checked_amounts(2, 2, 4), Ok(enough));
    assert_eq!(timeline::checked_amounts(2, 0, 4), Err(Error::Empty));
    assert_eq!(
        timeline::checked_amounts(2, 2, 257),
        Err(Error::CapacityFull)
    );
}

#[test]
fn bad_calls_change_nothing() {
    let mut m = memory(2, 3, 2);
    let mut t = Timeline::with_storage(m.storage_with_amounts(), &[4.0, 8.0], 3).unwrap();
    t.place(&executor(&[1.0, 2.0, 1.0, 2.0], 2)).unwrap();
    t.advance(1).unwrap();
    let before = state(&t);
    let pending = Executors::new(&[1.0, 1.0], &[1], 2).unwrap();
    let long = [1.0; 8];
    let mut placements = [7u32; 2];
    let failures = [
        t.place(&executor(&long, 2)).err(),
        t.place(&executor(&[1.0], 1)).err(),
        t.place(&executor(&[5.0, 1.0], 2)).err(),
        t.release(9).err(),
        t.reprovision(9, &[1.0, 1.0], &[1.0, 1.0]).err(),
        t.reprovision(1, &[1.0], &[1.0, 1.0]).err(),
        t.reprovision(1, &[f64::NAN, 1.0], &[1.0, 1.0]).err(),
        t.reprovision(1, &[1.0, 1.0], &[-1.0, 1.0]).err(),
        t.reprovision(1, &[1e308, 1.0], &[1e-308, 1.0]).err(),
        t.heartbeat(&pending, &[1, 1], Metric::Drr, &mut placements)
            .err(),
        t.heartbeat(
            &Executors::new(&long, &[4], 2).unwrap(),
            &[1],
            Metric::Drr,
            &mut placements,
        )
        .err(),
        t.heartbeat(
            &Executors::new(&[1.0], &[1], 1).unwrap(),
            &[1],
            Metric::Drr,
            &mut placements,
        )
        .err(),
        t.advance(u64::MAX).err(),
    ];
    use Error::*;
    assert_eq!(
        failures,
        [
            Some(OutOfRange),
            Some(LengthMismatch),
            Some(DoesNotFit),
            Some(UnknownId),
            Some(UnknownId),
            Some(LengthMismatch),
            Some(NotFinite),
            Some(Negative),
            Some(OutOfRange),
            Some(LengthMismatch),
            Some(OutOfRange),
            Some(LengthMismatch),
            Some(OutOfRange),
        ]
    );
    assert_eq!(state(&t), before);
    assert_eq!(placements, [7, 7]);
    // The clock stops short of 2^64 - 256.
    assert_eq!(t.advance(timeline::MAX_NOW - 1), Ok(1));
    assert_eq!(t.advance(1), Err(OutOfRange));
    assert_eq!(t.now(), timeline::MAX_NOW);
}

/// A random amount: a fraction with a small denominator, so that sums round and ties happen.
fn amount(rng: &mut SplitMix, top: f64) -> f64 {
    let denominator = [1.0, 3.0, 7.0, 10.0][rng.below(4) as usize];
    (rng.below((top * denominator) as u64 + 1) as f64) / denominator
}

/// A random series of `steps` steps over `capacity`'s kinds, each amount up to `share` of the
/// capacity of its kind; with `spoil`, once in a while a negative or infinite one.
fn series(rng: &mut SplitMix, capacity: &[f64], steps: usize, share: f64, spoil: bool) -> Vec<f64> {
    let mut out: Vec<f64> = (0..steps * capacity.len())
        .map(|i| amount(rng, capacity[i % capacity.len()] * share))
        .collect();
    if spoil && rng.below(40) == 0 {
        let at = rng.below(out.len() as u64) as usize;
        out[at] = [-1.0, f64::INFINITY][rng.below(2) as usize];
    }
    out
}

/// One random event on both timelines; panics on the first difference.
fn event<S: fairsched::table::Storage<ExecutorRow, HEAPS>>(
    rng: &mut SplitMix,
    t: &mut Timeline<S>,
    naive: &mut drr_naive::Timeline,
    context: &str,
) {
    let capacity = naive.capacity.clone();
    let kinds = capacity.len();
    let horizon = naive.horizon;
    let some_id = |rng: &mut SplitMix| {
        let ids: Vec<u64> = naive.running.iter().map(|e| e.id).collect();
        if ids.is_empty() || rng.below(8) == 0 {
            naive.next_id.saturating_sub(rng.below(4)) + rng.below(2)
        } else {
            ids[rng.below(ids.len() as u64) as usize]
        }
    };
    let before = state(t);
    let (ok, what) = match rng.below(10) {
        0 | 1 => {
            let steps = [0, 1, 1, 2, 3, horizon as u64][rng.below(6) as usize];
            let got = t.advance(steps);
            assert_eq!(got, naive.advance(steps), "{context}: advance {steps}");
            (got.is_ok(), "advance")
        }
        2 | 3 => {
            let steps = 1 + rng.below(horizon as u64 + 1) as usize;
            let demand = series(rng, &capacity, steps, 0.6, true);
            let got = Executor::new(&demand, kinds).and_then(|e| t.place(&e));
            assert_eq!(got, naive.place(&demand), "{context}: place {demand:?}");
            (got.is_ok(), "place")
        }
        4 => {
            let id = some_id(rng);
            let got = t.release(id);
            assert_eq!(got, naive.release(id), "{context}: release {id}");
            (got.is_ok(), "release")
        }
        5 | 6 => {
            let id = some_id(rng);
            let observed: Vec<f64> = (0..kinds).map(|_| amount(rng, 3.0)).collect();
            let predicted: Vec<f64> = (0..kinds).map(|_| amount(rng, 2.0)).collect();
            let got = t.reprovision(id, &observed, &predicted);
            let want = naive.reprovision(id, &observed, &predicted);
            assert_eq!(
                got, want,
                "{context}: reprovision {id} by {observed:?}/{predicted:?}"
            );
            (got.is_ok(), "reprovision")
        }
        _ => {
            let n = rng.below(5) as usize;
            let steps: Vec<u32> = (0..n)
                .map(|_| {
                    // Once in a while one step past the horizon.
                    let past = u64::from(rng.below(6) == 0);
                    1 + rng.below(horizon as u64 + past) as u32
                })
                .collect();
            let demands: Vec<f64> = steps
                .iter()
                .flat_map(|&s| series(rng, &capacity, s as usize, 0.5, false))
                .collect();
            let counts: Vec<u32> = (0..n).map(|_| rng.below(4) as u32).collect();
            let metric = [Metric::Drr, Metric::Trc, Metric::Tetris][rng.below(3) as usize];
            let room = rng.below(6) as usize;
            let pending = Executors::new(&demands, &steps, kinds).unwrap();
            let mut placements = vec![u32::MAX; room];
            let got = t.heartbeat(&pending, &counts, metric, &mut placements);
            let series: Vec<&[f64]> = pending.iter().map(|e| e.demand()).collect();
            let want = naive.heartbeat(&series, &counts, metric, room);
            match (&got, want) {
                (Ok(placed), Ok((indices, first))) => {
                    assert_eq!(&placements[..placed.placed], &indices[..], "{context}");
                    assert_eq!(placed.first_id, first, "{context}");
                    assert_eq!(placed.t_run as usize, naive.t_run(), "{context}");
                }
                (Err(e), Err(w)) => {
                    assert_eq!(*e, w, "{context}");
                    assert!(placements.iter().all(|&p| p == u32::MAX), "{context}");
                }
                (got, want) => panic!("{context}: heartbeat {got:?}, naive {want:?}"),
            }
            (got.is_ok(), "heartbeat")
        }
    };
    if !ok {
        assert_eq!(
            state(t),
            before,
            "{context}: a failed {what} changed the timeline"
        );
    }
    let bits = |series: &[f64]| series.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(t.available()),
        bits(&naive.available()),
        "{context}: AR after {what}\n{:?}\n{:?}",
        t.available(),
        naive.available()
    );
    assert!(t.available().iter().all(|&a| a >= 0.0), "{context}");
    assert_eq!(
        (t.t_run(), t.running(), t.now(), t.next_id()),
        (naive.t_run(), naive.running.len(), naive.now, naive.next_id),
        "{context}: after {what}"
    );
}

#[test]
fn random_events_agree_with_recomputing_from_scratch() {
    for seed in 0..400u64 {
        let mut rng = SplitMix(seed);
        let kinds = 1 + rng.below(3) as usize;
        let horizon = 1 + rng.below(8) as usize;
        let slots = 1 + rng.below(6) as usize;
        let capacity: Vec<f64> = (0..kinds).map(|_| 1.0 + amount(&mut rng, 9.0)).collect();
        let mut m = memory(slots, horizon, kinds);
        let mut t =
            Timeline::with_storage(m.storage_with_amounts(), &capacity, horizon as u32).unwrap();
        let mut naive = drr_naive::Timeline::new(&capacity, horizon, slots);
        for step in 0..80 {
            let context = format!("seed {seed}, event {step}");
            event(&mut rng, &mut t, &mut naive, &context);
        }
    }
}

#[test]
fn advancing_in_one_step_or_many_is_the_same() {
    for seed in 0..50u64 {
        let mut rng = SplitMix(seed);
        let capacity = [5.0, 7.0];
        let (mut one, mut many) = (memory(4, 6, 2), memory(4, 6, 2));
        let mut a = Timeline::with_storage(one.storage_with_amounts(), &capacity, 6).unwrap();
        let mut b = Timeline::with_storage(many.storage_with_amounts(), &capacity, 6).unwrap();
        for _ in 0..4 {
            let steps = 1 + rng.below(6) as usize;
            let demand = series(&mut rng, &capacity, steps, 0.3, false);
            if let Ok(e) = Executor::new(&demand, 2) {
                assert_eq!(a.place(&e), b.place(&e));
            }
        }
        let steps = rng.below(9);
        a.advance(steps).unwrap();
        for _ in 0..steps {
            b.advance(1).unwrap();
        }
        assert_eq!(state(&a), state(&b), "seed {seed}");
    }
}
