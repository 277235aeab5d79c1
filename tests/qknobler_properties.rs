//! QKnobler's guarantees on random instances: Theorem 1's soft-fairness bound for every pair,
//! Theorem 2's sharing incentive, ρ = 1 equals DRF, eq. 16 within groups, whole tasks within
//! capacity, and the efficiency stage's linear program solved to the optimum an exhaustive
//! enumeration of vertices finds.

use fairsched::drf::{Divisible, Users};
use fairsched::qknobler::{allocate, Allocation, Summary};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

/// 1-5 users over 1-3 kinds; some users demand a multiple of another's vector, so groups of
/// equal direction occur.
#[derive(Clone, Debug)]
struct Instance {
    capacity: Vec<f64>,
    weights: Vec<f64>,
    demands: Vec<f64>,
    rho: f64,
}

impl Arbitrary for Instance {
    fn arbitrary(g: &mut Gen) -> Self {
        let kinds = usize::arbitrary(g) % 3 + 1;
        let users = usize::arbitrary(g) % 5 + 1;
        let small = |g: &mut Gen, top: u32| f64::from(u32::arbitrary(g) % top + 1);
        let capacity = (0..kinds).map(|_| small(g, 100) * 10.0).collect();
        let mut demands: Vec<f64> = Vec::new();
        for i in 0..users {
            if i > 0 && bool::arbitrary(g) {
                let factor = small(g, 3);
                let earlier = (usize::arbitrary(g) % i) * kinds;
                let row: Vec<f64> = demands[earlier..earlier + kinds]
                    .iter()
                    .map(|d| d * factor)
                    .collect();
                demands.extend(row);
            } else {
                demands.extend(
                    (0..kinds)
                        .map(|_| small(g, 20) - 1.0 + f64::from(u8::from(bool::arbitrary(g)))),
                );
            }
        }
        // Rows of zeros are invalid demands: give them one unit.
        for row in demands.chunks_mut(kinds) {
            if row.iter().all(|&d| d == 0.0) {
                row[0] = 1.0;
            }
        }
        Instance {
            capacity,
            weights: (0..users).map(|_| small(g, 4)).collect(),
            demands,
            rho: f64::from(u8::arbitrary(g) % 11) / 10.0,
        }
    }
}

struct Outcome {
    summary: Summary,
    fair: Vec<f64>,
    efficient: Vec<f64>,
    whole: Vec<u64>,
}

