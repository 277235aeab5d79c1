//! Multi-resource machines (the setting of the QKnobler paper, Tang, Yu, Li: *Fairness-Efficiency
//! Scheduling for Cloud Computing with Soft Fairness Guarantees*, IEEE Transactions on Cloud
//! Computing, 2020; §5-§7): machines with a capacity of each resource kind run non-preemptive
//! tasks, each task holding its user's demand vector while it runs. Whenever resources free on a
//! machine, the packer chooses which users start a task there, as a YARN node heartbeat does.
//!
//! Packers, all the core's code:
//! - **DRF**: discrete DRF over the cluster's total capacity, progressive filling of the
//!   machine's idle resources ([`fairsched::drf::DrfQueue::allocate_round`]);
//! - **QKnobler at ρ**: the paper's online Algorithm 1 on the same queue
//!   ([`fairsched::drf::DrfQueue::qknobler_round`]): a user below `ρ s_i^max` is served as DRF
//!   serves it; otherwise the fitting task with the best affinity to the machine's idle
//!   resources (§6.1 C3); ρ = 1 is DRF exactly;
//! - **Tetris**: the task whose demand best aligns with the machine's idle resources first,
//!   the core's Tetris alignment ([`fairsched::drr::Metric::Tetris`] on one time step);
//! - **QKnobler-C2 at ρ**, for users whose tasks come in two phases of different demands (a
//!   MapReduce job's maps, then its reduces: [`User::then`]): the QKnobler paper's §6.1 C2 with
//!   the core's stateless pieces ([`fairsched::qknobler::heterogeneous`]). Whenever a machine
//!   is offered, every active user's average task demand is estimated First-Fit from its running
//!   and pending tasks (`average_demand`), `s_i^max` follows from DRF's closed form over those
//!   averages (the MDRS updater, again whenever a user runs out of pending tasks, C1), and
//!   each task is Algorithm 1's decision (`choose`) on the users' allocated resources. ρ = 1 is
//!   DRF on the users' allocated resources. Only this packer takes two-phase users.
//!
//! Users arrive with all their tasks waiting (at time 0 in a batch). At one instant,
//! finishing tasks release their resources first, then users arrive, then every machine that
//! freed resources (every machine, after an arrival), in order, is offered to the packer.
//!
//! Besides the makespan, a run measures **soft fairness** (the QKnobler paper's §5.1, eq. 12): the
//! spread `max s_i/w_i - min s_i/w_i` of the weighted dominant shares of the users waiting for
//! resources (the active users of the paper's Algorithm 1), after each instant's placements,
//! with `s_i` the dominant share of the user's running tasks in the whole cluster. QKnobler's
//! Theorem 1 bounds it by θ for the divisible allocation; the run reports its mean over time
//! and its largest value, where tasks are indivisible and not preempted.

use crate::document::{change, fields, Comparison, Document, Fields, Part, Table};
use crate::memory::DrfMemory;
use fairsched::drf::{Borrowed, Divisible, DrfQueue, Users};
use fairsched::drr::{Executor, Machine, Metric};
use fairsched::qknobler::heterogeneous::{average_demand, choose, ActiveUsers};
use fairsched::qknobler::Allocation;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::{self, Write};

/// One user: a demand vector every task holds while it runs, and the tasks' run times; and
/// possibly a second phase of tasks of another demand, which start after all of the first
/// phase's have started (queue order, no barrier).
#[derive(Clone, Debug, PartialEq)]
pub struct User {
    /// When the user's tasks start waiting, in seconds.
    pub arrival: f64,
    /// Weight in DRF's weighted dominant share.
    pub weight: f64,
    /// Amount of each resource kind a task holds.
    pub demand: Vec<f64>,
    /// Run time of each task, in the order they start.
    pub tasks: Vec<f64>,
    /// The second phase (a MapReduce job's reduce tasks), if any.
    pub then: Option<Phase>,
}

/// A user's second phase of tasks: their demand and run times.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// Amount of each resource kind a task of this phase holds.
    pub demand: Vec<f64>,
    /// Run time of each task, in the order they start.
    pub tasks: Vec<f64>,
}

