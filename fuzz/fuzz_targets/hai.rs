//! libFuzzer entry point: see `fairsched_testkit::fuzz::hai`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_testkit::fuzz::hai::run(data));
