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
//! threshold shared out in the order above. The search narrows a value bracket with per-job
//! brackets on the counts, so late rounds touch few jobs and few points; its guesses (see
//! [`select`]) follow Ernest's model of the curves (§IV-A), fitted to each job next to its fair
//! share ([`model`]) and moved through one probe of each curve ([`first_guess`]), so that on
//! such curves the first round or two land next to the threshold, and fall back to bisection
//! when they do not. In every round, each job's count is galloped to from its modelled count
//! at the round's threshold, a probe or two away on such curves, instead of bisecting its
//! bracket. Once an evaluated end misses the target count by few increments, the missing ones
//! are taken (or the extra ones given back) in the total order ([`pick`]) instead of by more
//! rounds over every job.

use super::curve::increment;
use super::jobs::Jobs;
use crate::heap::LowerIndex;
use crate::heap::{Heap, HeapSlot};
use crate::num::{from_order_bits, order_bits};

/// How Algorithm 1's loop advances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One slot per iteration, as the paper writes it.
    Slot,
    /// As many slots as keep the giver and the taker the same (see the module documentation).
    Run,
}

/// Per-job scratch of `select`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bracket {
    /// The job's count at a threshold `T` modelled as `offset + sqrt(reach^2 / T + 1/4)`
    /// ([`model`]); `reach` is 0 where no model was fitted.
    reach: f64,
    /// See `reach`.
    offset: f64,
    /// Key of the job's lowest held increment `Δ(fair)`; `u64::MAX` when it holds none.
    lowest_held: u64,
    /// Key of the job's highest free increment `Δ(fair + 1)`; 0 when none is free.
    highest_free: u64,
    /// Increments held at the fair share: `fair - minAlloc`.
    held: u32,
    /// Bounds on the count at every threshold between the search's two ends. At most the span
    /// `d - minAlloc`, so that `minAlloc` plus any count, probed index or bound is at most `d`
    /// (below 2^32): those sums add without saturating (one instruction each instead of two or
    /// three, on every probe).
    lo: u32,
    hi: u32,
    /// The count at the threshold evaluated last.
    count: u32,
}

impl Bracket {
    /// The value to fill storage with.
    pub const EMPTY: Bracket = Bracket {
        reach: 0.0,
        offset: 0.0,
        lowest_held: 0,
        highest_free: 0,
        held: 0,
        lo: 0,
        hi: 0,
        count: 0,
    };
}

/// The smallest `x` in `0..=fair` with `p(x) >= alpha p(fair)` (`alpha` in `[0, 1]`), and
/// `p(fair)`. `#[inline]`: called once per job by the generic allocation, which is compiled in
/// the caller's crate, where a call cost a tenth of the search.
#[inline]
pub(crate) fn min_alloc(points: &[f64], fair: u32, alpha: f64) -> (u32, f64) {
    // `fair` clamped to the demand (the curve is flat past it), once for both values.
    let top = (fair as usize).min(points.len().saturating_sub(1));
    let upto = points.get(..=top).unwrap_or_default();
    let at_fair = upto.last().copied().unwrap_or_default();
    let target = alpha * at_fair;
    (upto.partition_point(|&p| p < target) as u32, at_fair)
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
    (0..jobs.len()).all(|j| jobs.concave_above(j, min.get(j).copied().unwrap_or_default()))
}

/// How many of the increments `Δ(base + i)`, `i >= 1`, are above `bar` (see [`bar_of`]),
/// knowing that it is in `lo..=hi` (the increments never increase there): a binary search
/// that always halves. (A branch-free step, from the sign of `bar - Δ`, ran slower: one more
/// instruction per step and no speculation past the comparison.) `#[inline]`, as the curve
/// accessors: the generic allocation is compiled in the caller's crate.
#[inline]
fn count_above(points: &[f64], base: u32, lo: u32, hi: u32, bar: f64) -> u32 {
    // The k-th unknown increment, k >= 0, is Δ(base + lo + 1 + k) = window[k + 1] - window[k].
    let window = points
        .get(base.wrapping_add(lo) as usize..)
        .unwrap_or_default();
    let above = |k: usize| match (window.get(k), window.get(k.wrapping_add(1))) {
        (Some(&below), Some(&at)) => at - below > bar,
        _ => false,
    };
    // Every k below `low` is above; the unknown part of the count is in `low..=low + size`
    // (so `low + size` never exceeds `hi - lo`, and nothing below wraps).
    let (mut low, mut size) = (0usize, hi.saturating_sub(lo) as usize);
    while size > 1 {
        let half = size / 2;
        if above(low.wrapping_add(half)) {
            low = low.wrapping_add(half);
        }
        size = size.wrapping_sub(half);
    }
    let last = usize::from(size == 1 && above(low));
    lo.saturating_add(low.wrapping_add(last) as u32)
}

