//! Incremental weighted DRF for allocators.
//!
//! Users' dominant shares change as their tasks start and finish; "which user is next" must not
//! cost a sort of all users per decision, as it does in the common allocators (YARN's
//! `FairSharePolicy` comparator, Mesos' sorter, Kueue's ordering). Here users with pending
//! tasks (*active*, §6.1 C1) sit in a loser tree (see `crate::tree`) keyed by their
//! weighted dominant share `s_i / w_i`, so the next user is O(1) and every start or finish is
//! O(log capacity).
//!
//! As in the paper's model (§5.1), a user's tasks share one demand vector `D_i`, so its
//! dominant share is exactly `s_i = n_i δ_i` for `n_i` running tasks: counting tasks instead of
//! summing demands leaves no rounding residue however often tasks come and go. Ties between
//! equal weighted shares go to the lower id.
//!
//! [`DrfQueue::allocate_round`] is discrete DRF, progressive filling one task at a time: the
//! lowest-share active user whose next task fits the free resources gets it, until none fits.

use super::users::{self, Member, Population};
use crate::heap::{self, Key};
use crate::id_index::{self, Links, TableHead};
use crate::resources::{Resources, MAX_KINDS};
use crate::table::{self, Parts, PartsMut, Storage, Vacant};
use crate::tree::{self, Contest, Leaves};
use crate::{Error, Result};

/// The number of heaps of a [`DrfQueue`]: the slots of the loser tree of active users.
pub const HEAPS: usize = 1;

/// Arrays for `N` users, owned by the queue: their rows, the tree, and their demands.
pub type Inline<const N: usize> = table::Inline<UserRow, N, HEAPS, N, MAX_KINDS>;

/// Slices the caller owns: rows, numbers (the id table's buckets) and the heap slots (the
/// tree of active users), of equal length, and the users' demands, [`amounts`]`(capacity)`
/// of them.
pub type Borrowed<'a> = table::BorrowedWithAmounts<'a, UserRow, HEAPS>;

/// The amounts of the column of demands a queue of `capacity` users keeps: [`MAX_KINDS`] a
/// user, whatever the cluster's kinds, so that the storage's size depends on the capacity
/// alone; `usize::MAX` when that does not fit a `usize`.
pub const fn amounts(capacity: usize) -> usize {
    capacity.saturating_mul(MAX_KINDS)
}

/// Everything the queue keeps in a user's row. Opaque: read it through [`UserInfo`].
///
/// 64 bytes, aligned to 64: one cache line, all of it what a start reads and writes. The
/// user's demand, which only rounds read, lives in the storage's column of amounts: in the
/// row, it doubled the rows' size, and a queue of 100K users then held 12.8 MB of rows where
/// about 8 MB of the last-level cache is ours on the machines we measure on.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct UserRow {
    pub(crate) id: u64,
    pub(crate) weight: f64,
    /// `δ_i`, the dominant share of one task.
    pub(crate) dominant: f64,
    pub(crate) running: u64,
    pub(crate) pending: u64,
    /// While the user is active, the first word of its key in the tree of active users once
    /// one more of its tasks starts (the [`rank`] of that weighted share); [`ABSENT`] while it
    /// is not active. Kept one start ahead, so that a start replays the tree with a key ready
    /// and the division for the next start overlaps the replay instead of delaying it.
    next: u64,
    /// Next user set aside during a round (a list threaded through the rows).
    set_aside: u32,
    links: Links,
}

impl UserRow {
    /// `s_i / w_i`: the weighted dominant share.
    pub(crate) fn weighted_share(&self) -> f64 {
        self.share_at(self.running)
    }

    /// The weighted dominant share with `running` tasks running.
    fn share_at(&self, running: u64) -> f64 {
        running as f64 * self.dominant / self.weight
    }

    /// The user's key in the tree of active users whose first word is `rank`.
    fn key(&self, rank: u64) -> Key {
        Key::new(rank, self.id)
    }

    /// The user, whose per-task demand is `demand`, as DRF's closed form and QKnobler's
    /// stages see it.
    fn member(&self, demand: Resources) -> Member {
        Member {
            weight: self.weight,
            demand,
            dominant: self.dominant,
        }
    }

