//! Property checks shared by the fuzz targets (`fuzz/`) and the property
//! tests (`tests/props.rs`).
//!
//! Each function states one property of the library and **panics when the
//! property is violated**; on inputs where it holds it returns normally.
//! The fuzz targets and the `cargo test` properties call the very same
//! functions, so a crash found by one is reproduced by the other.
//!
//! These are not for use on an input path: they exist to be driven by a
//! fuzzer or a property-test runner. See `FUZZING.md` for how to run them.
// Panicking on a broken property is the whole point of this module: the
// fuzzer and the test harness detect violations as panics.
#![allow(clippy::panic)]

use alloc::string::ToString;

use crate::codec::{decode, encode, encode_unchecked};
use crate::model::*;
use crate::validate::validate;

/// Splits a fuzzer input into a platform (from the low two bits of its
/// first byte) and the rest. `None` for an empty input.
///
/// Every target that takes raw bytes uses this layout, so a seed file is a
/// platform byte followed by the payload (see `scripts/seed-corpus`). Bit 2
/// of the first byte ([`MODE_BIT`]) selects how the rest is read where a
/// target has two input forms.
pub fn split_platform(data: &[u8]) -> Option<(Platform, &[u8])> {
    let (&first, rest) = data.split_first()?;
    Some((pick(&Platform::ALL, first, Platform::Gen8), rest))
}

/// The bit of the first input byte that selects a target's second input
/// form (a word rather than arbitrary data).
pub const MODE_BIT: u8 = 4;

/// The first byte that [`split_platform`] maps to `p`, with [`MODE_BIT`]
/// set if `word_mode`.
pub fn platform_byte(p: Platform, word_mode: bool) -> u8 {
    let n = Platform::ALL.iter().position(|&q| q == p).unwrap_or(0) as u8;
    if word_mode {
        n | MODE_BIT
    } else {
        n
    }
}

/// Element `b` (modulo the length) of a non-empty list, or `default`.
fn pick<T: Copy>(all: &[T], b: u8, default: T) -> T {
    all.get(usize::from(b) % all.len().max(1)).copied().unwrap_or(default)
}

/// Overwrites one part of `inst`, selected by `field`, with bits of
/// `value`. Values go somewhat past each field's range, so that both the
/// encodable and the refused neighbourhood of real instructions is reached.
/// The high three bits of `field` select the source operand.
pub fn perturb(inst: &mut Instruction, field: u8, value: u64) {
    let b = value as u8;
    let k = usize::from(field >> 5) % 3;
    let i = inst;
    match field & 31 {
        0 => i.imm = value,
        1 => i.imm ^= 1 << (value % 64),
        2 => i.opcode = pick(Opcode::ALL, b, Opcode::Nop),
        3 => i.exec_size = pick(ExecSize::ALL, b, ExecSize::S1),
        4 => i.access_mode = pick(AccessMode::ALL, b, AccessMode::Align1),
        5 => i.thread_control = pick(ThreadControl::ALL, b, ThreadControl::Normal),
        6 => i.qtr_control = b & 7,
        7 => i.pred_control = b & 31,
        8 => i.cond_modifier = b & 31,
        9 => i.controls = Controls::from_bits_truncate(value as u16),
        10 => {
            i.flag = FlagReg {
                nr: b & 3,
                subnr: (b >> 2) & 3,
            }
        }
        11 => i.dst.file = pick(RegFile::ALL, b, RegFile::Grf),
        12 => i.dst.ty = pick(&Type::ALL, b, Type::UD),
        13 => i.dst.addr = addr(value),
        14 => i.dst.hstride = b & 7,
        15 => i.dst.writemask = WriteMask::from_bits_truncate(b),
        16 => i.dst = Dst::null(),
        field => {
            let Some(s) = i.src.get_mut(k) else { return };
            match field {
                17 => s.file = pick(RegFile::ALL, b, RegFile::Grf),
                18 => s.ty = pick(&Type::ALL, b, Type::UD),
                19 => s.addr = addr(value),
                20 => {
                    s.region = Region {
                        vstride: b & 0x1f,
                        width: (value >> 8) as u8 & 7,
                        hstride: (value >> 16) as u8 & 7,
                    }
                }
                21 => s.swizzle = Swizzle(b),
                22 => s.mods = SrcMods::from_bits_truncate(b),
                23 => *s = Src::ZERO,
                24 => i.src.swap(k, (k + 1) % 3),
                _ => {}
            }
        }
    }
}

/// An address from the bits of `v`: direct or indirect, with register,
/// subregister and offset somewhat past their encodable ranges.
fn addr(v: u64) -> Addr {
    if v & 1 == 0 {
        Addr::Direct {
            nr: (v >> 8) as u8,
            subnr: (v >> 16) as u8 & 63,
        }
    } else {
        Addr::Indirect {
            subnr: (v >> 8) as u8 & 31,
            imm: (v >> 16) as u16 as i16 >> 5,
        }
    }
}

