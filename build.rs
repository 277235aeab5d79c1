//! Generates the C header with cbindgen when the `ffi` feature is on.
//!
//! The header goes into `OUT_DIR` on every build; it is copied into `include/` only when
//! `FAIRSCHED_WRITE_HEADER=1` is set (`scripts/update-header`), so an ordinary build never
//! writes into the source tree. A test compares the two and fails when `include/` is stale.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-env-changed=FAIRSCHED_WRITE_HEADER");
    #[cfg(feature = "ffi")]
    header::generate();
}

#[cfg(feature = "ffi")]
mod header {
    use std::env;
    use std::path::PathBuf;

    pub fn generate() {
        let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
        let out_dir = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));
        let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
            .expect("cbindgen.toml is readable and valid");
        let generated = out_dir.join("fairsched.h");
        // Only the ABI: src/ffi/mod.rs and the modules it declares, not the core behind them.
        cbindgen::Builder::new()
            .with_config(config)
            .with_src(crate_dir.join("src/ffi/mod.rs"))
            .generate()
            .expect("the C ABI in src/ffi can be expressed in C")
            .write_to_file(&generated);
        if env::var("FAIRSCHED_WRITE_HEADER").as_deref() == Ok("1") {
            std::fs::copy(&generated, crate_dir.join("include/fairsched.h"))
                .expect("include/ is writable");
        }
    }
}
