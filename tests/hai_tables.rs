//! JCT tables from predictions (`hai::table_from_differences`, `hai::table_from_samples`,
//! `hai::table_from_ernest`): exact outcomes worked out by hand, a naive reference on random
//! input, every rejection writing nothing (through the Rust API and the C ABI), and a table
//! built from differences allocated by HAI. The cases shared with Java and Go are in
//! tests/vectors/hai.json.

use fairsched::hai::{self, Batch, Hai, Inline, MAX_JCT};
use fairsched::paf::Ernest;
use fairsched::Error;
use fairsched_testkit::rng::SplitMix;

const INF: f64 = f64::INFINITY;

/// ReB's PageRank job of §4.2 in whole numbers, θ = 10: JCT at 0, 10, …, 60 cores.
const PAGERANK: [f64; 7] = [INF, 170.0, 100.0, 84.0, 80.0, 82.0, 87.0];

/// The differences ReB's predictor gives for a table: `JCT(a) - JCT(a + θ)` from θ on.
fn differences(table: &[f64]) -> Vec<f64> {
    table[1..].windows(2).map(|w| w[0] - w[1]).collect()
}

/// `table_from_differences` into a fresh table of `len` values poisoned with -1.
fn from_differences(
    theta: u32,
    reference: u32,
    jct: f64,
    differences: &[f64],
    len: usize,
) -> Result<Vec<f64>, Error> {
    let mut table = vec![-1.0; len];
    let result = hai::table_from_differences(theta, reference, jct, differences, &mut table);
    match result {
        Ok(()) => Ok(table),
        Err(error) => {
            assert!(
                table.iter().all(|&v| v == -1.0),
                "a failed call wrote {table:?}"
            );
            Err(error)
        }
    }
}

#[test]
fn differences_rebuild_the_paper_table_from_any_reference() {
    let d = differences(&PAGERANK);
    assert_eq!(d, [70.0, 16.0, 4.0, -2.0, -5.0]);
    for (reference, &jct) in (10..).step_by(10).zip(&PAGERANK[1..]) {
        let table = from_differences(10, reference, jct, &d, 7).unwrap();
        assert_eq!(table, PAGERANK, "reference {reference}");
    }
}

#[test]
fn differences_worked_by_hand() {
    // JCT(20) = 100; falls 60 from 10 to 20, 20 to 30, 5 to 40, rises 7 to 50.
    let table = from_differences(10, 20, 100.0, &[60.0, 20.0, 5.0, -7.0], 6).unwrap();
    assert_eq!(table, [INF, 160.0, 100.0, 80.0, 75.0, 82.0]);
    // One step: no difference, the reference is the cap.
    assert_eq!(from_differences(3, 3, 9.0, &[], 2).unwrap(), [INF, 9.0]);
    // The table HAI then allocates: the optimum, 40 cores, fits in 45 (5 cores stay free).
    assert_eq!(alone(45, 10, &table), (40, 75.0));
}

/// HAI's allocation of one job with `table` on `capacity` cores: its cores and JCT.
fn alone(capacity: u32, theta: u32, table: &[f64]) -> (u32, f64) {
    let caps = [(table.len() as u32 - 1) * theta];
    let batch = Batch {
        capacity,
        theta,
        caps: &caps,
        jct: table,
    };
    let (mut cores, mut jct) = ([0], [0.0]);
    Hai::<Inline<1>>::new()
        .unwrap()
        .allocate(&batch, &mut cores, &mut jct)
        .unwrap();
    (cores[0], jct[0])
}

/// The naive reference: each JCT summed from the reference on its own, nearest first.
fn naive(theta: u32, reference: u32, jct: f64, differences: &[f64], len: usize) -> Vec<f64> {
    let at = (reference / theta) as usize;
    (0..len)
        .map(|k| match k {
            0 => INF,
            k if k >= at => differences[at - 1..k - 1].iter().fold(jct, |t, d| t - d),
            k => differences[k - 1..at - 1]
                .iter()
                .rev()
                .fold(jct, |t, d| t + d),
        })
        .collect()
}

