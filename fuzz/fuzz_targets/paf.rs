//! libFuzzer entry point: see `fairsched_fuzz::paf`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_fuzz::paf::run(data));
