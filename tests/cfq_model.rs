//! Model-based test: random event sequences (valid and invalid) run through the real CFQ and
//! through a naive O(N) reference that keeps jobs in a vector and scans it for every decision.
//! Both use the same arithmetic, so results must agree bit for bit (GPS estimates, whose sums
//! run in a different order, to 1e-12 relative).

use approx::assert_relative_eq;
use fairsched::cfq::{Cfq, Inline, JobInfo, Stats, MAX_SLOT_TIME, MAX_TIME};
use fairsched::Error;
use quickcheck::{Arbitrary, Gen, QuickCheck};

const CAPACITY: usize = 6;

#[derive(Clone, Copy, Debug)]
enum Op {
    Advance(f64),
    SetSlots(f64, u32),
    Arrive(f64, u64, f64, u32),
    SetPending(u64, u32),
    SetPendingBatch([u64; 3], [u32; 3], usize),
    Offer(usize),
    Complete(f64, u64),
    Remove(f64, u64),
    Reprofile(f64, u64, f64),
}

/// Times move forward in small steps, sometimes backwards or to a non-finite value; ids come
/// from a small set so that duplicates, unknown ids and reuse all happen.
fn time(g: &mut Gen, clock: &mut f64) -> f64 {
    match u8::arbitrary(g) % 20 {
        0 => f64::NAN,
        1 => *clock - 1.0,
        2 => f64::INFINITY,
        4 => -MAX_TIME * 2.0,
        3 => *clock,
        _ => {
            *clock += f64::from(u8::arbitrary(g) % 8) * 0.5;
            *clock
        }
    }
}

fn slot_time(g: &mut Gen) -> f64 {
    match u8::arbitrary(g) % 16 {
        0 => 0.0,
        1 => -2.0,
        2 => f64::NAN,
        3 => MAX_SLOT_TIME * 2.0,
        _ => f64::from(u8::arbitrary(g) % 12 + 1) * 0.75,
    }
}

fn id(g: &mut Gen) -> u64 {
    u64::from(u8::arbitrary(g) % 9)
}

#[derive(Clone, Debug)]
struct Script(Vec<Op>);

impl Arbitrary for Script {
    fn arbitrary(g: &mut Gen) -> Self {
        let mut clock = 0.0;
        let ops = (0..usize::arbitrary(g) % 80)
            .map(|_| match u8::arbitrary(g) % 13 {
                0 => Op::Advance(time(g, &mut clock)),
                1 => Op::SetSlots(time(g, &mut clock), u32::from(u8::arbitrary(g) % 4)),
                2 | 3 => Op::Arrive(
                    time(g, &mut clock),
                    id(g),
                    slot_time(g),
                    u32::from(u8::arbitrary(g) % 4),
                ),
                4 => Op::SetPending(id(g), u32::from(u8::arbitrary(g) % 4)),
                5 => Op::SetPendingBatch(
                    [id(g), id(g), id(g)],
                    [1, u32::from(u8::arbitrary(g) % 3), 2],
                    usize::arbitrary(g) % 4,
                ),
                6 | 7 => Op::Offer(usize::arbitrary(g) % 5),
                8 => Op::Complete(time(g, &mut clock), id(g)),
                9 => Op::Remove(time(g, &mut clock), id(g)),
                // Often at the current time, so that jobs are still in GPS to re-profile.
                _ if bool::arbitrary(g) => Op::Reprofile(clock, id(g), slot_time(g)),
                _ => Op::Reprofile(time(g, &mut clock), id(g), slot_time(g)),
            })
            .collect();
        Script(ops)
    }

    /// Shorter scripts: drop one operation at a time.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let ops = self.0.clone();
        Box::new((0..ops.len()).rev().map(move |skip| {
            let mut fewer = ops.clone();
            fewer.remove(skip);
            Script(fewer)
        }))
    }
}

