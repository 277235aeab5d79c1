//! QKnobler with heterogeneous tasks (Tang, Yu, Li: *Fairness-Efficiency Scheduling for Cloud
//! Computing with Soft Fairness Guarantees*, IEEE Transactions on Cloud Computing, 2020; §6.1
//! C2, §6.2): the fitness-based estimate of a user's average task demand against a naive
//! reference, a MapReduce example worked by hand, Algorithm 1's stateless decision agreeing
//! with `DrfQueue::qknobler_round` when every user's tasks are alike, and rejected calls.

use fairsched::drf::{Divisible, DrfQueue, Inline, Users};
use fairsched::qknobler::heterogeneous::{average_demand, choose, ActiveUsers, Branch, Choice};
use fairsched::Error;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

// ---- The estimator ------------------------------------------------------------------------

/// A MapReduce user on a cluster with `<4 CPU, 10 GB>` idle: two map tasks `<1, 2>` running
/// (their sum `<2, 4>`), and pending in queue order a reduce `<2, 8>`, another reduce `<2, 8>`
/// and a map `<1, 2>`. First-Fit: the first reduce fits `<4, 10>` and leaves `<2, 2>`; the
/// second needs 8 GB of 2 and is skipped; the map fits `<2, 2>` and leaves `<1, 0>`. Two are
/// counted, and the average over 2 + 2 tasks is `(<2, 4> + <2, 8> + <1, 2>) / 4 = <5, 14> / 4
/// = <1.25, 3.5>`: between a map's and a reduce's, weighted by what runs and what would run.
#[test]
fn map_reduce_average_by_hand() {
    let pending = [2.0, 8.0, 2.0, 8.0, 1.0, 2.0];
    // (idle, running sum, running) -> (average, counted, averaged).
    let estimate = |idle: [f64; 2], sum: [f64; 2], running: u64| {
        let mut average = [0.0; 2];
        let e = average_demand(&idle, &sum, running, &pending, &mut average).unwrap();
        (average, e.counted, e.averaged)
    };
    assert_eq!(estimate([4.0, 10.0], [2.0, 4.0], 2), ([1.25, 3.5], 2, 4));
    // Nothing running: the reduce and the map that fit, `(<2, 8> + <1, 2>) / 2`.
    assert_eq!(estimate([4.0, 10.0], [0.0; 2], 0), ([1.5, 5.0], 2, 2));
    // Nothing running and nothing fits `<0.5, 1>`: the task the user would run next, the
    // first reduce.
    assert_eq!(estimate([0.5, 1.0], [0.0; 2], 0), ([2.0, 8.0], 0, 0));
    // Running tasks only (nothing fits): their average.
    assert_eq!(estimate([0.0, 0.0], [2.0, 4.0], 2), ([1.0, 2.0], 0, 2));
}

/// The estimator's inputs: idle resources, the running tasks' demands (summed by the call's
/// caller), the pending tasks' demands in queue order.
#[derive(Clone, Debug)]
struct EstimatorCase {
    idle: Vec<f64>,
    running: Vec<Vec<f64>>,
    pending: Vec<Vec<f64>>,
}

fn demand(g: &mut Gen, kinds: usize, whole: bool) -> Vec<f64> {
    let mut d: Vec<f64> = (0..kinds)
        .map(|_| {
            let x = f64::from(u8::arbitrary(g) % 6);
            if whole {
                x
            } else {
                x * f64::from(u16::arbitrary(g) % 1000 + 1) / 337.0
            }
        })
        .collect();
    if d.iter().all(|&x| x == 0.0) {
        d[usize::arbitrary(g) % kinds] = 1.0;
    }
    d
}

impl Arbitrary for EstimatorCase {
    fn arbitrary(g: &mut Gen) -> Self {
        let kinds = usize::arbitrary(g) % 4 + 1;
        let whole = bool::arbitrary(g);
        let idle = (0..kinds)
            .map(|_| f64::from(u8::arbitrary(g) % 20) * if whole { 1.0 } else { 0.73 })
            .collect();
        let running = (0..usize::arbitrary(g) % 5)
            .map(|_| demand(g, kinds, whole))
            .collect();
        let pending = (0..usize::arbitrary(g) % 12)
            .map(|_| demand(g, kinds, whole))
            .collect();
        EstimatorCase {
            idle,
            running,
            pending,
        }
    }
}

