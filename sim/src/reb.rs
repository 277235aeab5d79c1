//! ReB's static comparison (Hu, Li, Guo: *Balance Resource Allocation for Spark Jobs Based on
//! Prediction of the Optimal Resource*, Tsinghua Science and Technology 25(4), 2020; §6): a batch
//! of jobs with predicted JCT tables shares `C` = 200 cores in steps of θ = 1 core, allocated three
//! ways: HAI (the core's [`Hai::allocate`]: the shortest-job-optimal start, then the transfers),
//! shortest-job-optimal alone (the core's [`Hai::shortest_job_optimal`]) and max-min (an equal
//! split, below).
//!
//! **The batches** ([`reb_batch`], seeded; chosen once, before any run): ReB's JCT has an
//! optimum (§4, Fig. 1: the work shared by the cores falls with them, system overheads grow
//! with them), so job `j` on `a ≥ 1` cores takes `JCT(a) = w / a + c a` seconds, with
//!
//! | per job | value |
//! | --- | --- |
//! | optimum `A* = √(w / c)` | uniform 5-60 cores |
//! | overhead `c` | uniform in `[0.5, 2)` s per core |
//! | work `w` | `c A*²` (so the least JCT is `2 c A*`) |
//! | table | `a = 0, 1, …, 2 A*`; `JCT(0) = +∞` (the job waits for cores) |
//!
//! Optima add up to about 325 cores for 10 jobs, so every batch size contends for the cores.
//!
//! **Max-min** ([`max_min`]): an equal split in θ steps, water-filled: one θ to each job below
//! its table's cap in turn, in index order, while cores remain; no job's table is consulted
//! beyond its cap.
//!
//! **Σ JCT**: a job left without cores has no finite JCT (it waits for a later allocation, not
//! modelled here), so the table gives the sum over the jobs that run and, apart, how many wait.

use crate::document::{change, identifier, Comparison, Document, Part, Table};
use crate::memory::Memory;
use crate::rng::SplitMix;
use crate::synthetic::{between, uniform};
use fairsched::hai::{Batch, Hai, JobRow, HEAPS};
use std::fmt::{self, Write};

/// Cores of the comparison, `C`.
pub const REB_CORES: u32 = 200;
/// The allocation step, θ.
pub const REB_THETA: u32 = 1;
/// The batch sizes compared.
pub const REB_SIZES: [usize; 5] = [10, 20, 30, 40, 50];
/// Batches of each size (seeds `seed..seed + REB_BATCHES`).
pub const REB_BATCHES: u64 = 20;

/// A batch's JCT tables in the core's layout ([`Batch`]).
#[derive(Clone, Debug)]
pub struct JctTables {
    /// Per job, the largest allocation its table covers.
    pub caps: Vec<u32>,
    /// The tables, concatenated in job order.
    pub jct: Vec<f64>,
}

impl JctTables {
    /// The batch on [`REB_CORES`] cores in steps of [`REB_THETA`].
    pub fn batch(&self) -> Batch<'_> {
        Batch {
            capacity: REB_CORES,
            theta: REB_THETA,
            caps: &self.caps,
            jct: &self.jct,
        }
    }

    /// Job `j`'s table: its JCT on `0, θ, 2θ, …, cap_j` cores.
    pub fn table(&self, job: usize) -> &[f64] {
        let steps = |cap: u32| (cap / REB_THETA) as usize + 1;
        let start: usize = self.caps[..job].iter().map(|&cap| steps(cap)).sum();
        &self.jct[start..start + steps(self.caps[job])]
    }

    /// Job `j`'s JCT on `cores` cores (`cores` at most its cap, a multiple of θ).
    pub fn jct(&self, job: usize, cores: u32) -> f64 {
        self.table(job)[(cores / REB_THETA) as usize]
    }
}

/// The core's HAI with its scratch on the heap, sized for `jobs` jobs: batches of any size.
fn hai(jobs: usize) -> Hai<Memory<JobRow, HEAPS>> {
    // Room for one job at least: the core refuses a capacity of 0, and a batch may be empty.
    Hai::with_storage(Memory::new(jobs.max(1))).expect("a capacity below u32::MAX")
}

