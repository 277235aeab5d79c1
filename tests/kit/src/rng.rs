//! A small deterministic generator (SplitMix64), so that workloads need no dependency: the
//! simulator's workloads, the benchmarks' and the tests' seeded cases.
//!
//! The simulator's figures (sim/README.md) and the benchmarks' workloads depend on its exact
//! sequence: changing it changes them.

/// The generator; its state is the seed to start from.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    // Never exhausted, so not an `Iterator` (whose `next` returns an `Option`).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (nearly: the modulo bias is negligible for small `n`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
