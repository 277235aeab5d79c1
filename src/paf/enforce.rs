//! Enforcing PAF allocations as slots free up (§IV-B: "preferentially offering available slots
//! to the jobs whose current allocation is the furthest from the target"): each free slot goes
//! to the job that holds the smallest fraction of its PAF allocation, `running / target`, ties
//! to the lower index; a job at or above its target gets nothing. `k` slots are one call.
//!
//! Furthest is read relatively, as Spark's fair scheduler (where the paper implemented PAF)
//! compares jobs by running tasks over their share: a job just arrived, holding nothing of a
//! target of 5, comes before one holding 490 of 500. By absolute deficit the wide job would
//! take every slot first, and narrow jobs arriving behind it would wait for it to fill up.
//! Fractions are compared as `f64`, exact for targets up to 2^26.

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
    // Key: the fraction of the target held, below 1 (non-negative floats order like their bits).
    let key = |held: u32, target: u32| (f64::from(held) / f64::from(target)).to_bits();
    for (j, (&target, &held)) in targets.iter().zip(running).enumerate() {
        if held < target {
            below.push(j as u32, key(held, target));
        }
    }
    let mut given: usize = 0;
    for slot in out.iter_mut() {
        let Some((fraction, j)) = below.pop() else {
            break;
        };
        *slot = j;
        given = given.saturating_add(1);
        let target = targets.get(j as usize).copied().unwrap_or(0);
        // The slots held, back from the fraction: its rounding error is far below one half
        // for any u32 count, so this is exact.
        let held =
            (libm::round(f64::from_bits(fraction) * f64::from(target)) as u32).saturating_add(1);
        if held < target {
            below.push(j, key(held, target));
        }
    }
    given
}
