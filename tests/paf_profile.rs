//! Progress curves from task durations (`paf::profile`; PAF paper, INFOCOM 2018, §II-A, §II-B,
//! §V-B): a job worked by hand, agreement bit for bit with a naive list scheduler over std's
//! `BinaryHeap` (the simulator's former code) on hundreds of random jobs, the curve's
//! properties, and every error, which leaves `out` as it was.

use fairsched::paf::curve::{self, Curve};
use fairsched::paf::profile::{curve_from_tasks, makespan};
use fairsched::Error;
use fairsched_testkit::rng::SplitMix;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The naive reference: the simulator's `alone` as it was before it called the core. Slot
/// free times (non-negative floats order like their bits), each with whether the slot is still
/// cold: at a tie the warm slot comes first.
fn naive_makespan(tasks: &[f64], warmup: f64, slots: u32) -> f64 {
    let parallel = tasks.len().min(slots as usize);
    let mut free: BinaryHeap<Reverse<(u64, bool)>> =
        std::iter::repeat_n(Reverse((0, true)), parallel).collect();
    tasks.iter().fold(0.0, |done: f64, &task| {
        let Reverse((at, cold)) = free.pop().unwrap_or(Reverse((0, true)));
        let run_time = if cold { task } else { task / warmup };
        let finish = f64::from_bits(at) + run_time;
        free.push(Reverse((finish.to_bits(), false)));
        done.max(finish)
    })
}

/// The naive curve: the simulator's `Profile::of` as it was.
fn naive_curve(tasks: &[f64], warmup: f64) -> (f64, Vec<f64>) {
    let times: Vec<f64> = (1..=tasks.len())
        .map(|x| naive_makespan(tasks, warmup, x as u32))
        .collect();
    let shortest = times.iter().copied().fold(f64::INFINITY, f64::min);
    let mut best = 0.0;
    let curve = std::iter::once(0.0)
        .chain(times.iter().map(|time| {
            best = f64::max(best, shortest / time);
            best
        }))
        .collect();
    (shortest, curve)
}

