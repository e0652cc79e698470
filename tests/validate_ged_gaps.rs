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
