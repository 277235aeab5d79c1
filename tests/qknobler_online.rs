//! QKnobler's online Algorithm 1 (Tang, Yu, Li: *Fairness-Efficiency Scheduling for Cloud
//! Computing with Soft Fairness Guarantees*, IEEE Transactions on Cloud Computing, 2020; §6):
//! users' finite pending tasks (§6.1 C1), ρ = 1 as discrete DRF on random queues, the
//! efficiency branch's affinity (§6.1 C3) and `φ` recomputed when a user runs out (C1) on the
//! paper's Example 1, and rejected calls.

use fairsched::drf::{DrfQueue, Inline, UserInfo};
use fairsched::qknobler::online::Round;
use fairsched::Error;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

const USERS: usize = 8;

/// One round: idle resources and room for ids, then tasks finishing and arriving after it,
/// as (user, count).
#[derive(Clone, Debug)]
struct Step {
    idle: Vec<f64>,
    room: usize,
    finish: Vec<(u64, u64)>,
    arrive: Vec<(u64, u64)>,
}

/// A queue's users and a sequence of rounds on random idle resources, with tasks finishing
/// and arriving between them.
#[derive(Clone, Debug)]
struct Session {
    cluster: Vec<f64>,
    /// Weight, demand, pending tasks.
    users: Vec<(f64, Vec<f64>, u64)>,
    rounds: Vec<Step>,
    rho: f64,
}

impl Arbitrary for Session {
    fn arbitrary(g: &mut Gen) -> Self {
        let kinds = usize::arbitrary(g) % 3 + 1;
        let small = |g: &mut Gen, top: u32| f64::from(u32::arbitrary(g) % top);
        let cluster: Vec<f64> = (0..kinds).map(|_| small(g, 30) + 4.0).collect();
        let users = (0..usize::arbitrary(g) % USERS + 1)
            .map(|_| {
                let mut demand: Vec<f64> = (0..kinds).map(|_| small(g, 5)).collect();
                if demand.iter().all(|&d| d == 0.0) {
                    demand[0] = 1.0;
                }
                (small(g, 3) + 1.0, demand, u64::arbitrary(g) % 12)
            })
            .collect::<Vec<_>>();
        let n = users.len() as u64;
        let rounds = (0..usize::arbitrary(g) % 6 + 1)
            .map(|_| {
                let idle = cluster
                    .iter()
                    .map(|&c| (small(g, 101) / 100.0 * c).floor())
                    .collect();
                let changes = |g: &mut Gen| {
                    (0..usize::arbitrary(g) % 4)
                        .map(|_| (u64::arbitrary(g) % n, u64::arbitrary(g) % 4))
                        .collect()
                };
                Step {
                    idle,
                    room: usize::arbitrary(g) % 40,
                    finish: changes(g),
                    arrive: changes(g),
                }
            })
            .collect();
        Session {
            cluster,
            users,
            rounds,
            rho: f64::from(u8::arbitrary(g) % 11) / 10.0,
        }
    }
}

impl Session {
    fn queue(&self) -> DrfQueue<Inline<USERS>> {
        let mut queue = DrfQueue::new(&self.cluster).unwrap();
        for (id, (weight, demand, pending)) in self.users.iter().enumerate() {
            queue.add_user(id as u64, *weight, demand).unwrap();
            queue.set_pending(id as u64, *pending).unwrap();
        }
        queue
    }

    fn infos(&self, queue: &DrfQueue<Inline<USERS>>) -> Vec<UserInfo> {
        (0..self.users.len() as u64)
            .map(|id| queue.user(id).unwrap())
            .collect()
    }
}

/// Tasks finish (at most the running ones) and arrive between rounds.
fn between(queue: &mut DrfQueue<Inline<USERS>>, step: &Step) {
    for &(id, count) in &step.finish {
        let running = queue.user(id).unwrap().running;
        queue.tasks_finished(id, count.min(running)).unwrap();
    }
    for &(id, count) in &step.arrive {
        let pending = queue.user(id).unwrap().pending;
        queue.set_pending(id, pending + count).unwrap();
    }
}

