//! libFuzzer entry point: see `fairsched_fuzz::drr`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_fuzz::drr::run(data));
