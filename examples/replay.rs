//! Replays a small workload through CFQ on a simulated slot cluster and prints, for each job,
//! when it completes under CFQ and when it would complete under the ideal fair share (GPS),
//! with the paper's delay bound (Theorem 1) checked for every job.
//!
//! Run: `cargo run --release --example replay`
//!
//! The workload is the CFQ paper's Fig. 2/3 example followed by a seeded synthetic batch: a
//! few wide, long jobs among many small ones, arriving over two minutes on 10 slots.

#[path = "../tests/support"]
mod support {
    pub mod cluster;
    pub mod memory;
    pub mod rng;
}

use support::cluster::{delay_bound, run, JobSpec};
use support::rng::SplitMix;

fn synthetic(count: usize, seed: u64) -> Vec<JobSpec> {
    let mut rng = SplitMix(seed);
    (0..count)
        .map(|_| {
            let arrival = rng.below(120) as f64;
            let wide = rng.below(5) == 0;
            let tasks = if wide {
                10 + rng.below(30)
            } else {
                1 + rng.below(4)
            };
            let length = if wide {
                5 + rng.below(20)
            } else {
                1 + rng.below(8)
            };
            JobSpec {
                arrival,
                weight: 1,
                tasks: (0..tasks)
                    .map(|_| length as f64 + rng.below(4) as f64 / 4.0)
                    .collect(),
            }
        })
        .collect()
}

fn report(title: &str, slots: u32, jobs: &[JobSpec]) {
    let outcomes = run(slots, jobs);
    let bound = delay_bound(slots, jobs);
    println!("{title}: {} jobs on {slots} slots", jobs.len());
    println!(
        "{:>4} {:>8} {:>6} {:>10} {:>10} {:>10} {:>9}",
        "job", "arrival", "tasks", "slot-time", "CFQ done", "GPS done", "CFQ-GPS"
    );
    let mut worst = f64::MIN;
    for (j, (job, outcome)) in jobs.iter().zip(&outcomes).enumerate() {
        let delay = outcome.completion - outcome.gps_completion;
        worst = worst.max(delay);
        println!(
            "{:>4} {:>8.2} {:>6} {:>10.2} {:>10.3} {:>10.3} {:>+9.3}",
            j,
            job.arrival,
            job.tasks.len(),
            job.slot_time(),
            outcome.completion,
            outcome.gps_completion,
            delay
        );
    }
    let mean = |f: &dyn Fn(usize) -> f64| (0..jobs.len()).map(f).sum::<f64>() / jobs.len() as f64;
    let cfq = mean(&|j| outcomes[j].completion - jobs[j].arrival);
    let gps = mean(&|j| outcomes[j].gps_completion - jobs[j].arrival);
    println!(
        "mean response: CFQ {cfq:.3}, GPS {gps:.3}; worst CFQ-GPS {worst:.3} <= bound 2*l_max + L_max/M = {bound:.3}: {}\n",
        if worst <= bound { "holds" } else { "VIOLATED" }
    );
    assert!(worst <= bound, "Theorem 1 violated");
}

fn main() {
    let paper =
        [(0.0, vec![9.0]), (0.0, vec![4.0; 4]), (4.0, vec![4.0; 2])].map(|(arrival, tasks)| {
            JobSpec {
                arrival,
                weight: 1,
                tasks,
            }
        });
    report("CFQ paper, Fig. 2/3", 3, &paper);
    report("Synthetic batch (seed 7)", 10, &synthetic(24, 7));
}
