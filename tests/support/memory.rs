//! Heap-allocated storage for a CFQ scheduler of any capacity, for tests and benchmarks (the
//! core itself never allocates: Rust callers with `std` can build storage this way).

use fairsched::cfq::{Borrowed, Cfq, JobRow, QueueSlot, VACANT_ROW, VACANT_SLOT};

/// The four parts of a scheduler's storage, on the heap.
pub struct Memory {
    rows: Vec<JobRow>,
    buckets: Vec<u32>,
    gps: Vec<QueueSlot>,
    backlog: Vec<QueueSlot>,
}

impl Memory {
    /// Room for `capacity` jobs.
    pub fn new(capacity: usize) -> Self {
        Memory {
            rows: vec![VACANT_ROW; capacity],
            buckets: vec![0; capacity],
            gps: vec![VACANT_SLOT; capacity],
            backlog: vec![VACANT_SLOT; capacity],
        }
    }

    /// A scheduler on this memory.
    pub fn cfq(&mut self, slots: u32, start_time: f64) -> fairsched::Result<Cfq<Borrowed<'_>>> {
        let storage = Borrowed::new(
            &mut self.rows,
            &mut self.buckets,
            &mut self.gps,
            &mut self.backlog,
        )?;
        Cfq::with_storage(storage, slots, start_time)
    }
}
