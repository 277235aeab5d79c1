//! Elasecutor's executors with time-varying demand (Liu, Xu: *Elasecutor: Elastic Executor
//! Scheduling in Data Analytics Systems*, IEEE/ACM Transactions on Networking, 2021): a
//! hand-checked case, the model's invariants on the paper's workload at a fifth of its scale,
//! and how MinFrag with DRR compares with TRC (Table XI) and Tetris (§V-B).

mod common;

use common::check_document;
use fairsched_sim::document::Format;
use fairsched_sim::elastic::workload::{
    elasecutor_paper, ELASTIC_MACHINE, ELASTIC_MACHINES, ELASTIC_NEW, ELASTIC_RECURRING, KINDS,
    STEP_SECONDS,
};
use fairsched_sim::elastic::{
    compare, document, run, App, ElasticRun, Placement, Policy, Reservation, DRR, POLICIES, TETRIS,
    TETRIS_SERIES, TRC,
};

fn app(executors: u32, demand: &[f64]) -> App {
    App {
        arrival: 0,
        executors,
        demand: demand.to_vec(),
    }
}

fn at(app: usize, machine: usize, start: u32) -> Placement {
    Placement {
        app,
        machine,
        start,
    }
}

/// Two machines of ⟨4, 4⟩; three one-executor applications at step 0: A ⟨1,1⟩ then ⟨3,3⟩,
/// B ⟨3,3⟩ then ⟨1,1⟩, C ⟨4,4⟩ for two steps.
///
/// MinFrag (DRR): on the empty machine 0 C leaves nothing idle (θ = 0, A and B 1/2): C.
/// Machine 1: A and B tie at 1/2, A by index; then B fills exactly what A leaves (θ = 0).
/// Everything ends at step 2, every kind used fully. TRC (sums 1 and 0) and Tetris' alignment
/// on the series choose alike. Tetris reserving the peak: C first (alignment 2 against 1.5),
/// then A holds ⟨3,3⟩ for both steps and B's peak no longer fits: B waits for step 2, on
/// machine 0 (its heartbeat comes first), and ends at 4.
#[test]
fn two_machines_three_executors() {
    let machines = vec![vec![4.0, 4.0]; 2];
    let apps = [
        app(1, &[1.0, 1.0, 3.0, 3.0]),
        app(1, &[3.0, 3.0, 1.0, 1.0]),
        app(1, &[4.0, 4.0, 4.0, 4.0]),
    ];
    let elastic = ElasticRun {
        placements: vec![at(2, 0, 0), at(0, 1, 0), at(1, 1, 0)],
        completions: vec![2, 2, 2],
        makespan: 2,
        utilization: vec![1.0, 1.0],
    };
    for policy in POLICIES.into_iter().filter(|&p| p != TETRIS) {
        assert_eq!(run(&machines, &apps, policy).unwrap(), elastic, "{policy}");
    }
    let peak = run(&machines, &apps, TETRIS).unwrap();
    assert_eq!(
        peak,
        ElasticRun {
            placements: vec![at(2, 0, 0), at(0, 1, 0), at(1, 0, 2)],
            completions: vec![2, 4, 2],
            makespan: 4,
            utilization: vec![0.5, 0.5],
        }
    );
}

/// The metric is the core's: one machine of ⟨4, 4⟩, X ⟨4, 0⟩ and Y ⟨2, 2⟩ for a step each.
/// DRR takes Y (largest idle share 1/2 against X's 1); TRC's sums tie at 1 and the lower
/// index, X, goes first. Either way the other waits a step.
#[test]
fn drr_and_trc_choose_differently() {
    let machines = vec![vec![4.0, 4.0]];
    let apps = [app(1, &[4.0, 0.0]), app(1, &[2.0, 2.0])];
    let drr = run(&machines, &apps, DRR).unwrap();
    assert_eq!(drr.placements, [at(1, 0, 0), at(0, 0, 1)]);
    let trc = run(&machines, &apps, TRC).unwrap();
    assert_eq!(trc.placements, [at(0, 0, 0), at(1, 0, 1)]);
    assert_eq!((drr.makespan, trc.makespan), (2, 2));
}