/// The estimate as the paper words it, over vectors: the pending tasks that fit what is
/// left, in queue order, then the mean of those and the running ones (or the first pending
/// task when there are none).
fn naive_average(case: &EstimatorCase, running_sum: &[f64]) -> Option<(Vec<f64>, u64)> {
    let mut left = case.idle.clone();
    let mut counted: Vec<&Vec<f64>> = Vec::new();
    for task in &case.pending {
        if task.iter().zip(&left).all(|(d, l)| d <= l) {
            for (l, d) in left.iter_mut().zip(task) {
                *l = (*l - d).max(0.0);
            }
            counted.push(task);
        }
    }
    let n = case.running.len() + counted.len();
    if n == 0 {
        return case.pending.first().map(|first| (first.clone(), 0));
    }
    let mean = (0..case.idle.len())
        .map(|k| {
            let mut s = running_sum[k];
            for task in &counted {
                s += task[k];
            }
            s / n as f64
        })
        .collect();
    Some((mean, counted.len() as u64))
}

fn estimator_agrees(case: EstimatorCase) -> TestResult {
    let kinds = case.idle.len();
    let running_sum: Vec<f64> = (0..kinds)
        .map(|k| case.running.iter().map(|d| d[k]).sum())
        .collect();
    let pending: Vec<f64> = case.pending.concat();
    let mut out = vec![f64::NAN; kinds];
    let got = average_demand(
        &case.idle,
        &running_sum,
        case.running.len() as u64,
        &pending,
        &mut out,
    );
    match (naive_average(&case, &running_sum), got) {
        (None, Err(Error::Empty)) if out.iter().all(|x| x.is_nan()) => TestResult::passed(),
        (Some((mean, counted)), Ok(estimate)) => {
            let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            if bits(&mean) != bits(&out)
                || estimate.counted != counted
                || estimate.averaged
                    != if case.running.is_empty() && counted == 0 {
                        0
                    } else {
                        case.running.len() as u64 + counted
                    }
            {
                return TestResult::error(format!(
                    "naive {mean:?} {counted}, got {out:?} {estimate:?}"
                ));
            }
            TestResult::passed()
        }
        (naive, got) => TestResult::error(format!("naive {naive:?}, got {got:?} {out:?}")),
    }
}

#[test]
fn estimator_matches_naive_first_fit() {
    QuickCheck::new()
        .tests(2000)
        .quickcheck(estimator_agrees as fn(EstimatorCase) -> TestResult);
}

// ---- The decision -------------------------------------------------------------------------

