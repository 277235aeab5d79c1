//! libFuzzer entry point: see `fairsched_fuzz::drf`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_fuzz::drf::run(data));