    /// Orders the user by its running tasks: keeps the key after one more start in `next`
    /// and returns its key now.
    fn reorder(&mut self) -> Key {
        self.next = rank(self.share_at(self.running.saturating_add(1)));
        self.key(rank(self.weighted_share()))
    }

    /// Takes the user out of the order: returns its key out of play.
    fn leave(&mut self) -> Key {
        self.next = ABSENT;
        self.key(ABSENT)
    }
}

/// A weighted share as the first word of a key: its bits, whose unsigned order is the order of
/// the shares, as a share is never negative (`running · δ / w`, at least `+0.0`), and so
/// never sets the top bit, as the tree's keys need (see its `Contest` for `Key`). Taken as
/// they are, rather than through `num::order_bits`, they cost a start no conversion.
fn rank(share: f64) -> u64 {
    share.to_bits()
}

/// Where in the column of demands the first `kinds` amounts of the demand of the user in `row`
/// lie: [`MAX_KINDS`] a user, in row order.
fn demand_at(row: u32, kinds: usize) -> core::ops::Range<usize> {
    let start = (row as usize).saturating_mul(MAX_KINDS);
    start..start.saturating_add(kinds)
}

/// The `next` of a user who is not active: the tree's first word out of play, above every
/// share's [`rank`] (it is a NaN's).
const ABSENT: u64 = u64::MAX >> 1;

/// The rows are the loser tree's leaves, keyed by the queue's order: weighted dominant share,
/// then id (unique, so the order is total).
impl Leaves<Key> for [UserRow] {
    fn count(&self) -> usize {
        self.len()
    }

    #[inline(always)]
    fn key(&self, leaf: usize) -> Key {
        self.get(leaf).map_or(Key::NOBODY, |user| match user.next {
            ABSENT => user.key(ABSENT),
            _ => user.key(rank(user.weighted_share())),
        })
    }
}

impl Vacant for UserRow {
    /// Weighted dominant share, then id, in the loser tree's nodes: equal shares are common
    /// (users with equal demands and running counts), so the id rides in the key and a
    /// comparison needs no tie-break.
    type Key = Key;
    const VACANT: UserRow = UserRow {
        id: 0,
        weight: 1.0,
        dominant: 1.0,
        running: 0,
        pending: 0,
        next: ABSENT,
        set_aside: heap::NONE,
        links: Links::NONE,
    };
}

id_index::impl_row!(UserRow);

/// What the queue knows about one user.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UserInfo {
    /// The caller's id.
    pub id: u64,
    /// Weight given when the user was added.
    pub weight: f64,
    /// Running tasks.
    pub running: u64,
    /// Pending tasks; the user is active while this is above zero.
    pub pending: u64,
    /// `s_i = running · δ_i`, the user's dominant share of the capacity.
    pub dominant_share: f64,
    /// `s_i / w_i`, the order of the queue.
    pub weighted_share: f64,
    /// `δ_i`: the dominant share of one task.
    pub task_share: f64,
}

/// A queue's counts (see [`DrfQueue::stats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueStats {
    /// Users the storage holds.
    pub capacity: usize,
    /// Users present.
    pub users: usize,
    /// Users with pending tasks.
    pub active: usize,
    /// Resource kinds of the cluster.
    pub kinds: usize,
}

/// The users of a queue with pending tasks (the QKnobler paper's *active* users, §6.1 C1),
/// whether or not a round has set them aside, at their row numbers: a [`Population`] for
/// DRF's closed form (QKnobler's online `φ`). Visiting them scans every row, O(capacity).
pub(crate) struct Pending<'q, S: Storage<UserRow, HEAPS>>(pub(crate) &'q DrfQueue<S>);

impl<S: Storage<UserRow, HEAPS>> Population for Pending<'_, S> {
    fn capacity(&self) -> &Resources {
        &self.0.cluster
    }
    fn member(&self, j: usize) -> Option<Member> {
        let row = u32::try_from(j).ok()?;
        let user = self.0.storage.parts().rows.get(j)?;
        (user.pending > 0).then(|| user.member(self.0.demand(row)))
    }
    fn each_demand<F: FnMut(usize, &[f64])>(&self, mut visit: F) {
        let Parts { rows, amounts, .. } = self.0.storage.parts();
        for (row, user) in (0..).zip(rows) {
            if user.pending > 0 {
                let demand = amounts.get(demand_at(row, self.0.cluster.kinds()));
                visit(row as usize, demand.unwrap_or_default());
            }
        }
    }
}

