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
//!   the core's Tetris alignment ([`fairsched::drr::Metric::Tetris`] on one time step).
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
use crate::memory::Memory;
use fairsched::drf::{Borrowed, DrfQueue, UserRow, Users, HEAPS};
use fairsched::drr::{Executor, Machine, Metric};
use fairsched::qknobler::Allocation;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::{self, Write};

/// One user: a demand vector every task holds while it runs, and the tasks' run times.
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
}

impl fmt::Display for Packer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Packer::Drf => write!(f, "DRF"),
            Packer::QKnobler(rho) => write!(f, "QKnobler ρ={rho}"),
            Packer::Tetris => write!(f, "Tetris"),
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
}

impl Chooser<'_> {
    /// Chooses users to start one task each on a machine of `capacity` with `idle` resources,
    /// among the `pending` tasks of each user; their indices go to `out`.
    fn place(
        &mut self,
        users: &[User],
        pending: &[usize],
        capacity: &[f64],
        idle: &[f64],
        out: &mut Vec<usize>,
    ) -> fairsched::Result<()> {
        out.clear();
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
        }
        Ok(())
    }

    /// User `u` arrived with `tasks` tasks waiting.
    fn arrive(&mut self, u: usize, tasks: usize) -> fairsched::Result<()> {
        match self {
            Chooser::Queue { queue, .. } => queue.set_pending(u as u64, tasks as u64),
            Chooser::Tetris => Ok(()),
        }
    }

    /// A task of user `u` finished.
    fn finished(&mut self, u: usize) -> fairsched::Result<()> {
        match self {
            Chooser::Queue { queue, .. } => queue.tasks_finished(u as u64, 1),
            Chooser::Tetris => Ok(()),
        }
    }
}

/// Runs `users` on `machines` (capacities, one amount per kind) under `packer`.
/// [`fairsched::Error::OutOfRange`] when a user's task fits no machine.
pub fn pack(machines: &[Vec<f64>], users: &[User], packer: Packer) -> fairsched::Result<PackRun> {
    let fits = |demand: &[f64], room: &[f64]| demand.iter().zip(room).all(|(d, r)| d <= r);
    if users
        .iter()
        .any(|user| !machines.iter().any(|m| fits(&user.demand, m)))
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
    let tasks: usize = users.iter().map(|user| user.tasks.len()).sum();
    let mut memory = Memory::<UserRow, HEAPS>::new(users.len().max(1));
    let mut chooser = match packer {
        Packer::Tetris => Chooser::Tetris,
        Packer::Drf | Packer::QKnobler(_) => {
            let mut queue = DrfQueue::with_storage(memory.storage(), &total)?;
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

    // The users whose tasks run on each machine, one entry a task: idle resources are the
    // capacity minus their demands, summed afresh, so that no rounding piles up.
    let mut held: Vec<Vec<usize>> = vec![Vec::new(); machines.len()];
    let idle = |m: usize, held: &[Vec<usize>]| -> Vec<f64> {
        (0..kinds)
            .map(|k| {
                let taken: f64 = held[m].iter().map(|&u| users[u].demand[k]).sum();
                (machines[m][k] - taken).max(0.0)
            })
            .collect()
    };
    let mut arrivals: Vec<usize> = (0..users.len()).collect();
    arrivals.sort_by(|&a, &b| users[a].arrival.total_cmp(&users[b].arrival));
    let mut arrivals = arrivals.into_iter().peekable();
    let mut pending = vec![0usize; users.len()];
    let mut running_tasks = vec![0usize; users.len()];
    let mut next_task = vec![0usize; users.len()];
    let mut unfinished: Vec<usize> = users.iter().map(|user| user.tasks.len()).collect();
    let mut completions = vec![0.0; users.len()];
    let mut used = vec![0.0; kinds];
    // Running tasks by finish time (non-negative floats order like their bits): machine, user.
    let mut running: BinaryHeap<Reverse<(u64, usize, usize)>> = BinaryHeap::new();
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
            pending[u] = users[u].tasks.len();
            chooser.arrive(u, pending[u])?;
            freed.fill(true);
        }
        for (m, capacity) in machines.iter().enumerate() {
            if !std::mem::take(&mut freed[m]) {
                continue;
            }
            chooser.place(users, &pending, capacity, &idle(m, &held), &mut started)?;
            for &u in &started {
                let user = &users[u];
                let run_time = user.tasks[next_task[u]];
                next_task[u] += 1;
                pending[u] -= 1;
                running_tasks[u] += 1;
                for (total, d) in used.iter_mut().zip(&user.demand) {
                    *total += d * run_time;
                }
                held[m].push(u);
                running.push(Reverse(((now + run_time).to_bits(), m, u)));
            }
        }
        let waiting = (0..users.len()).filter(|&u| pending[u] > 0);
        let shares = waiting.map(|u| running_tasks[u] as f64 * task_shares[u]);
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
        while let Some(&Reverse((t, m, u))) = running.peek() {
            if f64::from_bits(t) != now {
                break;
            }
            running.pop();
            if let Some(at) = held[m].iter().position(|&h| h == u) {
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
                    Packer::Tetris => None,
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
                .map(|user| user.demand[k] * user.tasks.iter().sum::<f64>())
                .sum();
            work / capacity
        })
        .fold(0.0, f64::max)
}

/// The packers the summary lines compare, by the identifier their names use: QKnobler at both
/// ends of its knob against DRF and Tetris, on makespan.
const PAIRS: [(&str, Packer, &str, Packer); 4] = [
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
/// of `utilization` (`utilization_cores`...). The speedup is the makespan of QKnobler at ρ = 1
/// over each packer's (the paper's Fig. 6a and 8 normalize to it), when that knob was run.
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
    let reference = row(Packer::QKnobler(1.0)).map_or(f64::NAN, |s| s.makespan);
    let speedup = |s: &PackSummary| reference / s.makespan;
    let mut text = format!(
        "{title}; no makespan below {bound:.1} s\n\n\
         {:<16} {:>10} {:>8} {:>12}  {:>22}  {}\n\
         {:<16} {:>10} {:>8} {:>12}  {:>6} {:>6} {:>8}\n",
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
            "{:<16} {:>10.1} {:>8.3} {:>12.1}  {:>6.3} {:>6.3} {:>8} ",
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
