//! Multi-resource machines packed by the core's DRF, QKnobler and Tetris alignment.

use fairsched_sim::machines::{compare_packers, makespan_bound, pack, User, PACKERS};
use fairsched_sim::synthetic::{qknobler_table_1, QKNOBLER_MACHINE, QKNOBLER_MACHINES};

fn user(demand: [f64; 2], tasks: &[f64]) -> User {
    User {
        weight: 1.0,
        demand: demand.to_vec(),
        tasks: tasks.to_vec(),
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
    for packer in PACKERS {
        let run = pack(&machines, &users, packer).unwrap();
        assert_eq!(run.makespan, 20.0, "{packer}");
        assert_eq!(run.completions, [20.0, 20.0], "{packer}");
        assert_eq!(run.utilization, [0.75, 0.75], "{packer}");
    }
    assert_eq!(makespan_bound(&machines, &users), 15.0);
}

/// A user whose task fits no machine would never finish: refused before anything runs.
#[test]
fn a_task_that_fits_no_machine_is_refused() {
    let machines = vec![vec![4.0, 4.0]];
    let users = [user([5.0, 1.0], &[1.0])];
    for packer in PACKERS {
        assert_eq!(
            pack(&machines, &users, packer),
            Err(fairsched::Error::OutOfRange)
        );
    }
}

/// The QKnobler paper's Table 1 workload (§7.2): every packer within the bound; moving the
/// knob from fairness (ρ = 1) to efficiency (ρ = 0) shortens the makespan, and Tetris'
/// packing beats DRF's, as in Fig. 6a and 7a.
#[test]
fn table_1_makespans() {
    let machines = vec![QKNOBLER_MACHINE.to_vec(); QKNOBLER_MACHINES];
    for seed in 1..=2 {
        let users = qknobler_table_1(seed);
        assert_eq!(users.len(), 100 + 14 + 6 + 2 + 2);
        let bound = makespan_bound(&machines, &users);
        let runs = compare_packers(&machines, &users, &PACKERS).unwrap();
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
        assert!(makespan("Tetris") < makespan("DRF"));
    }
}