/// A batch of `jobs` jobs (see the module documentation), from `seed`.
pub fn reb_batch(jobs: usize, seed: u64) -> JctTables {
    let mut rng = SplitMix(seed);
    let mut caps = Vec::with_capacity(jobs);
    let mut jct = Vec::new();
    for _ in 0..jobs {
        let optimum = between(&mut rng, 5, 60) as u32;
        let overhead = uniform(&mut rng, 0.5, 2.0);
        let work = overhead * f64::from(optimum * optimum);
        caps.push(2 * optimum);
        jct.push(f64::INFINITY);
        jct.extend((1..=2 * optimum).map(|a| work / f64::from(a) + overhead * f64::from(a)));
    }
    JctTables { caps, jct }
}

/// How a batch's cores are allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RebMethod {
    /// The core's [`Hai::allocate`].
    Hai,
    /// The core's [`Hai::shortest_job_optimal`].
    ShortestJobOptimal,
    /// [`max_min`].
    MaxMin,
}

/// The methods in the order of the table.
pub const REB_METHODS: [RebMethod; 3] = [
    RebMethod::Hai,
    RebMethod::ShortestJobOptimal,
    RebMethod::MaxMin,
];

impl fmt::Display for RebMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RebMethod::Hai => "HAI",
            RebMethod::ShortestJobOptimal => "shortest-job-optimal",
            RebMethod::MaxMin => "max-min",
        })
    }
}

/// The equal split in θ steps, water-filled up to each job's cap (module documentation).
pub fn max_min(tables: &JctTables) -> Vec<u32> {
    let mut cores = vec![0; tables.caps.len()];
    let mut free = REB_CORES;
    while free >= REB_THETA {
        let mut gave = false;
        for (held, &cap) in cores.iter_mut().zip(&tables.caps) {
            if free >= REB_THETA && *held < cap {
                *held += REB_THETA;
                free -= REB_THETA;
                gave = true;
            }
        }
        if !gave {
            break;
        }
    }
    cores
}

/// One allocation of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Allocated {
    /// Cores of each job.
    pub cores: Vec<u32>,
    /// `Σ JCT`, `+∞` when a job waits (the core's measure).
    pub jct_sum: f64,
    /// `Σ JCT` over the jobs that run.
    pub running_jct_sum: f64,
    /// Jobs left without cores.
    pub waiting: usize,
}

/// Allocates `tables` by `method`, from no allocation. Errors: the core's (none for the
/// tables of [`reb_batch`]).
pub fn allocate(tables: &JctTables, method: RebMethod) -> fairsched::Result<Allocated> {
    let n = tables.caps.len();
    let mut hai = hai(n);
    let mut cores = vec![0; n];
    let mut jct = vec![0.0; n];
    match method {
        RebMethod::Hai => {
            hai.allocate(&tables.batch(), &mut cores, &mut jct)?;
        }
        RebMethod::ShortestJobOptimal => {
            hai.shortest_job_optimal(&tables.batch(), &mut cores, &mut jct)?;
        }
        RebMethod::MaxMin => {
            cores = max_min(tables);
            for (j, value) in jct.iter_mut().enumerate() {
                *value = tables.jct(j, cores[j]);
            }
        }
    }
    Ok(Allocated {
        jct_sum: jct.iter().sum(),
        running_jct_sum: jct.iter().filter(|t| t.is_finite()).sum(),
        waiting: cores.iter().filter(|&&c| c == 0).count(),
        cores,
    })
}

/// The core's [`Hai::rebalance`] from the allocation in `cores` (a job that just arrived
/// holds 0), in place. Errors: the core's (none for the tables of [`reb_batch`], scaled or
/// not, and an allocation within their caps and [`REB_CORES`]).
pub fn rebalance(tables: &JctTables, cores: &mut [u32]) -> fairsched::Result<()> {
    let mut jct = vec![0.0; cores.len()];
    hai(cores.len()).rebalance(&tables.batch(), cores, &mut jct)?;
    Ok(())
}

