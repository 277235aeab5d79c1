//! The CFQ paper's worked example (Fig. 2 and 3), step by step.

use fairsched::cfq::{Cfq, Inline};

#[test]
fn figure_2_and_3() {
    let mut cfq = Cfq::<Inline<8>>::new(3, 0.0).unwrap();
    cfq.arrive(0.0, 1, 9.0, 1).unwrap();
    cfq.arrive(0.0, 2, 16.0, 1).unwrap();
    cfq.set_pending(1, 1).unwrap();
    cfq.set_pending(2, 4).unwrap();
    assert_eq!(cfq.job(1).unwrap().virtual_finish, 9.0);
    assert_eq!(cfq.job(2).unwrap().virtual_finish, 16.0);
    let mut slots = [0; 3];
    assert_eq!(cfq.offer(&mut slots), 3);
    assert_eq!(slots, [1, 2, 2]);

    cfq.arrive(4.0, 3, 8.0, 1).unwrap();
    cfq.set_pending(3, 2).unwrap();
    assert_eq!(cfq.job(3).unwrap().virtual_finish, 14.0);
    let mut slots = [0; 2];
    assert_eq!(cfq.offer(&mut slots), 2);
    assert_eq!(slots, [3, 3]);

    cfq.complete(8.0, 3).unwrap();
    assert_eq!(cfq.job(1).unwrap().gps_completion, Some(7.0));
    assert_eq!(cfq.gps_completion_estimate(3).unwrap(), 31.0 / 3.0);
    assert_eq!(cfq.offer(&mut slots), 2);
    assert_eq!(slots, [2, 2]);
    cfq.complete(9.0, 1).unwrap();
    cfq.complete(12.0, 2).unwrap();

    let completions: Vec<_> = [1, 2, 3]
        .iter()
        .map(|&id| {
            let job = cfq.job(id).unwrap();
            (job.completion.unwrap(), job.gps_completion.unwrap())
        })
        .collect();
    assert_eq!(
        completions,
        [(9.0, 7.0), (12.0, 11.0), (8.0, 10.333333333333334)]
    );
}
