//! A fixed-capacity table of rows addressed by the caller's 64-bit ids.
//!
//! Rows live in one caller-provided slice, bucket heads in another of the same length (a dense
//! array of `u32`, so finding a bucket stays in cache and a lookup touches one row). Free rows
//! form a stack threaded through the rows; indexed rows hang off hash chains threaded through
//! them too. O(1) expected per operation. A row can also be *allocated but unindexed*: no longer
//! reachable by id, yet still in use (CFQ keeps forgotten jobs in its GPS reference that way).

use crate::heap::NONE;

/// The link every row carries for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Links {
    /// Next row in this row's chain, or in the free stack.
    next: u32,
}

impl Links {
    /// Links of a row that is in no chain.
    pub const NONE: Links = Links { next: NONE };
}

impl Default for Links {
    fn default() -> Self {
        Links::NONE
    }
}

/// A row that can live in the table.
pub trait Row {
    /// The caller's id of the row (meaningful while the row is indexed).
    fn id(&self) -> u64;
    /// The row's links.
    fn links(&self) -> &Links;
    /// The row's links, mutably.
    fn links_mut(&mut self) -> &mut Links;
}

/// Implements [`Row`] for a row type with the fields `id: u64` (the caller's id) and
/// `links: Links`, as every row of the crate has them.
macro_rules! impl_row {
    ($row:ty) => {
        impl $crate::id_index::Row for $row {
            fn id(&self) -> u64 {
                self.id
            }
            fn links(&self) -> &$crate::id_index::Links {
                &self.links
            }
            fn links_mut(&mut self) -> &mut $crate::id_index::Links {
                &mut self.links
            }
        }
    };
}
pub(crate) use impl_row;

/// The scalar part of a table: the top of the free stack and the number of rows in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableHead {
    free: u32,
    used: usize,
}

impl TableHead {
    /// Number of allocated rows (indexed or not).
    pub fn used(&self) -> usize {
        self.used
    }
}

/// Makes every row free and every chain empty.
pub fn reset<R: Row>(buckets: &mut [u32], rows: &mut [R]) -> TableHead {
    buckets.fill(NONE);
    let count = rows.len();
    for (number, row) in rows.iter_mut().enumerate() {
        let next = number.saturating_add(1);
        *row.links_mut() = Links {
            next: if next < count { next as u32 } else { NONE },
        };
    }
    TableHead {
        free: if count > 0 { 0 } else { NONE },
        used: 0,
    }
}

/// Bucket of `id` among `buckets`: a multiplicative hash mapped by Lemire's fast range.
fn bucket_of(id: u64, buckets: usize) -> usize {
    let mixed = (id ^ (id >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((u128::from(mixed).wrapping_mul(buckets as u128)) >> 64) as usize
}

fn next_of<R: Row>(rows: &[R], row: u32) -> u32 {
    rows.get(row as usize).map_or(NONE, |r| r.links().next)
}

fn set_next<R: Row>(rows: &mut [R], row: u32, next: u32) {
    if let Some(r) = rows.get_mut(row as usize) {
        r.links_mut().next = next;
    }
}

/// The indexed row with `id`, if any.
pub fn find<R: Row>(buckets: &[u32], rows: &[R], id: u64) -> Option<u32> {
    let mut at = *buckets.get(bucket_of(id, buckets.len()))?;
    while let Some(row) = rows.get(at as usize) {
        if row.id() == id {
            return Some(at);
        }
        at = row.links().next;
    }
    None
}

/// Takes a free row off the stack, or `None` when every row is in use.
pub fn allocate<R: Row>(rows: &mut [R], head: &mut TableHead) -> Option<u32> {
    let row = head.free;
    let next = rows.get(row as usize)?.links().next;
    head.free = next;
    head.used = head.used.saturating_add(1);
    set_next(rows, row, NONE);
    Some(row)
}

/// Makes an allocated row reachable by its id (the caller has checked the id is absent).
pub fn index<R: Row>(buckets: &mut [u32], rows: &mut [R], row: u32) {
    let Some(id) = rows.get(row as usize).map(Row::id) else {
        return;
    };
    if let Some(head) = buckets.get_mut(bucket_of(id, buckets.len())) {
        set_next(rows, row, *head);
        *head = row;
    }
}

/// Makes an indexed row unreachable by id; it stays allocated.
pub fn unindex<R: Row>(buckets: &mut [u32], rows: &mut [R], row: u32) {
    let Some(id) = rows.get(row as usize).map(Row::id) else {
        return;
    };
    let after = next_of(rows, row);
    let Some(head) = buckets.get_mut(bucket_of(id, buckets.len())) else {
        return;
    };
    let first = *head;
    if first == row {
        *head = after;
    } else {
        let mut at = first;
        while at != NONE {
            let next = next_of(rows, at);
            if next == row {
                set_next(rows, at, after);
                break;
            }
            at = next;
        }
    }
    set_next(rows, row, NONE);
}

/// Returns an allocated, unindexed row to the free stack.
pub fn release<R: Row>(rows: &mut [R], head: &mut TableHead, row: u32) {
    set_next(rows, row, head.free);
    head.free = row;
    head.used = head.used.saturating_sub(1);
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use quickcheck::quickcheck;
    use std::collections::BTreeMap;
    use std::vec::Vec;

    #[derive(Clone, Copy, Default)]
    struct TestRow {
        id: u64,
        links: Links,
    }

    impl_row!(TestRow);

    /// Random inserts and removals agree with a map from id to row.
    fn agrees_with_map(capacity: u8, ops: Vec<(bool, u8)>) -> bool {
        let mut rows = std::vec![TestRow::default(); usize::from(capacity % 17)];
        let mut buckets = std::vec![0; rows.len()];
        let mut head = reset(&mut buckets, &mut rows);
        let mut reference = BTreeMap::new();
        for (insert, small_id) in ops {
            // Few distinct ids, spread over the u64 range, so chains and collisions happen.
            let id = u64::from(small_id % 24).wrapping_mul(0x0123_4567_89AB_CDEF);
            match (insert, reference.get(&id).copied()) {
                (true, None) => match allocate(&mut rows, &mut head) {
                    Some(row) => {
                        rows[row as usize].id = id;
                        index(&mut buckets, &mut rows, row);
                        reference.insert(id, row);
                    }
                    None => {
                        if reference.len() != rows.len() {
                            return false;
                        }
                    }
                },
                (false, Some(row)) => {
                    unindex(&mut buckets, &mut rows, row);
                    release(&mut rows, &mut head, row);
                    reference.remove(&id);
                }
                _ => {}
            }
            if head.used() != reference.len() {
                return false;
            }
            for small in 0..24u64 {
                let id = small.wrapping_mul(0x0123_4567_89AB_CDEF);
                if find(&buckets, &rows, id) != reference.get(&id).copied() {
                    return false;
                }
            }
        }
        true
    }

    quickcheck! {
        fn table_matches_map(capacity: u8, ops: Vec<(bool, u8)>) -> bool {
            agrees_with_map(capacity, ops)
        }
    }
}
