//! Multi-resource machines packed by the core's DRF, QKnobler and Tetris alignment.

use fairsched_sim::machines::{
    compare_packers, makespan_bound, pack, packers, phased_packers, Packer, Phase, User, KNOBS,
};
use fairsched_sim::synthetic::{
    qknobler_table_1, qknobler_table_1_phased, qknobler_table_1_submitted, QKNOBLER_MACHINE,
    QKNOBLER_MACHINES, TABLE_1_JOBS,
};

fn user(demand: [f64; 2], tasks: &[f64]) -> User {
    User {
        arrival: 0.0,
        weight: 1.0,
        demand: demand.to_vec(),
        tasks: tasks.to_vec(),
        then: None,
    }
}

/// One machine <4, 4>; user 0 runs two 10 s tasks of <2, 1>, user 1 two of <1, 2>. Every
/// packer starts one task of each at 0 (DRF: equal shares, lower id first, then user 0's
/// second task no longer fits; Tetris: equal alignment 0.75, then user 1's 0.5 beats user 0's
/// 0.4375) and the other two at 10.
#[test]
fn two_users_on_one_machine() {
    let machines = vec![vec![4.0, 4.0]];
    let users = [user([2.0, 1.0], &[10.0; 2]), user([1.0, 2.0], &[10.0; 2])];
    for packer in packers() {
        let run = pack(&machines, &users, packer).unwrap();
        assert_eq!(run.makespan, 20.0, "{packer}");
        assert_eq!(run.completions, [20.0, 20.0], "{packer}");
        assert_eq!(run.utilization, [0.75, 0.75], "{packer}");
        // Both users wait with one task running each until 10, then neither waits.
        assert_eq!(run.soft_fairness.max, 0.0, "{packer}");
    }
    assert_eq!(makespan_bound(&machines, &users), 15.0);
}

/// A user whose task fits no machine would never finish: refused before anything runs.
#[test]
fn a_task_that_fits_no_machine_is_refused() {
    let machines = vec![vec![4.0, 4.0]];
    let users = [user([5.0, 1.0], &[1.0])];
    for packer in packers() {
        assert_eq!(
            pack(&machines, &users, packer),
            Err(fairsched::Error::OutOfRange)
        );
    }
}

/// The QKnobler paper's Table 1 workload (§7.2): every packer within the bound; moving the
/// knob from fairness (ρ = 1) to efficiency (ρ = 0) shortens the makespan, and Tetris'
/// packing beats DRF's, as in Fig. 6a and 7a. At ρ = 0 every task goes through the efficiency
/// branch, whose affinity is Tetris' alignment score, so the two pack the same: equal makespans.
#[test]
fn table_1_makespans() {
    let machines = vec![QKNOBLER_MACHINE.to_vec(); QKNOBLER_MACHINES];
    for seed in 1..=2 {
        let users = qknobler_table_1(seed);
        assert_eq!(users.len(), 100 + 14 + 6 + 2 + 2);
        let bound = makespan_bound(&machines, &users);
        let runs = compare_packers(&machines, &users, &packers()).unwrap();
        let makespan = |name: &str| runs.iter().find(|s| s.packer == name).unwrap().makespan;
        eprintln!(
            "seed {seed}: bound {bound:.1}; {}",
            runs.iter()
                .map(|s| format!("{} {:.1}", s.packer, s.makespan))
                .collect::<Vec<_>>()
                .join(", ")
        );
        assert!(runs.iter().all(|s| s.makespan >= bound - 1e-9));
        assert!(makespan("QKnobler ρ=0") < makespan("QKnobler ρ=1"));
        assert!(makespan("QKnobler ρ=0") < makespan("DRF"));
        assert_eq!(makespan("QKnobler ρ=0"), makespan("Tetris"));
        assert!(makespan("Tetris") < makespan("DRF"));
    }
}

