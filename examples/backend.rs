use geneu::build::{g, imm_f, null, BuildErrors, Builder, Predicate};
use geneu::msg::{Common, Message, Urb, UrbOpcode};
use geneu::{CondMod, MathFunction, Platform};

/// `examples/kernel.asm`, written as a compiler backend would write it.
pub fn kernel(p: Platform) -> Result<Vec<u8>, BuildErrors> {
    let mut b = Builder::new(p);
    b.mov(g(10), g(2))?;
    b.mul(g(11), g(10), g(3).vec1())?;
    b.add(g(12), g(11), imm_f(1.0))?;
    b.cmp(CondMod::L, null(), g(12), g(4))?;
    b.push_state();
    b.state_mut().predicate = Some(Predicate::normal(0, 0));
    b.if_()?;
    b.pop_state()?;
    b.math(MathFunction::Inv, g(12), g(12), None)?;
    b.else_()?;
    b.mov(g(12), imm_f(0.0))?;
    b.endif()?;
    b.mov(g(124), g(12))?;
    // A SIMD8 URB write of g123-g127 at offset 1 that ends the thread.
    let mut urb = Urb::new(p, Common::new(5, 0, true).with_eot(), UrbOpcode::Simd8Write);
    urb.global_offset = 1;
    b.send(null(), g(123), &Message::Urb(urb))?;
    Ok(b.finish()?.into_bytes())
}

/// Builds the kernel and checks it against the text assembler's words
/// for `examples/kernel.asm`.
///
/// ```text
/// cargo run --example backend
/// ```
#[allow(dead_code)] // also compiled into the tests, which call `kernel`
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let p = Platform::Gen8;
    let built = kernel(p)?;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let text = std::fs::read_to_string(dir.join("kernel.asm"))?;
    let assembled: Vec<u8> = geneu::text::assemble_words(p, &text)?.concat();
    assert_eq!(built, assembled, "the builder and the assembler disagree");
    let prog = geneu::text::program::Program::decode(p, &built);
    let mut out = String::new();
    prog.write_text(&mut out, &geneu::text::program::TextOptions::default())?;
    print!("{out}");
    println!(
        "// {} instructions, the same bytes as examples/kernel.asm",
        built.len() / 16
    );
    Ok(())
}
