//! The PAF paper's static simulation (Chen, Wang, Li: *Performance-Aware Fair Scheduling:
//! Exploiting Demand Elasticity of Data Analytics Jobs*, IEEE INFOCOM 2018; §V-B): 200 jobs with
//! concave progress curves share 800, 2,000 or 8,000 slots; PAF (the core's [`fairsched::paf`],
//! fast method) moves slots from the weighted max-min fair share at α = 0.9 and α = 0.99, and the
//! result is the average progress gain over fair sharing and the largest loss of any job.
//!
//! **The workload** ([`paf_paper`], seeded): the paper gives 200 jobs and Ernest-fitted curves
//! without the numbers, so the rest is chosen here, once, before any run:
//!
//! | per job | value |
//! | --- | --- |
//! | demand (degree of parallelism) | uniform 1-200 slots |
//! | weight | uniform 1-20 |
//! | run time on `x` slots | `t(x) = a0 + a1 x + a2 / x` (Ernest without `ln x`) |
//! | `a2`, the parallel work | 1 |
//! | `a0`, the serial part | log-uniform in `[0.001, 0.1]` (speed-up saturates at 10-1,000 slots) |
//! | `a1`, the per-slot overhead | log-uniform in `[1e-6, 1e-4]` (best size 100-1,000 slots) |
//! | progress on `x` slots | `1 / t(x)`, kept at its running maximum (as the core's [`fairsched::paf::Ernest::tabulate`] does) and normalized to 1 at the demand |
//!
//! Normalizing makes a job's progress the fraction of its best speed, so jobs of different
//! sizes count alike in the average. The demands add up to about 20,000 slots, so every one of
//! the three clusters is contended.

use crate::document::{Comparison, Document, Part, Table};
use crate::rng::SplitMix;
use crate::synthetic::{between, log_uniform};
use fairsched::paf::{Allocation, Curve, Ernest, Inline, Job, Method, Paf};
use std::fmt::Write;

/// Jobs of the paper's simulation (§V-B).
pub const PAF_PAPER_JOBS: usize = 200;
/// The cluster sizes of the paper's simulation.
pub const PAF_PAPER_SLOTS: [u32; 3] = [800, 2_000, 8_000];
/// The fairness knobs of the paper's simulation.
pub const PAF_PAPER_ALPHAS: [f64; 2] = [0.9, 0.99];

/// The paper's average progress gain on 8,000 slots ("up to", §V-B) at each of
/// [`PAF_PAPER_ALPHAS`].
pub const PAF_PAPER_GAINS: [f64; 2] = [0.15, 0.13];

/// The paper's average progress gain on `slots` slots at `alpha`, where it gives one (8,000
/// slots, α = 0.9 and 0.99).
pub fn paper_gain(slots: u32, alpha: f64) -> Option<f64> {
    PAF_PAPER_ALPHAS
        .iter()
        .zip(PAF_PAPER_GAINS)
        .find(|&(&a, _)| slots == 8_000 && a == alpha)
        .map(|(_, gain)| gain)
}

/// Jobs with weights and tabulated progress curves `p(0..=demand)`.
#[derive(Clone, Debug)]
pub struct ProgressJobs {
    /// Weight of each job.
    pub weights: Vec<u32>,
    /// Progress curve of each job, `p(0) = 0` up to `p(demand) = 1`.
    pub curves: Vec<Vec<f64>>,
}

impl ProgressJobs {
    /// The jobs as the core checks them.
    pub fn jobs(&self) -> fairsched::Result<Vec<Job<'_>>> {
        self.weights
            .iter()
            .zip(&self.curves)
            .map(|(&weight, curve)| Job::new(weight, Curve::new(curve)?))
            .collect()
    }
}

/// The §V-B workload of `jobs` jobs (see the module documentation), from `seed`.
pub fn paf_paper(jobs: usize, seed: u64) -> ProgressJobs {
    let mut rng = SplitMix(seed);
    let mut weights = Vec::with_capacity(jobs);
    let mut curves = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        let demand = between(&mut rng, 1, 200);
        weights.push(between(&mut rng, 1, 20) as u32);
        let serial = log_uniform(&mut rng, 1e-3, 0.1);
        let overhead = log_uniform(&mut rng, 1e-6, 1e-4);
        let model =
            Ernest::new([serial, overhead, 1.0, 0.0]).expect("positive, finite coefficients");
        let mut curve = vec![0.0; demand + 1];
        model
            .tabulate(&mut curve)
            .expect("progress far below the core's maximum");
        let best = curve[demand];
        curve.iter_mut().for_each(|p| *p /= best);
        curves.push(curve);
    }
    ProgressJobs { weights, curves }
}

