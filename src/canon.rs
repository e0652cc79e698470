//! The canonical encoding: Mesa's values for the fields its assembly
//! syntax does not show.
//!
//! Mesa's text shows most of a word, but not all of it: the operands of
//! flow-control instructions, src1 of a one-source instruction (and its
//! type field beside an immediate), the upper half of a 16-bit immediate,
//! the swizzle of a replicated 3-source operand, and so on. Mesa's emitter
//! (`brw_eu_emit.c`, through which its assembler `i965_asm` goes) always
//! gives those fields the same values. [`canonicalize`] sets them to these
//! values, given the fields the text shows, so that an [`Instruction`]
//! built by hand, one built by the program builder and one assembled from
//! text all get the same bytes.
//!
//! Both the program builder and the text assembler ([`crate::text`]) use
//! [`canonicalize`]; the disassembler uses it to tell the words Mesa's
//! emitter produces (printed exactly as Mesa prints them) from the others
//! (printed with the extensions that keep every bit).

use crate::model::*;
use crate::word::fields::gen8_native;

use crate::isa::arf::{IP as ARF_IP, NULL as ARF_NULL};
/// Align16 sources encode width 4 and horizontal stride 1 (the bits hold
/// the z/w swizzle); the model carries them as these codes.
pub(crate) use crate::isa::region::{A16_HSTRIDE, A16_WIDTH};
use crate::isa::region::{HSTRIDE_0, HSTRIDE_1, VSTRIDE_0, VSTRIDE_4, VSTRIDE_8, WIDTH_1, WIDTH_8};
use crate::isa::PRED_CONTROL_NONE;

/// An all-zero align16 source as the codec reads it back: the zero
/// swizzle and the implied align16 width and stride.
pub(crate) const A16_ZERO: Src = Src {
    region: Region {
        vstride: VSTRIDE_0,
        width: A16_WIDTH,
        hstride: A16_HSTRIDE,
    },
    ..Src::ZERO
};

/// Whether Mesa's syntax shows a JIP for this opcode.
pub const fn shows_jip(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::If | Opcode::Else | Opcode::Endif | Opcode::While | Opcode::Break | Opcode::Cont | Opcode::Halt
    )
}

/// Whether Mesa's syntax shows a UIP for this opcode on `p` (`else` has
/// one only on Gen8).
pub const fn shows_uip(p: Platform, op: Opcode) -> bool {
    shows_jip(op) && op.uses_uip(p)
}

/// Whether Mesa's syntax shows the flag register of `i`: through the
/// predicate, or after a conditional modifier that writes it (not on
/// `sel`, `csel`, `if` and `while`: [`Opcode::cond_modifier_writes_flag`]).
pub const fn shows_flag(i: &Instruction) -> bool {
    if i.pred_control != PRED_CONTROL_NONE {
        return true;
    }
    i.cond_modifier != CondMod::None.hw() && i.opcode.cond_modifier_writes_flag()
}

/// Whether Mesa's syntax shows no operand at all for `op` (`nop`, and the
/// opcodes its grammar writes without operands).
pub const fn shows_no_operands(op: Opcode) -> bool {
    matches!(op.form(), crate::isa::Form::Nullary)
}

/// How many sources the text shows after the destination of an opcode
/// written in the ALU form: its sources, and for `call`/`calla` (src0 and
/// the jump target, src1) and `ret` (src0, the return address) the
/// operands the hardware reads, which Mesa's printer leaves out (the
/// text's extension, so that no call loses its target or return register).
pub const fn shown_sources(op: Opcode) -> u8 {
    match op.form() {
        crate::isa::Form::Call => 2,
        crate::isa::Form::Return => 1,
        _ => op.num_srcs(),
    }
}

