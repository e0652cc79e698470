//! The codec: [`Instruction`] ⇄ 128-bit word, per platform, lossless.
//!
//! Every bit the hardware defines is decoded into the model, so
//! `encode(decode(w)) == w` for every word that decodes. Reserved bits
//! and undefined encodings are refused with the field and bits named.
//!
//! Layout of the immediate payload [`Instruction::imm`]:
//! - a 32-bit immediate (src0 or src1): DW3 in the low 32 bits;
//! - Gen8, src0 immediate of 32 bits: bits 95:64 that are not src1's file
//!   and type go in the high 32 bits (normally zero);
//! - Gen8, src0 immediate of 64 bits: the value, bits 127:64;
//! - Gen8 branches: JIP (DW3) low, UIP (DW2) high; Gen7/7.5 branches: DW3
//!   (JIP in bits 15:0, UIP in 31:16);
//! - register src1: DW3's bits above src1's fields (EOT of a SEND whose
//!   descriptor is in a register).

use crate::error::{DecodeError, EncodeError};
use crate::model::*;
use crate::word::fields::{gen7_3src, gen7_flow, gen7_native, gen8_3src, gen8_flow, gen8_native};
use crate::word::{FieldError, FieldInfo, Word};

/// Decodes a 16-byte instruction as stored in memory.
#[inline]
pub fn decode(p: Platform, bytes: &[u8; 16]) -> Result<Instruction, DecodeError> {
    decode_word(p, Word::from_bytes(*bytes))
}

/// Decodes a slice that must be exactly 16 bytes long.
pub fn decode_slice(p: Platform, bytes: &[u8]) -> Result<Instruction, DecodeError> {
    let arr: &[u8; 16] = bytes.try_into().map_err(|_| DecodeError::Length(bytes.len()))?;
    decode(p, arr)
}

/// Decodes a word.
#[inline]
pub fn decode_word(p: Platform, w: Word) -> Result<Instruction, DecodeError> {
    // The result lives in the caller's frame and the decoder fills it in
    // place: a decoded value copied out of another frame would be read
    // with wide loads over the decoder's narrow stores, which stalls on
    // store forwarding for longer than the decoding takes.
    let mut r = Ok(BLANK);
    decode_into(p, w, &mut r);
    r
}

/// Decodes `w` into `r` where it lies (a program's vector, for one): the
/// decoder's stores go straight there, and nothing copies the result out
/// of a frame (see [`decode_word`]).
#[inline]
pub(crate) fn decode_word_in_place(p: Platform, w: Word, r: &mut Result<Instruction, DecodeError>) {
    *r = Ok(BLANK);
    decode_into(p, w, r);
}

/// Decodes `w` into `r`, which holds `Ok(BLANK)` on entry.
#[inline(never)]
fn decode_into(p: Platform, w: Word, r: &mut Result<Instruction, DecodeError>) {
    let w = &w;
    if p.is_gen8() {
        gen8::decode_into(p, w, r)
    } else {
        gen7::decode_into(p, w, r)
    }
}

/// Whether `w` decodes: [`decode_word`]'s code with the instruction
/// dropped (its stores die, its checks stay).
#[inline(never)]
pub(crate) fn decodes(p: Platform, w: Word) -> bool {
    let mut r = Ok(BLANK);
    let w = &w;
    if p.is_gen8() {
        gen8::decode_into(p, w, &mut r)
    } else {
        gen7::decode_into(p, w, &mut r)
    }
    r.is_ok()
}

/// Encodes an instruction without checking hardware rules: only what the
/// platform cannot express at all is refused. For bring-up experiments;
/// compilers want checked [`crate::encode`], which validates first.
///
/// Refused besides: an instruction with [`Instruction::compact_subreg`],
/// which only a compacted word holds ([`crate::compact::compact`]).
pub fn encode_unchecked(p: Platform, inst: &Instruction) -> Result<[u8; 16], EncodeError> {
    only_native(inst)?;
    // The encoder's body is inlined here rather than called, so that the
    // word is built in registers instead of through a series of narrow
    // read-modify-writes in memory.
    encode_inline(p, inst).map(Word::to_bytes)
}

/// Encodes to a [`Word`] without checking hardware rules (refused as by
/// [`encode_unchecked`]).
pub fn encode_word(p: Platform, inst: &Instruction) -> Result<Word, EncodeError> {
    only_native(inst)?;
    encode_inline(p, inst)
}

/// Refuses an instruction whose [`Instruction::compact_subreg`] is set:
/// the 16-byte word cannot hold it.
#[inline(always)]
fn only_native(inst: &Instruction) -> Result<(), EncodeError> {
    if inst.compact_subreg != 0 {
        return Err(unenc(
            "compacted subregister index",
            "only a compacted word holds it; compact the instruction with compact::compact",
        ));
    }
    Ok(())
}

/// The native word an instruction stands for, CmptCtrl (bit 29) clear
/// whatever [`Controls::COMPACTED`] says and [`Instruction::compact_subreg`]
/// ignored: what a compacted instruction
/// uncompacts to, and what compaction and the text assembler (for an
/// instruction the text marks `compacted`) start from. Not checked.
#[inline]
pub(crate) fn native_word(p: Platform, inst: &Instruction) -> Result<Word, EncodeError> {
    let mut w = encode_inline(p, inst)?;
    if inst.marked_compacted() {
        const _: () = assert!(gen7_native::CMPT_CONTROL.mask() == gen8_native::CMPT_CONTROL.mask());
        // The same bit on every platform (asserted above).
        gen8_native::set_cmpt_control_unchecked(&mut w, 0);
    }
    Ok(w)
}

/// [`native_word`] of `base`, which is `inst` with the bytes `changed`
/// changed (see [`crate::canon::Note`]), given `w`, the native word of
/// `inst`: where only src0's region and swizzle changed, only they are
/// encoded (most annotated words: a SEND's payload region).
#[inline(always)]
pub(crate) fn native_word_changed(
    p: Platform,
    inst: &Instruction,
    w: Word,
    base: &Instruction,
    changed: u64,
) -> Result<Word, EncodeError> {
    use core::mem::{offset_of, size_of};
    const SRC0: usize = offset_of!(Instruction, src);
    const REGION: u64 = crate::canon::byte_bits(SRC0 + offset_of!(Src, region), size_of::<Region>())
        | crate::canon::byte_bits(SRC0 + offset_of!(Src, swizzle), size_of::<Swizzle>());
    if changed & !REGION == 0 {
        let r = if p.is_gen8() {
            gen8::with_src0_region(w, inst, &base.src[0])
        } else {
            gen7::with_src0_region(w, inst, &base.src[0])
        };
        if let Some(r) = r {
            return r;
        }
    }
    whole(p, base)
}

/// [`native_word`], out of [`native_word_changed`]'s line (the few words
/// it encodes whole).
#[cold]
#[inline(never)]
fn whole(p: Platform, base: &Instruction) -> Result<Word, EncodeError> {
    native_word(p, base)
}

#[inline(always)]
fn encode_inline(p: Platform, inst: &Instruction) -> Result<Word, EncodeError> {
    if !inst.opcode.exists_on(p) {
        return Err(EncodeError::Opcode {
            opcode: inst.opcode,
            platform: p,
        });
    }
    if p.is_gen8() {
        gen8::encode(p, inst)
    } else {
        gen7::encode(p, inst)
    }
}

const fn bad(field: &'static FieldInfo, value: u64, reason: &'static str) -> DecodeError {
    DecodeError::Field { field, value, reason }
}

/// The starting value of an instruction being decoded in place.
const BLANK: Instruction = Instruction::new(Opcode::Illegal, ExecSize::S1);

const fn unenc(what: &'static str, why: &'static str) -> EncodeError {
    EncodeError::Unencodable { what, why }
}

#[inline(always)]
fn sext(v: u32, bits: u32) -> i16 {
    let s = u32::BITS - bits;
    (((v << s) as i32) >> s) as i16
}

