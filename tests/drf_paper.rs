//! The QKnobler paper's Example 1 (§4, Fig. 1-3), for DRF: divisible and discrete.

use approx::assert_relative_eq;
use fairsched::drf::{Divisible, DrfQueue, Inline, Users};

const CAPACITY: [f64; 2] = [200.0, 1000.0];

#[test]
fn example_1_divisible() {
    let weights = [1.0, 1.0];
    let demands = [1.0, 6.0, 1.0, 2.0];
    let users = Users::new(&CAPACITY, &weights, &demands).unwrap();
    let drf = Divisible::of(&users);
    assert_relative_eq!(drf.tasks(&users, 0), 1000.0 / 11.0, max_relative = 1e-14);
    assert_relative_eq!(drf.tasks(&users, 1), 1200.0 / 11.0, max_relative = 1e-14);
    assert_relative_eq!(drf.share(&users, 0), 6.0 / 11.0, max_relative = 1e-14);
    assert_relative_eq!(drf.share(&users, 1), 6.0 / 11.0, max_relative = 1e-14);
    let memory = (drf.tasks(&users, 0) * 6.0 + drf.tasks(&users, 1) * 2.0) / 1000.0;
    assert_relative_eq!(memory, 0.7636, max_relative = 1e-4);
}

/// Progressive filling of whole tasks with unlimited pending tasks.
fn discrete(demands: &[[f64; 2]]) -> Vec<u64> {
    let mut queue = DrfQueue::<Inline<8>>::new(&CAPACITY).unwrap();
    for (id, demand) in demands.iter().enumerate() {
        queue.add_user(id as u64, 1.0, demand).unwrap();
        queue.set_pending(id as u64, u64::MAX).unwrap();
    }
    let mut started = vec![0; 1000];
    let n = queue.allocate_round(&CAPACITY, &mut started).unwrap();
    let mut per_user = vec![0; demands.len()];
    for &id in &started[..n] {
        per_user[id as usize] += 1;
    }
    per_user
}

#[test]
fn example_1_discrete() {
    assert_eq!(discrete(&[[1.0, 6.0], [1.0, 2.0]]), [91, 109]);
    // With a third user C <1 CPU, 2 GB>: 59/71/70 (the paper's figure shows 58/71/71, a
    // rounding of the divisible solution, not progressive filling).
    assert_eq!(
        discrete(&[[1.0, 6.0], [1.0, 2.0], [1.0, 2.0]]),
        [59, 71, 70]
    );
}
