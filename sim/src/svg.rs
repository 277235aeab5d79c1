//! The response-time CDF of every policy (the CFQ paper's Fig. 5) as a standalone SVG, on a
//! logarithmic time axis, written with plain string formatting.

use crate::report::Report;
use std::fmt::Write;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 440.0;
/// Left, right, top and bottom margins around the plot area.
const MARGIN: [f64; 4] = [60.0, 150.0, 20.0, 50.0];
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

    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">response time (s)</text>\n\
         <text transform=\"translate(15 {}) rotate(-90)\" text-anchor=\"middle\">fraction of jobs</text>\n",
        left + plot_w / 2.0,
        HEIGHT - 10.0,
        top + plot_h / 2.0,
    );
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
        let color = COLORS[i % COLORS.len()];
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
        let legend_y = top + 20.0 * i as f64 + 10.0;
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\" points=\"{points}\"/>\n\
             <line x1=\"{0:.1}\" y1=\"{legend_y}\" x2=\"{1:.1}\" y2=\"{legend_y}\" stroke=\"{color}\" stroke-width=\"3\"/>\
             <text x=\"{2:.1}\" y=\"{3:.1}\">{4}</text>",
            WIDTH - right + 15.0,
            WIDTH - right + 35.0,
            WIDTH - right + 42.0,
            legend_y + 4.0,
            escape(&summary.policy),
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Text safe inside an SVG element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
