//! The fuzzing properties of `geneu::check`, run as ordinary tests on the
//! stable toolchain with a fixed time budget each (proptest), so that every
//! CI run exercises them. The fuzz targets in `fuzz/` call the same check
//! functions.
//!
//! Instructions come from two sources:
//! - always: decoded words (random, or Mesa corpus words with bits
//!   flipped), then with fields perturbed at random;
//! - with `--features arbitrary`: `Instruction::arbitrary`, exactly as the
//!   fuzz targets build them.
//!
//! A failure prints the minimal input proptest shrank it to (see FUZZING.md).
#![cfg(feature = "check")] // the shared property checks (`geneu::check`)

use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use geneu::check;
use geneu::{decode, Platform};

use crate::text_common;
use text_common::{check, corpus_files, corpus_words, mutated_corpus_word, platform as dir_platform};

fn platform(u: &mut Unstructured<'_>) -> Result<Platform> {
    u.choose(&Platform::ALL).copied()
}

/// Bits flipped at most in a corpus word by [`mutated_corpus_word`].
const MAX_FLIPS: u32 = 3;

/// The word-mode input of the instruction targets: a mutated corpus word
/// followed by up to four random perturbations (see
/// `check::perturbed_instruction`).
fn perturbed_input(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let (p, w) = mutated_corpus_word(u, MAX_FLIPS)?;
    let mut data = vec![check::platform_byte(p, true)];
    data.extend_from_slice(&w);
    let n = u.int_in_range(0..=4 * 9)?;
    data.extend_from_slice(u.bytes(n)?);
    Ok(data)
}

#[test]
fn decode_roundtrip_random_words() {
    check(|u| {
        check::decode_roundtrip(platform(u)?, &u.arbitrary()?);
        Ok(())
    });
}

#[test]
fn decode_roundtrip_mutated_corpus_words() {
    check(|u| {
        let (p, w) = mutated_corpus_word(u, MAX_FLIPS)?;
        check::decode_roundtrip(p, &w);
        Ok(())
    });
}

#[test]
fn encode_roundtrip_perturbed_instructions() {
    check(|u| {
        if let Some((p, i)) = check::instruction_input(&perturbed_input(u)?) {
            check::encode_roundtrip(p, &i);
        }
        Ok(())
    });
}

#[test]
fn validate_perturbed_instructions() {
    check(|u| {
        if let Some((p, i)) = check::instruction_input(&perturbed_input(u)?) {
            check::validate_no_panic(p, &i);
        }
        Ok(())
    });
}

#[test]
fn split_platform_covers_every_platform() {
    for p in Platform::ALL {
        for mode in [false, true] {
            let b = check::platform_byte(p, mode);
            assert_eq!(b & check::MODE_BIT != 0, mode);
            assert_eq!(check::split_platform(&[b, 7]), Some((p, &[7u8][..])));
        }
    }
    assert_eq!(check::split_platform(&[]), None);
}

#[test]
fn perturbed_instruction_applies_fields_in_order() {
    let (p, w) = corpus_words()[0];
    let mut data = vec![check::platform_byte(p, true)];
    data.extend_from_slice(&w);
    // field 0 sets the immediate payload; field 6 the quarter control.
    data.push(0);
    data.extend_from_slice(&0x1234_5678_9abc_def0u64.to_le_bytes());
    data.extend_from_slice(&[6, 2]);
    let (q, i) = check::perturbed_instruction(&data).unwrap();
    let mut want = decode(p, &w).unwrap();
    want.imm = 0x1234_5678_9abc_def0;
    want.qtr_control = 2;
    assert_eq!((q, i), (p, want));
    // A word that does not decode gives no instruction.
    let mut bad = data.clone();
    bad[1..17].fill(0xff);
    assert_eq!(check::perturbed_instruction(&bad), None);
}

// ---------------------------------------------------------------------------
// Text: check::text_roundtrip
// ---------------------------------------------------------------------------

/// Every `.asm` file of the Mesa corpus, whole, with its platform.
fn corpus_text() -> &'static [(Platform, String)] {
    static TEXT: OnceLock<Vec<(Platform, String)>> = OnceLock::new();
    TEXT.get_or_init(|| {
        corpus_files()
            .into_iter()
            .map(|(dir, asm)| (dir_platform(&dir), std::fs::read_to_string(asm).unwrap()))
            .collect()
    })
}

