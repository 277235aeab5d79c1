//! Demand series predicted from past runs (Liu, Xu: *Elasecutor: Elastic Executor Scheduling in
//! Data Analytics Systems*, IEEE/ACM Transactions on Networking, 2021; §IV-C): the mean of an
//! application's last runs worked out by hand (runs of different lengths, the oldest replaced),
//! the peak before there are enough runs, the capacity, bad input that changes nothing, and
//! random sequences against the naive predictor of the test kit, bit for bit.

use fairsched::drr::predictor::{self, ApplicationRow, HEAPS};
use fairsched::drr::{Prediction, Predictor};
use fairsched::table::Storage;
use fairsched::Error;
use fairsched_testkit::drr_naive;
use fairsched_testkit::memory::Memory;
use fairsched_testkit::rng::SplitMix;

type Heap = Memory<ApplicationRow, HEAPS>;

/// Heap storage for `capacity` applications of `window` runs of `steps` steps over `kinds`.
fn memory(capacity: usize, kinds: usize, window: usize, steps: usize) -> Heap {
    Heap::with_amounts(capacity, predictor::amounts(capacity, window, steps, kinds))
}

/// The prediction for `id` with `peak` for `steps` steps: the series and what was written.
fn predict<S: Storage<ApplicationRow, HEAPS>>(
    p: &Predictor<S>,
    id: u64,
    peak: &[f64],
    steps: u32,
) -> (Vec<f64>, Prediction) {
    let mut out = vec![f64::NAN; p.steps() * p.kinds()];
    let prediction = p.predict(id, peak, steps, &mut out).unwrap();
    out.truncate(prediction.steps * p.kinds());
    (out, prediction)
}

#[test]
fn the_mean_of_the_last_runs_step_by_step() {
    // Two kinds, the last 3 runs, up to 4 steps.
    let mut m = memory(4, 2, 3, 4);
    let mut p = Predictor::with_storage(m.storage_with_amounts(), 2, 3, 4).unwrap();
    let peak = [2.0, 5.0];
    // Never seen: the peak, for the steps asked.
    let never = Prediction { steps: 3, runs: 0 };
    assert_eq!(predict(&p, 7, &peak, 3), (peak.repeat(3), never));
    p.record(7, &[1.0, 2.0, 3.0, 4.0]).unwrap();
    p.record(7, &[2.0, 2.0, 2.0, 2.0, 2.0, 2.0]).unwrap();
    // Two runs are not enough: still the peak.
    assert_eq!(p.runs(7), 2);
    assert_eq!(predict(&p, 7, &peak, 3).1, never);
    p.record(7, &[3.0, 5.0]).unwrap();
    // Step 0 over the three runs, step 1 over the two that lasted, step 2 over the longest.
    let (series, prediction) = predict(&p, 7, &peak, 1);
    assert_eq!(prediction, Prediction { steps: 3, runs: 3 });
    assert_eq!(series, [2.0, 3.0, 2.5, 3.0, 2.0, 2.0]);
    // A fourth run replaces the oldest (the first).
    p.record(7, &[6.0, 6.0, 6.0, 6.0]).unwrap();
    assert_eq!(p.runs(7), 3);
    let (series, _) = predict(&p, 7, &peak, 1);
    assert_eq!(series, [11.0 / 3.0, 13.0 / 3.0, 4.0, 4.0, 2.0, 2.0]);
    // Forgotten: the peak again, and the next run is a first one.
    p.forget(7).unwrap();
    assert_eq!((p.runs(7), p.applications()), (0, 0));
    assert_eq!(predict(&p, 7, &peak, 2).1, Prediction { steps: 2, runs: 0 });
    assert_eq!(p.forget(7), Err(Error::UnknownId));
}

#[test]
fn a_window_of_one_is_the_last_run() {
    let mut p = Predictor::<predictor::Inline<2, { predictor::amounts(2, 1, 3, 1) }>>::new(1, 1, 3)
        .unwrap();
    p.record(1, &[1.0, 2.0, 3.0]).unwrap();
    p.record(1, &[0.5]).unwrap();
    assert_eq!(
        predict(&p, 1, &[9.0], 3),
        (vec![0.5], Prediction { steps: 1, runs: 1 })
    );
}

#[test]
fn capacity_holds_that_many_applications() {
    let mut m = memory(2, 1, 2, 2);
    let mut p = Predictor::with_storage(m.storage_with_amounts(), 1, 2, 2).unwrap();
    p.record(1, &[1.0]).unwrap();
    p.record(u64::MAX, &[1.0]).unwrap();
    assert_eq!(p.record(3, &[1.0]), Err(Error::CapacityFull));
    // More runs of an application held is no new application.
    p.record(1, &[2.0]).unwrap();
    p.record(1, &[3.0]).unwrap();
    p.forget(1).unwrap();
    p.record(3, &[1.0]).unwrap();
    assert_eq!(
        (p.applications(), p.capacity(), p.runs(3), p.runs(1)),
        (2, 2, 1, 0)
    );
}

#[test]
fn bad_configuration_is_refused() {
    let build = |capacity: usize, kinds: usize, window: u32, steps: u32, short: usize| {
        let need = predictor::amounts(capacity, window as usize, steps as usize, kinds);
        let mut m = Heap::with_amounts(capacity, need.saturating_sub(short).min(1 << 20));
        Predictor::with_storage(m.storage_with_amounts(), kinds, window, steps).err()
    };
    use Error::*;
    assert_eq!(build(0, 2, 3, 4, 0), Some(NotPositive));
    assert_eq!(build(2, 0, 3, 4, 0), Some(Empty));
    assert_eq!(build(2, 9, 3, 4, 0), Some(CapacityFull));
    assert_eq!(build(2, 2, 0, 4, 0), Some(NotPositive));
    assert_eq!(build(2, 2, 17, 4, 0), Some(OutOfRange));
    assert_eq!(build(2, 2, 3, 0, 0), Some(Empty));
    assert_eq!(build(2, 2, 3, 257, 0), Some(CapacityFull));
    assert_eq!(build(2, 2, 3, 4, 1), Some(LengthMismatch));
    assert_eq!(build(2, 2, 16, 256, 0), None);
}

