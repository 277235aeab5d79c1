//! libFuzzer entry point: see `fairsched_testkit::fuzz::cfq`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_testkit::fuzz::cfq::run(data));