#[derive(Clone, Debug)]
struct RefJob {
    id: u64,
    arrival: f64,
    slot_time: f64,
    weight: u32,
    /// V(arrival), the GPS start tag a re-profile computes the new finish from.
    start: f64,
    finish: f64,
    pending: u32,
    gps_active: bool,
    gps_completion: f64,
    completion: Option<f64>,
    /// Removed by the caller; kept while active in GPS.
    forgotten: bool,
}

/// The naive reference: a vector of jobs, linear scans, the same formulas as the `cfq` module's documentation.
struct Reference {
    slots: u32,
    now: f64,
    anchor_time: f64,
    anchor_virtual: f64,
    jobs: Vec<RefJob>,
}

impl Reference {
    fn total_weight(&self) -> u64 {
        self.jobs
            .iter()
            .filter(|j| j.gps_active)
            .map(|j| u64::from(j.weight))
            .sum()
    }

    fn smallest_active_finish(&self) -> Option<f64> {
        self.jobs
            .iter()
            .filter(|j| j.gps_active)
            .map(|j| j.finish)
            .reduce(f64::min)
    }

    fn virtual_at(&self, t: f64) -> f64 {
        let w = self.total_weight();
        let v = if w == 0 {
            self.anchor_virtual
        } else {
            self.anchor_virtual + (t - self.anchor_time) * f64::from(self.slots) / w as f64
        };
        self.smallest_active_finish().map_or(v, |c| v.min(c))
    }

    fn reanchor(&mut self, t: f64) {
        self.anchor_virtual = self.virtual_at(t);
        self.anchor_time = t;
    }

    fn check_time(&self, t: f64) -> Result<f64, Error> {
        if !t.is_finite() {
            return Err(Error::NotFinite);
        }
        if t.abs() > MAX_TIME {
            return Err(Error::OutOfRange);
        }
        if t < self.now {
            return Err(Error::TimeWentBackwards);
        }
        Ok(t + 0.0)
    }

    fn check_slot_time(slot_time: f64) -> Result<f64, Error> {
        if !slot_time.is_finite() {
            return Err(Error::NotFinite);
        }
        if slot_time <= 0.0 {
            return Err(Error::NotPositive);
        }
        if slot_time > MAX_SLOT_TIME {
            return Err(Error::OutOfRange);
        }
        Ok(slot_time)
    }

    fn advance_gps(&mut self, t: f64) {
        while let Some(first) = self.smallest_active_finish() {
            let w = self.total_weight() as f64;
            let departure = (self.anchor_time
                + (first - self.anchor_virtual) * w / f64::from(self.slots))
            .max(self.anchor_time);
            if departure > t {
                break;
            }
            self.anchor_virtual = first;
            self.anchor_time = departure;
            for job in self
                .jobs
                .iter_mut()
                .filter(|j| j.gps_active && j.finish == first)
            {
                job.gps_active = false;
                job.gps_completion = departure;
            }
            self.release_forgotten();
        }
        self.now = t;
    }

    /// Rows of removed jobs go once GPS has completed them.
    fn release_forgotten(&mut self) {
        self.jobs.retain(|j| !j.forgotten || j.gps_active);
    }

    fn known(&self, id: u64) -> Result<usize, Error> {
        self.jobs
            .iter()
            .position(|j| j.id == id && !j.forgotten)
            .ok_or(Error::UnknownId)
    }

    fn running(&self, id: u64) -> Result<usize, Error> {
        let at = self.known(id)?;
        if self.jobs[at].completion.is_some() {
            return Err(Error::JobCompleted);
        }
        Ok(at)
    }

    fn key(job: &RefJob) -> (f64, f64, u64) {
        (job.finish, job.arrival, job.id)
    }

