//! Progress curves from observed task durations: what a job's run on `x` slots would take, and
//! the curve `p(0..=d)` PAF allocates with (Chen, Wang, Li: *Performance-Aware Fair Scheduling:
//! Exploiting Demand Elasticity of Data Analytics Jobs*, IEEE INFOCOM 2018).
//!
//! **What.** A job is one stage of tasks with known durations, started in the order given. On
//! `x` slots it runs as list scheduling does: each task starts on the slot that frees first. A
//! slot's first task runs cold, its full duration; a later task of the same job on that slot
//! runs warm, its duration over the JVM warm-up factor `δ >= 1` (§II-B, Fig. 2b: reused
//! executors skip the JVM's warm-up; §V-B draws `δ` from `[1, 8]`). When a warm slot and a
//! cold one free at the same time, the warm one is taken. [`makespan`] is the job's completion
//! time (JCT) alone on `x` slots.
//!
//! **Why.** PAF needs each job's progress rate on `x` slots (§II-A: the shortest JCT over the
//! JCT on `x` slots), and its algorithm assumes a perfect model of it (§IV-A; for recurring
//! jobs, profiled from past runs). From a run's task durations, [`curve_from_tasks`] computes
//! it exactly: `p(0) = 0`, `p(x) = shortest / makespan(x)` for
//! `x = 1..=d`, `d` the number of tasks and `shortest` the least makespan over every `x`
//! (the paper takes the JCT at full parallelism; with warm-up a job can be faster on fewer
//! slots, as in Fig. 3, and the least over every `x` keeps `p <= 1`), kept at its running
//! maximum as [`super::Ernest::tabulate`] does: slots past a job's best count add nothing, as
//! it leaves them idle. The result passes [`super::curve::check`] and reaches exactly 1 at the
//! fewest slots giving the shortest JCT.
//!
//! **How.** The slots live in a binary min-heap of their free times, in the caller's scratch
//! slice (one `f64` a slot), so nothing is allocated: O(d log d) for one makespan, O(d² log d)
//! for a curve. Slots are interchangeable apart from their free time, so the heap holds only
//! the warm slots' free times, and the cold ones are a count (all free at 0): a plain heap of
//! keys, where the crate's indexed heap ([`crate::heap`]) would carry an item and a position
//! per slot that nothing here looks up, and a C, Java or Go caller can pass a plain array of
//! doubles. The floats go through the same operations in the same order as the list
//! scheduler the simulator had before it called this module (a `BinaryHeap` of `(free time,
//! cold)`, kept as the reference in `tests/paf_profile.rs`), so results agree bit for bit.
//!
//! **Domain.** Durations are finite and not negative (`-0.0` counts as 0), and their sum is
//! finite: every finish time is then at most that sum (a slot's finish times add a subset of
//! the durations, each at most its own, in order), so nothing overflows.

use crate::num;
use crate::{Error, Result};

/// Checks what both calls share, in this order: [`Error::Empty`] for no task; for the first
/// duration that is NaN or infinite, [`Error::NotFinite`], or negative, [`Error::Negative`];
/// [`Error::OutOfRange`] when the durations sum beyond `f64::MAX`; for `warmup`,
/// [`Error::NotFinite`] (NaN or infinite) or [`Error::OutOfRange`] (below 1). Returns the
/// longest duration.
fn check(durations: &[f64], warmup: f64) -> Result<f64> {
    if durations.is_empty() {
        return Err(Error::Empty);
    }
    let (mut total, mut longest) = (0.0f64, 0.0f64);
    for &duration in durations {
        if num::finite(duration)? < 0.0 {
            return Err(Error::Negative);
        }
        total += duration;
        longest = longest.max(duration);
    }
    if !total.is_finite() {
        return Err(Error::OutOfRange);
    }
    if num::finite(warmup)? < 1.0 {
        return Err(Error::OutOfRange);
    }
    Ok(longest)
}

/// The JCT of a job alone on `slots` slots: its tasks of `durations` (in start order) each
/// started on the slot that frees first, a slot's first task cold (its duration), its later
/// ones warm (duration / `warmup`), a warm slot before a cold one at the same free time (see
/// the module documentation). `scratch` holds the slots' heap: at least `min(durations.len(),
/// slots)` values, whose contents on return are unspecified. 0 when every duration is 0.
///
/// Errors, before anything is written: as the module's checks say ([`Error::Empty`],
/// [`Error::NotFinite`], [`Error::Negative`], [`Error::OutOfRange`] for the durations, then
/// for `warmup`); [`Error::NotPositive`] for 0 slots; [`Error::CapacityFull`] for a `scratch`
/// shorter than `min(durations.len(), slots)`.
pub fn makespan(durations: &[f64], warmup: f64, slots: u32, scratch: &mut [f64]) -> Result<f64> {
    check(durations, warmup)?;
    if slots == 0 {
        return Err(Error::NotPositive);
    }
    let parallel = durations.len().min(slots as usize);
    let heap = scratch.get_mut(..parallel).ok_or(Error::CapacityFull)?;
    Ok(run(durations, warmup, heap))
}

