//! DRF and QKnobler: one incremental DRF queue of up to 8 users in caller memory at a random
//! alignment, driven by random users, pending and running counts, rounds of discrete DRF and
//! QKnobler's online Algorithm 1; and the stateless divisible DRF and two-stage QKnobler on
//! random users in between.
//!
//! After every call, besides the no-harm contract: the stats agree with the users reachable by
//! id, no share is NaN, a user's dominant share is its running tasks times its task share, the
//! next user is the active one with the smallest (weighted share, id), a round's tasks fit in
//! what was free, one after the other, and the stateless allocations fit in the capacity.

use super::input::Input;
use super::watch::{no_nan, Block, Out, Watch};
use super::Target;
use fairsched::ffi::drf::*;
use fairsched::ffi::qknobler::*;
use std::ptr;

/// Ids are drawn below this, so that calls hit known, unknown and duplicate ids alike.
const IDS: u64 = 6;

/// Runs the DRF target on `data`.
pub fn run(data: &[u8]) {
    super::drive::<Queue>(data);
}

/// `len` amounts, each a random number (mostly small and positive).
fn amounts(input: &mut Input, len: usize) -> Vec<f64> {
    (0..len).map(|_| input.number()).collect()
}

/// Asserts that `started` tasks (user ids) fit in `free`, taken one after the other as the
/// queue does, each user's task needing `demands[id]`.
fn fit_one_by_one(free: &[f64], started: &[u64], demands: &[Option<Vec<f64>>]) {
    let mut free = free.to_vec();
    for &id in started {
        let demand = demands[id as usize]
            .as_ref()
            .expect("a started user exists");
        for (have, &need) in free.iter_mut().zip(demand) {
            assert!(
                need <= *have,
                "user {id}'s task needs {need}, {have} is free"
            );
            *have -= need;
        }
    }
}

/// Asserts that `tasks[i]` tasks of each user's demand (row-major, `kinds` a row) fit in
/// `capacity`, up to rounding.
fn fit_together(capacity: &[f64], demands: &[f64], tasks: &[f64]) {
    let mut used = vec![0.0; capacity.len()];
    for (row, n) in demands.chunks_exact(capacity.len()).zip(tasks) {
        for (total, &d) in used.iter_mut().zip(row) {
            *total += n * d;
        }
    }
    for (&total, &c) in used.iter().zip(capacity) {
        assert!(
            total <= c * (1.0 + 1e-9),
            "{total} allocated of {c}: tasks {tasks:?} of {demands:?} on {capacity:?}"
        );
    }
}

/// The queue under test and the demands of the users the harness added.
struct Queue {
    block: Block,
    handle: *mut FairschedDrfQueue,
    kinds: usize,
    demands: Vec<Option<Vec<f64>>>,
    /// The user `next` must return, by the harness' own reckoning.
    next: Option<u64>,
}

impl Target for Queue {
    /// Asks for the storage size and builds the queue, either possibly invalid (no users, no
    /// or too many kinds, bad amounts, memory one byte short, a NULL pointer).
    fn init(input: &mut Input) -> Option<Self> {
        let users = input.below(9) as u32;
        let kinds = input.below(10);
        let capacity = amounts(input, kinds);
        let at = input.reads(&capacity);
        let (block, handle) = Block::build(
            input,
            "fairsched_drf_queue",
            |size| unsafe { fairsched_drf_queue_storage_size(users, size) },
            |memory, len, out| unsafe {
                fairsched_drf_queue_init(memory, len, users, at, capacity.len(), out)
            },
        )?;
        Some(Queue {
            block,
            handle,
            kinds: capacity.len(),
            demands: vec![None; IDS as usize],
            next: None,
        })
    }

    fn step(&mut self, input: &mut Input) {
        self.call(input);
        self.check();
    }
}

