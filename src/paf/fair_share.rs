//! Weighted max-min fair shares in whole slots (Algorithm 1, line 2; §V-A's baseline).
//!
//! Water-filling: every job receives `w_j · L` slots for one level `L`, except that no job
//! receives more than its demand `d_j`; `L` is the level at which the slots run out (or every
//! demand is met). Computed exactly in integers, in rounds: every job with
//! `d_j · W ≤ M · w_j` (`M` slots and `W` weight left) is capped at its demand, until no
//! other job's share reaches its demand; the others share the `M` slots left in proportion to
//! their weights. Rounding: each uncapped job gets `⌊M w_j / W⌋`, and the slots left over
//! (fewer than the uncapped jobs) go one each by largest remainder `M w_j mod W`, ties to the
//! lower index. No job exceeds its demand, and the shares add up to `min(M, Σ d_j)`. O(N) a
//! round; rounds are few in practice (each caps the jobs below a level that only rises), N at
//! worst.

use super::jobs::Jobs;

/// Writes job `j`'s fair share of `slots` into `fair[j]`, using `order` (at least as long as
/// the jobs) as scratch. The caller has checked the lengths.
pub(crate) fn fair_shares<J: Jobs + ?Sized>(
    jobs: &J,
    slots: u32,
    order: &mut [u32],
    fair: &mut [u32],
) {
    let n = jobs.len();
    let Some(order) = order.get_mut(..n) else {
        return;
    };
    for (at, job) in order.iter_mut().enumerate() {
        *job = at as u32;
    }
    let demand = |j: u32| u64::from(jobs.demand(j as usize));
    let weight = |j: u32| u64::from(jobs.weight(j as usize));
    // Writes each of `sharing`'s floor of the proportional share of `left` slots by
    // `weight_left` and returns their sum, or `None` as soon as a share reaches its job's
    // demand. Exact without saturating (two instructions less per job here, four per ranking
    // below): left * w < 2^64 since left <= slots < 2^32 and w < 2^32; share * weight_left <=
    // left * w; the shares add up to at most `left` (the weights to `weight_left`).
    let floor_shares = |sharing: &[u32], fair: &mut [u32], left: u64, weight_left: u64| {
        let mut given: u64 = 0;
        for &j in sharing {
            let share = left
                .wrapping_mul(weight(j))
                .checked_div(weight_left)
                .unwrap_or(0);
            if share >= demand(j) {
                return None;
            }
            set(fair, j, share);
            given = given.wrapping_add(share);
        }
        Some(given)
    };

    // Rounds of water-filling: every job whose demand is below the current level is capped
    // (capping only raises the level, so it stays capped); `order[..sharing]` keeps the others.
    // Each job is compared with the level as it stands, not as the round found it (four
    // instructions less per job and round): the jobs capped in the end are the same, the only
    // set whose demands are all at most its level and the others' all above it (capping a job
    // above a level lowers it).
    let mut left = u64::from(slots);
    let mut weight_left: u64 = (0..n as u32).map(weight).sum();
    let mut sharing = n;
    let given = loop {
        let mut kept: usize = 0;
        for at in 0..sharing {
            let Some(&j) = order.get(at) else { break };
            let below_level = u128::from(demand(j)).saturating_mul(u128::from(weight_left))
                <= u128::from(left).saturating_mul(u128::from(weight(j)));
            if below_level {
                set(fair, j, demand(j));
                left = left.saturating_sub(demand(j));
                weight_left = weight_left.saturating_sub(weight(j));
            } else {
                // The capped jobs are never looked at again: the kept ones are only moved down.
                if let Some(slot) = order.get_mut(kept) {
                    *slot = j;
                }
                // No wrap: `kept <= at < n`.
                kept = kept.wrapping_add(1);
            }
        }
        sharing = kept;
        // The uncapped jobs' shares at the level the round left, which is final unless some
        // job's share reaches its demand: `d_j W <= M w_j` is `d_j <= ⌊M w_j / W⌋`, the same
        // test as the rounds'. So the shares stand in for the round that would cap none (a
        // round that capped none leaves no such job), and a job found to reach its demand is
        // capped by the next round.
        if let Some(given) = floor_shares(
            order.get(..sharing).unwrap_or_default(),
            fair,
            left,
            weight_left,
        ) {
            break given;
        }
    };
    let Some(sharing) = order.get_mut(..sharing) else {
        return;
    };
    // The uncapped jobs hold their floor shares: the leftover goes by largest remainder.
    let leftover = left.saturating_sub(given) as usize;
    // The remainder from the share already written, by multiplication: dividing again in every
    // comparison of the selection below was most of the fair shares' time.
    let remainder = |j: u32| {
        let share = fair.get(j as usize).copied().unwrap_or_default();
        left.wrapping_mul(weight(j))
            .wrapping_sub(u64::from(share).wrapping_mul(weight_left))
    };
    // The `leftover` largest remainders (ties: lower index) go to the front, in no given order:
    // a rank that orders the jobs so, one number each.
    let rank = |j: u32| u128::from(remainder(j)).wrapping_shl(32) | u128::from(!j);
    largest_first(sharing, leftover, rank, PASSES);
    for &j in sharing.iter().take(leftover) {
        if let Some(share) = fair.get_mut(j as usize) {
            *share = share.saturating_add(1);
        }
    }
}

