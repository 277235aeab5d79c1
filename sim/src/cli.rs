//! The command line: `fairsched-sim [COMMAND] [OPTIONS]`, a command per comparison (replay when
//! none is given), each with its own options and its own help. An option of another command,
//! a mode flag of the old command line (`--paf`) or a malformed value is a [`Usage`] error that
//! says what is wrong and where the options are listed; nothing is silently ignored.

use crate::document::Format;
use crate::policy::{PolicyKind, Profiler};
use crate::synthetic::CFQ_PAPER_JOBS;
use std::io::IsTerminal;
use std::path::PathBuf;

/// A command of the simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Replay a workload under the slot policies (the default).
    Replay,
    /// DRF, QKnobler and Tetris on multi-resource machines.
    Packing,
    /// The PAF paper's static comparison.
    Paf,
    /// The PAF paper's comparison over time.
    PafDynamic,
    /// ReB's static comparison.
    Reb,
    /// ReB's allocators over time.
    RebDynamic,
    /// Elasecutor's comparison.
    Elastic,
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Invocation {
    /// Print this help text.
    Help(String),
    /// Run a command.
    Run(Options),
}

/// A mistake on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Usage {
    /// What is wrong.
    pub problem: String,
    /// Where the options are listed: `fairsched-sim paf --help lists its options`.
    pub hint: String,
}

/// The settings of a run; each command reads its own (the others keep their defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The command.
    pub command: Command,
    /// The seed (default 1): of the workload, the profiling errors, the first batch or run.
    pub seed: u64,
    /// The output format.
    pub format: Format,
    /// A Google 2011 sub-trace to replay.
    pub trace: Option<PathBuf>,
    /// A SWIM day to replay, or whose submission times the packing workload takes.
    pub swim: Option<PathBuf>,
    /// Slots of the cluster (default: the workload's).
    pub slots: Option<u32>,
    /// Replay only the first jobs to arrive.
    pub limit: Option<usize>,
    /// Re-time the arrivals to this offered load.
    pub load: Option<f64>,
    /// Jobs of the synthetic workload.
    pub jobs: usize,
    /// The policies' names, among [`POLICIES`].
    pub policies: Vec<String>,
    /// The largest relative profiling error of `cfq-perturbed`.
    pub error: f64,
    /// Where to write the response-time CDF.
    pub svg: Option<PathBuf>,
    /// Where to write the slowdown bars.
    pub svg_slowdown: Option<PathBuf>,
    /// Show the policy being replayed on stderr.
    pub progress: bool,
    /// `packing`: each job one user whose tasks come in two phases (maps, then reduces).
    pub phases: bool,
}

/// The policy a name stands for, given `--error` and `--seed`.
pub type Named = fn(f64, u64) -> PolicyKind;

/// The policies of the replay by their names on the command line, in the order of its tables,
/// each with the policy it names (given `--error` and `--seed`).
pub const POLICIES: [(&str, Named); 6] = [
    ("fifo", |_, _| PolicyKind::Fifo),
    ("fair", |_, _| PolicyKind::Fair),
    ("srpt", |_, _| PolicyKind::Srpt),
    ("cfq", |_, _| PolicyKind::Cfq(Profiler::Exact)),
    ("cfq-perturbed", |error, seed| {
        PolicyKind::Cfq(Profiler::Perturbed { error, seed })
    }),
    ("cfq-naive", |_, _| PolicyKind::Cfq(Profiler::Naive)),
];

impl Options {
    /// The policies to replay (names not among [`POLICIES`] name none).
    pub fn policies(&self) -> Vec<PolicyKind> {
        self.policies
            .iter()
            .filter_map(|name| POLICIES.iter().find(|(known, _)| known == name))
            .map(|(_, policy)| policy(self.error, self.seed))
            .collect()
    }

    /// Whether `cfq-perturbed` is replayed: the one policy `--error` (and, on a trace,
    /// `--seed`) plays a part in.
    pub fn perturbed(&self) -> bool {
        self.policies.iter().any(|name| name == "cfq-perturbed")
    }
}

/// The most slots a cluster may have: a simulated slot costs memory at every hand-out.
const MAX_SLOTS: u32 = 1_000_000;
/// The most jobs of the synthetic workload (about 13 million tasks).
const MAX_JOBS: usize = 1_000_000;
/// The highest offered load a replay may be re-timed to.
const MAX_LOAD: f64 = 1000.0;