impl Queue {
    /// One random call, checked against the no-harm contract.
    fn call(&mut self, input: &mut Input) {
        let queue = input.or_null(self.handle);
        let id = input.below(IDS as usize) as u64;
        let state = self.block.watched(Watch::new());
        match input.below(10) {
            0 => {
                let weight = input.number();
                let kinds = input.skewed(self.kinds);
                let demand = amounts(input, kinds);
                let status = unsafe {
                    fairsched_drf_queue_add_user(
                        queue,
                        id,
                        weight,
                        input.reads(&demand),
                        demand.len(),
                    )
                };
                if state.check("fairsched_drf_queue_add_user", status) {
                    self.demands[id as usize] = Some(demand);
                }
            }
            1 => {
                let status = unsafe { fairsched_drf_queue_remove_user(queue, id) };
                if state.check("fairsched_drf_queue_remove_user", status) {
                    self.demands[id as usize] = None;
                }
            }
            2 => {
                let (count, which) = (input.count(5), input.below(3));
                let (export, status) = match which {
                    0 => ("fairsched_drf_queue_set_pending", unsafe {
                        fairsched_drf_queue_set_pending(queue, id, count)
                    }),
                    1 => ("fairsched_drf_queue_tasks_started", unsafe {
                        fairsched_drf_queue_tasks_started(queue, id, count)
                    }),
                    _ => ("fairsched_drf_queue_tasks_finished", unsafe {
                        fairsched_drf_queue_tasks_finished(queue, id, count)
                    }),
                };
                state.check(export, status);
            }
            3 | 4 => {
                let start = input.one_in(2);
                let (mut next, mut found) = (u64::MAX, false);
                let watch = Watch::new().value(&next).value(&found);
                let (out_id, out_found) = (input.or_null(&mut next), input.or_null(&mut found));
                let expected = self.next;
                let status = if start {
                    let status =
                        unsafe { fairsched_drf_queue_start_next(queue, out_id, out_found) };
                    state.check("fairsched_drf_queue_start_next", status);
                    status
                } else {
                    let status = unsafe { fairsched_drf_queue_next(queue, out_id, out_found) };
                    state.unchanged("fairsched_drf_queue_next");
                    status
                };
                if watch.check("fairsched_drf_queue_next", status) {
                    assert_eq!(found.then_some(next), expected, "next user");
                }
            }
            5 => self.allocate_round(queue, state, input),
            6 => self.qknobler_round(queue, state, input),
            7 => {
                let status = unsafe { fairsched_drf_queue_user_get(queue, id, ptr::null_mut()) };
                Watch::new().check("fairsched_drf_queue_user_get", status);
                let status = unsafe { fairsched_drf_queue_stats_get(queue, ptr::null_mut()) };
                Watch::new().check("fairsched_drf_queue_stats_get", status);
                state.unchanged("fairsched_drf_queue_user_get and _stats_get");
            }
            8 => divisible(input),
            _ => qknobler(input),
        }
    }

    /// Discrete DRF on random free resources.
    fn allocate_round(&mut self, queue: *mut FairschedDrfQueue, state: Watch, input: &mut Input) {
        let kinds = input.skewed(self.kinds);
        let free = amounts(input, kinds);
        let mut ids = vec![u64::MAX; input.below(6)];
        let mut started = usize::MAX;
        let watch = state.slice(&ids).value(&started);
        let status = unsafe {
            fairsched_drf_queue_allocate_round(
                queue,
                input.reads(&free),
                free.len(),
                input.or_null(ids.as_mut_ptr()),
                ids.len(),
                input.or_null(&mut started),
            )
        };
        if watch.check("fairsched_drf_queue_allocate_round", status) {
            assert!(started <= ids.len());
            fit_one_by_one(&free, &ids[..started], &self.demands);
        }
    }

    /// QKnobler's Algorithm 1 on a random machine: its tasks fit in what is idle.
    fn qknobler_round(&mut self, queue: *mut FairschedDrfQueue, state: Watch, input: &mut Input) {
        let rho = if input.one_in(4) {
            input.number()
        } else {
            input.below(5) as f64 / 4.0
        };
        let kinds = input.skewed(self.kinds);
        let machine = amounts(input, kinds);
        let idle: Vec<f64> = machine
            .iter()
            .map(|m| m * input.below(3) as f64 / 2.0)
            .collect();
        let mut ids = vec![u64::MAX; input.below(6)];
        let mut round = Out::<FairschedQknoblerRound>::new();
        let watch = state.slice(&ids).out(&round);
        let status = unsafe {
            fairsched_drf_queue_qknobler_round(
                queue,
                rho,
                input.reads(&machine),
                machine.len(),
                input.reads(&idle),
                idle.len(),
                input.or_null(ids.as_mut_ptr()),
                ids.len(),
                input.or_null(round.ptr()),
            )
        };
        if watch.check("fairsched_drf_queue_qknobler_round", status) {
            let round = round.into_inner();
            assert!(round.fairness <= round.started && round.started <= ids.len());
            fit_one_by_one(&idle, &ids[..round.started], &self.demands);
        }
    }

