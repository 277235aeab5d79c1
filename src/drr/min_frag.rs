//! MinFrag (§III-B2, Algorithm 1) on one heartbeat of one machine: best fit decreasing with
//! executors sized by the DRR they would leave.

use super::machine::{check_pending, Machine};
use super::remaining::{per_kinds, PerKinds};
use super::rounds::{Rounds, FEW, KEPT, SHORT};
use super::series::{Executors, MAX_EXECUTORS, MAX_STEPS};
use super::Metric;
use crate::resources::Resources;
use crate::{Error, Result};

/// What one heartbeat did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heartbeat {
    /// Executors placed; their indices are the first `placed` entries of the placements.
    pub placed: usize,
    /// The machine's `t_run` afterwards: the earliest finish, placed executors included.
    pub t_run: u32,
    /// `θ(j)` afterwards.
    pub drr: f64,
}

/// One heartbeat of machine `j` (Algorithm 1): among the `pending` executors that fit, place
/// the one with the best score under `metric` (for DRR the smallest `θ(i, j)`; ties: lower
/// index), subtract its series from `available`, set `t_run = min(t_run, T_i)`, and repeat
/// until none fits.
///
/// The machine is `capacity`, `available` and `t_run` as in [`Machine::new`]. Writes the
/// placed executors' indices, in order, to the front of `placements` (at least as long as
/// `pending`, [`Error::LengthMismatch`] otherwise) and leaves the machine's updated series in
/// `available`. Every executor must have the machine's kinds ([`Error::LengthMismatch`]) and
/// run at most its horizon ([`Error::OutOfRange`]). Nothing is written on error.
///
/// An executor that does not fit is never tried again in the same heartbeat: placements only
/// take from `available`. Under DRR and TRC, a round reads most candidates' demand up to `t*`
/// only to bound their score from below, and skips those whose bound is above the best score
/// found so far in the round; the others get the exact pass (fit test and score). Under
/// Tetris every candidate gets it, after the first round only over the steps up to `t*` or to
/// the end of the executor placed last, whichever is later: the steps after that did not
/// change, and the candidate fitted them.
pub fn min_frag(
    capacity: &[f64],
    available: &mut [f64],
    t_run: u32,
    pending: &Executors<'_>,
    metric: Metric,
    placements: &mut [u32],
) -> Result<Heartbeat> {
    let machine = Machine::new(capacity, available, t_run)?;
    check_pending(machine.capacity().kinds(), machine.steps(), pending)?;
    if placements.len() < pending.len() {
        return Err(Error::LengthMismatch);
    }
    let capacity = *machine.capacity();
    let (placed, t_run) = place(
        &capacity,
        available,
        machine.t_run(),
        pending,
        None,
        metric,
        placements,
    );
    Ok(Heartbeat {
        placed,
        t_run: u32::try_from(t_run).unwrap_or(u32::MAX),
        drr: Machine::trusted(capacity, available, t_run).drr(),
    })
}

/// Algorithm 1's loop over inputs already checked (`available` valid for `capacity`, `t_run`
/// within its horizon, every executor of its kinds and within it): places executors until
/// none fits or `placements` is full, writing their indices to the front of `placements` and
/// taking their series from `available`. With `counts`, one per executor, executor `i`
/// stands for `counts[i]` identical executors (an application's, §III-B1's `N_i`): it stays
/// a candidate until placed that many times, and one of 0 is none. Returns how many were
/// placed and `t_run` afterwards.
///
/// Copies score alike and ties go to the lower index, so this is the loop over the expanded
/// list (every copy after the one before it), scoring one copy a round instead of each.
pub(crate) fn place(
    capacity: &Resources,
    available: &mut [f64],
    t_run: usize,
    pending: &Executors<'_>,
    counts: Option<&[u32]>,
    metric: Metric,
    placements: &mut [u32],
) -> (usize, usize) {
    per_kinds(
        capacity.kinds(),
        Place {
            capacity,
            available,
            t_run,
            pending,
            counts,
            metric,
            placements,
        },
    )
}

