//! ReB's static comparison at a small scale (5 batches a size): HAI never does worse than its
//! shortest-job-optimal start, and no allocation exceeds the cores.

use fairsched_sim::reb::{
    allocate, compare, document, reb_batch, RebMethod, REB_CORES, REB_METHODS, REB_SIZES,
};

#[test]
fn hai_never_above_shortest_job_optimal() {
    for &jobs in &REB_SIZES {
        for seed in 1..=5 {
            let batch = reb_batch(jobs, seed);
            let hai = allocate(&batch, RebMethod::Hai).unwrap();
            let start = allocate(&batch, RebMethod::ShortestJobOptimal).unwrap();
            assert!(hai.jct_sum <= start.jct_sum, "{jobs} jobs, seed {seed}");
            assert!(hai.waiting <= start.waiting, "{jobs} jobs, seed {seed}");
            for method in REB_METHODS {
                let allocated = allocate(&batch, method).unwrap();
                assert!(allocated.cores.iter().sum::<u32>() <= REB_CORES, "{method}");
                assert_eq!(allocated.cores.len(), jobs);
            }
        }
    }
}

#[test]
fn the_table_runs() {
    let rows = compare(&REB_SIZES, 5, 1).unwrap();
    assert_eq!(rows.len(), REB_SIZES.len() * REB_METHODS.len());
    let text = document(&rows, 5, 1).text;
    for method in ["HAI", "shortest-job-optimal", "max-min"] {
        let count = text
            .lines()
            .filter(|l| l.split_whitespace().nth(1) == Some(method))
            .count();
        assert_eq!(count, REB_SIZES.len(), "{method}:\n{text}");
    }
    // HAI runs every job here, and beats the equal split.
    for pair in rows.chunks(3) {
        assert_eq!(pair[0].mean_waiting, 0.0);
        assert!(pair[0].mean_jct_sum < pair[2].mean_jct_sum, "{pair:?}");
    }
}
