//! The fuzz harness (`fairsched_testkit::fuzz`, one target per algorithm, through the C ABI:
//! the same code the libFuzzer targets of fuzz/ call) on stable, as part of `cargo test`: every
//! input kept in fuzz/corpus/<target>/ (the corpus libFuzzer grew, including every input that
//! once found a bug) and a few hundred seeded random inputs per target. So the no-harm contract
//! and the invariants are checked on every run, even where cargo-fuzz and nightly are not
//! installed; `scripts/fuzz` explores further with libFuzzer.
use fairsched_testkit::fuzz as harness;
use fairsched_testkit::rng;
use std::fs;
use std::path::Path;

/// Every file of every target's corpus, run through its target.
#[test]
fn saved_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let mut inputs = 0;
    for (target, run) in harness::TARGETS {
        let Ok(entries) = fs::read_dir(corpus.join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            // Printed only when the test fails: names the input that failed.
            println!("{}", path.display());
            run(&fs::read(&path).unwrap());
            inputs += 1;
        }
    }
    println!("{inputs} inputs");
}

/// Random byte strings of up to 1 KiB, 300 a target, the same on every run.
#[test]
fn seeded_random_inputs() {
    for (seed, (target, run)) in harness::TARGETS.into_iter().enumerate() {
        let mut random = rng::SplitMix(seed as u64);
        for case in 0..300 {
            let len = random.below(1024) as usize;
            let input: Vec<u8> = (0..len).map(|_| random.next() as u8).collect();
            println!("{target}, case {case}");
            run(&input);
        }
    }
}