impl Instance {
    fn users(&self) -> Users<'_> {
        Users::new(&self.capacity, &self.weights, &self.demands).unwrap()
    }

    fn demand(&self, i: usize) -> &[f64] {
        let m = self.capacity.len();
        &self.demands[i * m..(i + 1) * m]
    }

    fn run(&self, rho: f64) -> Outcome {
        let n = self.weights.len();
        let (mut fair, mut efficient, mut whole) = (vec![0.0; n], vec![0.0; n], vec![0; n]);
        let summary = allocate(
            &self.users(),
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

    fn dominant(&self, i: usize) -> f64 {
        self.demand(i)
            .iter()
            .zip(&self.capacity)
            .map(|(d, r)| d / r)
            .fold(0.0, f64::max)
    }

    fn normalized_size(&self, i: usize) -> f64 {
        self.demand(i)
            .iter()
            .zip(&self.capacity)
            .map(|(d, r)| d / r)
            .sum()
    }
}

const TOLERANCE: f64 = 1e-9;

fn guarantees_hold(instance: Instance) -> TestResult {
    let n = instance.weights.len();
    let m = instance.capacity.len();
    let out = instance.run(instance.rho);
    let tasks: Vec<f64> = (0..n).map(|i| out.fair[i] + out.efficient[i]).collect();
    // Feasible in the divisible model, and whole tasks never exceed any capacity.
    for k in 0..m {
        let used: f64 = (0..n).map(|i| tasks[i] * instance.demand(i)[k]).sum();
        if used > instance.capacity[k] * (1.0 + TOLERANCE) {
            return TestResult::error(format!("kind {k} over capacity: {used}"));
        }
        let whole: f64 = (0..n)
            .map(|i| out.whole[i] as f64 * instance.demand(i)[k])
            .sum();
        if whole > instance.capacity[k] {
            return TestResult::error(format!("whole tasks over capacity on kind {k}"));
        }
    }
    // Theorem 1: |s_i/w_i - s_j/w_j| <= θ for every pair.
    let weighted: Vec<f64> = (0..n)
        .map(|i| tasks[i] * instance.dominant(i) / instance.weights[i])
        .collect();
    for i in 0..n {
        for j in 0..n {
            let gap = (weighted[i] - weighted[j]).abs();
            if gap > out.summary.theta + TOLERANCE {
                return TestResult::error(format!(
                    "users {i},{j}: gap {gap} > θ {}",
                    out.summary.theta
                ));
            }
        }
    }
    // Theorem 2: sharing incentive once ρ reaches φ / Σw.
    if instance.rho >= out.summary.sharing_incentive_rho {
        let total_weight: f64 = instance.weights.iter().sum();
        for (i, &t) in tasks.iter().enumerate() {
            let share = instance.weights[i] / total_weight;
            let alone = instance
                .capacity
                .iter()
                .zip(instance.demand(i))
                .map(|(r, d)| r * share / d)
                .fold(f64::INFINITY, f64::min);
            if t < alone * (1.0 - TOLERANCE) {
                return TestResult::error(format!("user {i}: {t} tasks < {alone}"));
            }
        }
    }
    // Eq. 16: users of one direction end with equal s'_i / w_i.
    for i in 0..n {
        for j in 0..n {
            let same = (0..m).all(|k| {
                instance.demand(i)[k] / instance.dominant(i)
                    == instance.demand(j)[k] / instance.dominant(j)
            });
            let (a, b) = (
                out.efficient[i] * instance.dominant(i) / instance.weights[i],
                out.efficient[j] * instance.dominant(j) / instance.weights[j],
            );
            if same && (a - b).abs() > TOLERANCE * (1.0 + a.abs()) {
                return TestResult::error(format!("users {i},{j} of one direction: {a} vs {b}"));
            }
        }
    }
    TestResult::passed()
}

#[test]
fn theorems_hold_on_random_instances() {
    QuickCheck::new()
        .tests(400)
        .quickcheck(guarantees_hold as fn(Instance) -> TestResult);
}

fn rho_one_is_drf(instance: Instance) -> bool {
    let users = instance.users();
    let drf = Divisible::of(&users);
    let out = instance.run(1.0);
    (0..instance.weights.len())
        .all(|i| out.fair[i] == drf.tasks(&users, i) && out.efficient[i] == 0.0)
        && out.summary.theta == 0.0
}

#[test]
fn rho_one_equals_drf() {
    QuickCheck::new()
        .tests(200)
        .quickcheck(rho_one_is_drf as fn(Instance) -> bool);
}

/// The best objective over every basis of `max c·x, A x <= b, x >= 0` (columns, then slacks):
/// solve each square system by Gaussian elimination and keep the feasible ones.
fn best_vertex(columns: &[Vec<f64>], costs: &[f64], bounds: &[f64]) -> f64 {
    let m = bounds.len();
    let vars = columns.len() + m;
    let column = |v: usize| -> Vec<f64> {
        if v < columns.len() {
            columns[v].clone()
        } else {
            (0..m)
                .map(|k| f64::from(u8::from(k == v - columns.len())))
                .collect()
        }
    };
    let cost = |v: usize| if v < columns.len() { costs[v] } else { 0.0 };
    let mut best: f64 = 0.0;
    let mut basis: Vec<usize> = (0..m).collect();
    loop {
        // Augmented matrix [B | b].
        let mut a: Vec<Vec<f64>> = (0..m)
            .map(|r| {
                basis
                    .iter()
                    .map(|&v| column(v)[r])
                    .chain([bounds[r]])
                    .collect()
            })
            .collect();
        let mut singular = false;
        for c in 0..m {
            let p = (c..m)
                .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
                .unwrap();
            if a[p][c].abs() < 1e-12 {
                singular = true;
                break;
            }
            a.swap(c, p);
            let pivot_row = a[c].clone();
            for (r, row) in a.iter_mut().enumerate() {
                if r != c {
                    let f = row[c] / pivot_row[c];
                    for (x, p) in row.iter_mut().zip(&pivot_row).skip(c) {
                        *x -= f * p;
                    }
                }
            }
        }
        if !singular {
            let x: Vec<f64> = (0..m).map(|r| a[r][m] / a[r][r]).collect();
            if x.iter().all(|&v| v >= -1e-9) {
                best = best.max(basis.iter().zip(&x).map(|(&v, &xv)| cost(v) * xv).sum());
            }
        }
        // Next combination of m variables out of `vars`.
        let mut i = m;
        loop {
            if i == 0 {
                return best;
            }
            i -= 1;
            if basis[i] < vars - m + i {
                basis[i] += 1;
                for j in i + 1..m {
                    basis[j] = basis[j - 1] + 1;
                }
                break;
            }
        }
    }
}

fn lp_is_optimal(instance: Instance) -> TestResult {
    if instance.rho >= 1.0 {
        return TestResult::discard();
    }
    let n = instance.weights.len();
    let m = instance.capacity.len();
    let out = instance.run(instance.rho);
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            instance
                .demand(i)
                .iter()
                .zip(&instance.capacity)
                .map(|(d, r)| d / r)
                .collect()
        })
        .collect();
    let costs: Vec<f64> = (0..n).map(|i| instance.normalized_size(i)).collect();
    let bounds: Vec<f64> = (0..m)
        .map(|k| out.summary.residual.as_slice()[k] / instance.capacity[k])
        .collect();
    let optimum = best_vertex(&columns, &costs, &bounds);
    let achieved: f64 = (0..n).map(|i| out.efficient[i] * costs[i]).sum();
    if (optimum - achieved).abs() > 1e-9 * (1.0 + optimum) {
        return TestResult::error(format!("LP gave {achieved}, vertices give {optimum}"));
    }
    TestResult::passed()
}

#[test]
fn efficiency_stage_reaches_the_best_vertex() {
    QuickCheck::new()
        .tests(400)
        .quickcheck(lp_is_optimal as fn(Instance) -> TestResult);
}
