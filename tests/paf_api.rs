//! PAF's API contract: every bad input is an error that writes nothing, and enforcement
//! (§IV-B) hands free slots out to the smallest fraction of its target first, as a naive scan
//! does.

use fairsched::paf::{Curve, Inline, Job, Method, Paf};
use fairsched::Error;
use fairsched_testkit::paf_outputs::Outputs;
use quickcheck::{QuickCheck, TestResult};

const POISON: u32 = 0xDEAD;

/// Calls allocate with poisoned outputs; on error, checks they stayed poisoned.
fn attempt(
    paf: &mut Paf<Inline<2>>,
    jobs: &[Job],
    slots: u32,
    alpha: f64,
    n: usize,
) -> Result<(), Error> {
    let mut out = Outputs::filled(n, POISON, -1.0);
    let result = paf
        .allocate(jobs, slots, alpha, Method::Fast, out.allocation())
        .map(|_| ());
    if result.is_err() {
        assert_eq!(
            out,
            Outputs::filled(n, POISON, -1.0),
            "a failed call wrote its outputs"
        );
    }
    result
}

#[test]
fn bad_input_is_an_error_that_writes_nothing() {
    let points = [0.0, 0.5, 0.75];
    let job = Job::new(1, Curve::new(&points).unwrap()).unwrap();
    let mut paf = Paf::<Inline<2>>::new().unwrap();
    assert_eq!(attempt(&mut paf, &[job, job], 3, 0.9, 2), Ok(()));
    assert_eq!(
        attempt(&mut paf, &[job], 0, 0.9, 1),
        Err(Error::NotPositive)
    );
    assert_eq!(attempt(&mut paf, &[job], 3, 1.5, 1), Err(Error::OutOfRange));
    assert_eq!(
        attempt(&mut paf, &[job], 3, -0.1, 1),
        Err(Error::OutOfRange)
    );
    assert_eq!(
        attempt(&mut paf, &[job], 3, f64::NAN, 1),
        Err(Error::NotFinite)
    );
    assert_eq!(
        attempt(&mut paf, &[job; 3], 3, 0.9, 3),
        Err(Error::CapacityFull)
    );
    assert_eq!(
        attempt(&mut paf, &[job, job], 3, 0.9, 1),
        Err(Error::LengthMismatch)
    );
    assert_eq!(
        Job::new(0, Curve::new(&points).unwrap()),
        Err(Error::NotPositive)
    );
    assert_eq!(Curve::new(&[0.0, 1.0, 0.5]), Err(Error::NotMonotone));
    assert_eq!(Curve::new(&[]), Err(Error::Empty));
    assert_eq!(Paf::<Inline<0>>::new().err(), Some(Error::NotPositive));
    // No job: nothing to share.
    assert_eq!(attempt(&mut paf, &[], 3, 0.9, 0), Ok(()));
}

/// §IV-B on a small case: weights 1, 1, 2, targets 5, 3, 4 with 1, 3, 1 running: job 1 is
/// at its target; job 0 holds 1 per unit of weight, job 2 holds 1/2, so job 2 goes first.
#[test]
fn enforcement_serves_the_fewest_slots_per_weight_below_target_first() {
    let mut paf = Paf::<Inline<4>>::new().unwrap();
    let mut out = [u32::MAX; 8];
    let given = paf
        .enforce(&[1, 1, 2], &[5, 3, 4], &[1, 3, 1], &mut out)
        .unwrap();
    // 1/2 < 1 (job 2, then 2/2 ties 1/1: job 0), 2 > 3/2 (job 2, to its target 4), then job 0.
    assert_eq!(&out[..given], &[2, 0, 2, 2, 0, 0, 0]);
    assert_eq!(out[given..], [u32::MAX]);
    // A job just arrived (none of 5) goes before a wide one holding 490 of 500, and a capped
    // narrow job (target 5 below its weight's share) is not held back by its small target.
    let given = paf
        .enforce(&[1, 1], &[500, 5], &[490, 0], &mut out)
        .unwrap();
    assert_eq!(&out[..given], &[1, 1, 1, 1, 1, 0, 0, 0]);
    // Counts near u32::MAX still come back exactly from their keys: three slots each.
    let given = paf
        .enforce(&[7; 2], &[u32::MAX; 2], &[u32::MAX - 3; 2], &mut out)
        .unwrap();
    assert_eq!(&out[..given], &[0, 1, 0, 1, 0, 1]);
    // Invalid input: an error, nothing written.
    let mut out = [u32::MAX; 3];
    let fails = |paf: &mut Paf<Inline<4>>, w: &[u32], t: &[u32], r: &[u32], out: &mut [u32]| {
        paf.enforce(w, t, r, out).err()
    };
    assert_eq!(
        fails(&mut paf, &[1], &[1], &[1, 2], &mut out),
        Some(Error::LengthMismatch)
    );
    assert_eq!(
        fails(&mut paf, &[1, 1], &[1], &[1], &mut out),
        Some(Error::LengthMismatch)
    );
    assert_eq!(
        fails(&mut paf, &[1, 0], &[2, 2], &[0, 0], &mut out),
        Some(Error::NotPositive)
    );
    assert_eq!(
        fails(&mut paf, &[1; 5], &[1; 5], &[0; 5], &mut out),
        Some(Error::CapacityFull)
    );
    assert_eq!(out, [u32::MAX; 3]);
    assert_eq!(paf.enforce(&[1, 1], &[2, 2], &[0, 0], &mut []), Ok(0));
}

fn enforcement_matches_a_scan(
    weights: Vec<u8>,
    targets: Vec<u8>,
    running: Vec<u8>,
    k: u8,
) -> TestResult {
    let n = weights.len().min(targets.len()).min(running.len()).min(16);
    let weights: Vec<u32> = weights[..n].iter().map(|&w| u32::from(w % 5) + 1).collect();
    let targets: Vec<u32> = targets[..n].iter().map(|&t| u32::from(t % 12)).collect();
    let mut running: Vec<u32> = running[..n].iter().map(|&r| u32::from(r % 12)).collect();
    let mut paf = Paf::<Inline<16>>::new().unwrap();
    let mut out = vec![0; usize::from(k % 40)];
    let given = paf.enforce(&weights, &targets, &running, &mut out).unwrap();
    let mut expected = Vec::new();
    while expected.len() < out.len() {
        // Below target, the smallest running / weight, compared exactly by cross-multiplying;
        // ties to the lower index.
        let best = (0..n)
            .filter(|&j| running[j] < targets[j])
            .min_by(|&a, &b| {
                (running[a] * weights[b])
                    .cmp(&(running[b] * weights[a]))
                    .then(a.cmp(&b))
            });
        let Some(j) = best else { break };
        running[j] += 1;
        expected.push(j as u32);
    }
    TestResult::from_bool(out[..given] == expected[..])
}

#[test]
fn enforcement_agrees_with_a_naive_scan() {
    QuickCheck::new()
        .tests(500)
        .quickcheck(enforcement_matches_a_scan as fn(Vec<u8>, Vec<u8>, Vec<u8>, u8) -> TestResult);
}
