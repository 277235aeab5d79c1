//! Multi-resource machines (the QKnobler paper's setting, `papers/003` §5-§7): machines with a
//! capacity of each resource kind run non-preemptive tasks, each task holding its user's
//! demand vector while it runs. Whenever resources free on a machine, the packer chooses which
//! users start a task there, as a YARN node heartbeat does.
//!
//! Packers, all the core's code:
//! - **DRF**: discrete DRF over the cluster's total capacity, progressive filling of the
//!   machine's idle resources ([`fairsched::drf::DrfQueue::allocate_round`]);
//! - **QKnobler at ρ**: the paper's online Algorithm 1 on the same queue
//!   ([`fairsched::drf::DrfQueue::qknobler_round`]); ρ = 1 owes every user its DRF share;
//! - **Tetris**: the task whose demand best aligns with the machine's idle resources first,
//!   the core's Tetris alignment ([`fairsched::drr::Metric::Tetris`] on one time step).
//!
//! At one instant, finishing tasks release their resources first; then every machine that
//! freed resources, in order, is offered to the packer. All users are present from time 0 (a batch): the measure is
//! the makespan.

use crate::memory::Memory;
use fairsched::drf::{Borrowed, DrfQueue, UserRow, HEAPS};
use fairsched::drr::{Executor, Machine, Metric};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

/// One user: a demand vector every task holds while it runs, and the tasks' run times.
#[derive(Clone, Debug, PartialEq)]
pub struct User {
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
    /// When the last task finished.
    pub makespan: f64,
    /// When each user's last task finished, by index.
    pub completions: Vec<f64>,
    /// For each kind: resource-time used over the capacity available during the makespan.
    pub utilization: Vec<f64>,
}

/// The packer's state.
enum Chooser<'m> {
    /// DRF or QKnobler (`Some(ρ)`) on the core's queue.
    Queue {
        queue: DrfQueue<Borrowed<'m>>,
        rho: Option<f64>,
        ids: Vec<u64>,
    },
    /// Tetris: the tasks each user has waiting.
    Tetris { pending: Vec<usize> },
}

impl Chooser<'_> {
    /// Chooses users to start one task each on a machine of `capacity` with `idle` resources;
    /// their indices go to `out`.
    fn place(
        &mut self,
        users: &[User],
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
            Chooser::Tetris { pending } => {
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

    /// A task of user `u` finished.
    fn finished(&mut self, u: usize) -> fairsched::Result<()> {
        match self {
            Chooser::Queue { queue, .. } => queue.tasks_finished(u as u64, 1),
            Chooser::Tetris { .. } => Ok(()),
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
    let kinds = machines.first().map_or(0, Vec::len);
    let total: Vec<f64> = (0..kinds)
        .map(|k| machines.iter().map(|m| m[k]).sum())
        .collect();
    let tasks: usize = users.iter().map(|user| user.tasks.len()).sum();
    let mut memory = Memory::<UserRow, HEAPS>::new(users.len().max(1));
    let mut chooser = match packer {
        Packer::Tetris => Chooser::Tetris {
            pending: users.iter().map(|user| user.tasks.len()).collect(),
        },
        Packer::Drf | Packer::QKnobler(_) => {
            let mut queue = DrfQueue::with_storage(memory.storage(), &total)?;
            for (u, user) in users.iter().enumerate() {
                queue.add_user(u as u64, user.weight, &user.demand)?;
                queue.set_pending(u as u64, user.tasks.len() as u64)?;
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
    let mut next_task = vec![0usize; users.len()];
    let mut unfinished: Vec<usize> = users.iter().map(|user| user.tasks.len()).collect();
    let mut completions = vec![0.0; users.len()];
    let mut used = vec![0.0; kinds];
    // Running tasks by finish time (non-negative floats order like their bits): machine, user.
    let mut running: BinaryHeap<Reverse<(u64, usize, usize)>> = BinaryHeap::new();
    let mut started = Vec::new();
    let mut now: f64 = 0.0;
    // Machines with resources freed since they were last offered (all, at first): a packer
    // fills a machine until no waiting task fits, and in a batch nothing new ever waits, so
    // the others have nothing to start.
    let mut freed = vec![true; machines.len()];
    loop {
        for (m, capacity) in machines.iter().enumerate() {
            if !std::mem::take(&mut freed[m]) {
                continue;
            }
            chooser.place(users, capacity, &idle(m, &held), &mut started)?;
            for &u in &started {
                let user = &users[u];
                let run_time = user.tasks[next_task[u]];
                next_task[u] += 1;
                for (total, d) in used.iter_mut().zip(&user.demand) {
                    *total += d * run_time;
                }
                held[m].push(u);
                running.push(Reverse(((now + run_time).to_bits(), m, u)));
            }
        }
        let Some(&Reverse((t, ..))) = running.peek() else {
            break;
        };
        now = f64::from_bits(t);
        while let Some(&Reverse((t, m, u))) = running.peek() {
            if f64::from_bits(t) != now {
                break;
            }
            running.pop();
            if let Some(at) = held[m].iter().position(|&h| h == u) {
                held[m].swap_remove(at);
            }
            freed[m] = true;
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
    Ok(PackRun {
        makespan: now,
        completions,
        utilization: used
            .iter()
            .zip(&total)
            .map(|(u, t)| if now > 0.0 { u / (t * now) } else { 0.0 })
            .collect(),
    })
}

/// The packers compared by default: DRF, QKnobler from fairness (ρ = 1) to efficiency
/// (ρ = 0), and Tetris.
pub const PACKERS: [Packer; 5] = [
    Packer::Drf,
    Packer::QKnobler(1.0),
    Packer::QKnobler(0.5),
    Packer::QKnobler(0.0),
    Packer::Tetris,
];

/// One packer's run, summarized.
#[derive(Clone, Debug, PartialEq)]
pub struct PackSummary {
    /// The packer's name.
    pub packer: String,
    /// When the last task finished.
    pub makespan: f64,
    /// The users' mean completion time.
    pub mean_completion: f64,
    /// Utilization of each kind over the makespan.
    pub utilization: Vec<f64>,
}

/// Runs `users` on `machines` under each of `packers`.
pub fn compare_packers(
    machines: &[Vec<f64>],
    users: &[User],
    packers: &[Packer],
) -> fairsched::Result<Vec<PackSummary>> {
    packers
        .iter()
        .map(|&packer| {
            let run = pack(machines, users, packer)?;
            Ok(PackSummary {
                packer: packer.to_string(),
                makespan: run.makespan,
                mean_completion: run.completions.iter().sum::<f64>()
                    / run.completions.len().max(1) as f64,
                utilization: run.utilization,
            })
        })
        .collect()
}

/// The makespan no packer can beat: for each kind, the work over the cluster's capacity.
pub fn makespan_bound(machines: &[Vec<f64>], users: &[User]) -> f64 {
    let kinds = machines.first().map_or(0, Vec::len);
    (0..kinds)
        .map(|k| {
            let work: f64 = users
                .iter()
                .map(|user| user.demand[k] * user.tasks.iter().sum::<f64>())
                .sum();
            work / machines.iter().map(|m| m[k]).sum::<f64>()
        })
        .fold(0.0, f64::max)
}
