//! C ABI of [`crate::drf`]: divisible DRF over flat arrays, and the incremental DRF queue in
//! memory the caller provides (`fairsched_drf_queue_storage_size` / `_init`, as for CFQ).
//!
//! Users share a `cluster` of 1 to 8 resource kinds (`kinds`, its `cluster_len`). Users'
//! demands are row-major: user `i`'s demand is `demands[i * kinds .. (i + 1) * kinds]`. A weight, and the
//! dominant share of the capacity one task takes, must lie within [2^-60, 2^60]
//! (`OUT_OF_RANGE` otherwise): beyond, DRF's quantities overflow or underflow.

use super::{
    boundary, read, read_slice, table, write, write_maybe, write_slice, FairschedStatus, Status,
};
use crate::drf::{self, Divisible, DrfQueue, UserRow, Users, HEAPS};

/// The most resource kinds a vector holds.
pub const FAIRSCHED_MAX_RESOURCE_KINDS: usize = 8;
// cbindgen needs the literal; the core's constant must agree.
const _: () = assert!(FAIRSCHED_MAX_RESOURCE_KINDS == crate::resources::MAX_KINDS);

/// An incremental DRF queue living in caller-provided memory. Opaque.
pub struct FairschedDrfQueue {
    inner: DrfQueue<drf::Borrowed<'static>>,
}

/// What the queue knows about one user (see `fairsched_drf_queue_user_get`).
#[repr(C)]
pub struct FairschedDrfUserInfo {
    /// The caller's id.
    pub id: u64,
    /// Running tasks.
    pub running: u64,
    /// Pending tasks; the user is active while this is above zero.
    pub pending: u64,
    /// Weight given when the user was added.
    pub weight: f64,
    /// `running · δ`: the user's dominant share of the capacity.
    pub dominant_share: f64,
    /// Dominant share divided by weight: the queue's order.
    pub weighted_share: f64,
    /// `δ`: the dominant share of one of the user's tasks.
    pub task_share: f64,
}

/// The queue as a whole (see `fairsched_drf_queue_stats_get`).
#[repr(C)]
pub struct FairschedDrfQueueStats {
    /// Users the memory holds.
    pub capacity: u32,
    /// Users present.
    pub users: u32,
    /// Users with pending tasks.
    pub active: u32,
    /// Resource kinds of the cluster.
    pub kinds: u32,
}

/// Validated users over the caller's arrays (see the module documentation for the layout).
///
/// # Safety
/// Each pointer must be valid for reads of its length (NULL allowed for length 0) while the
/// returned value is used.
pub(crate) unsafe fn checked_users<'a>(
    cluster: *const f64,
    cluster_len: usize,
    weights: *const f64,
    weights_len: usize,
    demands: *const f64,
    demands_len: usize,
) -> Status<Users<'a>> {
    let cluster = unsafe { read_slice(cluster, cluster_len) }?;
    let weights = unsafe { read_slice(weights, weights_len) }?;
    let demands = unsafe { read_slice(demands, demands_len) }?;
    Ok(Users::new(cluster, weights, demands)?)
}

/// Divisible weighted DRF (closed form): writes every user's tasks `N_i^max` and dominant share
/// `s_i^max` (one slot per user in each output) and `φ`. Wraps `drf::Divisible`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0); `out_phi` must be
/// valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_drf_divisible(
    cluster: *const f64,
    cluster_len: usize,
    weights: *const f64,
    weights_len: usize,
    demands: *const f64,
    demands_len: usize,
    out_tasks: *mut f64,
    out_tasks_len: usize,
    out_shares: *mut f64,
    out_shares_len: usize,
    out_phi: *mut f64,
) -> FairschedStatus {
    boundary(|| {
        let users = unsafe {
            checked_users(
                cluster,
                cluster_len,
                weights,
                weights_len,
                demands,
                demands_len,
            )
        }?;
        let tasks = unsafe { write_slice(out_tasks, out_tasks_len) }?;
        let shares = unsafe { write_slice(out_shares, out_shares_len) }?;
        let phi = unsafe { write(out_phi) }?;
        let drf = Divisible::of(&users);
        drf.write(&users, tasks, shares)?;
        *phi = drf.phi;
        Ok(())
    })
}