/// ρ = 1 starts exactly the tasks discrete DRF starts, in the same order, every round: the
/// paper's reduction of QKnobler to DRF (§5.2.1), online and with finite pending tasks.
fn rho_one_is_allocate_round(session: Session) -> TestResult {
    let (mut drf, mut online) = (session.queue(), session.queue());
    for step in &session.rounds {
        let (idle, room) = (&step.idle, step.room);
        let (mut a, mut b) = (vec![0; room], vec![0; room]);
        let started = drf.allocate_round(idle, &mut a).unwrap();
        let round = online
            .qknobler_round(1.0, &session.cluster, idle, &mut b)
            .unwrap();
        let expected = Round {
            started,
            fairness: started,
        };
        if round != expected || a[..started] != b[..started] {
            return TestResult::error(format!(
                "DRF {:?}, ρ = 1 {:?}",
                &a[..started],
                &b[..round.started]
            ));
        }
        if session.infos(&drf) != session.infos(&online) || drf.next() != online.next() {
            return TestResult::error("the queues differ after the round");
        }
        between(&mut drf, step);
        between(&mut online, step);
    }
    TestResult::passed()
}

#[test]
fn rho_one_online_is_discrete_drf() {
    QuickCheck::new()
        .tests(500)
        .quickcheck(rho_one_is_allocate_round as fn(Session) -> TestResult);
}

/// §6.1 C1 at every knob: a user with `k` pending tasks gets at most `k` in a round; what it
/// gets moves from pending to running, and the ids written are the tasks started.
fn pending_bounds_every_round(session: Session) -> TestResult {
    let mut queue = session.queue();
    for step in &session.rounds {
        let (idle, room) = (&step.idle, step.room);
        let before = session.infos(&queue);
        let mut ids = vec![0; room];
        let round = queue
            .qknobler_round(session.rho, &session.cluster, idle, &mut ids)
            .unwrap();
        let after = session.infos(&queue);
        let used: Vec<f64> = (0..session.cluster.len())
            .map(|k| {
                ids[..round.started]
                    .iter()
                    .map(|&id| session.users[id as usize].1[k])
                    .sum()
            })
            .collect();
        if used.iter().zip(idle).any(|(u, i)| u > i) {
            return TestResult::error(format!("{used:?} started on {idle:?}"));
        }
        for (id, (b, a)) in before.iter().zip(&after).enumerate() {
            let got = ids[..round.started]
                .iter()
                .filter(|&&x| x == id as u64)
                .count() as u64;
            if got > b.pending || a.running != b.running + got || a.pending != b.pending - got {
                return TestResult::error(format!("user {id}: {got} of {b:?} gave {a:?}"));
            }
        }
        between(&mut queue, step);
    }
    TestResult::passed()
}

#[test]
fn finite_pending_tasks_bound_every_round() {
    QuickCheck::new()
        .tests(500)
        .quickcheck(pending_bounds_every_round as fn(Session) -> TestResult);
}

/// The paper's Example 1 (§4): 200 CPUs and 1000 GB, A <1, 6> and B <1, 2>.
fn example_1(pending: [u64; 2]) -> DrfQueue<Inline<4>> {
    let mut queue = DrfQueue::new(&[200.0, 1000.0]).unwrap();
    queue.add_user(0, 1.0, &[1.0, 6.0]).unwrap();
    queue.add_user(1, 1.0, &[1.0, 2.0]).unwrap();
    queue.set_pending(0, pending[0]).unwrap();
    queue.set_pending(1, pending[1]).unwrap();
    queue
}

/// A round at `rho` on one machine as large as Example 1's cluster, all idle.
fn whole_cluster_round(queue: &mut DrfQueue<Inline<4>>, rho: f64) -> (Round, [u64; 400]) {
    let mut ids = [0; 400];
    let all = [200.0, 1000.0];
    let round = queue.qknobler_round(rho, &all, &all, &mut ids).unwrap();
    (round, ids)
}

