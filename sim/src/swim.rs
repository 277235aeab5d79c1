//! SWIM's Facebook workload format (the SWIM project's FB-2009 and FB-2010 samples, its
//! `workloadSuite/FB-*.tsv`), the source the QKnobler paper (IEEE Transactions on Cloud
//! Computing, 2020, §7.1) took its submission times from: one job a line, fields separated by
//! tabs or spaces:
//!
//! 1. the job's name (any word);
//! 2. submission time, in seconds;
//! 3. the gap to the previous submission, in seconds (checked to be a number, otherwise unused);
//! 4. map input, in bytes;
//! 5. shuffle, in bytes;
//! 6. reduce output, in bytes;
//! 7. and after: ignored (one of the files has an input path there).
//!
//! SWIM gives bytes, not tasks or durations. The tasks follow SWIM's own replay (64 MiB a map
//! and a reducer) and the durations a per-slot throughput; both were chosen once, before any
//! run:
//!
//! | what | value |
//! | --- | --- |
//! | map stage | reads the input, writes the shuffle (a map-only job's output when the shuffle is 0) |
//! | reduce stage | only when the shuffle is not 0: reads the shuffle, writes the output |
//! | tasks of a stage | enough that none reads or writes more than [`SPLIT_BYTES`] (at least one map); equal parts |
//! | task run time | [`TASK_STARTUP`] + its bytes read and written / [`SLOT_THROUGHPUT`] |
//!
//! A map of one full block that writes nothing thus runs 10 s, and no task more than 18 s. The
//! simulator runs one stage a job: reduce tasks follow the maps in the job's task list and do
//! not wait for them to finish (as in the other workloads).
//! Every job has weight 1 and no JVM warm-up.
//!
//! Submission times are at most [`MAX_SECONDS`], byte counts at most what [`MAX_TASKS`] tasks
//! read, and the file's jobs have at most [`MAX_TASKS`] tasks in all; blank lines are skipped.
//! The first malformed field stops the reading with an error naming the file, the line and the
//! field, as the Google trace reader's do.

use crate::trace::{read, Fields, Sign, TraceError};
use crate::workload::{Job, Workload, MAX_SECONDS, MAX_TASKS};
use std::path::Path;

/// Bytes a map reads (an HDFS block) and a reducer is given, as SWIM's replay sets them.
pub const SPLIT_BYTES: f64 = 64.0 * 1024.0 * 1024.0;
/// Bytes a slot reads or writes per second.
pub const SLOT_THROUGHPUT: f64 = 8.0 * 1024.0 * 1024.0;
/// Seconds every task spends before it moves data (JVM start, scheduling).
pub const TASK_STARTUP: f64 = 2.0;

/// Reads a SWIM Facebook workload file.
pub fn read_swim(path: &Path) -> Result<Workload, TraceError> {
    read(path, parse_swim)
}

/// Parses the text of a SWIM workload; `file` names it in errors.
pub fn parse_swim(file: &str, text: &str) -> Result<Workload, TraceError> {
    let mut jobs = Vec::new();
    let mut total = 0;
    for (index, line) in text.lines().enumerate() {
        if line.trim_ascii().is_empty() {
            continue;
        }
        let mut fields = Fields::new(file, index + 1, line);
        fields.next("job name")?;
        let arrival = fields.number("submission time", Sign::NotNegative, MAX_SECONDS)?;
        fields.number("gap to the previous submission", Sign::Any, f64::INFINITY)?;
        let mut bytes = |what: &str| fields.number(what, Sign::NotNegative, MAX_BYTES);
        let input = bytes("map input bytes")?;
        let shuffle = bytes("shuffle bytes")?;
        let output = bytes("reduce output bytes")?;
        let stages = stages(input, shuffle, output);
        let count: usize = stages.iter().map(|&(count, _)| count).sum();
        if count > MAX_TASKS - total {
            return Err(fields.error(format!(
                "the job's {count} tasks bring the file's past {MAX_TASKS}, the most the \
                 simulator replays"
            )));
        }
        total += count;
        jobs.push(Job {
            arrival,
            weight: 1,
            warmup: 1.0,
            tasks: stages
                .iter()
                .flat_map(|&(count, run_time)| std::iter::repeat_n(run_time, count))
                .collect(),
        });
    }
    Ok(Workload::new(jobs))
}

/// The most bytes a field may give: a stage of that many has [`MAX_TASKS`] tasks.
const MAX_BYTES: f64 = MAX_TASKS as f64 * SPLIT_BYTES;

/// A job's stages, maps then reduces (none without a shuffle), each as its tasks and their
/// run time (see the module documentation).
fn stages(input: f64, shuffle: f64, output: f64) -> Vec<(usize, f64)> {
    let stage = |read: f64, written: f64, at_least: f64| {
        let count = (read.max(written) / SPLIT_BYTES).ceil().max(at_least) as usize;
        (
            count,
            TASK_STARTUP + (read + written) / count as f64 / SLOT_THROUGHPUT,
        )
    };
    if shuffle == 0.0 {
        vec![stage(input, output, 1.0)]
    } else {
        vec![stage(input, shuffle, 1.0), stage(shuffle, output, 0.0)]
    }
}
