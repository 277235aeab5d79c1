//! A naive HAI, written straight from the `hai` module's rules for tests and as the benchmarks' baseline:
//! a sort for the shortest-job-optimal start and, for every transfer, a linear scan of all
//! jobs for the donor and the acceptor (the paper's O(n) a transfer, §4.4). Same tie rules as
//! the library (lower index first), same arithmetic, so results must agree bit for bit. Takes
//! valid input only.

use fairsched::hai::Batch;

/// What a run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Allocation per job, in cores.
    pub cores: Vec<u32>,
    /// Predicted JCT per job.
    pub jct: Vec<f64>,
    /// Σ JCT before the first transfer.
    pub jct_sum_start: f64,
    /// Σ JCT at the end.
    pub jct_sum: f64,
    /// Transfers made.
    pub transfers: u32,
    /// The jobs in J1 (donors), by index.
    pub donors: Vec<bool>,
    /// The allocation in cores after each transfer, with [`Steps::Traced`] (empty otherwise).
    pub trace: Vec<Vec<u32>>,
}

/// Which steps a run makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steps {
    /// The shortest-job-optimal start (Algorithm 1) alone.
    Start,
    /// The start and the transfers (Algorithm 2).
    Transfers,
    /// As [`Steps::Transfers`], recording the allocation after each transfer.
    Traced,
}

/// Job `j`'s table, `JCT_j(0), JCT_j(θ), …, JCT_j(cap_j)`.
pub fn tables<'a>(batch: &Batch<'a>) -> Vec<&'a [f64]> {
    let mut rest = batch.jct;
    batch
        .caps
        .iter()
        .map(|&cap| {
            let (table, after) = rest.split_at((cap / batch.theta) as usize + 1);
            rest = after;
            table
        })
        .collect()
}

/// The first index of the least value.
pub fn optimum(table: &[f64]) -> usize {
    (0..table.len()).fold(0, |best, a| if table[a] < table[best] { a } else { best })
}

/// Runs `steps` from `current` (in cores), or from nothing.
pub fn run(batch: &Batch, current: Option<&[u32]>, steps_to_run: Steps) -> Outcome {
    let theta = batch.theta;
    let tables = tables(batch);
    let n = tables.len();
    let opt: Vec<usize> = tables.iter().map(|t| optimum(t)).collect();
    let mut steps: Vec<usize> = match current {
        Some(cores) => cores.iter().map(|&c| (c / theta) as usize).collect(),
        None => vec![0; n],
    };
    let held: Vec<bool> = steps.iter().map(|&s| s > 0).collect();

    // Algorithm 1 over the free steps: increasing D_j, ties to the lower index (a stable sort).
    let mut free = (batch.capacity - steps.iter().map(|&s| s as u32 * theta).sum::<u32>()) / theta;
    let mut order: Vec<usize> = (0..n).filter(|&j| steps[j] < opt[j]).collect();
    order.sort_by(|&a, &b| tables[a][opt[a]].total_cmp(&tables[b][opt[b]]));
    for j in order {
        let given = ((opt[j] - steps[j]) as u32).min(free);
        steps[j] += given as usize;
        free -= given;
    }

    // Summed in job order from +0, as the library does.
    let total = |steps: &[usize]| (0..n).fold(0.0, |sum, j| sum + tables[j][steps[j]]);
    let jct_sum_start = total(&steps);
    let donors: Vec<bool> = (0..n).map(|j| held[j] || steps[j] >= opt[j]).collect();
    let mut trace = Vec::new();
    let mut transfers = 0;
    if steps_to_run != Steps::Start {
        while let Some((d, a)) = pick(&tables, &steps, &donors) {
            steps[d] -= 1;
            steps[a] += 1;
            transfers += 1;
            if steps_to_run == Steps::Traced {
                trace.push(steps.iter().map(|&s| s as u32 * theta).collect());
            }
        }
    }

    Outcome {
        cores: steps.iter().map(|&s| s as u32 * theta).collect(),
        jct: (0..n).map(|j| tables[j][steps[j]]).collect(),
        jct_sum_start,
        jct_sum: total(&steps),
        transfers,
        donors,
        trace,
    }
}

/// The next transfer, if any: the donor with the least rise among J1 jobs that keep a step,
/// the acceptor with the largest fall among J2 jobs below their cap, when the fall exceeds the
/// rise. Strict comparisons in index order keep the lower index on ties.
fn pick(tables: &[&[f64]], steps: &[usize], donors: &[bool]) -> Option<(usize, usize)> {
    let mut donor: Option<(usize, f64)> = None;
    let mut acceptor: Option<(usize, f64)> = None;
    for (j, (&table, &a)) in tables.iter().zip(steps).enumerate() {
        if donors[j] && a >= 2 {
            let rise = table[a - 1] - table[a];
            if donor.is_none_or(|(_, least)| rise < least) {
                donor = Some((j, rise));
            }
        } else if !donors[j] && a + 1 < table.len() {
            let fall = table[a] - table[a + 1];
            if acceptor.is_none_or(|(_, most)| fall > most) {
                acceptor = Some((j, fall));
            }
        }
    }
    match (donor, acceptor) {
        (Some((d, rise)), Some((a, fall))) if fall > rise => Some((d, a)),
        _ => None,
    }
}
