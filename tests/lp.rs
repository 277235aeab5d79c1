//! The revised simplex of `fairsched::lp` on programs given as dense matrices, priced through the
//! trait's default `reduced_costs` (QKnobler overrides it): a hand-solved optimum, and every
//! refusal `maximize` documents.

use fairsched::lp::{self, Program, MAX_ROWS};
use fairsched::Error;

/// `max c·x, A x <= b, x >= 0`, with `A` row after row.
struct Dense<'a> {
    a: &'a [&'a [f64]],
    b: &'a [f64],
    c: &'a [f64],
}

impl Program for Dense<'_> {
    fn rows(&self) -> usize {
        self.b.len()
    }

    fn columns(&self) -> usize {
        self.c.len()
    }

    fn bound(&self, row: usize) -> f64 {
        self.b[row]
    }

    fn column(&self, j: usize, out: &mut [f64; MAX_ROWS]) -> f64 {
        for (slot, row) in out.iter_mut().zip(self.a) {
            *slot = row[j];
        }
        self.c[j]
    }
}

#[test]
fn a_hand_solved_program() {
    // max 3x + 2y with x + y <= 4, x + 3y <= 6, x <= 3: the feasible region's vertices are
    // (0, 0), (3, 0), (3, 1) and (0, 2), worth 0, 9, 11 and 4; at (3, 1) all three
    // constraints are tight (a degenerate vertex).
    let program = Dense {
        a: &[&[1.0, 1.0], &[1.0, 3.0], &[1.0, 0.0]],
        b: &[4.0, 6.0, 3.0],
        c: &[3.0, 2.0],
    };
    let solution = lp::maximize(&program).unwrap();
    assert_eq!(solution.objective, 11.0);
    let mut columns: Vec<(usize, f64)> = solution.positive_columns().collect();
    columns.sort_by_key(|&(j, _)| j);
    assert_eq!(columns, [(0, 3.0), (1, 1.0)]);
}

#[test]
fn a_program_whose_origin_is_optimal_makes_no_pivot() {
    let program = Dense {
        a: &[&[1.0, 2.0]],
        b: &[5.0],
        c: &[-1.0, 0.0],
    };
    let solution = lp::maximize(&program).unwrap();
    assert_eq!((solution.objective, solution.pivots), (0.0, 0));
    assert_eq!(solution.positive_columns().count(), 0);
}

#[test]
fn refusals() {
    let refused =
        |a: &[&[f64]], b: &[f64], c: &[f64]| lp::maximize(&Dense { a, b, c }).unwrap_err();
    assert_eq!(refused(&[], &[], &[1.0]), Error::Empty);
    let many = [1.0; MAX_ROWS + 1];
    let rows: Vec<&[f64]> = vec![&[1.0]; MAX_ROWS + 1];
    assert_eq!(refused(&rows, &many, &[1.0]), Error::CapacityFull);
    assert_eq!(refused(&[&[1.0]], &[-1.0], &[1.0]), Error::Negative);
    assert_eq!(refused(&[&[1.0]], &[f64::NAN], &[1.0]), Error::NotFinite);
    assert_eq!(
        refused(&[&[1.0]], &[f64::INFINITY], &[1.0]),
        Error::NotFinite
    );
    // A column that improves the objective and meets no constraint: unbounded.
    assert_eq!(
        refused(&[&[1.0, 0.0]], &[1.0], &[1.0, 1.0]),
        Error::OutOfRange
    );
}
