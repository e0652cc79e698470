//! The backend example builds exactly the words of `examples/kernel.asm`
//! and `examples/kernel.hex`.

#[path = "../examples/backend.rs"]
mod backend;

#[test]
fn backend_example_builds_the_example_kernel() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let text = std::fs::read_to_string(dir.join("kernel.asm")).unwrap();
    let assembled: Vec<u8> = geneu::text::assemble_words(geneu::Platform::Gen8, &text)
        .unwrap()
        .concat();
    let hex: Vec<u8> = std::fs::read_to_string(dir.join("kernel.hex"))
        .unwrap()
        .split_whitespace()
        .map(|t| u8::from_str_radix(t, 16).unwrap())
        .collect();
    let built = backend::kernel(geneu::Platform::Gen8).unwrap();
    assert_eq!(built, assembled);
    assert_eq!(built, hex);
}
