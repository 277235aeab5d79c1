//! ReB's allocators over time at a small scale: two jobs computed by hand, no job left
//! waiting by HAI, the cores never over-allocated, and the directions of the comparison
//! (sim/README.md) with margins far from what the seeds give.

mod common;

use common::check_document;
use fairsched_sim::document::Format;
use fairsched_sim::reb::RebMethod;
use fairsched_sim::reb::{JctTables, REB_CORES};
use fairsched_sim::reb_dynamic::{
    at_once, compare, document, poisson, simulate, summarize, Arrivals, Policy, Row, Scenario,
    POLICIES,
};

/// `JCT(a) = w / a + c a` for `a = 1..=2 A*` (`w = c A*²`), `+∞` on no core, as
/// `reb_batch` builds it.
fn table(optimum: u32, overhead: f64) -> Vec<f64> {
    let work = overhead * f64::from(optimum * optimum);
    std::iter::once(f64::INFINITY)
        .chain((1..=2 * optimum).map(|a| work / f64::from(a) + overhead * f64::from(a)))
        .collect()
}

/// `policy`'s runs of `make(seed)` for each of `seeds`, summarized as a row of `scenario`.
fn row(
    scenario: Scenario,
    make: impl Fn(u64) -> Arrivals,
    seeds: std::ops::RangeInclusive<u64>,
    policy: Policy,
) -> Row {
    let runs: Vec<_> = seeds
        .map(|seed| simulate(&make(seed), policy).unwrap())
        .collect();
    summarize(scenario, policy, &runs)
}

/// Job 0 (`A* = 150`, `c = 1`: `w = 22,500`, `D = 300` s) from time 0, and job 1 (`A* = 100`,
/// `c = 1`: `w = 10,000`, `D = 200` s) from `second`.
fn two_jobs(second: f64) -> Arrivals {
    let mut jct = table(150, 1.0);
    jct.extend(table(100, 1.0));
    Arrivals {
        arrivals: vec![0.0, second],
        tables: JctTables {
            caps: vec![300, 200],
            jct,
        },
    }
}

/// [`two_jobs`] with job 1 at 10 s, when job 0 has 29/30 of its work left.
#[test]
fn two_jobs_by_hand() {
    let jobs = two_jobs(10.0);
    // (job 0's completion, job 1's) for each policy.
    let by_hand = [
        // HAI, both ways: job 0 holds its optimum, 150; at 10 s job 1 takes the 50 free cores,
        // then 30 more from job 0 while its JCT falls more than job 0's remaining JCT
        // (29/30)(22,500 / a + a) rises: 81 → 80 saves 10,000/80 - 10,000/81 - 1 = 0.543 s
        // but costs job 0 (29/30)(22,500/119 - 22,500/120 - 1) = 0.556 s. Job 1 runs on 80
        // (JCT 205 s) to 215 s; job 0 on 120 (JCT 307.5 s) does 2/3 meanwhile, so 3/10 is left
        // and it takes its optimum back: 0.3 · 300 = 90 s more.
        (Policy::HaiRebalance, 305.0, 215.0),
        (Policy::Replan(RebMethod::Hai), 305.0, 215.0),
        // Shortest remaining optimum first: job 1 (200 s against 290 s) gets 100, job 0 the
        // other 100 (JCT 325 s) until 210 s, leaving 29/30 - 200/325 = 137/390 at 300 s.
        (
            Policy::Replan(RebMethod::ShortestJobOptimal),
            210.0 + 137.0 / 390.0 * 300.0,
            210.0,
        ),
        // Job 0 alone takes all 200 cores (JCT 312.5 s), then 100 each (JCT 325 s and 200 s);
        // at 210 s job 0 has 1 - 10/312.5 - 200/325 left, on 200 cores again.
        (
            Policy::Replan(RebMethod::MaxMin),
            210.0 + (1.0 - 10.0 / 312.5 - 200.0 / 325.0) * 312.5,
            210.0,
        ),
    ];
    for (policy, first, second) in by_hand {
        let run = simulate(&jobs, policy).unwrap();
        assert!((run.jct[0] - first).abs() < 1e-9, "{policy}: {:?}", run.jct);
        assert!(
            (run.jct[1] - (second - 10.0)).abs() < 1e-9,
            "{policy}: {:?}",
            run.jct
        );
        assert!((run.makespan - first.max(second)).abs() < 1e-9, "{policy}");
        assert!(run.waited.iter().all(|&w| w == 0.0), "{policy}");
    }
}

/// [`two_jobs`] with job 1 at 120 s: job 0's remaining 0.6 · 300 = 180 s is now the shorter,
/// so it keeps its optimum (on whole tables job 1's 200 s would come first). Job 1 gets the
/// other 50 cores (JCT 250 s) and does 180/250 by 300 s, then the rest on 100: 0.28 · 200.
#[test]
fn shortest_job_optimal_orders_by_remaining_jct() {
    let run = simulate(
        &two_jobs(120.0),
        Policy::Replan(RebMethod::ShortestJobOptimal),
    )
    .unwrap();
    assert!((run.jct[0] - 300.0).abs() < 1e-9, "{:?}", run.jct);
    assert!((run.jct[1] - (356.0 - 120.0)).abs() < 1e-9, "{:?}", run.jct);
}