/// What a failed call must leave as it was: the applications, and each id's runs and
/// prediction, bit for bit.
fn snapshot<S: Storage<ApplicationRow, HEAPS>>(p: &Predictor<S>, ids: &[u64]) -> Vec<u64> {
    let mut out = vec![p.applications() as u64];
    for &id in ids {
        let (series, prediction) = predict(p, id, &vec![1.0; p.kinds()], 1);
        out.extend([
            p.runs(id) as u64,
            prediction.steps as u64,
            prediction.runs as u64,
        ]);
        out.extend(series.iter().map(|a| a.to_bits()));
    }
    out
}

#[test]
fn bad_calls_change_nothing() {
    let mut m = memory(1, 2, 2, 3);
    let mut p = Predictor::with_storage(m.storage_with_amounts(), 2, 2, 3).unwrap();
    p.record(5, &[1.0, 2.0]).unwrap();
    p.record(5, &[3.0, 4.0, 5.0, 6.0]).unwrap();
    let ids = [5, 6];
    let before = snapshot(&p, &ids);
    use Error::*;
    let records = [
        (vec![1.0], LengthMismatch),
        (vec![], Empty),
        (vec![1.0; 8], CapacityFull),
        (vec![1.0; 514], CapacityFull),
        (vec![1.0, f64::NAN], NotFinite),
        (vec![1.0, -1.0], Negative),
    ];
    for (run, error) in records {
        assert_eq!(p.record(5, &run), Err(error), "{run:?}");
    }
    // A new application when the one place is taken.
    assert_eq!(p.record(6, &[1.0, 1.0]), Err(CapacityFull));
    assert_eq!(p.forget(6), Err(UnknownId));
    let mut out = [7.0; 6];
    let predictions = [
        (vec![1.0], 1, LengthMismatch),
        (vec![1.0, f64::INFINITY], 1, NotFinite),
        (vec![1.0, -2.0], 1, Negative),
        (vec![1.0, 1.0], 0, Empty),
        (vec![1.0, 1.0], 4, CapacityFull),
    ];
    for (peak, steps, error) in predictions {
        assert_eq!(p.predict(6, &peak, steps, &mut out), Err(error), "{peak:?}");
    }
    // Too little room: for the mean of 5 (two steps) and for a peak of three steps.
    assert_eq!(
        p.predict(5, &[1.0, 1.0], 1, &mut out[..3]),
        Err(LengthMismatch)
    );
    assert_eq!(
        p.predict(6, &[1.0, 1.0], 3, &mut out[..5]),
        Err(LengthMismatch)
    );
    assert_eq!(out, [7.0; 6]);
    assert_eq!(snapshot(&p, &ids), before);
}

#[test]
fn random_sequences_agree_with_the_naive_predictor() {
    for seed in 0..300u64 {
        let mut rng = SplitMix(seed);
        let kinds = 1 + rng.below(3) as usize;
        let window = 1 + rng.below(4) as usize;
        let steps = 1 + rng.below(6) as usize;
        let capacity = 1 + rng.below(4) as usize;
        let mut m = memory(capacity, kinds, window, steps);
        let mut p =
            Predictor::with_storage(m.storage_with_amounts(), kinds, window as u32, steps as u32)
                .unwrap();
        let mut naive = drr_naive::Predictor::new(capacity, kinds, window, steps);
        for event in 0..60 {
            let context = format!("seed {seed}, event {event}");
            let id = rng.below(6);
            match rng.below(6) {
                0..=2 => {
                    let length = rng.below(steps as u64 + 2) as usize * kinds
                        + usize::from(rng.below(30) == 0);
                    let run: Vec<f64> = (0..length)
                        .map(|_| rng.below(50) as f64 / [1.0, 3.0, 7.0][rng.below(3) as usize])
                        .collect();
                    assert_eq!(p.record(id, &run), naive.record(id, &run), "{context}");
                }
                3 => assert_eq!(p.forget(id), naive.forget(id), "{context}"),
                _ => {
                    let peak: Vec<f64> = (0..kinds).map(|_| rng.below(9) as f64 / 2.0).collect();
                    let asked = rng.below(steps as u64 + 2) as u32;
                    let mut out = vec![f64::NAN; steps * kinds];
                    let got = p.predict(id, &peak, asked, &mut out);
                    let want = naive.predict(id, &peak, asked);
                    match (got, want) {
                        (Ok(prediction), Ok((series, runs))) => {
                            assert_eq!(prediction.runs, runs, "{context}");
                            let bits =
                                |s: &[f64]| s.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
                            let written = &out[..prediction.steps * kinds];
                            assert_eq!(bits(written), bits(&series), "{context}");
                            assert!(out[written.len()..].iter().all(|a| a.is_nan()), "{context}");
                        }
                        (got, want) => assert_eq!(got.err(), want.err(), "{context}"),
                    }
                }
            }
            assert_eq!(p.runs(id), naive.runs(id), "{context}");
            assert_eq!(p.applications(), naive.applications.len(), "{context}");
        }
    }
}
