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
//!
//! Speed without changing a bit: the solver is instantiated per row count (`M` a constant, so
//! the loops over rows are unrolled and the basis inverse is `M × M`), and the pricing pass
//! asks the program for blocks of reduced costs, which a block-wide maximum then screens: only
//! a block holding an entry above the best so far is read entry by entry, in order, up to its
//! first entry at that maximum (or, under Bland's rule, above the best), so the choice is the
//! one a column-by-column scan makes (a block of a few columns is screened entry by entry up
//! to its first candidate and then scanned, a block whose pick is basic is scanned with its
//! basic variables struck out, and under Bland's rule the pass ends at the first candidate,
//! which nothing later replaces). A program whose columns repeat (QKnobler's users of one
//! demand row) is priced once per class of equal columns after the first passes (the `classes`
//! submodule). On the chain from one pivot to the next, data is read as wide as it was
//! written (a column comes from [`Program::sized_column`], a basic variable's cost is kept
//! twice): a read wider than the stores it reads cannot take their data until they retire,
//! which cost QKnobler's 4-row, 10-user program about a fifth of its time.

mod classes;

use crate::resources::MAX_KINDS;
use crate::{Error, Result};
use classes::Classes;

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

    /// Writes column `j` of `A` into `out` and returns its cost `c_j`, bit for bit as
    /// [`Program::column`] does: the solver's call, once a pivot. `M` is [`Program::rows`], a
    /// constant so that a program can size its loop by it: the entries are then computed, and
    /// written, a vector at a time, as the solver reads them (a read wider than the writes it
    /// reads cannot take its data from them before they retire, and this one is on the chain
    /// from one pivot to the next). The default goes through [`Program::column`].
    fn sized_column<const M: usize>(&self, j: usize, out: &mut [f64; M]) -> f64 {
        let mut column = [0.0; MAX_ROWS];
        let cost = self.column(j, &mut column);
        for (to, &a) in out.iter_mut().zip(&column) {
            *to = a;
        }
        cost
    }

    /// Writes the reduced costs `c_j - y·A_j` of the columns `first..first + out.len()` into
    /// `out` (never past the last column): the pricing pass, the solver's hot loop, asks for
    /// blocks of at most [`BLOCK`] columns in column order, so that both sides run loops the
    /// compiler vectorizes. `M` is [`Program::rows`], a constant so that a program can size its
    /// loops by it. The default goes through [`Program::column`]; a program that can fold the
    /// duals into its data should override it.
    fn reduced_costs<const M: usize>(&self, duals: &[f64; M], first: usize, out: &mut [f64]) {
        let mut column = [0.0; MAX_ROWS];
        for (j, r) in (first..self.columns()).zip(out) {
            let cost = self.column(j, &mut column);
            let price: f64 = duals.iter().zip(&column).map(|(y, a)| y * a).sum();
            *r = cost - price;
        }
    }

    /// Keys of the columns, `M` ([`Program::rows`]) values a column, column after column:
    /// columns whose keys are equal bit for bit must be the same column with the same cost,
    /// and get the same reduced cost bit for bit, so that the solver may price one of them
    /// for all ([`Program::reduced_costs_of`]). `None`, the default, for a program that does
    /// not compare its columns.
    fn patterns(&self) -> Option<&[f64]> {
        None
    }

    /// Writes into `out` the reduced costs of columns whose keys ([`Program::patterns`]) are
    /// `patterns`, `M` values each, bit for bit as [`Program::reduced_costs`] computes those
    /// columns' (the pricing pass over one column of each class of equal keys). Called only
    /// for a program that has keys, which must override it; the default writes nothing.
    fn reduced_costs_of<const M: usize>(
        &self,
        duals: &[f64; M],
        patterns: &[f64],
        out: &mut [f64],
    ) {
        let _ = (duals, patterns, out);
    }
}

