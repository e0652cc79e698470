//! Gen8's math macros in both syntaxes: the math-macro specifiers print
//! as IGA prints them (`r8.mme0:df`, `-r7.nomme:df`, `(eo)f0.0` on
//! `math.invm`/`math.rsqtm`) and, in Mesa's syntax, as geneu's extension
//! (`.mme0`, `.nomme` in the write mask's or swizzle's place), and read
//! back to the same words; words whose specifier bits name no register
//! keep them through the field annotation.

use geneu::codec::{decode_word, encode_word};
use geneu::text::iga::{assemble_iga_words, IgaDisasm};
use geneu::text::{assemble_words_with, AsmOptions, Disasm};
use geneu::{
    AccessMode, Dst, ExecSize, FlagReg, Instruction, MathFunction, MathMacro, Opcode, Platform, Region, Src, SrcMods,
    Swizzle, Type, WriteMask,
};

const P: Platform = Platform::Gen8;

fn madm() -> Instruction {
    let mut i = Instruction::new(Opcode::Madm, ExecSize::S4);
    i.access_mode = AccessMode::Align16;
    i.dst = Dst::grf(9, 0, Type::DF).with_math_macro(MathMacro::Mme1);
    i.src[0] = Src::grf(20, 0, Type::DF, Region::THREE_SRC).with_math_macro(MathMacro::NoMme);
    i.src[1] = Src::grf(7, 0, Type::DF, Region::THREE_SRC).with_math_macro(MathMacro::NoMme);
    i.src[1].mods = SrcMods::NEGATE;
    i.src[2] = Src::grf(8, 0, Type::DF, Region::THREE_SRC).with_math_macro(MathMacro::Mme0);
    i
}

fn math(f: MathFunction, ty: Type) -> Instruction {
    let mut i = Instruction::new(Opcode::Math, if ty == Type::DF { ExecSize::S4 } else { ExecSize::S8 });
    i.access_mode = AccessMode::Align16;
    i.cond_modifier = f.hw();
    i.flag = FlagReg { nr: 0, subnr: 1 };
    let v = if ty == Type::DF { 2 } else { 4 };
    i.dst = Dst::grf(8, 0, ty).with_math_macro(MathMacro::Mme0);
    i.src[0] = Src::grf(6, 0, ty, Region::new(v, 4, 1).unwrap()).with_math_macro(MathMacro::NoMme);
    i.src[1] = if f == MathFunction::Invm {
        Src::grf(7, 0, ty, Region::new(v, 4, 1).unwrap()).with_math_macro(MathMacro::NoMme)
    } else {
        let mut n = Src::ZERO;
        n.region = Region::new(0, 4, 1).unwrap();
        n
    };
    i
}

/// The word's Mesa-syntax and IGA-syntax texts, each checked to read back
/// to the word.
fn texts(i: &Instruction) -> (String, String) {
    let w = encode_word(P, i).unwrap();
    let d = decode_word(P, w).unwrap();
    let mesa = Disasm::new(P, &d).to_string();
    let back =
        assemble_words_with(P, &format!("{mesa}\n"), AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{mesa}: {e}"));
    assert_eq!(back, vec![w.to_bytes()], "Mesa syntax: {mesa}");
    let iga = IgaDisasm::new(P, &d).to_string();
    let back =
        assemble_iga_words(P, &format!("{iga}\n"), AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{iga}: {e}"));
    assert_eq!(back, vec![w.to_bytes()], "IGA syntax: {iga}");
    (mesa, iga)
}

#[test]
fn madm_prints_and_reads_its_specifiers() {
    let (mesa, iga) = texts(&madm());
    assert!(
        mesa.contains("g9<1>.mme1DF") && mesa.contains("-g7<4,4,1>.nommeDF") && mesa.contains(".mme0DF"),
        "{mesa}"
    );
    assert!(!mesa.contains('['), "no annotation: {mesa}");
    assert!(
        iga.contains("r9.mme1:df") && iga.contains("-r7.nomme:df") && iga.contains("r8.mme0:df"),
        "{iga}"
    );
    assert!(!iga.contains('['), "no annotation: {iga}");
}

#[test]
fn invm_and_rsqrtm_print_their_specifiers_and_early_out_flag() {
    for ty in [Type::DF, Type::F] {
        let (mesa, iga) = texts(&math(MathFunction::Invm, ty));
        assert!(
            mesa.contains("math invm") && mesa.contains(".mme0") && mesa.contains(".nomme"),
            "{mesa}"
        );
        assert!(iga.contains("math.invm") && iga.contains("(eo)f0.1"), "{iga}");
        assert!(
            iga.contains("r8.mme0:") && iga.contains("r6.nomme:") && iga.contains("r7.nomme:"),
            "{iga}"
        );
        assert!(!iga.contains('['), "IGA's own form: {iga}");
        let (mesa, iga) = texts(&math(MathFunction::Rsqrtm, ty));
        assert!(mesa.contains("math rsqrtm") && mesa.contains(".mme0"), "{mesa}");
        assert!(
            iga.contains("math.rsqtm") && iga.contains("(eo)f0.1") && iga.contains("r6.nomme:"),
            "{iga}"
        );
    }
}

#[test]
fn specifier_bits_that_name_no_register_are_kept() {
    let mut i = madm();
    // A write mask of 0xb and swizzle bits above the specifier.
    i.dst.writemask = WriteMask::from_bits_truncate(0xb);
    i.src[0].swizzle = Swizzle(0xa8);
    let (mesa, iga) = texts(&i);
    assert!(iga.contains('['), "{iga}");
    let _ = mesa;
    let mut m = math(MathFunction::Invm, Type::DF);
    m.src[1].swizzle = Swizzle(0x3c);
    texts(&m);
}
