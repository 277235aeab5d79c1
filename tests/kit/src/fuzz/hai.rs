//! HAI (ReB): one workspace for up to 8 jobs in caller memory at a random alignment, running
//! the shortest-job-optimal start, the allocation and the rebalance on random batches (valid
//! and not: θ of 0, caps of 0 or not multiples of θ, tables too short or too long, NaN, ∞ or
//! non-positive JCTs, current allocations above their cap or the capacity).
//!
//! After every successful call: the cores given add up to at most the capacity, each job's are
//! a multiple of θ within its cap, the JCT written is the job's table at its cores, no output
//! is NaN, the transfers never raise Σ JCT, which is the sum of the JCTs written, and a
//! rebalance leaves every job that held cores at least θ.

use super::input::Input;
use super::watch::{no_nan, Block, Out, Watch};
use super::Target;
use fairsched::ffi::hai::*;

/// Runs the HAI target on `data`.
pub fn run(data: &[u8]) {
    super::drive::<Workspace>(data);
}

/// A random batch: θ, caps, the JCT tables and a current allocation.
struct Batch {
    theta: u32,
    caps: Vec<u32>,
    jct: Vec<f64>,
    cores: Vec<u32>,
}

impl Batch {
    fn random(input: &mut Input) -> Self {
        let theta = input.below(4) as u32;
        let jobs = input.below(10);
        let mut batch = Batch {
            theta,
            caps: Vec::new(),
            jct: Vec::new(),
            cores: Vec::new(),
        };
        for _ in 0..jobs {
            let steps = input.below(5) as u32;
            let cap = if input.one_in(16) {
                steps * theta + 1
            } else {
                steps * theta
            };
            batch.caps.push(cap);
            batch
                .cores
                .push(theta * input.below(steps as usize + 1) as u32);
            let wait = if input.one_in(2) {
                f64::INFINITY
            } else {
                1.0 + input.below(64) as f64
            };
            batch.jct.push(wait);
            for _ in 0..steps {
                let jct = if input.one_in(32) {
                    input.number()
                } else {
                    0.5 + input.below(64) as f64 / 4.0
                };
                batch.jct.push(jct);
            }
        }
        if input.one_in(16) {
            batch.jct.pop();
        }
        batch
    }

    /// Job `j`'s table (the batch was accepted, so the tables are well formed).
    fn table(&self, j: usize) -> &[f64] {
        let start: u32 = self.caps[..j].iter().map(|c| c / self.theta + 1).sum();
        &self.jct[start as usize..][..=(self.caps[j] / self.theta) as usize]
    }
}

/// The workspace under test. Its memory is scratch space that holds nothing between calls,
/// so it is not watched: what a failed call must leave as it was is its outputs.
struct Workspace {
    _memory: Block,
    handle: *mut FairschedHai,
}

impl Target for Workspace {
    /// Asks for the storage size and builds the workspace, either possibly invalid.
    fn init(input: &mut Input) -> Option<Self> {
        let capacity = input.below(9) as u32;
        let (block, handle) = Block::build(
            input,
            "fairsched_hai",
            |size| unsafe { fairsched_hai_storage_size(capacity, size) },
            |memory, len, out| unsafe { fairsched_hai_init(memory, len, capacity, out) },
        )?;
        Some(Workspace {
            _memory: block,
            handle,
        })
    }

    fn step(&mut self, input: &mut Input) {
        self.allocate(input);
    }
}

impl Workspace {
    /// One call on a random batch by a random method.
    fn allocate(&self, input: &mut Input) {
        let batch = Batch::random(input);
        let method = input.below(4) as u32;
        let total = input.count(24) as u32;
        let held = batch.cores.clone();
        let mut cores = batch.cores.clone();
        cores.resize(input.skewed(cores.len()), 0);
        let mut jct = vec![f64::NAN; input.skewed(batch.caps.len())];
        let mut summary = Out::<FairschedHaiSummary>::new();
        let watch = Watch::new().slice(&cores).slice(&jct).out(&summary);
        let status = unsafe {
            fairsched_hai_allocate(
                input.or_null(self.handle),
                method,
                total,
                batch.theta,
                input.reads(&batch.caps),
                batch.caps.len(),
                input.reads(&batch.jct),
                batch.jct.len(),
                input.or_null(cores.as_mut_ptr()),
                cores.len(),
                input.or_null(jct.as_mut_ptr()),
                jct.len(),
                input.or_null(summary.ptr()),
            )
        };
        if !watch.check("fairsched_hai_allocate", status) {
            return;
        }
        let summary = summary.into_inner();
        no_nan(
            "HAI",
            &[jct.as_slice(), &[summary.jct_sum_start, summary.jct_sum]].concat(),
        );
        assert!(
            summary.jct_sum <= summary.jct_sum_start,
            "transfers raised Σ JCT from {} to {}",
            summary.jct_sum_start,
            summary.jct_sum
        );
        assert!(
            cores.iter().map(|&c| u64::from(c)).sum::<u64>() <= u64::from(total),
            "{cores:?}"
        );
        let mut sum = 0.0;
        for (j, (&c, &cap)) in cores.iter().zip(&batch.caps).enumerate() {
            assert!(
                c <= cap && c % batch.theta == 0,
                "job {j}: {c} cores of {cap}"
            );
            assert_eq!(
                jct[j].to_bits(),
                batch.table(j)[(c / batch.theta) as usize].to_bits()
            );
            if method == FAIRSCHED_HAI_REBALANCE && held[j] > 0 {
                assert!(c >= batch.theta, "job {j} lost every core it held");
            }
            sum += jct[j];
        }
        let tolerance = 1e-9 * sum.abs();
        assert!(
            (sum - summary.jct_sum).abs() <= tolerance || sum == summary.jct_sum,
            "Σ JCT {} written as {}",
            sum,
            summary.jct_sum
        );
    }
}
