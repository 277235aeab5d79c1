//! fairsched's C ABI as a static and a shared library (`libfairsched.a`, `libfairsched.so`):
//! every export of the core's `ffi` module (the `ffi` feature), declared in
//! `include/fairsched.h`. Nothing is defined here; this crate only gives cargo a place to
//! declare the library kinds, so that the core stays an ordinary `rlib` for Rust callers and a
//! `no_std` build needs no panic handler.

pub use ::fairsched::ffi::*;