/// Identical executors of one application go in as copies: four of ⟨1⟩ fill a machine of ⟨4⟩
/// in one heartbeat, and a fifth waits.
#[test]
fn copies_of_an_application_start_together() {
    let runs = run(&[vec![4.0]], &[app(5, &[1.0, 1.0])], DRR).unwrap();
    let starts: Vec<u32> = runs.placements.iter().map(|p| p.start).collect();
    assert_eq!(starts, [0, 0, 0, 0, 2]);
    assert_eq!(runs.makespan, 4);
}

#[test]
fn an_executor_that_never_fits_is_refused() {
    let too_big = [app(1, &[5.0, 1.0])];
    let too_long = [app(1, &vec![1.0; 2 * 257])];
    for apps in [&too_big[..], &too_long[..]] {
        for policy in POLICIES {
            assert_eq!(
                run(&[vec![4.0, 4.0]], apps, policy),
                Err(fairsched::Error::OutOfRange)
            );
        }
    }
    assert_eq!(
        run(&[vec![4.0, 4.0]], &[app(1, &[1.0, 1.0, 1.0])], DRR),
        Err(fairsched::Error::LengthMismatch)
    );
}

/// A fifth of the paper's scale: 7 machines, 24 recurring and 2 new applications.
fn small(seed: u64, run: u64) -> Vec<App> {
    elasecutor_paper(ELASTIC_RECURRING / 5, ELASTIC_NEW / 5, seed, run)
}

fn small_machines() -> Vec<Vec<f64>> {
    vec![ELASTIC_MACHINE.to_vec(); ELASTIC_MACHINES / 5]
}

/// Every executor of every application starts once, after its application arrives, and no
/// machine holds more than its capacity of any kind at any step: neither in what the policy
/// reserves nor in what the executors use. Checked from the placements alone.
#[test]
fn every_executor_runs_and_no_machine_is_ever_over_capacity() {
    let machines = small_machines();
    for seed in [1] {
        let apps = small(seed, 1);
        for policy in POLICIES {
            let result = run(&machines, &apps, policy).unwrap();
            let mut started = vec![0u32; apps.len()];
            let span = result.makespan as usize;
            let mut used = vec![vec![[0.0; KINDS]; span]; machines.len()];
            let mut held = used.clone();
            for p in &result.placements {
                let app = &apps[p.app];
                assert!(p.start >= app.arrival, "{policy}: {p:?} before its arrival");
                started[p.app] += 1;
                let peak = app.peak(KINDS);
                for (t, row) in app.demand.chunks_exact(KINDS).enumerate() {
                    let step = p.start as usize + t;
                    for r in 0..KINDS {
                        used[p.machine][step][r] += row[r];
                        held[p.machine][step][r] += match policy.reservation {
                            Reservation::Series => row[r],
                            Reservation::Peak => peak[r],
                        };
                    }
                }
            }
            for (a, app) in apps.iter().enumerate() {
                assert_eq!(started[a], app.executors, "{policy}: application {a}");
            }
            for (m, capacity) in machines.iter().enumerate() {
                for step in 0..span {
                    for r in 0..KINDS {
                        let at =
                            format!("{policy}, seed {seed}: machine {m}, step {step}, kind {r}");
                        assert!(held[m][step][r] <= capacity[r] * (1.0 + 1e-12), "{at}");
                        assert!(used[m][step][r] <= held[m][step][r] * (1.0 + 1e-12), "{at}");
                    }
                }
            }
            assert!(result.utilization.iter().all(|&u| u > 0.0 && u <= 1.0));
        }
    }
}

