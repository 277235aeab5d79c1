//! Seeded synthetic workloads that follow the papers' descriptions. The same seed gives the
//! same workload on every machine.
//!
//! **CFQ §V-A** ([`cfq_paper`]): the paper sampled 500 jobs from a one-hour window of the
//! Google trace for a 200-slot cluster (100 nodes, 2 slots each) and describes them only in
//! words and in Fig. 4: arrivals uniform over the hour; mostly narrow jobs of at most 5 tasks;
//! narrow jobs may run tasks of hundreds of seconds, wide jobs run short ones. The numbers the
//! text leaves open are taken from the Google 2011 cluster trace's Hawk sub-trace (81% of its
//! jobs have 1-10 tasks, 75% at most 5; 14% 11-50; 5% more than 50; a job's mean task run time
//! spreads over two orders of magnitude, so it is drawn log-uniformly):
//!
//! | jobs | width | mean task run time |
//! | --- | --- | --- |
//! | 75% | 1-5, uniform | 10-300 s, log-uniform |
//! | 6% | 6-10, uniform | 10-300 s, log-uniform |
//! | 14% | 11-50, uniform | 5-100 s, log-uniform |
//! | 5% | 51-400, log-uniform | 5-100 s, log-uniform |
//!
//! and each task runs its job's mean times a factor uniform in [0.5, 1.5]. The offered load on
//! 200 slots is about 0.42 (seed 1). These choices were made once, before any result was
//! looked at; [`Workload::at_load`] compresses the arrivals for a busier cluster.
//!
//! **QKnobler Table 1** ([`qknobler_table_1`]): the synthetic Facebook workload of the QKnobler
//! paper's testbed (§7.1): 100 jobs in 9 bins, their map and reduce task counts and demands
//! ⟨cores, GB⟩ as in the table. Each stage is one user (a user's tasks share one demand) and
//! all are present at time 0; reduce tasks do not wait for their maps. The table gives no run
//! times: map tasks run uniform 5-15 s, reduce tasks 10-30 s. The paper's 59 machines of
//! ⟨2 cores, 4 GB⟩ cannot hold its 3- and 4-core tasks, so the machines here have ⟨4, 8 GB⟩.
//! [`qknobler_table_1_phased`] makes the same jobs one user each, its maps then its reduces (§6.1 C2's
//! heterogeneous tasks).
//!
//! **Elephant and mice** (Fig. 9, [`elephant_and_mice`]): 20 slots (10 m4.large nodes with
//! 2 slots each, as in §V-A); one elephant of 20 tasks of 2 s, and mice of 8-12 tasks of
//! 0.8-1.2 s each (uniform); every job arrives at a uniform time over a window sized for a
//! given offered load. The paper gives no window; it says mice "keep arriving over time", read
//! here as a sustained rate: more mice make a longer run at the same load.

use crate::machines::{Phase, User};
use crate::rng::SplitMix;
use crate::workload::{Job, Workload};

/// Slots of the CFQ paper's Spark deployment (§V-A).
pub const CFQ_PAPER_SLOTS: u32 = 200;
/// Jobs of the CFQ paper's Spark workload (§V-A).
pub const CFQ_PAPER_JOBS: usize = 500;
/// Slots of the elephant-and-mice micro-benchmark (Fig. 9).
pub const ELEPHANT_SLOTS: u32 = 20;

/// Machines of the QKnobler Table 1 workload.
pub const QKNOBLER_MACHINES: usize = 59;
/// The capacity ⟨cores, GB⟩ of each of them.
pub const QKNOBLER_MACHINE: [f64; 2] = [4.0, 8.0];

/// Uniform in `[0, 1)`.
pub(crate) fn unit(rng: &mut SplitMix) -> f64 {
    (rng.next() >> 11) as f64 / (1u64 << 53) as f64
}

/// Uniform in `[low, high)`.
pub(crate) fn uniform(rng: &mut SplitMix, low: f64, high: f64) -> f64 {
    low + (high - low) * unit(rng)
}

