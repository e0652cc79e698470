//! Every test of the command line, built as one test binary (one compile
//! and one link, as the library's `tests/suite.rs`). Each file beside
//! this one is a module; `cli_common` holds what they share. Run one
//! file's tests with a filter: `cargo test --release -p geneu-cli --test
//! suite cli_asm::`.

mod cli_common;

mod cli_asm;
mod cli_bringup;
mod cli_cfg;
mod cli_check;
mod cli_compact;
mod cli_fields;
mod cli_iga;
mod cli_json;
mod cli_run;
#[path = "../../tests/suite_files.rs"]
mod suite_files;
mod text_disasm_cli;