/// Three users on a cluster of `<10 CPU, 20 GB>`, one machine `<4, 8>` all idle, every user's
/// `s_i^max` given (as the MDRS updater would compute it):
///
/// | user | w | U_i | s_i = max_k U_ik / r_k | s_i / w_i | next task | fits `<4, 8>` |
/// | --- | --- | --- | --- | --- | --- | --- |
/// | 0 (map/reduce) | 1 | `<2, 4>` (two maps) | max(0.2, 0.2) = 0.2 | 0.2 | map `<1, 2>` | yes |
/// | 1 | 2 | `<4, 2>` | max(0.4, 0.1) = 0.4 | 0.2 | `<3, 3>` | yes |
/// | 2 | 1 | `<0, 0>` | 0 | 0 | `<5, 1>` | no (5 > 4) |
///
/// User 2 has the lowest share but its task does not fit; users 0 and 1 tie at 0.2 and the
/// lower index, 0, is the lowest. With `s_0^max = 0.5`: at ρ = 0.5, `0.2 < 0.25` and user 0 is
/// owed (fairness); at ρ = 0.3, `0.2 >= 0.15`, so the highest affinity `Σ_k (d_k/C_k)(idle_k/C_k)`
/// wins: user 0's map `1/4 · 1 + 2/8 · 1 = 0.5`, user 1's `3/4 + 3/8 = 1.125`: user 1
/// (efficiency). At ρ = 1 the lowest is always served. With `<2, 8>` idle only user 0's map fits
/// (affinity `(1/4)(2/4) + (2/8)(8/8)`), so both branches pick it.
#[test]
fn map_reduce_decision_by_hand() {
    let cluster = [10.0, 20.0];
    let machine = [4.0, 8.0];
    let weights = [1.0, 2.0, 1.0];
    let allocated = [2.0, 4.0, 4.0, 2.0, 0.0, 0.0];
    let max_shares = [0.5, 0.6, 0.5];
    let next = [1.0, 2.0, 3.0, 3.0, 5.0, 1.0];
    let users = ActiveUsers {
        weights: &weights,
        allocated: &allocated,
        max_shares: &max_shares,
        next: &next,
    };
    let decide = |rho: f64, idle: &[f64]| choose(rho, &cluster, &machine, idle, users);
    let pick = |user, branch| Ok(Some(Choice { user, branch }));
    assert_eq!(decide(0.5, &machine), pick(0, Branch::Fairness));
    assert_eq!(decide(0.3, &machine), pick(1, Branch::Efficiency));
    assert_eq!(decide(0.0, &machine), pick(1, Branch::Efficiency));
    assert_eq!(decide(1.0, &machine), pick(0, Branch::Fairness));
    assert_eq!(decide(0.3, &[2.0, 8.0]), pick(0, Branch::Efficiency));
    assert_eq!(decide(0.5, &[2.0, 8.0]), pick(0, Branch::Fairness));
    // Nothing fits <0.5, 8>.
    assert_eq!(decide(0.5, &[0.5, 8.0]), Ok(None));
    // No active user.
    let none = ActiveUsers {
        weights: &[],
        allocated: &[],
        max_shares: &[],
        next: &[],
    };
    assert_eq!(choose(0.5, &cluster, &machine, &machine, none), Ok(None));
}

/// The whole pipeline on two MapReduce users, by hand: the estimator gives each its average
/// demand, `Divisible` its `s_i^max`, and the decision follows. Cluster `<10, 20>`, all of it
/// idle but what runs. User A: one map `<1, 2>` running, pending reduces `<2, 8>` ×2; user B:
/// one reduce `<2, 8>` running, pending maps `<1, 2>` ×3. Idle `<7, 10>`.
/// - A: the first reduce fits `<7, 10>` (leaves `<5, 2>`), the second does not: average
///   `(<1, 2> + <2, 8>) / 2 = <1.5, 5>`.
/// - B: all three maps fit (`<7, 10>` → `<4, 4>`): average `(<2, 8> + 3 · <1, 2>) / 4 =
///   <1.25, 3.5>`.
/// - `δ_A = max(0.15, 0.25) = 0.25`, `δ_B = max(0.125, 0.175) = 0.175`; loads (eq. 11):
///   CPU `(1.5/0.25 + 1.25/0.175) / 10 = (6 + 7.142857) / 10 = 1.3142857`, memory `(5/0.25 +
///   3.5/0.175) / 20 = (20 + 20) / 20 = 2`: `φ = 2`, `s^max = 1/2` each.
/// - `U_A = <1, 2>`: `s_A = max(0.1, 0.1) = 0.1`; `U_B = <2, 8>`: `s_B = 0.4`. On a machine
///   `<4, 8>` with `<3, 8>` idle both next tasks fit (A's reduce `<2, 8>`, B's map `<1, 2>`),
///   A is the lowest, and at ρ = 0.3, `0.1 < 0.15`: A is served by fairness. At ρ = 0.1,
///   `0.1 >= 0.05`: affinity, A's `(2/4)(3/4) + (8/8)(8/8) = 1.375` against B's `(1/4)(3/4) +
///   (2/8)(1) = 0.4375`: A again, by efficiency.
#[test]
fn map_reduce_pipeline_by_hand() {
    let cluster = [10.0, 20.0];
    let idle = [7.0, 10.0];
    let (mut a, mut b) = ([0.0; 2], [0.0; 2]);
    average_demand(&idle, &[1.0, 2.0], 1, &[2.0, 8.0, 2.0, 8.0], &mut a).unwrap();
    average_demand(
        &idle,
        &[2.0, 8.0],
        1,
        &[1.0, 2.0, 1.0, 2.0, 1.0, 2.0],
        &mut b,
    )
    .unwrap();
    assert_eq!((a, b), ([1.5, 5.0], [1.25, 3.5]));
    let weights = [1.0, 1.0];
    let demands = [a, b].concat();
    let users = Users::new(&cluster, &weights, &demands).unwrap();
    let drf = Divisible::of(&users);
    assert_eq!(drf.phi, 2.0);
    let max_shares = [drf.share(&users, 0), drf.share(&users, 1)];
    assert_eq!(max_shares, [0.5, 0.5]);
    let allocated = [1.0, 2.0, 2.0, 8.0];
    let next = [2.0, 8.0, 1.0, 2.0];
    let active = ActiveUsers {
        weights: &weights,
        allocated: &allocated,
        max_shares: &max_shares,
        next: &next,
    };
    let machine = [4.0, 8.0];
    let at = |rho| choose(rho, &cluster, &machine, &[3.0, 8.0], active);
    let pick = |user, branch| Ok(Some(Choice { user, branch }));
    assert_eq!(at(0.3), pick(0, Branch::Fairness));
    assert_eq!(at(0.1), pick(0, Branch::Efficiency));
}