#[test]
fn differences_match_the_naive_sums_on_random_input() {
    let mut rng = SplitMix(14);
    for _ in 0..2000 {
        let theta = 1 + rng.below(4) as u32;
        let len = 2 + rng.below(12) as usize;
        let at = 1 + rng.below(len as u64 - 1) as u32;
        // Any finite differences, whole or not, positive or negative; the base anywhere.
        let d: Vec<f64> = (0..len - 2)
            .map(|_| (rng.below(2001) as f64 - 600.0) / (1 + rng.below(8)) as f64)
            .collect();
        let base = 1.0 + rng.below(5000) as f64 / 7.0;
        let expected = naive(theta, at * theta, base, &d, len);
        let got = from_differences(theta, at * theta, base, &d, len);
        let valid = expected[1..].iter().all(|&v| v > 0.0 && v <= MAX_JCT);
        if valid {
            assert_eq!(got, Ok(expected), "θ {theta}, reference {at}, {d:?}");
        } else {
            assert_eq!(
                got,
                Err(Error::NotPositive),
                "θ {theta}, reference {at}, {d:?}"
            );
        }
    }
}

/// A rejected `table_from_differences`: what it tests, its arguments, the table's length and
/// the error.
type DifferencesCase<'a> = (&'a str, u32, u32, f64, &'a [f64], usize, Error);

#[test]
fn differences_rejected_in_order_and_nothing_written() {
    let d = [70.0, 16.0, 4.0, -2.0, -5.0];
    // (what, θ, reference, its JCT, differences, table length, error)
    let cases: [DifferencesCase; 15] = [
        ("theta 0", 0, 40, 80.0, &d, 7, Error::NotPositive),
        ("no table", 10, 40, 80.0, &d, 0, Error::NotPositive),
        ("JCT(0) alone", 10, 10, 80.0, &[], 1, Error::NotPositive),
        (
            "cap past u32",
            u32::MAX,
            40,
            80.0,
            &[],
            3,
            Error::OutOfRange,
        ),
        (
            "too few differences",
            10,
            40,
            80.0,
            &d[1..],
            7,
            Error::LengthMismatch,
        ),
        (
            "too many differences",
            10,
            40,
            80.0,
            &d,
            6,
            Error::LengthMismatch,
        ),
        ("reference 0", 10, 0, 80.0, &d, 7, Error::OutOfRange),
        (
            "reference not a step",
            10,
            45,
            80.0,
            &d,
            7,
            Error::OutOfRange,
        ),
        (
            "reference past the cap",
            10,
            70,
            80.0,
            &d,
            7,
            Error::OutOfRange,
        ),
        ("NaN JCT", 10, 40, f64::NAN, &d, 7, Error::NotFinite),
        ("JCT 0", 10, 40, 0.0, &d, 7, Error::NotPositive),
        (
            "JCT above 2^60",
            10,
            40,
            2.0 * MAX_JCT,
            &d,
            7,
            Error::OutOfRange,
        ),
        (
            "infinite difference",
            10,
            40,
            80.0,
            &[70.0, INF, 4.0, -2.0, -5.0],
            7,
            Error::NotFinite,
        ),
        (
            "falls to 0",
            10,
            10,
            170.0,
            &[70.0, 100.0, 4.0, -2.0, -5.0],
            7,
            Error::NotPositive,
        ),
        (
            "rises past 2^60",
            10,
            60,
            87.0,
            &[2.0 * MAX_JCT, 16.0, 4.0, -2.0, -5.0],
            7,
            Error::OutOfRange,
        ),
    ];
    for (name, theta, reference, jct, d, len, error) in cases {
        assert_eq!(
            from_differences(theta, reference, jct, d, len),
            Err(error),
            "{name}"
        );
    }
}

/// `JCT(a) = 20 + a / 2 + 400 / a`: optimum at √800 ≈ 28.3 cores.
fn model() -> Ernest {
    Ernest::new([20.0, 0.5, 400.0, 0.0]).unwrap()
}

#[test]
fn ernest_tabulated_exactly() {
    // 20 + a/2 + 400/a at a = 4, 8 and 8, 16: whole numbers, every term exact.
    let mut table = [-1.0; 3];
    hai::table_from_ernest(&model(), 4, &mut table).unwrap();
    assert_eq!(table, [INF, 122.0, 74.0]);
    hai::table_from_ernest(&model(), 8, &mut table).unwrap();
    assert_eq!(table, [INF, 74.0, 53.0]);
    // The table feeds HAI: alone on 200 cores, the job gets its optimum, 28 cores.
    let mut table = [-1.0; 61];
    hai::table_from_ernest(&model(), 1, &mut table).unwrap();
    assert_eq!(alone(200, 1, &table).0, 28);
}