/// Narrows `lo..=hi`, the bounds on how many of the increments `Δ(base + x)`, `x >= 1`, are
/// above `bar`, around `from` (in `lo..=hi`): the count at a nearby threshold, so that a count
/// that moved by `d` costs about `2 log2 d` probes instead of a bisection of the whole bracket
/// (a count that did not move: one or two).
#[inline]
fn around(points: &[f64], base: u32, lo: u32, hi: u32, from: u32, bar: f64) -> (u32, u32) {
    // Whether the count is at least `x` (for `x` in `lo + 1..=hi`): Δ(base + x) is above.
    // `base + hi` is at most the demand ([`Bracket::lo`]).
    let reaches = |x: u32| {
        let at = base.wrapping_add(x) as usize;
        match (points.get(at.wrapping_sub(1)), points.get(at)) {
            (Some(&below), Some(&at)) => at - below > bar,
            _ => false,
        }
    };
    if from < hi && reaches(from.wrapping_add(1)) {
        let (mut low, mut step) = (from.wrapping_add(1), 1u32);
        loop {
            let probe = low.saturating_add(step);
            if probe > hi {
                return (low, hi);
            }
            if !reaches(probe) {
                return (low, probe.saturating_sub(1));
            }
            low = probe;
            step = step.saturating_mul(2);
        }
    }
    if from > lo && !reaches(from) {
        let (mut high, mut step) = (from.saturating_sub(1), 1u32);
        loop {
            let probe = high.saturating_sub(step).saturating_add(1);
            if probe <= lo || high < step {
                return (lo, high);
            }
            if reaches(probe) {
                return (probe, high);
            }
            high = probe.saturating_sub(1);
            step = step.saturating_mul(2);
        }
    }
    (from, from)
}

/// The value an increment must exceed for its key to exceed `threshold`, for a threshold at
/// least the key of `-0.0` and at most that of a finite increment, as the search's are.
/// Comparing the values themselves spares [`order_bits`] in the inner loop. Increments are
/// `+0.0` or positive, so the key of `-0.0` (just below `+0.0`'s) becomes a value below 0.
fn bar_of(threshold: u64) -> f64 {
    if threshold < order_bits(0.0) {
        -1.0
    } else {
        from_order_bits(threshold)
    }
}

/// One end of the threshold search: a key and, once evaluated, the count above it.
#[derive(Clone, Copy)]
struct End {
    key: u64,
    above: Option<u64>,
}

/// An evaluated threshold key and the count above it.
#[derive(Clone, Copy)]
struct Sample {
    key: u64,
    count: u64,
}

/// The most increments [`pick`] takes or gives back from an evaluated end.
const PICKED: usize = 32;

/// How far past the target count a Newton step of [`select`] aims.
const MARGIN: f64 = 4.0;

