//! DRF's properties on random instances (DRF as the QKnobler paper models it, §5.1): for the
//! divisible allocation, sharing incentive, envy-freeness and Pareto efficiency, exactly
//! (weighted forms); for discrete progressive filling, Pareto efficiency, with the
//! sharing-incentive deficits measured.

use fairsched::drf::{Divisible, DrfQueue, Inline, Users};
use quickcheck::{Arbitrary, Gen, QuickCheck};

/// A random instance: 1-5 users, 1-3 resource kinds, positive integer-ish amounts.
#[derive(Clone, Debug)]
struct Instance {
    capacity: Vec<f64>,
    weights: Vec<f64>,
    demands: Vec<f64>,
}

impl Arbitrary for Instance {
    fn arbitrary(g: &mut Gen) -> Self {
        let kinds = usize::arbitrary(g) % 3 + 1;
        let users = usize::arbitrary(g) % 5 + 1;
        let small = |g: &mut Gen, top: u32| f64::from(u32::arbitrary(g) % top + 1);
        Instance {
            capacity: (0..kinds).map(|_| small(g, 100) * 10.0).collect(),
            weights: (0..users).map(|_| small(g, 4)).collect(),
            demands: (0..users * kinds).map(|_| small(g, 20)).collect(),
        }
    }
}

impl Instance {
    fn users(&self) -> Users<'_> {
        Users::new(&self.capacity, &self.weights, &self.demands).unwrap()
    }

    fn demand(&self, i: usize) -> &[f64] {
        let m = self.capacity.len();
        &self.demands[i * m..(i + 1) * m]
    }

    /// Tasks user `i` could run alone on the share `w_i / Σw` of every resource.
    fn partition_tasks(&self, i: usize) -> f64 {
        let share = self.weights[i] / self.weights.iter().sum::<f64>();
        self.capacity
            .iter()
            .zip(self.demand(i))
            .map(|(r, d)| r * share / d)
            .fold(f64::INFINITY, f64::min)
    }
}

const TOLERANCE: f64 = 1e-9;

fn divisible_is_fair(instance: Instance) -> bool {
    let users = instance.users();
    let drf = Divisible::of(&users);
    let n = instance.weights.len();
    let tasks: Vec<f64> = (0..n).map(|i| drf.tasks(&users, i)).collect();
    // Feasible, and Pareto efficient: some resource is saturated, and every user needs it.
    let loads: Vec<f64> = (0..instance.capacity.len())
        .map(|k| {
            (0..n)
                .map(|i| tasks[i] * instance.demand(i)[k])
                .sum::<f64>()
                / instance.capacity[k]
        })
        .collect();
    let saturated = loads.iter().fold(0.0f64, |a, &b| a.max(b));
    let feasible_and_full = (saturated - 1.0).abs() < TOLERANCE;
    // Sharing incentive: at least the tasks of the weighted equal partition.
    let sharing = (0..n).all(|i| tasks[i] >= instance.partition_tasks(i) * (1.0 - TOLERANCE));
    // Envy-freeness: user i cannot run more tasks with j's bundle scaled by w_i / w_j.
    let envy_free = (0..n).all(|i| {
        (0..n).all(|j| {
            let scale = instance.weights[i] / instance.weights[j];
            let with_js = instance
                .demand(j)
                .iter()
                .zip(instance.demand(i))
                .map(|(dj, di)| tasks[j] * dj * scale / di)
                .fold(f64::INFINITY, f64::min);
            tasks[i] >= with_js * (1.0 - TOLERANCE)
        })
    });
    feasible_and_full && sharing && envy_free
}

#[test]
fn divisible_drf_properties() {
    QuickCheck::new()
        .tests(300)
        .quickcheck(divisible_is_fair as fn(Instance) -> bool);
}

/// Progressive filling with unlimited pending tasks; tasks per user.
fn progressive_filling(instance: &Instance) -> Vec<u64> {
    let mut queue = DrfQueue::<Inline<8>>::new(&instance.capacity).unwrap();
    for i in 0..instance.weights.len() {
        queue
            .add_user(i as u64, instance.weights[i], instance.demand(i))
            .unwrap();
        queue.set_pending(i as u64, u64::MAX).unwrap();
    }
    let mut started = vec![0; 100_000];
    let n = queue
        .allocate_round(&instance.capacity, &mut started)
        .unwrap();
    let mut tasks = vec![0; instance.weights.len()];
    for &id in &started[..n] {
        tasks[id as usize] += 1;
    }
    tasks
}