    fn apply(&mut self, op: Op, out: &mut Vec<u64>) -> Result<(), Error> {
        match op {
            Op::Advance(t) => {
                let t = self.check_time(t)?;
                self.advance_gps(t);
            }
            Op::SetSlots(t, slots) => {
                let t = self.check_time(t)?;
                if slots == 0 {
                    return Err(Error::NotPositive);
                }
                self.advance_gps(t);
                self.reanchor(t);
                self.slots = slots;
            }
            Op::Arrive(t, id, slot_time, weight) => {
                let t = self.check_time(t)?;
                let slot_time = Self::check_slot_time(slot_time)?;
                if weight == 0 {
                    return Err(Error::NotPositive);
                }
                if self.known(id).is_ok() {
                    return Err(Error::DuplicateId);
                }
                if self.jobs.len() >= CAPACITY {
                    return Err(Error::CapacityFull);
                }
                self.advance_gps(t);
                self.reanchor(t);
                let start = self.virtual_at(t);
                self.jobs.push(RefJob {
                    id,
                    arrival: t,
                    slot_time,
                    weight,
                    start,
                    finish: start + slot_time / f64::from(weight),
                    pending: 0,
                    gps_active: true,
                    gps_completion: 0.0,
                    completion: None,
                    forgotten: false,
                });
            }
            Op::SetPending(id, pending) => {
                let at = self.running(id)?;
                self.jobs[at].pending = pending;
            }
            Op::SetPendingBatch(ids, pending, len) => {
                let (ids, pending) = (&ids[..len.min(3)], &pending[..len.min(3).max(len % 3)]);
                if ids.len() != pending.len() {
                    return Err(Error::LengthMismatch);
                }
                for &id in ids {
                    self.running(id)?;
                }
                for (&id, &p) in ids.iter().zip(pending) {
                    let at = self.running(id)?;
                    self.jobs[at].pending = p;
                }
            }
            Op::Offer(k) => {
                for _ in 0..k {
                    let Some(best) = self
                        .jobs
                        .iter_mut()
                        .filter(|j| j.pending > 0)
                        .min_by(|a, b| Self::key(a).partial_cmp(&Self::key(b)).unwrap())
                    else {
                        break;
                    };
                    best.pending -= 1;
                    out.push(best.id);
                }
            }
            Op::Complete(t, id) => {
                let t = self.check_time(t)?;
                let at = self.running(id)?;
                self.advance_gps(t);
                let at = self
                    .jobs
                    .iter()
                    .position(|j| j.id == id && !j.forgotten)
                    .unwrap_or(at);
                self.jobs[at].pending = 0;
                self.jobs[at].completion = Some(t);
            }
            Op::Remove(t, id) => {
                let t = self.check_time(t)?;
                self.known(id)?;
                self.advance_gps(t);
                let at = self.known(id)?;
                let job = &mut self.jobs[at];
                job.pending = 0;
                job.completion.get_or_insert(t);
                job.forgotten = true;
                self.release_forgotten();
            }
            Op::Reprofile(t, id, slot_time) => {
                // As the `cfq` module documents it: the new finish from the start tag; the
                // clock advanced and re-anchored at t; out of GPS at t if V(t) has passed it.
                // Whether GPS has completed the job is judged before advancing; if it has,
                // only the backlog key moves, by the change of slot-time over the weight.
                let t = self.check_time(t)?;
                let slot_time = Self::check_slot_time(slot_time)?;
                let at = self.running(id)?;
                let job = &self.jobs[at];
                let weight = f64::from(job.weight);
                let finish = if job.gps_active {
                    job.start + slot_time / weight
                } else {
                    job.finish + (slot_time - job.slot_time) / weight
                };
                self.advance_gps(t);
                self.reanchor(t);
                let v = self.virtual_at(t);
                let at = self.known(id)?;
                let job = &mut self.jobs[at];
                job.slot_time = slot_time;
                job.finish = finish;
                if job.gps_active && finish <= v {
                    job.gps_active = false;
                    job.gps_completion = t;
                }
            }
        }
        Ok(())
    }