/// From an evaluated end whose count misses the target by `more` (at most [`PICKED`]), with
/// every job's count there in its bracket's `lo` (`upward`: the count is below the target) or
/// `hi` (above it): takes the `more` best increments not counted, or gives back the `more`
/// worst counted, in the total order of the module documentation, and leaves every job's count
/// in `count`. Each job's increments come in that order (concavity), so the `more` first of
/// all are the `more` first of a heap fed with each job's first candidate (upward: its best
/// not counted; downward: its worst counted), then, for each job kept, its next ones while
/// they displace one kept ([`best`]). The candidates beyond `bar` (upward: at most it;
/// downward: at least it), where the models put the end of those `more`, are skipped unless
/// the heap does not fill without them, so that most jobs cost one probe and a comparison.
fn pick<J: Jobs + ?Sized>(
    jobs: &J,
    min: &[u32],
    brackets: &mut [Bracket],
    more: u64,
    upward: bool,
    bar: f64,
) {
    let wanted = (more as usize).clamp(1, PICKED);
    let mut heap = best(jobs, min, brackets, wanted, upward, bar);
    if heap.iter().take(wanted).any(|&rank| rank == 0) {
        let everything = if upward {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        heap = best(jobs, min, brackets, wanted, upward, everything);
    }
    // The counts: each kept increment moves its job by one.
    for &rank in heap.iter().take(wanted).filter(|&&rank| rank > 0) {
        let job = job_of(if upward { rank } else { !rank });
        if let Some(b) = brackets.get_mut(job as usize) {
            b.count = if upward {
                b.count.saturating_add(1)
            } else {
                b.count.saturating_sub(1)
            };
        }
    }
}

/// The `wanted` largest ranks ([`rank_of`]) of the candidates of [`pick`] inside `bar`
/// (upward: above it; downward: below it), as a heap whose root is the smallest, 0 (below
/// every rank) where fewer are found; every job's count set to the end's.
fn best<J: Jobs + ?Sized>(
    jobs: &J,
    min: &[u32],
    brackets: &mut [Bracket],
    wanted: usize,
    upward: bool,
    bar: f64,
) -> [u128; PICKED] {
    // The rank of job `j`'s increment `at` (past its minimum) that [`pick`] would take
    // (upward) or give back (downward), the larger the sooner; none beyond `bar`.
    let rank = |j: u32, base: u32, at: u32, held: u32| {
        let value = increment(jobs.points(j as usize), base.wrapping_add(at));
        if upward {
            (value > bar).then(|| rank_of(value, at <= held, j))
        } else {
            (value < bar).then(|| !rank_of(value, at <= held, j))
        }
    };
    let mut heap = [0u128; PICKED];
    let keep = |heap: &mut [u128; PICKED], rank: Option<u128>| {
        let Some(rank) = rank else {
            return false;
        };
        let kept = heap.first().is_some_and(|&root| rank > root);
        if kept {
            replace_root(heap, wanted, rank);
        }
        kept
    };
    // `min` alongside the brackets (as long), sparing a bounds check a job.
    for (j, (b, &base)) in brackets.iter_mut().zip(min).enumerate() {
        b.count = if upward { b.lo } else { b.hi };
        let (open, at) = if upward {
            (b.count < b.hi, b.count.wrapping_add(1))
        } else {
            (b.count > b.lo, b.count)
        };
        if open {
            keep(&mut heap, rank(j as u32, base, at, b.held));
        }
    }
    // Each kept job's further candidates, while they rank above the smallest kept: the heap
    // ends with the `wanted` largest ranks of all (a job's come in decreasing order, so an
    // evicted one never has a successor kept).
    let mut kept_jobs = [u32::MAX; PICKED];
    for (job, &rank) in kept_jobs.iter_mut().zip(heap.iter().take(wanted)) {
        if rank > 0 {
            *job = job_of(if upward { rank } else { !rank });
        }
    }
    for &job in kept_jobs.iter().take(wanted) {
        let Some(b) = brackets.get(job as usize) else {
            continue;
        };
        let base = min.get(job as usize).copied().unwrap_or_default();
        let mut at = if upward {
            b.count.saturating_add(1)
        } else {
            b.count
        };
        loop {
            let open = if upward {
                at < b.hi
            } else {
                at > b.lo.saturating_add(1)
            };
            if !open {
                break;
            }
            at = if upward {
                at.saturating_add(1)
            } else {
                at.saturating_sub(1)
            };
            if !keep(&mut heap, rank(job, base, at, b.held)) {
                break;
            }
        }
    }
    heap
}

/// Replaces the root of the heap `heap[..len]` (each rank at most its children's) by `rank`:
/// the smaller child moves up into the hole until `rank` fits there, one move a level where
/// putting `rank` at the root and swapping it down took a swap (two loads, two stores).
fn replace_root(heap: &mut [u128; PICKED], len: usize, rank: u128) {
    let mut hole = 0usize;
    loop {
        let left = hole.wrapping_mul(2).wrapping_add(1);
        let right = left.wrapping_add(1);
        let rank_at = |i: usize| heap.get(i).copied().unwrap_or_default();
        if left >= len {
            break;
        }
        let (mut child, mut least) = (left, rank_at(left));
        if right < len && rank_at(right) < least {
            (child, least) = (right, rank_at(right));
        }
        if least >= rank {
            break;
        }
        if let Some(slot) = heap.get_mut(hole) {
            *slot = least;
        }
        hole = child;
    }
    if let Some(slot) = heap.get_mut(hole) {
        *slot = rank;
    }
}

/// A rank of increments in the total order of the module documentation (the larger, the
/// sooner): the value's order bits, then whether it is held, then the job's index (held:
/// the higher first; free: the lower first).
fn rank_of(value: f64, held: bool, job: u32) -> u128 {
    let index = if held { job } else { !job };
    u128::from(order_bits(value)).wrapping_shl(33) | u128::from(held) << 32 | u128::from(index)
}

/// The job of a [`rank_of`].
fn job_of(rank: u128) -> u32 {
    let held = rank >> 32 & 1 == 1;
    if held {
        rank as u32
    } else {
        !(rank as u32)
    }
}

/// How many increments lie between the two ends: `count(low) - count(high)`, unknown
/// (`u64::MAX`) until both are evaluated.
fn spread(low: End, high: End) -> u64 {
    match (low.above, high.above) {
        (Some(above_low), Some(above_high)) => above_low.saturating_sub(above_high),
        _ => u64::MAX,
    }
}

/// A job's count at threshold `T` modelled as `offset + sqrt(reach^2 / T + 1/4)`, returned as
/// `(reach, offset)`: Ernest's model without its small terms (§IV-A), `p(x) = x / (a0 x + a2)`,
/// has the increments `Δ(x) = c / ((x + k) (x + k - 1))` with `k = a2 / a0`, which exceed `T`
/// for `x < sqrt(c / T + 1/4) - k + 1/2`; `reach = sqrt(c)` and `k` are fitted through two
/// increments next to the fair share (`at_fair` and `past_fair` are `Δ(fair)` and
/// `Δ(fair + 1)`), and the count is `x - minAlloc`, rising by about `reach` per unit of
/// `T^(-1/2)` (the slopes of the Newton steps, without a division per job). Exact on such
/// curves up to rounding, so that a round's gallops from the modelled counts cost a probe or
/// two a job; a guess only, the probes decide. `(0, 0)` where no two increments there fall.
#[inline]
fn model(
    points: &[f64],
    fair: u32,
    (held, span): (u32, u32),
    (at_fair, past_fair): (f64, f64),
) -> (f64, f64) {
    // The first of the two increments, `at` past the minimum: the fair share's own, or the
    // next one for a job holding none, or the one before for a job holding all.
    let (at, first, second) = if held == 0 {
        (1, past_fair, increment(points, fair.saturating_add(2)))
    } else if held < span {
        (held, at_fair, past_fair)
    } else {
        (
            held.saturating_sub(1),
            increment(points, fair.saturating_sub(1)),
            at_fair,
        )
    };
    // Δ(x) / Δ(x + 1) = (x + 1 + k) / (x - 1 + k), so y = x + k = (Δ(x) + Δ(x + 1)) /
    // (Δ(x) - Δ(x + 1)), and c = Δ(x) y (y - 1).
    let y = (first + second) / (first - second);
    if at == 0 || at >= span || !(y > 1.0 && y < 1e9) {
        return (0.0, 0.0);
    }
    (libm::sqrt(first * y * (y - 1.0)), f64::from(at) - y + 0.5)
}

/// The first guess: the threshold key where the jobs' modelled counts ([`model`]), each
/// within its bracket, add up to `wanted`, by one Newton step in `u = T^(-1/2)` from `u`, where
/// they add up to it unclipped, with each curve probed at its modelled count there and its
/// model's offset moved so that it passes through the increment found (for Ernest's curves with
/// an `a1 x` term, which the two-term model misses, the counts drift by a slot or two away from
/// the fair share; a step on the models alone, without the probes, missed by ~150 increments
/// on the benchmark). The moved offsets stay: the rounds gallop from them.
fn first_guess<J: Jobs + ?Sized>(
    jobs: &J,
    min: &[u32],
    brackets: &mut [Bracket],
    wanted: f64,
    u: f64,
) -> Option<u64> {
    let (mut total, mut slope) = (0.0, 0.0);
    // `min` alongside the brackets (as long), sparing a bounds check a job.
    for (j, (b, &base)) in brackets.iter_mut().zip(min).enumerate() {
        if b.reach > 0.0 {
            let root = libm::sqrt(b.reach * b.reach * u * u + 0.25);
            let top = f64::from(b.hi);
            let mut count = b.offset + root;
            if count > 0.0 && count < top {
                let at = (count as u32).max(1);
                let probe = increment(jobs.points(j), base.wrapping_add(at));
                if probe > 0.0 {
                    b.offset = f64::from(at) - libm::sqrt(b.reach * b.reach / probe + 0.25);
                    count = b.offset + root;
                }
            }
            if count >= top {
                total += top;
            } else if count > 0.0 {
                // Half a slot less: the counts are the modelled values rounded down.
                total += count - 0.5;
                slope += b.reach;
            }
        } else {
            total += f64::from(b.held);
        }
    }
    let u = u + (wanted - total) / slope;
    key_of(1.0 / (u * u)).filter(|_| u > 0.0)
}

/// The key of a guessed threshold value, when the guess is a number at least 0.
fn key_of(value: f64) -> Option<u64> {
    (value >= 0.0 && value.is_finite()).then(|| order_bits(value + 0.0))
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
    let Some(brackets) = brackets.get_mut(..jobs.len()) else {
        return;
    };
    // The per-job loops below walk `min` alongside the brackets (as long as the jobs, as
    // `paf`), sparing a bounds check a job.

    // Nothing moves unless the smallest held increment is below the largest one not held.
    let (mut lowest, mut highest) = (u64::MAX, 0);
    let mut wanted: u64 = 0;
    // For the first guess (below): the modelled counts' Σ offset and Σ reach (where the
    // count is about linear in `T^(-1/2)`), the counts of jobs without a model counted as held,
    // and Σ minAlloc over jobs with a curve.
    let (mut offsets, mut roots, mut floor) = (0.0, 0.0, 0.0);
    for (j, ((b, &fair), &min)) in brackets.iter_mut().zip(paf.iter()).zip(min).enumerate() {
        let points = jobs.points(j);
        let held = fair.saturating_sub(min);
        // The curve's own demand: a job without a curve has no points, so nothing to take.
        let span = (points.len().saturating_sub(1) as u32).saturating_sub(min);
        let increments = (
            increment(points, fair),
            increment(points, fair.saturating_add(1)),
        );
        let (reach, offset) = model(points, fair, (held, span), increments);
        if reach > 0.0 {
            // Half a slot less: the counts are the modelled values rounded down.
            offsets += offset - 0.5;
            roots += reach;
        } else {
            offsets += f64::from(held);
        }
        *b = Bracket {
            reach,
            offset,
            lowest_held: if held > 0 {
                order_bits(increments.0)
            } else {
                u64::MAX
            },
            highest_free: if held < span {
                order_bits(increments.1)
            } else {
                0
            },
            held,
            lo: 0,
            hi: span,
            count: 0,
        };
        lowest = lowest.min(b.lowest_held);
        highest = highest.max(b.highest_free);
        // No wrap: fewer than 2^32 jobs (the capacity is) add counts below 2^32.
        wanted = wanted.wrapping_add(u64::from(held));
        // A job has a curve when it has points ([`Jobs::has_curve`]), already at hand here.
        if !points.is_empty() {
            floor += f64::from(min);
        }
    }
    if lowest >= highest {
        return;
    }

    // Counts every job at `threshold` into `count`; returns their sum and the modelled counts'
    // slope in `T^(-1/2)` (Σ reach) over the jobs whose count is free to move there. A held
    // increment above the threshold, or a free one at most it, narrows the job's bracket for
    // free. A job with a model gallops from its modelled count; one without, from its last
    // count when `near`, else it bisects its bracket.
    let evaluate = |brackets: &mut [Bracket], threshold: u64, near: bool| -> (u64, f64) {
        let (mut total, mut slope, bar) = (0u64, 0.0, bar_of(threshold));
        let inverse = 1.0 / bar;
        let modelled = bar > 0.0;
        for (j, (b, &base)) in brackets.iter_mut().zip(min).enumerate() {
            let (mut lo, mut hi) = (b.lo, b.hi);
            if b.lowest_held > threshold {
                lo = lo.max(b.held);
            } else {
                hi = hi.min(b.held.saturating_sub(1));
            }
            if b.highest_free > threshold {
                lo = lo.max(b.held.saturating_add(1));
            } else {
                hi = hi.min(b.held);
            }
            b.count = if lo < hi {
                let points = jobs.points(j);
                let (lo, hi) = if modelled && b.reach > 0.0 {
                    let root = libm::sqrt(b.reach * b.reach * inverse + 0.25);
                    // Saturating: a negative model gives 0, clamped into the bracket.
                    let guess = (b.offset + root) as u32;
                    if lo < guess && guess < hi {
                        // d/du sqrt(reach^2 u^2 + 1/4), but for the 1/4.
                        slope += b.reach;
                    }
                    around(points, base, lo, hi, guess.clamp(lo, hi), bar)
                } else if near {
                    around(points, base, lo, hi, b.count.clamp(lo, hi), bar)
                } else {
                    (lo, hi)
                };
                if lo < hi {
                    count_above(points, base, lo, hi, bar)
                } else {
                    lo
                }
            } else {
                lo
            };
            // No wrap, as `wanted`.
            total = total.wrapping_add(u64::from(b.count));
        }
        (total, slope)
    };
    let finish = |paf: &mut [u32], brackets: &[Bracket]| {
        for ((x, b), &min) in paf.iter_mut().zip(brackets).zip(min) {
            *x = min.wrapping_add(b.count);
        }
    };

    // Invariant: count(low) >= wanted > count(high), with every bracket holding the counts at
    // both ends (exact at an evaluated end). Every held increment is above `low` and every free
    // one at most `high`. The guesses only decide how fast the search ends, never its result:
    // - none evaluated: where the jobs' modelled counts ([`model`]) add up to `wanted`
    //   ([`first_guess`]);
    // - a round evaluated whose Newton step (the exact count there, the models' slope) falls
    //   inside the ends: that step, aimed [`MARGIN`] past the target;
    // - one round evaluated, where the allocations add up to `X` instead of `Σ fair`: Ernest's
    //   law (increments falling about as `x^-2`) scales the threshold by `(X / Σ fair)^2`,
    //   aiming an eighth of the error past the target so as to land on the other side;
    // - two rounds evaluated: the count is about linear in `T^(-1/2)`, so the secant of the
    //   last two there, when it falls inside the ends (the last two rounds are the nearest,
    //   whether on one side of the target or both);
    // - otherwise, both ends evaluated: interpolate between them in `T^(-1/2)`
    //   (linearly in the keys when the low end is not positive), halving the residual of an end
    //   that stays put (the Illinois rule), so that neither end lingers;
    // - after two rounds in a row that halve neither the keys' interval nor the count's, a
    //   bisection of the keys (first at +0, where flat stretches of curves tie), so about
    //   three rounds per bit of the keys at worst.
    // A round passes over every job; once an evaluated end misses the target by at most
    // [`PICKED`] increments, [`pick`] settles them from there.
    let mut low = End {
        key: lowest.saturating_sub(1),
        above: None,
    };
    let mut high = End {
        key: highest,
        above: None,
    };
    let target = floor + wanted as f64;
    let (mut failures, mut last_low, mut stale) = (0u32, None::<bool>, 1.0);
    let (mut previous, mut latest) = (None::<Sample>, None::<Sample>);
    let mut missed = u64::MAX;
    // The Newton step of the last round (see `newton` below).
    let mut newton = None::<u64>;
    while high.key.saturating_sub(low.key) > 1 {
        let width = high.key.saturating_sub(low.key);
        let before = spread(low, high);
        let bisection = if low.key < order_bits(0.0) {
            order_bits(0.0)
        } else {
            low.key.saturating_add(width / 2)
        };
        let scaled = |at: u64, above: u64| {
            let reached = floor + above as f64;
            let aim = target - (reached - target) / 8.0;
            key_of(from_order_bits(at) * (reached / aim) * (reached / aim))
        };
        // The last two evaluations, wherever they lie: the count is about linear in
        // `T^(-1/2)` near them, so their secant aims at the target from close by. Kept only
        // when it falls strictly inside the ends.
        let secant = match (previous, latest) {
            (Some(a), Some(b)) if a.count != b.count => {
                let (u_a, u_b) = (
                    1.0 / libm::sqrt(from_order_bits(a.key)),
                    1.0 / libm::sqrt(from_order_bits(b.key)),
                );
                let slope = (u_b - u_a) / (b.count as f64 - a.count as f64);
                let u = u_b + (wanted as f64 - b.count as f64) * slope;
                key_of(1.0 / (u * u)).filter(|&key| low.key < key && key < high.key)
            }
            _ => None,
        };
        let guess = match (low.above, high.above) {
            _ if failures >= 2 => None,
            (None, None) => first_guess(
                jobs,
                min,
                brackets,
                wanted as f64,
                (wanted as f64 - offsets) / roots,
            ),
            _ if newton.is_some() => newton,
            _ if secant.is_some() => secant,
            (Some(above), None) => scaled(low.key, above),
            (None, Some(above)) => scaled(high.key, above),
            (Some(above_low), Some(above_high)) => {
                let mut residual_low = above_low.saturating_sub(wanted) as f64;
                let mut residual_high = wanted.saturating_sub(above_high) as f64;
                if last_low == Some(true) {
                    residual_high *= stale;
                } else {
                    residual_low *= stale;
                }
                let fraction = residual_low / (residual_low + residual_high);
                let (from, to) = (from_order_bits(low.key), from_order_bits(high.key));
                if from > 0.0 {
                    let (u_low, u_high) = (1.0 / libm::sqrt(from), 1.0 / libm::sqrt(to));
                    let u = u_low + (u_high - u_low) * fraction;
                    key_of(1.0 / (u * u))
                } else {
                    Some(low.key.saturating_add((width as f64 * fraction) as u64))
                }
            }
        };
        let pivot = guess
            .unwrap_or(bisection)
            .clamp(low.key.saturating_add(1), high.key.saturating_sub(1));
        let (above, slope) = evaluate(brackets, pivot, guess.is_some() && guess == secant);
        if above == wanted {
            return finish(paf, brackets);
        }
        previous = latest;
        latest = Some(Sample {
            key: pivot,
            count: above,
        });
        let moved_low = above > wanted;
        let end = End {
            key: pivot,
            above: Some(above),
        };
        if moved_low {
            low = end;
            for b in brackets.iter_mut() {
                b.hi = b.count;
            }
        } else {
            high = end;
            for b in brackets.iter_mut() {
                b.lo = b.count;
            }
        }
        // Newton's step in `T^(-1/2)` with the models' slope from this round's exact count,
        // aimed [`MARGIN`] increments past the target so as to land on the other side. Kept
        // only when it falls strictly inside the ends.
        newton = {
            let u = 1.0 / libm::sqrt(from_order_bits(pivot));
            let aim = if moved_low {
                wanted as f64 - MARGIN
            } else {
                wanted as f64 + MARGIN
            };
            let u = u + (aim - above as f64) / slope;
            key_of(1.0 / (u * u)).filter(|&key| u > 0.0 && low.key < key && key < high.key)
        };
        stale = if last_low == Some(moved_low) {
            stale * 0.5
        } else {
            1.0
        };
        last_low = Some(moved_low);
        // Progress: the keys' interval or the count's halved or, while every round has landed
        // on one side (one end unevaluated, so the count only nears the target), the count came
        // twice as near it as the round before: at most 64 such rounds in a row.
        let miss = above.abs_diff(wanted);
        let halved = high.key.saturating_sub(low.key) <= width / 2
            || spread(low, high) <= before / 2
            || (spread(low, high) == u64::MAX && miss <= missed / 2);
        missed = miss;
        failures = if halved {
            0
        } else {
            failures.saturating_add(1)
        };
        // The nearer evaluated end, when few enough increments separate it from the target.
        let short = low
            .above
            .map_or(u64::MAX, |above| above.saturating_sub(wanted));
        let long = high
            .above
            .map_or(u64::MAX, |above| wanted.saturating_sub(above));
        if short.min(long) <= PICKED as u64 {
            let upward = long <= short;
            let more = short.min(long);
            // Where the models put half as many increments again past the end: the candidates
            // beyond it are left out unless too few others remain. (Twice as many let in more
            // candidates, each a heap insertion; 1.25 times left too few more often, each time
            // a second pass: both cost more on the benchmark.)
            let end = if upward { high.key } else { low.key };
            let u = 1.0 / libm::sqrt(from_order_bits(end));
            let reach = 1.5 * more as f64 / slope;
            let u = if upward { u + reach } else { u - reach };
            let bar = if u > 0.0 {
                1.0 / (u * u)
            } else {
                f64::INFINITY
            };
            pick(jobs, min, brackets, more, upward, bar);
            return finish(paf, brackets);
        }
    }
    // Both ends exact for the ties: an end never evaluated is evaluated now.
    if low.above.is_none() {
        let _ = evaluate(brackets, low.key, false);
        for b in brackets.iter_mut() {
            b.hi = b.count;
        }
    }
    let above_high = match high.above {
        Some(above) => above,
        None => {
            let (above, _) = evaluate(brackets, high.key, false);
            for b in brackets.iter_mut() {
                b.lo = b.count;
            }
            above
        }
    };

    // Every increment in (low, high] has the threshold value: share the ties out, held ones
    // first by descending index, then the others by ascending index.
    let mut left = wanted.saturating_sub(above_high);
    for b in brackets.iter_mut().rev() {
        let tied_held = b.hi.min(b.held).saturating_sub(b.lo);
        let take = tied_held.min(left.min(u64::from(u32::MAX)) as u32);
        b.count = b.lo.saturating_add(take);
        left = left.saturating_sub(u64::from(take));
    }
    for b in brackets.iter_mut() {
        let tied_free = b.hi.saturating_sub(b.lo.max(b.held));
        let take = tied_free.min(left.min(u64::from(u32::MAX)) as u32);
        b.count = b.count.saturating_add(take);
        left = left.saturating_sub(u64::from(take));
    }
    finish(paf, brackets);
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::super::curve::Curve;
    use super::super::jobs::Job;
    use super::*;
    use std::vec::Vec;

    /// Draws below `n` from a linear congruential generator seeded with `seed`.
    fn draws(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut state = seed;
        move |n| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        }
    }

    /// A concave table of `len` increments from 0: the first below `first`, each next equal
    /// or one less (ties and flat stretches), drawn from `next`.
    fn concave(next: &mut impl FnMut(u64) -> u64, len: usize, first: u64) -> Vec<f64> {
        let mut points = std::vec![0.0f64; len + 1];
        let mut step = next(first) as f64;
        for x in 1..=len {
            if next(3) == 0 && step > 0.0 {
                step -= 1.0;
            }
            points[x] = points[x - 1] + step;
        }
        points
    }

    /// Galloping from any start narrows the bounds to a range that holds the count, and to the
    /// start itself when the count is there, on concave tables with ties and flat stretches.
    #[test]
    fn around_keeps_the_count() {
        let mut next = draws(11);
        for _ in 0..300 {
            let len = 1 + next(40) as usize;
            let points = &concave(&mut next, len, 8)[..];
            let base = next(len as u64 + 1) as u32;
            let span = len as u32 - base;
            for bar in [-1.0, 0.0, 0.5, 1.0, 2.0, 3.5, 7.0] {
                let count = (1..=span)
                    .take_while(|&x| increment(points, base + x) > bar)
                    .count() as u32;
                for lo in 0..=count {
                    for hi in count..=span {
                        for from in lo..=hi {
                            let (l, h) = around(points, base, lo, hi, from, bar);
                            assert!(lo <= l && l <= count && count <= h && h <= hi);
                            if from == count {
                                assert_eq!((l, h), (count, count));
                            }
                        }
                    }
                }
            }
        }
    }

    /// From any prefix of the total order (the counts at an end, inside brackets that hold the
    /// counts of a shorter and a longer prefix), taking or giving back up to [`PICKED`]
    /// increments leaves the counts of the target prefix, whatever the bar (also one too
    /// tight, where the heap does not fill), on concave tables with ties and flat stretches.
    #[test]
    fn pick_reaches_the_target_prefix() {
        let mut next = draws(5);
        for _ in 0..400 {
            let n = 1 + next(8) as usize;
            let mut tables = Vec::new();
            for _ in 0..n {
                let len = 1 + next(14) as usize;
                tables.push(concave(&mut next, len, 6));
            }
            let jobs: Vec<Job<'_>> = tables
                .iter()
                .map(|t| Job::new(1, Curve::new(t).unwrap()).unwrap())
                .collect();
            let min: Vec<u32> = tables.iter().map(|t| next(t.len() as u64) as u32).collect();
            let span = |j: usize| tables[j].len() as u32 - 1 - min[j];
            let held: Vec<u32> = (0..n).map(|j| next(span(j) as u64 + 1) as u32).collect();
            // Every increment past the minimum, in the total order (a job's own in its order).
            let mut order: Vec<(u128, u32, usize)> = (0..n)
                .flat_map(|j| (1..=span(j)).map(move |at| (j, at)))
                .map(|(j, at)| {
                    let value = increment(&tables[j], min[j] + at);
                    (rank_of(value, at <= held[j], j as u32), at, j)
                })
                .collect();
            order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let counts = |prefix: usize| {
                let mut counts = std::vec![0u32; n];
                for &(_, _, j) in &order[..prefix] {
                    counts[j] += 1;
                }
                counts
            };
            let total = order.len();
            let target = next(total as u64 + 1) as usize;
            for upward in [true, false] {
                let more = 1 + next(PICKED as u64) as usize;
                let (end, other) = if upward {
                    let Some(end) = target.checked_sub(more) else {
                        continue;
                    };
                    (end, target + next((total - target) as u64 + 1) as usize)
                } else {
                    if target + more > total {
                        continue;
                    }
                    (target + more, next(target as u64 + 1) as usize)
                };
                let (at_end, at_other) = (counts(end), counts(other));
                let expected = counts(target);
                for bar in [f64::NEG_INFINITY, 0.0, 0.5, 1.0, 2.5, 4.0, f64::INFINITY] {
                    let mut brackets: Vec<Bracket> = (0..n)
                        .map(|j| {
                            let (lo, hi) = if upward {
                                (at_end[j], at_other[j])
                            } else {
                                (at_other[j], at_end[j])
                            };
                            Bracket {
                                held: held[j],
                                lo,
                                hi,
                                count: u32::MAX,
                                ..Bracket::EMPTY
                            }
                        })
                        .collect();
                    pick(&jobs[..], &min, &mut brackets, more as u64, upward, bar);
                    let found: Vec<u32> = brackets.iter().map(|b| b.count).collect();
                    assert_eq!(found, expected, "upward {upward} more {more} bar {bar}");
                }
            }
        }
    }
}