/// Plain pricing passes before the solver looks for classes of equal columns ([`classes`]), by
/// rows. On QKnobler's benchmark program at 4 rows the search costs about 40 instructions a
/// column and a plain pass about 13.5; the pass that searches prices only the classes, so the
/// search is repaid two passes later, and it comes after the second. With fewer rows a pass
/// costs less (about 5, 8 and 11 instructions a column at 1, 2 and 3 rows) while the search
/// costs nearly as much, and such programs often end after one pivot a row: the search comes
/// only after that. A solve that ends sooner never pays for it.
const fn plain_passes(rows: usize) -> usize {
    if rows < 4 {
        rows.saturating_add(1)
    } else {
        2
    }
}

/// Programs of fewer columns are not searched for classes: a plain pass over them is cheap.
const CLASSES_FROM: usize = 2 * BLOCK;

/// The most columns one call of [`Program::reduced_costs`] prices.
pub const BLOCK: usize = 64;

/// Blocks of at most this many reduced costs are screened entry by entry, not by lane-wise
/// maxima ([`any_above`]), which cost more on so few.
const SHORT: usize = 16;

/// Lanes of [`lane_maxima`].
const LANES: usize = 4;

/// The entries of `reduced` folded into [`LANES`] lane-wise maxima, which the compiler
/// vectorizes, and the entries past the last whole chunk of lanes. (A NaN never exceeds
/// anything, and never wins a lane.) Inline, as the two below: the solver is instantiated in
/// its caller's crate, which would otherwise call them once a block.
#[inline]
fn lane_maxima(reduced: &[f64]) -> ([f64; LANES], &[f64]) {
    let mut lanes = [f64::NEG_INFINITY; LANES];
    let chunks = reduced.chunks_exact(LANES);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (lane, &r) in lanes.iter_mut().zip(chunk) {
            *lane = larger(*lane, r);
        }
    }
    (lanes, rest)
}

/// `r` if it exceeds `top`, else `top` (a NaN `r` never does).
#[inline]
fn larger(top: f64, r: f64) -> f64 {
    if r > top {
        r
    } else {
        top
    }
}

/// Whether some entry of `reduced` exceeds `floor`: the pricing pass skips a long block that
/// has no candidate without looking at its entries one by one.
#[inline]
fn any_above(reduced: &[f64], floor: f64) -> bool {
    let (lanes, rest) = lane_maxima(reduced);
    lanes.iter().chain(rest).any(|&r| r > floor)
}

/// The largest entry of `reduced` (minus infinity if none is a number): the reduced cost
/// Dantzig's rule takes from a long block that has a candidate. (Only for such a block: the
/// chain of comparisons that folds the lanes into one costs the screen more time than its
/// independent comparisons with the floor.)
#[inline]
fn largest(reduced: &[f64]) -> f64 {
    let (lanes, rest) = lane_maxima(reduced);
    let top = lanes
        .iter()
        .fold(f64::NEG_INFINITY, |top, &r| larger(top, r));
    rest.iter().fold(top, |top, &r| larger(top, r))
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
    // One solver per row count, so that every loop over the rows has a length the compiler
    // knows (unrolled, no bounds to carry); the arithmetic is the same for each.
    match program.rows() {
        0 => Err(Error::Empty),
        1 => solve::<P, 1>(program),
        2 => solve::<P, 2>(program),
        3 => solve::<P, 3>(program),
        4 => solve::<P, 4>(program),
        5 => solve::<P, 5>(program),
        6 => solve::<P, 6>(program),
        7 => solve::<P, 7>(program),
        8 => solve::<P, 8>(program),
        _ => Err(Error::CapacityFull),
    }
}

// `maximize` has one arm per row count up to this.
const _: () = assert!(MAX_ROWS == 8);

