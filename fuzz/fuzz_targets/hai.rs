//! libFuzzer entry point: see `fairsched_fuzz::hai`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_fuzz::hai::run(data));