// ---- Agreement with the queue -------------------------------------------------------------

const USERS: usize = 8;

/// Homogeneous users (every task of a user one demand) on one machine, for several rounds with
/// tasks finishing between them. Whole-number demands over power-of-two capacities keep every
/// share exact, so the queue's `running · δ` and the decision's `max_k U_ik / r_k` are the
/// same number (see the module documentation of `qknobler::heterogeneous`).
#[derive(Clone, Debug)]
struct Instance {
    cluster: Vec<f64>,
    machine: Vec<f64>,
    /// Weight, demand, running, pending.
    users: Vec<(f64, Vec<f64>, u64, u64)>,
    /// Idle resources of each round, and tasks finishing after it, as (user, count).
    rounds: Vec<Round>,
    rho: f64,
}

impl Arbitrary for Instance {
    fn arbitrary(g: &mut Gen) -> Self {
        let kinds = usize::arbitrary(g) % 3 + 1;
        let power = |g: &mut Gen, low: i32| 2f64.powi(low + i32::from(u8::arbitrary(g) % 3));
        let cluster: Vec<f64> = (0..kinds).map(|_| power(g, 4)).collect();
        let machine: Vec<f64> = (0..kinds).map(|_| power(g, 3)).collect();
        let users = (0..usize::arbitrary(g) % USERS + 1)
            .map(|_| {
                let weight = [1.0, 2.0, 0.5, 3.0, 1.7, 0.3][usize::arbitrary(g) % 6];
                let running = u64::arbitrary(g) % 5;
                (
                    weight,
                    demand(g, kinds, true),
                    running,
                    u64::arbitrary(g) % 14,
                )
            })
            .collect::<Vec<_>>();
        let n = users.len();
        let rounds = (0..usize::arbitrary(g) % 3 + 1)
            .map(|_| {
                let idle = machine
                    .iter()
                    .map(|&c| (f64::from(u8::arbitrary(g) % 101) / 100.0 * c).floor())
                    .collect();
                let finish = (0..usize::arbitrary(g) % 3)
                    .map(|_| (usize::arbitrary(g) % n, u64::arbitrary(g) % 3))
                    .collect();
                (idle, finish)
            })
            .collect();
        let rho = match u8::arbitrary(g) % 4 {
            0 => 0.0,
            1 => 1.0,
            2 => f64::from(u8::arbitrary(g) % 11) / 10.0,
            _ => f64::from(u32::arbitrary(g)) / f64::from(u32::MAX),
        };
        Instance {
            cluster,
            machine,
            users,
            rounds,
            rho,
        }
    }
}

/// A round's idle resources, and the tasks finishing after it as (user, count).
type Round = (Vec<f64>, Vec<(usize, u64)>);

/// What a caller of the stateless functions keeps (the QueueInfo Tracker): per user its
/// running and pending tasks, all of one demand.
struct Tracker<'i> {
    instance: &'i Instance,
    running: Vec<u64>,
    pending: Vec<u64>,
}

