//! Where the Mesa corpus is, for the tests that compare against it.
//!
//! The corpus sits beside the checkout (`../shared/corpus/mesa`), not in
//! the published crate. Without it, a corpus test prints a note and
//! passes vacuously, so that `cargo test` of the unpacked crate passes on
//! its own; with `GENEU_REQUIRE_CORPUS` set (as `.ci/run` sets it) an
//! absent corpus fails the test instead.
#![allow(dead_code)]

use std::path::PathBuf;

/// The variable that makes an absent corpus an error.
pub const REQUIRE: &str = "GENEU_REQUIRE_CORPUS";

/// The corpus root (`…/shared/corpus/mesa`), or `None`, after a note, when
/// it is absent and [`REQUIRE`] is not set.
///
/// # Panics
///
/// When the corpus is absent and [`REQUIRE`] is set.
#[track_caller]
pub fn mesa() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mesa");
    if dir.is_dir() {
        return Some(dir);
    }
    let caller = std::panic::Location::caller();
    assert!(
        std::env::var_os(REQUIRE).is_none(),
        "{caller}: the corpus is not at {} and {REQUIRE} is set",
        dir.display()
    );
    eprintln!("note: {caller}: skipped, the corpus is not at {}", dir.display());
    None
}

/// Whether the corpus is absent (after a note; see [`mesa`]): a corpus
/// test returns at once when it is.
#[track_caller]
pub fn absent() -> bool {
    mesa().is_none()
}