/// The region an align16 source decodes to: `<vstride;4,1>`, the widths
/// and strides align16 implies. Encoding requires exactly these.
use crate::isa::region::{A16_HSTRIDE, A16_WIDTH, HSTRIDE_1};
use crate::isa::{
    ADDRESS_MODE_DIRECT, ADDRESS_MODE_INDIRECT, ADDR_IMM_MAX, ADDR_IMM_MIN, GRF_BYTES, OWORD_BYTES,
    THREE_SRC_SUBREG_BYTES,
};

/// Why an address immediate outside the field's range cannot be encoded.
const ADDR_IMM_OUTSIDE: &str = crate::decimal::range_text!("outside ", ADDR_IMM_MIN, ADDR_IMM_MAX);

/// Generates the native and 3-source codec of one layout. `$n` is the
/// native table module, `$t` the 3-source one.
macro_rules! codec {
    ($n:ident, $t:ident, $gen8:expr) => {
        use super::*;
        use $n as n;
        use $t as t;

        const GEN8: bool = $gen8;

        #[inline(always)]
        fn file(field: &'static FieldInfo, v: u8) -> Result<RegFile, DecodeError> {
            RegFile::from_hw(v).ok_or_else(|| bad(field, v as u64, "MRF does not exist on Gen7+"))
        }

        #[inline(always)]
        fn ty(field: &'static FieldInfo, f: RegFile, v: u8) -> Result<Type, DecodeError> {
            // The tables depend only on the layout, known here at compile time.
            let tp = if GEN8 { Platform::Gen8 } else { Platform::Gen7 };
            let t = if f == RegFile::Imm { Type::from_imm_hw(tp, v) } else { Type::from_reg_hw(tp, v) };
            t.ok_or_else(|| bad(field, v as u64, "reserved type encoding"))
        }

        #[inline(always)]
        fn ty_hw(p: Platform, what: &'static str, f: RegFile, t: Type) -> Result<u8, EncodeError> {
            let v = if f == RegFile::Imm { t.imm_hw(p) } else { t.reg_hw(p) };
            v.ok_or_else(|| unenc(what, "type has no encoding for this file on this platform"))
        }

        /// The bits of an indirect address immediate: the align1 field's,
        /// a signed byte offset from [`ADDR_IMM_MIN`] to [`ADDR_IMM_MAX`].
        const ADDR_IMM_BITS: u32 = n::DST_IA1_ADDR_IMM.width;
        /// The align1 field's bits, as an immediate is written there.
        const ADDR_IMM_MASK: u16 = (1 << ADDR_IMM_BITS) - 1;
        /// The align16 field holds the immediate without its low bits
        /// (align16 offsets are multiples of 16 bytes): their number.
        const A16_ADDR_IMM_SHIFT: u32 = ADDR_IMM_BITS - n::DST_IA16_ADDR_IMM.width;
        /// The low bits that the align16 field leaves out.
        const A16_ADDR_IMM_LOW: u16 = (1 << A16_ADDR_IMM_SHIFT) - 1;
        /// Bytes per unit of an align16 subregister number: an OWord (the
        /// floor's, the validator's unit too), which the tables confirm:
        /// the align16 field is the top bits of the align1 byte number.
        const A16_SUBREG_BYTES: u8 = OWORD_BYTES as u8;
        const _: () =
            assert!(A16_SUBREG_BYTES == 1 << (n::DST_DA1_SUBREG_NR.width - n::DST_DA16_SUBREG_NR.width));
        // Every operand's fields have the destination's widths, and the
        // floor's range is the field's.
        const _: () = assert!(
            n::SRC0_IA1_ADDR_IMM.width == ADDR_IMM_BITS
                && n::SRC1_IA1_ADDR_IMM.width == ADDR_IMM_BITS
                && n::SRC0_IA16_ADDR_IMM.width == n::DST_IA16_ADDR_IMM.width
                && n::SRC1_IA16_ADDR_IMM.width == n::DST_IA16_ADDR_IMM.width
                && n::SRC0_DA1_SUBREG_NR.width == n::DST_DA1_SUBREG_NR.width
                && n::SRC1_DA1_SUBREG_NR.width == n::DST_DA1_SUBREG_NR.width
                && n::SRC0_DA16_SUBREG_NR.width == n::DST_DA16_SUBREG_NR.width
                && n::SRC1_DA16_SUBREG_NR.width == n::DST_DA16_SUBREG_NR.width
                && ADDR_IMM_MIN as i32 == -(1 << (ADDR_IMM_BITS - 1))
                && ADDR_IMM_MAX as i32 == (1 << (ADDR_IMM_BITS - 1)) - 1
        );

        /// Bits per channel selector of an align16 swizzle, the packing of
        /// [`Swizzle`] (x in the low bits).
        const SWIZ_BITS: u32 = n::SRC0_DA16_SWIZ_X.width;
        const _: () = assert!(Swizzle(1 << SWIZ_BITS).get(1) == 1 && n::SRC1_DA16_SWIZ_X.width == SWIZ_BITS);

        /// The four flags of bits 31:28, on both layouts (AccWrCtrl the
        /// lowest), read together as one index into [`TOP_CONTROLS`].
        const TOP_LO: u32 = n::ACC_WR_CONTROL_LO;
        /// The four flags' bits, shifted down to bit 0.
        const TOP_BITS: u128 =
            (n::ACC_WR_CONTROL.mask() | n::CMPT_CONTROL.mask() | n::DEBUG_CONTROL.mask() | n::SATURATE.mask()) >> TOP_LO;
        /// The number of values of the four flags.
        const TOP_VALUES: usize = TOP_BITS as usize + 1;
        // The flags are contiguous from `TOP_LO`: every index below
        // `TOP_VALUES` is some value of theirs.
        const _: () = assert!(TOP_BITS & (TOP_BITS + 1) == 0);

        const fn flag_bit(v: u8, f: Controls) -> u16 {
            (v as u16 & 1) * f.bits()
        }

        /// The controls of each value of bits 31:28.
        const TOP_CONTROLS: [u16; TOP_VALUES] = {
            let mut t = [0u16; TOP_VALUES];
            let mut i = 0;
            while i < TOP_VALUES {
                let w = &Word((i as u128) << TOP_LO);
                #[allow(clippy::indexing_slicing)] // i < TOP_VALUES by the loop condition
                {
                    t[i] = flag_bit(n::acc_wr_control(w), Controls::ACC_WR)
                        | flag_bit(n::saturate(w), Controls::SATURATE)
                        | flag_bit(n::debug_control(w), Controls::BREAKPOINT)
                        | flag_bit(n::cmpt_control(w), Controls::COMPACTED);
                }
                i += 1;
            }
            t
        };

        /// Decodes the header fields into `i`, leaving its operands and
        /// immediate as they are.
        #[inline(always)]
        fn header_into(opcode: Opcode, w: &Word, three: bool, i: &mut Instruction) -> Result<(), DecodeError> {
            let es = n::exec_size(w);
            let exec_size = ExecSize::from_hw(es).ok_or_else(|| bad(&n::EXEC_SIZE, es as u64, "reserved execution size"))?;
            let tc = n::thread_control(w);
            let thread_control =
                ThreadControl::from_hw(tc).ok_or_else(|| bad(&n::THREAD_CONTROL, tc as u64, "reserved thread control"))?;
            // Each one-bit field lands on its flag's bit: no branches.
            let b = |v: u8, f: Controls| -> u16 { (v as u16 & 1) * f.bits() };
            let (flag, nib) = if three {
                (FlagReg { nr: t::flag_reg_nr(w), subnr: t::flag_subreg_nr(w) }, t::nib_control(w))
            } else {
                (FlagReg { nr: n::flag_reg_nr(w), subnr: n::flag_subreg_nr(w) }, n::nib_control(w))
            };
            // Bits 31:28 (four flags) through one table look-up.
            #[allow(clippy::indexing_slicing)] // an index of TOP_BITS into TOP_BITS + 1 entries
            let top = TOP_CONTROLS[((w.0 >> TOP_LO) & TOP_BITS) as usize];
            let c = Controls::from_bits_retain(
                top | b(n::mask_control(w), Controls::WE_ALL)
                    | b(n::no_dd_clear(w), Controls::NO_DD_CLEAR)
                    | b(n::no_dd_check(w), Controls::NO_DD_CHECK)
                    | b(n::pred_inv(w), Controls::PRED_INV)
                    | b(nib, Controls::NIB_CTRL),
            );
            i.opcode = opcode;
            i.exec_size = exec_size;
            i.access_mode = if n::access_mode(w) != AccessMode::Align1.hw() { AccessMode::Align16 } else { AccessMode::Align1 };
            i.thread_control = thread_control;
            i.qtr_control = n::qtr_control(w);
            i.pred_control = n::pred_control(w);
            i.cond_modifier = n::cond_modifier(w);
            i.controls = c;
            i.flag = flag;
            Ok(())
        }

        #[inline(always)]
        fn set_header(w: &mut Word, i: &Instruction, three: bool) -> Result<(), EncodeError> {
            let c = i.controls;
            let bit = |f: Controls| c.contains(f) as u8;
            // Enumerations and flags fit their fields by construction
            // (opcode numbers are < 128, exec sizes < 8, thread controls < 4).
            n::or_opcode_unchecked(w, i.opcode.hw());
            n::or_access_mode_unchecked(w, i.access_mode.hw());
            n::or_mask_control_unchecked(w, bit(Controls::WE_ALL));
            n::or_no_dd_clear_unchecked(w, bit(Controls::NO_DD_CLEAR));
            n::or_no_dd_check_unchecked(w, bit(Controls::NO_DD_CHECK));
            n::or_thread_control_unchecked(w, i.thread_control.hw());
            n::or_pred_inv_unchecked(w, bit(Controls::PRED_INV));
            n::or_exec_size_unchecked(w, i.exec_size.hw());
            n::or_acc_wr_control_unchecked(w, bit(Controls::ACC_WR));
            n::or_cmpt_control_unchecked(w, bit(Controls::COMPACTED));
            n::or_debug_control_unchecked(w, bit(Controls::BREAKPOINT));
            n::or_saturate_unchecked(w, bit(Controls::SATURATE));
            // Raw numbers are checked.
            n::or_qtr_control(w, i.qtr_control)?;
            n::or_pred_control(w, i.pred_control)?;
            n::or_cond_modifier(w, i.cond_modifier)?;
            if three {
                t::or_nib_control_unchecked(w, bit(Controls::NIB_CTRL));
                t::or_flag_reg_nr(w, i.flag.nr)?;
                t::or_flag_subreg_nr(w, i.flag.subnr)?;
            } else {
                n::or_nib_control_unchecked(w, bit(Controls::NIB_CTRL));
                n::or_flag_reg_nr(w, i.flag.nr)?;
                n::or_flag_subreg_nr(w, i.flag.subnr)?;
            }
            Ok(())
        }

        /// Decodes the destination into `d`, which holds the zero `Dst`.
        #[inline(always)]
        fn dec_dst(w: &Word, a16: bool, d: &mut Dst) -> Result<(), DecodeError> {
            let f = file(&n::DST_REG_FILE, n::dst_reg_file(w))?;
            if f == RegFile::Imm {
                return Err(bad(&n::DST_REG_FILE, RegFile::Imm.hw() as u64, "a destination cannot be an immediate"));
            }
            d.file = f;
            d.ty = ty(&n::DST_REG_TYPE, f, n::dst_reg_type(w))?;
            d.hstride = n::dst_hstride(w);
            if n::dst_address_mode(w) == ADDRESS_MODE_DIRECT {
                let nr = n::dst_da_reg_nr(w);
                if a16 {
                    d.addr = Addr::Direct { nr, subnr: n::dst_da16_subreg_nr(w) * A16_SUBREG_BYTES };
                    d.writemask = WriteMask::from_bits_truncate(n::da16_writemask(w));
                } else {
                    d.addr = Addr::Direct { nr, subnr: n::dst_da1_subreg_nr(w) };
                }
            } else if a16 {
                d.addr = Addr::Indirect {
                    subnr: n::dst_ia_subreg_nr(w),
                    imm: sext((n::dst_ia16_addr_imm(w) as u32) << A16_ADDR_IMM_SHIFT, ADDR_IMM_BITS),
                };
                d.writemask = WriteMask::from_bits_truncate(n::da16_writemask(w));
            } else {
                d.addr = Addr::Indirect { subnr: n::dst_ia_subreg_nr(w), imm: sext(n::dst_ia1_addr_imm(w) as u32, ADDR_IMM_BITS) };
            }
            Ok(())
        }

        #[inline(always)]
        fn enc_dst(p: Platform, w: &mut Word, d: &Dst, a16: bool) -> Result<(), EncodeError> {
            if d.file == RegFile::Imm {
                return Err(unenc("dst", "a destination cannot be an immediate"));
            }
            n::or_dst_reg_file(w, d.file.hw())?;
            n::or_dst_reg_type(w, ty_hw(p, "dst type", d.file, d.ty)?)?;
            n::or_dst_hstride(w, d.hstride)?;
            if !a16 && d.writemask != WriteMask::XYZW {
                return Err(unenc("dst writemask", "align1 has no write mask"));
            }
            match d.addr {
                Addr::Direct { nr, subnr } => {
                    n::or_dst_address_mode(w, ADDRESS_MODE_DIRECT)?;
                    n::or_dst_da_reg_nr(w, nr)?;
                    if a16 {
                        if subnr % A16_SUBREG_BYTES != 0 {
                            return Err(unenc("dst subregister", "align16 subregisters are 16-byte aligned"));
                        }
                        n::or_dst_da16_subreg_nr(w, subnr / A16_SUBREG_BYTES)?;
                        n::or_da16_writemask(w, d.writemask.bits())?;
                    } else {
                        n::or_dst_da1_subreg_nr(w, subnr)?;
                    }
                }
                Addr::Indirect { subnr, imm } => {
                    n::or_dst_address_mode(w, ADDRESS_MODE_INDIRECT)?;
                    n::or_dst_ia_subreg_nr(w, subnr)?;
                    if !(ADDR_IMM_MIN..=ADDR_IMM_MAX).contains(&imm) {
                        return Err(unenc("dst address immediate", ADDR_IMM_OUTSIDE));
                    }
                    let v = (imm as u16) & ADDR_IMM_MASK;
                    if a16 {
                        if v & A16_ADDR_IMM_LOW != 0 {
                            return Err(unenc("dst address immediate", "align16 offsets are multiples of 16"));
                        }
                        n::or_dst_ia16_addr_imm(w, (v >> A16_ADDR_IMM_SHIFT) as u8)?;
                        n::or_da16_writemask(w, d.writemask.bits())?;
                    } else {
                        n::or_dst_ia1_addr_imm(w, v)?;
                    }
                }
            }
            Ok(())
        }

        macro_rules! src_codec {
            ($dec:ident, $enc:ident, $enc_region:ident, $da_nr:ident, $da1_sub:ident, $da16_sub:ident, $sx:ident, $sy:ident, $sz:ident, $sw:ident,
             $ia_sub:ident, $ia1:ident, $ia16:ident, $abs:ident, $neg:ident, $am:ident, $hs:ident, $wd:ident, $vs:ident,
             $set_da_nr:ident, $set_da1_sub:ident, $set_da16_sub:ident, $set_sx:ident, $set_sy:ident, $set_sz:ident, $set_sw:ident,
             $set_ia_sub:ident, $set_ia1:ident, $set_ia16:ident, $set_abs:ident, $set_neg:ident, $set_am:ident, $set_hs:ident,
             $set_wd:ident, $set_vs:ident, $name:literal) => {
                /// Decodes the register part of the source (file and type are set by the caller).
                #[inline(always)]
                fn $dec(w: &Word, s: &mut Src, a16: bool) {
                    let mut mods = SrcMods::empty();
                    mods.set(SrcMods::ABS, n::$abs(w) != 0);
                    mods.set(SrcMods::NEGATE, n::$neg(w) != 0);
                    s.mods = mods;
                    let vstride = n::$vs(w);
                    if a16 {
                        s.swizzle = Swizzle(
                            n::$sx(w) | n::$sy(w) << SWIZ_BITS | n::$sz(w) << (2 * SWIZ_BITS) | n::$sw(w) << (3 * SWIZ_BITS),
                        );
                        s.region = Region { vstride, width: A16_WIDTH, hstride: A16_HSTRIDE };
                    } else {
                        s.region = Region { vstride, width: n::$wd(w), hstride: n::$hs(w) };
                    }
                    if n::$am(w) == ADDRESS_MODE_DIRECT {
                        let nr = n::$da_nr(w);
                        let subnr = if a16 { n::$da16_sub(w) * A16_SUBREG_BYTES } else { n::$da1_sub(w) };
                        s.addr = Addr::Direct { nr, subnr };
                    } else {
                        let subnr = n::$ia_sub(w);
                        let imm = if a16 {
                            sext((n::$ia16(w) as u32) << A16_ADDR_IMM_SHIFT, ADDR_IMM_BITS)
                        } else {
                            sext(n::$ia1(w) as u32, ADDR_IMM_BITS)
                        };
                        s.addr = Addr::Indirect { subnr, imm };
                    }
                }

                #[inline(always)]
                fn $enc(w: &mut Word, s: &Src, a16: bool) -> Result<(), EncodeError> {
                    n::$set_abs(w, s.mods.contains(SrcMods::ABS) as u8)?;
                    n::$set_neg(w, s.mods.contains(SrcMods::NEGATE) as u8)?;
                    $enc_region(w, s, a16)?;
                    match s.addr {
                        Addr::Direct { nr, subnr } => {
                            n::$set_am(w, ADDRESS_MODE_DIRECT)?;
                            n::$set_da_nr(w, nr)?;
                            if a16 {
                                if subnr % A16_SUBREG_BYTES != 0 {
                                    return Err(unenc(concat!($name, " subregister"), "align16 subregisters are 16-byte aligned"));
                                }
                                n::$set_da16_sub(w, subnr / A16_SUBREG_BYTES)?;
                            } else {
                                n::$set_da1_sub(w, subnr)?;
                            }
                        }
                        Addr::Indirect { subnr, imm } => {
                            n::$set_am(w, ADDRESS_MODE_INDIRECT)?;
                            n::$set_ia_sub(w, subnr)?;
                            if !(ADDR_IMM_MIN..=ADDR_IMM_MAX).contains(&imm) {
                                return Err(unenc(concat!($name, " address immediate"), ADDR_IMM_OUTSIDE));
                            }
                            let v = (imm as u16) & ADDR_IMM_MASK;
                            if a16 {
                                if v & A16_ADDR_IMM_LOW != 0 {
                                    return Err(unenc(concat!($name, " address immediate"), "align16 offsets are multiples of 16"));
                                }
                                n::$set_ia16(w, (v >> A16_ADDR_IMM_SHIFT) as u8)?;
                            } else {
                                n::$set_ia1(w, v)?;
                            }
                        }
                    }
                    Ok(())
                }

                /// The region and swizzle of the source (what the access mode
                /// encodes of them), apart so that they can be encoded alone
                /// ([`native_word_changed`]).
                #[inline(always)]
                fn $enc_region(w: &mut Word, s: &Src, a16: bool) -> Result<(), EncodeError> {
                    n::$set_vs(w, s.region.vstride)?;
                    if a16 {
                        if s.region.width != A16_WIDTH || s.region.hstride != A16_HSTRIDE {
                            return Err(unenc(concat!($name, " region"), "align16 encodes only the vertical stride (width 4, stride 1)"));
                        }
                        let z = s.swizzle;
                        n::$set_sx(w, z.get(0))?;
                        n::$set_sy(w, z.get(1))?;
                        n::$set_sz(w, z.get(2))?;
                        n::$set_sw(w, z.get(3))?;
                    } else {
                        if s.swizzle.0 != 0 {
                            return Err(unenc(concat!($name, " swizzle"), "align1 has no swizzle"));
                        }
                        n::$set_wd(w, s.region.width)?;
                        n::$set_hs(w, s.region.hstride)?;
                    }
                    Ok(())
                }
            };
        }

        src_codec!(dec_src0, enc_src0, enc_src0_region, src0_da_reg_nr, src0_da1_subreg_nr, src0_da16_subreg_nr, src0_da16_swiz_x,
            src0_da16_swiz_y, src0_da16_swiz_z, src0_da16_swiz_w, src0_ia_subreg_nr, src0_ia1_addr_imm, src0_ia16_addr_imm,
            src0_abs, src0_negate, src0_address_mode, src0_hstride, src0_width, src0_vstride,
            or_src0_da_reg_nr, or_src0_da1_subreg_nr, or_src0_da16_subreg_nr, or_src0_da16_swiz_x,
            or_src0_da16_swiz_y, or_src0_da16_swiz_z, or_src0_da16_swiz_w, or_src0_ia_subreg_nr, or_src0_ia1_addr_imm,
            or_src0_ia16_addr_imm, or_src0_abs, or_src0_negate, or_src0_address_mode, or_src0_hstride, or_src0_width,
            or_src0_vstride, "src0");
        src_codec!(dec_src1, enc_src1, enc_src1_region, src1_da_reg_nr, src1_da1_subreg_nr, src1_da16_subreg_nr, src1_da16_swiz_x,
            src1_da16_swiz_y, src1_da16_swiz_z, src1_da16_swiz_w, src1_ia_subreg_nr, src1_ia1_addr_imm, src1_ia16_addr_imm,
            src1_abs, src1_negate, src1_address_mode, src1_hstride, src1_width, src1_vstride,
            or_src1_da_reg_nr, or_src1_da1_subreg_nr, or_src1_da16_subreg_nr, or_src1_da16_swiz_x,
            or_src1_da16_swiz_y, or_src1_da16_swiz_z, or_src1_da16_swiz_w, or_src1_ia_subreg_nr, or_src1_ia1_addr_imm,
            or_src1_ia16_addr_imm, or_src1_abs, or_src1_negate, or_src1_address_mode, or_src1_hstride, or_src1_width,
            or_src1_vstride, "src1");

        /// Sources that hold no fields in this encoding must be left at
        /// their zero value, or the encoding would lose them.
        #[inline(always)]
        fn only_file_type(s: &Src, what: &'static str) -> Result<(), EncodeError> {
            if !(s.addr == Addr::Direct { nr: 0, subnr: 0 }
                && s.region == Region::SCALAR
                && s.swizzle.0 == 0
                && s.mods.is_empty())
            {
                return Err(unenc(what, "only file and type are encoded here; other fields must be zero"));
            }
            Ok(())
        }

        /// The bits of the 32-bit immediate, DW3 (`imm32`); DW2, below it,
        /// is as wide. The payload keeps one in each half (see the module
        /// documentation), this many bits apart.
        const IMM32_BITS: u32 = n::IMM32.width;
        const _: () = assert!(IMM32_BITS == u32::BITS);

        /// The first bit of DW2.
        const DW2_LO: u32 = n::IMM32_LO - IMM32_BITS;

        /// src1's file and type bits within DW2 (Gen8: they sit beside src0).
        #[allow(dead_code)]
        const SRC1_FT_MASK: u64 = ((n::SRC1_REG_FILE.mask() | n::SRC1_REG_TYPE.mask()) >> DW2_LO) as u64;

        /// Bits 95:64.
        #[allow(dead_code)]
        const DW2: u128 = n::IMM32.mask() >> IMM32_BITS;

        /// Spare bits of DW3 when src1 is a register.
        const SRC1_SPARE_SHIFT: u32 = n::SRC1_SPARE_LO - n::IMM32_LO;

        /// Bits of an operand that only indirect addressing uses (on Gen8,
        /// bit 9 of the address immediate, which sits apart).
        const DST_INDIRECT_ONLY: u128 = n::DST_IA1_ADDR_IMM.mask() & !(n::DST_DA_REG_NR.mask() | n::DST_DA1_SUBREG_NR.mask());
        const SRC0_INDIRECT_ONLY: u128 = n::SRC0_IA1_ADDR_IMM.mask() & !(n::SRC0_DA_REG_NR.mask() | n::SRC0_DA1_SUBREG_NR.mask());
        const SRC1_INDIRECT_ONLY: u128 = n::SRC1_IA1_ADDR_IMM.mask() & !(n::SRC1_DA_REG_NR.mask() | n::SRC1_DA1_SUBREG_NR.mask());
        /// Bits of a source that only align1 uses: the width's top bit,
        /// beyond the align16 swizzle that shares the field.
        const SRC0_ALIGN1_ONLY: u128 = n::SRC0_WIDTH.mask() & !n::SRC0_DA16_SWIZ_W.mask();
        const SRC1_ALIGN1_ONLY: u128 = n::SRC1_WIDTH.mask() & !n::SRC1_DA16_SWIZ_W.mask();

        /// Refuses bits that the operand's addressing and access modes leave
        /// unused: the model has no place for them, so they must be zero.
        fn unused_bits(w: &Word, addr: &Addr, a16: bool, indirect_only: u128, align1_only: u128) -> Result<(), DecodeError> {
            // Branchless: each mask is kept or cleared by a 0/1 factor.
            let m = (a16 as u128).wrapping_neg() & align1_only | (matches!(addr, Addr::Direct { .. }) as u128).wrapping_neg() & indirect_only;
            match w.0 & m {
                0 => Ok(()),
                z => Err(DecodeError::ReservedBits(z)),
            }
        }

        /// Decodes the file and type of src1 beside an immediate src0 (or
        /// beside `dim`'s immediate) into `i`, whose header and src0 file and
        /// type are decoded: src1 has nothing else, and its type field may
        /// hold an immediate type code ([`Instruction::src_type_is_imm_code`]).
        ///
        /// A second immediate is refused on every platform: the word has one
        /// 32-bit immediate slot (DW3, or on Gen8 DW2..DW3 for a 64-bit value),
        /// so the model could not say whose value it holds, and the hardware
        /// documentation allows an immediate in one source only. (Gen8 used
        /// to accept it while Gen7 refused it.)
        #[inline(always)]
        fn src1_beside_imm0(w: &Word, i: &mut Instruction) -> Result<(), DecodeError> {
            let f1 = file(&n::SRC1_REG_FILE, n::src1_reg_file(w))?;
            if f1 == RegFile::Imm && i.src[0].file == RegFile::Imm {
                return Err(bad(&n::SRC1_REG_FILE, RegFile::Imm.hw() as u64, "only one source can be an immediate"));
            }
            let code_file = if i.src1_type_copies_imm0() { RegFile::Imm } else { f1 };
            i.src[1].file = f1;
            i.src[1].ty = ty(&n::SRC1_REG_TYPE, code_file, n::src1_reg_type(w))?;
            Ok(())
        }

        /// Decodes into `r`, which holds `Ok(BLANK)` on entry.
        #[inline(always)]
        pub(super) fn decode_into(p: Platform, w: &Word, r: &mut Result<Instruction, DecodeError>) {
            let hw = n::opcode(w);
            let Some(opcode) = Opcode::from_hw(p, hw) else {
                *r = Err(undefined_opcode(w));
                return;
            };
            if let Ok(i) = r {
                let d = if opcode.is_three_src() { decode_3src(p, *w, opcode, i) } else { decode_native(*w, opcode, i) };
                if let Err(e) = d {
                    *r = Err(e);
                }
            }
        }

        /// Decodes a native-layout word into `i`, which must hold [`BLANK`]
        /// (operands not in the word stay at their zero values). Each field is stored
        /// through the reference as soon as it is known, which keeps the
        /// forty-odd fields from crowding the registers and spilling. Inlined
        /// into the one out-of-line decoder call, [`decode_into`].
        #[inline(always)]
        fn decode_native(w: Word, opcode: Opcode, i: &mut Instruction) -> Result<(), DecodeError> {
            let w = &w;
            // Haswell's `dim` holds its immediate in DW2, reserved bits included.
            let dim = !GEN8 && matches!(opcode, Opcode::Dim);
            let z = w.0 & n::ZERO_MASK & !((dim as u128).wrapping_neg() & DW2);
            if z != 0 {
                return Err(DecodeError::ReservedBits(z));
            }
            header_into(opcode, w, false, i)?;
            if dim {
                // Gen7's flag register fields (bits 90:89) lie in dim's immediate.
                i.flag = FlagReg::default();
            }
            let a16 = i.access_mode == AccessMode::Align16;
            dec_dst(w, a16, &mut i.dst)?;
            unused_bits(w, &i.dst.addr, false, DST_INDIRECT_ONLY, 0)?;
            let f0 = file(&n::SRC0_REG_FILE, n::src0_reg_file(w))?;
            let t0 = ty(&n::SRC0_REG_TYPE, f0, n::src0_reg_type(w))?;
            let branch = opcode.is_branch();
            // A branch whose offsets are in the payload; a Gen8 `brd`/`brc`
            // with a register src0 reads its source as other instructions
            // do (IGA's decoder).
            let payload = opcode.offsets_in_payload(f0 == RegFile::Imm);
            let imm32 = n::imm32(w) as u64;
            // Every source starts at Src::ZERO (BLANK).
            i.src[0].file = f0;
            i.src[0].ty = t0;
            // Haswell's `dim` reads bits 127:64 as its 64-bit immediate
            // whatever its source fields say (Mesa's `brw_DIM` and Intel's
            // decoder): src0 and src1 keep only their files and types, in DW1.
            if dim || GEN8 && (payload || f0 == RegFile::Imm) {
                let dw2 = (w.0 >> DW2_LO) as u32 as u64;
                if dim || payload || t0.is_64bit() {
                    if dim {
                        src1_beside_imm0(w, i)?;
                    }
                    // JIP/UIP, or a 64-bit value: bits 127:64 whole.
                    i.imm = if payload { imm32 | dw2 << IMM32_BITS } else { imm32 << IMM32_BITS | dw2 };
                } else {
                    src1_beside_imm0(w, i)?;
                    i.imm = imm32 | (dw2 & !SRC1_FT_MASK) << IMM32_BITS;
                }
            } else {
                dec_src0(w, &mut i.src[0], a16);
                unused_bits(w, &i.src[0].addr, a16, SRC0_INDIRECT_ONLY, SRC0_ALIGN1_ONLY)?;
                if f0 == RegFile::Imm && !branch {
                    src1_beside_imm0(w, i)?;
                    i.imm = imm32;
                    return Ok(());
                }
                let f1 = file(&n::SRC1_REG_FILE, n::src1_reg_file(w))?;
                let t1 = ty(&n::SRC1_REG_TYPE, f1, n::src1_reg_type(w))?;
                if f1 == RegFile::Imm && f0 == RegFile::Imm {
                    return Err(bad(&n::SRC1_REG_FILE, RegFile::Imm.hw() as u64, "only one source can be an immediate"));
                }
                if f1 == RegFile::Imm && t1.is_64bit() {
                    return Err(bad(&n::SRC1_REG_TYPE, n::src1_reg_type(w) as u64, "a 64-bit immediate must be src0"));
                }
                i.src[1].file = f1;
                i.src[1].ty = t1;
                if f0 == RegFile::Imm || f1 == RegFile::Imm || branch {
                    i.imm = imm32;
                } else {
                    dec_src1(w, &mut i.src[1], a16);
                    unused_bits(w, &i.src[1].addr, a16, SRC1_INDIRECT_ONLY, SRC1_ALIGN1_ONLY)?;
                    i.imm = (n::src1_spare(w) as u64) << SRC1_SPARE_SHIFT;
                }
            }
            Ok(())
        }

        /// Encodes src1's file and type beside an immediate src0, the inverse
        /// of `src1_beside_imm0`.
        #[inline(always)]
        fn enc_src1_beside_imm0(p: Platform, w: &mut Word, i: &Instruction) -> Result<(), EncodeError> {
            let s1 = &i.src[1];
            if i.src[0].is_imm() && s1.is_imm() {
                return Err(unenc("src1", "only one source can be an immediate"));
            }
            n::or_src1_reg_file(w, s1.file.hw())?;
            let code = i.src_type_hw(p, 1).ok_or_else(|| unenc("src1 type", "type has no encoding for this file on this platform"))?;
            n::or_src1_reg_type(w, code)?;
            Ok(())
        }

        /// [`native_word_changed`]'s src0 case: the native word of `i`
        /// with src0's region and swizzle those of `s0`, from `w`, `i`'s
        /// native word: only they are encoded again, or `None` where
        /// `encode` does not encode them apart (an operand of a 3-source
        /// form, a register-less src0).
        #[inline(always)]
        pub(super) fn with_src0_region(w: Word, i: &Instruction, s0: &Src) -> Option<Result<Word, EncodeError>> {
            let old = &i.src[0];
            let dim = !GEN8 && matches!(i.opcode, Opcode::Dim);
            // The conditions under which `encode` calls `enc_src0` (src0's
            // file is the same in both).
            if i.opcode.is_three_src() || dim || GEN8 && (old.is_imm() || i.opcode.offsets_in_payload(false)) {
                return None;
            }
            let a16 = i.access_mode == AccessMode::Align16;
            // The fields `enc_src0_region` writes, which hold `w`'s src0
            // region and swizzle (the table declares every overlap: these
            // overlap only src0's fields of the other access mode or
            // addressing).
            let fields = n::SRC0_VSTRIDE.mask()
                | if a16 {
                    n::SRC0_DA16_SWIZ_X.mask() | n::SRC0_DA16_SWIZ_Y.mask() | n::SRC0_DA16_SWIZ_Z.mask() | n::SRC0_DA16_SWIZ_W.mask()
                } else {
                    n::SRC0_WIDTH.mask() | n::SRC0_HSTRIDE.mask()
                };
            let mut b = Word(0);
            if let Err(e) = enc_src0_region(&mut b, s0, a16) {
                return Some(Err(e));
            }
            Some(Ok(Word(w.0 & !fields | b.0)))
        }

        // SRC1_FT_MASK is zero on Gen7, where src1's file and type sit in DW1.
        #[allow(clippy::bad_bit_mask)]
        #[inline(always)]
        pub(super) fn encode(p: Platform, i: &Instruction) -> Result<Word, EncodeError> {
            if i.opcode.is_three_src() {
                return encode_3src(p, i);
            }
            let mut w = Word(0);
            let w = &mut w;
            set_header(w, i, false)?;
            let a16 = i.access_mode == AccessMode::Align16;
            enc_dst(p, w, &i.dst, a16)?;
            if i.src[2] != Src::ZERO {
                return Err(unenc("src2", "only 3-source instructions have a third source"));
            }
            let s0 = &i.src[0];
            let s1 = &i.src[1];
            n::or_src0_reg_file(w, s0.file.hw())?;
            n::or_src0_reg_type(w, ty_hw(p, "src0 type", s0.file, s0.ty)?)?;
            let branch = i.opcode.is_branch();
            // A branch whose offsets are in the payload (see the decoder).
            let payload = i.opcode.offsets_in_payload(s0.is_imm());
            // Haswell's `dim`: bits 127:64 are its immediate (see the decoder).
            let dim = !GEN8 && matches!(i.opcode, Opcode::Dim);
            if dim && i.flag != FlagReg::default() {
                return Err(unenc("flag register", "dim's immediate fills bits 95:64, where Gen7 keeps the flag register"));
            }
            if dim || GEN8 && (payload || s0.is_imm()) {
                only_file_type(s0, "src0")?;
                only_file_type(s1, "src1")?;
                if dim || payload || s0.ty.is_64bit() {
                    if dim {
                        enc_src1_beside_imm0(p, w, i)?;
                    } else if s1.file != RegFile::Arf || s1.ty != Type::UD {
                        return Err(unenc("src1", "bits 95:64 hold the immediate or UIP here; src1 must be zero"));
                    }
                    let (dw3, dw2) = if payload {
                        (i.imm as u32, (i.imm >> IMM32_BITS) as u32)
                    } else {
                        ((i.imm >> IMM32_BITS) as u32, i.imm as u32)
                    };
                    w.0 |= (dw2 as u128) << DW2_LO | (dw3 as u128) << n::IMM32_LO;
                } else {
                    enc_src1_beside_imm0(p, w, i)?;
                    let hi = i.imm >> IMM32_BITS;
                    if hi & SRC1_FT_MASK != 0 {
                        return Err(unenc("immediate payload", "high bits overlap src1 file and type"));
                    }
                    w.0 |= (i.imm as u32 as u128) << n::IMM32_LO | (hi as u128) << DW2_LO;
                }
                return Ok(*w);
            }
            enc_src0(w, s0, a16)?;
            if s0.is_imm() || s1.is_imm() || branch {
                only_file_type(s1, "src1")?;
                if s0.is_imm() && !branch {
                    enc_src1_beside_imm0(p, w, i)?;
                } else {
                    if s0.is_imm() && s1.is_imm() {
                        return Err(unenc("src1", "only one source can be an immediate"));
                    }
                    n::or_src1_reg_file(w, s1.file.hw())?;
                    n::or_src1_reg_type(w, ty_hw(p, "src1 type", s1.file, s1.ty)?)?;
                }
                if s0.is_imm() && s0.ty.is_64bit() || s1.is_imm() && s1.ty.is_64bit() {
                    return Err(unenc("immediate", "a 64-bit immediate needs Gen8 and src0"));
                }
                if i.imm >> IMM32_BITS != 0 {
                    return Err(unenc("immediate payload", "a 32-bit immediate has no high bits here"));
                }
                n::or_imm32(w, i.imm as u32)?;
            } else {
                n::or_src1_reg_file(w, s1.file.hw())?;
                n::or_src1_reg_type(w, ty_hw(p, "src1 type", s1.file, s1.ty)?)?;
                enc_src1(w, s1, a16)?;
                let spare = i.imm >> SRC1_SPARE_SHIFT;
                if i.imm & ((1 << SRC1_SPARE_SHIFT) - 1) != 0 || spare >> u8::BITS != 0 {
                    return Err(unenc("immediate payload", "no immediate: only DW3's spare bits (such as EOT) may be set"));
                }
                n::or_src1_spare(w, spare as u8)?;
            }
            Ok(*w)
        }

        /// Bytes per unit of a 3-source subregister number (Gen7's and
        /// Broadwell's): a dword (the floor's, the validator's unit too),
        /// which the tables confirm: the field's values span one register.
        const THREE_SUBREG_BYTES: u8 = THREE_SRC_SUBREG_BYTES as u8;
        const _: () = assert!(
            THREE_SRC_SUBREG_BYTES == GRF_BYTES >> t::DST_SUBREG_NR.width
                && t::SRC0_SUBREG_NR.width == t::DST_SUBREG_NR.width
                && t::SRC1_SUBREG_NR.width == t::DST_SUBREG_NR.width
                && t::SRC2_SUBREG_NR.width == t::DST_SUBREG_NR.width
        );

        fn three_ty(p: Platform, field: &'static FieldInfo, v: u8) -> Result<Type, DecodeError> {
            Type::from_three_src_hw(p, v).ok_or_else(|| bad(field, v as u64, "reserved 3-source type"))
        }

        macro_rules! src3 {
            ($p:expr, $w:expr, $k:literal, $rep:ident, $swz:ident, $nr:ident, $abs:ident, $neg:ident, $ty:expr) => {{
                let mut mods = SrcMods::empty();
                mods.set(SrcMods::ABS, t::$abs($w) != 0);
                mods.set(SrcMods::NEGATE, t::$neg($w) != 0);
                Src {
                    file: RegFile::Grf,
                    ty: $ty,
                    addr: Addr::Direct { nr: t::$nr($w), subnr: three_subreg($p, $w, $k) },
                    region: if t::$rep($w) != 0 { Region::SCALAR } else { Region::THREE_SRC },
                    swizzle: Swizzle(t::$swz($w)),
                    mods,
                }
            }};
        }

        macro_rules! enc_src3 {
            ($p:expr, $w:expr, $s:expr, $k:literal, $name:literal, $rep:ident, $swz:ident, $nr:ident, $abs:ident, $neg:ident) => {{
                let s: &Src = $s;
                if s.file != RegFile::Grf {
                    return Err(unenc(concat!($name, " file"), "3-source operands are GRF registers"));
                }
                let Addr::Direct { nr, subnr } = s.addr else {
                    return Err(unenc(concat!($name, " address"), "3-source operands are directly addressed"));
                };
                let rep = if s.region == Region::SCALAR {
                    1
                } else if s.region == Region::THREE_SRC {
                    0
                } else {
                    return Err(unenc(concat!($name, " region"), "3-source regions are <4;4,1> or the scalar <0;1,0>"));
                };
                t::$rep($w, rep)?;
                t::$swz($w, s.swizzle.0)?;
                set_three_subreg($p, $w, $k, subnr)
                    .map_err(|why| unenc(concat!($name, " subregister"), why))?;
                t::$nr($w, nr)?;
                t::$abs($w, s.mods.contains(SrcMods::ABS) as u8)?;
                t::$neg($w, s.mods.contains(SrcMods::NEGATE) as u8)?;
            }};
        }

        /// The error for an undefined opcode, after the reserved bits of
        /// the native layout (a 3-source opcode is never undefined).
        #[cold]
        #[inline(never)]
        fn undefined_opcode(w: &Word) -> DecodeError {
            let z = w.0 & n::ZERO_MASK;
            if z != 0 {
                return DecodeError::ReservedBits(z);
            }
            let hw = n::opcode(w);
            bad(&n::OPCODE, hw as u64, "undefined opcode on this platform")
        }

        #[inline(never)]
        /// Decodes a 3-source word into `i`, which must hold [`BLANK`].
        fn decode_3src(p: Platform, w: Word, opcode: Opcode, i: &mut Instruction) -> Result<(), DecodeError> {
            let w = &w;
            let z = w.0 & three_src_zero_mask(p);
            if z != 0 {
                return Err(DecodeError::ReservedBits(z));
            }
            header_into(opcode, w, true, i)?;
            if i.access_mode != AccessMode::Align16 {
                return Err(bad(&t::ACCESS_MODE, i.access_mode.hw() as u64, "3-source instructions are align16 only on Gen7/Gen8"));
            }
            let st = three_ty(p, &t::SRC_TYPE, t::src_type(w))?;
            let dt = three_ty(p, &t::DST_TYPE, t::dst_type(w))?;
            let (t1, t2) = three_src_types(p, w, st)?;
            i.dst = Dst {
                file: RegFile::Grf,
                ty: dt,
                addr: Addr::Direct { nr: t::dst_reg_nr(w), subnr: t::dst_subreg_nr(w) * THREE_SUBREG_BYTES },
                hstride: HSTRIDE_1,
                writemask: WriteMask::from_bits_truncate(t::dst_writemask(w)),
            };
            i.src[0] = src3!(p, w, 0, src0_rep_ctrl, src0_swizzle, src0_reg_nr, src0_abs, src0_negate, st);
            i.src[1] = src3!(p, w, 1, src1_rep_ctrl, src1_swizzle, src1_reg_nr, src1_abs, src1_negate, t1);
            i.src[2] = src3!(p, w, 2, src2_rep_ctrl, src2_swizzle, src2_reg_nr, src2_abs, src2_negate, t2);
            Ok(())
        }

        fn encode_3src(p: Platform, i: &Instruction) -> Result<Word, EncodeError> {
            let mut w = Word(0);
            let w = &mut w;
            if i.access_mode != AccessMode::Align16 {
                return Err(unenc("access mode", "3-source instructions are align16 only on Gen7/Gen8"));
            }
            set_header(w, i, true)?;
            if i.imm != 0 {
                return Err(unenc("immediate payload", "3-source instructions have no immediate"));
            }
            let d = &i.dst;
            let Addr::Direct { nr, subnr } = d.addr else {
                return Err(unenc("dst address", "3-source operands are directly addressed"));
            };
            if d.file != RegFile::Grf || d.hstride != HSTRIDE_1 || subnr % THREE_SUBREG_BYTES != 0 {
                return Err(unenc("dst", "3-source destinations are dword-aligned GRFs with stride 1"));
            }
            t::or_dst_reg_nr(w, nr)?;
            t::or_dst_subreg_nr(w, subnr / THREE_SUBREG_BYTES)?;
            t::or_dst_writemask(w, d.writemask.bits())?;
            t::or_dst_type(w, d.ty.three_src_hw(p).ok_or_else(|| unenc("dst type", "no 3-source encoding"))?)?;
            let st = i.src[0].ty;
            t::or_src_type(w, st.three_src_hw(p).ok_or_else(|| unenc("src0 type", "no 3-source encoding"))?)?;
            set_three_src_types(p, w, st, i.src[1].ty, i.src[2].ty)?;
            enc_src3!(p, w, &i.src[0], 0, "src0", or_src0_rep_ctrl, or_src0_swizzle, or_src0_reg_nr, or_src0_abs, or_src0_negate);
            enc_src3!(p, w, &i.src[1], 1, "src1", or_src1_rep_ctrl, or_src1_swizzle, or_src1_reg_nr, or_src1_abs, or_src1_negate);
            enc_src3!(p, w, &i.src[2], 2, "src2", or_src2_rep_ctrl, or_src2_swizzle, or_src2_reg_nr, or_src2_abs, or_src2_negate);
            Ok(*w)
        }
    };
}

