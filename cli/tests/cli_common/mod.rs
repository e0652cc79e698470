//! Running the real `geneu` binary, and corpus files, for the CLI tests.
//!
//! A test that reads the corpus starts with `if corpus_absent() { return; }`:
//! the library's `tests/corpus/mod.rs` (included here) decides, so an
//! absent corpus skips with a note, or fails under `GENEU_REQUIRE_CORPUS`.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

#[path = "../../../tests/corpus/mod.rs"]
pub mod corpus;

/// Whether the corpus is absent, after a note (see `tests/corpus/mod.rs`).
#[track_caller]
pub fn corpus_absent() -> bool {
    corpus::absent()
}

/// A file of the corpus (`gen8/mov.expected`).
pub fn corpus(file: &str) -> PathBuf {
    corpus::dir().join(file)
}

pub fn corpus_text(file: &str) -> String {
    std::fs::read_to_string(corpus(file)).unwrap()
}

/// The binary form of a `.expected` file.
pub fn corpus_bin(file: &str) -> Vec<u8> {
    corpus_text(file)
        .split_whitespace()
        .map(|t| u8::from_str_radix(t, 16).unwrap())
        .collect()
}

/// Runs geneu with `stdin` as standard input; (exit code, stdout bytes,
/// stderr).
pub fn geneu_bytes(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_geneu"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The command may exit without reading everything.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// [`geneu_bytes`] with text output.
pub fn geneu(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let (c, o, e) = geneu_bytes(args, stdin);
    (c, String::from_utf8(o).unwrap(), e)
}

/// A file in the temporary directory, unique to this process and test.
pub fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = std::env::temp_dir().join(format!("geneu-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p
}