#[test]
fn ernest_rejections_write_nothing() {
    let too_large = Ernest::new([0.0, MAX_JCT, 0.0, 0.0]).unwrap();
    let vanishing = Ernest::new([0.0, 0.0, 5e-324, 0.0]).unwrap();
    let cases = [
        (model(), 0, 3, Error::NotPositive),
        (model(), 1, 1, Error::NotPositive),
        (model(), u32::MAX, 3, Error::OutOfRange),
        // JCT(1) = 2^60 is allowed, JCT(2) = 2^61 is not.
        (too_large, 1, 3, Error::OutOfRange),
        // 5e-324 / 2 rounds to 0.
        (vanishing, 1, 3, Error::NotPositive),
    ];
    for (model, theta, len, error) in cases {
        let mut table = vec![-1.0; len];
        assert_eq!(
            hai::table_from_ernest(&model, theta, &mut table),
            Err(error)
        );
        assert!(table.iter().all(|&v| v == -1.0));
    }
    let mut table = [-1.0; 2];
    hai::table_from_ernest(&too_large, 1, &mut table).unwrap();
    assert_eq!(table, [INF, MAX_JCT]);
}

#[test]
fn samples_of_a_model_give_back_its_table() {
    let cores = [1, 2, 4, 8, 16, 32, 64];
    let jct: Vec<f64> = cores.iter().map(|&a| model().runtime(a)).collect();
    let mut table = vec![-1.0; 41];
    let fitted = hai::table_from_samples(&cores, &jct, 2, &mut table).unwrap();
    for (got, want) in fitted.coefficients().iter().zip(model().coefficients()) {
        assert!((got - want).abs() <= 1e-6 * want.max(1.0), "{fitted:?}");
    }
    assert_eq!(table[0], INF);
    for (k, &value) in table.iter().enumerate().skip(1) {
        let want = model().runtime(2 * k as u32);
        assert!(
            (value - want).abs() <= 1e-7 * want,
            "JCT({}) {value}",
            2 * k
        );
        // Exactly the fitted model's table.
        assert_eq!(value, fitted.runtime(2 * k as u32));
    }
}

/// Runs of `10^17 a` seconds on 1, 2, 4 and 8 cores: they fit, but not a table up to 64 cores.
const HUGE: [f64; 4] = [1e17, 2e17, 4e17, 8e17];

/// A rejected `table_from_samples`: what it tests, its arguments, the table's length and the
/// error.
type SamplesCase<'a> = (&'a str, u32, &'a [u32], &'a [f64], usize, Error);

#[test]
fn samples_rejected_in_order_and_nothing_written() {
    let cores = [1, 2, 4, 8];
    let jct = [420.5, 221.0, 122.0, 74.0];
    // (what, θ, cores, JCTs, table length, error)
    let cases: [SamplesCase; 9] = [
        (
            "theta 0 before the fit",
            0,
            &[1],
            &[],
            5,
            Error::NotPositive,
        ),
        ("table of one value", 1, &cores, &jct, 1, Error::NotPositive),
        ("cap past u32", u32::MAX, &cores, &jct, 3, Error::OutOfRange),
        (
            "lengths differ",
            1,
            &cores,
            &jct[1..],
            5,
            Error::LengthMismatch,
        ),
        ("no sample", 1, &[], &[], 5, Error::Empty),
        ("0 cores", 1, &[0, 2, 4, 8], &jct, 5, Error::NotPositive),
        (
            "NaN JCT",
            1,
            &cores,
            &[f64::NAN, 221.0, 122.0, 74.0],
            5,
            Error::NotFinite,
        ),
        (
            "too few",
            1,
            &cores[1..],
            &jct[1..],
            5,
            Error::Underdetermined,
        ),
        ("table above 2^60", 1, &cores, &HUGE, 65, Error::OutOfRange),
    ];
    for (name, theta, cores, jct, len, error) in cases {
        let mut table = vec![-1.0; len];
        assert_eq!(
            hai::table_from_samples(cores, jct, theta, &mut table).map(drop),
            Err(error),
            "{name}"
        );
        assert!(table.iter().all(|&v| v == -1.0), "{name}");
    }
}

