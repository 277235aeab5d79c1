//! Contenders measured side by side: the library and its baselines start from one warmed
//! state, take the same steps, and must give the same answer at every step.
//!
//! A benchmark that times a baseline from a cold start, or on a different history, measures
//! something else than the library's steady state (a sort's cost depends on how sorted its
//! input already is; a heap's on how its keys sit). So every contender of a group is built from
//! the same description, [`warm`]ed together step by step (an answer that differs panics), and
//! then timed one at a time, keeping its first answers ([`side_by_side`]). After the group,
//! [`assert_agree`] checks that every contender answered the same on the steps they
//! all took, so a timing can never belong to a baseline that decided differently.

use core::fmt::{Debug, Display};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId};
use std::hint::black_box;

/// One step of a workload, with the answer it gave (a job or user picked, say).
pub trait Contender {
    /// What one step decides.
    type Answer: Copy + PartialEq + Debug;

    /// Takes one step.
    fn step(&mut self) -> Self::Answer;
}

/// Takes `steps` steps on every contender in lock-step, panicking at the first step where one
/// answers differently from the first: they leave with the same history and state.
pub fn warm<A: Copy + PartialEq + Debug>(
    contenders: &mut [(&str, &mut dyn Contender<Answer = A>)],
    steps: usize,
) {
    for step in 0..steps {
        let mut first: Option<(&str, A)> = None;
        for (name, contender) in contenders.iter_mut() {
            let answer = contender.step();
            match first {
                None => first = Some((name, answer)),
                Some((reference, expected)) => assert_eq!(
                    answer, expected,
                    "warm-up step {step}: {name} answered differently from {reference}"
                ),
            }
        }
    }
}

/// Steps every contender of [`side_by_side`] takes together before any is timed.
pub const WARM_STEPS: usize = 1_000;
/// Answers [`side_by_side`] keeps per contender while timing it.
pub const RECORDED: usize = 100_000;
/// The fewest timed steps [`side_by_side`] accepts as backing a comparison.
pub const AGREED_AT_LEAST: usize = 100;

/// Benchmarks `contenders` side by side in `group` under `parameter`: [`warm`]s them together
/// for [`WARM_STEPS`] steps, times each one's step (its first [`RECORDED`] answers kept; the
/// keeping is timed for every contender alike), then checks with [`assert_agree`] that they
/// answered alike on the timed steps.
pub fn side_by_side<A: Copy + PartialEq + Debug>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    parameter: impl Display,
    contenders: &mut [(&str, &mut dyn Contender<Answer = A>)],
) {
    warm(contenders, WARM_STEPS);
    let mut recordings: Vec<(&str, Vec<A>)> = Vec::with_capacity(contenders.len());
    for (name, contender) in contenders.iter_mut() {
        let mut answers = Vec::with_capacity(RECORDED);
        group.bench_function(BenchmarkId::new(*name, &parameter), |b| {
            b.iter(|| {
                let answer = contender.step();
                if answers.len() < answers.capacity() {
                    answers.push(answer);
                }
                black_box(answer)
            })
        });
        recordings.push((name, answers));
    }
    let views: Vec<(&str, &[A])> = recordings.iter().map(|(n, a)| (*n, a.as_slice())).collect();
    assert_agree(&views, AGREED_AT_LEAST);
}

/// Panics unless every recording agrees with the first on the steps all of them took, and
/// they took at least `at_least` steps (a timing no answer backs is not a comparison).
/// Recordings without any answer are left out: their contender was not run (a benchmark
/// filter). Returns how many steps were compared (0 when fewer than two contenders ran).
pub fn assert_agree<A: PartialEq + Debug>(recordings: &[(&str, &[A])], at_least: usize) -> usize {
    let mut ran = recordings.iter().filter(|(_, r)| !r.is_empty());
    let Some(&(reference, expected)) = ran.next() else {
        return 0;
    };
    let others: Vec<_> = ran.collect();
    if others.is_empty() {
        return 0;
    }
    let common = others
        .iter()
        .map(|(_, r)| r.len())
        .fold(expected.len(), usize::min);
    assert!(
        common >= at_least,
        "only {common} steps recorded by every contender, {at_least} needed"
    );
    for (name, answers) in others {
        if let Some(step) = (0..common).find(|&s| answers[s] != expected[s]) {
            panic!(
                "measured step {step}: {name} answered {:?}, {reference} {:?}",
                answers[step], expected[step]
            );
        }
    }
    common
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts its steps, answering 0 at step `wrong_at`.
    struct Counter {
        next: u32,
        wrong_at: Option<u32>,
    }

    fn counter(wrong_at: Option<u32>) -> Counter {
        Counter { next: 0, wrong_at }
    }

    impl Contender for Counter {
        type Answer = u32;
        fn step(&mut self) -> u32 {
            self.next += 1;
            if Some(self.next) == self.wrong_at {
                0
            } else {
                self.next
            }
        }
    }

    #[test]
    fn warm_passes_agreeing_contenders_and_leaves_them_in_step() {
        let (mut a, mut b) = (counter(None), counter(None));
        warm(&mut [("a", &mut a), ("b", &mut b)], 10);
        assert_eq!((a.next, b.next), (10, 10));
    }

    #[test]
    #[should_panic(expected = "warm-up step 4: b answered differently from a")]
    fn warm_panics_at_the_first_disagreement() {
        let (mut a, mut b) = (counter(None), counter(Some(5)));
        warm(&mut [("a", &mut a), ("b", &mut b)], 10);
    }

    #[test]
    fn recordings_are_compared_on_their_common_steps() {
        let (a, b) = ([1, 2, 3], [1, 2, 3, 4, 0]);
        assert_eq!(assert_agree(&[("a", &a[..]), ("b", &b[..])], 3), 3);
    }

    #[test]
    #[should_panic(expected = "measured step 1: b answered 0, a 2")]
    fn a_recorded_disagreement_panics() {
        let (a, b) = ([1, 2, 3], [1, 0, 3]);
        assert_agree(&[("a", &a[..]), ("b", &b[..])], 3);
    }

    #[test]
    #[should_panic(expected = "only 2 steps recorded by every contender, 3 needed")]
    fn too_few_recorded_steps_panic() {
        let (a, b) = ([1, 2], [1, 2, 3, 4, 5]);
        assert_agree(&[("a", &a[..]), ("b", &b[..])], 3);
    }

    #[test]
    fn contenders_that_did_not_run_are_left_out() {
        let (a, idle, b) = ([1, 2, 3, 4], [], [1, 2, 3, 4, 5]);
        assert_eq!(
            assert_agree(&[("a", &a[..]), ("idle", &idle[..]), ("b", &b[..])], 3),
            4
        );
        assert_eq!(assert_agree(&[("idle", &idle[..]), ("a", &a[..])], 3), 0);
    }
}