/// Text input of `text_roundtrip`: one to three corpus records (lines),
/// with a few random edits (a character replaced, inserted or deleted, a
/// token duplicated, whitespace or a comment put in, or a piece of syntax
/// that the operand scanner reads put in: a register name, `(abs)`, a
/// multi-word shared function...), on the corpus platform or another.
fn edited_text_input(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let (mut p, text) = u.choose(corpus_text())?;
    if u.ratio(1, 4)? {
        p = platform(u)?;
    }
    let lines: Vec<&str> = text.lines().collect();
    let start = u.choose_index(lines.len())?;
    let n = u.int_in_range(1..=3)?;
    let mut s: Vec<u8> = lines[start..(start + n).min(lines.len())].join("\n").into_bytes();
    const CHARS: &[u8] = b" \t\n<>(),.;:{}[]-+*/|~0123456789abcdefgxyzwFDUWBHVQ_";
    for _ in 0..u.int_in_range(0..=3)? {
        if s.is_empty() {
            break;
        }
        let at = u.choose_index(s.len())?;
        match u.int_in_range(0..=5)? {
            0 => s[at] = *u.choose(CHARS)?,
            5 => {
                const PIECES: &[&str] = &[
                    "(abs)",
                    "-(abs)",
                    "acc0",
                    "a0.1",
                    "cr0",
                    "f0.1",
                    "n0.2",
                    "ip",
                    "tdr0",
                    "m3",
                    "null.1",
                    "g0001",
                    "g12x",
                    "r7",
                    "dp data 1",
                    "dp data 2",
                    "pixel interp",
                    "rt accel",
                    "dp /* c */ data\n 1",
                    "0x1",
                    "1D",
                    "UD",
                    "<0,1,0>",
                    "<8,8,1>",
                    ".xyzw",
                ];
                let piece = *u.choose(PIECES)?;
                s.splice(at..at, piece.bytes());
            }
            4 => {
                let gap = *u.choose(&[" ", "\n", "\t", "/* c */", "/*\n*/", "// c\n", "\n\n  "])?;
                s.splice(at..at, gap.bytes());
            }
            1 => s.insert(at, *u.choose(CHARS)?),
            2 => {
                s.remove(at);
            }
            _ => {
                let end = (at + u.int_in_range(1..=8)?).min(s.len());
                let piece = s[at..end].to_vec();
                s.splice(at..at, piece);
            }
        }
    }
    let mut data = vec![check::platform_byte(p, false)];
    data.extend_from_slice(&s);
    Ok(data)
}

#[test]
fn text_roundtrip_edited_corpus_text() {
    check(|u| {
        check::text_roundtrip(&edited_text_input(u)?);
        Ok(())
    });
}

#[test]
fn text_roundtrip_arbitrary_text() {
    check(|u| {
        let mut data = vec![check::platform_byte(platform(u)?, false)];
        let n = u.int_in_range(0..=200)?;
        data.extend_from_slice(u.bytes(n)?);
        check::text_roundtrip(&data);
        Ok(())
    });
}

#[test]
fn text_roundtrip_mutated_corpus_words() {
    check(|u| {
        let (p, w) = mutated_corpus_word(u, MAX_FLIPS)?;
        let mut data = vec![check::platform_byte(p, true)];
        data.extend_from_slice(&w);
        check::text_roundtrip(&data);
        Ok(())
    });
}

#[test]
fn text_roundtrip_random_words() {
    check(|u| {
        let mut data = vec![check::platform_byte(platform(u)?, true)];
        data.extend_from_slice(u.bytes(16)?);
        check::text_roundtrip(&data);
        Ok(())
    });
}

/// The whole corpus assembles (the checks of `assemble_no_panic` hold on
/// it), and every corpus word is a fixpoint of disassemble → assemble.
#[test]
fn text_roundtrip_whole_corpus() {
    for (p, text) in corpus_text() {
        let mut data = vec![check::platform_byte(*p, false)];
        data.extend_from_slice(text.as_bytes());
        check::text_roundtrip(&data);
        assert!(geneu::text::assemble(*p, text).is_ok());
    }
    for &(p, w) in corpus_words() {
        let mut data = vec![check::platform_byte(p, true)];
        data.extend_from_slice(&w);
        check::text_roundtrip(&data);
    }
}

// ---------------------------------------------------------------------------
// vISA lowering: check::visa_lower
// ---------------------------------------------------------------------------

mod visa {
    use super::*;
    use geneu::visa::*;
    use geneu::{ExecSize, FlagReg};

