//! libFuzzer entry point: see `fairsched_testkit::fuzz::paf`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_testkit::fuzz::paf::run(data));
