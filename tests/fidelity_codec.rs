//! Issue 14, "Decoder and encoder": one regression test per class of
//! disagreement with Intel's decoder, Mesa and shipped kernels, each named
//! after its class and starting from the example word. Classes 3
//! and 4 (conditional modifier 7, reserved SFIDs) are validator rules and
//! are tested with the validator.

#[cfg(feature = "check")]
use geneu::check::text::check_asm_roundtrip;
use geneu::isa::Sfid;
use geneu::text::{assemble_words_with, AsmOptions};
use geneu::{decode, encode_unchecked, Addr, DecodeError, Instruction, Opcode, Platform, RegFile, Src, Type};

const BDW: Platform = Platform::Gen8;
const CHV: Platform = Platform::Chv;
const HSW: Platform = Platform::Gen75;
const IVB: Platform = Platform::Gen7;

fn hex(s: &str) -> [u8; 16] {
    let v: Vec<u8> = s
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    v.try_into().unwrap()
}

/// Decodes `w` and checks that it re-encodes bit for bit.
fn lossless(p: Platform, w: &[u8; 16]) -> Instruction {
    let i = decode(p, w).unwrap_or_else(|e| panic!("{p}: {e}"));
    assert_eq!(encode_unchecked(p, &i).unwrap(), *w, "{p}: {i:?}");
    i
}

fn reserved_bits(r: Result<Instruction, DecodeError>) -> u128 {
    match r {
        Err(DecodeError::ReservedBits(m)) => m,
        other => panic!("expected reserved bits, got {other:?}"),
    }
}

fn subnr(s: &Src) -> u8 {
    match s.addr {
        Addr::Direct { subnr, .. } => subnr,
        Addr::Indirect { .. } => panic!("3-source operands are direct"),
    }
}

/// Class 1: on Gen8 and Cherryview, SrcType gives src0's precision when it
/// is F or HF, and Src1Type/Src2Type (bits 36 and 35) give src1's and
/// src2's: 0 = F, 1 = HF.
#[test]
fn class1_three_src_src1_src2_type_bits_give_f_or_hf() {
    // SrcType HF, both bits clear: src1 and src2 are F (Intel's decoder).
    let mixed = hex("5b 01 60 00 00 20 1f 1a c8 61 21 00 05 20 47 01");
    for p in [BDW, CHV] {
        let i = lossless(p, &mixed);
        assert_eq!(i.opcode, Opcode::Mad);
        assert_eq!(
            [i.dst.ty, i.src[0].ty, i.src[1].ty, i.src[2].ty],
            [Type::HF, Type::HF, Type::F, Type::F],
            "{p}"
        );
    }
    // Mesa's all-HF mad sets both bits.
    let mut all_hf = mixed;
    all_hf[4] |= 0x18;
    for p in [BDW, CHV] {
        let i = lossless(p, &all_hf);
        assert_eq!([i.src[0].ty, i.src[1].ty, i.src[2].ty], [Type::HF; 3], "{p}");
    }
    // The bits give HF beside an F src0 too; beside D they are refused.
    let mut f_src0 = mixed;
    f_src0[5] &= !0x38; // SrcType F (0)
    f_src0[4] |= 0x10; // Src1Type HF
    let i = lossless(BDW, &f_src0);
    assert_eq!([i.src[0].ty, i.src[1].ty, i.src[2].ty], [Type::F, Type::HF, Type::F]);
    let mut d_src0 = f_src0;
    d_src0[5] |= 0x08; // SrcType D (1)
    assert!(decode(BDW, &d_src0).is_err(), "Src1Type beside a D src0");
    // The assembler writes the bits for an all-HF mad (as Mesa's brw_alu3).
    let words = assemble_words_with(
        CHV,
        "mad(8) g2<1>HF g3<4,4,1>HF g4<4,4,1>HF g5<4,4,1>HF { align16 1Q };",
        AsmOptions::UNCHECKED,
    )
    .unwrap();
    let w = words[0];
    assert_eq!(w[4] & 0x18, 0x18, "Src1Type and Src2Type set");
    let i = lossless(CHV, &w);
    assert_eq!([i.src[0].ty, i.src[1].ty, i.src[2].ty], [Type::HF; 3]);
    #[cfg(feature = "check")]
    check_asm_roundtrip(CHV, &mixed);
}

