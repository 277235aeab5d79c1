//! Plots of a report as standalone SVGs, written with plain string formatting: the
//! response-time CDF of every policy (the CFQ paper's Fig. 5) on a logarithmic time axis, and
//! the mean slowdown of every policy in each job-width bin (Fig. 6) on a logarithmic axis. Each
//! is titled with the report's heading: the workload (with its seed), the slots and the offered
//! load.

use crate::metrics::{bin_label, WIDTH_BINS};
use crate::report::Report;
use std::fmt::Write;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 440.0;
/// Left, right, top and bottom margins around the plot area (the title above it).
const MARGIN: [f64; 4] = [60.0, 150.0, 40.0, 50.0];
const COLORS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f",
];

/// The CDF of each policy's response times in `report`.
pub fn response_cdf(report: &Report) -> String {
    let positive = || {
        report
            .summaries
            .iter()
            .flat_map(|s| s.responses.iter().copied())
            .filter(|&r| r > 0.0)
    };
    let low = positive().fold(f64::INFINITY, f64::min);
    let high = positive().fold(0.0, f64::max);
    let (decade_low, decade_high) = if low <= high {
        (
            low.log10().floor(),
            high.log10().ceil().max(low.log10().floor() + 1.0),
        )
    } else {
        (0.0, 1.0)
    };
    let [left, right, top, bottom] = MARGIN;
    let (plot_w, plot_h) = (WIDTH - left - right, HEIGHT - top - bottom);
    let x = |t: f64| {
        left + plot_w * (t.max(10f64.powf(decade_low)).log10() - decade_low)
            / (decade_high - decade_low)
    };
    let y = |p: f64| top + plot_h * (1.0 - p);

    let mut svg = frame(report, "response time (s)", "fraction of jobs");
    for decade in decade_low as i32..=decade_high as i32 {
        let tx = x(10f64.powi(decade));
        let _ = writeln!(
            svg,
            "<line x1=\"{tx:.1}\" y1=\"{top}\" x2=\"{tx:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{tx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">1e{decade}</text>",
            top + plot_h,
            top + plot_h + 18.0,
        );
    }
    for tenth in 0..=10 {
        let p = f64::from(tenth) / 10.0;
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{2:.1}\" y=\"{3:.1}\" text-anchor=\"end\">{p:.1}</text>",
            y(p),
            left + plot_w,
            left - 6.0,
            y(p) + 4.0,
        );
    }
    for (i, summary) in report.summaries.iter().enumerate() {
        let color = color(i);
        let mut sorted = summary.responses.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len() as f64;
        // A step function: up by 1/n at each response time.
        let mut points = format!(
            "{:.1},{:.1}",
            x(sorted.first().copied().unwrap_or(1.0)),
            y(0.0)
        );
        for (k, &r) in sorted.iter().enumerate() {
            let _ = write!(
                points,
                " {0:.1},{1:.1} {0:.1},{2:.1}",
                x(r),
                y(k as f64 / n),
                y((k + 1) as f64 / n)
            );
        }
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\" points=\"{points}\"/>"
        );
        legend(&mut svg, i, &summary.policy);
    }
    svg.push_str("</svg>\n");
    svg
}

/// The mean slowdown of each policy in `report` in each job-width bin, as grouped bars on a
/// logarithmic axis from 1 (a job as fast as alone on the cluster); bins without jobs are
/// left empty.
pub fn slowdown_bars(report: &Report) -> String {
    let highest = report
        .summaries
        .iter()
        .flat_map(|s| s.slowdown.iter().flatten().copied())
        .fold(1.0, f64::max);
    let decades = highest.log10().ceil().max(1.0);
    let [left, right, top, bottom] = MARGIN;
    let (plot_w, plot_h) = (WIDTH - left - right, HEIGHT - top - bottom);
    let y = |slowdown: f64| top + plot_h * (1.0 - slowdown.max(1.0).log10() / decades);
    let mut svg = frame(report, "job width (tasks)", "mean slowdown");
    for decade in 0..=decades as i32 {
        let ty = y(10f64.powi(decade));
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" y1=\"{ty:.1}\" x2=\"{:.1}\" y2=\"{ty:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left + plot_w,
            left - 6.0,
            ty + 4.0,
            10u64.pow(decade as u32),
        );
    }
    let group_w = plot_w / WIDTH_BINS.len() as f64;
    let bar_w = group_w * 0.8 / report.summaries.len().max(1) as f64;
    for bin in 0..WIDTH_BINS.len() {
        let group_x = left + group_w * bin as f64;
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            group_x + group_w / 2.0,
            top + plot_h + 18.0,
            bin_label(bin),
        );
        for (i, summary) in report.summaries.iter().enumerate() {
            if let Some(slowdown) = summary.slowdown[bin] {
                let (bar_x, bar_y) = (group_x + group_w * 0.1 + bar_w * i as f64, y(slowdown));
                let _ = writeln!(
                    svg,
                    "<rect x=\"{bar_x:.1}\" y=\"{bar_y:.1}\" width=\"{bar_w:.1}\" height=\"{:.1}\" \
                     fill=\"{}\"><title>{} {}: {slowdown:.2}</title></rect>",
                    top + plot_h - bar_y,
                    color(i),
                    escape(&summary.policy),
                    bin_label(bin),
                );
            }
        }
    }
    for (i, summary) in report.summaries.iter().enumerate() {
        legend(&mut svg, i, &summary.policy);
    }
    svg.push_str("</svg>\n");
    svg
}

/// The opening of a plot of `report`: the element, its title (for screen readers and shown
/// above the plot), a white background and the axis labels.
fn frame(report: &Report, x_label: &str, y_label: &str) -> String {
    let [left, right, top, bottom] = MARGIN;
    let (plot_w, plot_h) = (WIDTH - left - right, HEIGHT - top - bottom);
    let title = escape(&report.heading());
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>{title}</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">{title}</text>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{x_label}</text>\n\
         <text transform=\"translate(15 {}) rotate(-90)\" text-anchor=\"middle\">{y_label}</text>\n",
        WIDTH / 2.0,
        left + plot_w / 2.0,
        HEIGHT - 10.0,
        top + plot_h / 2.0,
    )
}

/// The color of the `i`-th policy.
fn color(i: usize) -> &'static str {
    COLORS[i % COLORS.len()]
}

/// The `i`-th policy's entry in the legend, right of the plot.
fn legend(svg: &mut String, i: usize, policy: &str) {
    let [_, right, top, _] = MARGIN;
    let legend_y = top + 20.0 * i as f64 + 10.0;
    let _ = writeln!(
        svg,
        "<line x1=\"{0:.1}\" y1=\"{legend_y}\" x2=\"{1:.1}\" y2=\"{legend_y}\" stroke=\"{2}\" stroke-width=\"3\"/>\
         <text x=\"{3:.1}\" y=\"{4:.1}\">{5}</text>",
        WIDTH - right + 15.0,
        WIDTH - right + 35.0,
        color(i),
        WIDTH - right + 42.0,
        legend_y + 4.0,
        escape(policy),
    );
}

/// Text safe inside an SVG element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