/// Writes into `*out_size` the bytes `fairsched_drf_queue_init` needs for `capacity` users.
/// Wraps `table::check_capacity`.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_storage_size(
    capacity: u32,
    out_size: *mut usize,
) -> FairschedStatus {
    boundary(|| unsafe {
        let amounts = |capacity| Ok(drf::amounts(capacity));
        table::storage_size_with_amounts::<FairschedDrfQueue, UserRow, HEAPS>(
            capacity, out_size, amounts,
        )
    })
}

/// Builds a DRF queue for up to `capacity` users sharing `cluster` (`cluster_len` amounts, each
/// positive) inside `memory` (`memory_len` bytes, at least the storage size; any alignment).
/// `*out_queue` points into `memory`, possibly not at its start: keep `memory` to free it,
/// in place and alive while the handle is used. Wraps `DrfQueue::with_storage`.
///
/// # Safety
/// `memory` must be valid for writes of `memory_len` bytes and left alone while the handle
/// lives; `cluster` must hold `cluster_len` amounts.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_init(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    capacity: u32,
    cluster: *const f64,
    cluster_len: usize,
    out_queue: *mut *mut FairschedDrfQueue,
) -> FairschedStatus {
    boundary(|| {
        let check = || {
            let cluster = unsafe { read_slice(cluster, cluster_len) }?;
            drf::check_config(capacity as usize, cluster)?;
            Ok((cluster, drf::amounts(capacity as usize)))
        };
        let build = |storage, cluster: &[f64]| {
            let inner = DrfQueue::with_storage(storage, cluster)?;
            Ok(FairschedDrfQueue { inner })
        };
        unsafe { table::init_with_amounts(memory, memory_len, capacity, out_queue, check, build) }
    })
}

/// Adds user `id` with `weight` and per-task `demand` (`demand_len` amounts, one per kind), both within the
/// range the module documentation gives. Wraps `DrfQueue::add_user`.
///
/// # Safety
/// `queue` must be NULL or a live handle from `fairsched_drf_queue_init`; `demand` must hold
/// `demand_len` amounts.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_add_user(
    queue: *mut FairschedDrfQueue,
    id: u64,
    weight: f64,
    demand: *const f64,
    demand_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let queue = unsafe { write(queue) }?;
        let demand = unsafe { read_slice(demand, demand_len) }?;
        Ok(queue.inner.add_user(id, weight, demand)?)
    })
}

/// Removes user `id`. Wraps `DrfQueue::remove_user`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_remove_user(
    queue: *mut FairschedDrfQueue,
    id: u64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(queue) }?.inner.remove_user(id)?))
}

/// Sets user `id`'s pending tasks (above zero: active). Wraps `DrfQueue::set_pending`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_set_pending(
    queue: *mut FairschedDrfQueue,
    id: u64,
    pending: u64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(queue) }?.inner.set_pending(id, pending)?))
}

/// `count` tasks of user `id` started outside `fairsched_drf_queue_allocate_round`. Wraps
/// `DrfQueue::tasks_started`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_tasks_started(
    queue: *mut FairschedDrfQueue,
    id: u64,
    count: u64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(queue) }?.inner.tasks_started(id, count)?))
}

/// `count` running tasks of user `id` finished. Wraps `DrfQueue::tasks_finished`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_tasks_finished(
    queue: *mut FairschedDrfQueue,
    id: u64,
    count: u64,
) -> FairschedStatus {
    boundary(|| Ok(unsafe { write(queue) }?.inner.tasks_finished(id, count)?))
}