impl User {
    /// Tasks of both phases.
    fn task_count(&self) -> usize {
        self.tasks.len() + self.then.as_ref().map_or(0, |p| p.tasks.len())
    }

    /// The phase of task `t` (0 or 1), in start order.
    fn phase_of(&self, t: usize) -> usize {
        usize::from(t >= self.tasks.len())
    }

    /// The demand of task `t`.
    fn task_demand(&self, t: usize) -> &[f64] {
        match (&self.then, self.phase_of(t)) {
            (Some(then), 1) => &then.demand,
            _ => &self.demand,
        }
    }

    /// The run time of task `t`.
    fn run_time(&self, t: usize) -> f64 {
        match &self.then {
            Some(then) if t >= self.tasks.len() => then.tasks[t - self.tasks.len()],
            _ => self.tasks[t],
        }
    }

    /// Every phase's demand and number of tasks.
    fn phases(&self) -> impl Iterator<Item = (&[f64], usize)> {
        std::iter::once((self.demand.as_slice(), self.tasks.len())).chain(
            self.then
                .as_ref()
                .map(|p| (p.demand.as_slice(), p.tasks.len())),
        )
    }
}

/// A way to choose tasks for a machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Packer {
    /// Discrete DRF.
    Drf,
    /// QKnobler's online algorithm at the knob ρ in [0, 1].
    QKnobler(f64),
    /// Tetris' alignment.
    Tetris,
    /// QKnobler with heterogeneous tasks (§6.1 C2) at the knob ρ in [0, 1].
    QKnoblerC2(f64),
}

impl fmt::Display for Packer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Packer::Drf => write!(f, "DRF"),
            Packer::QKnobler(rho) => write!(f, "QKnobler ρ={rho}"),
            Packer::Tetris => write!(f, "Tetris"),
            Packer::QKnoblerC2(rho) => write!(f, "QKnobler-C2 ρ={rho}"),
        }
    }
}

/// What happened in one packing run.
#[derive(Clone, Debug, PartialEq)]
pub struct PackRun {
    /// From the first arrival to the end of the last task.
    pub makespan: f64,
    /// When each user's last task finished, by index.
    pub completions: Vec<f64>,
    /// For each kind: resource-time used over the capacity available during the makespan.
    pub utilization: Vec<f64>,
    /// The spread of the waiting users' weighted dominant shares (see the module docs).
    pub soft_fairness: SoftFairness,
}

/// The spread of weighted dominant shares over a run: its mean over time and its maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SoftFairness {
    /// The spread averaged over the makespan.
    pub mean: f64,
    /// The largest spread at any instant.
    pub max: f64,
}

/// Accumulates a piecewise-constant spread over time.
struct SpreadOverTime {
    start: f64,
    since: f64,
    current: f64,
    integral: f64,
    max: f64,
}

impl SpreadOverTime {
    /// No spread yet, from `start` on.
    fn from(start: f64) -> Self {
        SpreadOverTime {
            start,
            since: start,
            current: 0.0,
            integral: 0.0,
            max: 0.0,
        }
    }

    /// From `now` on, the spread is `spread`.
    fn set(&mut self, now: f64, spread: f64) {
        self.integral += self.current * (now - self.since);
        self.since = now;
        self.current = spread;
        self.max = self.max.max(spread);
    }

    /// The spread up to `end`.
    fn over(mut self, end: f64) -> SoftFairness {
        self.set(end, 0.0);
        let span = end - self.start;
        SoftFairness {
            mean: if span > 0.0 {
                self.integral / span
            } else {
                0.0
            },
            max: self.max,
        }
    }
}

/// The packer's state.
enum Chooser<'m> {
    /// DRF or QKnobler (`Some(ρ)`) on the core's queue.
    Queue {
        queue: DrfQueue<Borrowed<'m>>,
        rho: Option<f64>,
        ids: Vec<u64>,
    },
    /// Tetris, on the tasks each user has waiting.
    Tetris,
    /// QKnobler with heterogeneous tasks over the cluster's `total` capacity.
    Heterogeneous { rho: f64, total: Vec<f64> },
}