/// Sets every field of `i` that Mesa's syntax does not show to the value
/// Mesa's emitter gives it, leaving the fields the syntax shows as they
/// are. Idempotent. The program builder and the text assembler both call
/// it, so an instruction gets the same bytes whichever way it was made.
///
/// What it sets (everything else is left alone):
/// - the predicate-inverse bit without a predicate, and the flag register
///   where neither a predicate nor a printed conditional modifier names it
///   (a `sel` with a condition, for example): zero; a SEND's saturate bit:
///   clear;
/// - the horizontal stride of an align16 (or 3-source) destination: 1;
/// - src1 of a one-source instruction: zero fields, except beside a 32-bit
///   immediate, where src1's file is ARF and its type field holds the
///   immediate's type code (`brw_set_src0` copies it); the spare bits of
///   DW3 when no immediate sits there: zero;
/// - a source beside an immediate src0 holds only its file and type;
///   the region fields of an immediate: zero (Gen7 align16 src0: the
///   implied align16 width and stride, as the codec reads them);
/// - `W`, `UW` and `HF` immediates: the 16 bits in both halves of the dword;
///   Gen8's bits 95:64 beside a 32-bit src0 immediate: zero;
/// - 3-source operands with the scalar region `<0,1,0>`: swizzle `xxxx`
///   (Gen7's src1 keeps bits 4:3, which Mesa prints as the flag register),
///   and Gen7's 3-source flag field: the conditional modifier's flag as
///   printed, or f0.0;
/// - SEND with an immediate descriptor: src1 typed UD;
/// - `wait`: src0 repeats the destination (align16: swizzled from its
///   write mask), src1 is `null<8;8,1>F`;
/// - `jmpi`: the destination and src0 are `ip`;
/// - `if`/`else`/`endif`/`while`/`break`/`cont`/`halt`: Mesa's hidden
///   operands on Gen7 and on Gen8, and a UIP the syntax does not show;
/// - the other flow control and the opcodes written without operands
///   (`nop`, `illegal`, `smov`): every operand field zero, and no jump;
///   `call`/`calla` and `ret` show their operands (see [`shown_sources`]).
///
/// Haswell's `dim` with an F immediate is left alone beyond the header and
/// destination: its 64-bit immediate fills src1's bits.
pub fn canonicalize(p: Platform, i: &mut Instruction) {
    // Setting never stops early.
    let _ = walk(p, &mut Set(i));
}

/// Whether [`canonicalize`] would leave `i` as it is. The same walk as
/// [`canonicalize`] that, instead of writing each canonical value, stops
/// at the first field that differs from it: while every field so far
/// held its canonical value, writing it would have changed nothing, so
/// both walks read the same fields and take the same branches. (This
/// holds because the walk writes each field at most once on any path;
/// a test compares the two over decoded words.) It reads `i` in place.
#[inline]
pub(crate) fn is_canonical(p: Platform, i: &Instruction) -> bool {
    walk(p, &mut Check(i)).is_ok()
}

/// A field that differs from its canonical value (checking walk).
pub(crate) struct Differs;

/// How the walk reaches the fields it gives canonical values: [`Set`]
/// writes each one ([`canonicalize`]), [`Check`] compares it and stops
/// at the first that differs ([`is_canonical`]).
pub(crate) trait Slots {
    /// The instruction as it stands (the fields the walk reads).
    fn i(&self) -> &Instruction;

    /// Gives the field that `get` and `get_mut` reach (one place, see
    /// [`put!`]) its canonical value `v`.
    fn put<T: PartialEq>(
        &mut self,
        get: impl FnOnce(&Instruction) -> &T,
        get_mut: impl FnOnce(&mut Instruction) -> &mut T,
        v: T,
    ) -> Result<(), Differs>;
}

/// The setting walk: writes every canonical value.
pub(crate) struct Set<'a>(pub(crate) &'a mut Instruction);

/// The checking walk: reads the instruction, stops at a differing field.
pub(crate) struct Check<'a>(pub(crate) &'a Instruction);

impl Slots for Set<'_> {
    #[inline(always)]
    fn i(&self) -> &Instruction {
        self.0
    }

    #[inline(always)]
    fn put<T: PartialEq>(
        &mut self,
        _: impl FnOnce(&Instruction) -> &T,
        get_mut: impl FnOnce(&mut Instruction) -> &mut T,
        v: T,
    ) -> Result<(), Differs> {
        *get_mut(self.0) = v;
        Ok(())
    }
}

impl Slots for Check<'_> {
    #[inline(always)]
    fn i(&self) -> &Instruction {
        self.0
    }

    #[inline(always)]
    fn put<T: PartialEq>(
        &mut self,
        get: impl FnOnce(&Instruction) -> &T,
        _: impl FnOnce(&mut Instruction) -> &mut T,
        v: T,
    ) -> Result<(), Differs> {
        // `eq`, which a source's `PartialEq` inlines into the walk; the
        // provided `!=` around it would stay a call.
        if T::eq(get(self.0), &v) {
            Ok(())
        } else {
            Err(Differs)
        }
    }
}

/// The noting walk: writes every canonical value, as [`Set`] does, and
/// notes the bytes of the instruction whose field it changed (bit `n`
/// of [`Note::changed`] for byte `n`), which tell the encoder the
/// fields it need not encode again
/// ([`crate::codec::native_word_changed`]).
pub(crate) struct Note<'a> {
    i: &'a mut Instruction,
    /// The bytes changed so far.
    pub(crate) changed: u64,
}

// A bit for each byte.
const _: () = assert!(core::mem::size_of::<Instruction>() <= u64::BITS as usize);

impl<'a> Note<'a> {
    /// Notes the changes made to `i`, none yet.
    pub(crate) fn new(i: &'a mut Instruction) -> Self {
        Note { i, changed: 0 }
    }
}

/// The bits of [`Note::changed`] for the `n` bytes at byte `at` of an
/// instruction.
#[inline(always)]
pub(crate) const fn byte_bits(at: usize, n: usize) -> u64 {
    (u64::MAX >> (u64::BITS as usize - n)) << at
}