mod gen7 {
    codec!(gen7_native, gen7_3src, false);

    // A branch's payload is DW3 as it stands, JIP and UIP in it (see
    // `Instruction::jip`).
    const _: () = assert!(gen7_flow::JIP.mask() | gen7_flow::UIP.mask() == n::IMM32.mask());

    /// Gen7 3-source sources share one type.
    #[inline(always)]
    fn three_src_types(_p: Platform, _w: &Word, st: Type) -> Result<(Type, Type), DecodeError> {
        Ok((st, st))
    }

    fn set_three_src_types(p: Platform, _w: &mut Word, st: Type, t1: Type, t2: Type) -> Result<(), EncodeError> {
        if Type::three_src_precision_bit(p, st, t1).is_none() || Type::three_src_precision_bit(p, st, t2).is_none() {
            return Err(unenc("3-source types", "on Gen7 all three sources share one type"));
        }
        Ok(())
    }

    /// The reserved bits of the 3-source layout.
    #[inline(always)]
    fn three_src_zero_mask(_p: Platform) -> u128 {
        t::ZERO_MASK
    }

    /// Source `k`'s subregister in bytes: a dword number.
    #[inline(always)]
    fn three_subreg(_p: Platform, w: &Word, k: usize) -> u8 {
        THREE_SUBREG_BYTES
            * match k {
                0 => t::src0_subreg_nr(w),
                1 => t::src1_subreg_nr(w),
                _ => t::src2_subreg_nr(w),
            }
    }

