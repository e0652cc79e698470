//! A check of the test suites (`tests/suite.rs`, `cli/tests/suite.rs`),
//! which both include this file: with `autotests = false`, a test file
//! that its suite does not name as a module would never build.

/// Every `.rs` file of the package's `tests/` directory is one of its
/// suite's modules (`mod NAME;`, or `#[path = "NAME.rs"]`).
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