/// Log-uniform in `[low, high)`.
pub(crate) fn log_uniform(rng: &mut SplitMix, low: f64, high: f64) -> f64 {
    (low.ln() + (high.ln() - low.ln()) * unit(rng)).exp()
}

/// Uniform among the integers `low..=high`.
pub(crate) fn between(rng: &mut SplitMix, low: u64, high: u64) -> usize {
    (low + rng.below(high - low + 1)) as usize
}

/// A job arriving at `arrival` with `width` tasks around `mean` seconds (each times a factor
/// in `[1 - spread, 1 + spread]`).
fn job(rng: &mut SplitMix, arrival: f64, width: usize, mean: f64, spread: f64) -> Job {
    Job {
        arrival,
        weight: 1,
        tasks: (0..width)
            .map(|_| mean * uniform(rng, 1.0 - spread, 1.0 + spread))
            .collect(),
        warmup: 1.0,
    }
}

/// `jobs` jobs of the CFQ paper's §V-A workload (see the module docs), arriving over an hour.
pub fn cfq_paper(jobs: usize, seed: u64) -> Workload {
    let mut rng = SplitMix(seed);
    Workload::new(
        (0..jobs)
            .map(|_| {
                let arrival = uniform(&mut rng, 0.0, 3600.0);
                let class = rng.below(100);
                let (width, mean) = match class {
                    0..75 => (between(&mut rng, 1, 5), log_uniform(&mut rng, 10.0, 300.0)),
                    75..81 => (between(&mut rng, 6, 10), log_uniform(&mut rng, 10.0, 300.0)),
                    81..95 => (between(&mut rng, 11, 50), log_uniform(&mut rng, 5.0, 100.0)),
                    _ => (
                        log_uniform(&mut rng, 51.0, 401.0) as usize,
                        log_uniform(&mut rng, 5.0, 100.0),
                    ),
                };
                job(&mut rng, arrival, width, mean, 0.5)
            })
            .collect(),
    )
}

/// The Fig. 9 micro-benchmark with `mice` mice arriving at an offered `load`, and the
/// elephant's index in it. The same seed gives the same elephant and, for more mice, the same
/// mice plus further ones.
pub fn elephant_and_mice(mice: usize, load: f64, seed: u64) -> (Workload, usize) {
    let mut rng = SplitMix(seed);
    // Arrivals in [0, 1), then spread to the load.
    let arrival = unit(&mut rng);
    let elephant = job(&mut rng, arrival, 20, 2.0, 0.0);
    let mice: Vec<Job> = (0..mice)
        .map(|_| {
            let arrival = unit(&mut rng);
            let width = between(&mut rng, 8, 12);
            job(&mut rng, arrival, width, 1.0, 0.2)
        })
        .collect();
    // The sort is stable and the elephant comes first: it follows only the earlier mice.
    let index = mice.iter().filter(|m| m.arrival < elephant.arrival).count();
    let workload = Workload::new(std::iter::once(elephant).chain(mice).collect());
    (workload.at_load(ELEPHANT_SLOTS, load), index)
}

/// One stage of a Table 1 job: its task count and the demand ⟨cores, GB⟩ of each task.
struct Stage(usize, [f64; 2]);

/// A bin of QKnobler's Table 1: how many jobs, their map stage and their reduce stage.
struct Bin(usize, Stage, Stage);

/// QKnobler's Table 1 (a reduce stage of 0 tasks: none).
const TABLE_1: [Bin; 9] = [
    Bin(38, Stage(1, [1.0, 1.0]), Stage(0, [0.0, 0.0])),
    Bin(18, Stage(2, [1.0, 1.5]), Stage(0, [0.0, 0.0])),
    Bin(14, Stage(10, [2.0, 0.5]), Stage(2, [4.0, 2.0])),
    Bin(10, Stage(50, [4.0, 1.0]), Stage(0, [0.0, 0.0])),
    Bin(6, Stage(100, [2.0, 1.5]), Stage(10, [2.0, 2.0])),
    Bin(6, Stage(200, [3.0, 2.0]), Stage(0, [0.0, 0.0])),
    Bin(4, Stage(400, [2.0, 1.0]), Stage(0, [0.0, 0.0])),
    Bin(2, Stage(400, [1.0, 2.0]), Stage(30, [2.0, 0.5])),
    Bin(2, Stage(800, [2.0, 0.5]), Stage(60, [1.0, 3.0])),
];

