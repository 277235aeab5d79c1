//! Columns that are copies of one another, priced once: QKnobler's users with the same demand
//! row are one column class (the paper's own Spark workload, §7.1, has 2 distinct rows among
//! 20 users). Columns with the same pattern ([`Program::patterns`]) get the same reduced
//! cost, bit for bit, so a pricing pass needs one reduced cost per class and, for the class
//! that wins, its first column that is not basic: the choice a column-by-column scan makes.
//!
//! The classes are found by hashing every column's pattern once, which costs about what a
//! pricing pass does; the solver does it only after a few plain passes, and gives up as soon as
//! the columns prove too varied (more classes than [`CLASSES`] or a quarter of the columns),
//! so a short solve or one whose columns are all distinct loses little.

use super::{Choice, Program, BLOCK};

/// The most classes kept.
const CLASSES: usize = 32;
/// Slots of the hash table that finds a column's class: four times the classes (few collide),
/// a power of two.
const SLOTS: usize = 4 * CLASSES;
/// `log2(SLOTS)`.
const SLOT_BITS: u32 = SLOTS.trailing_zeros();

/// The classes of a program's columns of `M` rows: each one's first column, in column order,
/// and its key ([`Program::patterns`]).
pub(super) struct Classes<const M: usize> {
    first: [usize; CLASSES],
    keys: [[f64; M]; CLASSES],
    len: usize,
}

impl<const M: usize> Classes<M> {
    /// The classes of `program`'s columns; `None` when it has no keys or there are more
    /// classes than [`CLASSES`] or a quarter of the columns (pricing them would not pay).
    pub(super) fn of<P: Program>(program: &P) -> Option<Self> {
        let n = program.columns();
        let most = CLASSES.min(n / 4);
        // A slot holds its class's index plus one; zero is empty.
        let mut slots = [0u8; SLOTS];
        let mut classes = Classes {
            first: [0; CLASSES],
            keys: [[0.0; M]; CLASSES],
            len: 0,
        };
        let mut len = 0;
        for (j, row) in (0..n).zip(program.patterns()?.chunks_exact(M)) {
            let key: &[f64; M] = row.try_into().ok()?;
            let mut slot = slot_of(key);
            loop {
                let entry = slots.get_mut(slot)?;
                let Some(class) = usize::from(*entry).checked_sub(1) else {
                    if len >= most {
                        return None;
                    }
                    *classes.first.get_mut(len)? = j;
                    *classes.keys.get_mut(len)? = *key;
                    len = len.saturating_add(1);
                    *entry = u8::try_from(len).ok()?;
                    break;
                };
                if classes.keys.get(class).is_some_and(|k| same(k, key)) {
                    break;
                }
                slot = slot.wrapping_add(1) & (SLOTS - 1);
            }
        }
        classes.len = len;
        Some(classes)
    }

    /// The pricing pass over the columns (see [`super::Tableau::entering`]): each class's
    /// reduced cost, computed once into `reduced`, offered for the class's first column that
    /// is not basic. The classes are in the order of their first columns, but a class whose
    /// first column is basic offers a later one, so the offers are compared as a scan out of
    /// column order does ([`Choice::wins`]).
    pub(super) fn consider<P: Program>(
        &self,
        program: &P,
        duals: &[f64; M],
        basis: &[usize; M],
        reduced: &mut [f64; BLOCK],
        choice: &mut Choice,
    ) {
        let firsts = self.first.get(..self.len).unwrap_or_default();
        let keys = self.keys.get(..self.len).unwrap_or_default();
        let costs = reduced.get_mut(..firsts.len()).unwrap_or_default();
        program.reduced_costs_of(duals, keys.as_flattened(), costs);
        for ((&first, key), &r) in firsts.iter().zip(keys).zip(costs.iter()) {
            // A later column of the class wins only where its first would.
            if !choice.wins(first, r) {
                continue;
            }
            if let Some(var) = nonbasic(program, first, key, basis) {
                if choice.wins(var, r) {
                    choice.take(var, r);
                }
            }
        }
    }
}

/// The first column of the class of `first` (whose key is `key`) that is not basic: `first`
/// itself unless it is basic (then a search of the later columns, which happens only when a
/// basic column's reduced cost, zero but for rounding, beats the tolerance).
fn nonbasic<P: Program, const M: usize>(
    program: &P,
    first: usize,
    key: &[f64; M],
    basis: &[usize; M],
) -> Option<usize> {
    if !basis.contains(&first) {
        return Some(first);
    }
    (0..program.columns())
        .zip(program.patterns()?.chunks_exact(M))
        .skip(first.saturating_add(1))
        .find(|&(j, row)| !basis.contains(&j) && row.try_into().is_ok_and(|row| same(row, key)))
        .map(|(j, _)| j)
}

/// Whether two keys are the same bit for bit (without a branch per entry).
fn same<const M: usize>(a: &[f64; M], b: &[f64; M]) -> bool {
    a.iter()
        .zip(b)
        .fold(0, |differ, (x, y)| differ | (x.to_bits() ^ y.to_bits()))
        == 0
}

/// The hash slot where a search for `key`'s class starts: its entries' bits, each times its
/// own small odd factor (so that permuted rows differ), summed, folded and mixed by a
/// multiplication whose top bits are the slot.
fn slot_of<const M: usize>(key: &[f64; M]) -> usize {
    let mut sum = 0u64;
    for (x, factor) in key.iter().zip([1u64, 3, 5, 9, 7, 11, 13, 15]) {
        sum = sum.wrapping_add(x.to_bits().wrapping_mul(factor));
    }
    let mixed = (sum ^ (sum >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> (u64::BITS - SLOT_BITS)) as usize
}
