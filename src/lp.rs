//! A small exact linear-program solver, allocation-free: the revised simplex method for
//!
//! ```text
//! maximize c·x   subject to   A x <= b,  x >= 0,   with b >= 0
//! ```
//!
//! where `A` has few rows (at most [`MAX_ROWS`], one per resource kind) and any number of
//! columns, which the caller supplies on demand ([`Program`]): no matrix is stored, so memory
//! does not grow with the columns. The basis inverse is an explicit `m × m` matrix on the
//! stack; each pivot prices every column once (O(n m)) and updates the inverse (O(m²)).
//!
//! Starting from the all-slack basis (feasible because `b >= 0`), entering variables follow
//! Dantzig's rule (largest reduced cost), switching to Bland's rule (lowest index) after a
//! degenerate pivot until the objective moves again, so the method cannot cycle. Ties in the
//! ratio test go to the lowest variable index. Everything is deterministic.

use crate::resources::MAX_KINDS;
use crate::{Error, Result};

/// The most rows (constraints) a program may have.
pub const MAX_ROWS: usize = MAX_KINDS;

/// Reduced costs at most this are not improving.
const COST_TOLERANCE: f64 = 1e-12;
/// Column entries at most this are not pivots.
const PIVOT_TOLERANCE: f64 = 1e-9;

/// A linear program `max c·x, A x <= b, x >= 0` whose columns are computed on demand.
pub trait Program {
    /// `m`: the number of constraints, 1 to [`MAX_ROWS`].
    fn rows(&self) -> usize;
    /// `n`: the number of variables.
    fn columns(&self) -> usize;
    /// `b_k >= 0`, the right-hand side of constraint `k`.
    fn bound(&self, row: usize) -> f64;
    /// Writes column `j` of `A` into `out[..rows]` and returns its cost `c_j`.
    fn column(&self, j: usize, out: &mut [f64; MAX_ROWS]) -> f64;

    /// Calls `visit(j, c_j - y·A_j)` for every column `j`, in order: the pricing pass, the
    /// solver's hot loop. The default goes through [`Program::column`]; a program that can
    /// fold the duals into its data once per pass should override it.
    fn reduced_costs<F: FnMut(usize, f64)>(&self, duals: &[f64; MAX_ROWS], mut visit: F) {
        let mut column = [0.0; MAX_ROWS];
        for j in 0..self.columns() {
            let cost = self.column(j, &mut column);
            let price: f64 = duals
                .iter()
                .zip(&column)
                .take(self.rows())
                .map(|(y, a)| y * a)
                .sum();
            visit(j, cost - price);
        }
    }
}

/// An optimal basic solution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    /// Basic variables: `j < n` is column `j`, `n + k` the slack of constraint `k`.
    basis: [usize; MAX_ROWS],
    values: [f64; MAX_ROWS],
    rows: usize,
    columns: usize,
    /// `c·x` at the optimum.
    pub objective: f64,
    /// Pivots made.
    pub pivots: usize,
}

impl Solution {
    /// The columns with a positive value at the optimum, and their values. Every other column
    /// is zero.
    pub fn positive_columns(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.basis
            .iter()
            .zip(&self.values)
            .take(self.rows)
            .filter(|&(&var, &value)| var < self.columns && value > 0.0)
            .map(|(&var, &value)| (var, value))
    }
}

/// Solves `program` to optimality. [`Error::Empty`] without rows, [`Error::CapacityFull`] with
/// more than [`MAX_ROWS`], [`Error::Negative`] for a negative bound, [`Error::NotFinite`] for
/// a non-finite bound, [`Error::OutOfRange`] when the objective is unbounded.
pub fn maximize<P: Program>(program: &P) -> Result<Solution> {
    let m = program.rows();
    let n = program.columns();
    if m == 0 {
        return Err(Error::Empty);
    }
    if m > MAX_ROWS {
        return Err(Error::CapacityFull);
    }
    let mut tableau = Tableau::new(m, n);
    for (k, value) in tableau.values.iter_mut().enumerate().take(m) {
        let b = program.bound(k);
        if !b.is_finite() {
            return Err(Error::NotFinite);
        }
        if b < 0.0 {
            return Err(Error::Negative);
        }
        *value = b;
    }
    // Each pivot that is not degenerate strictly increases the objective and no basis repeats,
    // so the bound below is never reached on a program that terminates; it only guards against
    // pathological rounding.
    let limit = n.saturating_add(m).saturating_mul(64).saturating_add(64);
    let mut bland = false;
    let mut column = [0.0; MAX_ROWS];
    while tableau.pivots < limit {
        let Some((entering, cost)) = tableau.entering(program, bland, &mut column) else {
            return Ok(tableau.solution());
        };
        let direction = tableau.direction(&column);
        let Some(leaving) = tableau.leaving(&direction) else {
            return Err(Error::OutOfRange);
        };
        let step = tableau.pivot(leaving, entering, cost, &direction);
        bland = step <= 0.0;
    }
    Ok(tableau.solution())
}

/// The state of the revised simplex method.
struct Tableau {
    rows: usize,
    columns: usize,
    /// `B^-1`, row-major.
    inverse: [[f64; MAX_ROWS]; MAX_ROWS],
    basis: [usize; MAX_ROWS],
    /// Costs of the basic variables.
    costs: [f64; MAX_ROWS],
    /// Values of the basic variables, `B^-1 b`.
    values: [f64; MAX_ROWS],
    pivots: usize,
}

