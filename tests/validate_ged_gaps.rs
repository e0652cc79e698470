//! The gaps a field-by-field comparison with Intel's decoder (GED) found
//! (issue #28, section 6), each on the words and on every platform
//! it concerns: how the word decodes, that its disassembly assembles back
//! to it, and what `check` (the validator) says.

use geneu::isa::Sfid;
use geneu::validate::{find_rule, validate, Basis};
use geneu::Platform::*;
use geneu::{decode, Controls, Dst, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};

/// Bytes in the order.
fn bytes(hex: &str) -> [u8; 16] {
    let v: Vec<u8> = hex
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    v.try_into().unwrap()
}

/// The rules `inst` breaks on `p`, by identifier.
fn broken(p: Platform, inst: &Instruction) -> Vec<&'static str> {
    match validate(p, inst) {
        Ok(()) => vec![],
        Err(v) => v.0.iter().map(|x| x.rule).collect(),
    }
}

/// Disassembly of the word reads back to it, unchecked, and checked
/// exactly when the word passes `check` (the shared text property); the
/// text is returned.
fn round_trips(p: Platform, w: &[u8; 16]) -> String {
    // The shared property (with the `check` feature, as the tests build).
    #[cfg(feature = "check")]
    geneu::check::text::check_asm_roundtrip(p, w);
    let i = decode(p, w).unwrap();
    let text = i.display(p).to_string();
    let back = geneu::text::assemble_words_with(p, &text, geneu::text::AsmOptions::UNCHECKED).unwrap();
    assert_eq!(back, vec![*w], "{p}: {text}");
    text
}

// ---------------------------------------------------------------------------
// Channel offset against execution size
// ---------------------------------------------------------------------------

/// `mov(16)` with quarter control 1: channels 8-23, which no SIMD16 group
/// is (1H is 0-15, 2H 16-31).
const MOV16_QTR1: &str = "01 10 80 00 a5 03 00 21 40 00 8d 00 00 00 00 00";

#[test]
fn channel_offset_fits_exec_size() {
    let rule = find_rule("channel_offset_fits_exec_size").unwrap();
    assert_eq!(rule.basis, Basis::Conservative);
    let w = bytes(MOV16_QTR1);
    for p in [Gen7, Gen75] {
        let i = decode(p, &w).unwrap();
        assert_eq!((i.opcode, i.exec_size, i.qtr_control), (Opcode::Mov, ExecSize::S16, 1));
        assert_eq!(i.first_channel(), 8);
        assert_eq!(broken(p, &i), ["channel_offset_fits_exec_size"], "{p}");
        round_trips(p, &w);
        // 2H (quarter control 2) is SIMD16's second group: accepted.
        let mut ok = i;
        ok.qtr_control = 2;
        assert_eq!(validate(p, &ok), Ok(()), "{p}");
    }
    // The same instruction on Broadwell and Cherryview (their own layout).
    for p in [Gen8, Chv] {
        let mut i = decode(Gen7, &w).unwrap();
        i.qtr_control = 0;
        assert_eq!(validate(p, &i), Ok(()), "{p}");
        let good = geneu::encode(p, &i).unwrap();
        i.qtr_control = 1;
        assert_eq!(broken(p, &i), ["channel_offset_fits_exec_size"], "{p}");
        i.qtr_control = 3;
        assert_eq!(broken(p, &i), ["channel_offset_fits_exec_size"], "{p}");
        let bad = geneu::encode_unchecked(p, &i).unwrap();
        round_trips(p, &good);
        round_trips(p, &bad);
    }
}