/// One row of the table: a method on the batches of one size.
#[derive(Clone, Debug, PartialEq)]
pub struct RebRow {
    /// Jobs per batch.
    pub jobs: usize,
    /// The method.
    pub method: RebMethod,
    /// Mean over the batches of `Σ JCT` over the jobs that run, in seconds.
    pub mean_jct_sum: f64,
    /// Mean over the batches of the jobs left waiting.
    pub mean_waiting: f64,
}

/// Every method on `batches` batches of each of `sizes` (seeds `seed..seed + batches`).
pub fn compare(sizes: &[usize], batches: u64, seed: u64) -> fairsched::Result<Vec<RebRow>> {
    let mut rows = Vec::new();
    for &jobs in sizes {
        let tables: Vec<JctTables> = (0..batches)
            .map(|b| reb_batch(jobs, seed.wrapping_add(b)))
            .collect();
        for method in REB_METHODS {
            let (mut sum, mut waiting) = (0.0, 0usize);
            for batch in &tables {
                let allocated = allocate(batch, method)?;
                sum += allocated.running_jct_sum;
                waiting += allocated.waiting;
            }
            rows.push(RebRow {
                jobs,
                method,
                mean_jct_sum: sum / batches.max(1) as f64,
                mean_waiting: waiting as f64 / batches.max(1) as f64,
            });
        }
    }
    Ok(rows)
}

/// The comparison as the `reb` command prints it: `rows` of [`compare`] on `batches` batches
/// a size from `seed`, and a summary line per batch size: HAI against shortest-job-optimal and
/// max-min.
pub fn document(rows: &[RebRow], batches: u64, seed: u64) -> Document {
    let title = format!(
        "ReB batches (seeds {seed}-{}): {REB_CORES} cores, θ = {REB_THETA}; means over {batches} \
         batches a size",
        seed.wrapping_add(batches.saturating_sub(1)),
    );
    let mut text = format!(
        "{title}\n\n{:>4}  {:<22} {:>20} {:>8}\n",
        "jobs", "method", "Σ JCT of running s", "waiting"
    );
    for row in rows {
        let _ = writeln!(
            text,
            "{:>4}  {:<22} {:>20.1} {:>8.2}",
            row.jobs,
            row.method.to_string(),
            row.mean_jct_sum,
            row.mean_waiting
        );
    }
    let table = Table {
        name: "reb".to_owned(),
        title: title.clone(),
        context: vec![("cores", REB_CORES.into()), ("theta", REB_THETA.into())],
        rows: rows
            .iter()
            .map(|row| {
                vec![
                    ("jobs", row.jobs.into()),
                    ("method", row.method.to_string().into()),
                    ("mean_jct_sum", row.mean_jct_sum.into()),
                    ("mean_waiting", row.mean_waiting.into()),
                ]
            })
            .collect(),
    };
    let mut comparisons = Vec::new();
    for hai in rows.iter().filter(|row| row.method == RebMethod::Hai) {
        let others = rows
            .iter()
            .filter(|row| row.jobs == hai.jobs && row.method != RebMethod::Hai);
        for other in others {
            let method = other.method.to_string();
            comparisons.push(Comparison::new(
                "reb",
                Some(&format!("{}_jobs", hai.jobs)),
                ("hai", &format!("HAI on {} jobs", hai.jobs)),
                (&identifier(&method), &method),
                ("mean_jct_sum", "Σ JCT of running jobs"),
                change(hai.mean_jct_sum, other.mean_jct_sum),
            ));
        }
    }
    let parameters = vec![("seed", seed.into()), ("batches", batches.into())];
    let part = Part::summarized(table, comparisons, text);
    let footer = "Σ JCT counts the jobs that run: shortest-job-optimal leaves the others waiting \
                  for cores (waiting: how many, the mean over the batches)\n";
    Document::new("reb", title, parameters, vec![part], footer)
}