impl Tableau {
    fn new(rows: usize, columns: usize) -> Self {
        let mut inverse = [[0.0; MAX_ROWS]; MAX_ROWS];
        let mut basis = [0; MAX_ROWS];
        for (k, (row, var)) in inverse.iter_mut().zip(basis.iter_mut()).enumerate() {
            if let Some(diagonal) = row.get_mut(k) {
                *diagonal = 1.0;
            }
            *var = columns.saturating_add(k);
        }
        Tableau {
            rows,
            columns,
            inverse,
            basis,
            costs: [0.0; MAX_ROWS],
            values: [0.0; MAX_ROWS],
            pivots: 0,
        }
    }

    fn is_basic(&self, var: usize) -> bool {
        self.basis.iter().take(self.rows).any(|&b| b == var)
    }

    /// The variable to enter the basis and its cost, with its column in `column`; `None` at
    /// the optimum. Dantzig's rule, or Bland's (lowest index first) when `bland`.
    fn entering<P: Program>(
        &self,
        program: &P,
        bland: bool,
        column: &mut [f64; MAX_ROWS],
    ) -> Option<(usize, f64)> {
        // Duals y = c_B B^-1.
        let mut duals = [0.0; MAX_ROWS];
        for (r, &cost) in self.costs.iter().enumerate().take(self.rows) {
            for (y, &inv) in duals.iter_mut().zip(self.inverse.get(r)?).take(self.rows) {
                *y += cost * inv;
            }
        }
        // The best improving variable: the largest reduced cost, or under Bland's rule the
        // first; columns come before slacks.
        let mut best: Option<(usize, f64)> = None;
        let mut consider = |var: usize, reduced: f64| {
            let improves = reduced > COST_TOLERANCE;
            let wanted = match best {
                None => improves,
                Some((_, top)) => improves && !bland && reduced > top,
            };
            if wanted && !self.is_basic(var) {
                best = Some((var, reduced));
            }
        };
        program.reduced_costs(&duals, &mut consider);
        for (k, &y) in duals.iter().enumerate().take(self.rows) {
            consider(self.columns.saturating_add(k), -y);
        }
        let (var, _) = best?;
        let cost = if var < self.columns {
            program.column(var, column)
        } else {
            *column = [0.0; MAX_ROWS];
            if let Some(unit) = column.get_mut(var.saturating_sub(self.columns)) {
                *unit = 1.0;
            }
            0.0
        };
        Some((var, cost))
    }

    /// `B^-1 a`: how the basic variables change per unit of the entering one.
    fn direction(&self, column: &[f64; MAX_ROWS]) -> [f64; MAX_ROWS] {
        let mut direction = [0.0; MAX_ROWS];
        for (d, row) in direction.iter_mut().zip(&self.inverse).take(self.rows) {
            *d = row
                .iter()
                .zip(column)
                .take(self.rows)
                .map(|(i, a)| i * a)
                .sum();
        }
        direction
    }

    /// The basis position that leaves: the smallest ratio `value / direction` over positive
    /// directions, ties to the lowest variable index; `None` if the step is unbounded.
    fn leaving(&self, direction: &[f64; MAX_ROWS]) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for r in 0..self.rows {
            let d = direction.get(r).copied().unwrap_or(0.0);
            if d <= PIVOT_TOLERANCE {
                continue;
            }
            let ratio = self.values.get(r).copied().unwrap_or(0.0) / d;
            let better = match best {
                None => true,
                Some((at, top)) => {
                    ratio < top || (ratio == top && self.basis.get(r) < self.basis.get(at))
                }
            };
            if better {
                best = Some((r, ratio));
            }
        }
        best.map(|(r, _)| r)
    }

    /// Makes `entering` basic at position `leaving`; returns the step taken.
    fn pivot(
        &mut self,
        leaving: usize,
        entering: usize,
        cost: f64,
        direction: &[f64; MAX_ROWS],
    ) -> f64 {
        let pivot = direction.get(leaving).copied().unwrap_or(1.0);
        let step = self.values.get(leaving).copied().unwrap_or(0.0) / pivot;
        for (r, (value, &d)) in self.values.iter_mut().zip(direction).enumerate() {
            *value = if r == leaving {
                step
            } else {
                (*value - step * d).max(0.0)
            };
        }
        let pivot_row = self.inverse.get(leaving).copied().unwrap_or_default();
        let pivot_row = pivot_row.map(|x| x / pivot);
        for (r, (row, &d)) in self.inverse.iter_mut().zip(direction).enumerate() {
            if r == leaving {
                *row = pivot_row;
            } else {
                for (x, &p) in row.iter_mut().zip(&pivot_row) {
                    *x -= d * p;
                }
            }
        }
        if let Some(var) = self.basis.get_mut(leaving) {
            *var = entering;
        }
        if let Some(c) = self.costs.get_mut(leaving) {
            *c = cost;
        }
        self.pivots = self.pivots.saturating_add(1);
        step
    }

    fn solution(&self) -> Solution {
        let objective = self
            .costs
            .iter()
            .zip(&self.values)
            .take(self.rows)
            .map(|(c, x)| c * x)
            .sum();
        Solution {
            basis: self.basis,
            values: self.values,
            rows: self.rows,
            columns: self.columns,
            objective,
            pivots: self.pivots,
        }
    }
}