/// [`place`]'s loop, compiled for the machine's kinds once for the whole heartbeat, since its
/// rounds keep sums of that many amounts ([`Rounds`]).
struct Place<'a, 'p> {
    capacity: &'a Resources,
    available: &'a mut [f64],
    t_run: usize,
    pending: &'a Executors<'p>,
    counts: Option<&'a [u32]>,
    metric: Metric,
    placements: &'a mut [u32],
}

impl PerKinds for Place<'_, '_> {
    type Output = (usize, usize);

    fn run<const K: usize>(self) -> (usize, usize) {
        if self.pending.len() <= FEW && self.t_run <= SHORT {
            self.rounds::<K, FEW, { SHORT + 1 }>()
        } else {
            self.rounds::<K, KEPT, { MAX_STEPS + 1 }>()
        }
    }
}

impl Place<'_, '_> {
    /// The loop, with [`Rounds`] keeping sums for `KEPT` candidates and `AR`'s prefix sums up
    /// to `STEPS - 1` steps: room for all of a heartbeat of at most [`FEW`] candidates whose
    /// `t_run` is at most [`SHORT`] steps, so that its rounds start from that much less zeroed
    /// memory (6 KB instead of 17 KB at 4 kinds), and for any heartbeat otherwise.
    fn rounds<const K: usize, const KEPT: usize, const STEPS: usize>(self) -> (usize, usize) {
        let Place {
            capacity,
            available,
            mut t_run,
            pending,
            counts,
            metric,
            placements,
        } = self;
        let count = |i: usize| counts.map_or(1, |counts| counts.get(i).copied().unwrap_or(0));
        let mut open = Open::all(pending.len());
        for i in 0..pending.len() {
            if count(i) == 0 {
                open.close(i);
            }
        }
        let mut rounds = Rounds::<K, KEPT, STEPS>::new(capacity, metric);
        let mut placed = 0;
        while placed < placements.len() {
            let mut misfits = Open::none();
            let candidates = pending.iter().enumerate().filter(|&(i, _)| open.has(i));
            let best = rounds.choose(available, t_run, candidates, |i| misfits.open(i));
            open.close_all(&misfits);
            let Some((chosen, executor)) = best else {
                break;
            };
            for (have, &need) in available.iter_mut().zip(executor.demand()) {
                *have -= need;
            }
            t_run = t_run.min(executor.steps());
            let chosen = u32::try_from(chosen).unwrap_or(u32::MAX);
            // Copies placed before this one (only counted when there can be any).
            let copies = counts.map_or(0, |_| {
                let before = placements.get(..placed).unwrap_or_default();
                before.iter().filter(|&&i| i == chosen).count()
            });
            if copies.saturating_add(1) >= count(chosen as usize) as usize {
                open.close(chosen as usize);
            }
            if let Some(slot) = placements.get_mut(placed) {
                *slot = chosen;
            }
            placed = placed.saturating_add(1);
        }
        (placed, t_run)
    }
}

/// The executors still worth trying this heartbeat: a bit set on the stack.
struct Open([u64; MAX_EXECUTORS / 64]);

impl Open {
    fn none() -> Open {
        Open([0; MAX_EXECUTORS / 64])
    }

    fn all(n: usize) -> Open {
        let mut open = Open::none();
        for i in 0..n {
            open.open(i);
        }
        open
    }

    fn has(&self, i: usize) -> bool {
        self.0
            .get(i / 64)
            .is_some_and(|word| word >> (i % 64) & 1 == 1)
    }

    fn open(&mut self, i: usize) {
        if let Some(word) = self.0.get_mut(i / 64) {
            *word |= 1 << (i % 64);
        }
    }

    /// Closes every executor open in `other`.
    fn close_all(&mut self, other: &Open) {
        for (word, &other) in self.0.iter_mut().zip(&other.0) {
            *word &= !other;
        }
    }

    fn close(&mut self, i: usize) {
        if let Some(word) = self.0.get_mut(i / 64) {
            *word &= !(1 << (i % 64));
        }
    }
}
