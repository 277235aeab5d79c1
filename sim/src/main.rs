//! `fairsched-sim`: replays a workload on a simulated cluster under several policies and prints
//! the comparison. Run with `--help` for the commands, `COMMAND --help` for their options.

use fairsched_sim::cli::{self, Invocation, Usage};
use fairsched_sim::{commands, files};
use std::io::Write;
use std::process::ExitCode;

/// Writes `text` to stdout. A reader that went away (`fairsched-sim ... | head`) ends the run
/// quietly, as Unix tools do; any other failure to write (a full disk) is an error message, never
/// a panic.
fn emit(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fairsched-sim: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The arguments, which must be UTF-8 text.
fn arguments() -> Result<Vec<String>, Usage> {
    std::env::args_os()
        .skip(1)
        .map(|arg| {
            arg.into_string().map_err(|arg| Usage {
                problem: format!("argument {arg:?} is not UTF-8 text"),
                hint: "fairsched-sim --help lists the commands".to_owned(),
            })
        })
        .collect()
}

fn main() -> ExitCode {
    match arguments().and_then(|args| cli::parse(&args)) {
        Ok(Invocation::Help(text)) => emit(&text),
        // The plots first, all or none, and the document only once they are written.
        Ok(Invocation::Run(options)) => match commands::run(&options).and_then(|output| {
            files::write_all(&output.plots)?;
            Ok(output.document.render(options.format))
        }) {
            Ok(text) => emit(&text),
            Err(message) => {
                eprintln!("fairsched-sim: {message}");
                ExitCode::FAILURE
            }
        },
        Err(Usage { problem, hint }) => {
            eprintln!("fairsched-sim: {problem}\n({hint})");
            ExitCode::from(2)
        }
    }
}
