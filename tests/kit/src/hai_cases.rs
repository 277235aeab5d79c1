//! Random HAI batches for property tests: small, valid, and full of the edges that matter.
//!
//! Tables hold whole numbers, so every sum of JCTs is exact and "Σ JCT never increases" can be
//! checked to the last bit. Half the jobs have the U shape of ReB's Fig. 1 (work shared by the
//! cores plus an overhead growing with them); the others are arbitrary, so tables are often
//! not convex, rises can be negative and JCTs tie. Most jobs wait for cores at 0 (`+∞`); the
//! others give a finite estimate. Capacities are often not multiples of θ.

use fairsched::hai::Batch;
use quickcheck::{Arbitrary, Gen};

/// A batch and a current allocation that fits it (for rebalancing).
#[derive(Clone, Debug)]
pub struct Case {
    pub capacity: u32,
    pub theta: u32,
    pub caps: Vec<u32>,
    pub jct: Vec<f64>,
    /// One allocation per job, in cores: multiples of θ within the caps and the capacity.
    pub current: Vec<u32>,
}

/// What cases to draw.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    pub min_jobs: usize,
    pub max_jobs: usize,
    pub max_steps: u32,
    pub max_capacity_steps: u32,
    /// Every table U-shaped, none arbitrary.
    pub u_shaped_only: bool,
}

/// The cases property tests use: up to 7 jobs, 8 steps a table, 20 steps of capacity.
pub const SMALL: Kind = Kind {
    min_jobs: 0,
    max_jobs: 7,
    max_steps: 8,
    max_capacity_steps: 20,
    u_shaped_only: false,
};

impl Case {
    pub fn batch(&self) -> Batch<'_> {
        Batch {
            capacity: self.capacity,
            theta: self.theta,
            caps: &self.caps,
            jct: &self.jct,
        }
    }

    /// A random case of `kind`.
    pub fn generate(g: &mut Gen, kind: Kind) -> Case {
        let theta = u32::from(u8::arbitrary(g) % 3) + 1;
        let jobs = kind.min_jobs + usize::arbitrary(g) % (kind.max_jobs - kind.min_jobs + 1);
        let mut caps = Vec::new();
        let mut jct = Vec::new();
        for _ in 0..jobs {
            let steps = u32::arbitrary(g) % kind.max_steps + 1;
            caps.push(steps * theta);
            jct.extend(table(g, steps, kind.u_shaped_only));
        }
        let capacity =
            theta * (u32::arbitrary(g) % kind.max_capacity_steps + 1) + u32::arbitrary(g) % theta;
        // Some jobs hold cores, within their cap and what is left of the capacity.
        let mut free = capacity / theta;
        let current = caps
            .iter()
            .map(|&cap| {
                let held = match u8::arbitrary(g) % 3 {
                    0 => 0,
                    _ => u32::arbitrary(g) % ((cap / theta).min(free) + 1),
                };
                free -= held;
                held * theta
            })
            .collect();
        Case {
            capacity,
            theta,
            caps,
            jct,
            current,
        }
    }

    /// The case without job `j`.
    pub fn without(&self, j: usize) -> Case {
        let start: usize = self.caps[..j]
            .iter()
            .map(|&cap| (cap / self.theta) as usize + 1)
            .sum();
        let len = (self.caps[j] / self.theta) as usize + 1;
        let mut case = self.clone();
        case.caps.remove(j);
        case.current.remove(j);
        case.jct.drain(start..start + len);
        case
    }
}

/// A table over `steps` steps: JCT(0) first, whole numbers.
fn table(g: &mut Gen, steps: u32, u_shaped_only: bool) -> Vec<f64> {
    let waiting = match u8::arbitrary(g) % 4 {
        0 => f64::from(u16::arbitrary(g) % 200 + 1),
        _ => f64::INFINITY,
    };
    let u_shaped = u_shaped_only || bool::arbitrary(g);
    let work = f64::from(u16::arbitrary(g) % 400 + 1);
    let overhead = f64::from(u8::arbitrary(g) % 6);
    let mut table = vec![waiting];
    table.extend((1..=steps).map(|a| {
        if u_shaped {
            (work / f64::from(a)).round() + overhead * f64::from(a) + 1.0
        } else {
            f64::from(u8::arbitrary(g) % 40 + 1)
        }
    }));
    table
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Self {
        Case::generate(g, SMALL)
    }

    /// Fewer jobs: drop one at a time (allocations stay valid).
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let case = self.clone();
        Box::new((0..case.caps.len()).rev().map(move |j| case.without(j)))
    }
}
