//! HAI (ReB): one workspace for up to 8 jobs in caller memory at a random alignment, running
//! the shortest-job-optimal start, the allocation and the rebalance on random batches (valid
//! and not: θ of 0, caps of 0 or not multiples of θ, tables too short or too long, NaN, ∞ or
//! non-positive JCTs, current allocations above their cap or the capacity). Between those
//! batches, one step in 32 (first byte 0xf0 to 0xf7) instead writes a JCT table with one of the two stateless exports,
//! `fairsched_hai_table_from_differences` or `fairsched_hai_table_from_samples`, on random
//! arguments (θ of 0 or so large the cap overflows, tables of fewer than two values, references
//! of 0, off the θ grid or above the cap, NaN, ∞, negative or huge JCTs and differences, sums
//! that fall to 0 or below, core counts of 0, too few or alike runs, mismatched lengths, NULL
//! pointers).
//!
//! After every successful call: the cores given add up to at most the capacity, each job's are
//! a multiple of θ within its cap, the JCT written is the job's table at its cores, no output
//! is NaN, the transfers never raise Σ JCT, which is the sum of the JCTs written, and a
//! rebalance leaves every job that held cores at least θ. After a table is written: its first
//! value is +∞, every other one finite, positive and at most `MAX_JCT` (2^60); from differences,
//! the value at the reference is `jct_at_reference` and each other one is its neighbour's
//! toward the reference minus (upward) or plus (downward) that step's difference, rounded once,
//! bit for bit; from samples, the four coefficients are finite and non-negative and the table
//! is their model's, bit for bit, at every `k θ`.

use super::input::Input;
use super::watch::{no_nan, Block, Out, Watch};
use super::Target;
use fairsched::ffi::hai::*;
use fairsched::hai::MAX_JCT;
use fairsched::paf::Ernest;

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
    /// A batch whose θ is `theta_byte % 4` (the step's first byte, already read).
    fn random(input: &mut Input, theta_byte: u8) -> Self {
        let theta = u32::from(theta_byte % 4);
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

    /// A step's first byte is a batch's θ (modulo 4); eight values (one in 32) write a table
    /// instead. Those are values no step of the inputs saved before the table exports starts
    /// with, so that the saved corpus decodes as it did.
    fn step(&mut self, input: &mut Input) {
        match input.byte() {
            b @ TABLE_CALLS_FIRST..=TABLE_CALLS_LAST if b % 2 == 0 => from_differences(input),
            TABLE_CALLS_FIRST..=TABLE_CALLS_LAST => from_samples(input),
            b => self.allocate(input, b),
        }
    }
}

