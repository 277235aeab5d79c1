//! QKnobler's offline allocation (Tang, Yu, Li: *Fairness-Efficiency Scheduling for Cloud
//! Computing with Soft Fairness Guarantees*, IEEE Transactions on Cloud Computing, 2020; §5.2)
//! into vectors, for the tests that compare against it.

use fairsched::drf::Users;
use fairsched::qknobler::{allocate, Allocation, Summary};

/// Everything [`allocate`] writes and returns.
pub struct Outcome {
    /// The summary.
    pub summary: Summary,
    /// `N̄_i`, per user.
    pub fair: Vec<f64>,
    /// `N'_i`, per user.
    pub efficient: Vec<f64>,
    /// Whole tasks, per user.
    pub whole: Vec<u64>,
}

impl Outcome {
    /// Every user's tasks from both stages, `N̄_i + N'_i`.
    pub fn totals(&self) -> Vec<f64> {
        self.fair
            .iter()
            .zip(&self.efficient)
            .map(|(f, e)| f + e)
            .collect()
    }
}

/// QKnobler at knob `rho` for `users` (panics on an error: for tests of valid inputs).
pub fn run(users: &Users<'_>, rho: f64) -> Outcome {
    let n = users.len();
    let (mut fair, mut efficient, mut whole) = (vec![0.0; n], vec![0.0; n], vec![0; n]);
    let summary = allocate(
        users,
        rho,
        Allocation {
            fair: &mut fair,
            efficient: &mut efficient,
            whole: &mut whole,
        },
    )
    .unwrap();
    Outcome {
        summary,
        fair,
        efficient,
        whole,
    }
}
