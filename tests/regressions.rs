//! Regression tests for bugs found by fuzzing (see FUZZING.md). Each test
//! is named after the bug it pins down.

use geneu::word::fields::{gen7_native, gen8_native};
use geneu::{
    decode, encode_unchecked, AccessMode, DecodeError, ExecSize, Instruction, Opcode, Platform, Region, Src, Swizzle,
    Type, Word,
};

/// `mov(8) g2<1>F g3<8;8,1>F`, a plain align1 register move.
fn mov_align1() -> Instruction {
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
    i.dst = geneu::Dst::grf(2, 0, Type::F);
    i.src[0] = Src::grf(3, 0, Type::F, Region::new(8, 8, 1).unwrap());
    i
}

/// `add(8) g2<1>.xyzwF g3<4>.xyzwF g4<4>.xyzwF`, align16 register sources.
fn add_align16() -> Instruction {
    let mut i = Instruction::new(Opcode::Add, ExecSize::S8);
    i.access_mode = AccessMode::Align16;
    i.dst = geneu::Dst::grf(2, 0, Type::F);
    let region = Region {
        vstride: 3,
        width: 2,
        hstride: 1,
    };
    for (k, nr) in [(0, 3), (1, 4)] {
        i.src[k] = Src {
            swizzle: Swizzle::XYZW,
            ..Src::grf(nr, 0, Type::F, region)
        };
    }
    i
}

fn word(p: Platform, i: &Instruction) -> u128 {
    let bytes = encode_unchecked(p, i).unwrap();
    assert_eq!(decode(p, &bytes).unwrap(), *i, "the unaltered word round-trips");
    u128::from_le_bytes(bytes)
}

fn decode_u128(p: Platform, w: u128) -> Result<Instruction, DecodeError> {
    decode(p, &w.to_le_bytes())
}

/// Gen8 keeps bit 9 of each indirect address immediate apart from the
/// rest (bits 47, 95 and 121). On a directly addressed operand the model
/// has no place for it, so it was silently dropped by decode and the word
/// re-encoded differently. Decode now refuses it as reserved.
#[test]
fn gen8_direct_operand_drops_indirect_imm_bit9() {
    for p in [Platform::Gen8, Platform::Chv] {
        let plain = word(p, &add_align16());
        let a1 = word(p, &{
            let mut i = mov_align1();
            i.src[1] = Src::grf(5, 0, Type::F, Region::new(8, 8, 1).unwrap());
            i.opcode = Opcode::Add;
            i
        });
        for (w, bit) in [(plain, 47), (plain, 95), (plain, 121), (a1, 47), (a1, 95), (a1, 121)] {
            assert_eq!(
                decode_u128(p, w | 1 << bit),
                Err(DecodeError::ReservedBits(1 << bit)),
                "{p}: bit {bit}"
            );
        }
    }
}

/// In align16 the width field holds swizzle w in its low two bits; its top
/// bit (84 for src0, 116 for src1) is unused. Decode dropped it, so the
/// word did not re-encode to itself. Decode now refuses it as reserved.
#[test]
fn align16_source_width_top_bit_is_dropped() {
    for p in Platform::ALL {
        let w = word(p, &add_align16());
        for bit in [84, 116] {
            assert_eq!(
                decode_u128(p, w | 1 << bit),
                Err(DecodeError::ReservedBits(1 << bit)),
                "{p}: bit {bit}"
            );
        }
        // In align1 the same bits are the width's top bit, and decode.
        let w1 = word(p, &mov_align1());
        assert!(decode_u128(p, w1 | 1 << 84).is_ok(), "{p}: align1 width bit");
    }
}

/// On Gen7/7.5 both source files could say "immediate": decode accepted
/// it, but encode (rightly) refused, breaking decode/encode symmetry.
/// Decode now refuses a second immediate, naming src1's file.
#[test]
fn gen7_two_immediate_sources_decode_but_do_not_encode() {
    for p in [Platform::Gen7, Platform::Gen75] {
        let mut i = mov_align1();
        i.src[0] = Src::imm(Type::F);
        i.imm = 0x3f80_0000;
        let mut w = Word(word(p, &i));
        gen7_native::set_src1_reg_file(&mut w, 3).unwrap();
        match decode_u128(p, w.0) {
            Err(DecodeError::Field { field, value: 3, .. }) => assert_eq!(field.name, "src1_reg_file"),
            other => panic!("{p}: expected a src1_reg_file error, got {other:?}"),
        }
    }
}

/// On Gen8 a 64-bit immediate fills bits 127:64 and must be src0; as src1
/// (only DW3 is free) decode took its 32 bits while encode refused.
/// Decode now refuses a 64-bit src1 immediate, naming src1's type.
#[test]
fn gen8_64bit_src1_immediate_decodes_but_does_not_encode() {
    for p in [Platform::Gen8, Platform::Chv] {
        let mut i = mov_align1();
        i.opcode = Opcode::Add;
        i.src[1] = Src::imm(Type::F);
        i.imm = 0x3f80_0000;
        let mut w = Word(word(p, &i));
        let df = Type::DF.imm_hw(p).unwrap();
        gen8_native::set_src1_reg_type(&mut w, df).unwrap();
        match decode_u128(p, w.0) {
            Err(DecodeError::Field { field, value, .. }) => {
                assert_eq!((field.name, value), ("src1_reg_type", u64::from(df)))
            }
            other => panic!("{p}: expected a src1_reg_type error, got {other:?}"),
        }
    }
}

/// A register descriptor whose dword holds hidden bits of src1 (`null`'s
/// low number bits and a subregister below one UD, printed `null.0`)
/// assembles back from its disassembly: the descriptor check compares the
/// operand as the printer shows it, the subregister's byte remainder
/// included (found by fuzzing text_roundtrip).
#[test]
#[cfg(feature = "check")] // the shared property checks (`geneu::check`)
fn register_descriptor_with_hidden_src1_bits_roundtrips() {
    let word = [0x32, 0, 0, 0, 0x14, 0, 0x18, 0xcd, 0, 1, 0x60, 0, 0x21, 0, 0x46, 4];
    geneu::check::text::check_asm_roundtrip(Platform::Gen7, &word);
}

/// A Haswell align16 `brd` with its offsets in a register shows its
/// destination, whose hidden stride (0 in this mutated corpus word) the
/// text must annotate: found by `text_roundtrip`'s mutated corpus words.
#[cfg(feature = "check")]
#[test]
fn align16_register_brd_keeps_its_destination_stride() {
    let w: [u8; 16] = [
        0x21, 0x01, 0x60, 0x0a, 0xbd, 0x03, 0x6f, 0x01, 0x24, 0x60, 0x0e, 0x00, 0x00, 0x00, 0x00, 0x00,
    ];
    geneu::check::text::check_asm_roundtrip(Platform::Gen75, &w);
}
