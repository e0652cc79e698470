//! Property checks shared by the fuzz targets (`fuzz/`) and the property
//! tests (`tests/props.rs` and the other `*_props.rs`), behind the `check`
//! feature (as cranelift keeps its fuzzing oracles behind `fuzz`).
//!
//! **Unstable**: these functions follow the library's internals and change
//! with them; they are not part of the stable API.
//!
//! - this module: the codec, validation, text and vISA-lowering properties
//!   of whole instructions and fuzzer inputs;
//! - [`msg`]: the message-descriptor property and its byte reader;
//! - [`text`]: the disassembler's and assembler's properties of one word
//!   (Mesa's syntax and IGA's);
//! - [`visa`]: structured vISA lowering cases;
//! - [`sim`]: generated programs and their equivalent forms (compacted,
//!   disassembled and assembled again), for the simulator's equivalence.
//!
//! | fuzz target | check | input |
//! |---|---|---|
//! | `decode_roundtrip` | [`decode_roundtrip`] | [`split_platform`] + word |
//! | `encode_roundtrip` | [`encode_roundtrip`] | [`instruction_input`] |
//! | `validate` | [`validate_no_panic`] | [`instruction_input`] |
//! | `text_roundtrip` | [`text_roundtrip`] | its own doc |
//! | `iga_roundtrip` | [`iga_roundtrip`] | its own doc |
//! | `descriptor_roundtrip` | [`msg::fuzz_check`] | its own doc |
//! | `visa_lower` | [`visa_lower`] | [`visa_input`] |
//! | `compact_roundtrip` | [`compact_roundtrip`] | its own doc |
//! | `sim_equiv` | [`sim::check_equiv`] | [`sim::arbitrary_program`] |
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

pub mod msg;
pub mod sim;
pub mod text;
pub mod visa;

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::codec::{decode, encode_unchecked};
use crate::compact::{CMPT_CONTROL_BYTE, CMPT_CONTROL_IN_BYTE_3};
use crate::encode;
use crate::model::*;
use crate::text::{assemble_listing, assemble_with, assemble_words_with, AsmErrors, AsmOptions, Assembled, Assembler};
use crate::validate::{validate, validate_full};
use crate::visa::{
    lower, ExecCtl, GeneralVar, LowerCtx, Placement, PredCtl, RelOp, VarTable, VecOperand, VisaInst, VisaOp, VisaType,
};
use crate::word::fields::gen8_native as n;
use crate::word::FieldInfo;

/// Splits a fuzzer input into a platform (from the low two bits of its
/// first byte) and the rest. `None` for an empty input.
///
/// Every target that takes raw bytes uses this layout, so a seed file is a
/// platform byte followed by the payload (see `examples/fuzz_seeds.rs`). Bit 2
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

/// The low bits of `v` that hold a value of the word field `f` and one
/// bit more: values up to twice past the field's range.
fn past(v: u64, f: &FieldInfo) -> u8 {
    (v & ((2 << f.width) - 1)) as u8
}

/// The low bits of `v` that hold a value of the word field `f`.
fn within(v: u64, f: &FieldInfo) -> u8 {
    (v & ((1 << f.width) - 1)) as u8
}

