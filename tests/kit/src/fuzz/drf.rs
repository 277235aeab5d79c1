//! DRF and QKnobler: one incremental DRF queue of up to 8 users in caller memory at a random
//! alignment, driven by random users, pending and running counts, rounds of discrete DRF and
//! QKnobler's online Algorithm 1; and the stateless divisible DRF and two-stage QKnobler on
//! random users in between. One step in 32 (first byte 0x70 to 0x73 or 0xa2 to 0xa5) instead
//! calls one of QKnobler's stateless pieces for heterogeneous tasks on random arguments (no or
//! too many kinds, NaN, ±∞, negative, -0 or huge amounts, running sums that do not match the
//! running count, counts that overflow, all-zero demands, a knob outside [0, 1], idle resources
//! above the machine, mismatched lengths, NULL pointers): `fairsched_qknobler_average_demand`
//! (0x70 to 0x73) or `fairsched_qknobler_choose` (0xa2 to 0xa5).
//!
//! After every call, besides the no-harm contract: the stats agree with the users reachable by
//! id, no share is NaN, a user's dominant share is its running tasks times its task share, the
//! next user is the active one with the smallest (weighted share, id), a round's tasks fit in
//! what was free, one after the other, and the stateless allocations fit in the capacity.
//!
//! An average demand written is a demand (finite, not negative, not all zero), counts at most
//! the pending tasks, each kind at most the larger of the running tasks' average and the
//! counted tasks' largest demand (up to the rounding of the sum), and is, bit for bit, what a
//! naive First-Fit over the pending tasks computes in the same order. A choice is found exactly
//! when some user's next task fits the idle resources, and a choice not found leaves the choice
//! as it was; the user chosen is one whose next task fits, and the branch is the fairness one
//! exactly when the lowest `s_i / w_i` among the fitting users (ties: lower index, by a naive
//! scan) is owed (`ρ >= 1` or `s_i < ρ s_i^max`), in which case that user is the one chosen;
//! otherwise it is the fitting user of the highest affinity (ties: lower index).

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
    ///
    /// A step's first byte says whether the queue is NULL (as `Input::or_null` does, once in
    /// 32); eight values (one in 32) call QKnobler's stateless pieces for heterogeneous tasks
    /// instead. Those are values no step of the inputs saved before those exports starts with,
    /// so that the saved corpus decodes as it did.
    fn call(&mut self, input: &mut Input) {
        let first = input.byte();
        if matches!(first, AVERAGE_FIRST..=AVERAGE_LAST | CHOOSE_FIRST..=CHOOSE_LAST) {
            // Stateless: the queue's memory must not change either.
            let state = self.block.watched(Watch::new());
            if first <= AVERAGE_LAST {
                average_demand(input);
            } else {
                choose(input);
            }
            state.unchanged("QKnobler's stateless pieces for heterogeneous tasks");
            return;
        }
        let queue = if first.is_multiple_of(32) {
            ptr::null_mut()
        } else {
            self.handle
        };
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

/// The first bytes of a step that calls `fairsched_qknobler_average_demand`.
const AVERAGE_FIRST: u8 = 0x70;
const AVERAGE_LAST: u8 = 0x73;
/// The first bytes of a step that calls `fairsched_qknobler_choose`.
const CHOOSE_FIRST: u8 = 0xa2;
const CHOOSE_LAST: u8 = 0xa5;

/// A number of kinds for the heterogeneous pieces: mostly 1 to 3, sometimes 0, 4 or 9.
fn heterogeneous_kinds(input: &mut Input) -> usize {
    if input.one_in(32) {
        9
    } else {
        let kinds = 1 + input.below(3);
        input.skewed(kinds)
    }
}

/// A small amount: mostly a multiple of 1/2 below 4 (0 included, so that rows tie and fit
/// exactly), sometimes any number.
fn small(input: &mut Input) -> f64 {
    if input.one_in(16) {
        input.number()
    } else {
        input.below(8) as f64 / 2.0
    }
}

/// `fairsched_qknobler_average_demand` on a random user.
fn average_demand(input: &mut Input) {
    let kinds = heterogeneous_kinds(input);
    let idle: Vec<f64> = (0..kinds).map(|_| 2.0 * small(input)).collect();
    let running = match input.below(4) {
        0 | 1 => 0,
        _ => input.count(5),
    };
    let sum_kinds = input.skewed(kinds);
    let running_sum: Vec<f64> = if running == 0 && !input.one_in(8) {
        vec![0.0; sum_kinds]
    } else {
        (0..sum_kinds).map(|_| small(input)).collect()
    };
    let tasks = input.below(6);
    let pending_len = input.skewed(tasks * kinds);
    let pending: Vec<f64> = (0..pending_len).map(|_| small(input)).collect();
    let mut average = vec![f64::NAN; input.skewed(kinds)];
    let mut counted = u64::MAX;
    let watch = Watch::new().slice(&average).value(&counted);
    let status = unsafe {
        fairsched_qknobler_average_demand(
            input.reads(&idle),
            idle.len(),
            input.reads(&running_sum),
            running_sum.len(),
            running,
            input.reads(&pending),
            pending.len(),
            input.or_null(average.as_mut_ptr()),
            average.len(),
            input.or_null(&mut counted),
        )
    };
    let export = "fairsched_qknobler_average_demand";
    if !watch.check(export, status) {
        return;
    }
    assert!(
        average.len() == kinds && running_sum.len() == kinds && pending.len().is_multiple_of(kinds),
        "{export} accepted {} kinds of average, {} of running sum, {} pending amounts for {kinds} kinds",
        average.len(),
        running_sum.len(),
        pending.len()
    );
    assert!(
        average.iter().all(|a| a.is_finite() && *a >= 0.0) && average.iter().any(|&a| a != 0.0),
        "{export}: average {average:?} is not a demand"
    );
    let rows: Vec<&[f64]> = pending.chunks_exact(kinds).collect();
    assert!(
        counted as usize <= rows.len(),
        "{export}: {counted} counted"
    );
    // Naive First-Fit in queue order, summing in the core's order (the running sum, then each
    // counted task in turn, kind by kind; a task taken from what is idle, never below 0), so
    // the average must agree bit for bit. Every amount as the core validates it: -0 folded
    // into +0 (`fairsched::num::finite`), so that a kind of -0 averages +0.
    let fold = |v: &[f64]| v.iter().map(|a| a + 0.0).collect::<Vec<f64>>();
    let mut free = fold(&idle);
    let mut sum = fold(&running_sum);
    let rows: Vec<Vec<f64>> = rows.iter().map(|row| fold(row)).collect();
    let mut fitted: Vec<&[f64]> = Vec::new();
    for row in &rows {
        if row.iter().zip(&free).all(|(d, f)| d <= f) {
            for ((f, s), &d) in free.iter_mut().zip(&mut sum).zip(row) {
                *f = (*f - d).max(0.0);
                *s += d;
            }
            fitted.push(row);
        }
    }
    assert_eq!(counted, fitted.len() as u64, "{export}: tasks counted");
    let averaged = running + counted;
    let expected: Vec<f64> = if averaged == 0 {
        rows.first().expect("a pending task").to_vec()
    } else {
        sum.iter().map(|s| s / averaged as f64).collect()
    };
    let bits = |v: &[f64]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(&average),
        bits(&expected),
        "{export}: {average:?}, naive First-Fit {expected:?}"
    );
    // A mean is at most its largest term: the running tasks' average or a counted task's
    // demand. The sum of 1 + counted non-negative terms rounds at most `counted` times (each
    // time by at most 2^-53 of the exact sum), the division once, and the running average the
    // bound uses once more (downward): `(counted + 3) 2^-52` covers them all. Among subnormal
    // amounts rounding is absolute, by half a unit of 2^-1074: two units cover that.
    if averaged > 0 {
        let slack = 1.0 + (counted as f64 + 3.0) * f64::EPSILON;
        let tiny = 2.0 * f64::from_bits(1);
        for (k, &a) in average.iter().enumerate() {
            let running_average = if running > 0 {
                running_sum[k] / running as f64
            } else {
                0.0
            };
            let bound = fitted
                .iter()
                .map(|row| row[k])
                .fold(running_average, f64::max);
            assert!(
                a <= bound * slack + tiny,
                "{export}: kind {k} averages {a}, above {bound} ({running} running, sum {running_sum:?}, counted {fitted:?})"
            );
        }
    }
}