/// An option: its flag, the name of its value (empty for a switch) and what it sets, or what
/// it expected of the value.
struct Opt {
    flag: &'static str,
    value: &'static str,
    set: fn(&mut Options, &str) -> Result<(), &'static str>,
}

/// Every option of every command.
const OPTIONS: [Opt; 14] = [
    Opt {
        flag: "--trace",
        value: "PATH",
        set: |o, v| {
            o.trace = Some(v.into());
            Ok(())
        },
    },
    Opt {
        flag: "--swim",
        value: "PATH",
        set: |o, v| {
            o.swim = Some(v.into());
            Ok(())
        },
    },
    Opt {
        flag: "--slots",
        value: "N",
        set: |o, v| {
            o.slots = Some(
                v.parse()
                    .ok()
                    .filter(|n: &u32| (1..=MAX_SLOTS).contains(n))
                    .ok_or("a whole number from 1 to 1000000")?,
            );
            Ok(())
        },
    },
    Opt {
        flag: "--limit",
        value: "JOBS",
        set: |o, v| {
            o.limit = Some(v.parse().map_err(|_| "a whole number from 0 up")?);
            Ok(())
        },
    },
    Opt {
        flag: "--load",
        value: "L",
        set: |o, v| {
            o.load = Some(
                v.parse()
                    .ok()
                    .filter(|&l: &f64| l > 0.0 && l <= MAX_LOAD)
                    .ok_or("a number above 0, at most 1000")?,
            );
            Ok(())
        },
    },
    Opt {
        flag: "--jobs",
        value: "N",
        set: |o, v| {
            o.jobs = v
                .parse()
                .ok()
                .filter(|&n| n <= MAX_JOBS)
                .ok_or("a whole number from 0 to 1000000")?;
            Ok(())
        },
    },
    Opt {
        flag: "--seed",
        value: "S",
        set: |o, v| {
            o.seed = v.parse().map_err(|_| "a whole number from 0 to 2^64 - 1")?;
            Ok(())
        },
    },
    Opt {
        flag: "--policies",
        value: "LIST",
        set: |o, v| {
            o.policies = v.split(',').map(str::to_owned).collect();
            let known = |name: &String| POLICIES.iter().any(|(known, _)| known == name);
            match o.policies.iter().find(|name| !known(name)) {
                Some(_) => Err("a comma-separated list among fifo, fair, srpt, cfq, \
                                cfq-perturbed and cfq-naive"),
                None => Ok(()),
            }
        },
    },
    Opt {
        flag: "--error",
        value: "E",
        set: |o, v| {
            o.error = v
                .parse()
                .ok()
                .filter(|e: &f64| (0.0..1.0).contains(e))
                .ok_or("a number in [0, 1)")?;
            Ok(())
        },
    },
    Opt {
        flag: "--format",
        value: "F",
        set: |o, v| {
            o.format = match v {
                "text" => Format::Text,
                "csv" => Format::Csv,
                "json" => Format::Json,
                _ => return Err("text, csv or json"),
            };
            Ok(())
        },
    },
    Opt {
        flag: "--svg",
        value: "PATH",
        set: |o, v| {
            o.svg = Some(v.into());
            Ok(())
        },
    },
    Opt {
        flag: "--svg-slowdown",
        value: "PATH",
        set: |o, v| {
            o.svg_slowdown = Some(v.into());
            Ok(())
        },
    },
    Opt {
        flag: "--progress",
        value: "",
        set: |o, _| {
            o.progress = true;
            Ok(())
        },
    },
    Opt {
        flag: "--phases",
        value: "",
        set: |o, _| {
            o.phases = true;
            Ok(())
        },
    },
];

/// What `--format` says in every command's help.
const FORMAT_HELP: &str = "text (default), csv or json: the figures unrounded, the same layout for every command (see sim/README.md)";

/// A command: its name, a line for the list of commands, what its help says of it, and its
/// options with what each does there.
struct Spec {
    command: Command,
    name: &'static str,
    summary: &'static str,
    about: &'static str,
    options: &'static [(&'static str, &'static str)],
}

