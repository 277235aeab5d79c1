//! Decoding fuzz bytes into arguments: every read takes what it needs from the front and reads
//! zeros once the bytes run out, so any byte string is a valid (and finite) run.

/// The bytes not yet decoded.
pub struct Input<'a> {
    bytes: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Input { bytes }
    }

    /// Whether every byte has been decoded: the run ends.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The next byte (0 once the bytes run out).
    pub fn byte(&mut self) -> u8 {
        let (&first, rest) = self.bytes.split_first().unwrap_or((&0, &[]));
        self.bytes = rest;
        first
    }

    /// A number in `0..n` (`n` at most 256, from one byte).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// True once in `n` draws (roughly): how often an argument is made invalid on purpose.
    pub fn one_in(&mut self, n: u8) -> bool {
        self.byte().is_multiple_of(n)
    }

    /// A count in `0..=max`, sometimes replaced by a much larger value that no buffer holds
    /// (only for arguments that are not buffer lengths).
    pub fn count(&mut self, max: u64) -> u64 {
        match self.byte() {
            0 => u64::MAX,
            1 => u64::from(u32::MAX),
            b => u64::from(b) % (max + 1),
        }
    }

    /// A float: four times in five a small positive one, else one that validation must
    /// reject or that sits on a boundary: NaN, ±∞, zero, -0, negative, huge, tiny, or any bit
    /// pattern.
    pub fn number(&mut self) -> f64 {
        match self.byte() % 48 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => 0.0,
            4 => -0.0,
            5 => -1.0,
            6 => 2f64.powi(61),
            7 => f64::MIN_POSITIVE,
            8 => f64::MAX,
            9 => f64::from_bits(u64::from_le_bytes(core::array::from_fn(|_| self.byte()))),
            b => f64::from(self.byte()) / 16.0 + f64::from(b - 9),
        }
    }

    /// `value`, or a NULL pointer once in 32 draws.
    pub fn or_null<T>(&mut self, value: *mut T) -> *mut T {
        if self.one_in(32) {
            core::ptr::null_mut()
        } else {
            value
        }
    }

    /// A pointer to `values` for an export that only reads them, or NULL once in 32 draws.
    pub fn reads<T>(&mut self, values: &[T]) -> *const T {
        self.or_null(values.as_ptr().cast_mut())
    }

    /// `len` unless a mismatched length (one more or one fewer) is drawn, once in 16.
    pub fn skewed(&mut self, len: usize) -> usize {
        match self.byte() % 32 {
            0 => len + 1,
            1 => len.saturating_sub(1),
            _ => len,
        }
    }
}
