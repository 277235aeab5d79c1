//! The Google 2011 sub-trace format of the Hawk (USENIX ATC 2015) and Eagle (ACM SoCC 2016)
//! simulators (the Google 2011 cluster trace, Hawk's `GOOG` sub-trace): one job per line, fields
//! separated by spaces:
//!
//! 1. arrival time, in seconds;
//! 2. the number of tasks `x` (at least 1);
//! 3. the job's mean task duration, in seconds (checked to be a number from 0 up, otherwise
//!    unused);
//! 4. to `3 + x`: each task's duration, in seconds (finite and positive).
//!
//! Blank lines are skipped. Arrival times are at most [`MAX_SECONDS`], as task durations are,
//! and the trace at most [`MAX_TASKS`] tasks in all. The first malformed field (not UTF-8 text,
//! not a number, out of range) stops the reading with a [`TraceError`] naming the file, the
//! line and the field.

use crate::workload::{Job, Workload, MAX_SECONDS, MAX_TASKS};
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
    let bytes = std::fs::read(path).map_err(|error| TraceError::Io {
        file: file.clone(),
        error,
    })?;
    match std::str::from_utf8(&bytes) {
        Ok(text) => parse(&file, text),
        Err(error) => Err(not_utf8(file, &bytes, error.valid_up_to())),
    }
}

/// The error for the byte at `at` of `bytes`, the first that is not UTF-8 text.
fn not_utf8(file: String, bytes: &[u8], at: usize) -> TraceError {
    let line_start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |newline| newline + 1);
    // The fields up to the byte, which starts or continues the last of them (it is not white
    // space), counted as [`Fields`] counts them.
    let before = String::from_utf8_lossy(&bytes[line_start..=at]);
    TraceError::Field {
        file,
        line: bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1,
        field: before.split_ascii_whitespace().count(),
        problem: format!("byte {:#04x} is not UTF-8 text", bytes[at]),
    }
}

/// Parses the text of a Google 2011 sub-trace; `file` names it in errors.
pub fn parse_google(file: &str, text: &str) -> Result<Workload, TraceError> {
    let mut jobs = Vec::new();
    let mut total = 0;
    for (index, line) in text.lines().enumerate() {
        if line.trim_ascii().is_empty() {
            continue;
        }
        let mut fields = Fields::new(file, index + 1, line);
        let arrival = fields.number("arrival time", Sign::NotNegative, MAX_SECONDS)?;
        let count = fields.next("number of tasks")?;
        if count.is_empty()
            || !count.bytes().all(|b| b.is_ascii_digit())
            || count.bytes().all(|b| b == b'0')
        {
            return Err(fields.error(format!(
                "number of tasks {count:?} is not a positive integer"
            )));
        }
        let width = count
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= MAX_TASKS - total)
            .ok_or_else(|| {
                fields.error(format!(
                    "number of tasks {count} brings the trace's past {MAX_TASKS}, the most the \
                     simulator replays"
                ))
            })?;
        total += width;
        fields.number("mean task duration", Sign::NotNegative, f64::INFINITY)?;
        let tasks = (1..=width)
            .map(|task| {
                let what = format!("duration of task {task} of {width}");
                fields.number(&what, Sign::Positive, MAX_SECONDS)
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

/// Where a field's number may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sign {
    /// Anywhere.
    Any,
    /// At 0.
    NotNegative,
    /// Above 0.
    Positive,
}

/// The fields of one line, separated by white space, numbered from 1, read in order (shared
/// with the SWIM reader).
pub(crate) struct Fields<'a> {
    file: &'a str,
    line: usize,
    words: std::str::SplitAsciiWhitespace<'a>,
    /// The field last read.
    field: usize,
}

impl<'a> Fields<'a> {
    /// The fields of `line` (numbered from 1) of `file`.
    pub(crate) fn new(file: &'a str, line: usize, text: &'a str) -> Self {
        Fields {
            file,
            line,
            words: text.split_ascii_whitespace(),
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

    /// The next field as a finite number from `sign` up to `max` (none when infinite), `what`
    /// naming it.
    pub(crate) fn number(&mut self, what: &str, sign: Sign, max: f64) -> Result<f64, TraceError> {
        let text = self.next(what)?;
        let at_most = if max.is_finite() {
            format!(" (at most {max})")
        } else {
            String::new()
        };
        let problem = match text.parse::<f64>() {
            // A number too large for a double reads as infinite.
            Ok(x) if x.is_infinite() && !text.to_ascii_lowercase().contains("inf") => {
                format!("{what} {text} is too large{at_most}")
            }
            Ok(x) if !x.is_finite() => format!("{what} {text:?} is not a finite number"),
            Ok(x) if sign == Sign::NotNegative && x < 0.0 => format!("{what} {x} is negative"),
            Ok(x) if sign == Sign::Positive && x <= 0.0 => format!("{what} {x} is not positive"),
            Ok(x) if x > max => format!("{what} {x} is too large{at_most}"),
            // + 0.0 makes -0 0: times order like their bits only from +0 up.
            Ok(x) => return Ok(x + 0.0),
            Err(_) => format!("{what} {text:?} is not a finite number"),
        };
        Err(self.error(problem))
    }
}