/// The active user with the lowest weighted dominant share: `*out_found` tells whether there
/// is one, `*out_id` is written only then. Wraps `DrfQueue::next`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`; the out-parameters must be valid for writes.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_next(
    queue: *const FairschedDrfQueue,
    out_id: *mut u64,
    out_found: *mut bool,
) -> FairschedStatus {
    boundary(|| {
        let queue = unsafe { read(queue) }?;
        let out = unsafe { write_maybe(out_id, out_found) }?;
        out.set(queue.inner.next());
        Ok(())
    })
}

/// Starts one task of the next user (the lowest weighted dominant share) without checking
/// resources: the caller places it. `*out_found` tells whether there was an active user,
/// `*out_id` is written only then. Wraps `DrfQueue::start_next`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`; the out-parameters must be valid for writes.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_start_next(
    queue: *mut FairschedDrfQueue,
    out_id: *mut u64,
    out_found: *mut bool,
) -> FairschedStatus {
    boundary(|| {
        let queue = unsafe { write(queue) }?;
        let out = unsafe { write_maybe(out_id, out_found) }?;
        out.set(queue.inner.start_next());
        Ok(())
    })
}

/// What the queue knows about user `id`. Wraps `DrfQueue::user`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`; `out_info` must be valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_user_get(
    queue: *const FairschedDrfQueue,
    id: u64,
    out_info: *mut FairschedDrfUserInfo,
) -> FairschedStatus {
    boundary(|| {
        let queue = unsafe { read(queue) }?;
        let out = unsafe { write(out_info) }?;
        let user = queue.inner.user(id)?;
        *out = FairschedDrfUserInfo {
            id: user.id,
            running: user.running,
            pending: user.pending,
            weight: user.weight,
            dominant_share: user.dominant_share,
            weighted_share: user.weighted_share,
            task_share: user.task_share,
        };
        Ok(())
    })
}

/// The queue as a whole. Wraps `DrfQueue::{capacity, len, active}`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`; `out_stats` must be valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_stats_get(
    queue: *const FairschedDrfQueue,
    out_stats: *mut FairschedDrfQueueStats,
) -> FairschedStatus {
    boundary(|| {
        let queue = unsafe { read(queue) }?;
        let out = unsafe { write(out_stats) }?;
        // Counts fit: the user capacity is below u32::MAX (checked at init).
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let stats = queue.inner.stats();
        *out = FairschedDrfQueueStats {
            capacity: count(stats.capacity),
            users: count(stats.users),
            active: count(stats.active),
            kinds: count(stats.kinds),
        };
        Ok(())
    })
}

/// Discrete DRF on `free` resources (`free_len` amounts, one per kind): starts tasks one at a time, lowest
/// weighted share first among users whose task fits, writing ids into `out_ids` (room for
/// `out_ids_len`); `*out_started` is how many. Wraps `DrfQueue::allocate_round`.
///
/// # Safety
/// As for `fairsched_drf_queue_add_user`; `free` must hold `free_len` amounts and `out_ids`
/// `out_ids_len` ids (NULL allowed for 0).
#[no_mangle]
pub unsafe extern "C" fn fairsched_drf_queue_allocate_round(
    queue: *mut FairschedDrfQueue,
    free: *const f64,
    free_len: usize,
    out_ids: *mut u64,
    out_ids_len: usize,
    out_started: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let queue = unsafe { write(queue) }?;
        let free = unsafe { read_slice(free, free_len) }?;
        let ids = unsafe { write_slice(out_ids, out_ids_len) }?;
        let started = unsafe { write(out_started) }?;
        *started = queue.inner.allocate_round(free, ids)?;
        Ok(())
    })
}

impl FairschedDrfQueue {
    /// The queue behind a handle, for the other algorithms' exports that run on it.
    pub(crate) fn inner_mut(&mut self) -> &mut DrfQueue<drf::Borrowed<'static>> {
        &mut self.inner
    }
}