impl<'i> Tracker<'i> {
    fn new(instance: &'i Instance) -> Self {
        Tracker {
            instance,
            running: instance.users.iter().map(|u| u.2).collect(),
            pending: instance.users.iter().map(|u| u.3).collect(),
        }
    }

    /// `s_i^max` of the users with pending tasks (in id order): each one's average demand by
    /// the estimator (First-Fit into what the cluster has idle), then DRF's closed form.
    fn max_shares(&self, active: &[usize]) -> Vec<f64> {
        let kinds = self.instance.cluster.len();
        let mut cluster_idle = self.instance.cluster.clone();
        for (i, (_, d, _, _)) in self.instance.users.iter().enumerate() {
            for k in 0..kinds {
                cluster_idle[k] = (cluster_idle[k] - self.running[i] as f64 * d[k]).max(0.0);
            }
        }
        let mut weights = Vec::new();
        let mut averages = Vec::new();
        for &i in active {
            let (w, d, _, _) = &self.instance.users[i];
            let sum: Vec<f64> = d.iter().map(|x| self.running[i] as f64 * x).collect();
            let pending = d.repeat(self.pending[i] as usize);
            let mut average = vec![0.0; kinds];
            average_demand(&cluster_idle, &sum, self.running[i], &pending, &mut average).unwrap();
            assert_eq!(&average, d, "a homogeneous user's average is its demand");
            weights.push(*w);
            averages.extend(average);
        }
        if active.is_empty() {
            return Vec::new();
        }
        let users = Users::new(&self.instance.cluster, &weights, &averages).unwrap();
        let drf = Divisible::of(&users);
        (0..active.len()).map(|j| drf.share(&users, j)).collect()
    }

    /// One round of repeated decisions on `idle`: the ids chosen, and how many by fairness.
    fn round(&mut self, idle: &[f64]) -> (Vec<u64>, usize) {
        let users = &self.instance.users;
        let mut idle = idle.to_vec();
        let (mut ids, mut fairness) = (Vec::new(), 0);
        let mut active: Vec<usize> = (0..users.len()).filter(|&i| self.pending[i] > 0).collect();
        let mut max_shares = self.max_shares(&active);
        loop {
            let weights: Vec<f64> = active.iter().map(|&i| users[i].0).collect();
            let allocated: Vec<f64> = active
                .iter()
                .flat_map(|&i| {
                    let n = self.running[i] as f64;
                    users[i].1.iter().map(move |d| n * d)
                })
                .collect();
            let next: Vec<f64> = active.iter().flat_map(|&i| users[i].1.clone()).collect();
            let choice = choose(
                self.instance.rho,
                &self.instance.cluster,
                &self.instance.machine,
                &idle,
                ActiveUsers {
                    weights: &weights,
                    allocated: &allocated,
                    max_shares: &max_shares,
                    next: &next,
                },
            )
            .unwrap();
            let Some(choice) = choice else {
                return (ids, fairness);
            };
            let i = active[choice.user];
            if choice.branch == Branch::Fairness {
                fairness += 1;
            }
            for (l, d) in idle.iter_mut().zip(&users[i].1) {
                *l = (*l - d).max(0.0);
            }
            ids.push(i as u64);
            self.running[i] += 1;
            self.pending[i] -= 1;
            if self.pending[i] == 0 {
                // C1: a new allocation round over the users still active.
                active.retain(|&j| j != i);
                max_shares = self.max_shares(&active);
            }
        }
    }
}

fn decisions_agree_with_queue(instance: Instance) -> TestResult {
    let mut queue = DrfQueue::<Inline<USERS>>::new(&instance.cluster).unwrap();
    for (id, (weight, demand, running, pending)) in instance.users.iter().enumerate() {
        queue.add_user(id as u64, *weight, demand).unwrap();
        queue.tasks_started(id as u64, *running).unwrap();
        queue.set_pending(id as u64, *pending).unwrap();
    }
    let mut tracker = Tracker::new(&instance);
    for (idle, finish) in &instance.rounds {
        let mut ids = vec![0; 256];
        let round = queue
            .qknobler_round(instance.rho, &instance.machine, idle, &mut ids)
            .unwrap();
        let (chosen, fairness) = tracker.round(idle);
        if chosen != ids[..round.started] || fairness != round.fairness {
            return TestResult::error(format!(
                "queue {:?} ({} by fairness), decisions {chosen:?} ({fairness})",
                &ids[..round.started],
                round.fairness
            ));
        }
        for &(i, count) in finish {
            let count = count.min(tracker.running[i]);
            queue.tasks_finished(i as u64, count).unwrap();
            tracker.running[i] -= count;
        }
    }
    TestResult::passed()
}

