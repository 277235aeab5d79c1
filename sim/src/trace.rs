//! The Google 2011 sub-trace format of the Hawk (USENIX ATC 2015) and Eagle (ACM SoCC 2016)
//! simulators (the Google 2011 cluster trace, Hawk's `GOOG` sub-trace): one job per line, fields
//! separated by spaces:
//!
//! 1. arrival time, in seconds;
//! 2. the number of tasks `x` (at least 1);
//! 3. the job's mean task duration, in seconds (checked to be a number, otherwise unused);
//! 4. to `3 + x`: each task's duration, in seconds (finite and positive).
//!
//! Blank lines are skipped. The first malformed field stops the reading with a
//! [`TraceError`] naming the file, the line and the field.

use crate::workload::{Job, Workload};
use std::fmt;
use std::path::Path;

/// Why a trace could not be read.
#[derive(Debug)]
pub enum TraceError {
    /// The file could not be read.
    Io {
        /// The file.
        file: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// A field is malformed.
    Field {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// The field, from 1.
        field: usize,
        /// What the field is and what is wrong with it.
        problem: String,
    },
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Io { file, error } => write!(f, "{file}: {error}"),
            TraceError::Field {
                file,
                line,
                field,
                problem,
            } => write!(f, "{file}:{line}: field {field}: {problem}"),
        }
    }
}

impl std::error::Error for TraceError {}

/// Reads a Google 2011 sub-trace file.
pub fn read_google(path: &Path) -> Result<Workload, TraceError> {
    read(path, parse_google)
}

/// Reads the trace at `path` with `parse`, which is given the file's name and text.
pub(crate) fn read(
    path: &Path,
    parse: fn(&str, &str) -> Result<Workload, TraceError>,
) -> Result<Workload, TraceError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&file, &text),
        Err(error) => Err(TraceError::Io { file, error }),
    }
}

/// Parses the text of a Google 2011 sub-trace; `file` names it in errors.
pub fn parse_google(file: &str, text: &str) -> Result<Workload, TraceError> {
    let mut jobs = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut fields = Fields::new(file, index + 1, line);
        let arrival = fields.number("arrival time")?;
        let count = fields.next("number of tasks")?;
        let width = count
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                fields.error(format!(
                    "number of tasks {count:?} is not a positive integer"
                ))
            })?;
        fields.number("mean task duration")?;
        let tasks = (1..=width)
            .map(|task| {
                let what = format!("duration of task {task} of {width}");
                match fields.number(&what)? {
                    duration if duration > 0.0 => Ok(duration),
                    duration => Err(fields.error(format!("{what} {duration} is not positive"))),
                }
            })
            .collect::<Result<Vec<f64>, TraceError>>()?;
        if let Ok(extra) = fields.next("") {
            return Err(fields.error(format!(
                "{extra:?} follows the {width} task durations the line announces"
            )));
        }
        jobs.push(Job {
            arrival,
            weight: 1,
            tasks,
            warmup: 1.0,
        });
    }
    Ok(Workload::new(jobs))
}

/// The fields of one line, separated by white space, numbered from 1, read in order (shared
/// with the SWIM reader).
pub(crate) struct Fields<'a> {
    file: &'a str,
    line: usize,
    words: std::str::SplitWhitespace<'a>,
    /// The field last read.
    field: usize,
}

impl<'a> Fields<'a> {
    /// The fields of `line` (numbered from 1) of `file`.
    pub(crate) fn new(file: &'a str, line: usize, text: &'a str) -> Self {
        Fields {
            file,
            line,
            words: text.split_whitespace(),
            field: 0,
        }
    }

    /// An error about the field last read.
    pub(crate) fn error(&self, problem: String) -> TraceError {
        TraceError::Field {
            file: self.file.to_owned(),
            line: self.line,
            field: self.field,
            problem,
        }
    }

    /// The next field, `what` naming it if it is missing.
    pub(crate) fn next(&mut self, what: &str) -> Result<&'a str, TraceError> {
        self.field += 1;
        self.words
            .next()
            .ok_or_else(|| self.error(format!("{what} missing")))
    }

    /// The next field as a finite number.
    pub(crate) fn number(&mut self, what: &str) -> Result<f64, TraceError> {
        let text = self.next(what)?;
        text.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| self.error(format!("{what} {text:?} is not a finite number")))
    }
}