fn curve_of(tasks: &[f64], warmup: f64) -> Result<(f64, Vec<f64>), Error> {
    let mut scratch = vec![0.0; tasks.len()];
    let mut out = vec![0.0; tasks.len() + 1];
    let shortest = curve_from_tasks(tasks, warmup, &mut scratch, &mut out)?;
    Ok((shortest, out))
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

/// Four tasks of 4, 2, 6 and 2 seconds, δ = 2 (warm tasks take half):
///
/// - 1 slot: 4 cold, then 2/2, 6/2, 2/2 warm: 4 + 1 + 3 + 1 = 9.
/// - 2 slots (A, B): 4 cold on A (free at 4); 2 cold on B (no warm slot is free at 0): free
///   at 2; 6 on B, the warm slot freeing first: 2 + 3 = 5; 2 on A (4 < 5), warm: 4 + 1 = 5.
///   JCT 5.
/// - 3 slots: 4 on A, 2 on B, 6 on the cold C (B is warm but free only at 2 > 0): 6; the last
///   2 on B at 2, warm: 3. JCT 6.
/// - 4 slots: every task cold: JCT 6, the longest.
///
/// Shortest 5, on 2 slots (fewer than the 4 tasks); p = 0, 5/9, 1, then 5/6 and 5/6 kept at
/// the running maximum 1.
#[test]
fn four_tasks_by_hand() {
    let tasks = [4.0, 2.0, 6.0, 2.0];
    let mut scratch = [0.0; 4];
    for (slots, jct) in [(1, 9.0), (2, 5.0), (3, 6.0), (4, 6.0), (9, 6.0)] {
        assert_eq!(
            makespan(&tasks, 2.0, slots, &mut scratch),
            Ok(jct),
            "{slots}"
        );
    }
    let mut out = [-1.0; 5];
    assert_eq!(
        curve_from_tasks(&tasks, 2.0, &mut scratch, &mut out),
        Ok(5.0)
    );
    assert_eq!(out, [0.0, 5.0 / 9.0, 1.0, 1.0, 1.0]);
    // Without warm-up: 14 on 1 slot; 8 on 2 (A: 4 then 2, B: 2 then 6); 6 on 3 (A: 4, B: 2
    // then 2, C: 6) and on 4.
    assert_eq!(
        curve_from_tasks(&tasks, 1.0, &mut scratch, &mut out),
        Ok(6.0)
    );
    assert_eq!(out, [0.0, 6.0 / 14.0, 6.0 / 8.0, 1.0, 1.0]);
}

/// The edges: a warm slot free at 0 (its first task took no time) goes before a cold one; one
/// task; a duration of -0.0; zero durations in a makespan; a longer scratch; a huge δ.
#[test]
fn edges() {
    let mut scratch = [0.0; 3];
    let mut out = [-1.0; 4];
    // Task 0 (0 s) leaves slot A warm at 0: task 1 takes it, 6 / 3 = 2; task 2 the cold B, 3.
    assert_eq!(makespan(&[0.0, 6.0, 3.0], 3.0, 2, &mut scratch), Ok(3.0));
    assert_eq!(
        curve_from_tasks(&[0.0, 6.0, 3.0], 3.0, &mut scratch, &mut out),
        Ok(3.0)
    );
    // 1 slot: 0 + 2 + 1 = 3 as well: fastest on one slot.
    assert_eq!(out, [0.0, 1.0, 1.0, 1.0]);
    let mut two = [-1.0; 2];
    assert_eq!(
        curve_from_tasks(&[7.5], 8.0, &mut scratch, &mut two),
        Ok(7.5)
    );
    assert_eq!(two, [0.0, 1.0]);
    // -0.0 is 0: its slot is warm at 0, so 7.5 runs warm there on any number of slots.
    assert_eq!(
        curve_from_tasks(&[-0.0, 7.5], 8.0, &mut scratch, &mut out[..3]),
        Ok(0.9375)
    );
    assert_eq!(bits(&out[..3]), bits(&[0.0, 1.0, 1.0]));
    // Zero-duration tasks are fine for one makespan.
    assert_eq!(makespan(&[0.0, 0.0], 2.0, 1, &mut scratch), Ok(0.0));
    // A scratch longer than needed is fine; a huge warm-up makes warm tasks nearly free.
    let mut long = [0.0; 64];
    assert_eq!(
        curve_from_tasks(&[1.0, 1.0], 1e300, &mut long, &mut out[..3]),
        Ok(1.0)
    );
}

/// Random jobs of every shape: the curve and every makespan as the naive reference gives
/// them, bit for bit; and the curve's properties.
#[test]
fn agrees_with_the_naive_reference_bit_for_bit() {
    let mut rng = SplitMix(0x5EED_CAFE);
    let mut scratch = vec![0.0; 80];
    for case in 0..600 {
        let width = 1 + rng.below(if case % 10 == 0 { 80 } else { 24 }) as usize;
        let warmup = match rng.below(4) {
            0 => 1.0,
            1 => 1.0 + rng.below(8) as f64,
            _ => 1.0 + 7.0 * (rng.next() >> 11) as f64 / (1u64 << 53) as f64,
        };
        // Small integers (many ties between slots), Pareto-like durations, and zeros.
        let style = rng.below(3);
        let tasks: Vec<f64> = (0..width)
            .map(|_| match style {
                0 => rng.below(5) as f64,
                1 => {
                    let u = ((rng.next() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
                    14.0 / u.powf(1.0 / 1.7)
                }
                _ => {
                    if rng.below(4) == 0 {
                        0.0
                    } else {
                        (rng.below(1000) as f64) / 8.0
                    }
                }
            })
            .collect();
        for slots in [1, 2, 3, width as u32, width as u32 + 5] {
            assert_eq!(
                makespan(&tasks, warmup, slots, &mut scratch).map(f64::to_bits),
                Ok(naive_makespan(&tasks, warmup, slots).to_bits()),
                "case {case}: {tasks:?} δ {warmup} on {slots}"
            );
        }
        let (shortest, naive) = naive_curve(&tasks, warmup);
        if tasks.iter().all(|&t| t == 0.0) {
            assert_eq!(curve_of(&tasks, warmup), Err(Error::NotPositive));
            continue;
        }
        let (got_shortest, got) = curve_of(&tasks, warmup).unwrap();
        assert_eq!(got_shortest.to_bits(), shortest.to_bits(), "case {case}");
        assert_eq!(
            bits(&got),
            bits(&naive),
            "case {case}: {tasks:?} δ {warmup}"
        );

        // p(0) = 0, never decreasing, a valid curve; 1 exactly from the fewest slots giving
        // the shortest JCT on, below 1 before.
        assert_eq!(got[0].to_bits(), 0.0f64.to_bits());
        assert!(got.windows(2).all(|w| w[0] <= w[1]), "case {case}");
        assert!(Curve::new(&got).is_ok() && curve::check(&got).is_ok());
        let best = (1..=width as u32)
            .find(|&x| makespan(&tasks, warmup, x, &mut scratch) == Ok(shortest))
            .unwrap() as usize;
        assert!(got[best..].iter().all(|&p| p == 1.0), "case {case}");
        assert!(got[..best].iter().all(|&p| p < 1.0), "case {case}");
    }
}

/// Every error, in the documented order; `out` keeps what it held.
#[test]
fn errors_change_nothing() {
    let good = [4.0, 2.0, 6.0, 2.0];
    let cases: &[(&[f64], f64, usize, usize, Error)] = &[
        (&[], 2.0, 1, 4, Error::Empty),
        (&[1.0, f64::NAN], 2.0, 3, 4, Error::NotFinite),
        (&[1.0, f64::INFINITY], 2.0, 3, 4, Error::NotFinite),
        (&[1.0, -0.5], 2.0, 3, 4, Error::Negative),
        (&[f64::MAX, f64::MAX], 2.0, 3, 4, Error::OutOfRange),
        (&good, f64::NAN, 5, 4, Error::NotFinite),
        (&good, f64::INFINITY, 5, 4, Error::NotFinite),
        (&good, 0.5, 5, 4, Error::OutOfRange),
        (&good, 0.0, 5, 4, Error::OutOfRange),
        (&good, 2.0, 4, 4, Error::LengthMismatch),
        (&good, 2.0, 6, 4, Error::LengthMismatch),
        (&good, 2.0, 5, 3, Error::CapacityFull),
        (&[0.0, 0.0, 0.0], 2.0, 4, 4, Error::NotPositive),
        (&[0.0, 5e-324], 8.0, 3, 4, Error::NotPositive),
        // Checked in order: the durations before warmup and the lengths.
        (&[-1.0], f64::NAN, 9, 0, Error::Negative),
        (&good, 0.5, 9, 0, Error::OutOfRange),
        (&good, 2.0, 9, 0, Error::LengthMismatch),
    ];
    for &(tasks, warmup, out_len, scratch_len, error) in cases {
        let mut out = vec![-7.0; out_len];
        let mut scratch = vec![-7.0; scratch_len];
        assert_eq!(
            curve_from_tasks(tasks, warmup, &mut scratch, &mut out),
            Err(error),
            "{tasks:?} δ {warmup}"
        );
        assert!(out.iter().all(|&p| p == -7.0), "{tasks:?}: out written");
        assert!(
            scratch.iter().all(|&p| p == -7.0),
            "{tasks:?}: scratch written"
        );
    }
    let mut scratch = [0.0; 4];
    assert_eq!(makespan(&[], 2.0, 1, &mut scratch), Err(Error::Empty));
    assert_eq!(
        makespan(&good, 2.0, 0, &mut scratch),
        Err(Error::NotPositive)
    );
    assert_eq!(
        makespan(&good, 0.9, 1, &mut scratch),
        Err(Error::OutOfRange)
    );
    assert_eq!(
        makespan(&good, 2.0, 3, &mut scratch[..2]),
        Err(Error::CapacityFull)
    );
    // min(tasks, slots) suffices.
    assert_eq!(makespan(&good, 2.0, 2, &mut scratch[..2]), Ok(5.0));
    assert_eq!(makespan(&good, 2.0, 100, &mut scratch), Ok(6.0));
}
