//! HAI on the paper's micro-benchmark (§4.2, Fig. 3) and on small batches worked out by hand,
//! exactly: Algorithm 1's order, ties and rounding; Algorithm 2's choices; what a rebalance
//! keeps when a job arrives or leaves. Errors and edges shared with Java and Go are in
//! tests/vectors/hai.json.

use fairsched::hai::{Batch, Hai, Inline, Summary};
use fairsched::Error;

/// A batch's tables, built from one table per job.
struct Jobs {
    caps: Vec<u32>,
    jct: Vec<f64>,
}

impl Jobs {
    fn new(theta: u32, tables: &[&[f64]]) -> Jobs {
        Jobs {
            caps: tables
                .iter()
                .map(|t| (t.len() as u32 - 1) * theta)
                .collect(),
            jct: tables.concat(),
        }
    }

    fn batch(&self, capacity: u32, theta: u32) -> Batch<'_> {
        Batch {
            capacity,
            theta,
            caps: &self.caps,
            jct: &self.jct,
        }
    }
}

/// What a call wrote.
#[derive(Debug, PartialEq)]
struct Written {
    cores: Vec<u32>,
    jct: Vec<f64>,
    summary: Summary,
}

type Entry = fn(&mut Hai<Inline<8>>, &Batch, &mut [u32], &mut [f64]) -> fairsched::Result<Summary>;

fn run(entry: Entry, batch: &Batch, current: &[u32]) -> Written {
    let mut cores = current.to_vec();
    let mut jct = vec![f64::NAN; current.len()];
    let summary = entry(&mut Hai::new().unwrap(), batch, &mut cores, &mut jct).unwrap();
    Written {
        cores,
        jct,
        summary,
    }
}

fn start(batch: &Batch) -> Written {
    run(Hai::shortest_job_optimal, batch, &vec![0; batch.caps.len()])
}

fn allocate(batch: &Batch) -> Written {
    run(Hai::allocate, batch, &vec![0; batch.caps.len()])
}

fn rebalance(batch: &Batch, current: &[u32]) -> Written {
    run(Hai::rebalance, batch, current)
}

/// The PageRank job of §4.2: its JCT falls to an optimum at 40 cores, then rises with the
/// overheads (`1600 / a + a`), and it waits without cores.
fn pagerank() -> Vec<f64> {
    (0..=60)
        .map(|a| match a {
            0 => f64::INFINITY,
            a => 1600.0 / f64::from(a) + f64::from(a),
        })
        .collect()
}

/// §4.2, Fig. 3: four identical jobs whose optimum is 40 cores, on 120 cores, θ = 1. The
/// shortest-job-optimal start gives three jobs 40 cores and leaves the fourth waiting; HAI
/// under-allocates them all to 30 and starts all four.
#[test]
fn micro_benchmark_four_pagerank_jobs() {
    let table = pagerank();
    let jobs = Jobs::new(1, &[&table, &table, &table, &table]);
    let batch = jobs.batch(120, 1);

    let sjo = start(&batch);
    assert_eq!(sjo.cores, [40, 40, 40, 0]);
    assert_eq!(sjo.jct, [80.0, 80.0, 80.0, f64::INFINITY]);
    assert_eq!(sjo.summary.jct_sum, f64::INFINITY);

    let hai = allocate(&batch);
    assert_eq!(hai.cores, [30, 30, 30, 30]);
    assert_eq!(hai.jct, [1600.0 / 30.0 + 30.0; 4]);
    assert_eq!(
        hai.summary,
        Summary {
            jct_sum_start: f64::INFINITY,
            jct_sum: 4.0 * (1600.0 / 30.0 + 30.0),
            transfers: 30,
        }
    );
}

/// Algorithm 1: increasing D_j; each job that fits gets A_opt_j (the smallest allocation
/// with the least JCT); the first that does not fit gets the rest rounded down to a multiple
/// of θ. Then one transfer: the donor with the least rise gives to the only acceptor while
/// its fall is larger.
#[test]
fn start_then_one_transfer() {
    let inf = f64::INFINITY;
    let jobs = Jobs::new(
        10,
        &[
            &[inf, 50.0, 30.0, 20.0, 25.0],       // A_opt 30, D 20
            &[inf, 12.0, 10.0, 11.0],             // A_opt 20, D 10
            &[inf, 90.0, 60.0, 45.0, 40.0, 38.0], // A_opt 50, D 38
            &[inf, 15.0, 15.0],                   // A_opt 10 (a tie: the smaller), D 15
        ],
    );
    // Order 1, 3, 0, 2: 95 cores give 20, 10, 30, then 35 rounded down to 30 for job 2.
    let batch = jobs.batch(95, 10);
    let sjo = start(&batch);
    assert_eq!(sjo.cores, [30, 20, 30, 10]);
    assert_eq!(sjo.jct, [20.0, 10.0, 45.0, 15.0]);

    // Donors: job 0 (rise 10) and job 1 (rise 2); job 3 keeps its only step. Acceptor: job 2
    // (fall 5 > 2): job 1 gives. Then job 2's fall is 2, below job 0's rise of 10.
    let hai = allocate(&batch);
    assert_eq!(hai.cores, [30, 10, 40, 10]);
    assert_eq!(hai.jct, [20.0, 12.0, 40.0, 15.0]);
    assert_eq!(
        hai.summary,
        Summary {
            jct_sum_start: 90.0,
            jct_sum: 87.0,
            transfers: 1,
        }
    );
}