/// ρ = 0: no user is ever owed (`s_i < 0` never holds), so every task comes from the
/// efficiency branch, the fitting task with the highest affinity
/// `Σ_k (d_k / C_k)(idle_k / C_k)`. With idle `<c, m>`, A's is `c/200² + 6m/1000²` and B's
/// `c/200² + 2m/1000²`: A's is higher by `4m/1000²` whenever any memory is idle, so A takes
/// every task while one fits. After `n` of them `<200 - n, 1000 - 6n>` is idle, and A fits
/// while `1000 - 6n >= 6`, for `n` up to 165: 166 A tasks, leaving `<34, 4>`. Then only B fits:
/// two tasks take the last 4 GB, and nothing fits `<32, 0>`. 168 tasks, every GB in use but 32
/// CPUs idle: the server-level heuristic packs by the idle vector, not toward Fig. 2's A 150
/// and B 50 (which the offline linear program gives, with nothing idle).
#[test]
fn rho_0_packs_by_affinity() {
    let mut queue = example_1([1000, 1000]);
    let (round, ids) = whole_cluster_round(&mut queue, 0.0);
    assert_eq!(
        round,
        Round {
            started: 168,
            fairness: 0
        }
    );
    assert!(ids[..166].iter().all(|&id| id == 0));
    assert_eq!(ids[166..168], [1, 1]);
    assert_eq!(queue.user(0).unwrap().running, 166);
    assert_eq!(queue.user(1).unwrap().running, 2);
}

/// C1: when a user runs out, `φ` and `s_i^max = w_i / φ` are computed again over the users
/// still active, which the fairness branch's count shows. Example 1 at ρ = 0.5025, A with one
/// pending task. Over A and B (eq. 11, `φ = max_k (1/r_k) Σ_j (w_j/δ_j) d_jk`): A's `w/δ` is
/// `1/0.006`, B's `1/0.005`, so the loads are `<166.7 + 200, 1000 + 400>` over `<200, 1000>`
/// and `φ = 366.7/200 = 11/6`. Both start at 0:
/// A (lower id) is owed and takes its task, then has none pending. Over B alone, `φ = 200/200
/// = 1`, so B is owed while `0.005 · running < 0.5025 · 1`, for running 0 to 100: 101 tasks
/// from the fairness branch. After that the efficiency branch serves B, the only active user,
/// until the 199 CPUs A left are busy. Fairness: 1 + 101 = 102 of 200. With `φ` kept at 11/6,
/// B would be owed only while `0.005 · running < 0.5025 · 6/11 = 0.274`, for 55 tasks (56 of
/// 200 in all).
#[test]
fn a_user_running_out_recomputes_phi() {
    let mut queue = example_1([1, 1000]);
    let (round, ids) = whole_cluster_round(&mut queue, 0.5025);
    assert_eq!(
        round,
        Round {
            started: 200,
            fairness: 102
        }
    );
    assert_eq!(ids[0], 0);
    assert!(ids[1..200].iter().all(|&id| id == 1));
    assert_eq!(queue.user(0).unwrap().running, 1);
    assert_eq!(queue.user(0).unwrap().pending, 0);
    assert_eq!(queue.user(1).unwrap().running, 199);
    assert_eq!(queue.active(), 1);
}

/// Every rejected call leaves the queue as it was, and writes no id.
#[test]
fn rejected_rounds_change_nothing() {
    let mut queue = example_1([10, 10]);
    let before: Vec<_> = (0..2).map(|id| queue.user(id).unwrap()).collect();
    let machine = [200.0, 1000.0];
    let cases: [(f64, &[f64], &[f64], Error); 7] = [
        (f64::NAN, &machine, &machine, Error::NotFinite),
        (1.5, &machine, &machine, Error::OutOfRange),
        (-0.1, &machine, &machine, Error::OutOfRange),
        (0.5, &machine, &[201.0, 10.0], Error::OutOfRange),
        (0.5, &[0.0, 1000.0], &[0.0, 10.0], Error::NotPositive),
        (0.5, &machine, &[1.0, f64::INFINITY], Error::NotFinite),
        (0.5, &[200.0], &[200.0], Error::LengthMismatch),
    ];
    for (rho, machine, idle, error) in cases {
        let mut ids = [u64::MAX; 8];
        assert_eq!(
            queue.qknobler_round(rho, machine, idle, &mut ids),
            Err(error)
        );
        assert_eq!(ids, [u64::MAX; 8]);
        let after: Vec<_> = (0..2).map(|id| queue.user(id).unwrap()).collect();
        assert_eq!(after, before);
        assert_eq!(queue.next(), Some(0));
    }
}