/// What the packer may read of the run when it is offered a machine: each user's pending
/// tasks, the index of its next task, its running tasks and the resources they hold.
struct Tracked<'a> {
    pending: &'a [usize],
    next_task: &'a [usize],
    running: &'a [usize],
    allocated: &'a [Vec<f64>],
}

impl Chooser<'_> {
    /// Chooses users to start one task each on a machine of `capacity` with `idle` resources,
    /// among the `pending` tasks of each user; their indices go to `out`.
    fn place(
        &mut self,
        users: &[User],
        tracked: &Tracked<'_>,
        capacity: &[f64],
        idle: &[f64],
        out: &mut Vec<usize>,
    ) -> fairsched::Result<()> {
        out.clear();
        let pending = tracked.pending;
        match self {
            Chooser::Queue { queue, rho, ids } => {
                let started = match rho {
                    Some(rho) => queue.qknobler_round(*rho, capacity, idle, ids)?.started,
                    None => queue.allocate_round(idle, ids)?,
                };
                out.extend(ids[..started].iter().map(|&id| id as usize));
            }
            Chooser::Tetris => {
                let mut pending = pending.to_vec();
                let mut free = idle.to_vec();
                loop {
                    let machine = Machine::new(capacity, &free, 1)?;
                    let mut best: Option<(f64, usize)> = None;
                    for (u, user) in users.iter().enumerate().filter(|&(u, _)| pending[u] > 0) {
                        let task = Executor::new(&user.demand, user.demand.len())?;
                        if let Some(score) = machine.score(&task, Metric::Tetris)? {
                            if best.is_none_or(|(top, _)| Metric::Tetris.better(score, top)) {
                                best = Some((score, u));
                            }
                        }
                    }
                    let Some((_, u)) = best else { break };
                    pending[u] -= 1;
                    for (f, d) in free.iter_mut().zip(&users[u].demand) {
                        *f = (*f - d).max(0.0);
                    }
                    out.push(u);
                }
            }
            Chooser::Heterogeneous { rho, total } => {
                place_heterogeneous(users, tracked, *rho, total, capacity, idle, out)?;
            }
        }
        Ok(())
    }

    /// User `u` arrived with `tasks` tasks waiting.
    fn arrive(&mut self, u: usize, tasks: usize) -> fairsched::Result<()> {
        match self {
            Chooser::Queue { queue, .. } => queue.set_pending(u as u64, tasks as u64),
            Chooser::Tetris | Chooser::Heterogeneous { .. } => Ok(()),
        }
    }

    /// A task of user `u` finished.
    fn finished(&mut self, u: usize) -> fairsched::Result<()> {
        match self {
            Chooser::Queue { queue, .. } => queue.tasks_finished(u as u64, 1),
            Chooser::Tetris | Chooser::Heterogeneous { .. } => Ok(()),
        }
    }
}