#[test]
fn hai_leaves_no_job_waiting_and_no_policy_exceeds_the_cores() {
    let workloads: Vec<Arrivals> = (1..=2)
        .flat_map(|seed| [at_once(50, seed), poisson(150, 1.5, seed)])
        .collect();
    for jobs in &workloads {
        for policy in POLICIES {
            let run = simulate(jobs, policy).unwrap();
            assert!(run.peak_cores <= REB_CORES, "{policy}: {}", run.peak_cores);
            assert!(run.peak_cores > 0, "{policy}");
            assert!(
                run.jct.iter().all(|t| t.is_finite() && *t > 0.0),
                "{policy}"
            );
            if matches!(
                policy,
                Policy::HaiRebalance | Policy::Replan(RebMethod::Hai)
            ) {
                assert!(run.waited.iter().all(|&w| w == 0.0), "{policy}");
            }
        }
    }
}

/// 50 jobs at once, seeds 1-3 (the README's table: 20 seeds). Measured: shortest-job-optimal's
/// p95 1.47× HAI's, its makespan 1.57×, 71% of its jobs waiting; max-min's mean 0.86× HAI's.
#[test]
fn fifty_jobs_at_once() {
    let row = |policy| {
        row(
            Scenario::AtOnce(50),
            |seed| at_once(50, seed),
            1..=3,
            policy,
        )
    };
    let hai = row(Policy::HaiRebalance);
    let start = row(Policy::Replan(RebMethod::ShortestJobOptimal));
    let equal = row(Policy::Replan(RebMethod::MaxMin));
    assert!(start.p95 > 1.2 * hai.p95, "{start:?}\n{hai:?}");
    assert!(start.makespan > 1.2 * hai.makespan, "{start:?}\n{hai:?}");
    assert!(start.waited > 0.4, "{start:?}");
    // Not the paper's direction (sim/README.md): the equal split wins on the mean here.
    assert!(equal.mean < 0.95 * hai.mean, "{equal:?}\n{hai:?}");
}

/// Poisson arrivals at load 1.5, 300 jobs, seeds 1-2 (the README's table: 500 jobs, 20 seeds).
/// Measured: shortest-job-optimal's mean 2.5× HAI's (its queue grows with the run: 1.7× on
/// 150 jobs, 3.7× on 500).
#[test]
fn poisson_at_load_one_and_a_half() {
    let row = |policy| {
        row(
            Scenario::Poisson(1.5),
            |seed| poisson(300, 1.5, seed),
            1..=2,
            policy,
        )
    };
    let hai = row(Policy::HaiRebalance);
    let start = row(Policy::Replan(RebMethod::ShortestJobOptimal));
    assert!(start.mean > 1.5 * hai.mean, "{start:?}\n{hai:?}");
    assert_eq!(hai.waited, 0.0);
}

/// The `reb-dynamic` command's document (two runs of two batch sizes here; the command runs
/// 20 of seven workloads): a row per workload and policy, and HAI rebalancing against
/// shortest-job-optimal and max-min on each workload, in the JSON and in a summary line.
#[test]
fn the_document_compares_hai_rebalancing_on_each_workload() {
    let rows = compare(&[Scenario::AtOnce(10), Scenario::Poisson(0.9)], 2, 5).unwrap();
    let document = document(&rows, 2, 5);
    assert!(document.text.starts_with("ReB over time (seeds 5-6): "));
    let row = [
        "workload",
        "jobs",
        "load",
        "policy",
        "mean",
        "median",
        "p95",
        "makespan",
        "mean_wait",
        "max_wait",
        "waited",
        "peak_cores",
    ];
    let (json, names) = check_document(
        &document.render(Format::Json),
        "reb-dynamic",
        &[("reb_dynamic", &row)],
        Some(&document.text),
    );
    assert_eq!(
        names,
        [
            "hai_rebalance_vs_shortest_job_optimal.mean@10_at_once",
            "hai_rebalance_vs_max_min.mean@10_at_once",
            "hai_rebalance_vs_shortest_job_optimal.mean@load_0.9",
            "hai_rebalance_vs_max_min.mean@load_0.9",
        ]
    );
    let table = &json["tables"][0]["rows"];
    assert_eq!(
        (&table[0]["jobs"], &table[0]["load"]),
        (&10.into(), &serde_json::Value::Null)
    );
    assert_eq!(
        (&table[4]["jobs"], &table[4]["load"]),
        (&500.into(), &0.9.into())
    );
    let value = json["comparisons"][1]["value"].as_f64().unwrap();
    assert!((value - (rows[0].mean / rows[3].mean - 1.0)).abs() < 1e-15);
}
