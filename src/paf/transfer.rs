//! From fair shares to PAF allocations (§III-A, §III-B, Algorithm 1, lines 4-14).
//!
//! `minAlloc_j` is the smallest `x` with `p_j(x) >= α p_j(fair_j)`. Then Algorithm 1 moves
//! slots, one at a time, from the *giver* with the smallest `sacrificeRate = Δ_j(x_j)` among the
//! jobs above their `minAlloc`, to the *taker* with the largest `benefitRate = Δ_j(x_j + 1)`
//! among the other jobs (zero at or past the demand), while the sacrifice is strictly below
//! the benefit. Ties go to the lower index on both sides. Slots are only moved, so
//! `Σ x_j = Σ fair_j` throughout.
//!
//! Three ways to run it, all returning the same allocation:
//! - [`greedy`] with [`Step::Slot`]: Algorithm 1 itself, with two indexed heaps (the paper's
//!   O(M log N)): the reference.
//! - [`greedy`] with [`Step::Run`]: the same loop, moving a whole block at once while both the
//!   giver's and the taker's increments stay equal (between breakpoints of their curves),
//!   since nothing that decides the next pick changes within such a block. Exact for any
//!   curves.
//! - [`select`], for curves concave above `minAlloc` (Theorem 1's setting): a selection
//!   instead of a simulation, below.
//!
//! **Why selection gives the same answer.** With concave curves, every transfer of Algorithm 1
//! pairs a giver increment below a taker increment, givers' increments taken in increasing
//! order (ties: lower index first) and takers' in decreasing order (ties: lower index first),
//! and no job both gives and takes (the one-direction argument of Theorem 1's proof). So the
//! slots each job holds at the end are the `R = Σ (fair_j - minAlloc_j)` best of all the
//! increments `Δ_j(x)`, `minAlloc_j < x <= d_j`, under the total order: larger value first;
//! at equal value, an increment held at the fair share before one that is not (a transfer
//! needs a strict gain); among held ones the higher index first (the lower index gives
//! first); among the others the lower index first. Each job's increments come in that order
//! already (concavity), so `x_j = minAlloc_j + (how many of its increments are among the R
//! best)`: a per-job count for a threshold value found by search, then the ties at the
//! threshold shared out in the order above. The search narrows a value bracket by linear
//! interpolation of the count (bisection whenever that fails to halve it) with per-job
//! brackets on the counts, so late rounds touch few jobs and few points.

use super::curve::{at, increment};
use super::jobs::Jobs;
use crate::heap::LowerIndex;
use crate::heap::{Heap, HeapSlot};
use crate::num::order_bits;

/// How Algorithm 1's loop advances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One slot per iteration, as the paper writes it.
    Slot,
    /// As many slots as keep the giver and the taker the same (see the module documentation).
    Run,
}

/// Per-job scratch of `select`: its count bracket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bracket {
    lo: u32,
    hi: u32,
    count: u32,
}

impl Bracket {
    /// The value to fill storage with.
    pub const EMPTY: Bracket = Bracket {
        lo: 0,
        hi: 0,
        count: 0,
    };
}

/// The smallest `x` in `0..=fair` with `p(x) >= alpha p(fair)` (`alpha` in `[0, 1]`).
pub(crate) fn min_alloc(points: &[f64], fair: u32, alpha: f64) -> u32 {
    let target = alpha * at(points, fair);
    let upto = points.get(..=fair as usize).unwrap_or(points);
    upto.partition_point(|&p| p < target) as u32
}

/// A key that orders values from the largest down (`-0.0` folded into `0.0`).
fn descending(value: f64) -> u64 {
    order_bits(0.0 - value)
}