/// QKnobler-C2's choices for one machine of `capacity` with `idle` resources: Algorithm 1's
/// decision (the core's `choose`) one task at a time on the users' allocated resources, until
/// no waiting task fits; `s_i^max` from the users' estimated average demands ([`mdrs`]), again
/// whenever a user runs out of pending tasks (§6.1 C1).
fn place_heterogeneous(
    users: &[User],
    tracked: &Tracked<'_>,
    rho: f64,
    total: &[f64],
    capacity: &[f64],
    idle: &[f64],
    out: &mut Vec<usize>,
) -> fairsched::Result<()> {
    let mut next_task = tracked.next_task.to_vec();
    let mut running = tracked.running.to_vec();
    let mut allocated = tracked.allocated.to_vec();
    let mut free = idle.to_vec();
    let mut active: Vec<usize> = (0..users.len())
        .filter(|&u| tracked.pending[u] > 0)
        .collect();
    let mut max_shares = mdrs(users, &active, &next_task, &running, &allocated, total)?;
    loop {
        let weights: Vec<f64> = active.iter().map(|&u| users[u].weight).collect();
        let held: Vec<f64> = active.iter().flat_map(|&u| allocated[u].clone()).collect();
        let next: Vec<f64> = active
            .iter()
            .flat_map(|&u| users[u].task_demand(next_task[u]).to_vec())
            .collect();
        let active_users = ActiveUsers {
            weights: &weights,
            allocated: &held,
            max_shares: &max_shares,
            next: &next,
        };
        let Some(choice) = choose(rho, total, capacity, &free, active_users)? else {
            return Ok(());
        };
        let u = active[choice.user];
        let demand = users[u].task_demand(next_task[u]);
        for ((f, a), d) in free.iter_mut().zip(&mut allocated[u]).zip(demand) {
            *f = (*f - d).max(0.0);
            *a += d;
        }
        next_task[u] += 1;
        running[u] += 1;
        out.push(u);
        if next_task[u] == users[u].task_count() {
            active.remove(choice.user);
            max_shares = mdrs(users, &active, &next_task, &running, &allocated, total)?;
        }
    }
}

/// The MDRS updater (QKnobler §6.2) over the `active` users: each one's current average task
/// demand by the core's First-Fit estimate into what the cluster has idle, then `s_i^max =
/// w_i / φ` from DRF's closed form over those averages. Of a phase's pending tasks, all of one
/// demand, the list holds only as many as could fit what is idle, and one more: First-Fit can
/// count no more of them, so the estimate is the one over every pending task.
fn mdrs(
    users: &[User],
    active: &[usize],
    next_task: &[usize],
    running: &[usize],
    allocated: &[Vec<f64>],
    total: &[f64],
) -> fairsched::Result<Vec<f64>> {
    if active.is_empty() {
        return Ok(Vec::new());
    }
    let kinds = total.len();
    let cluster_idle: Vec<f64> = (0..kinds)
        .map(|k| (total[k] - allocated.iter().map(|a| a[k]).sum::<f64>()).max(0.0))
        .collect();
    let (mut weights, mut averages) = (Vec::new(), Vec::new());
    for &u in active {
        let user = &users[u];
        let mut pending = Vec::new();
        let mut first = 0;
        for (demand, count) in user.phases() {
            let left = (first + count).saturating_sub(next_task[u].max(first));
            first += count;
            let room = demand
                .iter()
                .zip(&cluster_idle)
                .filter(|&(&d, _)| d > 0.0)
                .map(|(&d, &i)| (i / d).floor())
                .fold(f64::INFINITY, f64::min);
            let rows = left.min((room as usize).saturating_add(1));
            for _ in 0..rows {
                pending.extend_from_slice(demand);
            }
        }
        let mut average = vec![0.0; kinds];
        average_demand(
            &cluster_idle,
            &allocated[u],
            running[u] as u64,
            &pending,
            &mut average,
        )?;
        weights.push(user.weight);
        averages.extend(average);
    }
    let core = Users::new(total, &weights, &averages)?;
    let drf = Divisible::of(&core);
    Ok((0..active.len()).map(|j| drf.share(&core, j)).collect())
}