/// Users ordered by weighted dominant share, over storage `S` (see [`Inline`], [`Borrowed`]).
pub struct DrfQueue<S: Storage<UserRow, HEAPS>> {
    pub(crate) cluster: Resources,
    table: TableHead,
    users: usize,
    pub(crate) active: usize,
    pub(crate) storage: S,
}

impl<const N: usize> DrfQueue<Inline<N>> {
    /// A queue for up to `N` users sharing `cluster` (1 to 8 kinds, each positive).
    pub fn new(cluster: &[f64]) -> Result<Self> {
        Self::with_storage(Inline::new(), cluster)
    }
}

/// Checks what [`DrfQueue::with_storage`] checks before any storage exists: the capacity in
/// users ([`table::check_capacity`]), and the cluster's resources.
pub fn check_config(capacity: usize, cluster: &[f64]) -> Result<Resources> {
    table::check_capacity(capacity)?;
    Resources::capacity(cluster)
}

impl<S: Storage<UserRow, HEAPS>> DrfQueue<S> {
    /// A queue over `storage` (its contents are overwritten) for users sharing `cluster`. Its
    /// amounts must number at least [`amounts`]`(capacity)` ([`Error::LengthMismatch`]
    /// otherwise); other errors as [`check_config`].
    pub fn with_storage(mut storage: S, cluster: &[f64]) -> Result<Self> {
        let cluster = check_config(storage.capacity(), cluster)?;
        if storage.parts().amounts.len() < amounts(storage.capacity()) {
            return Err(Error::LengthMismatch);
        }
        storage.parts_mut().amounts.fill(0.0);
        let table = table::reset(storage.parts_mut());
        let PartsMut {
            rows,
            heaps: [active],
            ..
        } = storage.parts_mut();
        tree::build(active, rows);
        Ok(DrfQueue {
            cluster,
            table,
            users: 0,
            active: 0,
            storage,
        })
    }

    /// The resources the users share.
    pub fn cluster(&self) -> &Resources {
        &self.cluster
    }

    /// The most users the storage holds.
    pub fn capacity(&self) -> usize {
        self.storage.capacity()
    }

    /// The number of users.
    pub fn len(&self) -> usize {
        self.users
    }

    /// Whether there is no user.
    pub fn is_empty(&self) -> bool {
        self.users == 0
    }

    /// The number of users with pending tasks.
    pub fn active(&self) -> usize {
        self.active
    }

    /// The queue's counts at a glance.
    pub fn stats(&self) -> QueueStats {
        QueueStats {
            capacity: self.capacity(),
            users: self.len(),
            active: self.active(),
            kinds: self.cluster.kinds(),
        }
    }

    /// Adds user `id` with `weight` (finite, positive, within [`users::SCALE`]) and per-task
    /// `demand` (one amount per kind of the capacity, its dominant share within
    /// [`users::SCALE`]), with no task running or pending.
    pub fn add_user(&mut self, id: u64, weight: f64, demand: &[f64]) -> Result<()> {
        let weight = users::checked_weight(weight)?;
        let demand = Resources::demand(demand)?;
        self.cluster.same_kinds(&demand)?;
        let dominant = users::task_share(&demand, &self.cluster)?;
        if self.row_of(id).is_ok() {
            return Err(Error::DuplicateId);
        }
        let PartsMut {
            rows,
            numbers: buckets,
            amounts,
            ..
        } = self.storage.parts_mut();
        let row = id_index::allocate(rows, &mut self.table).ok_or(Error::CapacityFull)?;
        if let Some(r) = rows.get_mut(row as usize) {
            *r = UserRow {
                id,
                weight,
                dominant,
                ..UserRow::VACANT
            };
        }
        if let Some(kept) = amounts.get_mut(demand_at(row, demand.kinds())) {
            kept.copy_from_slice(demand.as_slice());
        }
        id_index::index(buckets, rows, row);
        self.users = self.users.saturating_add(1);
        Ok(())
    }