/// Reads a decoded word and perturbations: platform byte, a 16-byte word
/// that must decode, then any number of `(field, value)` pairs of one byte
/// and eight little-endian bytes (a short last value is zero-padded),
/// applied in order with [`perturb`].
pub fn perturbed_instruction(data: &[u8]) -> Option<(Platform, Instruction)> {
    let (p, rest) = split_platform(data)?;
    let (word, mut rest) = rest.split_first_chunk::<16>()?;
    let mut inst = decode(p, word).ok()?;
    while let Some((&field, tail)) = rest.split_first() {
        let n = tail.len().min(8);
        let (v, tail) = tail.split_at(n);
        let mut value = [0u8; 8];
        if let Some(dst) = value.get_mut(..n) {
            dst.copy_from_slice(v);
        }
        perturb(&mut inst, field, u64::from_le_bytes(value));
        rest = tail;
    }
    Some((p, inst))
}

/// The instruction input of the `encode_roundtrip` and `validate` targets.
/// With [`MODE_BIT`] set in the first byte, a word and perturbations
/// ([`perturbed_instruction`]); otherwise an `Instruction` built by
/// `arbitrary` from the rest (with the `arbitrary` feature; without it,
/// `None`).
pub fn instruction_input(data: &[u8]) -> Option<(Platform, Instruction)> {
    let (&first, rest) = data.split_first()?;
    if first & MODE_BIT != 0 {
        return perturbed_instruction(data);
    }
    #[cfg(feature = "arbitrary")]
    {
        use arbitrary::Arbitrary;
        let (p, _) = split_platform(data)?;
        let inst = Instruction::arbitrary_take_rest(arbitrary::Unstructured::new(rest)).ok()?;
        Some((p, inst))
    }
    #[cfg(not(feature = "arbitrary"))]
    {
        let _ = rest;
        None
    }
}

/// Decode/encode symmetry on a word: if `bytes` decodes on `p`,
/// [`encode_unchecked`] gives back the same 16 bytes; if the decoded
/// instruction also passes [`validate`], checked [`encode`] gives them too.
/// Decoding never panics, whatever the bytes.
pub fn decode_roundtrip(p: Platform, bytes: &[u8; 16]) {
    let Ok(inst) = decode(p, bytes) else {
        return;
    };
    match encode_unchecked(p, &inst) {
        Ok(back) => assert_eq!(
            &back, bytes,
            "{p}: decode then encode_unchecked changed the word; decoded {inst:?}"
        ),
        Err(e) => panic!("{p}: a decoded word does not re-encode: {e}; decoded {inst:?}"),
    }
    match validate(p, &inst) {
        Ok(()) => match encode(p, &inst) {
            Ok(back) => assert_eq!(&back, bytes, "{p}: checked encode changed the word; decoded {inst:?}"),
            Err(e) => panic!("{p}: validate passed but checked encode failed: {e}; decoded {inst:?}"),
        },
        Err(v) => {
            // The report is printable, and checked encoding refuses the word.
            let _ = v.to_string();
            assert!(
                encode(p, &inst).is_err(),
                "{p}: validate failed ({v}) but checked encode accepted {inst:?}"
            );
        }
    }
}

/// Encode/decode symmetry on an instruction: if [`encode_unchecked`]
/// accepts `inst` on `p`, decoding the word gives back an equal
/// instruction, and checked [`encode`] agrees with [`validate`] (it
/// succeeds with the same word exactly when validation passes).
pub fn encode_roundtrip(p: Platform, inst: &Instruction) {
    let Ok(bytes) = encode_unchecked(p, inst) else {
        assert!(
            encode(p, inst).is_err(),
            "{p}: checked encode accepted what encode_unchecked refused: {inst:?}"
        );
        return;
    };
    match decode(p, &bytes) {
        Ok(back) => assert_eq!(
            &back, inst,
            "{p}: encode_unchecked then decode changed the instruction (word {bytes:02x?})"
        ),
        Err(e) => panic!("{p}: an encoded word does not decode: {e} (word {bytes:02x?}); from {inst:?}"),
    }
    match (validate(p, inst), encode(p, inst)) {
        (Ok(()), Ok(checked)) => assert_eq!(checked, bytes, "{p}: checked and unchecked encode differ for {inst:?}"),
        (Ok(()), Err(e)) => panic!("{p}: validate passed but checked encode failed: {e}; {inst:?}"),
        (Err(_), Ok(_)) => panic!("{p}: validate failed but checked encode succeeded: {inst:?}"),
        (Err(_), Err(_)) => {}
    }
}

/// Validation never panics on any instruction, whatever its fields, and
/// its report (and checked encoding's error) can be displayed.
pub fn validate_no_panic(p: Platform, inst: &Instruction) {
    if let Err(v) = validate(p, inst) {
        assert!(!v.0.is_empty(), "{p}: validate failed with an empty report");
        let _ = v.to_string();
    }
    if let Err(e) = encode(p, inst) {
        let _ = e.to_string();
    }
}
