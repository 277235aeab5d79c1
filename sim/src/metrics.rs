//! What a run is judged by (CFQ paper §V-A): response times, slowdown by job width, the worst
//! delay against GPS, makespan and utilization.
//!
//! The GPS reference is the core's: every job arrives in a [`fairsched::cfq::Cfq`] with its
//! true slot-time and no task to run, and the clock is advanced until GPS has completed them
//! all. GPS does not depend on the real system, so one reference serves every policy.

use crate::cluster::Run;
use crate::memory::CfqMemory;
use crate::workload::{Job, Workload};

/// The job width bins of the paper's Fig. 6 and 10: narrow, medium and wide jobs.
pub const WIDTH_BINS: [(usize, usize); 3] = [(1, 10), (11, 50), (51, usize::MAX)];

/// The label of width bin `bin` ("1-10", "11-50", ">50").
pub fn bin_label(bin: usize) -> String {
    match WIDTH_BINS.get(bin) {
        Some(&(low, usize::MAX)) => format!(">{}", low - 1),
        Some(&(low, high)) => format!("{low}-{high}"),
        None => String::new(),
    }
}

/// Each job's completion time in GPS on `slots` slots, by index, from the core.
pub fn gps_completions(workload: &Workload, slots: u32) -> fairsched::Result<Vec<f64>> {
    let jobs = workload.jobs();
    let (Some(first), Some(last)) = (jobs.first(), jobs.last()) else {
        return Ok(Vec::new());
    };
    let mut memory = CfqMemory::new(jobs.len());
    let mut gps = memory.cfq(slots, first.arrival)?;
    for (j, job) in jobs.iter().enumerate() {
        gps.arrive(job.arrival, j as u64, job.slot_time(), job.weight)?;
    }
    // GPS is work-conserving: the last job is done once all the work could have been done
    // on every slot after the last arrival. The margin absorbs rounding.
    let end = last.arrival + workload.total_work() / f64::from(slots);
    gps.advance(end + end.abs() * 1e-9 + 1.0)?;
    (0..jobs.len())
        .map(|j| {
            let info = gps.job(j as u64)?;
            // Unreachable: GPS has completed every job by `end`.
            info.gps_completion.ok_or(fairsched::Error::Underdetermined)
        })
        .collect()
}

/// The response time of `job` alone on `slots` slots, its tasks started in order on the first
/// free slot: the denominator of the slowdown. A slot's first task runs cold, the later ones
/// warm (divided by the job's [`Job::warmup`]), as in the cluster. The core computes it
/// ([`fairsched::paf::profile::makespan`]); its errors are the core's (no task, no slot, a
/// duration or warm-up factor outside its domain).
pub fn alone(job: &Job, slots: u32) -> fairsched::Result<f64> {
    let mut scratch = vec![0.0; job.tasks.len().min(slots as usize)];
    fairsched::paf::profile::makespan(&job.tasks, job.warmup, slots, &mut scratch)
}

/// One policy's run, summarized.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The policy's name.
    pub policy: String,
    /// Response times: mean, median and 95th percentile (nearest rank).
    pub mean: f64,
    /// Median response time.
    pub median: f64,
    /// 95th percentile of the response times.
    pub p95: f64,
    /// Mean slowdown (response time over [`alone`]) in each of [`WIDTH_BINS`]; `None` for a
    /// bin without jobs.
    pub slowdown: [Option<f64>; 3],
    /// The largest `completion - GPS completion` of any job (negative when every job finished
    /// ahead of GPS).
    pub worst_gps_delay: f64,
    /// From the first arrival to the last completion.
    pub makespan: f64,
    /// Busy slot-time over the slot-time available during the makespan.
    pub utilization: f64,
    /// Every job's response time, by index.
    pub responses: Vec<f64>,
}

impl Summary {
    /// Summarizes `run` of `workload` on `slots` slots, against the GPS completions `gps`.
    /// Errors are [`alone`]'s.
    pub fn of(
        policy: String,
        workload: &Workload,
        slots: u32,
        run: &Run,
        gps: &[f64],
    ) -> fairsched::Result<Self> {
        let jobs = workload.jobs();
        let responses: Vec<f64> = jobs
            .iter()
            .zip(&run.completions)
            .map(|(job, done)| done - job.arrival)
            .collect();
        let mut sorted = responses.clone();
        sorted.sort_by(f64::total_cmp);
        let mut bins = [(0.0, 0usize); 3];
        for (job, response) in jobs.iter().zip(&responses) {
            if let Some(bin) = WIDTH_BINS
                .iter()
                .position(|&(low, high)| (low..=high).contains(&job.width()))
            {
                bins[bin].0 += response / alone(job, slots)?;
                bins[bin].1 += 1;
            }
        }
        Ok(Summary {
            policy,
            mean: responses.iter().sum::<f64>() / responses.len().max(1) as f64,
            median: percentile(&sorted, 0.5),
            p95: percentile(&sorted, 0.95),
            slowdown: bins.map(|(sum, n)| (n > 0).then_some(sum / n as f64)),
            worst_gps_delay: run
                .completions
                .iter()
                .zip(gps)
                .map(|(done, reference)| done - reference)
                .fold(f64::NEG_INFINITY, f64::max),
            makespan: run.makespan,
            utilization: run.utilization,
            responses,
        })
    }
}

/// The `q`-quantile of sorted values by nearest rank (NaN when empty).
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted
        .get(rank.saturating_sub(1))
        .copied()
        .unwrap_or(f64::NAN)
}
