//! The comparison, written as a text table for people or as CSV or JSON for programs.

use crate::machines::{PackSummary, Packer};
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

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A table per report, each with a header line.
    Text,
    /// A header row, then a row per policy of each report.
    Csv,
    /// An array with an object per report.
    Json,
}

/// `reports` in `format`, ending with a newline.
pub fn render(reports: &[Report], format: Format) -> String {
    match format {
        Format::Text => {
            let tables: Vec<String> = reports.iter().map(Report::text).collect();
            tables.join("\n")
        }
        Format::Csv => {
            let mut out = String::from("workload,jobs,slots,load,policy");
            for (name, _) in columns(&Summary::default()) {
                out.push(',');
                out.push_str(name);
            }
            out.push('\n');
            for report in reports {
                report.csv(&mut out);
            }
            out
        }
        Format::Json => {
            let objects: Vec<String> = reports.iter().map(Report::json).collect();
            format!("[{}]\n", objects.join(","))
        }
    }
}

impl Report {
    fn text(&self) -> String {
        let mut out = format!(
            "{}: {} jobs on {} slots, offered load {:.2}; Theorem 1 bound on CFQ's delay: {:.1} s\n\n",
            self.workload, self.jobs, self.slots, self.load, self.delay_bound
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

    /// A row per policy.
    fn csv(&self, out: &mut String) {
        for s in &self.summaries {
            let _ = write!(
                out,
                "{},{},{},{},{}",
                csv_field(&self.workload),
                self.jobs,
                self.slots,
                self.load,
                csv_field(&s.policy)
            );
            for (_, value) in columns(s) {
                let _ = write!(
                    out,
                    ",{}",
                    value.map_or_else(String::new, |x| x.to_string())
                );
            }
            out.push('\n');
        }
    }

    fn json(&self) -> String {
        let policies: Vec<String> = self
            .summaries
            .iter()
            .map(|s| {
                let fields: Vec<String> = columns(s)
                    .iter()
                    .map(|&(name, value)| {
                        format!(
                            "\"{name}\":{}",
                            value.map_or_else(|| "null".to_owned(), json_number)
                        )
                    })
                    .collect();
                format!(
                    "{{\"policy\":{},{}}}",
                    json_string(&s.policy),
                    fields.join(",")
                )
            })
            .collect();
        format!(
            "{{\"workload\":{},\"jobs\":{},\"slots\":{},\"load\":{},\"delay_bound\":{},\"policies\":[{}]}}",
            json_string(&self.workload),
            self.jobs,
            self.slots,
            json_number(self.load),
            json_number(self.delay_bound),
            policies.join(",")
        )
    }
}

/// A summary's figures as CSV columns and JSON fields name them (`None`: a width bin without
/// jobs).
fn columns(s: &Summary) -> [(&'static str, Option<f64>); 9] {
    [
        ("mean_response", Some(s.mean)),
        ("median_response", Some(s.median)),
        ("p95_response", Some(s.p95)),
        ("slowdown_1_10", s.slowdown[0]),
        ("slowdown_11_50", s.slowdown[1]),
        ("slowdown_over_50", s.slowdown[2]),
        ("worst_gps_delay", Some(s.worst_gps_delay)),
        ("makespan", Some(s.makespan)),
        ("utilization", Some(s.utilization)),
    ]
}

/// The packing comparison of `workload` (on `machines`, `bound` the makespan no packer can
/// beat) in `format`, ending with a newline. The speedup is the makespan of QKnobler at ρ = 1
/// over each packer's (the paper's Fig. 6a and 8 normalize to it), when that knob was run.
pub fn render_packing(
    workload: &str,
    machines: &str,
    bound: f64,
    summaries: &[PackSummary],
    format: Format,
) -> String {
    let reference = summaries
        .iter()
        .find(|s| s.packer == Packer::QKnobler(1.0).to_string())
        .map_or(f64::NAN, |s| s.makespan);
    let speedup = |s: &PackSummary| reference / s.makespan;
    let utilization = |s: &PackSummary, separator: &str, each: &dyn Fn(f64) -> String| {
        s.utilization
            .iter()
            .map(|&u| each(u))
            .collect::<Vec<_>>()
            .join(separator)
    };
    match format {
        Format::Text => {
            let mut out = format!(
                "{workload} on {machines}; no makespan below {bound:.1} s\n\n\
                 {:<16} {:>10} {:>8} {:>12}  {:>22}  {}\n\
                 {:<16} {:>10} {:>8} {:>12}  {:>6} {:>6} {:>8}\n",
                "",
                "",
                "speedup",
                "mean",
                "soft fairness",
                "utilization",
                "packer",
                "makespan s",
                "over ρ=1",
                "completion s",
                "mean",
                "max",
                "θ (Th.1)"
            );
            for s in summaries {
                let _ = writeln!(
                    out,
                    "{:<16} {:>10.1} {:>8.3} {:>12.1}  {:>6.3} {:>6.3} {:>8}  {}",
                    s.packer,
                    s.makespan,
                    speedup(s),
                    s.mean_completion,
                    s.soft_fairness.mean,
                    s.soft_fairness.max,
                    s.theta.map_or("-".to_owned(), |t| format!("{t:.3}")),
                    utilization(s, " ", &|u| format!("{:>4.0}%", u * 100.0))
                );
            }
            out
        }
        Format::Csv => {
            let mut out = String::from(
                "workload,machines,packer,makespan,speedup,mean_completion,soft_fairness_mean,\
                 soft_fairness_max,theta,utilization\n",
            );
            for s in summaries {
                let _ = writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{},{}",
                    csv_field(workload),
                    csv_field(machines),
                    csv_field(&s.packer),
                    s.makespan,
                    speedup(s),
                    s.mean_completion,
                    s.soft_fairness.mean,
                    s.soft_fairness.max,
                    s.theta.map_or(String::new(), |t| t.to_string()),
                    utilization(s, ";", &|u| u.to_string())
                );
            }
            out
        }
        Format::Json => {
            let packers: Vec<String> = summaries
                .iter()
                .map(|s| {
                    format!(
                        "{{\"packer\":{},\"makespan\":{},\"speedup\":{},\"mean_completion\":{},\
                         \"soft_fairness\":{{\"mean\":{},\"max\":{}}},\"theta\":{},\
                         \"utilization\":[{}]}}",
                        json_string(&s.packer),
                        json_number(s.makespan),
                        json_number(speedup(s)),
                        json_number(s.mean_completion),
                        json_number(s.soft_fairness.mean),
                        json_number(s.soft_fairness.max),
                        json_number(s.theta.unwrap_or(f64::NAN)),
                        utilization(s, ",", &json_number)
                    )
                })
                .collect();
            format!(
                "{{\"workload\":{},\"machines\":{},\"makespan_bound\":{},\"packers\":[{}]}}\n",
                json_string(workload),
                json_string(machines),
                json_number(bound),
                packers.join(",")
            )
        }
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number (`null` for NaN and infinities, which JSON cannot hold).
fn json_number(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        "null".to_owned()
    }
}
