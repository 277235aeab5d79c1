//! Heap-allocated table storage of any capacity, for tests, benchmarks and the simulator (the
//! core itself never allocates: Rust callers with `std` can build storage this way).

use fairsched::cfq::{Borrowed as CfqBorrowed, Cfq, JobRow, HEAPS};
use fairsched::heap::HeapSlot;
use fairsched::table::{Borrowed, Slot, Vacant};

/// The parts of a table's storage, on the heap.
pub struct Memory<R: Vacant, const H: usize> {
    rows: Vec<R>,
    buckets: Vec<u32>,
    heaps: [Vec<Slot<R>>; H],
}

impl<R: Vacant, const H: usize> Memory<R, H> {
    /// Room for `capacity` rows.
    pub fn new(capacity: usize) -> Self {
        Memory {
            rows: vec![R::VACANT; capacity],
            buckets: vec![0; capacity],
            heaps: std::array::from_fn(|_| vec![HeapSlot::VACANT; capacity]),
        }
    }

    /// Storage over this memory.
    pub fn storage(&mut self) -> Borrowed<'_, R, H> {
        let heaps = self.heaps.each_mut().map(Vec::as_mut_slice);
        Borrowed::new(&mut self.rows, &mut self.buckets, heaps).expect("parts of equal length")
    }
}

/// Storage for a CFQ scheduler.
pub type CfqMemory = Memory<JobRow, HEAPS>;

impl CfqMemory {
    /// A CFQ scheduler on this memory.
    pub fn cfq(&mut self, slots: u32, start_time: f64) -> fairsched::Result<Cfq<CfqBorrowed<'_>>> {
        Cfq::with_storage(self.storage(), slots, start_time)
    }
}