/// Arrivals over time, by hand. One machine <4, 4>; user 0 (<2, 2>, three 10 s tasks) at 0,
/// user 1 (<2, 2>, one 10 s task) at 5. User 0 starts two tasks at 0; at 5 nothing is free;
/// at 10, DRF gives the freed machine to user 1 (share 0 against 0.5 per task) and user 0's
/// third task: both finish at 20. While user 1 waits (5 to 10), user 0 holds the whole
/// machine and still waits too: a spread of 1 over 5 of the 20 s.
#[test]
fn users_arriving_over_time() {
    let machines = vec![vec![4.0, 4.0]];
    let mut late = user([2.0, 2.0], &[10.0]);
    late.arrival = 5.0;
    let users = [user([2.0, 2.0], &[10.0; 3]), late];
    let run = pack(&machines, &users, Packer::Drf).unwrap();
    assert_eq!(run.makespan, 20.0);
    assert_eq!(run.completions, [20.0, 20.0]);
    assert_eq!(run.soft_fairness.max, 1.0);
    assert_eq!(run.soft_fairness.mean, 0.25);
    let summaries = compare_packers(&machines, &users, &[Packer::Drf]).unwrap();
    // Completion is counted from each user's arrival: (20 + 15) / 2.
    assert_eq!(summaries[0].mean_completion, 17.5);
}

/// The QKnobler paper's sweep of ρ (Fig. 6 and 8) on the Table 1 workload, all at 0: Theorem
/// 1's θ (the core's) grows from 0 as ρ falls; pure efficiency (ρ = 0) gives the shortest
/// makespan (tied with Tetris) and the least fair run; DRF is the fairest of all, and QKnobler
/// at ρ = 1 is DRF (§5.2.1), run for run.
#[test]
fn sweeping_the_knob() {
    let machines = vec![QKNOBLER_MACHINE.to_vec(); QKNOBLER_MACHINES];
    for seed in 1..=2 {
        let users = qknobler_table_1(seed);
        let runs = compare_packers(&machines, &users, &packers()).unwrap();
        let run = |packer: Packer| {
            runs.iter()
                .find(|s| s.packer == packer.to_string())
                .unwrap()
        };
        let thetas: Vec<f64> = fairsched_sim::machines::KNOBS
            .iter()
            .map(|&rho| run(Packer::QKnobler(rho)).theta.unwrap())
            .collect();
        assert_eq!(thetas[0], 0.0);
        assert!(thetas.windows(2).all(|w| w[0] < w[1]), "{thetas:?}");
        let (fair, efficient) = (run(Packer::QKnobler(1.0)), run(Packer::QKnobler(0.0)));
        assert!(efficient.makespan < fair.makespan);
        assert!(runs.iter().all(|s| s.makespan >= efficient.makespan));
        assert!(efficient.soft_fairness.mean > fair.soft_fairness.mean);
        let drf = run(Packer::Drf);
        assert!(runs
            .iter()
            .all(|s| s.soft_fairness.mean >= drf.soft_fairness.mean));
        assert_eq!(fair.makespan, drf.makespan);
        assert_eq!(fair.mean_completion, drf.mean_completion);
        assert_eq!(fair.soft_fairness, drf.soft_fairness);
        assert_eq!(fair.utilization, drf.utilization);
    }
}

/// Submitted as the first 100 jobs of a SWIM Facebook day (the paper's source of submission
/// times), the workload runs under every packer, each user starting no earlier than it
/// arrives.
#[test]
fn table_1_submitted_over_time() {
    let mut submissions = [0.0; TABLE_1_JOBS];
    for (j, at) in submissions.iter_mut().enumerate() {
        *at = 100.0 + 15.0 * j as f64;
    }
    let users = qknobler_table_1_submitted(1, &submissions);
    assert_eq!(users.len(), qknobler_table_1(1).len());
    let arrivals: Vec<f64> = users.iter().map(|user| user.arrival).collect();
    assert_eq!(arrivals.iter().copied().fold(f64::INFINITY, f64::min), 0.0);
    assert_eq!(arrivals.iter().copied().fold(0.0, f64::max), 15.0 * 99.0);
    let machines = vec![QKNOBLER_MACHINE.to_vec(); QKNOBLER_MACHINES];
    for packer in packers() {
        let run = pack(&machines, &users, packer).unwrap();
        for (user, done) in users.iter().zip(&run.completions) {
            let shortest = user.tasks.iter().copied().fold(f64::INFINITY, f64::min);
            assert!(*done >= user.arrival + shortest, "{packer}");
        }
    }
}