    fn set_three_subreg(_p: Platform, w: &mut Word, k: usize, subnr: u8) -> Result<(), &'static str> {
        if subnr % THREE_SUBREG_BYTES != 0 {
            return Err("3-source subregisters are dword aligned");
        }
        let v = subnr / THREE_SUBREG_BYTES;
        let r = match k {
            0 => t::or_src0_subreg_nr(w, v),
            1 => t::or_src1_subreg_nr(w, v),
            _ => t::or_src2_subreg_nr(w, v),
        };
        r.map_err(|_| "beyond the register")
    }
}

mod gen8 {
    codec!(gen8_native, gen8_3src, true);
    use crate::word::fields::chv_3src as chv;

    // A branch's payload has JIP (DW3) in its low half and UIP (DW2) in the
    // high one, as `Instruction::jip` and `Instruction::uip` read them.
    const _: () = assert!(
        gen8_flow::JIP.mask() == n::IMM32.mask()
            && gen8_flow::UIP.mask() == DW2
            && Instruction::GEN8_UIP_SHIFT == IMM32_BITS
    );

    /// Gen8 3-source types: SrcType gives src0's type; when it is F or HF,
    /// Src1Type and Src2Type (bits 36 and 35) give the precision of src1
    /// and src2, 0 = F and 1 = HF (see [`Type::three_src_precision_bit`]);
    /// otherwise they are zero and every source has src0's type.
    #[inline(always)]
    fn three_src_types(_p: Platform, w: &Word, st: Type) -> Result<(Type, Type), DecodeError> {
        let mixed = matches!(st, Type::F | Type::HF);
        let one = |bit: u8, field: &'static FieldInfo| -> Result<Type, DecodeError> {
            match (mixed, bit) {
                (true, PRECISION_F) => Ok(Type::F),
                (true, _) => Ok(Type::HF),
                (false, PRECISION_SAME) => Ok(st),
                (false, _) => Err(bad(
                    field,
                    bit as u64,
                    "Src1Type/Src2Type give a precision only when SrcType is F or HF",
                )),
            }
        };
        Ok((
            one(t::src1_type(w), &t::SRC1_TYPE)?,
            one(t::src2_type(w), &t::SRC2_TYPE)?,
        ))
    }

    /// The Src1Type/Src2Type bit of a source of type `t` beside src0 of
    /// type `src0` ([`Type::three_src_precision_bit`]), for the constants
    /// below.
    #[allow(clippy::panic)] // evaluated at compile time: a failure fails the build
    const fn precision_bit(src0: Type, t: Type) -> u8 {
        match Type::three_src_precision_bit(Platform::Gen8, src0, t) {
            Some(b) => b,
            None => panic!("no precision bit"),
        }
    }
    /// The precision bit of an F source beside an F or HF src0 (an HF one
    /// has the other value).
    const PRECISION_F: u8 = precision_bit(Type::HF, Type::F);
    /// The bit of a source that shares src0's type, src0 being neither F
    /// nor HF.
    const PRECISION_SAME: u8 = precision_bit(Type::D, Type::D);

    fn set_three_src_types(p: Platform, w: &mut Word, st: Type, t1: Type, t2: Type) -> Result<(), EncodeError> {
        let one = |ty: Type| {
            Type::three_src_precision_bit(p, st, ty).ok_or_else(|| {
                unenc(
                    "3-source types",
                    "src1/src2 are F or HF beside an F or HF src0, and share src0's type otherwise",
                )
            })
        };
        t::or_src1_type(w, one(t1)?)?;
        t::or_src2_type(w, one(t2)?)?;
        Ok(())
    }

    /// Cherryview's subregister low bits, which Broadwell reserves.
    const CHV_SUBREG_LOW: u128 = (chv::SRC0_SUBREG_NR.mask() | chv::SRC1_SUBREG_NR.mask() | chv::SRC2_SUBREG_NR.mask())
        & !(t::SRC0_SUBREG_NR.mask() | t::SRC1_SUBREG_NR.mask() | t::SRC2_SUBREG_NR.mask());
    const _: () = assert!(CHV_SUBREG_LOW & t::ZERO_MASK == CHV_SUBREG_LOW);

    /// Bytes per unit of a Cherryview 3-source subregister number: its
    /// field, a bit wider, spans one register in 2-byte units.
    const CHV_SUBREG_BYTES: u8 = (GRF_BYTES >> chv::SRC0_SUBREG_NR.width) as u8;
    const _: () = assert!(
        chv::SRC1_SUBREG_NR.width == chv::SRC0_SUBREG_NR.width
            && chv::SRC2_SUBREG_NR.width == chv::SRC0_SUBREG_NR.width
    );

    /// The reserved bits of the 3-source layout on `p`.
    #[inline(always)]
    fn three_src_zero_mask(p: Platform) -> u128 {
        if p == Platform::Chv {
            t::ZERO_MASK & !CHV_SUBREG_LOW
        } else {
            t::ZERO_MASK
        }
    }

    /// Source `k`'s subregister in bytes: a dword number on Broadwell, a
    /// 2-byte one on Cherryview (see `tables/chv_3src.tbl`).
    #[inline(always)]
    fn three_subreg(p: Platform, w: &Word, k: usize) -> u8 {
        if p == Platform::Chv {
            CHV_SUBREG_BYTES
                * match k {
                    0 => chv::src0_subreg_nr(w),
                    1 => chv::src1_subreg_nr(w),
                    _ => chv::src2_subreg_nr(w),
                }
        } else {
            THREE_SUBREG_BYTES
                * match k {
                    0 => t::src0_subreg_nr(w),
                    1 => t::src1_subreg_nr(w),
                    _ => t::src2_subreg_nr(w),
                }
        }
    }

    fn set_three_subreg(p: Platform, w: &mut Word, k: usize, subnr: u8) -> Result<(), &'static str> {
        let r = if p == Platform::Chv {
            if subnr % CHV_SUBREG_BYTES != 0 {
                return Err("Cherryview 3-source subregisters are 2-byte aligned");
            }
            let v = subnr / CHV_SUBREG_BYTES;
            match k {
                0 => chv::or_src0_subreg_nr(w, v),
                1 => chv::or_src1_subreg_nr(w, v),
                _ => chv::or_src2_subreg_nr(w, v),
            }
        } else {
            if subnr % THREE_SUBREG_BYTES != 0 {
                return Err("3-source subregisters are dword aligned");
            }
            let v = subnr / THREE_SUBREG_BYTES;
            match k {
                0 => t::or_src0_subreg_nr(w, v),
                1 => t::or_src1_subreg_nr(w, v),
                _ => t::or_src2_subreg_nr(w, v),
            }
        };
        r.map_err(|_| "beyond the register")
    }
}

