//! Properties of CFQ the paper proves or the design promises, on random inputs. Theorem 1's
//! delay bound is tested through the simulator's cluster model (`sim/tests/theorem_1.rs`).

use fairsched::cfq::{Cfq, Inline};
use fairsched_testkit::memory::CfqMemory;
use quickcheck::{quickcheck, QuickCheck};

/// A year of hourly batches on 10,000 slots: virtual time reaches ~10^11, yet every GPS
/// completion agrees with its closed form to a microsecond, and tiny jobs still order right.
#[test]
fn precision_over_a_year_on_10k_slots() {
    const SLOTS: f64 = 10_000.0;
    const HOURS: u64 = 24 * 365;
    let mut memory = CfqMemory::new(4);
    let mut cfq = memory.cfq(SLOTS as u32, 0.0).unwrap();
    let mut worst: f64 = 0.0;
    for hour in 0..HOURS {
        // Two jobs share the cluster in GPS until the smaller finishes, then the other has it
        // alone: f̄_small = a + 2 L_small / M and f̄_large = f̄_small + (L_large - L_small) / M.
        let h = hour as f64;
        let arrival = h * 3600.0 + (h * 0.618_033_988_7).fract() * 100.0;
        let small = SLOTS * (300.0 + (h * 0.414_213_562_3).fract() * 600.0);
        let large = small + SLOTS * (1.0 + (h * 0.732_050_807_5).fract() * 900.0);
        let (a, b) = (2 * hour, 2 * hour + 1);
        cfq.arrive(arrival, b, large, 1).unwrap();
        cfq.arrive(arrival, a, small, 1).unwrap();
        cfq.set_pending_batch(&[a, b], &[1, 1]).unwrap();
        let mut order = [0; 2];
        assert_eq!(cfq.offer(&mut order), 2);
        assert_eq!(order, [a, b], "hour {hour}");
        cfq.advance(arrival + 3000.0).unwrap();
        let small_done = arrival + 2.0 * small / SLOTS;
        let large_done = small_done + (large - small) / SLOTS;
        for (id, expected) in [(a, small_done), (b, large_done)] {
            let got = cfq.job(id).unwrap().gps_completion.unwrap();
            worst = worst.max((got - expected).abs());
            cfq.remove(arrival + 3000.0, id).unwrap();
        }
    }
    assert!(worst < 1e-6, "GPS completion drifted by {worst} s");
    let end = HOURS as f64 * 3600.0;
    assert!(cfq.stats().virtual_time > 5e10);
    // One millisecond of slot-time still separates two jobs at V ~ 10^11.
    cfq.arrive(end, 1_000_001, 2e-3, 1).unwrap();
    cfq.arrive(end, 1_000_000, 1e-3, 1).unwrap();
    let (f_small, f_large) = (
        cfq.job(1_000_000).unwrap().virtual_finish,
        cfq.job(1_000_001).unwrap().virtual_finish,
    );
    assert!(f_small < f_large, "{f_small} vs {f_large}");
}

quickcheck! {
    /// Advancing in many steps gives bit-identical results to one step (V is only re-anchored
    /// at departures, arrivals and slot changes).
    fn advancing_in_steps_is_bit_identical(slot_times: Vec<u16>, steps: Vec<u8>) -> bool {
        let jobs = slot_times.len().min(16);
        let build = || {
            let mut cfq = Cfq::<Inline<16>>::new(3, 0.0).unwrap();
            for (i, &l) in slot_times.iter().take(jobs).enumerate() {
                cfq.arrive(0.0, i as u64, f64::from(l) + 0.5, (i % 3 + 1) as u32).unwrap();
            }
            cfq
        };
        let (mut stepped, mut direct) = (build(), build());
        let mut t = 0.0;
        for &s in &steps {
            t += f64::from(s) / 7.0;
            stepped.advance(t).unwrap();
        }
        direct.advance(t).unwrap();
        (0..jobs as u64).all(|id| stepped.job(id).unwrap() == direct.job(id).unwrap())
            && stepped.stats().virtual_time.to_bits() == direct.stats().virtual_time.to_bits()
    }
}

const JOBS: usize = 32;
type Scheduler = Cfq<Inline<JOBS>>;