    /// Removes user `id`, whatever it has running or pending.
    pub fn remove_user(&mut self, id: u64) -> Result<()> {
        let row = self.row_of(id)?;
        self.set_pending_of(row, 0);
        let PartsMut {
            rows,
            numbers: buckets,
            ..
        } = self.storage.parts_mut();
        id_index::unindex(buckets, rows, row);
        id_index::release(rows, &mut self.table, row);
        self.users = self.users.saturating_sub(1);
        Ok(())
    }

    /// Sets the number of tasks user `id` has waiting: above zero the user is active.
    pub fn set_pending(&mut self, id: u64, pending: u64) -> Result<()> {
        let row = self.row_of(id)?;
        self.set_pending_of(row, pending);
        Ok(())
    }

    /// `count` tasks of user `id` started outside [`DrfQueue::allocate_round`]: they run, and
    /// as many pending tasks (at most all of them) are no longer pending.
    pub fn tasks_started(&mut self, id: u64, count: u64) -> Result<()> {
        let row = self.row_of(id)?;
        let running = self.row(row).running;
        let running = running.checked_add(count).ok_or(Error::OutOfRange)?;
        let pending = self.row(row).pending.saturating_sub(count);
        self.set_running_of(row, running);
        self.set_pending_of(row, pending);
        Ok(())
    }

    /// `count` running tasks of user `id` finished. [`Error::Negative`] when it has fewer
    /// running.
    pub fn tasks_finished(&mut self, id: u64, count: u64) -> Result<()> {
        let row = self.row_of(id)?;
        let running = self
            .row(row)
            .running
            .checked_sub(count)
            .ok_or(Error::Negative)?;
        self.set_running_of(row, running);
        Ok(())
    }

    /// The active user with the lowest weighted dominant share (ties: lower id), if any.
    pub fn next(&self) -> Option<u64> {
        let row = self.top()?;
        self.storage.parts().rows.get(row as usize).map(|r| r.id)
    }

    /// Starts one task of the next user (see [`DrfQueue::next`]) and returns its id: the
    /// allocator's decision in one call, O(log n), for callers that place the task themselves
    /// (nothing is checked against free resources; [`DrfQueue::allocate_round`] does that).
    /// `None` when no user is active.
    pub fn start_next(&mut self) -> Option<u64> {
        let row = self.top()?;
        let id = self.row(row).id;
        self.start_one(row);
        Some(id)
    }

    /// What the queue knows about user `id`.
    pub fn user(&self, id: u64) -> Result<UserInfo> {
        let r = self.row(self.row_of(id)?);
        Ok(UserInfo {
            id: r.id,
            weight: r.weight,
            running: r.running,
            pending: r.pending,
            dominant_share: r.running as f64 * r.dominant,
            weighted_share: r.weighted_share(),
            task_share: r.dominant,
        })
    }

    /// Discrete DRF on `free` resources (one amount per kind, each finite and not negative):
    /// repeatedly starts one task of the active user with the lowest weighted dominant share
    /// whose task fits what is still free, writing its id into `out`, until no task fits or
    /// `out` is full. Returns how many tasks started. A user whose task does not fit is set
    /// aside for the rest of the round (what is free only shrinks). O(log n) a task.
    pub fn allocate_round(&mut self, free: &[f64], out: &mut [u64]) -> Result<usize> {
        let mut free = Resources::amounts(free)?;
        self.cluster.same_kinds(&free)?;
        let mut started = 0;
        let mut set_aside = heap::NONE;
        while let (Some(row), Some(slot)) = (self.top(), out.get_mut(started)) {
            let user = self.row(row);
            let demand = self.demand(row);
            if demand.fits_in(&free) {
                free.take(&demand);
                *slot = user.id;
                started = started.saturating_add(1);
                self.start_one(row);
            } else {
                self.set_aside(row, &mut set_aside);
            }
        }
        self.restore_set_aside(set_aside);
        Ok(started)
    }

    /// Takes active user `row` out of the order for the rest of a round (its task does not fit
    /// what is free, which only shrinks), linking it into the list headed by `list`.
    pub(crate) fn set_aside(&mut self, row: u32, list: &mut u32) {
        self.deactivate(row);
        if let Some(r) = self.row_mut(row) {
            r.set_aside = *list;
        }
        *list = row;
    }

