//! The CFQ paper's naive profiler (§V-B): [`Profiler`].

use super::checked_slot_time;
use crate::num;
use crate::{Error, Result};

/// The CFQ paper's naive profiler (§V-B, "naive profiling"): a new job's slot-time is
/// estimated as its number of tasks times the *cumulative average* run time of every task
/// observed to finish so far, `L̃_j = n_j × l̃_j`. A plain value (24 bytes), no allocation.
///
/// The paper uses it to show that CFQ is insensitive to profiling errors (mean response time
/// only about 10% above exact profiling, wide jobs hurt most); here it is the profiler a
/// scheduler can use when nothing better is known, and one reason [`super::Cfq::reprofile`]
/// exists: a wide job's estimate can be corrected once its own tasks have run.
///
/// ```
/// use fairsched::cfq::Profiler;
///
/// let mut profiler = Profiler::new();
/// assert_eq!(profiler.estimate(4), Err(fairsched::Error::Empty)); // nothing observed yet
/// profiler.observe(3.0)?;
/// profiler.observe_batch(&[5.0, 4.0])?;                              // mean 4 s
/// assert_eq!(profiler.estimate(10)?, 40.0);                          // 10 tasks: 40 s of slot-time
/// # Ok::<(), fairsched::Error>(())
/// ```
///
/// # Precision
///
/// The mean is kept as a count and a sum, never as a running average updated in place (which
/// drifts): `l̃ = sum / count`, evaluated when asked. A plain `f64` sum would lose the low bits
/// of each new duration once the sum is large: after a billion tasks of about 100 s, the sum
/// is about 10^11 and each addition rounds by up to 2^-17 s, an error that grows with the
/// count. So the sum is a *double-double*: its rounded value and the exact rounding error of
/// that value, updated with error-free transformations (Knuth's TwoSum, then Dekker's
/// Fast2Sum), so the one rounding of an observation is of the low word, at most
/// `2^-105 × sum`. After `n` observations the pair is within `n × 2^-105` of the exact sum,
/// relatively: 2^-75 after a billion, 2^-65 after 2^40 observations, far below the 2^-53 of
/// an `f64`. The mean divides that pair by the count with a fused multiply-add for the
/// remainder, so it is the exact mean of what was observed, correctly rounded, but for an
/// exact mean lying within that tiny error of a rounding boundary. The count is a `u64`
/// (exact as an `f64` up to 2^53 observations, beyond any scheduler's lifetime). Everything is
/// IEEE 754 arithmetic in a fixed order (the FMA is `libm`'s, in software), so results are
/// identical on every platform.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Profiler {
    count: u64,
    /// The sum of the durations, rounded to nearest.
    sum: f64,
    /// The exact sum minus `sum` (to the precision documented above).
    sum_low: f64,
}

impl Profiler {
    /// A profiler that has observed nothing.
    pub const fn new() -> Self {
        Profiler {
            count: 0,
            sum: 0.0,
            sum_low: 0.0,
        }
    }

    /// Observes one finished task that ran `duration` (the same unit as slot-times). See
    /// [`Profiler::observe_batch`] for what is refused.
    pub fn observe(&mut self, duration: f64) -> Result<()> {
        self.observe_batch(core::slice::from_ref(&duration))
    }

    /// Observes many finished tasks, all or nothing: every duration is checked first. A
    /// duration must be finite ([`Error::NotFinite`]), not negative ([`Error::Negative`]; zero
    /// is a task that took no time) and at most [`super::MAX_SLOT_TIME`], the slot-time of a
    /// one-task job ([`Error::OutOfRange`]); more than `u64::MAX` observations in all is
    /// [`Error::OutOfRange`] too. An empty batch changes nothing.
    pub fn observe_batch(&mut self, durations: &[f64]) -> Result<()> {
        for &duration in durations {
            checked_duration(duration)?;
        }
        let count = u64::try_from(durations.len())
            .ok()
            .and_then(|n| self.count.checked_add(n))
            .ok_or(Error::OutOfRange)?;
        for &duration in durations {
            // `+ 0.0` folds -0.0 into +0.0, as every validated number is.
            self.add(duration + 0.0);
        }
        self.count = count;
        Ok(())
    }