/// PAF against fair sharing on one cluster size at one α.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Slots of the cluster.
    pub slots: u32,
    /// The fairness knob.
    pub alpha: f64,
    /// Average progress under PAF over average progress at the fair shares, minus 1.
    pub gain: f64,
    /// The largest relative loss of a job, `1 - p(paf) / p(fair)`.
    pub largest_loss: f64,
    /// Jobs losing progress.
    pub losers: usize,
    /// Slots moved from givers to takers.
    pub moved: u64,
}

/// The most jobs [`run`] takes.
pub const MAX_JOBS: usize = 256;

/// Allocates `jobs` on `slots` slots at `alpha` with the core's PAF (fast method).
///
/// Errors: the core's ([`fairsched::Error::CapacityFull`] beyond [`MAX_JOBS`] jobs).
pub fn run(jobs: &ProgressJobs, slots: u32, alpha: f64) -> fairsched::Result<Outcome> {
    let checked = jobs.jobs()?;
    let n = checked.len();
    let mut paf = Paf::<Inline<MAX_JOBS>>::new()?;
    let (mut fair, mut min, mut alloc) = (vec![0; n], vec![0; n], vec![0; n]);
    let (mut fair_progress, mut paf_progress) = (vec![0.0; n], vec![0.0; n]);
    let totals = paf.allocate(
        checked.as_slice(),
        slots,
        alpha,
        Method::Fast,
        Allocation {
            fair: &mut fair,
            min: &mut min,
            paf: &mut alloc,
            fair_progress: &mut fair_progress,
            paf_progress: &mut paf_progress,
        },
    )?;
    Ok(Outcome {
        slots,
        alpha,
        gain: totals.paf_progress / totals.fair_progress - 1.0,
        largest_loss: totals.largest_loss,
        losers: fair_progress
            .iter()
            .zip(&paf_progress)
            .filter(|(fair, paf)| paf < fair)
            .count(),
        moved: totals.moved,
    })
}

/// [`run`] on every cluster size of `slots` at every knob of `alphas`, sizes first.
pub fn compare(
    jobs: &ProgressJobs,
    slots: &[u32],
    alphas: &[f64],
) -> fairsched::Result<Vec<Outcome>> {
    slots
        .iter()
        .flat_map(|&s| alphas.iter().map(move |&alpha| run(jobs, s, alpha)))
        .collect()
}

/// The comparison as the `paf` command prints it: `outcomes` on the workload of `jobs` jobs
/// from `seed`, with the paper's figure beside the 8,000-slot rows and a summary line per
/// cluster size and knob.
pub fn document(seed: u64, jobs: usize, outcomes: &[Outcome]) -> Document {
    let title = format!(
        "PAF §V-B workload (seed {seed}): {jobs} jobs, PAF (the core's, fast method) against \
         weighted max-min fair sharing"
    );
    let mut text = format!(
        "{title}\n\n{:>6} {:>5} {:>14} {:>8} {:>14} {:>7} {:>12}\n",
        "slots", "α", "progress gain", "paper", "largest loss", "losers", "slots moved"
    );
    for o in outcomes {
        let paper = paper_gain(o.slots, o.alpha)
            .map_or("-".to_owned(), |gain| format!("≤{:.0}%", gain * 100.0));
        let _ = writeln!(
            text,
            "{:>6} {:>5} {:>13.1}% {:>8} {:>13.2}% {:>7} {:>12}",
            o.slots,
            o.alpha,
            o.gain * 100.0,
            paper,
            o.largest_loss * 100.0,
            o.losers,
            o.moved
        );
    }
    let table = Table {
        name: "paf".to_owned(),
        title: title.clone(),
        context: Vec::new(),
        rows: outcomes
            .iter()
            .map(|o| {
                vec![
                    ("slots", o.slots.into()),
                    ("alpha", o.alpha.into()),
                    ("gain", o.gain.into()),
                    ("paper_gain", paper_gain(o.slots, o.alpha).into()),
                    ("largest_loss", o.largest_loss.into()),
                    ("losers", o.losers.into()),
                    ("moved", o.moved.into()),
                ]
            })
            .collect(),
    };
    let comparisons = outcomes
        .iter()
        .map(|o| {
            Comparison::new(
                "paf",
                Some(&format!("{}_slots", o.slots)),
                (
                    &format!("paf_{}", o.alpha),
                    &format!("PAF α={} on {} slots", o.alpha, o.slots),
                ),
                ("fair", "fair sharing"),
                ("progress", "average progress"),
                o.gain,
            )
            .with_paper(paper_gain(o.slots, o.alpha))
        })
        .collect();
    let parameters = vec![("seed", seed.into()), ("jobs", jobs.into())];
    let part = Part::summarized(table, comparisons, text);
    Document::new("paf", title, parameters, vec![part], "")
}
