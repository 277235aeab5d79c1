//! The Ernest fit (§IV-A): exact recovery from noiseless samples, agreement with an
//! independent NNLS (every active set tried) on noisy ones, and real curves: the Scout HiBench
//! runtimes fitted and fed to PAF.

use fairsched::paf::ernest::{fit, Ernest};
use fairsched::paf::{Curve, Method};
use fairsched::Error;
use fairsched_testkit::paf::allocate;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

fn features(x: u32) -> [f64; 4] {
    let x = f64::from(x);
    [1.0, x, 1.0 / x, x.ln()]
}

fn runtime(a: [f64; 4], x: u32) -> f64 {
    features(x).iter().zip(a).map(|(f, a)| f * a).sum()
}

fn residual(a: [f64; 4], slots: &[u32], y: &[f64]) -> f64 {
    slots
        .iter()
        .zip(y)
        .map(|(&x, y)| (runtime(a, x) - y).powi(2))
        .sum()
}

/// NNLS by brute force: the least-squares fit on every subset of the features (normal
/// equations, Gaussian elimination with partial pivoting), keeping the feasible one with the
/// smallest residual. Exact because the NNLS optimum is the least-squares fit on its support.
fn brute_force(slots: &[u32], y: &[f64]) -> [f64; 4] {
    let mut best = ([0.0; 4], residual([0.0; 4], slots, y));
    for mask in 1u32..16 {
        let cols: Vec<usize> = (0..4).filter(|j| mask >> j & 1 == 1).collect();
        let k = cols.len();
        let mut m = vec![vec![0.0; k + 1]; k];
        for (&x, &yi) in slots.iter().zip(y) {
            let f = features(x);
            for r in 0..k {
                for c in 0..k {
                    m[r][c] += f[cols[r]] * f[cols[c]];
                }
                m[r][k] += f[cols[r]] * yi;
            }
        }
        for c in 0..k {
            let p = (c..k)
                .max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))
                .unwrap();
            m.swap(c, p);
            for r in 0..k {
                if r != c {
                    let factor = m[r][c] / m[c][c];
                    let pivot = m[c].clone();
                    for (e, p) in m[r].iter_mut().zip(pivot).skip(c) {
                        *e -= factor * p;
                    }
                }
            }
        }
        let mut a = [0.0; 4];
        for (r, &j) in cols.iter().enumerate() {
            a[j] = m[r][k] / m[r][r];
        }
        if a.iter().all(|&v| v >= 0.0) {
            let res = residual(a, slots, y);
            if res < best.1 {
                best = (a, res);
            }
        }
    }
    best.0
}

#[test]
fn noiseless_samples_give_back_the_coefficients() {
    let slots: Vec<u32> = (1..=10).collect();
    for a in [
        [0.5, 0.01, 2.0, 0.1],
        [0.2, 0.0, 1.0, 0.0],
        [0.0, 0.002, 3.0, 0.3],
        [1.0, 0.0, 0.0, 0.0],
    ] {
        let y: Vec<f64> = slots.iter().map(|&x| runtime(a, x)).collect();
        let got = fit(&slots, &y).unwrap().coefficients();
        for (g, w) in got.iter().zip(a) {
            assert!((g - w).abs() <= 1e-9 * (1.0 + w), "{got:?} against {a:?}");
        }
    }
}

#[derive(Clone, Debug)]
struct Noisy {
    slots: Vec<u32>,
    runtimes: Vec<f64>,
}

impl Arbitrary for Noisy {
    fn arbitrary(g: &mut Gen) -> Self {
        let a = [0.0, 1.0, 2.0, 3.0]
            .map(|_| f64::from(u8::arbitrary(g) % 50) / 10.0 * f64::from(u8::arbitrary(g) % 2));
        let a = [a[0] + 0.1, a[1] / 50.0, a[2], a[3] / 5.0];
        let mut slots: Vec<u32> = (0..u8::arbitrary(g) % 12 + 4)
            .map(|_| u32::from(u8::arbitrary(g) % 64) + 1)
            .collect();
        slots.sort_unstable();
        slots.dedup();
        let runtimes = slots
            .iter()
            .map(|&x| runtime(a, x) * (1.0 + (f64::from(u8::arbitrary(g)) - 127.5) / 600.0))
            .collect();
        Noisy { slots, runtimes }
    }
}

#[test]
fn noisy_fits_match_an_independent_nnls() {
    fn prop(n: Noisy) -> TestResult {
        let Ok(model) = fit(&n.slots, &n.runtimes) else {
            return TestResult::discard();
        };
        let ours = model.coefficients();
        let theirs = brute_force(&n.slots, &n.runtimes);
        let (r_ours, r_theirs) = (
            residual(ours, &n.slots, &n.runtimes),
            residual(theirs, &n.slots, &n.runtimes),
        );
        if r_ours > r_theirs * (1.0 + 1e-8) + 1e-18 {
            return TestResult::error(format!(
                "residual {r_ours} > {r_theirs}: {ours:?} vs {theirs:?}"
            ));
        }
        let close = ours
            .iter()
            .zip(theirs)
            .all(|(a, b)| (a - b).abs() <= 1e-5 * (1.0 + b.abs()));
        if !close {
            return TestResult::error(format!("{ours:?} vs {theirs:?}"));
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Noisy) -> TestResult);
}