    fn job(&self, id: u64) -> Option<JobInfo> {
        let j = &self.jobs[self.known(id).ok()?];
        Some(JobInfo {
            id: j.id,
            arrival: j.arrival,
            slot_time: j.slot_time,
            weight: j.weight,
            virtual_finish: j.finish,
            pending_tasks: j.pending,
            backlogged: j.pending > 0,
            gps_completion: (!j.gps_active).then_some(j.gps_completion),
            completion: j.completion,
        })
    }

    fn estimate(&self, id: u64) -> Option<f64> {
        let me = self.job(id)?;
        if let Some(done) = me.gps_completion {
            return Some(done);
        }
        let v = self.virtual_at(self.now);
        let work: f64 = self
            .jobs
            .iter()
            .filter(|j| j.gps_active)
            .map(|j| f64::from(j.weight) * (j.finish.min(me.virtual_finish) - v))
            .sum();
        Some(self.now + work / f64::from(self.slots))
    }

    fn stats(&self) -> Stats {
        Stats {
            now: self.now,
            virtual_time: self.virtual_at(self.now),
            slots: self.slots,
            capacity: CAPACITY,
            jobs: self.jobs.iter().filter(|j| !j.forgotten).count(),
            backlogged: self.jobs.iter().filter(|j| j.pending > 0).count(),
            gps_active: self.jobs.iter().filter(|j| j.gps_active).count(),
            rows_in_use: self.jobs.len(),
        }
    }
}

fn agrees(script: Script) -> bool {
    let mut cfq = Cfq::<Inline<CAPACITY>>::new(2, 0.0).unwrap();
    let mut reference = Reference {
        slots: 2,
        now: 0.0,
        anchor_time: 0.0,
        anchor_virtual: 0.0,
        jobs: Vec::new(),
    };
    for (step, &op) in script.0.iter().enumerate() {
        let mut expected_ids = Vec::new();
        let expected = reference.apply(op, &mut expected_ids);
        let before = cfq.stats();
        let mut given = [0; 8];
        let actual = match op {
            Op::Advance(t) => cfq.advance(t),
            Op::SetSlots(t, s) => cfq.set_slots(t, s),
            Op::Arrive(t, id, l, w) => cfq.arrive(t, id, l, w),
            Op::SetPending(id, p) => cfq.set_pending(id, p),
            Op::SetPendingBatch(ids, pending, len) => {
                cfq.set_pending_batch(&ids[..len.min(3)], &pending[..len.min(3).max(len % 3)])
            }
            Op::Offer(k) => {
                let n = cfq.offer(&mut given[..k]);
                assert_eq!(&given[..n], &expected_ids[..], "step {step}: {op:?}");
                Ok(())
            }
            Op::Complete(t, id) => cfq.complete(t, id),
            Op::Remove(t, id) => cfq.remove(t, id),
            Op::Reprofile(t, id, l) => cfq.reprofile(t, id, l),
        };
        assert_eq!(actual, expected, "step {step}: {op:?}");
        if actual.is_err() {
            assert_eq!(
                cfq.stats(),
                before,
                "step {step}: failed {op:?} changed the state"
            );
        }
        assert_eq!(cfq.stats(), reference.stats(), "step {step}: {op:?}");
        for id in 0..9 {
            assert_eq!(cfq.job(id).ok(), reference.job(id), "step {step}: job {id}");
            match (cfq.gps_completion_estimate(id).ok(), reference.estimate(id)) {
                (Some(a), Some(b)) => assert_relative_eq!(a, b, max_relative = 1e-12),
                (a, b) => assert_eq!(a, b),
            }
        }
        let next = reference
            .jobs
            .iter()
            .filter(|j| j.pending > 0)
            .min_by(|a, b| Reference::key(a).partial_cmp(&Reference::key(b)).unwrap())
            .map(|j| j.id);
        assert_eq!(cfq.peek(), next, "step {step}");
    }
    true
}

#[test]
fn cfq_agrees_with_naive_reference() {
    QuickCheck::new()
        .tests(3000)
        .quickcheck(agrees as fn(Script) -> bool);
}