/// Every job of `a` and `b` (ids below `jobs`) and their stats, bit for bit. GPS completion
/// estimates are left out: they sum over the GPS heap in storage order, which may differ.
fn same_state(a: &Scheduler, b: &Scheduler, jobs: u64) -> bool {
    let bits = |x: f64| x.to_bits();
    let stats = |c: &Scheduler| {
        let s = c.stats();
        (
            bits(s.now),
            bits(s.virtual_time),
            s.slots,
            s.jobs,
            s.backlogged,
            s.gps_active,
        )
    };
    stats(a) == stats(b)
        && (0..jobs).all(|id| {
            let key = |c: &Scheduler| {
                c.job(id).map(|j| {
                    let done = (j.gps_completion.map(bits), j.completion.map(bits));
                    (
                        bits(j.slot_time),
                        bits(j.virtual_finish),
                        j.pending_tasks,
                        j.backlogged,
                        done,
                    )
                })
            };
            key(a) == key(b)
        })
}

/// Re-profiling a job to its true slot-time right after it arrives (at its arrival time,
/// before or after its tasks are set pending) gives exactly the schedule of arriving with
/// it: the same offers and, after every accepted advance or completion, the same jobs and
/// stats, bit for bit. (Not after an arrival: a GPS departure due exactly at the arrival's
/// time, which only the re-anchoring at that time reveals, is processed by the re-profile's
/// advance at once and by the next timed call otherwise, at the same time either way.)
fn reprofiled_at_arrival(events: Vec<(u8, u8, u8, u8)>) -> bool {
    let mut exact = Cfq::<Inline<JOBS>>::new(3, 0.0).unwrap();
    let mut corrected = Cfq::<Inline<JOBS>>::new(3, 0.0).unwrap();
    let (mut t, mut arrived) = (0.0, 0u64);
    for &(kind, a, b, c) in &events {
        match kind % 6 {
            0 | 1 if arrived < JOBS as u64 => {
                t += f64::from(a % 4) * 0.5;
                let (id, weight, tasks) = (arrived, u32::from(a % 3 + 1), u32::from(c % 4 + 1));
                let truth = f64::from(b % 16 + 1) * 0.75;
                let guess = f64::from(c % 16 + 1) * 1.25;
                exact.arrive(t, id, truth, weight).unwrap();
                exact.set_pending(id, tasks).unwrap();
                corrected.arrive(t, id, guess, weight).unwrap();
                if kind % 2 == 0 {
                    corrected.reprofile(t, id, truth).unwrap();
                    corrected.set_pending(id, tasks).unwrap();
                } else {
                    // Backlogged first: the backlog is re-keyed too.
                    corrected.set_pending(id, tasks).unwrap();
                    corrected.reprofile(t, id, truth).unwrap();
                }
                arrived += 1;
                if exact.peek() != corrected.peek() {
                    return false;
                }
            }
            2 | 3 => {
                let (mut x, mut y) = ([0; 4], [0; 4]);
                let k = usize::from(a % 5);
                let n = exact.offer(&mut x[..k]);
                if corrected.offer(&mut y[..k]) != n || x[..n] != y[..n] {
                    return false;
                }
            }
            4 => {
                t += f64::from(a % 8) * 0.5;
                exact.advance(t).unwrap();
                corrected.advance(t).unwrap();
                if !same_state(&exact, &corrected, arrived) {
                    return false;
                }
            }
            _ => {
                t += f64::from(a % 8) * 0.25;
                let id = u64::from(b) % arrived.max(1);
                let done = exact.complete(t, id);
                if corrected.complete(t, id) != done
                    || done.is_ok() && !same_state(&exact, &corrected, arrived)
                {
                    return false;
                }
            }
        }
    }
    exact.advance(t + 1e6).unwrap();
    corrected.advance(t + 1e6).unwrap();
    same_state(&exact, &corrected, arrived)
}

#[test]
fn reprofiling_at_arrival_is_arriving_with_it() {
    // Many cases: a stale backlog key shows only when several jobs wait at once.
    QuickCheck::new()
        .tests(3000)
        .quickcheck(reprofiled_at_arrival as fn(Vec<(u8, u8, u8, u8)>) -> bool);
}
