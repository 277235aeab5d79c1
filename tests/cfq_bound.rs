//! Theorem 1's bound as the core computes it (`cfq::delay_bound`): the CFQ paper's Fig. 2/3
//! example and every refusal. That CFQ keeps to it, weighted or not, is checked through the
//! simulator's cluster model (`sim/tests/theorem_1.rs`).

use fairsched::cfq::{delay_bound, MAX_SLOT_TIME};
use fairsched::Error;

#[test]
fn the_paper_example() {
    // Fig. 2/3: job 1 is one 9 s task, job 2 four 4 s tasks (16 s of slot-time), job 3 two 4 s
    // tasks, on 3 slots: 2 * 9 + 16 / 3.
    assert_eq!(delay_bound(9.0, 16.0, 3), Ok(18.0 + 16.0 / 3.0));
    // One task as long as the largest job, on one slot: the bound is three times that job.
    assert_eq!(delay_bound(5.0, 5.0, 1), Ok(15.0));
    assert_eq!(
        delay_bound(MAX_SLOT_TIME, MAX_SLOT_TIME, u32::MAX),
        Ok(2.0 * MAX_SLOT_TIME + MAX_SLOT_TIME / f64::from(u32::MAX))
    );
}

#[test]
fn refusals() {
    let cases = [
        ((f64::NAN, 16.0, 3), Error::NotFinite),
        ((9.0, f64::INFINITY, 3), Error::NotFinite),
        ((f64::NEG_INFINITY, 16.0, 3), Error::NotFinite),
        ((0.0, 16.0, 3), Error::NotPositive),
        ((9.0, -0.0, 3), Error::NotPositive),
        ((-9.0, 16.0, 3), Error::NotPositive),
        ((9.0, 2.0 * MAX_SLOT_TIME, 3), Error::OutOfRange),
        ((17.0, 16.0, 3), Error::OutOfRange),
        ((9.0, 16.0, 0), Error::NotPositive),
    ];
    for ((longest_task, largest_slot_time, slots), error) in cases {
        assert_eq!(
            delay_bound(longest_task, largest_slot_time, slots),
            Err(error),
            "{longest_task} {largest_slot_time} {slots}"
        );
    }
}