/// Runs `users` on `machines` (capacities, one amount per kind) under `packer`.
/// [`fairsched::Error::OutOfRange`] when a user's task fits no machine, or when a user has two
/// phases and the packer is not [`Packer::QKnoblerC2`].
pub fn pack(machines: &[Vec<f64>], users: &[User], packer: Packer) -> fairsched::Result<PackRun> {
    let fits = |demand: &[f64], room: &[f64]| demand.iter().zip(room).all(|(d, r)| d <= r);
    let phased = users.iter().any(|user| user.then.is_some());
    if users.iter().any(|user| {
        user.phases()
            .any(|(demand, _)| !machines.iter().any(|m| fits(demand, m)))
    }) || (phased && !matches!(packer, Packer::QKnoblerC2(_)))
    {
        return Err(fairsched::Error::OutOfRange);
    }
    let total = total_capacity(machines);
    let kinds = total.len();
    let (weights, demands) = flatten(users);
    // `s_i / w_i` of one running task of each user, from the core.
    let task_shares: Vec<f64> = {
        let core = Users::new(&total, &weights, &demands)?;
        (0..users.len())
            .map(|u| core.dominant(u) / core.weight(u))
            .collect()
    };
    let tasks: usize = users.iter().map(User::task_count).sum();
    let mut memory = DrfMemory::for_users(users.len().max(1));
    let mut chooser = match packer {
        Packer::Tetris => Chooser::Tetris,
        Packer::QKnoblerC2(rho) => Chooser::Heterogeneous {
            rho,
            total: total.clone(),
        },
        Packer::Drf | Packer::QKnobler(_) => {
            let mut queue = memory.queue(&total)?;
            for (u, user) in users.iter().enumerate() {
                queue.add_user(u as u64, user.weight, &user.demand)?;
            }
            Chooser::Queue {
                queue,
                rho: match packer {
                    Packer::QKnobler(rho) => Some(rho),
                    _ => None,
                },
                ids: vec![0; tasks.max(1)],
            }
        }
    };

    // The tasks running on each machine, one entry (user, task) a task: idle resources are the
    // capacity minus their demands, summed afresh, so that no rounding piles up.
    let mut held: Vec<Vec<(usize, usize)>> = vec![Vec::new(); machines.len()];
    let idle = |m: usize, held: &[Vec<(usize, usize)>]| -> Vec<f64> {
        (0..kinds)
            .map(|k| {
                let taken: f64 = held[m]
                    .iter()
                    .map(|&(u, t)| users[u].task_demand(t)[k])
                    .sum();
                (machines[m][k] - taken).max(0.0)
            })
            .collect()
    };
    // The resources each user's running tasks hold, summed afresh from `held` (for
    // QKnobler-C2, and for the soft fairness of two-phase users; the others' shares are their
    // task counts times one task's share).
    let allocated = |held: &[Vec<(usize, usize)>]| -> Vec<Vec<f64>> {
        let mut allocated = vec![vec![0.0; kinds]; users.len()];
        if matches!(packer, Packer::QKnoblerC2(_)) {
            for &(u, t) in held.iter().flatten() {
                for (a, d) in allocated[u].iter_mut().zip(users[u].task_demand(t)) {
                    *a += d;
                }
            }
        }
        allocated
    };
    let mut arrivals: Vec<usize> = (0..users.len()).collect();
    arrivals.sort_by(|&a, &b| users[a].arrival.total_cmp(&users[b].arrival));
    let mut arrivals = arrivals.into_iter().peekable();
    let mut pending = vec![0usize; users.len()];
    let mut running_tasks = vec![0usize; users.len()];
    let mut next_task = vec![0usize; users.len()];
    let mut unfinished: Vec<usize> = users.iter().map(User::task_count).collect();
    let mut completions = vec![0.0; users.len()];
    let mut used = vec![0.0; kinds];
    // Running tasks by finish time (non-negative floats order like their bits): machine, user,
    // task.
    let mut running: BinaryHeap<Reverse<(u64, usize, usize, usize)>> = BinaryHeap::new();
    let mut started = Vec::new();
    // Machines with resources freed since they were last offered: a packer fills a machine
    // until no waiting task fits, so the others have nothing to start until someone arrives.
    let mut freed = vec![false; machines.len()];
    let start = users
        .iter()
        .map(|user| user.arrival)
        .fold(f64::INFINITY, f64::min);
    let mut now = start;
    let mut spread = SpreadOverTime::from(start);
    loop {
        while let Some(u) = arrivals.next_if(|&u| users[u].arrival <= now) {
            pending[u] = users[u].task_count();
            chooser.arrive(u, pending[u])?;
            freed.fill(true);
        }
        for (m, capacity) in machines.iter().enumerate() {
            if !std::mem::take(&mut freed[m]) {
                continue;
            }
            let held_now = allocated(&held);
            let tracked = Tracked {
                pending: &pending,
                next_task: &next_task,
                running: &running_tasks,
                allocated: &held_now,
            };
            chooser.place(users, &tracked, capacity, &idle(m, &held), &mut started)?;
            for &u in &started {
                let user = &users[u];
                let t = next_task[u];
                let run_time = user.run_time(t);
                next_task[u] += 1;
                pending[u] -= 1;
                running_tasks[u] += 1;
                for (total, d) in used.iter_mut().zip(user.task_demand(t)) {
                    *total += d * run_time;
                }
                held[m].push((u, t));
                running.push(Reverse(((now + run_time).to_bits(), m, u, t)));
            }
        }
        let held_now = allocated(&held);
        let waiting = (0..users.len()).filter(|&u| pending[u] > 0);
        let shares = waiting.map(|u| {
            if users[u].then.is_some() {
                let share = held_now[u]
                    .iter()
                    .zip(&total)
                    .map(|(a, r)| a / r)
                    .fold(0.0, f64::max);
                share / users[u].weight
            } else {
                running_tasks[u] as f64 * task_shares[u]
            }
        });
        let (low, high) = shares.fold((f64::INFINITY, 0.0f64), |(low, high), s| {
            (low.min(s), high.max(s))
        });
        spread.set(now, (high - low).max(0.0));

        let next_finish = running.peek().map(|Reverse((t, ..))| f64::from_bits(*t));
        let next_arrival = arrivals.peek().map(|&u| users[u].arrival);
        now = match (next_finish, next_arrival) {
            (None, None) => break,
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
        };
        while let Some(&Reverse((at_bits, m, u, t))) = running.peek() {
            if f64::from_bits(at_bits) != now {
                break;
            }
            running.pop();
            // The first entry of the user's task of that phase: for a user of one phase, its
            // first entry, as ever (any of its entries holds the same demand).
            let phase = users[u].phase_of(t);
            let entry = |&(h, ht): &(usize, usize)| h == u && users[h].phase_of(ht) == phase;
            if let Some(at) = held[m].iter().position(entry) {
                held[m].swap_remove(at);
            }
            freed[m] = true;
            running_tasks[u] -= 1;
            chooser.finished(u)?;
            unfinished[u] -= 1;
            if unfinished[u] == 0 {
                completions[u] = now;
            }
        }
    }
    assert!(
        unfinished.iter().all(|&n| n == 0),
        "the {packer} packer left tasks that fit a machine unstarted"
    );
    let makespan = now - start;
    Ok(PackRun {
        makespan,
        completions,
        utilization: used
            .iter()
            .zip(&total)
            .map(|(u, t)| {
                if makespan > 0.0 {
                    u / (t * makespan)
                } else {
                    0.0
                }
            })
            .collect(),
        soft_fairness: spread.over(now),
    })
}