/// Jobs of the QKnobler Table 1 workload.
pub const TABLE_1_JOBS: usize = 100;

/// The users of the QKnobler Table 1 workload (see the module docs), all present at time 0:
/// each job's map stage, then its reduce stage if it has one, bin by bin.
pub fn qknobler_table_1(seed: u64) -> Vec<User> {
    table_1_jobs(&mut SplitMix(seed))
        .into_iter()
        .flatten()
        .collect()
}

/// The Table 1 workload with each job one user (§6.1 C2's heterogeneous tasks): its map
/// stage, and its reduce stage, if any, as the user's second phase ([`User::then`]). The jobs
/// are [`qknobler_table_1`]'s (`submissions` `None`) or [`qknobler_table_1_submitted`]'s.
pub fn qknobler_table_1_phased(seed: u64, submissions: Option<&[f64; TABLE_1_JOBS]>) -> Vec<User> {
    let jobs = match submissions {
        None => table_1_jobs(&mut SplitMix(seed)),
        Some(submissions) => submitted_jobs(seed, submissions),
    };
    jobs.into_iter()
        .filter_map(|stages| {
            let mut stages = stages.into_iter();
            let mut job = stages.next()?;
            job.then = stages.next().map(|reduce| Phase {
                demand: reduce.demand,
                tasks: reduce.tasks,
            });
            Some(job)
        })
        .collect()
}

/// The users of the QKnobler Table 1 workload with its jobs submitted at `submissions`
/// (seconds; measured from the first), as the paper takes them from a SWIM Facebook day
/// (§7.1): the jobs, drawn as [`qknobler_table_1`] draws them, are put in a random order from
/// `seed` (Fisher-Yates) and the `j`-th is submitted at the `j`-th time, both its stages.
pub fn qknobler_table_1_submitted(seed: u64, submissions: &[f64; TABLE_1_JOBS]) -> Vec<User> {
    submitted_jobs(seed, submissions)
        .into_iter()
        .flatten()
        .collect()
}

/// The jobs of [`qknobler_table_1_submitted`], each as its stages' users.
fn submitted_jobs(seed: u64, submissions: &[f64; TABLE_1_JOBS]) -> Vec<Vec<User>> {
    let mut rng = SplitMix(seed);
    let mut jobs = table_1_jobs(&mut rng);
    for j in (1..jobs.len()).rev() {
        jobs.swap(j, between(&mut rng, 0, j as u64));
    }
    let first = submissions.iter().copied().fold(f64::INFINITY, f64::min);
    for (job, &at) in jobs.iter_mut().zip(submissions) {
        for user in job.iter_mut() {
            user.arrival = at - first;
        }
    }
    jobs
}

/// Table 1's jobs, bin by bin, each as its stages' users, present at time 0.
fn table_1_jobs(rng: &mut SplitMix) -> Vec<Vec<User>> {
    let mut jobs = Vec::with_capacity(TABLE_1_JOBS);
    for Bin(count, maps, reduces) in &TABLE_1 {
        for _ in 0..*count {
            let mut stages = Vec::new();
            for (Stage(count, demand), low, high) in [(maps, 5.0, 15.0), (reduces, 10.0, 30.0)] {
                if *count > 0 {
                    stages.push(User {
                        arrival: 0.0,
                        weight: 1.0,
                        demand: demand.to_vec(),
                        tasks: (0..*count).map(|_| uniform(rng, low, high)).collect(),
                        then: None,
                    });
                }
            }
            jobs.push(stages);
        }
    }
    jobs
}
