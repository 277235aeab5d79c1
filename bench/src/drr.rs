//! MinFrag workloads at the sizes: one heartbeat of a machine with 4 kinds and a
//! 64-step horizon against 100 pending executors, and one executor scored on 1,000 machines;
//! with the naive MinFrag a direct transcription of Algorithm 1 gives (every formula summed from
//! scratch for every candidate in every round, misfits tried again).

use fairsched::drr::Metric;

/// CPU cores, memory GB, network Gbps, disk MB/s (Fig. 6's machine).
pub const CAPACITY: [f64; 4] = [16.0, 64.0, 10.0, 500.0];
/// Time steps of a machine's horizon.
pub const HORIZON: usize = 64;

/// A deterministic stream of numbers in [0, 1) (a 64-bit LCG): the same workload every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A machine's available series: between 40% and 100% of each capacity at every step.
pub fn machine(seed: u64) -> Vec<f64> {
    let mut rng = Lcg(seed);
    (0..HORIZON * CAPACITY.len())
        .map(|i| CAPACITY[i % CAPACITY.len()] * (0.4 + 0.6 * rng.next()))
        .collect()
}

/// `n` executors of 16 to 64 steps, each step 2% to 17% of each capacity: `(demands, steps)`.
pub fn executors(n: usize, seed: u64) -> (Vec<f64>, Vec<u32>) {
    let mut rng = Lcg(seed);
    let steps: Vec<u32> = (0..n).map(|_| 16 + (rng.next() * 49.0) as u32).collect();
    let total: usize = steps.iter().map(|&t| t as usize).sum();
    let demands = (0..total * CAPACITY.len())
        .map(|i| CAPACITY[i % CAPACITY.len()] * (0.02 + 0.15 * rng.next()))
        .collect();
    (demands, steps)
}

/// `machines` machines' available series back to back.
pub fn cluster(machines: usize) -> Vec<f64> {
    (0..machines as u64).flat_map(machine).collect()
}

/// Algorithm 1 transcribed directly: every round, every pending executor's fit test and every
/// kind's `Σ AR` and `Σ RD` recomputed from scratch. Returns the executors placed, in order.
pub fn naive_min_frag(
    available: &mut [f64],
    mut t_run: usize,
    demands: &[f64],
    steps: &[u32],
    placed: &mut Vec<u32>,
) {
    let m = CAPACITY.len();
    let mut starts = vec![0];
    for &t in steps {
        starts.push(starts.last().unwrap() + t as usize * m);
    }
    placed.clear();
    loop {
        let mut best: Option<(usize, f64)> = None;
        for i in 0..steps.len() {
            if placed.contains(&(i as u32)) {
                continue;
            }
            let demand = &demands[starts[i]..starts[i + 1]];
            let t_i = steps[i] as usize;
            let fits = (0..t_i * m).all(|k| demand[k] <= available[k]);
            if !fits {
                continue;
            }
            let t_star = t_run.min(t_i);
            let theta = (0..m)
                .map(|r| {
                    let have: f64 = (0..t_star).map(|t| available[t * m + r]).sum();
                    let need: f64 = (0..t_star).map(|t| demand[t * m + r]).sum();
                    (have - need) / (t_star as f64 * CAPACITY[r])
                })
                .fold(0.0, f64::max);
            if best.is_none_or(|(_, b)| Metric::Drr.better(theta, b)) {
                best = Some((i, theta));
            }
        }
        let Some((i, _)) = best else { break };
        for (have, need) in available.iter_mut().zip(&demands[starts[i]..starts[i + 1]]) {
            *have -= need;
        }
        t_run = t_run.min(steps[i] as usize);
        placed.push(i as u32);
    }
}