impl Workspace {
    /// One call on a random batch by a random method.
    fn allocate(&self, input: &mut Input, theta_byte: u8) {
        let batch = Batch::random(input, theta_byte);
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

/// The first bytes of a step that writes a table rather than run a batch: even for
/// `fairsched_hai_table_from_differences`, odd for `fairsched_hai_table_from_samples`.
const TABLE_CALLS_FIRST: u8 = 0xf0;
const TABLE_CALLS_LAST: u8 = 0xf7;

/// A θ for a table: mostly 1 to 4, sometimes 0 or one whose cap overflows `u32`.
fn table_theta(input: &mut Input) -> u32 {
    match input.below(16) {
        0 => 0,
        1 => u32::MAX / 2,
        b => (b % 4 + 1) as u32,
    }
}

/// Checks what every table written must be: `+∞` first, then finite, positive and at most
/// `MAX_JCT`.
fn check_table(export: &str, table: &[f64]) {
    assert!(
        table.len() >= 2,
        "{export} wrote a table of {} values",
        table.len()
    );
    assert_eq!(table[0], f64::INFINITY, "{export}: {table:?}");
    for (k, &jct) in table.iter().enumerate().skip(1) {
        assert!(
            jct.is_finite() && jct > 0.0 && jct <= MAX_JCT,
            "{export}: JCT {jct} at step {k} of {table:?}"
        );
    }
}

/// `fairsched_hai_table_from_differences` on random arguments.
fn from_differences(input: &mut Input) {
    let theta = table_theta(input);
    let len = input.below(10);
    let steps = len.saturating_sub(1);
    let reference = if input.one_in(8) {
        input.count(40) as u32
    } else {
        theta.wrapping_mul(1 + input.below(steps.max(1)) as u32)
    };
    let jct_at_reference = if input.one_in(16) {
        input.number()
    } else {
        1.0 + input.below(64) as f64
    };
    let differences: Vec<f64> = (0..input.skewed(len.saturating_sub(2)))
        .map(|_| {
            if input.one_in(16) {
                input.number()
            } else {
                (input.below(64) as f64 - 16.0) / 8.0
            }
        })
        .collect();
    let mut table = vec![f64::NAN; len];
    let watch = Watch::new().slice(&table);
    let status = unsafe {
        fairsched_hai_table_from_differences(
            theta,
            reference,
            jct_at_reference,
            input.reads(&differences),
            differences.len(),
            input.or_null(table.as_mut_ptr()),
            table.len(),
        )
    };
    let export = "fairsched_hai_table_from_differences";
    if !watch.check(export, status) {
        return;
    }
    check_table(export, &table);
    let at = (reference / theta) as usize;
    assert!(
        reference % theta == 0 && at >= 1 && at < table.len(),
        "{export} accepted reference {reference} for θ {theta} and {} values",
        table.len()
    );
    assert_eq!(differences.len(), table.len() - 2);
    assert_eq!(table[at].to_bits(), jct_at_reference.to_bits(), "{export}");
    // differences[i] = JCT((i + 1) θ) - JCT((i + 2) θ), each value summed from its
    // neighbour toward the reference and rounded once.
    for k in at + 1..table.len() {
        let expected = table[k - 1] - differences[k - 2];
        assert_eq!(
            table[k].to_bits(),
            expected.to_bits(),
            "{export}: step {k} of {table:?} from {differences:?}"
        );
    }
    for k in 1..at {
        let expected = table[k + 1] + differences[k - 1];
        assert_eq!(
            table[k].to_bits(),
            expected.to_bits(),
            "{export}: step {k} of {table:?} from {differences:?}"
        );
    }
}

/// `fairsched_hai_table_from_samples` on random runs.
fn from_samples(input: &mut Input) {
    let theta = table_theta(input);
    let len = input.below(10);
    let runs = input.below(9);
    let mut cores = Vec::with_capacity(runs);
    let mut jct = Vec::with_capacity(runs);
    for _ in 0..runs {
        cores.push(if input.one_in(16) {
            input.count(u64::from(u32::MAX)) as u32
        } else {
            1 + input.below(32) as u32
        });
        jct.push(if input.one_in(16) {
            input.number()
        } else {
            0.5 + input.below(128) as f64 / 4.0
        });
    }
    jct.resize(input.skewed(runs), 1.0);
    let mut table = vec![f64::NAN; len];
    let mut coefficients = [f64::NAN; 4];
    let watch = Watch::new().slice(&table).slice(&coefficients);
    let status = unsafe {
        fairsched_hai_table_from_samples(
            theta,
            input.reads(&cores),
            cores.len(),
            input.reads(&jct),
            jct.len(),
            input.or_null(table.as_mut_ptr()),
            table.len(),
            input.or_null(coefficients.as_mut_ptr()),
        )
    };
    let export = "fairsched_hai_table_from_samples";
    if !watch.check(export, status) {
        return;
    }
    check_table(export, &table);
    assert!(
        coefficients.iter().all(|a| a.is_finite() && *a >= 0.0),
        "{export}: coefficients {coefficients:?}"
    );
    if let Ok(model) = Ernest::new(coefficients) {
        for (k, &value) in (0u32..).zip(&table).skip(1) {
            assert_eq!(
                value.to_bits(),
                model.runtime(k * theta).to_bits(),
                "{export}: step {k} of {table:?} for {coefficients:?}"
            );
        }
    }
}