/// The commands, replay first.
const COMMANDS: [Spec; 7] = [
    Spec {
        command: Command::Replay,
        name: "replay",
        summary: "(the default) replay a workload on a slot cluster under FIFO, FAIR, SRPT and CFQ and compare them",
        about: "replay a workload on a simulated slot cluster under FIFO, FAIR, SRPT and CFQ (with exact, perturbed and naive profiling) and compare them: the CFQ paper's synthetic §V-A workload (as generated, then at load 0.9), a Google 2011 sub-trace or a SWIM Facebook day",
        options: &[
            (
                "--trace",
                "replay a Google 2011 sub-trace (Hawk format) instead of the synthetic workload",
            ),
            (
                "--swim",
                "replay a SWIM Facebook workload (FB-2009 or FB-2010 .tsv) instead: tasks and run times derived from its bytes (see sim/README.md)",
            ),
            (
                "--slots",
                "slots of the cluster, at most 1,000,000 (default: 200 for the synthetic workload, 8000 for a Google trace, as in the CFQ paper, 1200 for SWIM: FB-2009's 600 machines, 2 slots each)",
            ),
            ("--limit", "replay only the first JOBS jobs to arrive"),
            (
                "--load",
                "stretch or compress the arrivals to an offered load of L, at most 1000 (work over the slot-time between the first and the last arrival); without it, the synthetic workload is replayed as generated and at load 0.9, a trace as read",
            ),
            (
                "--jobs",
                "jobs of the synthetic workload, at most 1,000,000 (default 500)",
            ),
            (
                "--seed",
                "seed of the synthetic workload and of cfq-perturbed's profiling errors (default 1)",
            ),
            (
                "--policies",
                "comma-separated, among fifo, fair, srpt, cfq, cfq-perturbed, cfq-naive (default: all of them)",
            ),
            (
                "--error",
                "largest relative profiling error of cfq-perturbed (default 0.2)",
            ),
            ("--format", FORMAT_HELP),
            (
                "--svg",
                "also write the response-time CDF of every policy to PATH (of the last table when there are several)",
            ),
            (
                "--svg-slowdown",
                "also write the mean slowdown of every policy in each job-width bin to PATH (of the last table)",
            ),
            (
                "--progress",
                "show which policy is running on stderr (the default when stderr is a terminal; replays of large traces take seconds a policy)",
            ),
        ],
    },
    Spec {
        command: Command::Packing,
        name: "packing",
        summary: "DRF, QKnobler and Tetris packing multi-resource machines (QKnobler paper)",
        about: "compare DRF, QKnobler (ρ from 1 to 0 in steps of 0.1) and Tetris on multi-resource machines with the QKnobler paper's Table 1 workload: makespan, mean completion and soft fairness",
        options: &[
            ("--seed", "seed of the workload (default 1)"),
            (
                "--swim",
                "submit the jobs at the first 100 submission times of that SWIM day, as the paper does (default: all at 0)",
            ),
            (
                "--phases",
                "each job one user whose tasks come in two phases, its maps then its reduces, packed by QKnobler-C2 (§6.1 C2: First-Fit average demands, s_i^max at every offer, Algorithm 1's decision; ρ = 1 is DRF)",
            ),
            ("--format", FORMAT_HELP),
        ],
    },
    Spec {
        command: Command::Paf,
        name: "paf",
        summary: "PAF against fair sharing on concave progress curves (PAF paper, static)",
        about: "the PAF paper's static simulation (§V-B): 200 jobs with concave progress curves on 800, 2,000 and 8,000 slots, PAF at α = 0.9 and 0.99 against fair sharing",
        options: &[
            ("--seed", "seed of the workload (default 1)"),
            ("--format", FORMAT_HELP),
        ],
    },
    Spec {
        command: Command::PafDynamic,
        name: "paf-dynamic",
        summary: "PAF against FAIR over time, with JVM warm-up (PAF paper)",
        about: "the PAF paper's simulation over time (§V-B): 200 jobs arriving as in the Google trace, JVM warm-up on reused slots, PAF at α = 1, 0.9 and 0.99 re-allocating at every arrival and departure against FAIR, on 800, 2,000 and 8,000 slots",
        options: &[
            ("--seed", "seed of the workload (default 1)"),
            ("--format", FORMAT_HELP),
        ],
    },
    Spec {
        command: Command::Reb,
        name: "reb",
        summary: "HAI against shortest-job-optimal and max-min on batches of jobs (ReB)",
        about: "ReB's static comparison: HAI against shortest-job-optimal and max-min on 20 seeded batches each of 10 to 50 jobs, 200 cores, θ = 1",
        options: &[
            (
                "--seed",
                "seed of the first batch of each size (default 1; the 20 batches of a size have seeds S to S + 19)",
            ),
            ("--format", FORMAT_HELP),
        ],
    },
    Spec {
        command: Command::RebDynamic,
        name: "reb-dynamic",
        summary: "the same allocators as jobs arrive and complete (ReB)",
        about: "ReB's allocators over time: HAI (rebalanced, or re-planned), shortest-job-optimal and max-min re-deciding at each arrival and completion, on batches of 10 to 50 jobs at once and Poisson arrivals at load 0.9 and 1.5, 20 runs each, 200 cores",
        options: &[
            (
                "--seed",
                "seed of the first run of each workload (default 1; the 20 runs have seeds S to S + 19)",
            ),
            ("--format", FORMAT_HELP),
        ],
    },
    Spec {
        command: Command::Elastic,
        name: "elastic",
        summary: "MinFrag with DRR and TRC against Tetris, time-varying executors (Elasecutor)",
        about: "Elasecutor's comparison (§V): 132 applications whose executors' demand varies over time on 35 machines of 4 resource kinds, packed by the core's MinFrag with DRR and with TRC, and by Tetris' alignment reserving the peak (and the series); 5 runs",
        options: &[
            (
                "--seed",
                "seed of the applications (default 1; each run draws their arrivals)",
            ),
            ("--format", FORMAT_HELP),
        ],
    },
];