/// The C ABI: the same results, NULL pointers rejected first, nothing written on failure.
#[cfg(feature = "ffi")]
mod c_abi {
    use super::*;
    use core::ptr::{null, null_mut};
    use fairsched::ffi::hai::{
        fairsched_hai_table_from_differences, fairsched_hai_table_from_samples,
    };
    use fairsched::ffi::FairschedStatus;

    fn differences(theta: u32, d: *const f64, d_len: usize, table: &mut [f64]) -> FairschedStatus {
        let (at, len) = (table.as_mut_ptr(), table.len());
        unsafe { fairsched_hai_table_from_differences(theta, 40, 80.0, d, d_len, at, len) }
    }

    #[test]
    fn differences_through_the_c_abi() {
        let d = super::differences(&PAGERANK);
        let mut table = [-1.0; 7];
        assert_eq!(
            differences(10, d.as_ptr(), d.len(), &mut table),
            FairschedStatus::Ok
        );
        assert_eq!(table, PAGERANK);
        let mut table = [-1.0; 7];
        let failures = [
            (
                differences(10, null(), d.len(), &mut table),
                FairschedStatus::NullPointer,
            ),
            (
                differences(0, d.as_ptr(), d.len(), &mut table),
                FairschedStatus::NotPositive,
            ),
            (
                differences(10, d.as_ptr(), 4, &mut table),
                FairschedStatus::LengthMismatch,
            ),
            (
                differences(7, d.as_ptr(), d.len(), &mut table),
                FairschedStatus::OutOfRange,
            ),
        ];
        for (status, wanted) in failures {
            assert_eq!(status, wanted);
        }
        assert_eq!(table, [-1.0; 7]);
        let status = unsafe {
            fairsched_hai_table_from_differences(10, 40, 80.0, d.as_ptr(), d.len(), null_mut(), 7)
        };
        assert_eq!(status, FairschedStatus::NullPointer);
        // Empty arrays may be NULL: a table of no value is then the first error.
        let status =
            unsafe { fairsched_hai_table_from_differences(1, 1, 1.0, null(), 0, null_mut(), 0) };
        assert_eq!(status, FairschedStatus::NotPositive);
    }

    #[test]
    fn samples_through_the_c_abi() {
        let cores = [1u32, 2, 4, 8, 16, 32, 64];
        let jct: Vec<f64> = cores.iter().map(|&a| model().runtime(a)).collect();
        let call =
            |cores: *const u32, jct: *const f64, n: usize, table: &mut [f64], a: *mut f64| unsafe {
                fairsched_hai_table_from_samples(
                    2,
                    cores,
                    n,
                    jct,
                    n,
                    table.as_mut_ptr(),
                    table.len(),
                    a,
                )
            };
        let (mut table, mut a) = ([-1.0; 41], [-1.0; 4]);
        let status = call(cores.as_ptr(), jct.as_ptr(), 7, &mut table, a.as_mut_ptr());
        assert_eq!(status, FairschedStatus::Ok);
        let mut rust = [-1.0; 41];
        let fitted = hai::table_from_samples(&cores, &jct, 2, &mut rust).unwrap();
        assert_eq!((table, a), (rust, fitted.coefficients()));

        let (mut table, mut a) = ([-1.0; 41], [-1.0; 4]);
        let failures = [
            (
                call(null(), jct.as_ptr(), 7, &mut table, a.as_mut_ptr()),
                FairschedStatus::NullPointer,
            ),
            (
                call(cores.as_ptr(), null(), 7, &mut table, a.as_mut_ptr()),
                FairschedStatus::NullPointer,
            ),
            (
                call(cores.as_ptr(), jct.as_ptr(), 7, &mut table, null_mut()),
                FairschedStatus::NullPointer,
            ),
            (
                call(cores.as_ptr(), jct.as_ptr(), 3, &mut table, a.as_mut_ptr()),
                FairschedStatus::Underdetermined,
            ),
            (
                call(
                    cores.as_ptr(),
                    jct.as_ptr(),
                    7,
                    &mut [-1.0; 1],
                    a.as_mut_ptr(),
                ),
                FairschedStatus::NotPositive,
            ),
        ];
        for (status, wanted) in failures {
            assert_eq!(status, wanted);
        }
        assert_eq!((table, a), ([-1.0; 41], [-1.0; 4]));
    }
}
