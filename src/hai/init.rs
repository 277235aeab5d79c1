//! The shortest-job-optimal start (ReB Algorithm 1, §4.2), written as a fill of free cores.
//!
//! Jobs below their optimum are visited in increasing `D_j` (ties: lower index). Each gets
//! what it lacks to reach `A_opt_j` while free cores last; the first that does not fit gets
//! the rest, rounded down to a multiple of `θ`; the later ones get nothing. From no allocation
//! at all this is Algorithm 1 exactly: a job that fits gets `A_opt_j`. From a current
//! allocation it gives the cores a departure freed, or those an arriving job finds free, in the
//! same order.

use super::storage::Slot;
use super::table::{JobRow, Tables};
use crate::heap::Heap;
use crate::heap::LowerIndex;
use crate::num::order_bits;

/// Hands out `free` steps as described above. `order` (one slot per row) is the scratch of a
/// heap that yields the jobs by `D_j`: O(k log k) for k jobs below their optimum.
pub(super) fn fill(tables: Tables, rows: &mut [JobRow], order: &mut [Slot], mut free: u32) {
    if free == 0 {
        return;
    }
    order.fill(Slot::VACANT);
    let mut len = 0;
    let mut queue = Heap::new(order, &mut len, LowerIndex);
    for (j, row) in rows.iter().enumerate() {
        if row.steps < row.opt {
            queue.push(j as u32, order_bits(tables.best(row)));
        }
    }
    while free > 0 {
        let Some(row) = queue.pop().and_then(|(_, j)| rows.get_mut(j as usize)) else {
            break;
        };
        let given = row.opt.saturating_sub(row.steps).min(free);
        row.steps = row.steps.saturating_add(given);
        free = free.saturating_sub(given);
    }
}
