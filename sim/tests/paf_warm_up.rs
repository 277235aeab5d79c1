//! JVM warm-up in the slot cluster (PAF paper §V-B): a task reusing a slot its job's last
//! task ran on runs its run time over the job's δ, a job's task takes its warm slot first, and
//! the progress curves PAF is given follow the same rule.

use fairsched_sim::cluster::Run;
use fairsched_sim::metrics::alone;
use fairsched_sim::paf_dynamic::Profile;
use fairsched_sim::policy::PolicyKind;
use fairsched_sim::workload::{Job, Workload};

fn job(tasks: &[f64], warmup: f64) -> Job {
    Job {
        arrival: 0.0,
        weight: 1,
        tasks: tasks.to_vec(),
        warmup,
    }
}

fn fifo(jobs: Vec<Job>, slots: u32) -> Run {
    PolicyKind::Fifo.run(&Workload::new(jobs), slots).unwrap()
}

#[test]
fn warm_up_shortens_exactly_the_tasks_reusing_their_jobs_slot() {
    // One slot: A runs 4 cold, then 4 / 2 warm; B's first task follows A's, so it is cold
    // (3), its second warm (3 / 3).
    let run = fifo(vec![job(&[4.0, 4.0], 2.0), job(&[3.0, 3.0], 3.0)], 1);
    assert_eq!(run.completions, [6.0, 10.0]);
    // Busy all along: the slot-time saved is not counted as work.
    assert_eq!(run.utilization, 1.0);
    // Without warm-up the same jobs take their full run times.
    let cold = fifo(vec![job(&[4.0, 4.0], 1.0), job(&[3.0, 3.0], 1.0)], 1);
    assert_eq!(cold.completions, [8.0, 14.0]);
}

#[test]
fn a_job_starts_on_its_own_warm_slot_first() {
    // Two slots; at 2 both free: A's (A has nothing left, so cold) and B's (warm for B). B's
    // next task takes its warm slot (2 / 2 = 1) and its last the cold one (8): done at 10.
    // Had the cold slot come first, B would be done at 6.
    let run = fifo(vec![job(&[2.0], 1.0), job(&[2.0, 2.0, 8.0], 2.0)], 2);
    assert_eq!(run.completions, [2.0, 10.0]);
}

#[test]
fn profiles_follow_the_warm_up() {
    // Alone: on one slot 4 + 4 / 2 = 6, on two 4.
    let even = Profile::of(&job(&[4.0, 4.0], 2.0)).unwrap();
    assert_eq!(
        (even.shortest, even.curve),
        (4.0, vec![0.0, 4.0 / 6.0, 1.0])
    );
    // On one slot 1 + 10 / 8 = 2.25 beats 10 on two: fastest on fewer slots than tasks, and
    // the second slot adds nothing.
    let skewed = Profile::of(&job(&[1.0, 10.0], 8.0)).unwrap();
    assert_eq!(alone(&job(&[1.0, 10.0], 8.0), 2), Ok(10.0));
    assert_eq!((skewed.shortest, skewed.curve), (2.25, vec![0.0, 1.0, 1.0]));
}