/// [`maximize`] for a program of `M` rows.
fn solve<P: Program, const M: usize>(program: &P) -> Result<Solution> {
    let n = program.columns();
    let mut tableau = Tableau::<M>::new(n);
    for (k, value) in tableau.values.iter_mut().enumerate() {
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
    let limit = n.saturating_add(M).saturating_mul(64).saturating_add(64);
    let mut bland = false;
    let mut reduced = [0.0; BLOCK];
    let mut classes = None;
    while tableau.pivots < limit {
        if n >= CLASSES_FROM && tableau.pivots == plain_passes(M) {
            classes = Classes::<M>::of(program);
        }
        let Some(entering) = tableau.entering(program, bland, &mut reduced, classes.as_ref())
        else {
            return Ok(tableau.solution());
        };
        let mut column = [0.0; M];
        let cost = if entering < n {
            program.sized_column(entering, &mut column)
        } else {
            if let Some(unit) = column.get_mut(entering.saturating_sub(n)) {
                *unit = 1.0;
            }
            0.0
        };
        let direction = tableau.direction(&column);
        let Some((leaving, step)) = tableau.leaving(&direction) else {
            return Err(Error::OutOfRange);
        };
        tableau.pivot(leaving, step, entering, cost, &direction);
        bland = step <= 0.0;
    }
    Ok(tableau.solution())
}

/// The state of the revised simplex method on `M` rows.
struct Tableau<const M: usize> {
    columns: usize,
    /// `B^-1`, row-major.
    inverse: [[f64; M]; M],
    basis: [usize; M],
    /// Costs of the basic variables, each twice: a pivot writes a cost in one 16-byte store,
    /// which the duals' two-lane broadcast of it reads whole (a read wider than the store that
    /// wrote it waits for the store to retire, on the chain from one pivot to the next).
    costs: [[f64; 2]; M],
    /// Values of the basic variables, `B^-1 b`.
    values: [f64; M],
    pivots: usize,
}

/// The variable chosen so far by a pricing pass and the reduced cost a later one must beat.
struct Choice {
    best: Option<usize>,
    floor: f64,
    bland: bool,
}

impl Choice {
    /// Takes `var`, whose reduced cost `r` beats the floor: under Dantzig's rule the floor
    /// rises to `r`, under Bland's nothing later can replace it.
    fn take(&mut self, var: usize, r: f64) {
        self.best = Some(var);
        self.floor = if self.bland { f64::INFINITY } else { r };
    }

    /// Whether `var`, with reduced cost `r`, replaces the choice when variables are offered
    /// out of column order: it must improve, and under Dantzig's rule beat the floor or tie it
    /// at a lower index, under Bland's rule come before the choice.
    fn wins(&self, var: usize, r: f64) -> bool {
        r > COST_TOLERANCE
            && match self.best {
                None => true,
                Some(best) if self.bland => var < best,
                Some(best) => r > self.floor || (r == self.floor && var < best),
            }
    }
}

impl<const M: usize> Tableau<M> {
    fn new(columns: usize) -> Self {
        // The all-slack basis, whose inverse is the identity.
        let inverse =
            core::array::from_fn(|k| core::array::from_fn(|i| f64::from(u8::from(i == k))));
        Tableau {
            columns,
            inverse,
            basis: core::array::from_fn(|k| columns.saturating_add(k)),
            costs: [[0.0; 2]; M],
            values: [0.0; M],
            pivots: 0,
        }
    }

    /// The variable to enter the basis; `None` at the optimum (`reduced` is room for a block of
    /// reduced costs). Dantzig's rule, or Bland's (lowest index first) when `bland`. The
    /// columns are priced in blocks, or once per class when `classes` are known.
    fn entering<P: Program>(
        &self,
        program: &P,
        bland: bool,
        reduced: &mut [f64; BLOCK],
        classes: Option<&Classes<M>>,
    ) -> Option<usize> {
        // Duals y = c_B B^-1, from the first row's products on (not from zeros: an addition
        // fewer on the chain from one pivot to the next; a dual then differs at most in the
        // sign of a zero, which changes no reduced cost but a zero one, and a zero never beats
        // the floor).
        let mut rows = self.costs.iter().zip(&self.inverse);
        let mut duals = match rows.next() {
            Some((&[cost, _], row)) => row.map(|inv| cost * inv),
            None => [0.0; M],
        };
        for (&[cost, _], row) in rows {
            for (y, &inv) in duals.iter_mut().zip(row) {
                *y += cost * inv;
            }
        }
        // The best improving variable: the first with the largest reduced cost, or under
        // Bland's rule the first; columns come before slacks. A candidate must beat the floor,
        // the best reduced cost so far (at least the tolerance; out of reach under Bland's
        // rule once one is found).
        let mut choice = Choice {
            best: None,
            floor: COST_TOLERANCE,
            bland,
        };
        if let Some(classes) = classes {
            classes.consider(program, &duals, &self.basis, reduced, &mut choice);
        } else {
            let mut first = 0;
            while first < self.columns {
                let block = reduced
                    .get_mut(..self.columns.saturating_sub(first).min(BLOCK))
                    .unwrap_or_default();
                program.reduced_costs(&duals, first, block);
                self.consider(first, block, &mut choice);
                if choice.floor == f64::INFINITY {
                    // Bland's rule took the first: no later column or slack can replace it.
                    return choice.best;
                }
                first = first.saturating_add(BLOCK);
            }
        }
        // A slack's reduced cost is `-y_k`.
        self.consider(self.columns, &mut duals.map(|y| -y), &mut choice);
        choice.best
    }

    /// Variables `first..` with reduced costs `reduced`, in order, for [`Tableau::entering`]:
    /// each that is not basic and beats the floor is taken. A block is first screened, a long
    /// one by lane-wise maxima ([`any_above`]), a short one entry by entry up to the first that
    /// beats the floor (the slacks have none in most passes, nor has any block in the last).
    /// A short block that passes is scanned ([`Tableau::scan`]), a long one left with its
    /// largest entry ([`largest`]) to [`Tableau::take_largest`].
    fn consider(&self, first: usize, reduced: &mut [f64], choice: &mut Choice) {
        if reduced.len() > SHORT {
            if any_above(reduced, choice.floor) {
                self.take_largest(first, reduced, largest(reduced), choice);
            }
        } else if reduced.iter().any(|&r| r > choice.floor) {
            self.scan(first, reduced, choice);
        }
    }

    /// [`Tableau::consider`] for a long block whose largest entry `top` beats the floor: the
    /// one a scan would take is the first equal to it under Dantzig's rule, the first above
    /// the floor under Bland's, unless that one is basic (its reduced cost is zero but for
    /// rounding, so that hardly happens; then the block is scanned). Out of line: inline, it
    /// costs the short blocks' passes more instructions than the call costs a long block.
    #[inline(never)]
    fn take_largest(&self, first: usize, reduced: &mut [f64], top: f64, choice: &mut Choice) {
        let floor = choice.floor;
        let mut entries = (first..).zip(reduced.iter());
        let found = if choice.bland {
            entries.find(|&(_, &r)| r > floor)
        } else {
            // The entries that reach the largest equal it: none exceeds it.
            entries.find(|&(_, &r)| r >= top)
        };
        match found.filter(|(var, _)| !self.basis.contains(var)) {
            Some((var, &r)) => choice.take(var, r),
            None => self.scan(first, reduced, choice),
        }
    }

    /// Variables `first..` with reduced costs `reduced`, in order: each that is not basic and
    /// beats the floor is taken. The block's basic variables are struck out first (their
    /// reduced costs set to minus infinity, which beats nothing), `M` stores instead of a
    /// search of the basis for every candidate.
    fn scan(&self, first: usize, reduced: &mut [f64], choice: &mut Choice) {
        for &var in &self.basis {
            if let Some(r) = var.checked_sub(first).and_then(|i| reduced.get_mut(i)) {
                *r = f64::NEG_INFINITY;
            }
        }
        for (var, &r) in (first..).zip(reduced.iter()) {
            if r > choice.floor {
                choice.take(var, r);
            }
        }
    }

    /// `B^-1 a`: how the basic variables change per unit of the entering one.
    fn direction(&self, column: &[f64; M]) -> [f64; M] {
        let mut direction = [0.0; M];
        for (d, row) in direction.iter_mut().zip(&self.inverse) {
            *d = row.iter().zip(column).map(|(i, a)| i * a).sum();
        }
        direction
    }

    /// The basis position that leaves and the step taken: the smallest ratio `value /
    /// direction` over positive directions, ties to the lowest variable index; `None` if the
    /// step is unbounded.
    fn leaving(&self, direction: &[f64; M]) -> Option<(usize, f64)> {
        // The ratios of every row, divided apart from the comparisons below so that they
        // vectorize; only those of the pivot rows are looked at (a row whose direction is at
        // most the tolerance is not one; a NaN is).
        let mut ratios = [0.0; M];
        for ((ratio, &value), &d) in ratios.iter_mut().zip(&self.values).zip(direction) {
            *ratio = value / d;
        }
        // The position, ratio and variable of the best row so far; position `M` for none.
        let (mut best, mut top, mut top_var) = (M, 0.0, 0);
        for (r, ((&d, &ratio), &var)) in direction.iter().zip(&ratios).zip(&self.basis).enumerate()
        {
            let passed_over = d <= PIVOT_TOLERANCE;
            let better = best == M || ratio < top || (ratio == top && var < top_var);
            if !passed_over && better {
                (best, top, top_var) = (r, ratio, var);
            }
        }
        (best < M).then_some((best, top))
    }

    /// Makes `entering` basic at position `leaving`, by `step` ([`Tableau::leaving`]'s ratio,
    /// the leaving value over the pivot, not divided again). Every row is updated as if it were
    /// not the pivot's (no branch per row, so the update vectorizes), then the pivot's row is
    /// overwritten; but for the values, whose leaving row takes the step in the same loop (a
    /// store of one value over those just written, which the next pivot reads back two at a
    /// time, would hold that read up until it retired).
    fn pivot(
        &mut self,
        leaving: usize,
        step: f64,
        entering: usize,
        cost: f64,
        direction: &[f64; M],
    ) {
        let pivot = direction.get(leaving).copied().unwrap_or(1.0);
        for (k, (value, &d)) in self.values.iter_mut().zip(direction).enumerate() {
            *value = if k == leaving {
                step
            } else {
                (*value - step * d).max(0.0)
            };
        }
        let pivot_row = self.inverse.get(leaving).copied().unwrap_or([0.0; M]);
        let pivot_row = pivot_row.map(|x| x / pivot);
        for (row, &d) in self.inverse.iter_mut().zip(direction) {
            for (x, &p) in row.iter_mut().zip(&pivot_row) {
                *x -= d * p;
            }
        }
        if let (Some(row), Some(var), Some(c)) = (
            self.inverse.get_mut(leaving),
            self.basis.get_mut(leaving),
            self.costs.get_mut(leaving),
        ) {
            *row = pivot_row;
            *var = entering;
            *c = [cost; 2];
        }
        self.pivots = self.pivots.saturating_add(1);
    }

    fn solution(&self) -> Solution {
        let objective = self
            .costs
            .iter()
            .zip(&self.values)
            .map(|([c, _], x)| c * x)
            .sum();
        let mut basis: [usize; MAX_ROWS] = core::array::from_fn(|k| self.columns.saturating_add(k));
        let mut values = [0.0; MAX_ROWS];
        for ((to, from), (value, &x)) in basis
            .iter_mut()
            .zip(&self.basis)
            .zip(values.iter_mut().zip(&self.values))
        {
            *to = *from;
            *value = x;
        }
        Solution {
            basis,
            values,
            rows: M,
            columns: self.columns,
            objective,
            pivots: self.pivots,
        }
    }
}
