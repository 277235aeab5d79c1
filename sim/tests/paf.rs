//! The PAF paper's static simulation (§V-B), at the paper's scale (it takes milliseconds):
//! PAF gains over fair sharing, keeps every job within the α guarantee, and a stricter α
//! loses no more.

use fairsched_sim::paf::{compare, paf_paper, PAF_PAPER_ALPHAS, PAF_PAPER_JOBS, PAF_PAPER_SLOTS};

#[test]
fn paf_gains_within_the_alpha_guarantee() {
    for seed in 1..=3 {
        let jobs = paf_paper(PAF_PAPER_JOBS, seed);
        let outcomes = compare(&jobs, &PAF_PAPER_SLOTS, &PAF_PAPER_ALPHAS).unwrap();
        assert_eq!(outcomes.len(), 6);
        for o in &outcomes {
            assert!(o.gain >= 0.0, "seed {seed}: {o:?}");
            assert!(
                o.largest_loss <= 1.0 - o.alpha + 1e-12,
                "seed {seed}: {o:?}"
            );
        }
        for pair in outcomes.chunks(2) {
            let (loose, strict) = (&pair[0], &pair[1]);
            assert_eq!((loose.alpha, strict.alpha), (0.9, 0.99));
            assert!(
                strict.largest_loss <= loose.largest_loss,
                "seed {seed}: {loose:?} {strict:?}"
            );
        }
        // Not vacuous: on 8,000 slots at α = 0.9 slots move and progress rises.
        let big = &outcomes[4];
        assert_eq!(big.slots, 8_000);
        assert!(big.moved > 0 && big.gain > 0.01, "seed {seed}: {big:?}");
    }
}
