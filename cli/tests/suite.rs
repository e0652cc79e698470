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
mod text_disasm_cli;

/// Every `.rs` file beside this one is one of its modules: with
/// `autotests = false`, a test file not named here would never build.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let me = std::fs::read_to_string(dir.join("suite.rs")).unwrap();
    let mut missing = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".rs") else { continue };
        if stem != "suite" && !me.contains(&format!("mod {stem};")) && !me.contains(&format!("\"{name}\"")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "not modules of {}: {missing:?}",
        dir.join("suite.rs").display()
    );
}
