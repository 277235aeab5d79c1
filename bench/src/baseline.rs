//! The two baselines every ordering benchmark runs beside the library: what the peers do on
//! every decision (collect the candidates and sort them: Spark's `FairSchedulingAlgorithm`
//! path per offer, YARN's fair-share policy and Mesos' sorter per container), and the fair
//! naive competitor, one pass keeping the smallest key.

/// How a baseline finds the candidate with the smallest (key, id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Collect every candidate, sort by (key, id), take the first.
    Resort,
    /// One pass over the candidates, keeping the smallest (key, id).
    MinScan,
}

impl Pick {
    /// The id of the smallest (key, id) among `candidates` (keys compared by `total_cmp`), or
    /// `None` when there are none. `sorted` is the re-sort's scratch list, reused between calls
    /// as an allocator's would be.
    pub fn smallest(
        self,
        candidates: impl Iterator<Item = (f64, u64)>,
        sorted: &mut Vec<(f64, u64)>,
    ) -> Option<u64> {
        let order = |a: &(f64, u64), b: &(f64, u64)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        match self {
            Pick::Resort => {
                sorted.clear();
                sorted.extend(candidates);
                sorted.sort_by(order);
                sorted.first().map(|&(_, id)| id)
            }
            Pick::MinScan => candidates.min_by(order).map(|(_, id)| id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_picks_take_the_smallest_key_then_the_lower_id() {
        let candidates = [(2.0, 7), (1.0, 9), (1.0, 4), (3.0, 1)];
        for pick in [Pick::Resort, Pick::MinScan] {
            let mut sorted = Vec::new();
            assert_eq!(pick.smallest(candidates.into_iter(), &mut sorted), Some(4));
            assert_eq!(pick.smallest(core::iter::empty(), &mut sorted), None);
        }
    }
}