    /// Reads the whole queue through the C ABI and checks its invariants.
    fn check(&mut self) {
        let mut stats = FairschedDrfQueueStats {
            capacity: 0,
            users: 0,
            active: 0,
            kinds: 0,
        };
        let status = unsafe { fairsched_drf_queue_stats_get(self.handle, &mut stats) };
        assert!(Watch::new().check("fairsched_drf_queue_stats_get", status));
        let users: Vec<FairschedDrfUserInfo> = (0..IDS).filter_map(|id| self.user(id)).collect();
        assert_eq!(users.len(), stats.users as usize, "users reachable by id");
        assert_eq!(stats.kinds as usize, self.kinds);
        for (id, demand) in self.demands.iter().enumerate() {
            assert_eq!(
                demand.is_some(),
                users.iter().any(|u| u.id == id as u64),
                "user {id}"
            );
        }
        let active: Vec<&FairschedDrfUserInfo> = users.iter().filter(|u| u.pending > 0).collect();
        assert_eq!(active.len(), stats.active as usize, "active users");
        for user in &users {
            let shares = [
                user.weight,
                user.dominant_share,
                user.weighted_share,
                user.task_share,
            ];
            no_nan("user", &shares);
            assert_eq!(user.dominant_share, user.running as f64 * user.task_share);
        }
        self.next = active
            .iter()
            .min_by(|a, b| {
                a.weighted_share
                    .total_cmp(&b.weighted_share)
                    .then(a.id.cmp(&b.id))
            })
            .map(|u| u.id);
        let (mut next, mut found) = (0, false);
        let status = unsafe { fairsched_drf_queue_next(self.handle, &mut next, &mut found) };
        assert!(Watch::new().check("fairsched_drf_queue_next", status));
        assert_eq!(
            found.then_some(next),
            self.next,
            "next is not the smallest share"
        );
    }

    /// User `id`, if present; a failure must write nothing into the info.
    fn user(&self, id: u64) -> Option<FairschedDrfUserInfo> {
        let mut info = Out::new();
        let watch = Watch::new().out(&info);
        let status = unsafe { fairsched_drf_queue_user_get(self.handle, id, info.ptr()) };
        watch
            .check("fairsched_drf_queue_user_get", status)
            .then(|| info.into_inner())
    }
}

/// Random users for the stateless calls: a capacity, weights and row-major demands, each
/// length possibly off by one.
struct Users {
    capacity: Vec<f64>,
    weights: Vec<f64>,
    demands: Vec<f64>,
}

impl Users {
    fn random(input: &mut Input) -> Self {
        let kinds = 1 + input.below(3);
        let kinds = input.skewed(kinds);
        let users = input.below(5);
        let (capacity, weights) = (amounts(input, kinds), amounts(input, users));
        let rows = input.skewed(users * kinds);
        Users {
            capacity,
            weights,
            demands: amounts(input, rows),
        }
    }
}

/// Divisible DRF: no NaN, and every user's tasks fit in the capacity together.
fn divisible(input: &mut Input) {
    let users = Users::random(input);
    let mut tasks = vec![f64::NAN; input.skewed(users.weights.len())];
    let mut shares = vec![f64::NAN; input.skewed(users.weights.len())];
    let mut phi = f64::NAN;
    let watch = Watch::new().slice(&tasks).slice(&shares).value(&phi);
    let status = unsafe {
        fairsched_drf_divisible(
            input.reads(&users.capacity),
            users.capacity.len(),
            input.reads(&users.weights),
            users.weights.len(),
            input.reads(&users.demands),
            users.demands.len(),
            input.or_null(tasks.as_mut_ptr()),
            tasks.len(),
            input.or_null(shares.as_mut_ptr()),
            shares.len(),
            input.or_null(&mut phi),
        )
    };
    if watch.check("fairsched_drf_divisible", status) {
        no_nan(
            "divisible DRF",
            &[tasks.as_slice(), &shares, &[phi]].concat(),
        );
        fit_together(&users.capacity, &users.demands, &tasks);
    }
}

/// QKnobler's two stages: no NaN, and the whole tasks fit in the capacity together.
fn qknobler(input: &mut Input) {
    let users = Users::random(input);
    let rho = if input.one_in(4) {
        input.number()
    } else {
        input.below(5) as f64 / 4.0
    };
    let n = users.weights.len();
    let mut fair = vec![f64::NAN; input.skewed(n)];
    let mut efficient = vec![f64::NAN; input.skewed(n)];
    let mut whole = vec![u64::MAX; input.skewed(n)];
    let mut summary = Out::<FairschedQknoblerSummary>::new();
    let watch = Watch::new()
        .slice(&fair)
        .slice(&efficient)
        .slice(&whole)
        .out(&summary);
    let status = unsafe {
        fairsched_qknobler_allocate(
            input.reads(&users.capacity),
            users.capacity.len(),
            input.reads(&users.weights),
            n,
            input.reads(&users.demands),
            users.demands.len(),
            rho,
            input.or_null(fair.as_mut_ptr()),
            fair.len(),
            input.or_null(efficient.as_mut_ptr()),
            efficient.len(),
            input.or_null(whole.as_mut_ptr()),
            whole.len(),
            input.or_null(summary.ptr()),
        )
    };
    if watch.check("fairsched_qknobler_allocate", status) {
        let s = summary.into_inner();
        let numbers = [s.rho, s.phi, s.theta, s.sharing_incentive_rho, s.efficiency];
        let residual = &s.residual[..s.kinds as usize];
        no_nan(
            "QKnobler",
            &[fair.as_slice(), &efficient, &numbers, residual].concat(),
        );
        let whole: Vec<f64> = whole.iter().map(|&w| w as f64).collect();
        fit_together(&users.capacity, &users.demands, &whole);
    }
}
