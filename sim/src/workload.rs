//! Jobs as the simulator sees them: an arrival time, a weight and the run time of each task on
//! one slot (one stage of independent tasks, the setting of the CFQ paper's analysis).

/// The latest arrival and the longest task a workload may have, in seconds (about 317 years:
/// a trace's times may count from the Unix epoch). With [`MAX_TASKS`], a job's slot-time, even
/// profiled 100% too long, and every time a replay at the workload's own load derives stay
/// within the core's domain ([`fairsched::cfq::MAX_TIME`], [`fairsched::cfq::MAX_SLOT_TIME`]).
pub const MAX_SECONDS: f64 = 1e10;
/// The most tasks a workload may have, all its jobs together (400 MB of run times; SWIM's
/// FB-2010 day has 28 million).
pub const MAX_TASKS: usize = 50_000_000;

const _: () = assert!(
    MAX_SECONDS + 2.0 * MAX_TASKS as f64 * MAX_SECONDS <= fairsched::cfq::MAX_TIME
        && 2.0 * MAX_TASKS as f64 * MAX_SECONDS <= fairsched::cfq::MAX_SLOT_TIME
);

/// One job.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// Arrival (submission) time, in seconds.
    pub arrival: f64,
    /// Weight in the fair share (1 for every job the readers and generators produce).
    pub weight: u32,
    /// Run time of each task on one slot, in seconds, in the order the tasks start.
    pub tasks: Vec<f64>,
    /// JVM warm-up benefit factor δ, at least 1 (PAF paper §V-B): a task starting on a slot
    /// whose last task was this job's runs `tasks[i] / δ`. 1 (no warm-up) for every job but
    /// those of the PAF paper's workload over time.
    pub warmup: f64,
}

impl Job {
    /// Slot-time `L`: the job's work on one slot.
    pub fn slot_time(&self) -> f64 {
        self.tasks.iter().sum()
    }

    /// Width: the number of tasks.
    pub fn width(&self) -> usize {
        self.tasks.len()
    }

    /// The longest task, `l`.
    pub fn longest_task(&self) -> f64 {
        self.tasks.iter().copied().fold(0.0, f64::max)
    }
}

/// Jobs in order of arrival (ties keep their given order); job `j` of a run is `jobs()[j]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    jobs: Vec<Job>,
}

impl Workload {
    /// The jobs, sorted by arrival.
    pub fn new(mut jobs: Vec<Job>) -> Self {
        jobs.sort_by(|a, b| a.arrival.total_cmp(&b.arrival));
        Workload { jobs }
    }

    /// The jobs in order of arrival.
    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// The first `limit` jobs to arrive.
    pub fn truncated(mut self, limit: usize) -> Self {
        self.jobs.truncate(limit);
        self
    }

    /// The same jobs with their arrivals (measured from the first) stretched or compressed so
    /// that the offered load on `slots` slots is `load`, as the Hawk simulators' "modified"
    /// Google trace divides arrival times by 5. Unchanged when the load is 0 (one arrival time).
    pub fn at_load(mut self, slots: u32, load: f64) -> Self {
        let now = self.load(slots);
        if let (Some(first), true) = (self.jobs.first().map(|job| job.arrival), now > 0.0) {
            for job in &mut self.jobs {
                job.arrival = first + (job.arrival - first) * now / load;
            }
        }
        self
    }

    /// The total work of all jobs, in slot-seconds.
    pub fn total_work(&self) -> f64 {
        self.jobs.iter().map(Job::slot_time).sum()
    }

    /// Theorem 1's bound on how late CFQ can complete a job against GPS on `slots` slots, as the
    /// core computes it ([`fairsched::cfq::delay_bound`]): `2 l_max + L_max / M`, with `l_max`
    /// the longest task and `L_max` the largest slot-time (weighted or not, with accurate
    /// slot-times). Errors are the core's (no job, or no slot).
    pub fn delay_bound(&self, slots: u32) -> fairsched::Result<f64> {
        let l_max = self.jobs.iter().map(Job::longest_task).fold(0.0, f64::max);
        let big_l_max = self.jobs.iter().map(Job::slot_time).fold(0.0, f64::max);
        fairsched::cfq::delay_bound(l_max, big_l_max, slots)
    }

    /// The offered load on `slots` slots: total work over the slot-time available between the
    /// first and the last arrival (0 with fewer than two distinct arrival times).
    pub fn load(&self, slots: u32) -> f64 {
        let (Some(first), Some(last)) = (self.jobs.first(), self.jobs.last()) else {
            return 0.0;
        };
        let span = last.arrival - first.arrival;
        if span > 0.0 {
            self.total_work() / (span * f64::from(slots))
        } else {
            0.0
        }
    }
}
