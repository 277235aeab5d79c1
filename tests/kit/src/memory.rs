//! Heap-allocated table storage of any capacity, for tests, benchmarks and the simulator (the
//! core itself never allocates: Rust callers with `std` can build storage this way).

use fairsched::cfq::{Cfq, JobRow, HEAPS};
use fairsched::drf::{self, DrfQueue, UserRow};
use fairsched::heap::HeapSlot;
use fairsched::table::{Borrowed, BorrowedWithAmounts, Parts, PartsMut, Slot, Storage, Vacant};

/// The parts of a table's storage, on the heap: usable directly as any algorithm's storage.
pub struct Memory<R: Vacant, const H: usize> {
    rows: Vec<R>,
    numbers: Vec<u32>,
    heaps: [Vec<Slot<R>>; H],
    amounts: Vec<f64>,
}

impl<R: Vacant, const H: usize> Memory<R, H> {
    /// Room for `capacity` rows.
    pub fn new(capacity: usize) -> Self {
        Self::with_amounts(capacity, 0)
    }

    /// Room for `capacity` rows and a column of `amounts` amounts (DRR's timeline and
    /// predictor: `drr::timeline::amounts`, `drr::predictor::amounts`; DRF:
    /// `drf::amounts`).
    pub fn with_amounts(capacity: usize, amounts: usize) -> Self {
        Memory {
            rows: vec![R::VACANT; capacity],
            numbers: vec![0; capacity],
            heaps: std::array::from_fn(|_| vec![HeapSlot::VACANT; capacity]),
            amounts: vec![0.0; amounts],
        }
    }

    /// Borrowed storage over this memory (the shape the C ABI builds on), without the amounts.
    pub fn storage(&mut self) -> Borrowed<'_, R, H> {
        let heaps = self.heaps.each_mut().map(Vec::as_mut_slice);
        Borrowed::new(&mut self.rows, &mut self.numbers, heaps).expect("parts of equal length")
    }

    /// Borrowed storage over this memory with its amounts (DRR's timeline and predictor, DRF).
    pub fn storage_with_amounts(&mut self) -> BorrowedWithAmounts<'_, R, H> {
        let heaps = self.heaps.each_mut().map(Vec::as_mut_slice);
        BorrowedWithAmounts::new(&mut self.rows, &mut self.numbers, heaps, &mut self.amounts)
            .expect("parts of equal length")
    }
}

impl<R: Vacant, const H: usize> Storage<R, H> for Memory<R, H> {
    fn parts(&self) -> Parts<'_, R, H> {
        Parts {
            rows: &self.rows,
            numbers: &self.numbers,
            heaps: self.heaps.each_ref().map(Vec::as_slice),
            amounts: &self.amounts,
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_, R, H> {
        PartsMut {
            rows: &mut self.rows,
            numbers: &mut self.numbers,
            heaps: self.heaps.each_mut().map(Vec::as_mut_slice),
            amounts: &mut self.amounts,
        }
    }
}

/// Storage for a CFQ scheduler.
pub type CfqMemory = Memory<JobRow, HEAPS>;

impl CfqMemory {
    /// A CFQ scheduler on this memory.
    pub fn cfq(
        &mut self,
        slots: u32,
        start_time: f64,
    ) -> fairsched::Result<Cfq<Borrowed<'_, JobRow, HEAPS>>> {
        Cfq::with_storage(self.storage(), slots, start_time)
    }
}

/// Storage for a DRF queue: the users' rows and tree, and the column of their demands.
pub type DrfMemory = Memory<UserRow, { drf::HEAPS }>;

impl DrfMemory {
    /// Room for `capacity` users.
    pub fn for_users(capacity: usize) -> Self {
        Self::with_amounts(capacity, drf::amounts(capacity))
    }

    /// A DRF queue on this memory, for users sharing `cluster`.
    pub fn queue(&mut self, cluster: &[f64]) -> fairsched::Result<DrfQueue<drf::Borrowed<'_>>> {
        DrfQueue::with_storage(self.storage_with_amounts(), cluster)
    }
}