    const REG_TYPES: [VisaType; 11] = [
        VisaType::F,
        VisaType::D,
        VisaType::UD,
        VisaType::W,
        VisaType::UW,
        VisaType::B,
        VisaType::UB,
        VisaType::DF,
        VisaType::Q,
        VisaType::UQ,
        VisaType::HF,
    ];

    fn region_val(u: &mut Unstructured<'_>, vals: &[u32]) -> Result<u32> {
        u.choose(vals).copied()
    }

    /// A mostly well-formed table: general variables in separate 16-GRF
    /// slots (sometimes null, sometimes a sub-GRF placement), one address
    /// variable and up to three predicates.
    fn table(u: &mut Unstructured<'_>) -> Result<VarTable> {
        let mut v = VarTable::new();
        for k in 0..u.int_in_range(1..=6u32)? {
            let ty = *u.choose(&REG_TYPES)?;
            if u.ratio(1, 10)? {
                v.add_null(ty);
                continue;
            }
            let elements = if u.ratio(1, 4)? {
                *u.choose(&[1u32, 2, 4, 8])?
            } else {
                *u.choose(&[16u32, 32, 64])?
            };
            let mut byte = (2 + 16 * k) * 32;
            if elements * ty.size() < 32 && u.ratio(1, 3)? {
                byte += ty.size() * u.int_in_range(0..=(32 / ty.size() - elements))?;
            }
            v.add_general(ty, elements, byte);
        }
        v.add_address(u.int_in_range(1..=4)?, u.int_in_range(0..=4)?);
        for _ in 0..u.int_in_range(0..=3)? {
            let flag = FlagReg {
                nr: u.int_in_range(0..=1)?,
                subnr: u.int_in_range(0..=1)?,
            };
            v.add_predicate(*u.choose(&[1u8, 8, 16, 16, 32])?, flag);
        }
        Ok(v)
    }

    /// An operand over the table: mostly a general variable with a region
    /// that fits `exec` channels, sometimes an immediate, rarely a
    /// predicate, address or indirect operand; rarely with a modifier.
    fn operand(u: &mut Unstructured<'_>, vars: &VarTable, exec: u32, dst: bool) -> Result<VecOperand> {
        let id = u.choose_index(vars.general.len())? as u32;
        let row = if u.ratio(1, 4)? { 1 } else { 0 };
        let col = if u.ratio(1, 4)? { u.int_in_range(1..=3)? } else { 0 };
        let mut op = match u.int_in_range(0..=39)? {
            0 if !vars.predicate.is_empty() => VecOperand::pred(u.int_in_range(1..=vars.predicate.len() as u16)?),
            1 => VecOperand::from(OperandKind::Address(AddrOperand {
                id: 0,
                offset: u.int_in_range(0..=2)?,
                width: *u.choose(&[ExecSize::S1, ExecSize::S2, ExecSize::S4])?,
            })),
            2 => VecOperand::from(OperandKind::Indirect(IndirectOperand {
                addr: 0,
                addr_offset: u.int_in_range(0..=1)?,
                offset: u.int_in_range(-64..=64)?,
                ty: *u.choose(&REG_TYPES)?,
                region: if dst {
                    VisaRegion::dst(1).unwrap()
                } else {
                    VisaRegion::new(Some(region_val(u, &[0, 1, 8])?), 1, 0).unwrap()
                },
            })),
            3..=8 if !dst => {
                let ty = if u.ratio(1, 8)? {
                    *u.choose(&VisaType::ALL)?
                } else {
                    *u.choose(&REG_TYPES)?
                };
                let value = match u.int_in_range(0..=2)? {
                    0 => u.int_in_range(0..=16)?,
                    1 => f32::to_bits(u.int_in_range(-4..=4)? as f32).into(),
                    _ if ty.is_64bit() => u.arbitrary()?,
                    _ => u.arbitrary::<u32>()?.into(),
                };
                VecOperand::imm(Immediate { ty, value })
            }
            _ if dst => VecOperand::general_dst(id, row, col, *u.choose(&[1, 1, 1, 2, 4])?).unwrap(),
            _ => {
                let region = if u.ratio(1, 4)? {
                    VisaRegion::SCALAR
                } else {
                    let widths: Vec<u32> = [1, 2, 4, 8, 16].into_iter().filter(|&w| w <= exec).collect();
                    let width = *u.choose(&widths)?;
                    let h = region_val(u, &[0, 1, 1, 1, 2])?;
                    let v = if u.ratio(3, 4)? {
                        width * h
                    } else {
                        region_val(u, &[0, 1, 2, 4, 8, 16])?
                    };
                    VisaRegion::new(Some(v), width, h).unwrap_or(VisaRegion::SCALAR)
                };
                VecOperand::general(id, row, col, region)
            }
        };
        if matches!(op.kind, OperandKind::General(_) | OperandKind::Indirect(_)) && u.ratio(1, 10)? {
            op.modifier = *u.choose(&[
                Modifier::Abs,
                Modifier::Neg,
                Modifier::NegAbs,
                Modifier::Sat,
                Modifier::Not,
            ])?;
        }
        Ok(op)
    }