impl Slots for Note<'_> {
    #[inline(always)]
    fn i(&self) -> &Instruction {
        self.i
    }

    #[inline(always)]
    fn put<T: PartialEq>(
        &mut self,
        _: impl FnOnce(&Instruction) -> &T,
        get_mut: impl FnOnce(&mut Instruction) -> &mut T,
        v: T,
    ) -> Result<(), Differs> {
        let base = core::ptr::from_ref::<Instruction>(self.i) as usize;
        let f = get_mut(self.i);
        if !T::eq(f, &v) {
            // The field's place in the instruction (a constant once
            // inlined).
            let at = (core::ptr::from_mut(f) as usize).wrapping_sub(base);
            self.changed |= byte_bits(at, core::mem::size_of::<T>());
            *f = v;
        }
        Ok(())
    }
}

/// `put!(s, [field.path], v)`: [`Slots::put`] of the instruction's field
/// at `field.path` (named once, for reading and for writing).
macro_rules! put {
    ($s:expr, [$($f:tt)+], $v:expr) => {
        $s.put(|i| &i.$($f)+, |i| &mut i.$($f)+, $v)
    };
}
pub(crate) use put;

/// [`canonicalize`] (through [`Set`]) or [`is_canonical`] (through
/// [`Check`]). Writes each field at most once on any path (see
/// [`is_canonical`]).
#[inline(always)]
fn walk(p: Platform, s: &mut impl Slots) -> Result<(), Differs> {
    let i = s.i();
    let op = i.opcode;
    let a16 = i.access_mode == AccessMode::Align16;
    // Each bit is tested alone and the field written only when a bit must
    // go: the builder has just written the header field by field, and a
    // load of the whole field (which the compiler reads wider than its 16
    // bits) would wait for those stores to reach the cache.
    let mut clear = Controls::empty();
    if i.pred_control == PRED_CONTROL_NONE && i.controls.contains(Controls::PRED_INV) {
        clear |= Controls::PRED_INV;
    }
    if op.is_send() && i.controls.contains(Controls::SATURATE) {
        clear |= Controls::SATURATE;
    }
    if !clear.is_empty() {
        let c = i.controls - clear;
        put!(s, [controls], c)?;
    }
    if op.is_three_src() {
        return three_src(p, s);
    }
    if !shows_flag(s.i()) {
        put!(s, [flag], FlagReg::default())?;
    }
    if op.offsets_may_be_register() {
        return brd_brc(p, s, a16);
    }
    if shows_no_operands(op) || (op.is_branch() && !shows_jip(op)) {
        let mut src = [Src::ZERO; 3];
        if a16 {
            // As the codec reads zero fields in align16 (Gen8 branches keep
            // src0 in bits the immediate layout reads as file and type).
            if !(op.is_branch() && p.is_gen8()) {
                src[0] = A16_ZERO;
            }
            if !op.is_branch() {
                src[1] = A16_ZERO;
            }
        }
        put!(s, [dst], zero_dst(a16))?;
        put!(s, [src], src)?;
        return put!(s, [imm], 0);
    }
    if op.is_branch() {
        return branch(p, s, a16);
    }
    if a16 {
        put!(s, [dst.hstride], HSTRIDE_1)?;
    }
    match op {
        Opcode::Wait => return wait(s, a16),
        Opcode::Jmpi => return jmpi(p, s, a16),
        // Haswell's immediate form: the 64-bit value fills src1's bits.
        Opcode::Dim if s.i().src[0].is_imm() && s.i().src[0].ty == Type::F => return Ok(()),
        _ => {}
    }
    let nsrc = if op.is_send() { 2 } else { shown_sources(op) };
    // Whether the codec reads src1's type field as the immediate's code.
    let copies = s.i().src1_type_copies_imm0();
    let dim = op == Opcode::Dim;
    // Beside dim's immediate (bits 127:64) the codec keeps only the
    // sources' files and types.
    let kept = |c: Src| if dim { file_and_type(&c) } else { c };
    // Each source is written once, with its final value (see
    // `is_canonical`), straight into its place: no staged copies, which
    // the compiler read back wider than it wrote them (stalled loads).
    let [s0, s1, _] = &s.i().src;
    let (s0_imm, s1_imm, t0, t1) = (s0.is_imm(), s1.is_imm(), s0.ty, s1.ty);
    if s0_imm {
        let mut c = Src::imm(t0);
        if a16 && !p.is_gen8() && !dim {
            // Gen7 keeps src0's region bits beside an immediate; the codec
            // reads the zero ones as align16's implied width and stride.
            c.region = A16_ZERO.region;
        }
        put!(s, [src[0]], kept(c))?;
        if nsrc < 2 {
            // src1's file and type beside a 32-bit immediate: ARF and the
            // immediate's type code (none beside a 64-bit one, whose value
            // fills bits 127:64). The codec reads that code as an
            // immediate type (Instruction::src1_type_copies_imm0).
            let c = if copies && !t0.is_64bit() && t0.imm_hw(p).is_some() {
                Src {
                    file: RegFile::Arf,
                    ty: t0,
                    ..Src::ZERO
                }
            } else {
                Src::ZERO
            };
            put!(s, [src[1]], kept(c))?;
        } else if !s1_imm || dim {
            // The immediate fills src1's bits: only its file and type stay.
            let c = file_and_type(&s.i().src[1]);
            put!(s, [src[1]], c)?;
        }
    } else {
        if dim {
            let c = file_and_type(&s.i().src[0]);
            put!(s, [src[0]], c)?;
        }
        if nsrc < 2 {
            put!(s, [src[1]], kept(if a16 { A16_ZERO } else { Src::ZERO }))?;
        } else if dim {
            let c = file_and_type(&s.i().src[1]);
            put!(s, [src[1]], c)?;
        } else if s1_imm {
            put!(s, [src[1]], Src::imm(if op.is_send() { Type::UD } else { t1 }))?;
        }
    }
    if op.is_send() {
        // DW3 is the descriptor dword (or an immediate payload), or holds
        // EOT beside a register descriptor: all of it shows.
        return Ok(());
    }
    let [s0, s1, _] = &s.i().src;
    let imm_ty = match (s0.is_imm(), s1.is_imm()) {
        (true, false) => Some(s0.ty),
        (false, true) => Some(s1.ty),
        // Two immediates (a word no emitter writes): their bits overlap.
        (true, true) => return Ok(()),
        (false, false) => None,
    };
    canonical_imm(s, imm_ty)
}

