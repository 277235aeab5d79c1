//! The CFQ paper's results, reproduced at a small scale through the simulator: the worked
//! example of Fig. 2/3 under every policy, CFQ against FAIR and SRPT on the §V-A workload,
//! CFQ's insensitivity to profiling errors (Fig. 8) and the elephant and mice (Fig. 9).

use fairsched_sim::compare;
use fairsched_sim::metrics::{gps_completions, Summary};
use fairsched_sim::policy::{PolicyKind, Profiler};
use fairsched_sim::synthetic::{self, CFQ_PAPER_JOBS, CFQ_PAPER_SLOTS};
use fairsched_sim::workload::{Job, Workload};

/// Fig. 2/3: three slots; job 1 has one 9 s task, job 2 four 4 s tasks, both at 0; job 3 two
/// 4 s tasks at 4.
fn figure_2() -> Workload {
    Workload::new(
        [(0.0, vec![9.0]), (0.0, vec![4.0; 4]), (4.0, vec![4.0; 2])]
            .map(|(arrival, tasks)| Job {
                arrival,
                weight: 1,
                tasks,
            })
            .to_vec(),
    )
}

#[test]
fn figure_2_under_every_policy() {
    let workload = figure_2();
    let completions = |policy: PolicyKind| policy.run(&workload, 3).unwrap().completions;
    // The paper's Fig. 3: CFQ completes the jobs at 9, 12 and 8.
    assert_eq!(
        completions(PolicyKind::Cfq(Profiler::Exact)),
        [9.0, 12.0, 8.0]
    );
    // FIFO keeps both slots on job 2 when job 3 arrives; so does SRPT (8 s of job 2 left to
    // start against job 3's 8 s: the tie goes to the earlier arrival, then 4 s against 8 s).
    assert_eq!(completions(PolicyKind::Fifo), [9.0, 8.0, 12.0]);
    assert_eq!(completions(PolicyKind::Srpt), [9.0, 8.0, 12.0]);
    // FAIR splits the two slots freed at 4 between jobs 2 and 3, then again at 8.
    assert_eq!(completions(PolicyKind::Fair), [9.0, 12.0, 12.0]);
    // GPS, from the core: 7, 11 and 10 1/3.
    assert_eq!(
        gps_completions(&workload, 3).unwrap(),
        [7.0, 11.0, 10.333333333333334]
    );
}

/// The paper's four policies plus CFQ with ±20% and naive profiling, on seed `seed` of the
/// §V-A workload.
fn paper_comparison(seed: u64) -> Vec<Summary> {
    let workload = synthetic::cfq_paper(CFQ_PAPER_JOBS, seed);
    let mut policies = PolicyKind::PAPER.to_vec();
    policies.push(PolicyKind::Cfq(Profiler::Perturbed { error: 0.2, seed }));
    policies.push(PolicyKind::Cfq(Profiler::Naive));
    compare("§V-A", &workload, CFQ_PAPER_SLOTS, &policies)
        .unwrap()
        .summaries
}

/// The mean response time of `policy` over seeds 1 to 3.
fn mean_response(runs: &[Vec<Summary>], policy: &str) -> f64 {
    let means: Vec<f64> = runs
        .iter()
        .map(|summaries| {
            summaries
                .iter()
                .find(|s| s.policy == policy)
                .map(|s| s.mean)
                .unwrap()
        })
        .collect();
    means.iter().sum::<f64>() / means.len() as f64
}

/// §V-B: CFQ's mean response time well below FAIR's and close to SRPT's (the paper: 40% below
/// FAIR in its deployment); with ±20% profiling errors, almost unchanged (Fig. 8); with the
/// naive profiler, about 10% longer.
#[test]
fn cfq_against_fair_and_srpt_on_the_paper_workload() {
    let runs: Vec<Vec<Summary>> = (1..=3).map(paper_comparison).collect();
    let [fifo, fair, srpt, cfq, perturbed, naive] =
        ["FIFO", "FAIR", "SRPT", "CFQ", "CFQ ±20%", "CFQ naive"].map(|p| mean_response(&runs, p));
    eprintln!(
        "mean response over seeds 1-3: FIFO {fifo:.1}, FAIR {fair:.1}, SRPT {srpt:.1}, \
         CFQ {cfq:.1}, CFQ ±20% {perturbed:.1}, CFQ naive {naive:.1}"
    );
    assert!(cfq < 0.9 * fair, "CFQ {cfq} is not well below FAIR {fair}");
    assert!(cfq < fifo, "CFQ {cfq} is not below FIFO {fifo}");
    assert!(cfq <= 1.25 * srpt, "CFQ {cfq} is not close to SRPT {srpt}");
    assert!(
        (perturbed / cfq - 1.0).abs() <= 0.05,
        "±20% profiling errors moved CFQ from {cfq} to {perturbed}"
    );
    assert!(
        naive <= 1.25 * cfq,
        "naive profiling moved CFQ from {cfq} to {naive}"
    );
}

/// The elephant's response time under `policy` with `mice` mice, averaged over seeds 1-5.
fn elephant_response(policy: PolicyKind, mice: usize) -> f64 {
    let responses: Vec<f64> = (1..=5)
        .map(|seed| {
            let (workload, elephant) = synthetic::elephant_and_mice(mice, seed);
            let run = policy.run(&workload, synthetic::ELEPHANT_SLOTS).unwrap();
            run.completions[elephant] - workload.jobs()[elephant].arrival
        })
        .collect();
    responses.iter().sum::<f64>() / responses.len() as f64
}

/// Fig. 9: SRPT's elephant waits longer the more mice there are; CFQ's stays near what it
/// needs alone (2 s: 20 tasks of 2 s on 20 slots).
#[test]
fn elephant_and_mice() {
    let counts = [25, 50, 75, 100, 125];
    let srpt = counts.map(|mice| elephant_response(PolicyKind::Srpt, mice));
    let cfq = counts.map(|mice| elephant_response(PolicyKind::Cfq(Profiler::Exact), mice));
    eprintln!("elephant's response time for {counts:?} mice: SRPT {srpt:.1?}, CFQ {cfq:.1?}");
    assert!(
        srpt.windows(2).all(|w| w[1] >= w[0]),
        "SRPT's elephant does not wait longer with more mice: {srpt:?}"
    );
    assert!(
        srpt[4] > 2.0 * srpt[0],
        "SRPT's elephant barely suffers: {srpt:?}"
    );
    let (low, high) = cfq
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
    assert!(
        high < srpt[4],
        "CFQ's elephant {cfq:?} waits as long as SRPT's {srpt:?}"
    );
    assert!(
        high <= 2.0 * low,
        "CFQ's elephant depends on the mice: {cfq:?}"
    );
}