#[test]
fn channel_offsets_of_each_execution_size() {
    // Independent statement of the rule: SIMD16 and SIMD32 start at a
    // multiple of their size; narrower ones are not restricted by it.
    let w = bytes(MOV16_QTR1);
    for p in Platform::ALL {
        for (exec, n) in [
            (ExecSize::S1, 1u32),
            (ExecSize::S4, 4),
            (ExecSize::S8, 8),
            (ExecSize::S16, 16),
            (ExecSize::S32, 32),
        ] {
            for qtr in 0..4u8 {
                for nib in [false, true] {
                    let mut i = decode(Gen7, &w).unwrap();
                    i.exec_size = exec;
                    i.qtr_control = qtr;
                    i.controls.set(Controls::NIB_CTRL, nib);
                    let first = u32::from(qtr) * 8 + if nib { 4 } else { 0 };
                    let want = n > 8 && first % n != 0;
                    let got = broken(p, &i).contains(&"channel_offset_fits_exec_size");
                    assert_eq!(got, want, "{p} SIMD{n} qtr {qtr} nib {nib}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Message descriptor bits 30:29
// ---------------------------------------------------------------------------

/// `send(8) g10<1>UD g2<8,8,1>UD` to the sampler with the immediate
/// descriptor `desc` (mlen 2, rlen 1, an `ld`).
fn send_with_desc(desc: u32) -> Instruction {
    let mut i = Instruction::new(Opcode::Send, ExecSize::S8);
    i.dst = Dst::grf(10, 0, Type::UD);
    i.src[0] = Src::grf(2, 0, Type::UD, Region::new(8, 8, 1).unwrap());
    i.src[1] = Src::imm(Type::UD);
    i.cond_modifier = Sfid::Sampler as u8;
    i.imm = u64::from(desc);
    i
}

/// Mlen 2, rlen 1, sampler message type 7 (`ld`), SIMD8.
const SAMPLER_LD: u32 = 2 << 25 | 1 << 20 | 7 << 12 | 1 << 17;

#[test]
fn send_desc_bits_30_29_zero() {
    let rule = find_rule("send_desc_bits_30_29_zero").unwrap();
    assert_eq!(rule.basis, Basis::Conservative);
    for p in Platform::ALL {
        let base = send_with_desc(SAMPLER_LD);
        assert_eq!(validate(p, &base), Ok(()), "{p}");
        for bits in [1u32, 2, 3] {
            let i = send_with_desc(SAMPLER_LD | bits << 29);
            // Word bits 126:125.
            let w = geneu::encode_unchecked(p, &i).unwrap();
            let word = u128::from_le_bytes(w);
            assert_eq!((word >> 125) & 3, u128::from(bits), "{p}");
            let back = decode(p, &w).unwrap();
            assert_eq!(back, i, "{p}: the codec keeps the bits");
            let refused = broken(p, &i).contains(&"send_desc_bits_30_29_zero");
            // Ivy Bridge, Haswell and Broadwell read them as zero;
            // Cherryview's sampler descriptor has bit 29.
            assert_eq!(refused, p != Chv, "{p} bits {bits}");
            round_trips(p, &w);
        }
        // EOT (bit 31) is no part of this rule.
        let mut eot = base;
        eot.imm |= 1 << 31;
        assert!(!broken(p, &eot).contains(&"send_desc_bits_30_29_zero"), "{p}");
    }
}

// ---------------------------------------------------------------------------
// brd/brc with the offsets in a register
// ---------------------------------------------------------------------------

/// Broadwell `brd(8)` whose src0 file (bits 42:41) is the GRF: IGA reads
/// `brd (8|M0) r11.1:ud`.
const BDW_BRD_REG: &str = "21 00 60 00 40 02 00 20 64 01 00 06 00 00 00 00";
/// Broadwell `brc(16)` with a GRF src0: IGA reads `r11.0`.
const BDW_BRC_REG: &str = "23 00 80 00 40 02 00 20 60 01 8d 06 00 00 00 00";

/// Register number and byte subregister of a Gen8 align1 direct src0, read
/// from the word's bits (76:69 and 68:64) by hand.
fn gen8_src0_reg(w: &[u8; 16]) -> (u8, u8) {
    let dw2 = u32::from_le_bytes([w[8], w[9], w[10], w[11]]);
    (((dw2 >> 5) & 0xff) as u8, (dw2 & 0x1f) as u8)
}

#[test]
fn gen8_brd_brc_read_a_register_source() {
    for (hex, op, exec, text) in [
        (BDW_BRD_REG, Opcode::Brd, ExecSize::S8, "g11.1<0,1,0>UD"),
        (BDW_BRC_REG, Opcode::Brc, ExecSize::S16, "g11<8,8,1>UD"),
    ] {
        let w = bytes(hex);
        // Bits 42:41, src0's register file: 1, the GRF.
        assert_eq!((u128::from_le_bytes(w) >> 41) & 3, 1);
        let (nr, sub) = gen8_src0_reg(&w);
        assert_eq!((nr, sub), (11, if op == Opcode::Brd { 4 } else { 0 }));
        for p in [Gen8, Chv] {
            let i = decode(p, &w).unwrap();
            assert_eq!((i.opcode, i.exec_size), (op, exec));
            assert!(i.offsets_from_register(), "{p}");
            assert_eq!(i.src[0].file, geneu::RegFile::Grf);
            assert_eq!(i.src[0].addr, geneu::Addr::Direct { nr, subnr: sub });
            assert_eq!(i.src[0].ty, Type::UD);
            assert_eq!((i.jip(p), i.uip(p)), (None, None), "{p}: no JIP/UIP of its own");
            let t = round_trips(p, &w);
            assert!(t.contains(text), "{p}: {t}");
            assert_eq!(validate(p, &i), Ok(()), "{p}");
        }
    }
}

#[test]
fn gen8_brd_with_an_immediate_keeps_its_jip() {
    // The brd word with src0's file set to the immediate (bits 42:41 = 3)
    // and JIP 16 bytes in DW3: the offsets are in bits 127:64.
    let mut w = bytes(BDW_BRD_REG);
    w[5] |= 0x06;
    w[12] = 16;
    for p in [Gen8, Chv] {
        let i = decode(p, &w).unwrap();
        assert!(!i.offsets_from_register());
        assert_eq!(i.jip(p), Some(16));
        round_trips(p, &w);
    }
}

/// The register forms from the builder and from the text agree, on every
/// platform, decode as register forms and pass `check`.
#[test]
fn brd_brc_register_forms_build_and_assemble() {
    use geneu::build::{g, Builder};
    for p in Platform::ALL {
        for (op, text) in [
            (Opcode::Brd, "brd(8) null<1>UD g11.1<0,1,0>UD { align1 1Q };"),
            (Opcode::Brc, "brc(8) null<1>UD g11<0,1,0>UD { align1 1Q };"),
        ] {
            let mut b = Builder::new(p);
            let r = if op == Opcode::Brd {
                g(11).ud().subreg(1).unwrap().vec1()
            } else {
                g(11).ud().vec1()
            };
            if op == Opcode::Brd {
                b.brd(r).unwrap();
            } else {
                b.brc(r).unwrap();
            }
            let built = b.finish().unwrap();
            let words = geneu::text::assemble_words(p, text).unwrap();
            assert_eq!(built.bytes(), words[0].as_slice(), "{p} {op}");
            let i = decode(p, &words[0]).unwrap();
            assert!(i.offsets_from_register(), "{p} {op}");
            assert_eq!(
                i.src[0].addr,
                geneu::Addr::Direct {
                    nr: 11,
                    subnr: if op == Opcode::Brd { 4 } else { 0 }
                }
            );
            assert_eq!(validate(p, &i), Ok(()), "{p} {op}");
            let t = round_trips(p, &words[0]);
            assert!(t.starts_with(&format!("{op}(8)")) && t.contains("g11"), "{p}: {t}");
        }
    }
}

#[test]
fn brd_brc_src0_register() {
    let rule = find_rule("brd_brc_src0_register").unwrap();
    assert_eq!(rule.basis, Basis::Conservative);
    let w = bytes(BDW_BRD_REG);
    for p in [Gen8, Chv] {
        let ok = decode(p, &w).unwrap();
        let mut f = ok;
        f.src[0].ty = Type::F;
        assert_eq!(broken(p, &f), ["brd_brc_src0_register"], "{p}");
        let mut neg = ok;
        neg.src[0].mods = geneu::SrcMods::NEGATE;
        assert!(broken(p, &neg).contains(&"brd_brc_src0_register"), "{p}");
        // The null register (an ARF) is no offset register.
        let mut null = ok;
        null.src[0] = Src::ZERO;
        assert!(broken(p, &null).contains(&"brd_brc_src0_register"), "{p}");
    }
}

/// Ivy Bridge runs a 64-bit operation in pairs of 32-bit channels: the
/// second half of a SIMD16 DF operation is a SIMD16 word at `2Q` (8 DF
/// channels from channel 8), as Mesa writes it; not on Haswell.
#[test]
fn ivy_bridge_df_halves_count_df_channels() {
    let w = bytes(MOV16_QTR1);
    let mut i = decode(Gen7, &w).unwrap();
    i.dst.ty = Type::DF;
    i.src[0].ty = Type::DF;
    assert_eq!(i.qtr_control, 1);
    assert!(!broken(Gen7, &i).contains(&"channel_offset_fits_exec_size"));
    assert!(broken(Gen75, &i).contains(&"channel_offset_fits_exec_size"));
    // 4Q: 8 DF channels from channel 24, a multiple of 8: accepted.
    i.qtr_control = 3;
    assert!(!broken(Gen7, &i).contains(&"channel_offset_fits_exec_size"));
    // SIMD32 DF on Ivy Bridge (16 DF channels) starts at 1H or 2H.
    i.exec_size = ExecSize::S32;
    i.qtr_control = 1;
    assert!(broken(Gen7, &i).contains(&"channel_offset_fits_exec_size"));
    i.qtr_control = 2;
    assert!(!broken(Gen7, &i).contains(&"channel_offset_fits_exec_size"));
}

/// Mesa's Ivy Bridge DF under the execution mask: SIMD4 parts, each an
/// `add(8)` word (ExecSize doubled) whose quarter and nibble control name
/// the part's channel group, `1Q`..`4Q` with or without NibCtrl
/// (elk_fs_generator: `exec_size *= 2`, `elk_set_default_group`). Every
/// such word passes the whole validator, predicated or not, and so does a
/// SIMD2 part (`add(4)`) at any group.
#[test]
fn ivy_bridge_simd4_df_parts_at_every_channel_group_are_valid() {
    let r = Region::new(8, 8, 1).unwrap();
    for (exec, region) in [(ExecSize::S8, r), (ExecSize::S4, Region::new(4, 4, 1).unwrap())] {
        for first in (0..32).step_by(4) {
            for pred in [0u8, 1] {
                let mut i = Instruction::new(Opcode::Add, exec);
                i.qtr_control = (first / 8) as u8;
                i.controls.set(Controls::NIB_CTRL, first % 8 == 4);
                i.pred_control = pred;
                i.dst = Dst::grf(10, 0, Type::DF);
                i.src[0] = Src::grf(4, 0, Type::DF, region);
                i.src[1] = Src::grf(6, 0, Type::DF, region);
                assert_eq!(i.first_channel(), first);
                assert_eq!(broken(Gen7, &i), Vec::<&str>::new(), "{exec:?} at {first}, pred {pred}");
            }
        }
    }
}