/// `fairsched_qknobler_choose` on random active users.
fn choose(input: &mut Input) {
    let rho = if input.one_in(4) {
        input.number()
    } else {
        input.below(5) as f64 / 4.0
    };
    let kinds = heterogeneous_kinds(input);
    let cluster = amounts(input, kinds);
    let machine_kinds = input.skewed(kinds);
    let machine = amounts(input, machine_kinds);
    let idle: Vec<f64> = if input.one_in(16) {
        amounts(input, kinds)
    } else {
        machine
            .iter()
            .map(|m| m * input.below(3) as f64 / 2.0)
            .collect()
    };
    let n = input.below(6);
    let weights: Vec<f64> = (0..n)
        .map(|_| {
            if input.one_in(16) {
                input.number()
            } else {
                1.0 + input.below(3) as f64
            }
        })
        .collect();
    let allocated_len = input.skewed(n * kinds);
    let allocated: Vec<f64> = (0..allocated_len).map(|_| small(input)).collect();
    let max_shares_len = input.skewed(n);
    let max_shares: Vec<f64> = (0..max_shares_len)
        .map(|_| {
            if input.one_in(16) {
                input.number()
            } else {
                input.below(5) as f64 / 4.0
            }
        })
        .collect();
    let next_len = input.skewed(n * kinds);
    let next: Vec<f64> = (0..next_len).map(|_| small(input)).collect();
    let mut choice = Out::<FairschedQknoblerChoice>::new();
    // True before the call, so that a choice not found shows that `found` was written.
    let mut found = true;
    let watch = Watch::new().out(&choice).value(&found);
    let untouched = Watch::new().out(&choice);
    let status = unsafe {
        fairsched_qknobler_choose(
            rho,
            input.reads(&cluster),
            cluster.len(),
            input.reads(&machine),
            machine.len(),
            input.reads(&idle),
            idle.len(),
            input.reads(&weights),
            weights.len(),
            input.reads(&allocated),
            allocated.len(),
            input.reads(&max_shares),
            max_shares.len(),
            input.reads(&next),
            next.len(),
            input.or_null(choice.ptr()),
            input.or_null(&mut found),
        )
    };
    let export = "fairsched_qknobler_choose";
    if !watch.check(export, status) {
        return;
    }
    assert!(
        (0.0..=1.0).contains(&rho)
            && machine.len() == kinds
            && idle.len() == kinds
            && allocated.len() == n * kinds
            && next.len() == n * kinds
            && max_shares.len() == n,
        "{export} accepted ρ {rho}, {kinds} kinds, {} machine, {} idle, {} allocated, {} next, {} max shares for {n} users",
        machine.len(),
        idle.len(),
        allocated.len(),
        next.len(),
        max_shares.len()
    );
    // The naive scan: each user's s_i = max_k U_ik / r_k (folded from 0 as the core does) over
    // w_i, the lowest among the users whose next task fits (strictly lower replaces: ties go
    // to the lower index), and the highest affinity among them.
    let fits = |i: usize| {
        next[i * kinds..][..kinds]
            .iter()
            .zip(&idle)
            .all(|(d, f)| d <= f)
    };
    let share = |i: usize| {
        allocated[i * kinds..][..kinds]
            .iter()
            .zip(&cluster)
            .map(|(u, r)| u / r)
            .fold(0.0, f64::max)
    };
    let affinity = |i: usize| -> f64 {
        next[i * kinds..][..kinds]
            .iter()
            .zip(&idle)
            .zip(&machine)
            .map(|((d, f), c)| (d / c) * (f / c))
            .sum()
    };
    let mut lowest: Option<(f64, usize)> = None;
    let mut best: Option<(f64, usize)> = None;
    for i in (0..n).filter(|&i| fits(i)) {
        let weighted = share(i) / weights[i];
        if lowest.is_none_or(|(top, _)| weighted < top) {
            lowest = Some((weighted, i));
        }
        let a = affinity(i);
        if best.is_none_or(|(top, _)| a > top) {
            best = Some((a, i));
        }
    }
    let Some((_, low)) = lowest else {
        assert!(!found, "{export} found a user though no next task fits");
        untouched.unchanged(export);
        return;
    };
    assert!(
        found,
        "{export} found no user though user {low}'s next task fits"
    );
    let choice = choice.into_inner();
    assert!(
        choice.user < n && fits(choice.user),
        "{export} chose user {} of {n}, whose next task does not fit {idle:?}",
        choice.user
    );
    let owed = rho >= 1.0 || share(low) < rho * max_shares[low];
    assert_eq!(
        choice.fairness,
        owed,
        "{export}: branch for the lowest user {low} (share {}, max share {}, ρ {rho})",
        share(low),
        max_shares[low]
    );
    let expected = if owed {
        low
    } else {
        best.map_or(low, |(_, i)| i)
    };
    assert_eq!(
        choice.user, expected,
        "{export}: user chosen (fairness: {owed})"
    );
}