/// Parses the arguments (without the program's name).
pub fn parse(args: &[String]) -> Result<Invocation, Usage> {
    let replay = &COMMANDS[0];
    match args.first().map(String::as_str) {
        None => replay.parse(args),
        Some("--help" | "-h") => Ok(Invocation::Help(overview())),
        Some("help") => match &args[1..] {
            [] => Ok(Invocation::Help(overview())),
            [name] => Ok(Invocation::Help(spec(name)?.help())),
            [_, extra, ..] => Err(general(format!(
                "help takes one command, not {extra:?} too"
            ))),
        },
        Some(arg) if arg.starts_with('-') => replay.parse(args),
        Some(name) => spec(name)?.parse(&args[1..]),
    }
}

/// The command named `name`.
fn spec(name: &str) -> Result<&'static Spec, Usage> {
    COMMANDS
        .iter()
        .find(|spec| spec.name == name)
        .ok_or_else(|| general(format!("unknown command {name:?}")))
}

/// A mistake that is about no command's options.
fn general(problem: String) -> Usage {
    Usage {
        problem,
        hint: "fairsched-sim --help lists the commands".to_owned(),
    }
}

/// The help without a command: the commands.
fn overview() -> String {
    let mut out = String::from(
        "fairsched-sim: replay workloads on simulated clusters and compare scheduling policies\n\n\
         usage: fairsched-sim [COMMAND] [OPTIONS]\n\
         \x20      fairsched-sim COMMAND --help     (or fairsched-sim help COMMAND): its options\n\n\
         commands:\n",
    );
    for spec in &COMMANDS {
        out.push_str(&entry(spec.name, 11, spec.summary));
    }
    out
}

/// The widest line of the help.
const COLUMNS: usize = 92;