#[test]
fn fit_rejects_what_cannot_determine_a_curve() {
    assert_eq!(
        fit(&[1, 2, 3], &[1.0, 0.6, 0.5]),
        Err(Error::Underdetermined)
    );
    assert_eq!(
        fit(&[2, 2, 4, 4, 8], &[1.0, 1.0, 0.6, 0.6, 0.5]),
        Err(Error::Underdetermined)
    );
    assert_eq!(fit(&[1, 1, 1, 1], &[1.0; 4]), Err(Error::Underdetermined));
    assert_eq!(fit(&[], &[]), Err(Error::Empty));
    assert_eq!(fit(&[1, 2], &[1.0]), Err(Error::LengthMismatch));
    assert_eq!(fit(&[0, 1, 2, 3], &[1.0; 4]), Err(Error::NotPositive));
    assert_eq!(
        fit(&[1, 2, 3, 4], &[1.0, -1.0, 1.0, 1.0]),
        Err(Error::NotPositive)
    );
    assert_eq!(
        fit(&[1, 2, 3, 4], &[1.0, f64::NAN, 1.0, 1.0]),
        Err(Error::NotFinite)
    );
}

#[test]
fn models_are_checked_and_tabulated_without_falling() {
    assert_eq!(
        Ernest::new([0.0, 0.0, 0.0, 1.0]).err(),
        Some(Error::NotPositive)
    );
    assert_eq!(
        Ernest::new([-1.0, 0.0, 1.0, 1.0]).err(),
        Some(Error::Negative)
    );
    assert_eq!(
        Ernest::new([f64::NAN, 0.0, 1.0, 1.0]).err(),
        Some(Error::NotFinite)
    );
    assert_eq!(
        Ernest::new([1e300, 0.0, 1.0, 1.0]).err(),
        Some(Error::OutOfRange)
    );
    // Run time 0.2 + 0.05 x + 2 / x is shortest at x = 6.32: progress rises to 6, then stays.
    let model = Ernest::new([0.2, 0.05, 2.0, 0.0]).unwrap();
    let mut table = [f64::NAN; 21];
    model.tabulate(&mut table).unwrap();
    assert_eq!(table[0], 0.0);
    assert_eq!(table[1], 1.0 / 2.25);
    assert_eq!(table[6], model.progress(6));
    assert!(model.progress(20) < model.progress(7));
    assert!(table[7..]
        .iter()
        .all(|&p| p == table[6].max(model.progress(7))));
    assert!(Curve::new(&table).is_ok());
    assert_eq!(model.tabulate(&mut []), Err(Error::Empty));
    let tiny = Ernest::new([1e-30, 0.0, 1e-30, 0.0]).unwrap();
    let mut untouched = [7.0; 3];
    assert_eq!(tiny.tabulate(&mut untouched), Err(Error::OutOfRange));
    assert_eq!(untouched, [7.0; 3]);
}

/// Scout (Hsu et al.): HiBench/Spark jobs run on 4 to 48 m4.large nodes. Each job's runtimes,
/// normalized by its shortest, are fitted; the curves (one slot per node) go to PAF on a
/// cluster of 240 nodes. Skipped, with a message, when ../shared is not beside the repository.
#[test]
fn scout_hibench_runtimes_fitted_and_allocated() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/traces/scout-hibench-aws/scout_osr_multiple_nodes_runtimes.csv"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("skipped: {path} is absent");
        return;
    };
    let mut series: std::collections::BTreeMap<String, Vec<(u32, f64)>> = Default::default();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|&h| h == name).unwrap();
    let (nodes, vm, workload, framework, size, completed, elapsed) = (
        column("num_nodes"),
        column("vm_type"),
        column("workload"),
        column("framework"),
        column("datasize"),
        column("completed"),
        column("elapsed_time_s"),
    );
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f[vm] != "m4.large" || f[completed] != "true" {
            continue;
        }
        let key = format!("{}/{}/{}", f[workload], f[framework], f[size]);
        series
            .entry(key)
            .or_default()
            .push((f[nodes].parse().unwrap(), f[elapsed].parse().unwrap()));
    }
    let mut curves = Vec::new();
    for (name, points) in &series {
        let shortest = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let slots: Vec<u32> = points.iter().map(|p| p.0).collect();
        let normalized: Vec<f64> = points.iter().map(|p| p.1 / shortest).collect();
        let Ok(model) = fit(&slots, &normalized) else {
            println!("{name}: {} samples do not determine a curve", slots.len());
            continue;
        };
        let mut curve = vec![0.0; 49];
        model.tabulate(&mut curve).unwrap();
        // The least-squares optimum on real data too: an independent NNLS does no better.
        let (ours, theirs) = (
            residual(model.coefficients(), &slots, &normalized),
            residual(brute_force(&slots, &normalized), &slots, &normalized),
        );
        assert!(ours <= theirs * (1.0 + 1e-8), "{name}: {ours} > {theirs}");
        curves.push(curve);
    }
    assert!(
        curves.len() >= 12,
        "only {} Scout series fitted",
        curves.len()
    );
    let weights: Vec<u32> = (0..curves.len() as u32).map(|j| j % 3 + 1).collect();
    let literal = allocate(&weights, &curves, 240, 0.9, Method::Literal).unwrap();
    let fast = allocate(&weights, &curves, 240, 0.9, Method::Fast).unwrap();
    assert_eq!(literal, fast);
    let t = fast.totals;
    assert_eq!(t.slots, 240);
    assert!(t.paf_progress >= t.fair_progress && t.largest_loss <= 0.1 + 1e-12);
    println!(
        "Scout: {} jobs on 240 nodes, α = 0.9: total progress {:.3} fair, {:.3} PAF (+{:.1}%), {} slots moved, largest loss {:.2}%",
        curves.len(),
        t.fair_progress,
        t.paf_progress,
        100.0 * (t.paf_progress / t.fair_progress - 1.0),
        t.moved,
        100.0 * t.largest_loss
    );
}
