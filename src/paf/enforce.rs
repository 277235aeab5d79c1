//! Enforcing PAF allocations as slots free up (§IV-B): each free slot goes to the job whose
//! running slots are furthest below its PAF allocation (the largest `target - running`), ties
//! to the lower index; a job at or above its target gets nothing. `k` slots are one call.

use crate::heap::LowerIndex;
use crate::heap::{Heap, HeapSlot};

/// Gives up to `out.len()` slots: writes one job index per slot, in the order given, and
/// returns how many (fewer when every job reaches its target). `heap` is scratch as long as the
/// jobs; the caller has checked that `targets` and `running` have the same length. O(N + k log N).
pub(crate) fn enforce(
    targets: &[u32],
    running: &[u32],
    out: &mut [u32],
    heap: &mut [HeapSlot<u64>],
) -> usize {
    heap.fill(HeapSlot::VACANT);
    let mut len = 0;
    let mut below = Heap::new(heap, &mut len, LowerIndex);
    // Key: the largest deficit first.
    let key = |deficit: u32| u64::from(u32::MAX.saturating_sub(deficit));
    for (j, (&target, &now)) in targets.iter().zip(running).enumerate() {
        let deficit = target.saturating_sub(now);
        if deficit > 0 {
            below.push(j as u32, key(deficit));
        }
    }
    let mut given: usize = 0;
    for slot in out.iter_mut() {
        let Some((top, j)) = below.pop() else {
            break;
        };
        *slot = j;
        given = given.saturating_add(1);
        let deficit = u32::MAX.saturating_sub(top as u32).saturating_sub(1);
        if deficit > 0 {
            below.push(j, key(deficit));
        }
    }
    given
}