/// Class 2: on Cherryview bits 84, 105 and 126 are the low bit of the
/// src0/src1/src2 subregister numbers (2-byte units); Broadwell reserves them.
#[test]
fn class2_chv_three_src_subregister_low_bits() {
    let w = hex("5b 01 60 00 00 00 1e 1a c8 63 31 00 05 20 47 01");
    let i = lossless(CHV, &w);
    assert_eq!(subnr(&i.src[0]), 6, "src0 subregister 6 bytes");
    assert_eq!(reserved_bits(decode(BDW, &w)), 1 << 84);
    // Every source, each bit alone.
    let base = hex("5b 01 60 00 00 00 1e 1a c8 61 21 00 05 20 47 01");
    for (k, bit) in [(0usize, 84u32), (1, 105), (2, 126)] {
        let v = u128::from_le_bytes(base) | 1 << bit;
        let w = v.to_le_bytes();
        let before = subnr(&decode(CHV, &base).unwrap().src[k]);
        let i = lossless(CHV, &w);
        assert_eq!(subnr(&i.src[k]), before + 2, "src{k}");
        assert_eq!(reserved_bits(decode(BDW, &w)), 1 << bit, "src{k} on Broadwell");
    }
    // A 2-byte subregister encodes on Cherryview only.
    let mut i = decode(CHV, &base).unwrap();
    i.src[1].addr = Addr::Direct { nr: 4, subnr: 2 };
    let back = encode_unchecked(CHV, &i).unwrap();
    assert_eq!(decode(CHV, &back).unwrap(), i);
    assert!(encode_unchecked(BDW, &i).is_err());
}

/// Class 5: SEND bits 126:125 (descriptor bits 30:29) are kept: decode
/// stays lossless and `send_desc` returns them, as Mesa's
/// `brw_inst_send_desc` (bits 126:96).
#[test]
fn class5_send_bits_126_125_are_kept() {
    let w = hex("31 00 60 06 e0 3a 00 20 60 0f 8d 06 17 00 08 aa");
    for p in [BDW, CHV] {
        let i = lossless(p, &w);
        assert_eq!(i.sfid(), Some(Sfid::Urb));
        assert_eq!(i.send_desc(), Some(0x2a08_0017), "{p}: bit 29 kept");
        assert!(i.eot());
    }
    let mut both = w;
    both[15] |= 0x60;
    let i = lossless(BDW, &both);
    assert_eq!(i.send_desc(), Some(0x6a08_0017));
    // The same SEND in Gen7's layout.
    for p in [IVB, HSW] {
        let w = encode_unchecked(p, &i).unwrap();
        assert_eq!(w[15] & 0x60, 0x60);
        assert_eq!(lossless(p, &w).send_desc(), Some(0x6a08_0017), "{p}");
    }
}

/// Class 6: two immediate sources are refused on every platform: the word
/// has one immediate slot.
#[test]
fn class6_two_immediates_are_refused_on_every_platform() {
    let w = hex("40 00 60 00 e8 0e 80 2f e0 00 8d 0e 01 00 00 00");
    match decode(BDW, &w) {
        Err(DecodeError::Field { field, .. }) => assert_eq!(field.name, "src1_reg_file"),
        other => panic!("expected src1_reg_file refused, got {other:?}"),
    }
    // Words the text properties once found, now refused the same way
    // (SEND, JMPI and ALU words with two immediate files).
    let found = [
        "31 00 60 0e 4c 3e a0 20 00 80 8d 06 03 00 1c 02",
        "10 00 80 03 00 06 40 20 88 00 00 0e 1f 00 00 00",
        "31 00 60 46 08 16 c0 25 28 00 8d 06 68 00 18 02",
        "11 bb 35 32 af 16 d9 05 27 34 13 3e b2 45 52 f5",
        "06 24 00 ea 81 5e 12 5b ce e5 c1 a6 bd 3d ef de",
        "06 80 00 00 00 06 00 30 00 10 00 46 40 04 00 00",
        "20 31 97 31 25 0e 5d 1a 42 57 98 56 7f 6b 61 8c",
    ];
    for w in found {
        match decode(CHV, &hex(w)) {
            Err(DecodeError::Field { field, .. }) => assert_eq!(field.name, "src1_reg_file", "{w}"),
            other => panic!("{w}: expected src1_reg_file refused, got {other:?}"),
        }
    }
    // The same instruction built by hand encodes on no platform.
    let mut i = Instruction::new(Opcode::Add, geneu::ExecSize::S8);
    i.dst = geneu::Dst::grf(2, 0, Type::D);
    i.src[0] = Src::imm(Type::D);
    i.src[1] = Src::imm(Type::D);
    i.imm = 1;
    for p in [IVB, HSW, BDW, CHV] {
        assert!(encode_unchecked(p, &i).is_err(), "{p}");
    }
    // Gen7 decodes a word with two immediate files as an error too.
    let mut g7 = i;
    g7.src[0] = Src::grf(3, 0, Type::D, geneu::Region::new(8, 8, 1).unwrap());
    let mut bytes = encode_unchecked(IVB, &g7).unwrap();
    // src0 file (bits 38:37) = immediate too, as Gen7 lays it out.
    bytes[4] |= 0x60;
    match decode(IVB, &bytes) {
        Err(DecodeError::Field { field, .. }) => assert_eq!(field.name, "src1_reg_file"),
        other => panic!("expected src1_reg_file refused on Gen7, got {other:?}"),
    }
}

