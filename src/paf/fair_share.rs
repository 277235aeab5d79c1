//! Weighted max-min fair shares in whole slots (Algorithm 1, line 2; §V-A's baseline).
//!
//! Water-filling: every job receives `w_j · L` slots for one level `L`, except that no job
//! receives more than its demand `d_j`; `L` is the level at which the slots run out (or every
//! demand is met). Computed exactly in integers: jobs sorted by `d_j / w_j` are capped while
//! `d_j · W ≤ M · w_j` (`M` slots and `W` weight left); the others share the `M` slots left
//! in proportion to their weights. Rounding: each uncapped job gets `⌊M w_j / W⌋`, and the
//! slots left over (fewer than the uncapped jobs) go one each by largest remainder
//! `M w_j mod W`, ties to the lower index. No job exceeds its demand, and the shares add up to
//! `min(M, Σ d_j)`. O(N log N).

use super::jobs::Jobs;
use core::cmp::Ordering;

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
    // By d/w, compared as d_a w_b against d_b w_a (both below 2^64), then by index.
    order.sort_unstable_by(|&a, &b| {
        (demand(a).saturating_mul(weight(b)))
            .cmp(&demand(b).saturating_mul(weight(a)))
            .then(a.cmp(&b))
    });

    let mut left = u64::from(slots);
    let mut weight_left: u64 = (0..n as u32).map(weight).sum();
    let mut capped: usize = 0;
    for &j in order.iter() {
        let below_level = u128::from(demand(j)).saturating_mul(u128::from(weight_left))
            <= u128::from(left).saturating_mul(u128::from(weight(j)));
        if !below_level {
            break;
        }
        set(fair, j, demand(j));
        left = left.saturating_sub(demand(j));
        weight_left = weight_left.saturating_sub(weight(j));
        capped = capped.saturating_add(1);
    }

    let Some(sharing) = order.get_mut(capped..) else {
        return;
    };
    // Uncapped jobs: floor of the proportional share, then the leftover by largest remainder.
    // left * w < 2^64 since left <= slots < 2^32 and w < 2^32.
    let remainder = |j: u32| {
        left.saturating_mul(weight(j))
            .checked_rem(weight_left)
            .unwrap_or(0)
    };
    let mut given: u64 = 0;
    for &j in sharing.iter() {
        let share = left
            .saturating_mul(weight(j))
            .checked_div(weight_left)
            .unwrap_or(0);
        set(fair, j, share);
        given = given.saturating_add(share);
    }
    let leftover = left.saturating_sub(given) as usize;
    sharing.sort_unstable_by(|&a, &b| match remainder(b).cmp(&remainder(a)) {
        Ordering::Equal => a.cmp(&b),
        other => other,
    });
    for &j in sharing.iter().take(leftover) {
        if let Some(share) = fair.get_mut(j as usize) {
            *share = share.saturating_add(1);
        }
    }
}

fn set(fair: &mut [u32], job: u32, share: u64) {
    if let Some(slot) = fair.get_mut(job as usize) {
        *slot = u32::try_from(share).unwrap_or(u32::MAX);
    }
}
