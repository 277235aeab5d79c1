//! libFuzzer entry point: see `fairsched_fuzz::cfq`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_fuzz::cfq::run(data));