/// A source with only `s`'s file and type (every other field zero).
fn file_and_type(s: &Src) -> Src {
    Src {
        file: s.file,
        ty: s.ty,
        ..Src::ZERO
    }
}

/// The immediate payload beside an immediate of type `t` (or none): a
/// 16-bit one in both halves of the dword, nothing above a 32-bit one, no
/// bits at all without one.
#[inline(always)]
fn canonical_imm(s: &mut impl Slots, t: Option<Type>) -> Result<(), Differs> {
    let imm = s.i().imm;
    let v = match t {
        Some(t) if t.size() == 2 && !t.is_vector_imm() => {
            let v = imm & u64::from(u16::MAX);
            v | v << u16::BITS
        }
        Some(t) if !t.is_64bit() => imm & u64::from(u32::MAX),
        Some(_) => return Ok(()),
        None => 0,
    };
    put!(s, [imm], v)
}

/// `jmpi`: the destination and src0 are `ip` (src0 an immediate UD on
/// Gen8 beside a 64-bit src1 immediate, whose high half fills src0's
/// place in bits 95:64).
fn jmpi(p: Platform, s: &mut impl Slots, a16: bool) -> Result<(), Differs> {
    put!(s, [dst], hidden_dst(ARF_IP, Type::UD))?;
    let s1 = s.i().src[1];
    let wide = p.is_gen8() && s1.is_imm() && s1.ty.is_64bit();
    let s0 = if wide {
        Src::imm(Type::UD)
    } else {
        hidden_src(Hidden::Ip, Type::UD, a16, s.i().exec_size)
    };
    put!(s, [src[0]], s0)?;
    if s1.is_imm() {
        put!(s, [src[1]], Src::imm(s1.ty))?;
    }
    canonical_imm(s, s1.is_imm().then_some(s1.ty))
}

/// The 3-source part of [`canonicalize`].
fn three_src(p: Platform, s: &mut impl Slots) -> Result<(), Differs> {
    let gen7 = !p.is_gen8();
    put!(s, [dst.hstride], HSTRIDE_1)?;
    // On Gen7 Mesa prints bits 4:3 of src1's swizzle as the flag register
    // of a predicate or conditional modifier.
    let flag_shown = s.i().pred_control != PRED_CONTROL_NONE || s.i().cond_modifier != CondMod::None.hw();
    // Source by source (constant indices).
    macro_rules! scalar_swizzle {
        ($k:tt) => {
            let src = &s.i().src[$k];
            if src.region == Region::SCALAR {
                let keep = if gen7 && $k == 1 && flag_shown {
                    Swizzle::GEN7_FLAG_BITS
                } else {
                    0
                };
                let sw = Swizzle(src.swizzle.0 & keep);
                put!(s, [src[$k].swizzle], sw)?;
            }
        };
    }
    scalar_swizzle!(0);
    scalar_swizzle!(1);
    scalar_swizzle!(2);
    if gen7 {
        // The real flag field takes the conditional modifier's flag, which
        // Mesa prints from src1's swizzle bits.
        let f = if s.i().cond_modifier != CondMod::None.hw() {
            s.i().src[1].swizzle.gen7_flag()
        } else {
            FlagReg::default()
        };
        put!(s, [flag], f)
    } else if !shows_flag(s.i()) {
        put!(s, [flag], FlagReg::default())
    } else {
        Ok(())
    }
}

