//! Shared helpers of the benches: reading the Mesa corpus.

/// Where the corpus is (`tests/corpus/mod.rs`, the tests' one home of it).
#[path = "../../tests/corpus/mod.rs"]
mod corpus;

/// Every instruction word of the `.expected` files of one corpus platform
/// directory (`gen7`, `gen7.5`, `gen8`), files in name order.
///
/// # Panics
///
/// When the corpus is absent: the benches measure on it.
pub fn corpus_words(gen: &str) -> Vec<[u8; 16]> {
    let dir = corpus::dir().join(gen);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the benches read the Mesa corpus, not at {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "expected")) {
        for line in std::fs::read_to_string(f).unwrap().lines() {
            let v: Vec<u8> = line
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect();
            if let Ok(a) = v.try_into() {
                out.push(a);
            }
        }
    }
    out
}
