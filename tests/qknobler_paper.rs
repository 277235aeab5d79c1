//! The QKnobler paper's Example 1 (§4, Fig. 2) and its theorems' numbers.

use approx::assert_relative_eq;
use fairsched::drf::{Divisible, Users};
use fairsched::qknobler::sharing_incentive_rho;
use fairsched_testkit::qknobler;

const CAPACITY: [f64; 2] = [200.0, 1000.0];
const WEIGHTS: [f64; 2] = [1.0, 1.0];
const DEMANDS: [f64; 4] = [1.0, 6.0, 1.0, 2.0];

fn run(rho: f64) -> (fairsched::qknobler::Summary, Vec<f64>, Vec<f64>, Vec<u64>) {
    let users = Users::new(&CAPACITY, &WEIGHTS, &DEMANDS).unwrap();
    let out = qknobler::run(&users, rho);
    (out.summary, out.fair, out.efficient, out.whole)
}

#[test]
fn rho_0_is_pure_efficiency() {
    let (summary, fair, efficient, whole) = run(0.0);
    assert_eq!(fair, [0.0, 0.0]);
    // A gets 150 CPU / 900 GB, B 50 CPU / 100 GB (Fig. 2): both resources fully used.
    assert_relative_eq!(efficient[0], 150.0, max_relative = 1e-12);
    assert_relative_eq!(efficient[1], 50.0, max_relative = 1e-12);
    assert_eq!(whole, [150, 50]);
    assert_relative_eq!(summary.efficiency, 2.0, max_relative = 1e-12);
}

#[test]
fn rho_1_is_drf() {
    let users = Users::new(&CAPACITY, &WEIGHTS, &DEMANDS).unwrap();
    let drf = Divisible::of(&users);
    let (summary, fair, efficient, whole) = run(1.0);
    assert_eq!(efficient, [0.0, 0.0]);
    assert_eq!(fair, [drf.tasks(&users, 0), drf.tasks(&users, 1)]);
    assert_eq!(whole, [90, 109]);
    assert_eq!(summary.theta, 0.0);
}

#[test]
fn sharing_incentive_threshold_of_example_1() {
    let users = Users::new(&CAPACITY, &WEIGHTS, &DEMANDS).unwrap();
    // φ = 11/6, Σw = 2: ρ* = 11/12 = 0.9166...
    assert_relative_eq!(
        sharing_incentive_rho(&users),
        11.0 / 12.0,
        max_relative = 1e-14
    );
    let (summary, ..) = run(0.5);
    assert_relative_eq!(
        summary.sharing_incentive_rho,
        11.0 / 12.0,
        max_relative = 1e-14
    );
    assert_relative_eq!(summary.phi, 11.0 / 6.0, max_relative = 1e-14);
}