/// QKnobler-C2 on users of one phase is QKnobler: the same run at every knob, where shares are
/// exact (two machines of <4, 8>, so the cluster's <8, 16> is a power of two in each kind, and
/// demands in halves): the estimated average demand of a user of one phase is its demand, and
/// Algorithm 1's decision on the users' allocated resources makes the queue's choices.
#[test]
fn one_phase_qknobler_c2_is_qknobler() {
    let machines = vec![vec![4.0, 8.0]; 2];
    let users = [
        user([1.0, 2.5], &[7.0, 3.0, 5.0, 9.0, 2.0, 4.0]),
        user([2.0, 0.5], &[6.0, 6.0, 1.0, 8.0]),
        user([0.5, 0.5], &[3.0; 9]),
        User {
            arrival: 4.0,
            weight: 2.0,
            ..user([1.5, 3.0], &[5.0, 2.0, 2.0, 6.0, 1.0])
        },
    ];
    for &rho in &KNOBS {
        let queue = pack(&machines, &users, Packer::QKnobler(rho)).unwrap();
        let c2 = pack(&machines, &users, Packer::QKnoblerC2(rho)).unwrap();
        assert_eq!(queue, c2, "ρ = {rho}");
    }
}

/// A job's reduce tasks start after all its maps have started, on what the maps leave: one
/// machine <4, 4>, a user with one map <4, 1> of 10 s then one reduce <1, 4> of 5 s. The map
/// takes <4, 1>, leaving <0, 3>: the reduce waits for it and runs from 10 s to 15 s.
#[test]
fn reduces_follow_maps() {
    let machines = vec![vec![4.0, 4.0]];
    let job = User {
        then: Some(Phase {
            demand: vec![1.0, 4.0],
            tasks: vec![5.0],
        }),
        ..user([4.0, 1.0], &[10.0])
    };
    for packer in phased_packers() {
        let run = pack(&machines, std::slice::from_ref(&job), packer).unwrap();
        assert_eq!(run.makespan, 15.0, "{packer}");
        // <4, 1> for 10 s and <1, 4> for 5 s over <4, 4> for 15 s.
        assert_eq!(run.utilization, [45.0 / 60.0, 30.0 / 60.0], "{packer}");
    }
    assert_eq!(
        makespan_bound(&machines, std::slice::from_ref(&job)),
        45.0 / 4.0
    );
    // The other packers assume one demand a user: they refuse it.
    for packer in packers() {
        assert!(
            pack(&machines, std::slice::from_ref(&job), packer).is_err(),
            "{packer}"
        );
    }
    // A reduce that fits no machine is refused too.
    let too_big = User {
        then: Some(Phase {
            demand: vec![5.0, 1.0],
            tasks: vec![1.0],
        }),
        ..job
    };
    assert!(pack(&machines, &[too_big], Packer::QKnoblerC2(0.5)).is_err());
}

/// The Table 1 jobs as one user each, maps then reduces: the same tasks as the stage-per-user
/// workload (the same work, so the same makespan bound), every task run by every knob of
/// QKnobler-C2, no makespan below the bound, and knobs below 1 trading soft fairness for
/// makespan as ρ = 1 (DRF) does not.
#[test]
fn table_1_in_two_phases() {
    let machines = vec![QKNOBLER_MACHINE.to_vec(); QKNOBLER_MACHINES];
    let stages = qknobler_table_1(1);
    let jobs = qknobler_table_1_phased(1, None);
    assert_eq!(jobs.len(), TABLE_1_JOBS);
    assert_eq!(jobs.iter().filter(|job| job.then.is_some()).count(), 24);
    let tasks = |users: &[User]| -> usize {
        users
            .iter()
            .map(|u| u.tasks.len() + u.then.as_ref().map_or(0, |p| p.tasks.len()))
            .sum()
    };
    assert_eq!(tasks(&jobs), tasks(&stages));
    let bound = makespan_bound(&machines, &jobs);
    assert!((bound - makespan_bound(&machines, &stages)).abs() < 1e-9 * bound);
    let summaries = compare_packers(&machines, &jobs, &phased_packers()).unwrap();
    for s in &summaries {
        assert!(
            s.makespan >= bound,
            "{}: {} below {bound}",
            s.packer,
            s.makespan
        );
        assert!(s.theta.is_none());
    }
    let drf = &summaries[0];
    let efficient = summaries.last().unwrap();
    assert_eq!(drf.packer, "QKnobler-C2 ρ=1");
    assert_eq!(efficient.packer, "QKnobler-C2 ρ=0");
    assert!(
        efficient.soft_fairness.mean > drf.soft_fairness.mean,
        "{efficient:?} against {drf:?}"
    );
}