#[test]
fn homogeneous_decisions_are_the_queue_rounds() {
    QuickCheck::new()
        .tests(600)
        .quickcheck(decisions_agree_with_queue as fn(Instance) -> TestResult);
}

/// The agreement is not vacuous: over the same instances, both branches are taken and knobs
/// below 1 make decisions DRF (ρ = 1) would not.
#[test]
fn agreement_instances_take_both_branches() {
    let mut g = Gen::new(100);
    let (mut fairness, mut efficiency, mut differ) = (0, 0, 0);
    for _ in 0..300 {
        let instance = Instance::arbitrary(&mut g);
        let run = |rho| {
            let instance = Instance {
                rho,
                ..instance.clone()
            };
            Tracker::new(&instance).round(&instance.rounds[0].0)
        };
        let ((ids, fair), (drf_ids, _)) = (run(0.4), run(1.0));
        fairness += fair;
        efficiency += ids.len() - fair;
        differ += usize::from(ids != drf_ids);
    }
    assert!(
        fairness > 100 && efficiency > 100 && differ > 20,
        "{fairness} {efficiency} {differ}"
    );
}

// ---- Rejected calls -----------------------------------------------------------------------

#[test]
fn rejected_estimates_write_nothing() {
    // Idle, running sum, running, pending, output length, error.
    type Case<'a> = (&'a [f64], &'a [f64], u64, &'a [f64], usize, Error);
    let cases: [Case; 13] = [
        (&[], &[], 0, &[1.0], 0, Error::Empty),
        (&[1.0; 9], &[0.0; 9], 0, &[1.0; 9], 9, Error::CapacityFull),
        (
            &[1.0, f64::NAN],
            &[0.0, 0.0],
            0,
            &[1.0, 1.0],
            2,
            Error::NotFinite,
        ),
        (
            &[1.0, -1.0],
            &[0.0, 0.0],
            0,
            &[1.0, 1.0],
            2,
            Error::Negative,
        ),
        (
            &[1.0, 1.0],
            &[0.0],
            0,
            &[1.0, 1.0],
            2,
            Error::LengthMismatch,
        ),
        (
            &[1.0, 1.0],
            &[0.0, 0.0],
            0,
            &[1.0, 1.0, 1.0],
            2,
            Error::LengthMismatch,
        ),
        (
            &[1.0, 1.0],
            &[0.0, 0.0],
            0,
            &[1.0, 1.0],
            1,
            Error::LengthMismatch,
        ),
        (
            &[1.0, 1.0],
            &[0.0, 0.0],
            0,
            &[0.0, 0.0],
            2,
            Error::NotPositive,
        ),
        (
            &[1.0, 1.0],
            &[0.0, 0.0],
            0,
            &[1.0, -2.0],
            2,
            Error::Negative,
        ),
        (
            &[1.0, 1.0],
            &[1.0, 0.0],
            0,
            &[1.0, 1.0],
            2,
            Error::OutOfRange,
        ),
        (
            &[1.0, 1.0],
            &[0.0, 0.0],
            3,
            &[1.0, 1.0],
            2,
            Error::OutOfRange,
        ),
        (&[1.0, 1.0], &[0.0, 0.0], 0, &[], 2, Error::Empty),
        (
            &[1.0, 1.0],
            &[1.0, 1.0],
            u64::MAX,
            &[1.0, 1.0],
            2,
            Error::OutOfRange,
        ),
    ];
    for (idle, sum, running, pending, out_len, error) in cases {
        let mut out = vec![-7.0; out_len];
        let got = average_demand(idle, sum, running, pending, &mut out);
        assert_eq!(got, Err(error), "{idle:?} {sum:?} {running} {pending:?}");
        assert!(out.iter().all(|&x| x == -7.0));
    }
    // A sum that overflows is not an average.
    let mut out = [-7.0];
    let huge = [f64::MAX];
    assert_eq!(
        average_demand(&huge, &huge, 1, &huge, &mut out),
        Err(Error::OutOfRange)
    );
    assert_eq!(out, [-7.0]);
}