/// Algorithm 1 on `paf` (fair shares on entry, PAF allocations on return), with minimum
/// allocations `min`; `givers` and `takers` are heap scratch as long as the jobs.
pub(crate) fn greedy<J: Jobs + ?Sized>(
    jobs: &J,
    min: &[u32],
    paf: &mut [u32],
    givers: &mut [HeapSlot<u64>],
    takers: &mut [HeapSlot<u64>],
    step: Step,
) {
    let (mut givers_len, mut takers_len) = (0, 0);
    givers.fill(HeapSlot::VACANT);
    takers.fill(HeapSlot::VACANT);
    let x_of = |paf: &[u32], j: u32| paf.get(j as usize).copied().unwrap_or_default();
    let min_of = |j: u32| min.get(j as usize).copied().unwrap_or_default();
    let sacrifice = |paf: &[u32], j: u32| increment(jobs.points(j as usize), x_of(paf, j));
    let benefit =
        |paf: &[u32], j: u32| increment(jobs.points(j as usize), x_of(paf, j).saturating_add(1));
    // Puts job j back into both heaps with the keys of its current allocation.
    let refresh = |paf: &[u32],
                   j: u32,
                   givers: &mut Heap<'_, u64, LowerIndex>,
                   takers: &mut Heap<'_, u64, LowerIndex>| {
        givers.remove(j);
        if x_of(paf, j) > min_of(j) {
            givers.push(j, order_bits(sacrifice(paf, j)));
        }
        takers.remove(j);
        takers.push(j, descending(benefit(paf, j)));
    };
    {
        let mut g = Heap::new(givers, &mut givers_len, LowerIndex);
        let mut t = Heap::new(takers, &mut takers_len, LowerIndex);
        for j in 0..jobs.len() as u32 {
            refresh(paf, j, &mut g, &mut t);
        }
    }
    loop {
        let mut g = Heap::new(givers, &mut givers_len, LowerIndex);
        let mut t = Heap::new(takers, &mut takers_len, LowerIndex);
        let Some((_, giver)) = g.peek() else {
            break;
        };
        // The best taker other than the giver.
        let giver_key = t.remove(giver);
        let taker = t.peek().map(|(_, j)| j);
        if let Some(key) = giver_key {
            t.push(giver, key);
        }
        let Some(taker) = taker else {
            break;
        };
        let (loss, gain) = (sacrifice(paf, giver), benefit(paf, taker));
        if loss >= gain {
            break;
        }
        let slots = match step {
            Step::Slot => 1,
            Step::Run => {
                let (xg, xt) = (x_of(paf, giver), x_of(paf, taker));
                let points_g = jobs.points(giver as usize);
                let points_t = jobs.points(taker as usize);
                let down = (1..xg.saturating_sub(min_of(giver)))
                    .take_while(|&k| increment(points_g, xg.saturating_sub(k)) == loss)
                    .count();
                let up = (1..=u32::MAX)
                    .take_while(|&k| {
                        increment(points_t, xt.saturating_add(1).saturating_add(k)) == gain
                    })
                    .count();
                down.min(up).saturating_add(1) as u32
            }
        };
        if let Some(x) = paf.get_mut(giver as usize) {
            *x = x.saturating_sub(slots);
        }
        if let Some(x) = paf.get_mut(taker as usize) {
            *x = x.saturating_add(slots);
        }
        refresh(paf, giver, &mut g, &mut t);
        refresh(paf, taker, &mut g, &mut t);
    }
}

/// Whether every job's curve is concave above its minimum allocation, so that [`select`]
/// applies.
pub(crate) fn concave_above_min<J: Jobs + ?Sized>(jobs: &J, min: &[u32]) -> bool {
    (0..jobs.len()).all(|j| jobs.concave_from(j) <= min.get(j).copied().unwrap_or_default())
}

