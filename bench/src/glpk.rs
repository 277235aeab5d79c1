//! GLPK, the GNU Linear Programming Kit (Debian's `libglpk-dev`), as the baseline for
//! QKnobler's efficiency linear program: the paper solves it with GLPK. The same program, read
//! through the same [`Program`] as the library's solver reads it, is built as a GLPK problem
//! and solved by `glp_simplex` with GLPK's default settings (primal simplex, projected
//! steepest edge, Harris' ratio test, no presolver), then freed: build + solve, as the
//! library's figure is. Only with the `glpk` feature, which links `-lglpk`.

use fairsched::lp::{Program, MAX_ROWS};
use std::os::raw::{c_double, c_int, c_void};

/// GLPK's problem object, opaque.
#[repr(C)]
struct GlpProb {
    _opaque: [u8; 0],
}

const GLP_MAX: c_int = 2;
const GLP_LO: c_int = 2;
const GLP_UP: c_int = 3;
const GLP_OPT: c_int = 5;
const GLP_OFF: c_int = 0;

#[link(name = "glpk")]
extern "C" {
    fn glp_create_prob() -> *mut GlpProb;
    fn glp_delete_prob(p: *mut GlpProb);
    fn glp_set_obj_dir(p: *mut GlpProb, dir: c_int);
    fn glp_add_rows(p: *mut GlpProb, count: c_int) -> c_int;
    fn glp_add_cols(p: *mut GlpProb, count: c_int) -> c_int;
    fn glp_set_row_bnds(p: *mut GlpProb, i: c_int, kind: c_int, lb: c_double, ub: c_double);
    fn glp_set_col_bnds(p: *mut GlpProb, j: c_int, kind: c_int, lb: c_double, ub: c_double);
    fn glp_set_obj_coef(p: *mut GlpProb, j: c_int, coef: c_double);
    fn glp_load_matrix(
        p: *mut GlpProb,
        count: c_int,
        ia: *const c_int,
        ja: *const c_int,
        ar: *const c_double,
    );
    fn glp_simplex(p: *mut GlpProb, parm: *const c_void) -> c_int;
    fn glp_get_status(p: *mut GlpProb) -> c_int;
    fn glp_get_obj_val(p: *mut GlpProb) -> c_double;
    fn glp_term_out(flag: c_int) -> c_int;
}

/// `max c·x, A x <= b, x >= 0` in GLPK's terms: the bounds, the costs, and `A`'s non-zero
/// entries as (row, column, value) triplets, 1-based with slot 0 unused as GLPK wants them.
/// This is the caller's data in GLPK's input format, made once; GLPK's own work (building its
/// problem, solving, freeing) is what [`GlpkProgram::solve`] does each time.
pub struct GlpkProgram {
    bounds: Vec<f64>,
    costs: Vec<f64>,
    ia: Vec<c_int>,
    ja: Vec<c_int>,
    ar: Vec<f64>,
}

impl GlpkProgram {
    /// `program`'s rows, bounds, columns and costs.
    pub fn new(program: &impl Program) -> Self {
        let rows = program.rows();
        let bounds = (0..rows).map(|k| program.bound(k)).collect();
        let (mut ia, mut ja, mut ar) = (vec![0], vec![0], vec![0.0]);
        let mut column = [0.0; MAX_ROWS];
        let costs = (0..program.columns())
            .map(|j| {
                let cost = program.column(j, &mut column);
                for (k, &a) in column.iter().enumerate().take(rows) {
                    if a != 0.0 {
                        ia.push(int(1 + k));
                        ja.push(int(1 + j));
                        ar.push(a);
                    }
                }
                cost
            })
            .collect();
        GlpkProgram {
            bounds,
            costs,
            ia,
            ja,
            ar,
        }
    }

    /// Builds the problem in GLPK, solves it and frees it: the optimal objective, or `None`
    /// when GLPK finds no optimum.
    pub fn solve(&self) -> Option<f64> {
        let entries = int(self.ar.len() - 1);
        // SAFETY: every pointer is GLPK's own problem or a live array of `entries + 1`
        // elements; rows and columns are numbered from 1 up to the counts added.
        unsafe {
            glp_term_out(GLP_OFF);
            let p = glp_create_prob();
            glp_set_obj_dir(p, GLP_MAX);
            glp_add_rows(p, int(self.bounds.len()));
            for (k, &b) in self.bounds.iter().enumerate() {
                glp_set_row_bnds(p, int(1 + k), GLP_UP, 0.0, b);
            }
            glp_add_cols(p, int(self.costs.len()));
            for (j, &c) in self.costs.iter().enumerate() {
                glp_set_col_bnds(p, int(1 + j), GLP_LO, 0.0, 0.0);
                glp_set_obj_coef(p, int(1 + j), c);
            }
            glp_load_matrix(
                p,
                entries,
                self.ia.as_ptr(),
                self.ja.as_ptr(),
                self.ar.as_ptr(),
            );
            let solved = glp_simplex(p, std::ptr::null()) == 0 && glp_get_status(p) == GLP_OPT;
            let objective = glp_get_obj_val(p);
            glp_delete_prob(p);
            solved.then_some(objective)
        }
    }
}

/// A count or a 1-based index as GLPK's `int`.
fn int(n: usize) -> c_int {
    c_int::try_from(n).expect("fits an int")
}