/// No further task of any user fits, and no capacity is exceeded.
fn discrete_is_pareto_efficient(instance: Instance) -> bool {
    let tasks = progressive_filling(&instance);
    let m = instance.capacity.len();
    let used: Vec<f64> = (0..m)
        .map(|k| {
            (0..tasks.len())
                .map(|i| tasks[i] as f64 * instance.demand(i)[k])
                .sum()
        })
        .collect();
    let within = (0..m).all(|k| used[k] <= instance.capacity[k]);
    let nothing_fits = (0..tasks.len())
        .all(|i| (0..m).any(|k| used[k] + instance.demand(i)[k] > instance.capacity[k]));
    within && nothing_fits
}

#[test]
fn discrete_drf_is_pareto_efficient() {
    QuickCheck::new()
        .tests(300)
        .quickcheck(discrete_is_pareto_efficient as fn(Instance) -> bool);
}

/// Indivisible tasks can leave a user short of its equal-partition count: measured and
/// reported, not asserted away (about 17% of such instances when first measured). The assertion
/// only pins that the effect is real, so that nobody mistakes it for a bug to hide.
#[test]
fn discrete_sharing_incentive_deficits_are_measured() {
    let mut g = Gen::new(100);
    let (mut cases, mut short, mut worst) = (0, 0, 0u64);
    for _ in 0..500 {
        let instance = Instance::arbitrary(&mut g);
        let tasks = progressive_filling(&instance);
        cases += 1;
        let mut case_short = false;
        for (i, &t) in tasks.iter().enumerate() {
            let owed = (instance.partition_tasks(i) + TOLERANCE).floor() as u64;
            if t < owed {
                case_short = true;
                worst = worst.max(owed - t);
            }
        }
        short += u64::from(case_short);
    }
    println!("discrete DRF: {short} of {cases} instances leave some user short of its equal partition; worst deficit {worst} tasks");
    assert!(short > 0 && short < cases);
}

/// Found by the fuzz harness: a weight or a task's dominant share far from 1 made `φ` zero or
/// infinite, so that divisible DRF gave a user infinite tasks and QKnobler NaN. Both are now
/// rejected outside `[1 / SCALE, SCALE]`, by the closed forms and the queue alike, and the
/// ends of the range are accepted.
#[test]
fn weights_and_task_shares_outside_the_scale_are_rejected() {
    use fairsched::drf::SCALE;
    use fairsched::Error;
    let cases: [(&[f64], f64, &[f64]); 3] = [
        // δ = 15.4375 / 2^-1022 overflows to infinity.
        (&[f64::MIN_POSITIVE], 8.5, &[15.4375]),
        // w / δ underflowed to zero, and φ with it.
        (
            &[16.4375, 17.5625, 22.9375],
            1e-300,
            &[7.875, 9.875, 2.3e18],
        ),
        // δ = 2^-70.
        (&[2f64.powi(70)], 1.0, &[1.0]),
    ];
    for (capacity, weight, demand) in cases {
        let weights = [weight];
        let users = Users::new(capacity, &weights, demand);
        assert_eq!(
            users.err(),
            Some(Error::OutOfRange),
            "{capacity:?} {weight} {demand:?}"
        );
        let mut queue = DrfQueue::<Inline<2>>::new(capacity).unwrap();
        assert_eq!(queue.add_user(1, weight, demand), Err(Error::OutOfRange));
        assert!(queue.is_empty());
    }
    for weight in [1.0 / SCALE, SCALE] {
        let (weights, demands) = ([weight, 1.0], [SCALE, 1.0 / SCALE]);
        let users = Users::new(&[1.0], &weights, &demands).unwrap();
        let drf = Divisible::of(&users);
        assert!(drf.phi.is_finite() && drf.phi > 0.0);
        assert!((0..2).all(|i| drf.tasks(&users, i).is_finite()));
    }
}