/// Overwrites one part of `inst`, selected by `field`, with bits of
/// `value`. Values go somewhat past each field's range (the widest
/// platform's, `past`), so that both the encodable and the refused
/// neighbourhood of real instructions is reached.
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
        6 => i.qtr_control = past(value, &n::QTR_CONTROL),
        7 => i.pred_control = past(value, &n::PRED_CONTROL),
        8 => i.cond_modifier = past(value, &n::COND_MODIFIER),
        9 => i.controls = Controls::from_bits_truncate(value as u16),
        10 => {
            i.flag = FlagReg {
                nr: past(value, &n::FLAG_REG_NR),
                subnr: past(value >> (n::FLAG_REG_NR.width + 1), &n::FLAG_SUBREG_NR),
            }
        }
        11 => i.dst.file = pick(RegFile::ALL, b, RegFile::Grf),
        12 => i.dst.ty = pick(&Type::ALL, b, Type::UD),
        13 => i.dst.addr = addr(value),
        14 => i.dst.hstride = past(value, &n::DST_HSTRIDE),
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
                        vstride: past(value, &n::SRC0_VSTRIDE),
                        width: within(value >> 8, &n::SRC0_WIDTH),
                        hstride: past(value >> 16, &n::SRC0_HSTRIDE),
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
            subnr: past(v >> 16, &n::DST_DA1_SUBREG_NR),
        }
    } else {
        // The immediate is signed, one bit wider than the field.
        const IMM_SHIFT: u32 = u16::BITS - (n::DST_IA1_ADDR_IMM.width + 1);
        Addr::Indirect {
            subnr: past(v >> 8, &n::DST_IA_SUBREG_NR),
            imm: (v >> 16) as u16 as i16 >> IMM_SHIFT,
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
/// instruction also passes [`validate`], checked [`encode`] gives them too,
/// unless CmptCtrl is set (it refuses those).
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
        Ok(()) if inst.marked_compacted() => assert!(
            encode(p, &inst).is_err(),
            "{p}: checked encode wrote a 16-byte word with CmptCtrl set: {inst:?}"
        ),
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
/// succeeds with the same word exactly when validation passes and the
/// instruction is not marked compacted).
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
        (Ok(()), Ok(_)) if inst.marked_compacted() => {
            panic!("{p}: checked encode wrote a 16-byte word with CmptCtrl set: {inst:?}")
        }
        (Ok(()), Err(_)) if inst.marked_compacted() => {}
        (Ok(()), Ok(checked)) => assert_eq!(checked, bytes, "{p}: checked and unchecked encode differ for {inst:?}"),
        (Ok(()), Err(e)) => panic!("{p}: validate passed but checked encode failed: {e}; {inst:?}"),
        (Err(_), Ok(_)) => panic!("{p}: validate failed but checked encode succeeded: {inst:?}"),
        (Err(_), Err(_)) => {}
    }
}