/// `prefix`, then `text` broken between words into lines of at most [`COLUMNS`] (but for a
/// longer word), the lines after the first indented to the width of `prefix`; ends with a
/// newline.
fn wrap(prefix: &str, text: &str) -> String {
    let indent = prefix.chars().count();
    let mut out = prefix.to_owned();
    let mut column = indent;
    for word in text.split_whitespace() {
        let width = word.chars().count();
        if column > indent && column + 1 + width > COLUMNS {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            column = indent;
        } else if column > indent {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += width;
    }
    out.push('\n');
    out
}

/// A line of a list: `name` padded to `width`, then `text` wrapped beside it.
fn entry(name: &str, width: usize, text: &str) -> String {
    wrap(&format!("  {name:<width$}  "), text)
}

impl Spec {
    /// The command's help: what it does, and its options only.
    fn help(&self) -> String {
        let usage = if self.command == Command::Replay {
            "fairsched-sim [replay] [options]".to_owned()
        } else {
            format!("fairsched-sim {} [options]", self.name)
        };
        let mut out = wrap("", &format!("fairsched-sim {}: {}", self.name, self.about));
        out.push_str(&format!("\nusage: {usage}\n\noptions:\n"));
        let named = |flag: &str| {
            let option = OPTIONS.iter().find(|o| o.flag == flag);
            match option.map(|o| o.value) {
                Some("") | None => flag.to_owned(),
                Some(value) => format!("{flag} {value}"),
            }
        };
        let width = self
            .options
            .iter()
            .map(|(flag, _)| named(flag).chars().count())
            .max()
            .unwrap_or(0);
        for (flag, text) in self.options {
            out.push_str(&entry(&named(flag), width, text));
        }
        out.push_str(&entry("--help", width, "this text"));
        out
    }

    /// A mistake in this command's options.
    fn usage(&self, problem: String) -> Usage {
        Usage {
            problem,
            hint: format!("fairsched-sim {} --help lists its options", self.name),
        }
    }

    /// The options in `args`, which must all be this command's.
    fn parse(&self, args: &[String]) -> Result<Invocation, Usage> {
        let mut options = Options {
            command: self.command,
            seed: 1,
            format: Format::Text,
            trace: None,
            swim: None,
            slots: None,
            limit: None,
            load: None,
            jobs: CFQ_PAPER_JOBS,
            policies: POLICIES.map(|(name, _)| name.to_owned()).to_vec(),
            error: 0.2,
            svg: None,
            svg_slowdown: None,
            progress: std::io::stderr().is_terminal(),
            phases: false,
        };
        let mut given = Vec::new();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if arg == "--help" || arg == "-h" {
                return Ok(Invocation::Help(self.help()));
            }
            if let Some(command) = arg.strip_prefix("--").and_then(|name| spec(name).ok()) {
                return Err(general(format!(
                    "{arg} is a command now: fairsched-sim {} [options]",
                    command.name
                )));
            }
            let Some(option) = OPTIONS.iter().find(|o| o.flag == arg) else {
                return Err(match spec(arg) {
                    Ok(command) => general(format!(
                        "{arg}: the command comes first (fairsched-sim {} [options])",
                        command.name
                    )),
                    Err(_) if arg.starts_with('-') => self.usage(format!("unknown option {arg}")),
                    Err(_) => self.usage(format!("unexpected argument {arg:?}")),
                });
            };
            if !self.options.iter().any(|(flag, _)| flag == arg) {
                return Err(self.usage(format!("{arg} does not apply to {}", self.name)));
            }
            let value = if option.value.is_empty() {
                ""
            } else {
                args.next()
                    .ok_or_else(|| self.usage(format!("{arg} needs a value")))?
            };
            (option.set)(&mut options, value)
                .map_err(|expected| self.usage(format!("{arg} {value:?}: expected {expected}")))?;
            given.push(option.flag);
        }
        self.check(&options, &given)?;
        Ok(Invocation::Run(options))
    }

    /// What the options `given` cannot ask for together.
    fn check(&self, options: &Options, given: &[&str]) -> Result<(), Usage> {
        let fail = |problem: String| Err(self.usage(problem));
        if options.trace.is_some() && options.swim.is_some() {
            return fail("--trace and --swim exclude one another".to_owned());
        }
        if self.command != Command::Replay {
            return Ok(());
        }
        let trace = ["--trace", "--swim"]
            .into_iter()
            .find(|flag| given.contains(flag));
        if let (Some(trace), true) = (trace, given.contains(&"--jobs")) {
            return fail(format!(
                "--jobs does not apply to {trace}: it sizes the synthetic workload"
            ));
        }
        let perturbed = options.perturbed();
        if given.contains(&"--error") && !perturbed {
            return fail(
                "--error does not apply: it is cfq-perturbed's, which --policies leaves out"
                    .to_owned(),
            );
        }
        if let (Some(trace), true, false) = (trace, given.contains(&"--seed"), perturbed) {
            return fail(format!(
                "--seed does not apply: with {trace} it seeds cfq-perturbed's errors, which \
                 --policies leaves out"
            ));
        }
        let policies = &options.policies;
        if let Some(twice) = (1..policies.len()).find(|&i| policies[..i].contains(&policies[i])) {
            return fail(format!("--policies names {} twice", policies[twice]));
        }
        if options.svg.is_some() && options.svg == options.svg_slowdown {
            return fail("--svg and --svg-slowdown name the same file".to_owned());
        }
        Ok(())
    }
}