    /// Number of durations observed.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The mean of every duration observed (see [Precision](Profiler#precision));
    /// [`Error::Empty`] before the first observation.
    pub fn mean(&self) -> Result<f64> {
        if self.count == 0 {
            return Err(Error::Empty);
        }
        let n = self.count as f64;
        let quotient = self.sum / n;
        // The remainder of a rounded quotient is exact in one FMA: sum - quotient × n.
        let remainder = libm::fma(-quotient, n, self.sum) + self.sum_low;
        Ok(quotient + remainder / n)
    }

    /// The slot-time of a new job of `tasks` tasks: `tasks × mean`, the paper's `n_j × l̃_j`,
    /// ready for [`super::Cfq::arrive`] or [`super::Cfq::reprofile`]. Refused, in this order:
    /// `tasks == 0` ([`Error::NotPositive`]); nothing observed yet ([`Error::Empty`]: the caller
    /// chooses what a first job gets); an estimate outside CFQ's slot-time domain
    /// `(0, MAX_SLOT_TIME]`, as `arrive` refuses it: [`Error::NotPositive`] when every
    /// duration observed was 0, [`Error::OutOfRange`] above [`super::MAX_SLOT_TIME`].
    pub fn estimate(&self, tasks: u64) -> Result<f64> {
        if tasks == 0 {
            return Err(Error::NotPositive);
        }
        checked_slot_time(tasks as f64 * self.mean()?)
    }

    /// The state, for the C ABI's `fairsched_cfq_profiler`: count, sum, sum's low word.
    #[cfg(feature = "ffi")]
    pub(crate) const fn parts(&self) -> (u64, f64, f64) {
        (self.count, self.sum, self.sum_low)
    }

    /// A profiler from [`Profiler::parts`].
    #[cfg(feature = "ffi")]
    pub(crate) const fn from_parts(count: u64, sum: f64, sum_low: f64) -> Self {
        Profiler {
            count,
            sum,
            sum_low,
        }
    }

    /// Adds a validated duration to the double-double sum.
    fn add(&mut self, duration: f64) {
        // TwoSum: high + error == sum + duration exactly.
        let high = self.sum + duration;
        let rounded = high - self.sum;
        let error = (self.sum - (high - rounded)) + (duration - rounded);
        // The one rounding: the low words, each below an ulp of `high`.
        let low = self.sum_low + error;
        // Fast2Sum (|high| >= |low|, as both sums are of non-negative numbers): renormalize.
        self.sum = high + low;
        self.sum_low = low - (self.sum - high);
    }
}

