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
                warmup: 1.0,
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

/// The load of the comparisons: at the workload's own load (about 0.42) the policies hardly
/// differ (sim/README.md gives the figures the simulator prints).
const LOAD: f64 = 0.9;

/// The paper's four policies plus CFQ with ±20% and naive profiling, on seed `seed` of the
/// §V-A workload at [`LOAD`].
fn paper_comparison(seed: u64) -> Vec<Summary> {
    let workload = synthetic::cfq_paper(CFQ_PAPER_JOBS, seed).at_load(CFQ_PAPER_SLOTS, LOAD);
    let mut policies = PolicyKind::PAPER.to_vec();
    policies.push(PolicyKind::Cfq(Profiler::Perturbed { error: 0.2, seed }));
    policies.push(PolicyKind::Cfq(Profiler::Naive));
    compare("§V-A", &workload, CFQ_PAPER_SLOTS, &policies)
        .unwrap()
        .summaries
}

/// `figure` of `policy`, averaged over the runs.
fn average(runs: &[Vec<Summary>], policy: &str, figure: fn(&Summary) -> f64) -> f64 {
    let values: Vec<f64> = runs
        .iter()
        .map(|summaries| figure(summaries.iter().find(|s| s.policy == policy).unwrap()))
        .collect();
    values.iter().sum::<f64>() / values.len() as f64
}

/// §V-B: CFQ's mean response time below FAIR's (the paper: 40% below, in its deployment) and
/// close to SRPT's; wide jobs much faster than under FAIR (the paper: FAIR's are 3.2 times
/// slower); with ±20% profiling errors, almost unchanged (Fig. 8); with the naive profiler,
/// somewhat longer (the paper: 10%).
#[test]
fn cfq_against_fair_and_srpt_on_the_paper_workload() {
    let runs: Vec<Vec<Summary>> = (1..=3).map(paper_comparison).collect();
    let [fifo, fair, srpt, cfq, perturbed, naive] =
        ["FIFO", "FAIR", "SRPT", "CFQ", "CFQ ±20%", "CFQ naive"]
            .map(|p| average(&runs, p, |s| s.mean));
    let wide = |p| average(&runs, p, |s| s.slowdown[2].unwrap());
    let (fair_wide, cfq_wide) = (wide("FAIR"), wide("CFQ"));
    eprintln!(
        "mean response over seeds 1-3: FIFO {fifo:.1}, FAIR {fair:.1}, SRPT {srpt:.1}, \
         CFQ {cfq:.1}, CFQ ±20% {perturbed:.1}, CFQ naive {naive:.1}; \
         slowdown of jobs over 50 tasks: FAIR {fair_wide:.2}, CFQ {cfq_wide:.2}"
    );
    assert!(cfq < fair, "CFQ {cfq} is not below FAIR {fair}");
    assert!(cfq < fifo, "CFQ {cfq} is not below FIFO {fifo}");
    assert!(cfq <= 1.05 * srpt, "CFQ {cfq} is not close to SRPT {srpt}");
    assert!(
        cfq_wide < 0.75 * fair_wide,
        "wide jobs: CFQ {cfq_wide}, FAIR {fair_wide}"
    );
    assert!(
        (perturbed / cfq - 1.0).abs() <= 0.05,
        "±20% profiling errors moved CFQ from {cfq} to {perturbed}"
    );
    assert!(
        naive <= 1.25 * cfq,
        "naive profiling moved CFQ from {cfq} to {naive}"
    );
}