/// The knobs of the comparison: ρ from 1 (DRF's fairness) down to 0 (efficiency alone) in
/// steps of 0.1, as the QKnobler paper's Fig. 6 and 8 sweep it.
pub const KNOBS: [f64; 11] = [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0];

/// The packers of two-phase users (`packing --phases`): QKnobler-C2 at each of [`KNOBS`]
/// (ρ = 1 is DRF).
pub fn phased_packers() -> Vec<Packer> {
    KNOBS.iter().map(|&rho| Packer::QKnoblerC2(rho)).collect()
}

/// The packers compared by default: DRF, QKnobler at each of [`KNOBS`], and Tetris.
pub fn packers() -> Vec<Packer> {
    let knobs = KNOBS.iter().map(|&rho| Packer::QKnobler(rho));
    std::iter::once(Packer::Drf)
        .chain(knobs)
        .chain([Packer::Tetris])
        .collect()
}

/// One packer's run, summarized.
#[derive(Clone, Debug, PartialEq)]
pub struct PackSummary {
    /// The packer's name.
    pub packer: String,
    /// From the first arrival to the end of the last task.
    pub makespan: f64,
    /// The users' mean completion time, from arrival to the end of their last task.
    pub mean_completion: f64,
    /// Utilization of each kind over the makespan.
    pub utilization: Vec<f64>,
    /// The measured spread of weighted dominant shares.
    pub soft_fairness: SoftFairness,
    /// Theorem 1's bound θ on that spread for the divisible allocation of every user at once
    /// (the paper's "estimated soft fairness", Fig. 6b), from the core; 0 for DRF, none for
    /// Tetris.
    pub theta: Option<f64>,
}