/// `duration` if it is a valid task run time (see [`Profiler::observe_batch`]).
fn checked_duration(duration: f64) -> Result<f64> {
    let duration = num::finite(duration)?;
    if duration < 0.0 {
        return Err(Error::Negative);
    }
    if duration > super::MAX_SLOT_TIME {
        return Err(Error::OutOfRange);
    }
    Ok(duration)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cfq::MAX_SLOT_TIME;
    use std::vec::Vec;

    #[test]
    fn empty_then_the_mean_of_what_was_observed() {
        let mut p = Profiler::new();
        assert_eq!(p, Profiler::default());
        assert_eq!(p.mean(), Err(Error::Empty));
        assert_eq!(p.estimate(1), Err(Error::Empty));
        assert_eq!(p.estimate(0), Err(Error::NotPositive));
        p.observe_batch(&[]).unwrap();
        assert_eq!((p.count(), p.estimate(1)), (0, Err(Error::Empty)));
        p.observe_batch(&[1.0, 2.0, 6.0]).unwrap();
        assert_eq!((p.count(), p.mean(), p.estimate(5)), (3, Ok(3.0), Ok(15.0)));
        assert_eq!(p.estimate(0), Err(Error::NotPositive));
    }

    #[test]
    fn invalid_durations_change_nothing() {
        let mut p = Profiler::new();
        p.observe(2.5).unwrap();
        let before = p;
        for (bad, error) in [
            (f64::NAN, Error::NotFinite),
            (f64::INFINITY, Error::NotFinite),
            (f64::NEG_INFINITY, Error::NotFinite),
            (-1.0, Error::Negative),
            (-f64::MIN_POSITIVE, Error::Negative),
            (MAX_SLOT_TIME * 2.0, Error::OutOfRange),
        ] {
            assert_eq!(p.observe(bad), Err(error), "{bad}");
            // The bad one last: the good ones before it are not taken either.
            assert_eq!(p.observe_batch(&[1.0, 2.0, bad]), Err(error), "{bad}");
            assert_eq!(p, before);
        }
        // -0.0 and MAX_SLOT_TIME are in the domain.
        p.observe_batch(&[-0.0, MAX_SLOT_TIME]).unwrap();
        assert_eq!(p.count(), 3);
        let full = Profiler::from_count(u64::MAX - 1);
        let mut q = full;
        assert_eq!(q.observe_batch(&[1.0, 1.0]), Err(Error::OutOfRange));
        assert_eq!(q, full);
        q.observe(1.0).unwrap();
        assert_eq!(q.count(), u64::MAX);
    }

    #[test]
    fn estimates_stay_in_the_slot_time_domain() {
        let mut zeros = Profiler::new();
        zeros.observe_batch(&[0.0, 0.0]).unwrap();
        assert_eq!(zeros.mean(), Ok(0.0));
        assert_eq!(zeros.estimate(3), Err(Error::NotPositive));
        let mut big = Profiler::new();
        big.observe(MAX_SLOT_TIME).unwrap();
        assert_eq!(big.estimate(1), Ok(MAX_SLOT_TIME));
        assert_eq!(big.estimate(2), Err(Error::OutOfRange));
        assert_eq!(big.estimate(u64::MAX), Err(Error::OutOfRange));
        let mut tiny = Profiler::new();
        tiny.observe(f64::from_bits(1)).unwrap(); // the smallest subnormal
        assert_eq!(tiny.estimate(1), Ok(f64::from_bits(1)));
    }

    /// Large durations and small ones mixed: a plain `f64` sum loses the small ones, the
    /// double-double keeps them, and the mean is the exact one, correctly rounded.
    #[test]
    fn the_mean_is_exact_where_a_plain_sum_drifts() {
        const N: u64 = 1 << 20;
        let mut p = Profiler::new();
        let (mut naive, mut exact_units) = (0.0f64, 0u128); // units of 2^-20
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut batch = Vec::new();
        for i in 0..N {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Every 64th a duration of 2^30, the others below 1, on a grid of 2^-20.
            let units: u64 = if i % 64 == 0 { 1 << 50 } else { state >> 44 };
            let duration = units as f64 / (1u64 << 20) as f64;
            naive += duration;
            exact_units += u128::from(units);
            batch.push(duration);
            if batch.len() == 1000 {
                p.observe_batch(&batch).unwrap();
                batch.clear();
            }
        }
        p.observe_batch(&batch).unwrap();
        // mean = exact_units × 2^-20 / 2^20, rounded once (u128 to f64 rounds to nearest).
        let exact_mean = exact_units as f64 / (1u64 << 40) as f64;
        assert_eq!(p.count(), N);
        assert_eq!(p.mean().unwrap().to_bits(), exact_mean.to_bits());
        let naive_mean = naive / N as f64;
        assert!(
            (naive_mean - exact_mean).abs() > 1e-7, // about 60 ulps
            "the plain sum should drift: {naive_mean} vs {exact_mean}"
        );
        // Observed one at a time or in batches: the same bits.
        let mut single = Profiler::new();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..N {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let units: u64 = if i % 64 == 0 { 1 << 50 } else { state >> 44 };
            single.observe(units as f64 / (1u64 << 20) as f64).unwrap();
        }
        assert_eq!(single, p);
    }

    /// A third of an ulp, a billion times over (simulated by scaling): the low word carries it.
    #[test]
    fn a_long_run_of_small_increments_is_not_lost() {
        let mut p = Profiler::new();
        p.observe(1e16).unwrap();
        for _ in 0..3000 {
            p.observe(1.0).unwrap(); // below half an ulp of 1e16 (2.0): a plain sum keeps 1e16
        }
        let mean = p.mean().unwrap();
        let exact: f64 = (1e16 + 3000.0) / 3001.0;
        assert_eq!(mean.to_bits(), exact.to_bits());
    }

    impl Profiler {
        /// A profiler that has seen `count` durations of 1.
        fn from_count(count: u64) -> Self {
            Profiler {
                count,
                sum: count as f64,
                sum_low: 0.0,
            }
        }
    }
}