/// §V-A's sampling applied to the Google 2011 cluster trace's Hawk sub-trace (when this
/// checkout sits beside the folder of public traces): its first 500 jobs on 200 slots, arrivals compressed to [`LOAD`]. CFQ's
/// mean response time well below FAIR's (the paper: 40%) and close to SRPT's; medium and wide
/// jobs much faster than under FAIR (the paper: 2.9 and 3.2 times).
#[test]
fn cfq_against_fair_and_srpt_on_the_google_sub_trace() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/traces/google2011-hawk-subtrace/GOOG_subtrace.tr");
    if !path.exists() {
        eprintln!("skipped: {} is not here", path.display());
        return;
    }
    let workload = fairsched_sim::trace::read_google(&path)
        .unwrap()
        .truncated(CFQ_PAPER_JOBS)
        .at_load(CFQ_PAPER_SLOTS, LOAD);
    let policies = [
        PolicyKind::Fair,
        PolicyKind::Srpt,
        PolicyKind::Cfq(Profiler::Exact),
    ];
    let report = compare("Google", &workload, CFQ_PAPER_SLOTS, &policies).unwrap();
    let [fair, srpt, cfq] = [0, 1, 2].map(|i| &report.summaries[i]);
    eprintln!(
        "Google sub-trace, 500 jobs: mean response FAIR {:.0}, SRPT {:.0}, CFQ {:.0}; \
         slowdown 11-50 FAIR {:.2}, CFQ {:.2}; >50 FAIR {:.2}, CFQ {:.2}",
        fair.mean,
        srpt.mean,
        cfq.mean,
        fair.slowdown[1].unwrap(),
        cfq.slowdown[1].unwrap(),
        fair.slowdown[2].unwrap(),
        cfq.slowdown[2].unwrap()
    );
    assert!(
        cfq.mean < 0.75 * fair.mean,
        "CFQ {} against FAIR {}",
        cfq.mean,
        fair.mean
    );
    assert!(
        cfq.mean <= 1.05 * srpt.mean,
        "CFQ {} against SRPT {}",
        cfq.mean,
        srpt.mean
    );
    for bin in [1, 2] {
        let (fair, cfq) = (fair.slowdown[bin].unwrap(), cfq.slowdown[bin].unwrap());
        assert!(cfq < 0.5 * fair, "bin {bin}: CFQ {cfq} against FAIR {fair}");
    }
}

/// The elephant's response time under `policy` with `mice` mice at `load`, and the most it
/// exceeds its GPS completion by, over seeds 1-5: (mean response, worst delay over the bound).
fn elephant(policy: PolicyKind, mice: usize, load: f64) -> (f64, f64) {
    let slots = synthetic::ELEPHANT_SLOTS;
    let (mut total, mut worst) = (0.0, f64::NEG_INFINITY);
    for seed in 1..=5 {
        let (workload, e) = synthetic::elephant_and_mice(mice, load, seed);
        let done = policy.run(&workload, slots).unwrap().completions[e];
        let gps = gps_completions(&workload, slots).unwrap()[e];
        total += done - workload.jobs()[e].arrival;
        worst = worst.max((done - gps) / workload.delay_bound(slots).unwrap());
    }
    (total / 5.0, worst)
}

/// Fig. 9 on a saturated cluster (load 1): SRPT's elephant waits longer the more mice keep
/// arriving. The paper finds CFQ's elephant unaffected; here it is not (see sim/README.md):
/// what holds is Theorem 1, the elephant never later than its GPS completion plus the bound.
#[test]
fn elephant_and_mice() {
    let counts = [25, 50, 75, 100, 125];
    let srpt = counts.map(|mice| elephant(PolicyKind::Srpt, mice, 1.0).0);
    let cfq = counts.map(|mice| elephant(PolicyKind::Cfq(Profiler::Exact), mice, 1.0));
    eprintln!(
        "elephant's response time for {counts:?} mice: SRPT {srpt:.1?}, CFQ {:.1?}",
        cfq.map(|(response, _)| response)
    );
    assert!(
        srpt[4] > 3.0 * srpt[0],
        "SRPT's elephant does not wait longer with more mice: {srpt:?}"
    );
    for (mice, (_, late)) in counts.iter().zip(cfq) {
        assert!(
            late <= 1.0,
            "{mice} mice: CFQ's elephant late by {late} bounds"
        );
    }
}