/// Converts a field error for `?` in the generated code paths.
impl From<FieldError> for DecodeError {
    fn from(e: FieldError) -> Self {
        DecodeError::Field {
            field: e.field,
            value: e.value,
            reason: "value does not fit",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Encoding only src0's region and swizzle again gives what encoding
    /// the whole instruction gives: on decoded words (a random walk from
    /// an ALU word and a SEND), with src0's region and swizzle changed at
    /// random (codes out of their fields' range too).
    #[test]
    fn native_word_changed_is_native_word() {
        use core::mem::{offset_of, size_of};
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let src0 = offset_of!(Instruction, src);
        let region = crate::canon::byte_bits(src0 + offset_of!(Src, region), size_of::<Region>());
        let swizzle = crate::canon::byte_bits(src0 + offset_of!(Src, swizzle), size_of::<Swizzle>());
        let (mut apart, mut encodes) = (0, 0);
        for p in Platform::ALL {
            for op in [Opcode::Add, Opcode::Send] {
                let Ok(mut at) = encode_word(p, &Instruction::new(op, ExecSize::S8)) else {
                    panic!("{p:?}: {op:?} does not encode");
                };
                for _ in 0..10_000 {
                    let mut w = at.0;
                    for _ in 0..1 + next() % 3 {
                        w ^= 1 << (next() % 128);
                    }
                    let Ok(i) = decode_word(p, Word(w)) else {
                        continue;
                    };
                    at = Word(w);
                    let Ok(iw) = native_word(p, &i) else {
                        continue;
                    };
                    let mut base = i;
                    let r = next();
                    let mut changed = 0;
                    if r & 1 != 0 {
                        let small = r & 2 != 0;
                        let code = |v: u64, n: u64| if small { (v % n) as u8 } else { v as u8 };
                        base.src[0].region = Region {
                            vstride: code(r >> 8, 16),
                            width: code(r >> 16, 8),
                            hstride: code(r >> 24, 4),
                        };
                        changed |= region;
                    }
                    if r & 4 != 0 {
                        base.src[0].swizzle = Swizzle((r >> 32) as u8);
                        changed |= swizzle;
                    }
                    let want = native_word(p, &base);
                    let got = native_word_changed(p, &i, iw, &base, changed);
                    assert_eq!(got.as_ref().ok(), want.as_ref().ok(), "{p:?} {i:?} {base:?}");
                    let fast = if p.is_gen8() {
                        gen8::with_src0_region(iw, &i, &base.src[0])
                    } else {
                        gen7::with_src0_region(iw, &i, &base.src[0])
                    };
                    apart += fast.is_some() as u32;
                    encodes += want.is_ok() as u32;
                }
            }
        }
        assert!(apart > 10_000 && encodes > 10_000, "{apart} {encodes}");
    }
}