/// The cluster's capacity of each kind: its machines' summed.
fn total_capacity(machines: &[Vec<f64>]) -> Vec<f64> {
    let kinds = machines.first().map_or(0, Vec::len);
    (0..kinds)
        .map(|k| machines.iter().map(|m| m[k]).sum())
        .collect()
}

/// The users' weights, and their demands one after the other, as the core takes them.
fn flatten(users: &[User]) -> (Vec<f64>, Vec<f64>) {
    let weights = users.iter().map(|user| user.weight).collect();
    let demands = users.iter().flat_map(|user| user.demand.clone()).collect();
    (weights, demands)
}

/// Theorem 1's θ for `users` on the capacity `total` at knob `rho`, from the core's
/// [`fairsched::qknobler::allocate`].
fn theorem_1_theta(total: &[f64], users: &[User], rho: f64) -> fairsched::Result<f64> {
    let (weights, demands) = flatten(users);
    let core = Users::new(total, &weights, &demands)?;
    let n = users.len();
    let (mut fair, mut efficient, mut whole) = (vec![0.0; n], vec![0.0; n], vec![0; n]);
    let allocation = Allocation {
        fair: &mut fair,
        efficient: &mut efficient,
        whole: &mut whole,
    };
    Ok(fairsched::qknobler::allocate(&core, rho, allocation)?.theta)
}

/// Runs `users` on `machines` under each of `packers`.
pub fn compare_packers(
    machines: &[Vec<f64>],
    users: &[User],
    packers: &[Packer],
) -> fairsched::Result<Vec<PackSummary>> {
    let total = total_capacity(machines);
    packers
        .iter()
        .map(|&packer| {
            let run = pack(machines, users, packer)?;
            let responses = users
                .iter()
                .zip(&run.completions)
                .map(|(user, done)| done - user.arrival);
            Ok(PackSummary {
                packer: packer.to_string(),
                makespan: run.makespan,
                mean_completion: responses.sum::<f64>() / users.len().max(1) as f64,
                utilization: run.utilization,
                soft_fairness: run.soft_fairness,
                theta: match packer {
                    Packer::Drf => Some(0.0),
                    Packer::QKnobler(rho) => Some(theorem_1_theta(&total, users, rho)?),
                    Packer::Tetris | Packer::QKnoblerC2(_) => None,
                },
            })
        })
        .collect()
}

/// The makespan no packer can beat: for each kind, the work over the cluster's capacity.
pub fn makespan_bound(machines: &[Vec<f64>], users: &[User]) -> f64 {
    total_capacity(machines)
        .iter()
        .enumerate()
        .map(|(k, capacity)| {
            let work: f64 = users
                .iter()
                .map(|user| {
                    let then = user
                        .then
                        .as_ref()
                        .map_or(0.0, |p| p.demand[k] * p.tasks.iter().sum::<f64>());
                    user.demand[k] * user.tasks.iter().sum::<f64>() + then
                })
                .sum();
            work / capacity
        })
        .fold(0.0, f64::max)
}

/// The packers the summary lines compare, by the identifier their names use: QKnobler at both
/// ends of its knob against DRF and Tetris, and QKnobler-C2 at ρ = 0 against its DRF (ρ = 1),
/// on makespan.
const PAIRS: [(&str, Packer, &str, Packer); 5] = [
    (
        "qknobler_c2_0",
        Packer::QKnoblerC2(0.0),
        "qknobler_c2_1",
        Packer::QKnoblerC2(1.0),
    ),
    ("qknobler_0", Packer::QKnobler(0.0), "drf", Packer::Drf),
    (
        "qknobler_0",
        Packer::QKnobler(0.0),
        "tetris",
        Packer::Tetris,
    ),
    ("qknobler_1", Packer::QKnobler(1.0), "drf", Packer::Drf),
    (
        "qknobler_1",
        Packer::QKnobler(1.0),
        "tetris",
        Packer::Tetris,
    ),
];

