//! Where the test data is: the Mesa corpus, and the bundled example that
//! stands in for it.
//!
//! The corpus sits beside the checkout (`../shared/corpus/mesa`), not in
//! the repository or the published crate. Without it, a corpus test prints
//! one note and passes ([`absent`]), or tests the same property on the
//! bundled example kernel instead ([`mesa_else`], [`example_words`]), so
//! that the README's test command passes in a clone on its own; with
//! `GENEU_REQUIRE_CORPUS` set (as `.ci/run` sets it) an absent corpus fails
//! the test instead.
//!
//! This file is the one home of that rule: the library's test suite
//! (`tests/suite.rs`) has it as its module `corpus`, the command line's
//! tests and unit tests (`cli/`) include it by `#[path]`.
#![allow(dead_code)]

use std::path::PathBuf;

/// The variable that makes an absent corpus an error.
pub const REQUIRE: &str = "GENEU_REQUIRE_CORPUS";

/// The checkout's root: the library's manifest directory, the parent of
/// the command line's (`cli/`).
///
/// The directory is the one cargo names when it runs the test
/// (`CARGO_MANIFEST_DIR` at run time), not the one the test was compiled
/// in, so that a copy of the checkout that reuses the checkout's test
/// binaries (as `.ci/run`'s run without `../shared` does) looks beside
/// the copy. A test binary run by hand falls back to where it was built.
pub fn checkout() -> PathBuf {
    let manifest =
        std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    if env!("CARGO_PKG_NAME") == "geneu-cli" {
        manifest.join("..")
    } else {
        manifest
    }
}

/// Where the corpus is looked for (`…/shared/corpus/mesa`), whether or not
/// it is there. Tests call [`mesa`] or [`absent`] first.
pub fn dir() -> PathBuf {
    checkout().join("../shared/corpus/mesa")
}

/// The corpus root, or `None`, after a note saying the test is skipped,
/// when it is absent and [`REQUIRE`] is not set.
///
/// # Panics
///
/// When the corpus is absent and [`REQUIRE`] is set.
#[track_caller]
pub fn mesa() -> Option<PathBuf> {
    mesa_else("skipped")
}

/// [`mesa`], whose note says what the test does `instead` (as "tested on
/// the bundled example instead").
///
/// # Panics
///
/// When the corpus is absent and [`REQUIRE`] is set.
#[track_caller]
pub fn mesa_else(instead: &str) -> Option<PathBuf> {
    let dir = dir();
    if dir.is_dir() {
        return Some(dir);
    }
    let caller = std::panic::Location::caller();
    assert!(
        std::env::var_os(REQUIRE).is_none(),
        "{caller}: the corpus is not at {} and {REQUIRE} is set",
        dir.display()
    );
    // Straight to stderr, which the test harness does not capture (it
    // captures `eprintln!`), so the note shows when the test passes.
    let note = format!("note: {caller}: {instead}, the corpus is not at {}\n", dir.display());
    let _ = std::io::Write::write_all(&mut std::io::stderr(), note.as_bytes());
    None
}

/// Whether the corpus is absent (after a note; see [`mesa`]): a corpus
/// test returns at once when it is.
#[track_caller]
pub fn absent() -> bool {
    mesa().is_none()
}

/// The bundled example kernel's text (`examples/kernel.asm`, Gen8, in
/// Mesa's syntax as the disassembler prints it).
pub fn example_asm() -> PathBuf {
    checkout().join("examples/kernel.asm")
}

/// The bundled example kernel's words (`examples/kernel.hex`, in the
/// corpus's `.expected` form).
pub fn example_hex() -> PathBuf {
    checkout().join("examples/kernel.hex")
}

/// The words of [`example_hex`].
///
/// # Panics
///
/// When the file is missing or not 16 hex bytes a line.
pub fn example_words() -> Vec<[u8; 16]> {
    let hex = std::fs::read_to_string(example_hex()).expect("examples/kernel.hex");
    hex.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let bytes: Vec<u8> = l
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).expect("a hex byte"))
                .collect();
            bytes.try_into().expect("16 bytes a line")
        })
        .collect()
}