/// The comparison on the small workload, run 1 of workloads 1-3 (DRR's makespan over TRC's
/// ranges 0.93-1.09 over 30 runs of workloads 1-10, over Tetris' 0.49-0.63). Against Tetris
/// as the paper runs it (peak reserved) DRR's makespan is far shorter (§V-B: about 60%; here
/// 45%). Table XI's gain over TRC does not reproduce: the two stay within a few percent of
/// each other with no consistent winner, and so does the alignment once it reserves the
/// series (sim/README.md says why). The test states that: DRR below 3/4 of Tetris (here
/// 0.55), and DRR's mean makespan over TRC's and the alignment's between 0.92 (Table XI has
/// 0.885) and 1.15 (here 1.04 and 0.99).
#[test]
fn drr_against_trc_and_tetris() {
    let runs: Vec<Vec<App>> = (1..=3).map(|seed| small(seed, 1)).collect();
    let summaries = compare(&small_machines(), &runs, &POLICIES, STEP_SECONDS).unwrap();
    eprintln!(
        "{}",
        document("workloads 1-3, run 1", Vec::new(), &summaries).text
    );
    let mean = |policy: Policy| {
        summaries
            .iter()
            .find(|s| s.policy == policy)
            .unwrap()
            .mean()
    };
    let drr = mean(DRR);
    assert!(
        drr < 0.75 * mean(TETRIS),
        "DRR {drr}, Tetris {}",
        mean(TETRIS)
    );
    for other in [TRC, TETRIS_SERIES] {
        let ratio = drr / mean(other);
        assert!((0.92..1.15).contains(&ratio), "DRR over {other}: {ratio}");
    }
}

/// The `elastic` command's document (one run at a fifth of the scale here): a row per policy,
/// and DRR against each other policy on the six figures of Table XI, which the text shows as
/// reductions beside the paper's.
#[test]
fn the_document_holds_drrs_reductions() {
    let summaries = compare(&small_machines(), &[small(1, 1)], &POLICIES, STEP_SECONDS).unwrap();
    let document = document("a fifth", vec![("seed", 1u64.into())], &summaries);
    let row = [
        "policy",
        "makespan_mean",
        "makespan_median",
        "makespan_std",
        "act_p50",
        "act_p90",
        "act_p99",
        "utilization_cpu",
        "utilization_memory",
        "utilization_network",
        "utilization_disk",
    ];
    let (json, names) = check_document(
        &document.render(Format::Json),
        "elastic",
        &[("elastic", &row)],
        None,
    );
    assert_eq!(names.len(), 18);
    let comparisons = json["comparisons"].as_array().unwrap();
    let find = |name: &str| comparisons.iter().find(|c| c["name"] == name).unwrap();
    let trc = find("minfrag_drr_vs_minfrag_trc.makespan_mean");
    assert_eq!(trc["paper"], -0.115);
    assert_eq!(
        find("minfrag_drr_vs_tetris_peak.makespan_median")["paper"],
        -0.6
    );
    assert!(find("minfrag_drr_vs_tetris_peak.act_p50")["paper"].is_null());
    assert!(find("minfrag_drr_vs_tetris_series.act_p99")["paper"].is_null());
    // The text's reduction is the comparison's value, the other way round, in percent.
    let value = trc["value"].as_f64().unwrap();
    let line = document
        .text
        .lines()
        .find(|l| l.starts_with("  against MinFrag TRC"))
        .unwrap();
    assert!(
        line.starts_with(&format!("  against MinFrag TRC   {:>6.1}", -100.0 * value)),
        "{line}"
    );
    let rows = &json["tables"][0]["rows"];
    assert_eq!(
        (&rows[0]["policy"], &rows[1]["policy"]),
        (&"MinFrag DRR".into(), &"MinFrag TRC".into())
    );
    let mean = |row: usize| rows[row]["makespan_mean"].as_f64().unwrap();
    assert!((value - (mean(0) / mean(1) - 1.0)).abs() < 1e-15);
}