/// Equal D_j: the lower index is served first, which decides what the start gives.
#[test]
fn equal_best_jct_goes_to_the_lower_index() {
    let inf = f64::INFINITY;
    let jobs = Jobs::new(1, &[&[inf, 9.0, 6.0, 4.0], &[inf, 8.0, 4.0, 5.0]]);
    let batch = jobs.batch(4, 1);
    assert_eq!(start(&batch).cores, [3, 1]);
    let hai = allocate(&batch);
    assert_eq!(hai.cores, [2, 2]);
    assert_eq!(hai.summary.transfers, 1);
    // Capacity that fits both optima: nobody is in J2, nothing moves.
    let fits = jobs.batch(5, 1);
    assert_eq!(allocate(&fits).cores, [3, 2]);
    assert_eq!(allocate(&fits).summary.transfers, 0);
}

/// A job arriving at a balanced cluster takes cores from the running jobs while that lowers
/// Σ JCT; running jobs only give. Here it reaches what a full re-plan reaches, in half the
/// transfers.
#[test]
fn arrival_takes_from_running_jobs() {
    let table = pagerank();
    let jobs = Jobs::new(1, &[&table, &table, &table, &table, &table]);
    let batch = jobs.batch(120, 1);
    let arrived = rebalance(&batch, &[30, 30, 30, 30, 0]);
    assert_eq!(arrived.cores, [24; 5]);
    assert_eq!(arrived.summary.transfers, 24);
    let replanned = allocate(&batch);
    assert_eq!(replanned.cores, arrived.cores);
    assert_eq!(replanned.summary.transfers, 48);
}

/// The cores a departing job frees go to the jobs below their optimum, by increasing D_j
/// (ties: lower index), each up to its optimum.
#[test]
fn departure_frees_cores_for_the_others() {
    let table = pagerank();
    let jobs = Jobs::new(1, &[&table, &table, &table]);
    let left = rebalance(&jobs.batch(120, 1), &[30, 30, 30]);
    assert_eq!(left.cores, [40, 40, 40]);
    assert_eq!(left.summary.transfers, 0);
    assert_eq!(left.summary.jct_sum, 240.0);
    // Not enough for all: the first two reach their optimum, the third gets the rest.
    let tight = rebalance(&jobs.batch(100, 1), &[30, 30, 30]);
    assert_eq!(tight.cores, [40, 30, 30]);
}

/// Cores never move between running jobs: a running job below its optimum waits for free
/// cores, where a full re-plan would take them from the others.
#[test]
fn rebalance_moves_nothing_between_running_jobs() {
    let table = pagerank();
    let jobs = Jobs::new(1, &[&table, &table]);
    let batch = jobs.batch(50, 1);
    let kept = rebalance(&batch, &[40, 10]);
    assert_eq!(kept.cores, [40, 10]);
    assert_eq!(kept.summary.transfers, 0);
    assert_eq!(allocate(&batch).cores, [25, 25]);
}

/// A job's table may say it finishes without cores (a finite JCT at 0), and may reach its
/// least JCT there: it is then served, with nothing, and has nothing to give.
#[test]
fn finite_jct_without_cores() {
    let jobs = Jobs::new(1, &[&[5.0, 9.0, 7.0], &[f64::INFINITY, 4.0, 3.0]]);
    let hai = allocate(&jobs.batch(2, 1));
    assert_eq!(hai.cores, [0, 2]);
    assert_eq!(hai.summary.jct_sum, 8.0);
}

/// A rejected call writes nothing; the checks come in their documented order.
#[test]
fn rejected_calls_write_nothing() {
    let inf = f64::INFINITY;
    let jobs = Jobs::new(1, &[&[inf, 2.0, 1.0], &[inf, 3.0]]);
    let (caps, jct) = (&jobs.caps[..], &jobs.jct[..]);
    let nan_in_first = [inf, f64::NAN, 1.0, inf, 3.0];
    let cases: [(Batch, &[u32], usize, Error); 6] = [
        (jobs.batch(3, 1), &[0, 0, 0], 2, Error::LengthMismatch),
        (jobs.batch(3, 0), &[0, 0], 2, Error::NotPositive),
        (jobs.batch(3, 1), &[2, 2], 2, Error::OutOfRange),
        (
            Batch {
                jct: &nan_in_first,
                caps: &[2, 0],
                ..jobs.batch(3, 1)
            },
            &[0, 0],
            2,
            Error::NotFinite,
        ),
        (
            Batch {
                jct: &jct[..4],
                ..jobs.batch(3, 1)
            },
            &[0, 0],
            2,
            Error::LengthMismatch,
        ),
        (
            Batch {
                caps: &caps[..1],
                ..jobs.batch(3, 1)
            },
            &[0],
            1,
            Error::LengthMismatch,
        ),
    ];
    for (batch, current, outputs, error) in cases {
        let mut hai = Hai::<Inline<2>>::new().unwrap();
        let mut cores = current.to_vec();
        let mut written = vec![-1.0; outputs];
        assert_eq!(hai.rebalance(&batch, &mut cores, &mut written), Err(error));
        assert_eq!(
            (&cores[..], &written[..]),
            (current, &vec![-1.0; outputs][..])
        );
    }
    // More jobs than the workspace holds.
    let mut one = Hai::<Inline<1>>::new().unwrap();
    let result = one.allocate(&jobs.batch(3, 1), &mut [0; 2], &mut [0.0; 2]);
    assert_eq!(result, Err(Error::CapacityFull));
}