/// Flow control with a JIP: the hidden operands and the UIP that the
/// syntax does not show.
fn branch(p: Platform, s: &mut impl Slots, a16: bool) -> Result<(), Differs> {
    use Opcode::*;
    let op = s.i().opcode;
    let uip_shown = shows_uip(p, op);
    if p.is_gen8() {
        let dst = match op {
            Endif => zero_dst(a16),
            Cont => hidden_dst(ARF_IP, Type::UD),
            _ => hidden_dst(ARF_NULL, Type::D),
        };
        put!(s, [dst], dst)?;
        // src0 is the immediate 0D. Mesa's immediate src0 also typed src1
        // as D, in bits 95:64, which only a UIP overwrites. (Source by
        // source: an array value is staged on the stack and read back
        // wider than it was written, which stalls.)
        put!(s, [src[0]], Src::imm(Type::D))?;
        put!(s, [src[1]], Src::ZERO)?;
        put!(s, [src[2]], Src::ZERO)?;
        if !uip_shown {
            let d = u64::from(Type::D.reg_hw(p).unwrap_or(0)) << (gen8_native::SRC1_REG_TYPE_LO - 64);
            let jip = u64::from(u32::MAX) << Instruction::GEN8_JIP_SHIFT;
            let imm = s.i().imm & jip | d << Instruction::GEN8_UIP_SHIFT;
            put!(s, [imm], imm)?;
        }
        Ok(())
    } else {
        let (dnr, dty, s0) = match op {
            Cont => (ARF_IP, Type::UD, Hidden::Ip),
            If => (ARF_NULL, Type::D, Hidden::NullVec1),
            _ => (ARF_NULL, Type::D, Hidden::NullVec8),
        };
        put!(s, [dst], hidden_dst(dnr, dty))?;
        let src = [
            hidden_src(s0, dty, a16, s.i().exec_size),
            Src::imm(if matches!(op, If | Else | Endif | While) {
                Type::W
            } else {
                Type::D
            }),
            Src::ZERO,
        ];
        put!(s, [src], src)?;
        let jip = u64::from(u16::MAX) << Instruction::GEN7_JIP_SHIFT;
        let uip = u64::from(u16::MAX) << Instruction::GEN7_UIP_SHIFT;
        let imm = s.i().imm & if uip_shown { jip | uip } else { jip };
        put!(s, [imm], imm)
    }
}

/// `brd` and `brc`. With a register src0, which holds the jump offsets,
/// the text shows the destination and src0 (the text's extension: Mesa
/// prints no operand for these opcodes, which it never emits); src1 and
/// the payload are zero. With an immediate src0 the text shows no
/// operand: the destination is zero, src0 the immediate `0D` and the
/// offsets zero (others are kept by the field annotation).
fn brd_brc(p: Platform, s: &mut impl Slots, a16: bool) -> Result<(), Differs> {
    if !s.i().offsets_from_register() {
        put!(s, [dst], zero_dst(a16))?;
        let mut s0 = Src::imm(Type::D);
        if a16 && !p.is_gen8() {
            // Gen7 keeps src0's region bits beside an immediate; the codec
            // reads the zero ones as align16's implied width and stride.
            s0.region = A16_ZERO.region;
        }
        put!(s, [src[0]], s0)?;
    } else if a16 {
        // The destination the text shows: an align16 one's hidden stride
        // is 1, as for the ALU operations.
        put!(s, [dst.hstride], HSTRIDE_1)?;
    }
    put!(s, [src[1]], Src::ZERO)?;
    put!(s, [src[2]], Src::ZERO)?;
    put!(s, [imm], 0)
}

/// `wait`: src0 repeats the destination; in align16 it reads the written
/// channels (Mesa's swizzle-for-mask: unset channels take the last set one
/// before them, or the first set one). src1 is `null`.
fn wait(s: &mut impl Slots, a16: bool) -> Result<(), Differs> {
    let d = s.i().dst;
    let mut s0 = Src {
        file: d.file,
        ty: d.ty,
        addr: d.addr,
        ..Src::ZERO
    };
    if a16 {
        let m = d.writemask.bits();
        let mut last = if m == 0 { 0 } else { m.trailing_zeros() as u8 };
        let mut sw = 0u8;
        for ch in 0..4u8 {
            if m & (1 << ch) != 0 {
                last = ch;
            }
            sw |= last << (2 * ch);
        }
        s0.swizzle = Swizzle(sw);
        s0.region = A16_ZERO.region;
    }
    let exec = s.i().exec_size;
    put!(
        s,
        [src],
        [s0, hidden_src(Hidden::NullVec8, Type::F, a16, exec), Src::ZERO]
    )?;
    put!(s, [imm], 0)
}