    /// A structured `visa_lower` input: a table, a context, and an
    /// instruction over the table's variables.
    fn input(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
        let p = platform(u)?;
        let vars = table(u)?;
        let ctx = LowerCtx {
            temp_grf: if u.ratio(3, 4)? { Some(120) } else { None },
            scratch_flag: if u.ratio(3, 4)? {
                Some(FlagReg { nr: 1, subnr: 1 })
            } else {
                None
            },
            ..LowerCtx::default()
        };
        let mut op = *u.choose(&VisaOp::ALL)?;
        if let VisaOp::Cmp(_) = op {
            op = VisaOp::Cmp(*u.choose(&RelOp::ALL)?);
        }
        let exec = ExecCtl {
            size: *u.choose(&[ExecSize::S1, ExecSize::S2, ExecSize::S4, ExecSize::S8, ExecSize::S16])?,
            mask: MaskCtl::from_bits(if u.ratio(3, 4)? { 0 } else { u.int_in_range(0..=15)? }),
        };
        let n = exec.size.channels();
        let dst = operand(u, &vars, n, true)?;
        let src: Vec<VecOperand> = (0..op.num_srcs())
            .map(|_| operand(u, &vars, n, false))
            .collect::<Result<_>>()?;
        let mut inst = VisaInst::new(op, exec, dst, &src);
        if !vars.predicate.is_empty() && u.ratio(1, 6)? {
            inst.pred = Some(PredCtl {
                id: u.int_in_range(1..=vars.predicate.len() as u16)?,
                combine: *u.choose(&[PredCombine::Sequential, PredCombine::Any, PredCombine::All])?,
                inverse: u.arbitrary()?,
            });
        }
        let bytes =
            check::visa_input_bytes(p, &vars, &ctx, &inst).unwrap_or_else(|| panic!("{vars:?} {ctx:?} {inst:?}"));
        assert_eq!(
            check::visa_input(&bytes),
            Some((p, vars, ctx, inst)),
            "layout round trip"
        );
        Ok(bytes)
    }

    #[test]
    fn visa_lower_structured_inputs() {
        check(|u| {
            check::visa_lower(&input(u)?);
            Ok(())
        });
    }

    /// Structured inputs with a few bytes overwritten: bad tables, reserved
    /// fields, truncated operands.
    #[test]
    fn visa_lower_corrupted_inputs() {
        check(|u| {
            let mut data = input(u)?;
            for _ in 0..u.int_in_range(1..=4)? {
                let at = u.choose_index(data.len())?;
                data[at] = u.arbitrary()?;
            }
            if u.ratio(1, 4)? {
                data.truncate(u.choose_index(data.len())?);
            }
            check::visa_lower(&data);
            Ok(())
        });
    }

    #[test]
    fn visa_lower_random_bytes() {
        check(|u| {
            let n = u.int_in_range(0..=96)?;
            check::visa_lower(u.bytes(n)?);
            Ok(())
        });
    }
}

#[cfg(feature = "arbitrary")]
mod with_arbitrary {
    use super::*;

    /// The arbitrary-mode input of the instruction targets.
    fn arbitrary_input(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
        let mut data = vec![check::platform_byte(platform(u)?, false)];
        let n = u.int_in_range(0..=160)?;
        data.extend_from_slice(u.bytes(n)?);
        Ok(data)
    }

    #[test]
    fn encode_roundtrip_arbitrary_instructions() {
        check(|u| {
            if let Some((p, i)) = check::instruction_input(&arbitrary_input(u)?) {
                check::encode_roundtrip(p, &i);
            }
            Ok(())
        });
    }

    #[test]
    fn validate_arbitrary_instructions() {
        check(|u| {
            if let Some((p, i)) = check::instruction_input(&arbitrary_input(u)?) {
                check::validate_no_panic(p, &i);
            }
            Ok(())
        });
    }
}