/// Validation never panics on any instruction, whatever its fields, and
/// its report (and checked encoding's error) can be displayed. Its fast
/// accept never disagrees with the rules: `validate` gives exactly what
/// [`validate_full`] (every rule, no shortcut) gives. Checked `encode`
/// accepts only what `validate` accepts.
pub fn validate_no_panic(p: Platform, inst: &Instruction) {
    let verdict = validate(p, inst);
    assert_eq!(
        verdict,
        validate_full(p, inst),
        "{p}: fast accept and the full rule set disagree on {inst:?}"
    );
    if let Err(v) = &verdict {
        assert!(!v.0.is_empty(), "{p}: validate failed with an empty report");
        let _ = v.to_string();
    }
    match encode(p, inst) {
        Ok(_) => assert!(
            verdict.is_ok(),
            "{p}: encode accepted an instruction that validate rejects: {inst:?}"
        ),
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

// ---------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------

/// The `text_roundtrip` property on fuzzer bytes. The first byte gives the
/// platform ([`split_platform`]); with [`MODE_BIT`] set, the next 16 bytes
/// are a word checked by [`disasm_asm_fixpoint`], otherwise the rest is
/// text (invalid UTF-8 replaced) checked by [`assemble_no_panic`].
pub fn text_roundtrip(data: &[u8]) {
    word_or_text(data, disasm_asm_fixpoint, assemble_no_panic);
}

/// The layout [`text_roundtrip`] and [`iga_roundtrip`] share: the first
/// byte gives the platform; with [`MODE_BIT`] set, the next 16 bytes are
/// a word for `word`, otherwise the rest is text (invalid UTF-8
/// replaced) for `text`.
fn word_or_text(data: &[u8], word: fn(Platform, &[u8; 16]), text: fn(Platform, &str)) {
    let Some((&first, _)) = data.split_first() else {
        return;
    };
    let Some((p, rest)) = split_platform(data) else {
        return;
    };
    if first & MODE_BIT != 0 {
        if let Some(w) = rest.first_chunk::<16>() {
            word(p, w);
        }
    } else {
        text(p, &String::from_utf8_lossy(rest));
    }
}

/// The `iga_roundtrip` property on fuzzer bytes, in the layout of
/// [`text_roundtrip`]: the first byte gives the platform
/// ([`split_platform`]); with [`MODE_BIT`] set, the next 16 bytes are a
/// word checked by [`text::check_iga_roundtrip`] (IGA-syntax disassembly
/// then assembly gives the same bytes, and IGA's own text is a fixpoint),
/// otherwise the rest is text (invalid UTF-8 replaced) checked by
/// [`text::check_iga_assemble`] (the IGA-syntax reader never panics).
pub fn iga_roundtrip(data: &[u8]) {
    word_or_text(data, text::check_iga_roundtrip, text::check_iga_assemble);
}

/// The assembler never panics, whatever the text. A failed assembly
/// reports at least one error, each displayable and with a position inside
/// the text; a successful one gives as many words as instructions, each
/// the unchecked encoding of its instruction and decoding back to it, and
/// with checked assembly each instruction passes [`validate`].
pub fn assemble_no_panic(p: Platform, src: &str) {
    // Cut in pieces or in parts joined with `Assembler::append`, at about
    // a third and two thirds of the text, the result is the whole's.
    let whole = assemble_listing(p, src, AsmOptions::CHECKED);
    let cuts = line_starts_near(src, 3);
    let size = cuts.first().copied().unwrap_or(src.len()).max(1);
    assert!(
        assemble_in_pieces(p, src, size, AsmOptions::CHECKED) == whole,
        "{p}: pieces of {size} bytes differ from the whole"
    );
    // Parts started on line 1: errors are renumbered when joined; the
    // records keep the lines their part gave them.
    let words =
        |r: Result<Vec<Assembled>, AsmErrors>| r.map(|v| v.iter().map(|x| (x.inst, x.word)).collect::<Vec<_>>());
    assert!(
        words(assemble_in_parts(p, src, &cuts, AsmOptions::CHECKED, false).0) == words(whole.clone()),
        "{p}: parts cut at {cuts:?} differ from the whole"
    );
    let lines = src.split('\n').count();
    for opts in [AsmOptions::CHECKED, AsmOptions::LENIENT, AsmOptions::UNCHECKED] {
        let insts = assemble_with(p, src, opts);
        let words = assemble_words_with(p, src, opts);
        match (insts, words) {
            (Ok(insts), Ok(words)) => {
                assert_eq!(insts.len(), words.len(), "{p}: instructions and words differ in number");
                for (i, w) in insts.iter().zip(&words) {
                    // The word is the native one, also for an instruction
                    // the text marks `compacted` (which keeps the mark).
                    assert_eq!(
                        crate::codec::native_word(p, i).map(|w| w.to_bytes()).as_ref(),
                        Ok(w),
                        "{p}: assembled word is not the native encoding of {i:?}"
                    );
                    let native = i.native();
                    assert_eq!(
                        decode(p, w).as_ref(),
                        Ok(&native),
                        "{p}: assembled word {w:02x?} does not decode back"
                    );
                    match opts.strictness {
                        crate::Strictness::Strict => {
                            assert_eq!(validate(p, i), Ok(()), "{p}: checked assembly gave an invalid {i:?}");
                        }
                        crate::Strictness::Lenient => {
                            let warned = validate(p, i).err().unwrap_or_default();
                            assert!(!warned.any_documented(), "{p}: lenient assembly let through {warned}");
                        }
                        _ => {}
                    }
                }
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "{p}: the two assembly entry points report different errors");
                assert!(!a.0.is_empty(), "{p}: assembly failed without an error");
                for e in &a.0 {
                    assert!(
                        e.line >= 1 && e.line as usize <= lines && e.column >= 1,
                        "{p}: error outside the text: {e}"
                    );
                }
                let _ = a.to_string();
            }
            (a, b) => panic!("{p}: the two assembly entry points disagree: {a:?} vs {b:?}"),
        }
    }
}

/// The line starts nearest `parts - 1` evenly spread points of `src`, in
/// order, without repeats (none past the end).
pub fn line_starts_near(src: &str, parts: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = Vec::new();
    for k in 1..parts {
        let at = src.len() / parts * k;
        let Some(cut) = src
            .as_bytes()
            .get(at..)
            .and_then(|b| b.iter().position(|&c| c == b'\n'))
            .map(|i| at + i + 1)
        else {
            break;
        };
        if cut < src.len() && cuts.last().map_or(true, |&c| c < cut) {
            cuts.push(cut);
        }
    }
    cuts
}

/// Stores `x` as record `k` of `out`: appended when `k` is the next index,
/// replacing the earlier one otherwise (a flow-control instruction comes
/// again from [`Assembler::finish`]); records arrive in order.
fn put_in_order(out: &mut Vec<Assembled>, k: usize, x: &Assembled) {
    assert!(k <= out.len(), "instructions arrive in order");
    crate::text::asm::put(out, k, x.clone());
}

/// Assembles `text` fed to one [`Assembler`] in pieces of about `size`
/// bytes, cut after line ends as `geneu asm` cuts a file (a piece grows
/// when no statement completes in it), checking what [`Assembler::feed`]
/// promises about the bytes it uses.
pub fn assemble_in_pieces(p: Platform, text: &str, size: usize, opts: AsmOptions) -> Result<Vec<Assembled>, AsmErrors> {
    let mut a = Assembler::new(p, opts);
    let mut out: Vec<Assembled> = Vec::new();
    let (mut start, mut want): (usize, usize) = (0, size.max(1));
    loop {
        let end = start.saturating_add(want).min(text.len());
        let last = end == text.len();
        let cut = if last {
            end
        } else {
            match text
                .as_bytes()
                .get(start..end)
                .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
            {
                Some(i) => start + i + 1,
                None => {
                    want = want.saturating_mul(2);
                    continue;
                }
            }
        };
        let piece = text.get(start..cut).unwrap_or("");
        let used = a.feed(piece, last, |k, x| put_in_order(&mut out, k, x));
        if last {
            assert_eq!(used, piece.len(), "the last piece is used whole");
            break;
        }
        assert!(used <= piece.len());
        assert!(
            used == 0 || text.as_bytes().get(start + used - 1) == Some(&b'\n'),
            "pieces resume at a line start"
        );
        if used < piece.len() / 2 {
            want = want.saturating_mul(2);
        }
        start += used;
    }
    let n = a.finish(|k, x| put_in_order(&mut out, k, x))?;
    assert_eq!(n, out.len());
    Ok(out)
}

/// Assembles `text` in parts cut at `cuts` (line starts, increasing),
/// each by its own [`Assembler::starting_at`] the cut (on its true line,
/// or on line 1 when `count_lines` is off: [`Assembler::append`]
/// renumbers), joined in order with [`Assembler::append`], as `geneu asm`
/// does on several threads. A part that did not begin where the text
/// before it ended is assembled again from there, up to the next cut,
/// and the parts after it are joined again. Gives the result (with
/// `count_lines` off, only the words and errors are the whole's: the
/// records of a part keep its lines) and how many parts were joined.
pub fn assemble_in_parts(
    p: Platform,
    text: &str,
    cuts: &[usize],
    opts: AsmOptions,
    count_lines: bool,
) -> (Result<Vec<Assembled>, AsmErrors>, usize) {
    let part_end = |k: usize| cuts.get(k + 1).copied().unwrap_or(text.len());
    let mut out: Vec<Assembled> = Vec::new();
    let mut a = Assembler::new(p, opts);
    let first_end = cuts.first().copied().unwrap_or(text.len());
    let used = a.feed(text.get(..first_end).unwrap_or(""), first_end == text.len(), |k, x| {
        put_in_order(&mut out, k, x)
    });
    let mut at = used;
    let mut joined = 0;
    for (k, &start) in cuts.iter().enumerate() {
        let end = part_end(k);
        let line = if count_lines {
            1 + text.get(..start).map_or(0, |t| t.matches('\n').count()) as u32
        } else {
            1
        };
        let mut b = Assembler::starting_at(p, opts, start as u64, line);
        let mut records: Vec<Assembled> = Vec::new();
        let used = b.feed(text.get(start..end).unwrap_or(""), end == text.len(), |k, x| {
            put_in_order(&mut records, k, x)
        });
        if at == start {
            assert!(a.append(b).is_ok(), "a part that began where the text before it ended");
            out.extend(records);
            at = start + used;
            joined += 1;
            continue;
        }
        // The part before ended inside a statement: `append` refuses, and
        // this part is assembled again from there.
        let n = a.count();
        assert!(a.append(b).is_err());
        assert_eq!(a.count(), n);
        let piece = text.get(at..end).unwrap_or("");
        at += a.feed(piece, end == text.len(), |k, x| put_in_order(&mut out, k, x));
    }
    if at < text.len() {
        a.feed(text.get(at..).unwrap_or(""), true, |k, x| put_in_order(&mut out, k, x));
    }
    let r = a.finish(|k, x| put_in_order(&mut out, k, x)).map(|n| {
        assert_eq!(n, out.len());
        out
    });
    (r, joined)
}

/// Disassembly never panics and prints one well-formed record
/// ([`text::check_disasm`]), and for a word that decodes, its text
/// assembles back to it ([`text::check_asm_roundtrip`], whose
/// documentation gives the exact property and its one documented limit:
/// bits that Mesa's text does not show come back in their canonical form,
/// which then round-trips exactly).
pub fn disasm_asm_fixpoint(p: Platform, bytes: &[u8; 16]) {
    text::check_disasm(p, bytes);
    text::check_asm_roundtrip(p, bytes);
}

// ---------------------------------------------------------------------------
// vISA lowering
// ---------------------------------------------------------------------------

/// Reads a `visa_lower` input (after the platform byte), in order:
///
/// | bytes | field |
/// |---|---|
/// | 1 | opcode: `VisaOp::ALL[b % 36]`; a CMP's relation is `RelOp::ALL[(b / 36) % 6]` |
/// | 1 | vISA execution-size byte ([`ExecCtl::from_byte`]) |
/// | 2 | predicate UW, little-endian ([`PredCtl::from_inst_uw`]; 0 is none) |
/// | 1 | temporary GRF (`0xff`: none) |
/// | 1 | scratch flag: bit 7 clear gives `f{(b >> 1) & 3}.{b & 1}`, set gives none |
/// | 1 | counts: general `b & 7`, address `(b >> 3) & 3`, predicate `b >> 5` |
/// | 5 each | general variable: type (low 4 bits; bit 7 makes it a null variable), elements (u16), GRF byte (u16) |
/// | 2 each | address variable: elements, `a0` subregister |
/// | 2 each | predicate variable: elements, flag (`f{(b >> 4) & 3}.{b & 3}`) |
/// | rest | destination, then up to the opcode's number of sources, as binary vector operands ([`VecOperand::parse`]) |
///
/// `None` if the bytes end early or an exec, predicate or operand field
/// has a reserved value; fewer sources than the opcode takes are kept (the
/// lowering must refuse them). Values are otherwise not range-checked, so
/// that lowering sees every bad table too.
pub fn visa_input(data: &[u8]) -> Option<(Platform, VarTable, LowerCtx, VisaInst)> {
    let (p, rest) = split_platform(data)?;
    let (head, mut rest) = rest.split_first_chunk::<7>()?;
    let [opb, execb, pred0, pred1, temp, flag, counts] = *head;
    let op = match VisaOp::ALL.get(usize::from(opb) % VisaOp::ALL.len()).copied()? {
        VisaOp::Cmp(_) => VisaOp::Cmp(*RelOp::ALL.get(usize::from(opb / 36) % 6)?),
        op => op,
    };
    let exec = ExecCtl::from_byte(execb).ok()?;
    let pred = PredCtl::from_inst_uw(u16::from_le_bytes([pred0, pred1])).ok()?;
    let ctx = LowerCtx {
        temp_grf: (temp != 0xff).then_some(temp),
        scratch_flag: (flag & 0x80 == 0).then_some(FlagReg {
            nr: (flag >> 1) & 3,
            subnr: flag & 1,
        }),
        ..LowerCtx::default()
    };
    let mut vars = VarTable::new();
    for _ in 0..counts & 7 {
        let (v, r) = rest.split_first_chunk::<5>()?;
        rest = r;
        let [ty, e0, e1, b0, b1] = *v;
        vars.general.push(GeneralVar {
            ty: VisaType::from_bits(ty & 15),
            elements: u32::from(u16::from_le_bytes([e0, e1])),
            placement: if ty & 0x80 != 0 {
                Placement::Null
            } else {
                Placement::Grf(u32::from(u16::from_le_bytes([b0, b1])))
            },
        });
    }
    for _ in 0..(counts >> 3) & 3 {
        let (&[elements, subreg], r) = rest.split_first_chunk::<2>()?;
        rest = r;
        vars.add_address(elements, subreg);
    }
    for _ in 0..counts >> 5 {
        let (&[elements, f], r) = rest.split_first_chunk::<2>()?;
        rest = r;
        vars.add_predicate(
            elements,
            FlagReg {
                nr: (f >> 4) & 3,
                subnr: f & 3,
            },
        );
    }
    let mut ops = Vec::with_capacity(4);
    while ops.len() < 1 + op.num_srcs() && !rest.is_empty() {
        let (o, n) = VecOperand::parse(rest).ok()?;
        ops.push(o);
        rest = rest.get(n..)?;
    }
    let (&dst, src) = ops.split_first()?;
    let mut inst = VisaInst::new(op, exec, dst, src);
    inst.pred = pred;
    Some((p, vars, ctx, inst))
}

/// Writes the input that [`visa_input`] reads back as these values, for
/// seeds and tests. `None` if a value has no place in that layout (more
/// variables than the counts hold, or more than 65535 elements or bytes).
pub fn visa_input_bytes(p: Platform, vars: &VarTable, ctx: &LowerCtx, inst: &VisaInst) -> Option<Vec<u8>> {
    let (ng, na, np) = (vars.general.len(), vars.address.len(), vars.predicate.len());
    if ng > 7 || na > 3 || np > 7 {
        return None;
    }
    let op = match inst.op {
        VisaOp::Cmp(r) => 23 + 36 * RelOp::ALL.iter().position(|&q| q == r)?,
        op => VisaOp::ALL.iter().position(|&q| q == op)?,
    };
    let pred = match inst.pred {
        Some(pc) => pc.to_uw().ok()?,
        None => 0,
    };
    let mut out = Vec::with_capacity(64);
    out.push(platform_byte(p, false));
    out.push(u8::try_from(op).ok()?);
    out.push(inst.exec.to_byte());
    out.extend_from_slice(&pred.to_le_bytes());
    out.push(ctx.temp_grf.unwrap_or(0xff));
    out.push(match ctx.scratch_flag {
        Some(f) if f.nr < 4 && f.subnr < 2 => f.nr << 1 | f.subnr,
        Some(_) => return None,
        None => 0x80,
    });
    out.push(ng as u8 | (na as u8) << 3 | (np as u8) << 5);
    for g in &vars.general {
        let (null, byte) = match g.placement {
            Placement::Grf(b) => (0, u16::try_from(b).ok()?),
            _ => (0x80, 0),
        };
        out.push(g.ty.bits() | null);
        out.extend_from_slice(&u16::try_from(g.elements).ok()?.to_le_bytes());
        out.extend_from_slice(&byte.to_le_bytes());
    }
    for a in &vars.address {
        out.extend_from_slice(&[a.elements, a.subreg]);
    }
    for v in &vars.predicate {
        if v.flag.nr > 3 || v.flag.subnr > 3 {
            return None;
        }
        out.extend_from_slice(&[v.elements, v.flag.nr << 4 | v.flag.subnr]);
    }
    inst.dst.write(&mut out).ok()?;
    for s in &inst.src {
        s.write(&mut out).ok()?;
    }
    Some(out)
}

/// vISA lowering never panics, whatever the instruction, operands and
/// variable table ([`visa_input`] reads them from fuzzer bytes), and every
/// instruction it produces passes [`validate`], encodes with checked
/// [`encode`] and decodes back to itself. A refusal is displayable.
pub fn visa_lower(data: &[u8]) {
    let Some((p, vars, ctx, inst)) = visa_input(data) else {
        return;
    };
    match lower(p, &vars, &ctx, &inst) {
        Ok(out) => visa::check_lowered(p, &out, &(&inst, &vars)),
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Compaction symmetry, on one input (fuzz target `compact_roundtrip`).
///
/// Input: a platform byte ([`split_platform`]), then:
/// - with [`MODE_BIT`]: a compacted word (8 bytes, CmptCtrl forced on),
///   checked by [`compact_word_roundtrip`], then the rest as a stream of
///   8- and 16-byte instructions, checked by [`compact_program_roundtrip`];
/// - without: an instruction ([`instruction_input`]), checked by
///   [`compact_instruction_roundtrip`].
pub fn compact_roundtrip(data: &[u8]) {
    let Some((p, rest)) = split_platform(data) else { return };
    if data.first().is_some_and(|b| b & MODE_BIT != 0) {
        if let Some((w, tail)) = rest.split_first_chunk::<8>() {
            let mut w = *w;
            w[CMPT_CONTROL_BYTE] |= CMPT_CONTROL_IN_BYTE_3;
            compact_word_roundtrip(p, &w);
            compact_program_roundtrip(p, tail);
        }
    } else if let Some((p, inst)) = instruction_input(data) {
        compact_instruction_roundtrip(p, &inst);
    }
}

/// A compacted word decodes exactly when it uncompacts to a native word
/// that decodes; then it compacts back to the same 8 bytes (whichever of
/// the subregister indices that stand for its native word it holds), and
/// decodes as its native form does, with `COMPACTED` set. Decoding never
/// panics.
pub fn compact_word_roundtrip(p: Platform, bytes: &[u8; 8]) {
    use crate::compact::{compact, decode_compact, uncompact_word, CompactWord};
    let decoded = decode_compact(p, bytes);
    let native = uncompact_word(p, CompactWord::from_bytes(*bytes));
    let native_inst = native.as_ref().ok().map(|w| crate::codec::decode_word(p, *w));
    let inst = match (decoded, native_inst) {
        (Ok(inst), Some(Ok(_))) => inst,
        (Err(_), None | Some(Err(_))) => return,
        (Ok(inst), _) => panic!("{p}: decoded, but its native form does not: {inst:?}"),
        (Err(e), Some(Ok(n))) => panic!("{p}: its native form decodes ({n:?}) but the compacted word does not: {e}"),
    };
    assert_eq!(
        compact(p, &inst).map(|c| c.to_bytes()),
        Some(*bytes),
        "{p}: compact(decode(c)) != c; decoded {inst:?}"
    );
    let Ok(native) = native else { return };
    assert_eq!(
        crate::codec::decode_word(p, native),
        Ok(inst.native()),
        "{p}: the compacted word and its native form decode differently"
    );
}

/// An instruction that compacts comes back from its compacted word, with
/// `COMPACTED` set, and its native encoding uncompacts bit for bit.
pub fn compact_instruction_roundtrip(p: Platform, inst: &Instruction) {
    use crate::compact::{compact, decode_compact_word, uncompact_word};
    let Some(c) = compact(p, inst) else { return };
    let mut want = *inst;
    want.controls.insert(Controls::COMPACTED);
    assert_eq!(
        decode_compact_word(p, c),
        Ok(want),
        "{p}: uncompact(compact(i)) != i for {c:?}"
    );
    let native = crate::codec::encode_word(p, &inst.native())
        .unwrap_or_else(|e| panic!("{p}: compacted but does not encode: {e}"));
    assert_eq!(
        uncompact_word(p, c),
        Ok(native),
        "{p}: {c:?} does not uncompact to the native word"
    );
}

/// Any bytes as a stream of 8- and 16-byte instructions: decoding never
/// panics and covers the input exactly; when the program compacts, the
/// result decodes, and its native form is the input's native form (every
/// branch lands on the same instruction).
pub fn compact_program_roundtrip(p: Platform, bytes: &[u8]) {
    use crate::compact::{compact_program, decode_stream, pieces, uncompact_program};
    let covered: usize = pieces(bytes).map(|(_, piece)| piece.len()).sum();
    assert_eq!(covered, bytes.len(), "{p}: the pieces do not cover the stream");
    let items: Vec<_> = decode_stream(p, bytes).collect();
    for (o, r) in &items {
        if let Err(e) = r {
            let _ = (o, e.to_string());
        }
    }
    let Ok(c) = compact_program(p, bytes) else { return };
    assert!(
        decode_stream(p, &c.bytes).all(|(_, r)| r.is_ok()),
        "{p}: a compacted program does not decode"
    );
    match (uncompact_program(p, bytes), uncompact_program(p, &c.bytes)) {
        (Ok(a), Ok(b)) => assert_eq!(a.bytes, b.bytes, "{p}: compacting changed the program's native form"),
        (Err(_), _) => {}
        (Ok(_), Err(e)) => panic!("{p}: a compacted program does not uncompact: {e}"),
    }
}