    /// Puts back every user of the list headed by `list` (see [`Self::set_aside`]).
    pub(crate) fn restore_set_aside(&mut self, mut list: u32) {
        while list != heap::NONE {
            let row = list;
            list = self.row(row).set_aside;
            if let Some(r) = self.row_mut(row) {
                r.set_aside = heap::NONE;
            }
            self.activate(row);
        }
    }

    /// The row of user `id`.
    pub(crate) fn row_of(&self, id: u64) -> Result<u32> {
        let parts = self.storage.parts();
        id_index::find(parts.numbers, parts.rows, id).ok_or(Error::UnknownId)
    }

    pub(crate) fn row(&self, row: u32) -> UserRow {
        let rows = self.storage.parts().rows;
        rows.get(row as usize).copied().unwrap_or(UserRow::VACANT)
    }

    /// The per-task demand of the user in `row`, from the column of demands.
    pub(crate) fn demand(&self, row: u32) -> Resources {
        let amounts = self.storage.parts().amounts;
        let demand = amounts.get(demand_at(row, self.cluster.kinds()));
        Resources::validated(demand.unwrap_or_default())
    }

    fn row_mut(&mut self, row: u32) -> Option<&mut UserRow> {
        self.storage.parts_mut().rows.get_mut(row as usize)
    }

    /// The row of the active user with the lowest weighted share.
    pub(crate) fn top(&self) -> Option<u32> {
        let Parts { rows, heaps, .. } = self.storage.parts();
        tree::top(heaps[0], rows).map(|(_, row)| row)
    }

    /// The rows of the active users, in row order. O(capacity).
    pub(crate) fn active_rows(&self) -> impl Iterator<Item = u32> + '_ {
        (0..)
            .zip(self.storage.parts().rows)
            .filter(|(_, user)| user.next != ABSENT)
            .map(|(row, _)| row)
    }

    /// Starts one pending task of the user in `row`.
    pub(crate) fn start_one(&mut self, row: u32) {
        let PartsMut {
            rows,
            heaps: [active],
            ..
        } = self.storage.parts_mut();
        let Some(user) = rows.get_mut(row as usize) else {
            return;
        };
        // An active user's key after this start, kept ahead.
        let rank_after = user.next;
        user.running = user.running.saturating_add(1);
        user.pending = user.pending.saturating_sub(1);
        let key = if user.pending > 0 {
            user.next = rank(user.share_at(user.running.saturating_add(1)));
            user.key(rank_after)
        } else {
            self.active = self.active.saturating_sub(1);
            user.leave()
        };
        tree::replay(active, rows, row, key);
    }

    fn set_running_of(&mut self, row: u32, running: u64) {
        let PartsMut {
            rows,
            heaps: [active],
            ..
        } = self.storage.parts_mut();
        let Some(user) = rows.get_mut(row as usize) else {
            return;
        };
        user.running = running;
        if user.next != ABSENT {
            let key = user.reorder();
            tree::replay(active, rows, row, key);
        }
    }

    fn set_pending_of(&mut self, row: u32, pending: u64) {
        if let Some(r) = self.row_mut(row) {
            r.pending = pending;
        }
        if pending == 0 {
            self.deactivate(row);
        } else {
            self.activate(row);
        }
    }

    fn activate(&mut self, row: u32) {
        let PartsMut {
            rows,
            heaps: [active],
            ..
        } = self.storage.parts_mut();
        let Some(user) = rows.get_mut(row as usize) else {
            return;
        };
        if user.next == ABSENT {
            let key = user.reorder();
            self.active = self.active.saturating_add(1);
            tree::replay(active, rows, row, key);
        }
    }

    fn deactivate(&mut self, row: u32) {
        let PartsMut {
            rows,
            heaps: [active],
            ..
        } = self.storage.parts_mut();
        let Some(user) = rows.get_mut(row as usize) else {
            return;
        };
        if user.next != ABSENT {
            let key = user.leave();
            self.active = self.active.saturating_sub(1);
            tree::replay(active, rows, row, key);
        }
    }
}
