//! The Elasecutor paper's testbed workload (IEEE/ACM Transactions on Networking, 2021, §V-A),
//! seeded: 120 recurring applications arriving as a Poisson process and 12 new ones arriving at
//! random, on 35 machines of ⟨16 cores, 64 GB, 10 Gbps, 500 MB/s⟩.
//!
//! An application asks for `N_i` identical executors; each executor's demand is a time series
//! of steps of [`STEP_SECONDS`] (the core's layout: time-major, kinds CPU, memory, network,
//! disk). The paper's applications are HiBench runs profiled on its testbed; what the text
//! gives is taken from it, what it does not is chosen here, once, before any run:
//!
//! | what | value | source |
//! | --- | --- | --- |
//! | machines | 35 of ⟨16 cores, 64 GB, 10 Gbps, 500 MB/s⟩ | §V-A (35 machines), Fig. 6's capacities |
//! | applications | 120 recurring + 12 new, the same in every run | §V-A |
//! | arrivals | recurring: Poisson, mean gap 25 s; new: uniform in [0, 3200) s; new per run | §V-A |
//! | CPU and memory peak | `k` cores and `2k` GB, `k` uniform in 1-5 | §V-A, §II-B ("one to five cores … 2GB to 10GB correspondingly") |
//! | network peak | uniform 0.5-4 Gbps | Fig. 2 (0.53-4 Gbps) |
//! | disk peak | uniform 95-190 MB/s | Fig. 2 (96-181 MB/s) |
//! | executors `N_i` | uniform 5-20 | not given; Table I profiles with 20 |
//! | run time `T_i` | uniform 30-180 steps (5-30 min) | not given |
//! | stages | 3-8 uniform, cut at uniform steps | not given (Spark DAG stages) |
//! | level of a stage, share of the peak | CPU uniform 0.1-1; memory 0.3-1; network 0.5-1 with probability 0.2, else 0-0.05; disk 0.5-1 with probability 0.3, else 0-0.1 | Table II's shapes: CPU and memory steady (peak/average 1.2-3.9), network and disk bursty (peak/average up to 20) |
//!
//! Each kind's levels are then scaled so that the highest stage is the peak. The step is 10 s
//! (the paper's heartbeat is 3 s; 10 s keeps the longest executor within the core's 256-step
//! horizon). Predictions are exact: prediction errors and reprovisioning (§III-C), and the
//! SVR model for new applications, are not modelled.

use super::App;
use crate::rng::SplitMix;
use crate::synthetic::{between, uniform, unit};

/// Resource kinds: CPU (cores), memory (GB), network (Gbps), disk (MB/s).
pub const KINDS: usize = 4;
/// Seconds of one time step.
pub const STEP_SECONDS: f64 = 10.0;
/// Machines of the paper's testbed (§V-A).
pub const ELASTIC_MACHINES: usize = 35;
/// Each machine's capacity (Fig. 6): cores, GB, Gbps, MB/s.
pub const ELASTIC_MACHINE: [f64; KINDS] = [16.0, 64.0, 10.0, 500.0];
/// Recurring applications of a run (§V-A).
pub const ELASTIC_RECURRING: usize = 120;
/// New applications of a run (§V-A).
pub const ELASTIC_NEW: usize = 12;
/// Runs compared (§V-A: "generally we repeat each experiment for five runs").
pub const ELASTIC_RUNS: u64 = 5;

/// Mean gap between recurring arrivals, seconds (§V-A).
const MEAN_GAP: f64 = 25.0;
/// The period over which new applications arrive, seconds (§V-A).
const PERIOD: f64 = 3200.0;

/// The applications of run `run` (1, 2, …) of the workload `seed`: `recurring` and `new`
/// applications as in the module docs. The applications themselves depend on `seed` only;
/// the run draws their arrivals, as each of the paper's runs submits the same applications
/// at random times.
pub fn elasecutor_paper(recurring: usize, new: usize, seed: u64, run: u64) -> Vec<App> {
    let mut rng = SplitMix(seed);
    let mut apps: Vec<App> = (0..recurring + new).map(|_| app(&mut rng)).collect();
    let mut times = SplitMix(seed ^ run.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut clock = 0.0;
    for (i, app) in apps.iter_mut().enumerate() {
        let at = if i < recurring {
            clock += -MEAN_GAP * (1.0 - unit(&mut times)).ln();
            clock
        } else {
            uniform(&mut times, 0.0, PERIOD)
        };
        // An application is seen at the first step boundary at or after its arrival.
        app.arrival = (at / STEP_SECONDS).ceil() as u32;
    }
    apps
}

/// One application (arrival left at 0).
fn app(rng: &mut SplitMix) -> App {
    let k = between(rng, 1, 5) as f64;
    let peak = [
        k,
        2.0 * k,
        uniform(rng, 0.5, 4.0),
        uniform(rng, 95.0, 190.0),
    ];
    let executors = between(rng, 5, 20) as u32;
    let steps = between(rng, 30, 180);
    let stages = between(rng, 3, 8);
    let mut cuts: Vec<usize> = (1..stages)
        .map(|_| between(rng, 1, steps as u64 - 1))
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts.push(steps);
    let levels: Vec<[f64; KINDS]> = cuts
        .iter()
        .map(|_| {
            let burst = |rng: &mut SplitMix, p: f64, low: f64| {
                if unit(rng) < p {
                    uniform(rng, 0.5, 1.0)
                } else {
                    uniform(rng, 0.0, low)
                }
            };
            [
                uniform(rng, 0.1, 1.0),
                uniform(rng, 0.3, 1.0),
                burst(rng, 0.2, 0.05),
                burst(rng, 0.3, 0.1),
            ]
        })
        .collect();
    let scale: [f64; KINDS] = std::array::from_fn(|r| {
        let top = levels.iter().map(|l| l[r]).fold(0.0, f64::max);
        if top > 0.0 {
            peak[r] / top
        } else {
            0.0
        }
    });
    let mut demand = Vec::with_capacity(steps * KINDS);
    let mut start = 0;
    for (&end, level) in cuts.iter().zip(&levels) {
        for _ in start..end {
            demand.extend((0..KINDS).map(|r| level[r] * scale[r]));
        }
        start = end;
    }
    App {
        arrival: 0,
        executors,
        demand,
    }
}
