//! A small vISA-style kernel lowered end to end and printed as Mesa-syntax
//! assembly, for Ivy Bridge, Haswell and Broadwell.
//!
//! ```text
//! cargo run --release --example visa_program [ivb|hsw|bdw|chv]
//! ```
//!
//! The kernel (vISA text, SIMD16 unless stated):
//!
//! ```text
//! mov  (16)     V2(0,0)<1>  V0(0,0)<8;8,1>
//! add  (16)     V2(0,0)<1>  V2(0,0)<8;8,1>  V1(0,0)<8;8,1>
//! mul  (16)     V3(0,0)<1>  V2(0,0)<8;8,1>  1.5:f
//! cmp.lt (16)   P1          V3(0,0)<8;8,1>  V1(0,0)<8;8,1>
//! (P1) sel (16) V4(0,0)<1>  V3(0,0)<8;8,1>  V1(0,0)<8;8,1>
//! add  (16)     V7(0,0)<1>  V5(0,0)<4;4,1>  V6(0,0)<4;4,1>       // DF
//! sqrt (16)     V4(0,0)<1>  (abs)V4(0,0)<8;8,1>
//! gather4_typed.RGBA (8) T1 V8 V9 %null %null V10                     // U, V
//! ```
//!
//! On Ivy Bridge the DF add counts its regions in floats and, under the
//! execution mask, runs in four parts of 4 doubles (each an `add(8)` at
//! its channel group, as Mesa emits them); on Haswell and Broadwell it is
//! native, two halves of 8 doubles.

use geneu::text::program::{Program, TextOptions};
use geneu::visa::*;
use geneu::{encode_word, ExecSize, FlagReg, Instruction, Platform};

/// One vISA instruction of the kernel: its text and its lowering.
pub struct Lowered {
    /// The vISA text.
    pub visa: &'static str,
    /// The hardware instructions.
    pub insts: Vec<Instruction>,
}

fn src(id: u32, v: u32, w: u32, h: u32) -> VecOperand {
    VecOperand::general(id, 0, 0, VisaRegion::new(Some(v), w, h).unwrap_or_default())
}

fn dst(id: u32) -> Result<VecOperand, VisaError> {
    VecOperand::general_dst(id, 0, 0, 1).ok_or(VisaError::Unsupported {
        what: "example",
        why: "bad destination stride",
    })
}

/// The kernel's variables: where the caller's register allocator put them.
pub fn variables() -> VarTable {
    let mut v = VarTable::new();
    v.add_general(VisaType::F, 16, 2 * 32); // V0: g2-g3
    v.add_general(VisaType::F, 16, 4 * 32); // V1: g4-g5
    v.add_general(VisaType::F, 16, 6 * 32); // V2: g6-g7
    v.add_general(VisaType::F, 16, 8 * 32); // V3: g8-g9
    v.add_general(VisaType::F, 16, 10 * 32); // V4: g10-g11
    v.add_general(VisaType::DF, 16, 12 * 32); // V5: g12-g15
    v.add_general(VisaType::DF, 16, 16 * 32); // V6: g16-g19
    v.add_general(VisaType::DF, 16, 20 * 32); // V7: g20-g23
    v.add_general(VisaType::UD, 8, 24 * 32); // V8: U, g24
    v.add_general(VisaType::UD, 8, 25 * 32); // V9: V, g25
    v.add_general(VisaType::F, 32, 26 * 32); // V10: RGBA, g26-g29
    v.add_predicate(16, FlagReg { nr: 0, subnr: 0 }); // P1: f0.0
    v
}

/// Registers set aside for the lowering.
pub fn context() -> LowerCtx {
    LowerCtx {
        temp_grf: Some(120),
        scratch_flag: Some(FlagReg { nr: 1, subnr: 0 }),
        payload_grf: Some(110),
    }
}

/// Lowers the kernel for `p`.
pub fn lower_program(p: Platform) -> Result<Vec<Lowered>, VisaError> {
    let vars = variables();
    let ctx = context();
    let x16 = ExecCtl::new(ExecSize::S16);
    let row = |id| src(id, 8, 8, 1);
    let alu = [
        (
            "mov (16) V2(0,0)<1> V0(0,0)<8;8,1>",
            VisaInst::new(VisaOp::Mov, x16, dst(2)?, &[row(0)]),
        ),
        (
            "add (16) V2(0,0)<1> V2(0,0)<8;8,1> V1(0,0)<8;8,1>",
            VisaInst::new(VisaOp::Add, x16, dst(2)?, &[row(2), row(1)]),
        ),
        (
            "mul (16) V3(0,0)<1> V2(0,0)<8;8,1> 1.5:f",
            VisaInst::new(VisaOp::Mul, x16, dst(3)?, &[row(2), VecOperand::imm(Immediate::f(1.5))]),
        ),
        (
            "cmp.lt (16) P1 V3(0,0)<8;8,1> V1(0,0)<8;8,1>",
            VisaInst::new(VisaOp::Cmp(RelOp::Lt), x16, VecOperand::pred(1), &[row(3), row(1)]),
        ),
        (
            "(P1) sel (16) V4(0,0)<1> V3(0,0)<8;8,1> V1(0,0)<8;8,1>",
            VisaInst::new(VisaOp::Sel, x16, dst(4)?, &[row(3), row(1)]).with_pred(PredCtl::new(1)),
        ),
        (
            "add (16) V7(0,0)<1> V5(0,0)<4;4,1> V6(0,0)<4;4,1>   // DF",
            VisaInst::new(VisaOp::Add, x16, dst(7)?, &[src(5, 4, 4, 1), src(6, 4, 4, 1)]),
        ),
        (
            "sqrt (16) V4(0,0)<1> (abs)V4(0,0)<8;8,1>",
            VisaInst::new(VisaOp::Sqrt, x16, dst(4)?, &[row(4).with_modifier(Modifier::Abs)]),
        ),
    ];
    let mut out = Vec::new();
    for (visa, inst) in alu {
        out.push(Lowered {
            visa,
            insts: lower(p, &vars, &ctx, &inst)?,
        });
    }
    let raw = |id| RawOperand { id, offset: 0 };
    let mut gather = VisaGather4Typed::new(0b1111, Surface::Bti(1), raw(8), raw(10));
    gather.v = Some(raw(9));
    out.push(Lowered {
        visa: "gather4_typed.RGBA (8) T1 V8 V9 %null %null V10",
        insts: lower_gather4_typed(p, &vars, &ctx, &gather)?,
    });
    Ok(out)
}

/// The Mesa-syntax text of instructions, through their encoded words.
pub fn assembly(p: Platform, insts: &[Instruction]) -> Result<String, VisaError> {
    let words = insts
        .iter()
        .map(|i| encode_word(p, i))
        .collect::<Result<Vec<_>, _>>()
        .map_err(VisaError::Encode)?;
    let mut text = String::new();
    Program::from_words(p, words)
        .write_text(&mut text, &TextOptions::default())
        .map_err(|_| VisaError::Unsupported {
            what: "printing",
            why: "formatting failed",
        })?;
    Ok(text)
}

#[allow(dead_code)] // the test includes this file for its functions
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let platforms = match std::env::args().nth(1) {
        Some(name) => vec![name.parse::<Platform>()?],
        None => vec![Platform::Gen7, Platform::Gen75, Platform::Gen8],
    };
    for p in platforms {
        println!("// ===== {p} =====");
        for l in lower_program(p)? {
            println!("// vISA: {}", l.visa);
            print!("{}", assembly(p, &l.insts)?);
        }
        println!();
    }
    Ok(())
}