/// Puts the `count` items of largest `rank` (all different) first, in no given order.
///
/// A quickselect that ranks each item once per pass: the standard library's selection ranked
/// both sides of every comparison, twice the work when ranking is most of it. The pivot is the
/// item of [`SAMPLE`] evenly spaced ones whose place among them is that of the `count`-th
/// largest in the range (the middle item when the range is no longer than the sample), so
/// that the passes close in on the `count`-th faster than at the middle item (on the PAF
/// benchmark's workload over 300 seeds: 377 rankings an allocation on average instead of 495).
/// After `passes` passes ([`PASSES`]; more means a pathological order) the standard library's
/// selection, linear at worst, finishes the range left, so this stays linear too.
fn largest_first(items: &mut [u32], count: usize, rank: impl Fn(u32) -> u128, passes: u32) {
    // Invariant: `items[..lo]` are among the `count` largest, `items[hi..]` are not.
    let (mut lo, mut hi) = (0usize, items.len());
    for _ in 0..passes {
        if lo >= count || count >= hi {
            return;
        }
        // The pivot, kept at the range's end while the rest is partitioned.
        let last = hi.saturating_sub(1);
        items.swap(pivot_at(items, lo, hi, count, &rank), last);
        let pivot = rank(items.get(last).copied().unwrap_or_default());
        // Without a branch on the comparison, whose outcome is a coin toss on most items: every
        // item is swapped to `above`, which only moves past it when it ranks above the pivot
        // (the items at most the pivot end in another order, the same set).
        let mut above = lo;
        for at in lo..last {
            let is_above = items.get(at).is_some_and(|&j| rank(j) > pivot);
            items.swap(above, at);
            above = above.saturating_add(usize::from(is_above));
        }
        items.swap(above, last);
        // `items[lo..above]` rank above the pivot, now at `above`; the rest rank below it.
        if count <= above {
            hi = above;
        } else {
            lo = above.saturating_add(1);
        }
    }
    if let (Some(range), Some(nth)) = (items.get_mut(lo..hi), count.checked_sub(lo)) {
        if let Some(nth) = nth.checked_sub(1).filter(|&nth| nth < range.len()) {
            range.select_nth_unstable_by(nth, |a, b| rank(*b).cmp(&rank(*a)));
        }
    }
}

/// Items sampled for a pivot of [`largest_first`].
const SAMPLE: usize = 5;

/// Where the pivot of `items[lo..hi]` is, for the `count`-th largest (see [`largest_first`]).
fn pivot_at(
    items: &[u32],
    lo: usize,
    hi: usize,
    count: usize,
    rank: &impl Fn(u32) -> u128,
) -> usize {
    let len = hi.saturating_sub(lo);
    if len <= SAMPLE {
        return lo.saturating_add(len / 2);
    }
    // The sample's ranks and positions, from the largest rank down (the ranks all differ, so
    // their order is the only one).
    let mut sample = [(0u128, 0usize); SAMPLE];
    for (i, slot) in sample.iter_mut().enumerate() {
        let at = lo.saturating_add(
            len.saturating_mul(i.saturating_mul(2).saturating_add(1)) / (2 * SAMPLE),
        );
        *slot = (rank(items.get(at).copied().unwrap_or_default()), at);
    }
    sample.sort_unstable_by_key(|&(rank, _)| core::cmp::Reverse(rank));
    // The `count - lo`-th largest of `len` sits at about that fraction of the sample.
    let place = count
        .saturating_sub(lo)
        .saturating_mul(SAMPLE)
        .checked_div(len)
        .unwrap_or(0);
    sample
        .get(place.min(SAMPLE.saturating_sub(1)))
        .map_or(lo, |&(_, at)| at)
}

/// Quickselect passes before [`largest_first`] hands over to the standard library's selection
/// (about `2 ln n` are expected on `n` items in any order that is not built against it).
const PASSES: u32 = 64;

fn set(fair: &mut [u32], job: u32, share: u64) {
    if let Some(slot) = fair.get_mut(job as usize) {
        *slot = u32::try_from(share).unwrap_or(u32::MAX);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::vec::Vec;

    /// Whatever the passes before the hand-over, the `count` largest ranks come first.
    #[test]
    fn largest_first_selects_the_largest() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        for len in 0..40usize {
            // Few distinct remainders, so that the index decides many ranks.
            let remainders: Vec<u64> = (0..len).map(|_| next() % 4).collect();
            let rank =
                |j: u32| u128::from(remainders[j as usize]).wrapping_shl(32) | u128::from(!j);
            let mut sorted: Vec<u32> = (0..len as u32).collect();
            sorted.sort_by_key(|&j| core::cmp::Reverse(rank(j)));
            for count in 0..=len {
                for passes in [0, 1, 2, PASSES] {
                    let mut items: Vec<u32> = (0..len as u32).rev().collect();
                    largest_first(&mut items, count, rank, passes);
                    let mut first = items[..count].to_vec();
                    first.sort_by_key(|&j| core::cmp::Reverse(rank(j)));
                    assert_eq!(
                        first,
                        sorted[..count],
                        "len {len} count {count} passes {passes}"
                    );
                }
            }
        }
    }
}
