//! Properties of CFQ the paper proves or the design promises, on random inputs. Theorem 1's
//! delay bound is tested through the simulator's cluster model (`sim/tests/theorem_1.rs`).

use fairsched::cfq::{Cfq, Inline};
use fairsched_testkit::memory::CfqMemory;
use quickcheck::quickcheck;

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
