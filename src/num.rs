//! Validated numbers and the total order used for every float key.
//!
//! Orderings in this crate compare validated, finite floats through [`order_bits`], a total
//! order that agrees with `<` on finite values, so a comparator can never violate the sort
//! contract (the bug Spark, YARN and Kueue shipped) and results are identical on every platform.

use crate::{Error, Result};

/// `x` if it is finite; `-0.0` is folded into `+0.0` so equal values have equal keys.
pub fn finite(x: f64) -> Result<f64> {
    if x.is_finite() {
        Ok(x + 0.0)
    } else {
        Err(Error::NotFinite)
    }
}

/// `x` if it is finite and strictly positive.
pub fn positive(x: f64) -> Result<f64> {
    let x = finite(x)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(Error::NotPositive)
    }
}

/// A `u64` whose unsigned order is the numeric order of the finite float `x`
/// (the IEEE 754 totalOrder predicate restricted to finite values).
pub const fn order_bits(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// The float whose [`order_bits`] are `key`: the inverse of that map.
pub const fn from_order_bits(key: u64) -> f64 {
    f64::from_bits(if key >> 63 == 1 {
        key & !(1 << 63)
    } else {
        !key
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_bits_agrees_with_less_than() {
        let xs = [-1e300, -2.5, -1e-300, 0.0, 1e-300, 1.0, 2.5, 1e300];
        for pair in xs.windows(2) {
            assert!(order_bits(pair[0]) < order_bits(pair[1]), "{pair:?}");
        }
        assert_eq!(order_bits(finite(-0.0).unwrap()), order_bits(0.0));
    }

    #[test]
    fn from_order_bits_inverts_order_bits() {
        let xs = [-1e300, -2.5, -1e-300, -0.0, 0.0, 1e-300, 1.0, 2.5, 1e300];
        for x in xs {
            assert_eq!(from_order_bits(order_bits(x)).to_bits(), x.to_bits(), "{x}");
        }
    }

    #[test]
    fn validation_rejects_what_it_should() {
        assert_eq!(finite(f64::NAN), Err(Error::NotFinite));
        assert_eq!(finite(f64::INFINITY), Err(Error::NotFinite));
        assert_eq!(positive(0.0), Err(Error::NotPositive));
        assert_eq!(positive(-1.0), Err(Error::NotPositive));
        assert_eq!(positive(f64::NEG_INFINITY), Err(Error::NotFinite));
    }
}
