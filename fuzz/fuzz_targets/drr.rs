//! libFuzzer entry point: see `fairsched_testkit::fuzz::drr`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsched_testkit::fuzz::drr::run(data));
