//! One workload replayed under several slot policies, as people read it (a text table, with
//! CFQ's comparisons in summary lines and a legend) and as a table of a
//! [`Document`](crate::document::Document) for programs.

use crate::document::{change, Comparison, Measure, Part, Table};
use crate::metrics::{bin_label, Summary, WIDTH_BINS};
use std::fmt::Write;

/// One workload replayed under several policies.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Where the jobs came from.
    pub workload: String,
    /// Jobs replayed.
    pub jobs: usize,
    /// Slots of the cluster.
    pub slots: u32,
    /// Offered load (see [`crate::workload::Workload::load`]).
    pub load: f64,
    /// Theorem 1's bound on CFQ's delay against GPS.
    pub delay_bound: f64,
    /// One summary per policy, in the order run.
    pub summaries: Vec<Summary>,
}

/// The policies of the replay, as its tables name them.
pub const POLICY_LEGEND: &str = "\
FIFO       first come, first served
FAIR       Spark's fair scheduler: the job with the fewest running tasks per unit of weight first
SRPT       the job with the least work not yet started first
CFQ        the core's Cluster Fair Queueing, told each job's true slot-time
CFQ ±E%    CFQ told each slot-time off by a factor uniform in [1 - E, 1 + E] (--error E)
CFQ naive  CFQ told the paper's naive estimate: the job's tasks times the mean run time of the
           tasks finished so far
";

/// The columns of a report's table.
pub const COLUMN_LEGEND: &str = "\
response time: from a job's arrival to its completion
mean slowdown by width: a job's response time over its response time alone on the cluster,
  averaged over the jobs of 1-10, 11-50 and more than 50 tasks
worst vs GPS: the largest completion minus GPS completion of any job (GPS, the ideal fair
  share, spreads even one task over every slot; Theorem 1 bounds CFQ's delay)
makespan: from the first arrival to the last completion
util: busy slot-time over the slot-time of the makespan
";

/// Whether a policy's name is the one looked for.
type PolicyIs = fn(&str) -> bool;

/// The rows CFQ's summary lines compare, by the identifier their names use, each recognized by
/// its policy's name (CFQ with perturbed profiling names its error).
const ROWS: [(&str, PolicyIs); 5] = [
    ("cfq", |policy| policy == "CFQ"),
    ("fair", |policy| policy == "FAIR"),
    ("srpt", |policy| policy == "SRPT"),
    ("cfq_perturbed", |policy| policy.starts_with("CFQ ±")),
    ("cfq_naive", |policy| policy == "CFQ naive"),
];

/// CFQ against FAIR and SRPT, and CFQ's inexact profilers against the exact one.
const PAIRS: [(&str, &str); 4] = [
    ("cfq", "fair"),
    ("cfq", "srpt"),
    ("cfq_perturbed", "cfq"),
    ("cfq_naive", "cfq"),
];

/// What the pairs are compared on.
const MEASURES: [Measure<Summary>; 2] = [
    ("mean_response", "mean response time", |s| s.mean),
    ("p95_response", "p95", |s| s.p95),
];

impl Report {
    /// What was replayed where: the table's heading, and a plot's title.
    pub fn heading(&self) -> String {
        format!(
            "{}: {} jobs on {} slots, offered load {:.2}",
            self.workload, self.jobs, self.slots, self.load
        )
    }

    /// The table as people read it.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{}; Theorem 1 bound on CFQ's delay: {:.1} s\n\n",
            self.heading(),
            self.delay_bound
        );
        let bins: Vec<String> = (0..WIDTH_BINS.len()).map(bin_label).collect();
        let _ = writeln!(
            out,
            "{:<10} {:^29}  {:^29}  {:>11}",
            "", "response time", "mean slowdown by width", "worst vs"
        );
        let _ = writeln!(
            out,
            "{:<10} {:>9} {:>9} {:>9}  {:>9} {:>9} {:>9}  {:>11} {:>10} {:>5}",
            "policy",
            "mean s",
            "median s",
            "p95 s",
            bins[0],
            bins[1],
            bins[2],
            "GPS s",
            "makespan s",
            "util",
        );
        for s in &self.summaries {
            let slowdown = s
                .slowdown
                .map(|x| x.map_or_else(|| "-".to_owned(), |x| format!("{x:.2}")));
            let _ = writeln!(
                out,
                "{:<10} {:>9.1} {:>9.1} {:>9.1}  {:>9} {:>9} {:>9}  {:>+11.1} {:>10.1} {:>4.0}%",
                s.policy,
                s.mean,
                s.median,
                s.p95,
                slowdown[0],
                slowdown[1],
                slowdown[2],
                s.worst_gps_delay,
                s.makespan,
                s.utilization * 100.0,
            );
        }
        out
    }

    /// The report as the table `name` of a document, with CFQ's comparisons (against FAIR and
    /// SRPT, and its perturbed and naive profilers against it, on the mean and 95th percentile
    /// of the response times, where both rows were run) in summary lines below its text.
    pub fn part(&self, name: &str) -> Part {
        let table = Table {
            name: name.to_owned(),
            title: self.heading(),
            context: vec![
                ("workload", self.workload.as_str().into()),
                ("jobs", self.jobs.into()),
                ("slots", self.slots.into()),
                ("load", self.load.into()),
                ("delay_bound", self.delay_bound.into()),
            ],
            rows: self
                .summaries
                .iter()
                .map(|s| {
                    vec![
                        ("policy", s.policy.as_str().into()),
                        ("mean_response", s.mean.into()),
                        ("median_response", s.median.into()),
                        ("p95_response", s.p95.into()),
                        ("slowdown_1_10", s.slowdown[0].into()),
                        ("slowdown_11_50", s.slowdown[1].into()),
                        ("slowdown_over_50", s.slowdown[2].into()),
                        ("worst_gps_delay", s.worst_gps_delay.into()),
                        ("makespan", s.makespan.into()),
                        ("utilization", s.utilization.into()),
                    ]
                })
                .collect(),
        };
        let row = |id: &str| {
            let (_, is) = ROWS.iter().find(|(row, _)| *row == id)?;
            self.summaries.iter().find(|s| is(&s.policy))
        };
        let mut comparisons = Vec::new();
        for (subject, baseline) in PAIRS {
            let (Some(ours), Some(theirs)) = (row(subject), row(baseline)) else {
                continue;
            };
            for (measure, label, figure) in MEASURES {
                comparisons.push(Comparison::new(
                    name,
                    Some(name),
                    (subject, &ours.policy),
                    (baseline, &theirs.policy),
                    (measure, label),
                    change(figure(ours), figure(theirs)),
                ));
            }
        }
        Part::summarized(table, comparisons, self.text())
    }
}