/// `null` and `ip` as Mesa's emitter describes them, for operands the
/// text does not show.
#[derive(Clone, Copy)]
enum Hidden {
    /// `null`, `<8;8,1>`.
    NullVec8,
    /// `null`, `<0;1,0>`.
    NullVec1,
    /// `ip`, `<4;1,0>`.
    Ip,
}

/// A destination set as Mesa's `brw_set_dest` sets a `null`/`ip`
/// register: stride 1, all channels.
fn hidden_dst(nr: u8, ty: Type) -> Dst {
    Dst {
        file: RegFile::Arf,
        ty,
        addr: Addr::Direct { nr, subnr: 0 },
        hstride: HSTRIDE_1,
        writemask: WriteMask::XYZW,
    }
}

/// A source set as Mesa's `brw_set_src0/1` set it: in align1 a width-1
/// region with execution size 1 becomes `<0;1,0>`; in align16 a vertical
/// stride of 8 is encoded as 4 and the swizzle is `xyzw`.
fn hidden_src(h: Hidden, ty: Type, a16: bool, exec: ExecSize) -> Src {
    let (nr, region) = match h {
        Hidden::NullVec8 => (
            ARF_NULL,
            Region {
                vstride: VSTRIDE_8,
                width: WIDTH_8,
                hstride: HSTRIDE_1,
            },
        ),
        Hidden::NullVec1 => (ARF_NULL, Region::SCALAR),
        Hidden::Ip => (
            ARF_IP,
            Region {
                vstride: VSTRIDE_4,
                width: WIDTH_1,
                hstride: HSTRIDE_0,
            },
        ),
    };
    let mut s = Src {
        file: RegFile::Arf,
        ty,
        addr: Addr::Direct { nr, subnr: 0 },
        ..Src::ZERO
    };
    if a16 {
        s.swizzle = Swizzle::XYZW;
        s.region = Region {
            vstride: if region.vstride == VSTRIDE_8 {
                VSTRIDE_4
            } else {
                region.vstride
            },
            width: A16_WIDTH,
            hstride: A16_HSTRIDE,
        };
    } else if region.width == WIDTH_1 && exec == ExecSize::S1 {
        s.region = Region::SCALAR;
    } else {
        s.region = region;
    }
    s
}

/// A destination with every field zero (what Mesa leaves when it sets none).
fn zero_dst(a16: bool) -> Dst {
    Dst {
        file: RegFile::Arf,
        ty: Type::UD,
        addr: Addr::Direct { nr: ARF_NULL, subnr: 0 },
        hstride: HSTRIDE_0,
        writemask: if a16 { WriteMask::empty() } else { WriteMask::XYZW },
    }
}

/// The values IGA's assembler (Intel's `iga64`) gives the fields IGA's
/// syntax does not show, as data beside Mesa's above: the IGA dialect of
/// the text layer (`text::iga`) builds its canonical form from the fields
/// its text shows and these values (its walk lives with the text, which
/// decides what is shown; for the operands both syntaxes hide it reuses
/// [`canonicalize`]).
pub(crate) struct IgaDefaults {
    /// A SEND's src0 region (IGA shows no region on SEND operands).
    pub(crate) send_src0_region: Region,
    /// The swizzle of a 3-source operand (IGA's text shows none).
    pub(crate) ternary_swizzle: Swizzle,
    /// The destination type of the flow-control instructions IGA writes
    /// without operand types.
    pub(crate) branch_dst_type: Type,
    /// An align16 source converted to align1 (`<1;1,0>`).
    pub(crate) a16_src_region: Region,
    /// The immediate type of a Gen7/7.5 branch's src0 (its jumps in DW3).
    pub(crate) gen7_branch_src0_type: Type,
    /// The immediate type of a Gen8 one-jump branch's src1 (its JIP).
    pub(crate) gen8_branch_src1_type: Type,
    /// The source type IGA's text leaves out on `brd`, `brc` and `jmpi`
    /// (its `OpSpec::implicitSrcTypeVal` for typed branches: `:d`, for a
    /// register and for a label alike); another type is printed.
    pub(crate) typed_branch_src_type: Type,
    /// The src0 region of a `brd` reading its offsets from a register,
    /// which IGA's text does not show (`OpSpec::implicitSrcRegion`:
    /// `<0;1,0>`).
    pub(crate) brd_src0_region: Region,
    /// The same for `brc` (`<2;2,1>`).
    pub(crate) brc_src0_region: Region,
    /// The src0 region IGA's encoder writes on `call` and `calla`, whose
    /// operand goes to src1 (`Encoder::callNeedsSrcRegion221`: "<2;2,1>
    /// restriction for CALL and CALLA ... for IVB+HSW, but simulator has
    /// it until CNL"); the rest of src0 is zero.
    pub(crate) call_src0_region: Region,
    /// The region of `call`'s register operand (src1), which IGA's text
    /// does not show (`OpSpec::implicitSrcRegion`: `<0;1,0>`).
    pub(crate) call_src1_region: Region,
    /// The same for `ret`'s src0 (`<2;2,1>` before Gen12).
    pub(crate) ret_src0_region: Region,
    /// The unread src1 of a one-source math macro (`math.rsqtm`), in
    /// align16: null, vertical stride 0. Not checked against `iga64`'s
    /// output (the corpus has no math macro).
    pub(crate) macro_unread_src: Src,
}