/// Algorithm 1's allocation by selection (see the module documentation), for curves concave
/// above `min`: `paf` holds the fair shares on entry and the PAF allocations on return;
/// `brackets` is scratch as long as the jobs.
pub(crate) fn select<J: Jobs + ?Sized>(
    jobs: &J,
    min: &[u32],
    paf: &mut [u32],
    brackets: &mut [Bracket],
) {
    let n = jobs.len();
    let min_of = |j: usize| min.get(j).copied().unwrap_or_default();
    let held = |paf: &[u32], j: usize| {
        paf.get(j)
            .copied()
            .unwrap_or_default()
            .saturating_sub(min_of(j))
    };
    // The curve's own demand: a job without a curve has no points, so nothing to take.
    let span = |j: usize| (jobs.points(j).len().saturating_sub(1) as u32).saturating_sub(min_of(j));
    // The i-th increment above minAlloc, i >= 1, and its key.
    let key = |j: usize, i: u32| order_bits(increment(jobs.points(j), min_of(j).saturating_add(i)));

    // Nothing moves unless the smallest held increment is below the largest one not held.
    let mut lowest_held = None::<u64>;
    let mut highest_free = None::<u64>;
    let mut wanted: u64 = 0;
    for j in 0..n {
        let h = held(paf, j);
        wanted = wanted.saturating_add(u64::from(h));
        if h > 0 {
            let k = key(j, h);
            lowest_held = Some(lowest_held.map_or(k, |m| m.min(k)));
        }
        if h < span(j) {
            let k = key(j, h.saturating_add(1));
            highest_free = Some(highest_free.map_or(k, |m| m.max(k)));
        }
    }
    let (Some(lowest), Some(highest)) = (lowest_held, highest_free) else {
        return;
    };
    if lowest >= highest {
        return;
    }

    // Count of job j's increments above `threshold`, searched within its bracket.
    let count_above = |j: usize, b: &Bracket, threshold: u64| -> u32 {
        let (mut lo, mut hi) = (b.lo, b.hi);
        while lo < hi {
            let mid = lo.saturating_add(hi.saturating_sub(lo).div_ceil(2));
            if key(j, mid) > threshold {
                lo = mid;
            } else {
                hi = mid.saturating_sub(1);
            }
        }
        lo
    };
    // Counts every job at `threshold` into `count`; returns their sum.
    let evaluate = |brackets: &mut [Bracket], threshold: u64| -> u64 {
        let mut total: u64 = 0;
        for (j, b) in brackets.iter_mut().enumerate().take(n) {
            b.count = if b.lo == b.hi {
                b.lo
            } else {
                count_above(j, b, threshold)
            };
            total = total.saturating_add(u64::from(b.count));
        }
        total
    };
    let finish = |paf: &mut [u32], brackets: &[Bracket]| {
        for (j, (x, b)) in paf.iter_mut().zip(brackets).enumerate().take(n) {
            *x = min_of(j).saturating_add(b.count);
        }
    };

    // Invariant: count(low) >= wanted > count(high), brackets exact at both ends. Every held
    // increment is above `low` and every free one at most `high`, which bounds the first two
    // searches: count(high) <= held <= count(low).
    let mut low = lowest.saturating_sub(1);
    let mut high = highest;
    for (j, b) in brackets.iter_mut().enumerate().take(n) {
        *b = Bracket {
            lo: 0,
            hi: held(paf, j),
            count: 0,
        };
    }
    let mut above_high = evaluate(brackets, high);
    for (j, b) in brackets.iter_mut().enumerate().take(n) {
        b.lo = b.count;
        b.hi = span(j);
    }
    let mut above_low = evaluate(brackets, low);
    if above_low == wanted {
        return finish(paf, brackets);
    }
    for b in brackets.iter_mut().take(n) {
        b.hi = b.count;
    }
    let mut bisect = false;
    while high.saturating_sub(low) > 1 {
        let width = high.saturating_sub(low);
        let offset = if bisect {
            width / 2
        } else {
            // count falls from above_low at `low` to above_high at `high`: aim where it
            // crosses `wanted`.
            let fraction = u128::from(above_low.saturating_sub(wanted));
            let whole = u128::from(above_low.saturating_sub(above_high)).max(1);
            u128::from(width)
                .saturating_mul(fraction)
                .checked_div(whole)
                .unwrap_or_default() as u64
        };
        let pivot = low.saturating_add(offset.clamp(1, width.saturating_sub(1)));
        let above = evaluate(brackets, pivot);
        if above == wanted {
            return finish(paf, brackets);
        }
        if above > wanted {
            low = pivot;
            above_low = above;
            for b in brackets.iter_mut().take(n) {
                b.hi = b.count;
            }
        } else {
            high = pivot;
            above_high = above;
            for b in brackets.iter_mut().take(n) {
                b.lo = b.count;
            }
        }
        bisect = high.saturating_sub(low) > width / 2;
    }

    // Every increment in (low, high] has the threshold value: share the ties out, held ones
    // first by descending index, then the others by ascending index.
    let mut left = wanted.saturating_sub(above_high);
    for (j, b) in brackets.iter_mut().enumerate().take(n).rev() {
        let tied_held = b.hi.min(held(paf, j)).saturating_sub(b.lo);
        let take = tied_held.min(left.min(u64::from(u32::MAX)) as u32);
        b.count = b.lo.saturating_add(take);
        left = left.saturating_sub(u64::from(take));
    }
    for (j, b) in brackets.iter_mut().enumerate().take(n) {
        let tied_free = b.hi.saturating_sub(b.lo.max(held(paf, j)));
        let take = tied_free.min(left.min(u64::from(u32::MAX)) as u32);
        b.count = b.count.saturating_add(take);
        left = left.saturating_sub(u64::from(take));
    }
    finish(paf, brackets);
}