/// Class 7: `eot()` reads bit 127 also when src0 is a 64-bit immediate
/// (whose value fills bits 127:64).
#[test]
fn class7_eot_reads_bit_127_beside_a_64_bit_immediate() {
    let w = hex("31 00 60 06 e0 46 00 20 60 0f 8d 06 17 00 08 8a");
    let i = lossless(BDW, &w);
    assert!(i.src[0].is_imm() && i.src[0].ty.is_64bit());
    assert!(i.eot(), "bit 127 is set");
    let mut no_eot = w;
    no_eot[15] &= 0x7f;
    assert!(!lossless(BDW, &no_eot).eot());
    // Bit 95 (bit 31 of the value's low half) is not EOT.
    let mut bit95 = no_eot;
    bit95[11] |= 0x80;
    assert!(!lossless(BDW, &bit95).eot());
}

/// Class 8: Mesa copies an immediate's type code into src1's type field
/// (0xb for HF on Gen8, which no register type has): such words decode,
/// re-encode bit for bit, and the assembler writes the same bits.
#[test]
fn class8_mesa_hf_immediate_type_code_in_src1() {
    // mov(8) g2<1>HF 0x3c00HF, as Mesa's brw_set_src0 writes it: src1 ARF
    // with type code 11, the 16-bit value replicated.
    let w = hex("01 00 60 00 48 5f 40 20 00 00 00 58 00 3c 00 3c");
    for p in [BDW, CHV] {
        let i = lossless(p, &w);
        assert_eq!((i.src[0].file, i.src[0].ty), (RegFile::Imm, Type::HF));
        assert_eq!((i.src[1].file, i.src[1].ty), (RegFile::Arf, Type::HF));
        assert_eq!(i.src_type_hw(p, 1), Some(0xb));
        #[cfg(feature = "check")]
        check_asm_roundtrip(p, &w);
    }
    // Every immediate type's code reads back beside an immediate src0
    // (V, UV and VF too, whose codes are other types' in a register).
    let mut mov = Instruction::new(Opcode::Mov, geneu::ExecSize::S8);
    mov.dst = geneu::Dst::grf(2, 0, Type::UD);
    for p in [IVB, BDW] {
        for ty in Type::ALL {
            if ty.is_64bit() || ty.imm_hw(p).is_none() {
                continue;
            }
            mov.src[0] = Src::imm(ty);
            mov.src[1] = Src {
                file: RegFile::Arf,
                ..Src::imm(ty)
            };
            let w = encode_unchecked(p, &mov).unwrap();
            assert_eq!(decode(p, &w).unwrap(), mov, "{p} {ty}");
        }
    }
}

/// Class 9: Haswell's `dim` reads bits 127:64 as its immediate, whatever
/// its source fields say.
#[test]
fn class9_haswell_dim_immediate_fills_bits_127_64() {
    let w = hex("0a 00 96 00 84 1c 00 20 00 00 8d 42 14 00 04 04");
    let i = lossless(HSW, &w);
    assert_eq!(i.opcode, Opcode::Dim);
    assert_eq!(i.imm, 0x0404_0014_428d_0000);
    // Mesa's form: an F immediate src0 whose 64-bit value is a double.
    let words = assemble_words_with(
        HSW,
        "dim(8) g2<1>DF 0x4000000000000001F { align1 1Q };",
        AsmOptions::UNCHECKED,
    )
    .unwrap();
    let w = words[0];
    assert_eq!(u64::from_le_bytes(w[8..16].try_into().unwrap()), 0x4000_0000_0000_0001);
    let i = lossless(HSW, &w);
    assert_eq!(i.imm, 0x4000_0000_0000_0001);
    #[cfg(feature = "check")]
    check_asm_roundtrip(HSW, &w);
}