/// `<2;2,1>`, a region IGA writes where its text shows none.
const REGION_2_2_1: Region = Region {
    vstride: crate::isa::region::VSTRIDE_2,
    width: crate::isa::region::WIDTH_2,
    hstride: crate::isa::region::HSTRIDE_1,
};

/// IGA 1.1.0's values (from what `iga64 -a` encodes of its own text).
pub(crate) const IGA: IgaDefaults = IgaDefaults {
    send_src0_region: Region {
        vstride: 0,
        width: 0,
        hstride: 0,
    },
    ternary_swizzle: Swizzle::XYZW,
    branch_dst_type: Type::UD,
    a16_src_region: Region {
        vstride: crate::isa::region::VSTRIDE_1,
        width: crate::isa::region::WIDTH_1,
        hstride: crate::isa::region::HSTRIDE_0,
    },
    gen7_branch_src0_type: Type::W,
    gen8_branch_src1_type: Type::D,
    typed_branch_src_type: Type::D,
    brd_src0_region: Region::SCALAR,
    brc_src0_region: REGION_2_2_1,
    call_src0_region: REGION_2_2_1,
    call_src1_region: Region::SCALAR,
    ret_src0_region: REGION_2_2_1,
    macro_unread_src: Src {
        region: Region {
            vstride: crate::isa::region::VSTRIDE_0,
            width: crate::isa::region::WIDTH_4,
            hstride: crate::isa::region::HSTRIDE_1,
        },
        ..Src::ZERO
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Each named region code is the code of its count of elements, and
    /// the last codes are those of the largest counts.
    #[test]
    fn region_code_names_encode_their_counts() {
        use crate::isa::region::*;
        let vstrides = [
            (0, VSTRIDE_0),
            (1, VSTRIDE_1),
            (2, VSTRIDE_2),
            (4, VSTRIDE_4),
            (8, VSTRIDE_8),
            (16, VSTRIDE_16),
            (32, VSTRIDE_32),
        ];
        for (n, code) in vstrides {
            assert_eq!(Region::new(n, 1, 0).map(|r| r.vstride), Some(code), "vstride {n}");
        }
        for (n, code) in [(1, WIDTH_1), (2, WIDTH_2), (4, WIDTH_4), (8, WIDTH_8), (16, WIDTH_16)] {
            assert_eq!(Region::new(0, n, 0).map(|r| r.width), Some(code), "width {n}");
        }
        for (n, code) in [(0, HSTRIDE_0), (1, HSTRIDE_1), (2, HSTRIDE_2), (4, HSTRIDE_4)] {
            assert_eq!(Region::new(0, 1, n).map(|r| r.hstride), Some(code), "hstride {n}");
        }
        assert_eq!(
            (VSTRIDE_32, WIDTH_16, HSTRIDE_4),
            (VSTRIDE_LAST, WIDTH_LAST, HSTRIDE_LAST)
        );
        let scalar = (VSTRIDE_0, WIDTH_1, HSTRIDE_0);
        assert_eq!(
            scalar,
            (Region::SCALAR.vstride, Region::SCALAR.width, Region::SCALAR.hstride)
        );
    }

    /// The checking walk answers what setting and comparing answers, on
    /// decoded words (a random walk over words that decode, mostly not
    /// canonical), on their canonical forms and on those with one bit
    /// flipped (canonical but for one field, so that a field the walk
    /// reads late can differ).
    #[test]
    fn is_canonical_is_canonicalize_then_compare() {
        use crate::codec::{decode_word, encode_word};
        use crate::word::Word;
        let by_setting = |p: Platform, i: &Instruction| {
            let mut c = *i;
            canonicalize(p, &mut c);
            c == *i
        };
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut canonical, mut not) = (0, 0);
        for p in Platform::ALL {
            let Ok(mut at) = encode_word(p, &Instruction::new(Opcode::Add, ExecSize::S8)) else {
                panic!("{p:?}: add does not encode");
            };
            for _ in 0..20_000 {
                let mut w = at.0;
                for _ in 0..1 + next() % 3 {
                    w ^= 1 << (next() % 128);
                }
                let Ok(i) = decode_word(p, Word(w)) else {
                    continue;
                };
                at = Word(w);
                let mut c = i;
                canonicalize(p, &mut c);
                let mut seen = vec![i, c];
                if let Ok(cw) = encode_word(p, &c) {
                    if let Ok(f) = decode_word(p, Word(cw.0 ^ 1 << (next() % 128))) {
                        seen.push(f);
                    }
                }
                for i in seen {
                    let want = by_setting(p, &i);
                    assert_eq!(is_canonical(p, &i), want, "{p:?} {i:?}");
                    noted_changes_are_the_changes(p, &i);
                    if want {
                        canonical += 1;
                    } else {
                        not += 1;
                    }
                }
            }
        }
        assert!(canonical > 10_000 && not > 10_000, "{canonical} {not}");
    }

    /// The noting walk builds what the setting walk builds, and notes the
    /// bytes of every field it changed (the header's fields, and each
    /// field of the destination and the sources), and no change of a
    /// canonical instruction.
    fn noted_changes_are_the_changes(p: Platform, i: &Instruction) {
        use core::mem::{offset_of, size_of_val};
        let mut c = *i;
        canonicalize(p, &mut c);
        let mut n = *i;
        let mut note = Note::new(&mut n);
        let _ = walk(p, &mut note);
        let changed = note.changed;
        assert_eq!(n, c, "{p:?} {i:?}");
        assert_eq!(changed == 0, n == *i, "{p:?} {i:?}");
        let mut fields = vec![
            (
                n.opcode != i.opcode,
                byte_bits(offset_of!(Instruction, opcode), size_of_val(&n.opcode)),
            ),
            (
                n.exec_size != i.exec_size,
                byte_bits(offset_of!(Instruction, exec_size), size_of_val(&n.exec_size)),
            ),
            (
                n.access_mode != i.access_mode,
                byte_bits(offset_of!(Instruction, access_mode), size_of_val(&n.access_mode)),
            ),
            (
                n.thread_control != i.thread_control,
                byte_bits(offset_of!(Instruction, thread_control), size_of_val(&n.thread_control)),
            ),
            (
                n.qtr_control != i.qtr_control,
                byte_bits(offset_of!(Instruction, qtr_control), 1),
            ),
            (
                n.pred_control != i.pred_control,
                byte_bits(offset_of!(Instruction, pred_control), 1),
            ),
            (
                n.cond_modifier != i.cond_modifier,
                byte_bits(offset_of!(Instruction, cond_modifier), 1),
            ),
            (
                n.controls != i.controls,
                byte_bits(offset_of!(Instruction, controls), size_of_val(&n.controls)),
            ),
            (
                n.flag != i.flag,
                byte_bits(offset_of!(Instruction, flag), size_of_val(&n.flag)),
            ),
            (
                n.imm != i.imm,
                byte_bits(offset_of!(Instruction, imm), size_of_val(&n.imm)),
            ),
        ];
        let (a, b, at) = (&n.dst, &i.dst, offset_of!(Instruction, dst));
        fields.extend([
            (
                a.file != b.file,
                byte_bits(at + offset_of!(Dst, file), size_of_val(&a.file)),
            ),
            (a.ty != b.ty, byte_bits(at + offset_of!(Dst, ty), size_of_val(&a.ty))),
            (
                a.addr != b.addr,
                byte_bits(at + offset_of!(Dst, addr), size_of_val(&a.addr)),
            ),
            (
                a.hstride != b.hstride,
                byte_bits(at + offset_of!(Dst, hstride), size_of_val(&a.hstride)),
            ),
            (
                a.writemask != b.writemask,
                byte_bits(at + offset_of!(Dst, writemask), size_of_val(&a.writemask)),
            ),
        ]);
        for k in 0..3 {
            let at = offset_of!(Instruction, src) + k * size_of_val(&n.src[0]);
            let (a, b) = (&n.src[k], &i.src[k]);
            fields.extend([
                (
                    a.file != b.file,
                    byte_bits(at + offset_of!(Src, file), size_of_val(&a.file)),
                ),
                (a.ty != b.ty, byte_bits(at + offset_of!(Src, ty), size_of_val(&a.ty))),
                (
                    a.addr != b.addr,
                    byte_bits(at + offset_of!(Src, addr), size_of_val(&a.addr)),
                ),
                (
                    a.region != b.region,
                    byte_bits(at + offset_of!(Src, region), size_of_val(&a.region)),
                ),
                (
                    a.swizzle != b.swizzle,
                    byte_bits(at + offset_of!(Src, swizzle), size_of_val(&a.swizzle)),
                ),
                (
                    a.mods != b.mods,
                    byte_bits(at + offset_of!(Src, mods), size_of_val(&a.mods)),
                ),
            ]);
        }
        for (differs, bits) in fields {
            if differs {
                assert_eq!(changed & bits, bits, "{p:?} {i:?} {n:?} {changed:x}");
            }
        }
    }
}