#[test]
fn rejected_decisions() {
    let cluster = [10.0, 20.0];
    let machine = [4.0, 8.0];
    let ok = ActiveUsers {
        weights: &[1.0, 2.0],
        allocated: &[2.0, 4.0, 4.0, 2.0],
        max_shares: &[0.5, 0.6],
        next: &[1.0, 2.0, 3.0, 3.0],
    };
    let with = |f: fn(&mut ActiveUsers<'static>)| {
        let mut users = ok;
        f(&mut users);
        users
    };
    // ρ, cluster, machine, idle, users, error.
    type Case<'a> = (f64, &'a [f64], &'a [f64], &'a [f64], ActiveUsers<'a>, Error);
    let cases: [Case; 18] = [
        (f64::NAN, &cluster, &machine, &machine, ok, Error::NotFinite),
        (1.01, &cluster, &machine, &machine, ok, Error::OutOfRange),
        (-0.5, &cluster, &machine, &machine, ok, Error::OutOfRange),
        (
            0.5,
            &[10.0, 0.0],
            &machine,
            &machine,
            ok,
            Error::NotPositive,
        ),
        (0.5, &[], &machine, &machine, ok, Error::Empty),
        (
            0.5,
            &[1.0; 9],
            &[1.0; 9],
            &[1.0; 9],
            ok,
            Error::CapacityFull,
        ),
        (0.5, &cluster, &[4.0], &[4.0], ok, Error::LengthMismatch),
        (0.5, &cluster, &machine, &[4.0, 9.0], ok, Error::OutOfRange),
        (0.5, &cluster, &machine, &[4.0, -1.0], ok, Error::Negative),
        (
            0.5,
            &cluster,
            &machine,
            &machine,
            with(|u| u.weights = &[1.0]),
            Error::LengthMismatch,
        ),
        (
            0.5,
            &cluster,
            &machine,
            &machine,
            with(|u| u.weights = &[1.0, 0.0]),
            Error::NotPositive,
        ),
        (
            0.5,
            &cluster,
            &machine,
            &machine,
            with(|u| u.weights = &[1.0, 1e300]),
            Error::OutOfRange,
        ),
        (
            0.5,
            &cluster,
            &machine,
            &machine,
            with(|u| u.allocated = &[2.0, 4.0]),
            Error::LengthMismatch,
        ),
        (
            0.5,
            &cluster,
            &machine,
            &machine,
            with(|u| u.allocated = &[2.0, 4.0, -4.0, 2.0]),
            Error::Negative,
        ),
        (
            0.5,
            &cluster,
            &machine,
            &machine,
            with(|u| u.max_shares = &[0.5, f64::INFINITY]),
            Error::NotFinite,
        ),
        (
            0.5,
            &cluster,
            &machine,
            &machine,
            with(|u| u.max_shares = &[0.5, -0.1]),
            Error::Negative,
        ),
        (
            0.5,
            &cluster,
            &machine,
            &machine,
            with(|u| u.next = &[1.0, 2.0, 0.0, 0.0]),
            Error::NotPositive,
        ),
        (
            0.5,
            &[1e-300, 20.0],
            &[1.0, 8.0],
            &[1.0, 8.0],
            with(|u| u.allocated = &[2.0, 4.0, 1e300, 2.0]),
            Error::OutOfRange,
        ),
    ];
    for (i, (rho, cluster, machine, idle, users, error)) in cases.into_iter().enumerate() {
        assert_eq!(
            choose(rho, cluster, machine, idle, users),
            Err(error),
            "case {i}"
        );
    }
    // The rejected user's task need not fit, nor be the one chosen: every user is checked.
    let users = with(|u| u.next = &[1.0, 2.0, 99.0, f64::NAN]);
    assert_eq!(
        choose(1.0, &cluster, &machine, &machine, users),
        Err(Error::NotFinite)
    );
}
