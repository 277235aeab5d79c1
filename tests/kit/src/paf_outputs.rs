//! Owned output buffers of one PAF allocation, for tests that call `Paf::allocate` and compare
//! what it wrote.

use fairsched::paf::Allocation;

/// The five per-job outputs of `Paf::allocate`, on the heap.
#[derive(Clone, Debug, PartialEq)]
pub struct Outputs {
    pub fair: Vec<u32>,
    pub min: Vec<u32>,
    pub paf: Vec<u32>,
    pub fair_progress: Vec<f64>,
    pub paf_progress: Vec<f64>,
}

impl Outputs {
    /// Buffers for `n` jobs, every count `count` and every progress `progress`.
    pub fn filled(n: usize, count: u32, progress: f64) -> Self {
        Outputs {
            fair: vec![count; n],
            min: vec![count; n],
            paf: vec![count; n],
            fair_progress: vec![progress; n],
            paf_progress: vec![progress; n],
        }
    }

    /// The buffers as `allocate` takes them.
    pub fn allocation(&mut self) -> Allocation<'_> {
        Allocation {
            fair: &mut self.fair,
            min: &mut self.min,
            paf: &mut self.paf,
            fair_progress: &mut self.fair_progress,
            paf_progress: &mut self.paf_progress,
        }
    }
}