/// Writes the progress curve `p(0..=d)` of a job of `d = durations.len()` tasks (in start
/// order) with warm-up factor `warmup` into `out` (`d + 1` values) and returns the shortest
/// JCT, the least [`makespan`] over `1..=d` slots: `p(0) = 0`, and `p(x)` the running maximum
/// of `shortest / makespan(x)` (see the module documentation: PAF paper, INFOCOM 2018, §II-A,
/// §II-B, §V-B). The curve is 1 from the fewest slots giving the shortest JCT on, below 1
/// before. `scratch` holds the slots' heap: at least `d` values, whose contents on return are
/// unspecified. Each makespan costs O(d log d), the curve O(d² log d).
///
/// Errors, before anything is written to `out`: as the module's checks say ([`Error::Empty`],
/// [`Error::NotFinite`], [`Error::Negative`], [`Error::OutOfRange`] for the durations, then
/// for `warmup`); [`Error::LengthMismatch`] unless `out` holds `d + 1` values;
/// [`Error::CapacityFull`] for a `scratch` shorter than `d`; [`Error::NotPositive`] when the
/// job would take no time on some number of slots, so that `p` would be `0 / 0`: every
/// duration is 0, or the longest is so small that over `warmup` it rounds to 0.
pub fn curve_from_tasks(
    durations: &[f64],
    warmup: f64,
    scratch: &mut [f64],
    out: &mut [f64],
) -> Result<f64> {
    let longest = check(durations, warmup)?;
    let width = durations.len();
    if out.len() != width.saturating_add(1) {
        return Err(Error::LengthMismatch);
    }
    let scratch = scratch.get_mut(..width).ok_or(Error::CapacityFull)?;
    // The longest task runs cold (longest > 0) or warm (longest / warmup > 0) on any number
    // of slots, and ends no earlier than its run time: every makespan is positive.
    if longest / warmup <= 0.0 {
        return Err(Error::NotPositive);
    }
    let Some((first, times)) = out.split_first_mut() else {
        return Err(Error::LengthMismatch);
    };
    let mut shortest = f64::INFINITY;
    for (x, time) in times.iter_mut().enumerate() {
        let heap = scratch.get_mut(..=x).unwrap_or_default();
        *time = run(durations, warmup, heap);
        shortest = shortest.min(*time);
    }
    *first = 0.0;
    let mut best = 0.0;
    for p in times {
        best = f64::max(best, shortest / *p);
        *p = best;
    }
    Ok(shortest)
}

/// List scheduling of `durations` on `heap.len()` slots (checked input, at least one slot):
/// the makespan. `heap[..warm]` is a min-heap of the warm slots' free times (non-negative, so
/// their bits order as the numbers); the other `heap.len() - warm` slots are cold, free at 0.
fn run(durations: &[f64], warmup: f64, heap: &mut [f64]) -> f64 {
    let mut warm = 0usize;
    let mut done = 0.0f64;
    for &task in durations {
        let earliest = heap.first().copied().filter(|_| warm > 0);
        let finish = match earliest {
            // A warm slot free at 0 goes before the cold ones; otherwise a cold slot if any.
            Some(at) if at.to_bits() == 0 || warm == heap.len() => {
                let finish = at + task / warmup;
                if let Some(top) = heap.first_mut() {
                    *top = finish;
                }
                sift_down(heap.get_mut(..warm).unwrap_or_default());
                finish
            }
            _ => {
                let finish = 0.0 + task;
                if let Some(slot) = heap.get_mut(warm) {
                    *slot = finish;
                }
                warm = warm.saturating_add(1);
                sift_up(heap.get_mut(..warm).unwrap_or_default());
                finish
            }
        };
        done = done.max(finish);
    }
    done
}

/// Restores the heap order after the root's free time grew.
fn sift_down(heap: &mut [f64]) {
    let mut at = 0usize;
    loop {
        let left = at.saturating_mul(2).saturating_add(1);
        let mut smallest = at;
        for child in [left, left.saturating_add(1)] {
            if let (Some(c), Some(s)) = (heap.get(child), heap.get(smallest)) {
                if c.to_bits() < s.to_bits() {
                    smallest = child;
                }
            }
        }
        if smallest == at {
            return;
        }
        heap.swap(at, smallest);
        at = smallest;
    }
}

/// Restores the heap order after a free time was appended.
fn sift_up(heap: &mut [f64]) {
    let mut at = heap.len().saturating_sub(1);
    while at > 0 {
        let parent = at.saturating_sub(1) / 2;
        match (heap.get(at), heap.get(parent)) {
            (Some(a), Some(p)) if a.to_bits() < p.to_bits() => heap.swap(at, parent),
            _ => return,
        }
        at = parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_slot_runs_the_rest_warm() {
        let mut scratch = [0.0; 3];
        // 4 cold, then 2 / 2 and 6 / 2 warm.
        assert_eq!(makespan(&[4.0, 2.0, 6.0], 2.0, 1, &mut scratch), Ok(8.0));
        // As many slots as tasks: every task cold.
        assert_eq!(makespan(&[4.0, 2.0, 6.0], 2.0, 7, &mut scratch), Ok(6.0));
        assert_eq!(makespan(&[0.0, -0.0], 3.0, 1, &mut scratch), Ok(0.0));
        assert_eq!(
            makespan(&[1.0; 4], 1.0, 4, &mut scratch),
            Err(Error::CapacityFull)
        );
        assert_eq!(
            makespan(&[1.0], 1.0, 0, &mut scratch),
            Err(Error::NotPositive)
        );
    }

    #[test]
    fn a_warm_slot_free_at_zero_goes_first() {
        // Task 0 takes no time on slot A, which is then warm and free at 0: task 1 takes it
        // (6 / 3 = 2) before the cold slot B, which task 2 takes (3 cold).
        let mut scratch = [0.0; 2];
        assert_eq!(makespan(&[0.0, 6.0, 3.0], 3.0, 2, &mut scratch), Ok(3.0));
    }
}