/// The packing comparison as the `packing` command prints it: `summaries` of `workload` on
/// `machines`, `bound` the makespan no packer can beat, each kind's utilization under its key
/// of `utilization` (`utilization_cores`...). The speedup is the makespan of QKnobler (or
/// QKnobler-C2) at ρ = 1 over each packer's (the paper's Fig. 6a and 8 normalize to it), when
/// that knob was run.
pub fn document(
    parameters: Fields,
    workload: &str,
    machines: &str,
    utilization: &[&'static str],
    bound: f64,
    summaries: &[PackSummary],
) -> Document {
    let title = format!("{workload} on {machines}");
    let row = |packer: Packer| summaries.iter().find(|s| s.packer == packer.to_string());
    let reference = row(Packer::QKnobler(1.0))
        .or_else(|| row(Packer::QKnoblerC2(1.0)))
        .map_or(f64::NAN, |s| s.makespan);
    let speedup = |s: &PackSummary| reference / s.makespan;
    // The packer column fits the longest name ("QKnobler-C2 ρ=0.9"), at least 16 wide.
    let width = summaries
        .iter()
        .map(|s| s.packer.chars().count())
        .fold(16, usize::max);
    let mut text = format!(
        "{title}; no makespan below {bound:.1} s\n\n\
         {:<width$} {:>10} {:>8} {:>12}  {:>22}  {}\n\
         {:<width$} {:>10} {:>8} {:>12}  {:>6} {:>6} {:>8}\n",
        "",
        "",
        "speedup",
        "mean",
        "soft fairness",
        "utilization",
        "packer",
        "makespan s",
        "over ρ=1",
        "completion s",
        "mean",
        "max",
        "θ (Th.1)"
    );
    for s in summaries {
        let _ = write!(
            text,
            "{:<width$} {:>10.1} {:>8.3} {:>12.1}  {:>6.3} {:>6.3} {:>8} ",
            s.packer,
            s.makespan,
            speedup(s),
            s.mean_completion,
            s.soft_fairness.mean,
            s.soft_fairness.max,
            s.theta.map_or("-".to_owned(), |t| format!("{t:.3}")),
        );
        for u in &s.utilization {
            let _ = write!(text, " {:>4.0}%", u * 100.0);
        }
        text.push('\n');
    }
    let table = Table {
        name: "packing".to_owned(),
        title: title.clone(),
        context: vec![
            ("workload", workload.into()),
            ("machines", machines.into()),
            ("makespan_bound", bound.into()),
        ],
        rows: summaries
            .iter()
            .map(|s| {
                let mut row = vec![
                    ("packer", s.packer.as_str().into()),
                    ("makespan", s.makespan.into()),
                    ("speedup", speedup(s).into()),
                    ("mean_completion", s.mean_completion.into()),
                    ("soft_fairness_mean", s.soft_fairness.mean.into()),
                    ("soft_fairness_max", s.soft_fairness.max.into()),
                    ("theta", s.theta.into()),
                ];
                row.extend(fields(utilization, &s.utilization));
                row
            })
            .collect(),
    };
    let comparisons = PAIRS
        .iter()
        .filter_map(|&(subject, ours, baseline, theirs)| {
            let (ours, theirs) = (row(ours)?, row(theirs)?);
            Some(Comparison::new(
                "packing",
                None,
                (subject, &ours.packer),
                (baseline, &theirs.packer),
                ("makespan", "makespan"),
                change(ours.makespan, theirs.makespan),
            ))
        })
        .collect();
    let part = Part::summarized(table, comparisons, text);
    Document::new("packing", title, parameters, vec![part], "")
}
