//! Lowering: one parsed instruction (see `super::parse`) to the typed
//! model ([`Instruction`]) for one platform, and its encoding, checked or
//! not, with the field annotation's bits (see `super::hidden`). What the
//! text decides, and what Mesa's defaults decide, is described in
//! [`super::asm`].

use alloc::vec::Vec;

use super::error::{AsmError, AsmErrorKind};
use super::hidden::{Patch, RawField};
use super::lex::Pos;
use super::syntax::{Base, Chans, Flag, Inst, Num, Operand, Operands, Options, RawItem, RegName, SendOperands, Target};
use crate::build::construct::{self, imm_bits, Fault, Mode, Why};
use crate::build::{Imm, Operand as Value, Predicate, Reg, State};
use crate::error::Violations;
use crate::model::*;
use crate::word::fields::{gen7_native, gen8_native};
use crate::word::Word;
use crate::Strictness;

/// Assembly options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AsmOptions {
    /// How the hardware rules are applied: strict (every violation is an
    /// error), lenient (a conservative violation is a warning, kept in
    /// [`super::Assembled::warnings`]) or unchecked
    /// ([`crate::encode_unchecked`]).
    pub strictness: Strictness,
}

impl AsmOptions {
    /// Checked assembly (the default).
    pub const CHECKED: AsmOptions = AsmOptions {
        strictness: Strictness::Strict,
    };
    /// Lenient assembly: documented violations are errors, conservative
    /// ones warnings.
    pub const LENIENT: AsmOptions = AsmOptions {
        strictness: Strictness::Lenient,
    };
    /// Unchecked assembly.
    pub const UNCHECKED: AsmOptions = AsmOptions {
        strictness: Strictness::Unchecked,
    };
}

/// Jump targets still to resolve.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fixup<'a> {
    pub(super) jip: Option<Target<'a>>,
    pub(super) uip: Option<Target<'a>>,
}

/// Validates `i` as `opts` asks: the violations it is refused with, or
/// those let through written to `warnings` (left alone unless lenient).
#[inline(always)]
fn check(p: Platform, i: &Instruction, opts: AsmOptions, warnings: &mut Violations) -> Result<(), AsmErrorKind> {
    match opts.strictness {
        Strictness::Unchecked => Ok(()),
        // The common case, without sorting violations.
        Strictness::Strict => crate::validate::validate(p, i).map_err(AsmErrorKind::Rules),
        s => {
            *warnings = s.check(p, i).map_err(AsmErrorKind::Rules)?;
            Ok(())
        }
    }
}

/// Encodes, checked or not, giving the error's kind; a lenient check
/// writes the violations it lets through to `warnings` (see
/// [`Strictness`]).
#[inline]
pub(super) fn encode_kind(
    p: Platform,
    i: &Instruction,
    opts: AsmOptions,
    warnings: &mut Violations,
) -> Result<Word, AsmErrorKind> {
    // One copy per platform, each with `p` a constant: the platform tests
    // of the validator and the encoder fold away.
    match p {
        Platform::Gen7 => encode_on(Platform::Gen7, i, opts, warnings),
        Platform::Gen75 => encode_on(Platform::Gen75, i, opts, warnings),
        Platform::Gen8 => encode_on(Platform::Gen8, i, opts, warnings),
        Platform::Chv => encode_on(Platform::Chv, i, opts, warnings),
    }
}

/// [`encode_kind`] on one platform.
#[inline(always)]
fn encode_on(p: Platform, i: &Instruction, opts: AsmOptions, warnings: &mut Violations) -> Result<Word, AsmErrorKind> {
    // What `crate::encode_with` does, kept as a `Word`: the word stays in
    // registers on its way to the record. The word is the native one,
    // also for an instruction marked `compacted`.
    check(p, i, opts, warnings)?;
    crate::codec::native_word(p, i).map_err(AsmErrorKind::Encode)
}

/// [`encode_kind`], then the annotation's fields written into the word
/// (`inst` becomes the word's instruction, validated when checked).
pub(super) fn encode_raw(
    p: Platform,
    i: &mut Instruction,
    raw: Option<&[(RawField, u64)]>,
    opts: AsmOptions,
    warnings: &mut Violations,
) -> Result<Word, AsmErrorKind> {
    match raw {
        None => encode_kind(p, i, opts, warnings),
        Some(raw) => encode_items(p, i, raw, opts, warnings),
    }
}

/// [`encode_raw`] with an annotation's items (rare in Mesa's text: kept
/// out of the common path).
#[inline(never)]
fn encode_items(
    p: Platform,
    i: &mut Instruction,
    raw: &[(RawField, u64)],
    opts: AsmOptions,
    warnings: &mut Violations,
) -> Result<Word, AsmErrorKind> {
    encode_annotated(p, i, &Patch::of(raw), opts, warnings)
}

/// [`encode_raw`] with the annotation as a [`Patch`].
#[inline]
pub(super) fn encode_patched(
    p: Platform,
    i: &mut Instruction,
    raw: Option<&Patch>,
    opts: AsmOptions,
    warnings: &mut Violations,
) -> Result<Word, AsmErrorKind> {
    match raw {
        None => encode_kind(p, i, opts, warnings),
        Some(raw) => encode_annotated(p, i, raw, opts, warnings),
    }
}

/// [`encode_patched`] for the word alone: unchecked, an annotated word is
/// only checked to decode (its instruction is not built); `i` is left as
/// it is.
#[inline]
pub(super) fn encode_patched_word(
    p: Platform,
    i: &Instruction,
    raw: Option<&Patch>,
    opts: AsmOptions,
    warnings: &mut Violations,
) -> Result<Word, AsmErrorKind> {
    match raw {
        None => encode_kind(p, i, opts, warnings),
        Some(raw) if opts.strictness == Strictness::Unchecked => {
            let mut w = crate::codec::native_word(p, i).map_err(AsmErrorKind::Encode)?;
            w.0 = raw.apply(w.0);
            if crate::codec::decodes(p, w) {
                Ok(w)
            } else {
                Err(UNDECODABLE)
            }
        }
        Some(raw) => encode_annotated(p, &mut i.clone(), raw, opts, warnings),
    }
}

/// An annotation whose word does not decode.
const UNDECODABLE: AsmErrorKind = AsmErrorKind::Invalid {
    what: "field annotation",
    why: "the word it gives does not decode",
};

/// [`encode_raw`] with an annotation (rare in Mesa's text: kept out of
/// the common path), one copy per platform as [`encode_kind`].
#[inline(never)]
fn encode_annotated(
    p: Platform,
    i: &mut Instruction,
    raw: &Patch,
    opts: AsmOptions,
    warnings: &mut Violations,
) -> Result<Word, AsmErrorKind> {
    match p {
        Platform::Gen7 => annotated_on(Platform::Gen7, i, raw, opts, warnings),
        Platform::Gen75 => annotated_on(Platform::Gen75, i, raw, opts, warnings),
        Platform::Gen8 => annotated_on(Platform::Gen8, i, raw, opts, warnings),
        Platform::Chv => annotated_on(Platform::Chv, i, raw, opts, warnings),
    }
}

/// [`encode_annotated`] on one platform.
#[inline(always)]
fn annotated_on(
    p: Platform,
    i: &mut Instruction,
    raw: &Patch,
    opts: AsmOptions,
    warnings: &mut Violations,
) -> Result<Word, AsmErrorKind> {
    let mut w = crate::codec::native_word(p, i).map_err(AsmErrorKind::Encode)?;
    w.0 = raw.apply(w.0);
    // The compacted word's subregister index is no bit of the native word.
    let compact_subreg = raw.compact_subreg(i.compact_subreg);
    let compacted = i.controls & Controls::COMPACTED;
    *i = crate::decode_word(p, w).map_err(|_| UNDECODABLE)?;
    i.controls |= compacted;
    i.compact_subreg = compact_subreg;
    check(p, i, opts, warnings)?;
    Ok(w)
}

/// Lowering of parsed instructions for one platform.
pub(super) struct Lower<'s> {
    pub(super) p: Platform,
    pub(super) src: &'s str,
}

type LResult<T> = Result<T, AsmError>;

use crate::canon::A16_ZERO;
use crate::decimal::range_text;
use crate::isa::region::{HSTRIDE_0, HSTRIDE_1, VSTRIDE_0, WIDTH_1};

/// The EOT bit of the descriptor dword (bit 127 of the word).
const EOT_BIT: u32 = 1 << crate::model::SEND_EOT_BIT;

impl Lower<'_> {
    fn err(&self, pos: Pos, kind: AsmErrorKind) -> AsmError {
        AsmError::new(self.src, pos, kind)
    }

    fn invalid(&self, pos: Pos, what: &'static str, why: &'static str) -> AsmError {
        self.err(pos, AsmErrorKind::Invalid { what, why })
    }

    /// A shared constructor's refusal, at the operand `o` it names (an
    /// immediate's type: at the type).
    #[cold]
    fn fault(&self, f: Fault, o: &Operand) -> AsmError {
        match f.why {
            Why::ImmType(ty) => self.err(
                o.ty.map_or(o.pos, |(_, p)| p),
                AsmErrorKind::TypeNotOnPlatform {
                    ty: ty.name(),
                    platform: self.p,
                },
            ),
            why => self.invalid(o.pos, why.what(), why.why()),
        }
    }

    /// [`Lower::fault`] at the operand among `dst` and `src` that it names.
    #[cold]
    fn fault_in(&self, f: Fault, dst: &Operand, src: &[Option<Operand>; 3]) -> AsmError {
        let o = match f.operand {
            crate::validate::OperandId::Src(k) => src.get(usize::from(k)).and_then(Option::as_ref).unwrap_or(dst),
            _ => dst,
        };
        self.fault(f, o)
    }

    pub(super) fn encode(
        &self,
        i: &mut Instruction,
        raw: Option<&[(RawField, u64)]>,
        pos: Pos,
        opts: AsmOptions,
        warnings: &mut Violations,
    ) -> LResult<Word> {
        encode_raw(self.p, i, raw, opts, warnings).map_err(|kind| self.err(pos, kind))
    }

    /// The fields of `a`'s annotation, if it has one: its `items` (as the
    /// parser read them) resolved against the instruction's layout.
    pub(super) fn raw_fields(&self, a: &Inst<'_>, items: &[RawItem<'_>]) -> LResult<Option<Vec<(RawField, u64)>>> {
        if !a.annotated {
            return Ok(None);
        }
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let f = RawField::by_name(self.p, a.opcode, item.name).ok_or_else(|| {
                self.invalid(
                    item.pos,
                    "field annotation",
                    "no field of this name in the instruction's layout (see `geneu fields`), nor `bits_HI_LO`",
                )
            })?;
            if f == RawField::CompactSubreg && !a.opts.compacted {
                return Err(self.invalid(
                    item.pos,
                    "field annotation",
                    "`subreg_index` is a field of the compacted word: the instruction must be marked `compacted`",
                ));
            }
            let v = item.value;
            if f.width() < 64 && v.value >> f.width() != 0 {
                return Err(self.err(
                    v.pos,
                    AsmErrorKind::OutOfRange {
                        what: "field value",
                        value: i64::try_from(v.value).unwrap_or(i64::MAX),
                        range: "the field's width",
                    },
                ));
            }
            out.push((f, v.value));
        }
        Ok(Some(out))
    }

    /// Lowers `a` into `i` (in place); a branch comes back with the jumps
    /// still to resolve.
    #[inline(always)]
    pub(super) fn inst_into<'a>(&self, a: &Inst<'a>, i: &mut Instruction) -> LResult<Option<Fixup<'a>>> {
        let op = a.opcode;
        // Instructions printed without options (NOP) show their access mode
        // only through an align16 predicate control.
        // (The predicate first: most instructions have none, and the
        // options compare field by field.)
        let a16 = a.opts.align16
            || (a.pred.is_some_and(|p| match (p.raw, p.suffix) {
                (Some((_, a16)), _) => a16,
                (None, Some((s, _))) => matches!(s, "x" | "y" | "z" | "w"),
                _ => false,
            }) && a.opts == Options::default());
        let o = &a.opts;
        let access_mode = if a16 { AccessMode::Align16 } else { AccessMode::Align1 };
        let thread_control = ThreadControl::from_hw(o.thread)
            .ok_or_else(|| self.invalid(o.pos, "thread control", "`switch` and `atomic` exclude each other"))?;
        let flag = self.flag(a)?;
        let predicate = match a.pred {
            None => None,
            Some(pr) => {
                let ctrl = match pr.raw {
                    // Checked by the parser to fit the 4-bit field; 0 is
                    // no predicate.
                    Some((n, _)) => match n.value as u8 {
                        crate::isa::PRED_CONTROL_NONE => None,
                        n => Some(PredCtrl::from_hw(access_mode, n).unwrap_or(PredCtrl::Reserved(n))),
                    },
                    None => Some(self.pred_ctrl(a16, pr.suffix)?),
                };
                ctrl.map(|ctrl| Predicate {
                    flag,
                    ctrl,
                    invert: pr.inv,
                })
            }
        };
        // The header through the builder's one constructor. `compacted`
        // says how a disassembled instruction was stored: it is kept as
        // `Controls::COMPACTED` on the instruction, as decoding gives it,
        // and the word is the native one (`encode_kind`: no CmptCtrl bit,
        // which would make the 16 bytes read as a compacted instruction).
        // Program compaction writes the 8-byte form.
        let state = State {
            exec_size: a.exec,
            qtr_control: o.qtr,
            nib_control: o.nib,
            no_mask: o.we_all,
            access_mode,
            predicate,
            flag,
            saturate: a.sat,
            acc_write: o.acc_wr,
            no_dd_clear: o.no_dd_clear,
            no_dd_check: o.no_dd_check,
            thread_control,
            breakpoint: o.breakpoint || a.breakpoint,
        };
        *i = Instruction::new(op, a.exec);
        // Every control the text names exists in its access mode (checked
        // above), so this does not fail.
        state
            .header_into(i)
            .map_err(|_| self.invalid(a.pos, "predicate control", "not in this access mode"))?;
        if o.compacted {
            i.controls |= Controls::COMPACTED;
        }
        if let Some((cm, pos)) = a.cmod {
            if op.is_send() {
                return Err(self.invalid(
                    pos,
                    "conditional modifier",
                    "SEND has none: bits 27:24 hold the shared function",
                ));
            }
            if op == Opcode::Math {
                return Err(self.invalid(
                    pos,
                    "conditional modifier",
                    "MATH has none: bits 27:24 hold the function",
                ));
            }
            i.cond_modifier = cm;
        }
        if op == Opcode::Math {
            i.cond_modifier = a.math_fn;
        }
        let mut fix = None;
        match &a.ops {
            // Every operand field is Mesa's (canonicalization below).
            Operands::None => {}
            Operands::Alu { dst, src } => {
                if op.is_three_src() {
                    self.three_src(i, dst, src)?;
                    let shown = a.pred.map(|p| p.flag).or(a.cmod_flag);
                    if let (false, Some(f), true) = (self.p.is_gen8(), shown, i.src[1].region == Region::SCALAR) {
                        // Gen7: Mesa prints bits 4:3 of src1's swizzle as
                        // the flag; a scalar src1 shows its swizzle no other
                        // way.
                        let f = FlagReg { nr: f.nr, subnr: f.sub };
                        i.src[1].swizzle = i.src[1].swizzle.with_gen7_flag(f);
                    }
                } else {
                    self.alu(i, dst, src)?;
                }
            }
            Operands::Send(send) => self.send(i, send, a.opts.eot)?,
            Operands::Wait(dst) => self.wait(i, dst)?,
            Operands::Jmpi(src) => {
                let (s, imm) = self.src(src, a16)?;
                i.src[1] = s;
                if let Some(v) = imm {
                    i.imm = v;
                }
            }
            Operands::Branch { jip, uip } => {
                if op.offsets_may_be_register() {
                    // Without a register operand, `brd`/`brc` take their
                    // offsets from the payload: src0 is an immediate.
                    i.src[0] = Src::imm(Type::D);
                }
                fix = Some(self.branch(a, *jip, *uip)?)
            }
        }
        if a.opts.eot && !op.is_send() {
            return Err(self.invalid(a.opts.pos, "EOT", "only SEND and SENDC end a thread"));
        }
        crate::canon::canonicalize(self.p, i);
        Ok(fix)
    }

    /// The predicate control a suffix names (none: the plain one), which
    /// must exist in the access mode.
    fn pred_ctrl(&self, a16: bool, suffix: Option<(&str, Pos)>) -> LResult<PredCtrl> {
        let Some((s, pos)) = suffix else {
            return Ok(PredCtrl::Normal);
        };
        let mode = if a16 { AccessMode::Align16 } else { AccessMode::Align1 };
        // The suffix after the dot names a control other than the plain one.
        match s.parse::<PredCtrl>() {
            Ok(c) if c != PredCtrl::Normal && c.hw(mode).is_some() => Ok(c),
            _ => Err(self.err(
                pos,
                AsmErrorKind::Unexpected {
                    found: alloc::format!("`.{s}`"),
                    expected: if a16 {
                        "an align16 predicate control: .x, .y, .z, .w, .any4h or .all4h"
                    } else {
                        "an align1 predicate control: .anyv, .allv, .any2h .. .all32h (x, y, z, w need align16)"
                    },
                },
            )),
        }
    }

    /// The one flag field: from the conditional modifier or the predicate,
    /// which must agree when both name one.
    fn flag(&self, a: &Inst<'_>) -> LResult<FlagReg> {
        let fr = |f: Flag| FlagReg { nr: f.nr, subnr: f.sub };
        if a.opcode.is_three_src() && !self.p.is_gen8() {
            // Mesa prints src1 swizzle bits as this predicate flag; the
            // real field takes the conditional modifier's flag.
            return Ok(a.cmod_flag.map(fr).unwrap_or_default());
        }
        match (a.pred.map(|p| p.flag), a.cmod_flag) {
            (Some(pf), Some(cf)) if (pf.nr, pf.sub) != (cf.nr, cf.sub) => Err(self.err(
                cf.pos,
                AsmErrorKind::FlagMismatch {
                    pred: (pf.nr, pf.sub),
                    cmod: (cf.nr, cf.sub),
                },
            )),
            (_, Some(f)) | (Some(f), None) => Ok(fr(f)),
            (None, None) => Ok(FlagReg::default()),
        }
    }

    /// The operand's type, or `default`. Inlined into every operand's
    /// lowering, its errors built out of line: the IGA reader's use of
    /// the same lowering once tipped the compiler into a call here, which
    /// cost Mesa's reader about 20 instructions a word.
    #[inline(always)]
    fn reg_type(&self, o: &Operand, default: Option<Type>) -> LResult<Type> {
        let (ty, pos) = match (o.ty, default) {
            (Some(t), _) => t,
            (None, Some(t)) => return Ok(t),
            (None, None) => return Err(self.type_required(o.pos)),
        };
        if ty.reg_hw(self.p).is_none() {
            return Err(self.type_not_on_platform(ty, pos));
        }
        Ok(ty)
    }

    #[cold]
    #[inline(never)]
    fn type_required(&self, pos: Pos) -> AsmError {
        self.invalid(pos, "operand", "a type such as `F` or `UD` is required")
    }

    #[cold]
    #[inline(never)]
    fn type_not_on_platform(&self, ty: Type, pos: Pos) -> AsmError {
        self.err(
            pos,
            AsmErrorKind::TypeNotOnPlatform {
                ty: ty.name(),
                platform: self.p,
            },
        )
    }

    /// File and register number of a direct register.
    #[inline]
    fn file_nr(&self, name: RegName, pos: Pos) -> LResult<(RegFile, u8, bool)> {
        Ok(match name {
            RegName::Grf(n) => (RegFile::Grf, n, false),
            // Gen7+ has no MRF: Mesa places m<n> at GRF n + 112.
            RegName::Mrf(n) => (
                RegFile::Grf,
                n.checked_add(crate::isa::MRF_GRF_BASE).ok_or_else(|| {
                    self.err(
                        pos,
                        AsmErrorKind::OutOfRange {
                            what: "MRF number",
                            value: i64::from(n),
                            range: range_text!(0, u8::MAX - crate::isa::MRF_GRF_BASE),
                        },
                    )
                })?,
                false,
            ),
            RegName::Arf { nr, bare } => (RegFile::Arf, nr, bare),
        })
    }

    /// Byte subregister of `.sub` in units of `ty`.
    #[inline]
    fn sub_bytes(&self, sub: Option<Num>, ty: Type, a16: bool) -> LResult<u8> {
        let Some(n) = sub else { return Ok(0) };
        let bytes = n.value.saturating_mul(u64::from(ty.size()));
        let grf = u64::from(crate::isa::GRF_BYTES);
        if a16 {
            if bytes != 0 && bytes != grf / 2 {
                return Err(self.invalid(
                    n.pos,
                    "subregister",
                    "align16 subregisters are 0 or 16 bytes (`.0` or the register's second half)",
                ));
            }
        } else if bytes >= grf {
            return Err(self.err(
                n.pos,
                AsmErrorKind::OutOfRange {
                    what: "subregister (bytes)",
                    value: i64::try_from(bytes).unwrap_or(i64::MAX),
                    range: range_text!(0, crate::isa::GRF_BYTES - 1),
                },
            ));
        }
        Ok(bytes as u8)
    }

    /// An indirect address immediate: Mesa writes the raw 10-bit field; a
    /// negative offset or a value up to 1023 both fit it.
    fn addr_imm(&self, imm: i64, pos: Pos) -> LResult<i16> {
        use crate::isa::{ADDR_IMM_MAX, ADDR_IMM_MIN};
        // The field's width: the raw value `imm + SPAN` reads back as `imm`.
        const SPAN: i64 = ADDR_IMM_MAX as i64 - ADDR_IMM_MIN as i64 + 1;
        const MIN: i64 = ADDR_IMM_MIN as i64;
        const MAX: i64 = ADDR_IMM_MAX as i64;
        match imm {
            MIN..=MAX => Ok(imm as i16),
            _ if (MAX + 1..SPAN).contains(&imm) => Ok((imm - SPAN) as i16),
            _ => Err(self.err(
                pos,
                AsmErrorKind::OutOfRange {
                    what: "address offset",
                    value: imm,
                    range: range_text!(MIN, SPAN - 1),
                },
            )),
        }
    }

    /// [`Lower::dst`], written into `d` (in place: a `Dst` returned through
    /// a `Result` is read back wider than it was written, which stalls),
    /// through the builder's destination constructor.
    #[inline]
    fn dst_into(&self, o: &Operand, a16: bool, d: &mut Dst) -> LResult<()> {
        let r = self.dst_reg(o, a16, a16)?;
        construct::dst_into(a16, &r, d).map_err(|f| self.fault(f, o))
    }

    /// The destination as written, as an operand value: its subregister is
    /// an align16 half when `sub_a16` (a 3-source destination's is any
    /// dword).
    #[inline]
    fn dst_reg(&self, o: &Operand, a16: bool, sub_a16: bool) -> LResult<Reg> {
        let (file, ty, addr) = match o.base {
            Base::Imm { .. } => return Err(self.invalid(o.pos, "destination", "a destination cannot be an immediate")),
            Base::Reg { name, sub } => {
                let (file, nr, bare) = self.file_nr(name, o.pos)?;
                let ty = self.reg_type(o, bare.then(|| super::names::bare_type(nr)))?;
                let subnr = self.sub_bytes(sub, ty, sub_a16)?;
                (file, ty, Addr::Direct { nr, subnr })
            }
            Base::Indirect {
                sub,
                sub_words,
                imm,
                imm_pos,
            } => {
                let ty = self.reg_type(o, None)?;
                // Mesa's form divides the field by the type size; `:uw`
                // gives the field itself.
                let unit = if sub_words { 1 } else { u64::from(ty.size()) };
                let s = sub.map_or(0, |n| n.value).saturating_mul(unit);
                let addr = Addr::Indirect {
                    subnr: self.addr_sub(s, o.pos)?,
                    imm: self.addr_imm(imm, imm_pos)?,
                };
                (RegFile::Grf, ty, addr)
            }
        };
        let hstride = match &o.region {
            None => HSTRIDE_1,
            Some(r) => match (r.n, r.vxh, r.vals.first()) {
                (1, false, Some(h)) => u32::try_from(h.value)
                    .ok()
                    .and_then(|v| Region::new(0, 1, v))
                    .map(|r| r.hstride)
                    .ok_or_else(|| self.invalid(h.pos, "destination stride", "a horizontal stride is 0, 1, 2 or 4"))?,
                _ => return Err(self.invalid(r.pos, "destination region", "a destination region is `<hstride>`")),
            },
        };
        let writemask = match &o.chans {
            // The stride is not printed in align16 (canonicalization sets 1).
            Some(c) if a16 => self.writemask(c)?,
            Some(c) => return Err(self.invalid(c.pos, "write mask", "write masks need align16")),
            None => WriteMask::XYZW,
        };
        let region = Region {
            hstride,
            ..Region::SCALAR
        };
        Ok(Reg::raw(file, addr, ty, region, self.mods(o), Swizzle::XYZW, writemask))
    }

    /// The source modifiers as written.
    #[inline]
    fn mods(&self, o: &Operand) -> SrcMods {
        let mut m = SrcMods::empty();
        m.set(SrcMods::NEGATE, o.neg);
        m.set(SrcMods::ABS, o.abs);
        m
    }

    /// An address subregister as the field holds it.
    fn addr_sub(&self, n: u64, pos: Pos) -> LResult<u8> {
        let ok = u8::try_from(n).ok().filter(|&s| s < crate::isa::ADDR_SUBREGS);
        ok.ok_or_else(|| {
            self.err(
                pos,
                AsmErrorKind::OutOfRange {
                    what: "address subregister",
                    value: i64::try_from(n).unwrap_or(i64::MAX),
                    range: range_text!(0, crate::isa::ADDR_SUBREGS - 1),
                },
            )
        })
    }

    fn writemask(&self, c: &Chans) -> LResult<WriteMask> {
        if let Some(mm) = c.mme {
            // A math macro's destination specifier: the write mask's bits.
            return Ok(WriteMask::from_bits_truncate(mm.hw()));
        }
        let mut m = 0u8;
        let mut last: Option<u8> = None;
        for &ch in c.ch.iter().take(usize::from(c.n)) {
            if last.is_some_and(|l| ch <= l) {
                return Err(self.invalid(
                    c.pos,
                    "write mask",
                    "channels are written in the order x, y, z, w, each once",
                ));
            }
            last = Some(ch);
            m |= 1 << ch;
        }
        Ok(WriteMask::from_bits_truncate(m))
    }

    fn swizzle(&self, c: &Chans) -> LResult<Swizzle> {
        if let Some(m) = c.mme {
            // A math macro's source specifier: the swizzle's low bits.
            return Ok(Swizzle(m.hw()));
        }
        let [x, y, z, w] = c.ch;
        match c.n {
            1 => Ok(Swizzle(x * 0b0101_0101)),
            4 => Ok(Swizzle(x | y << 2 | z << 4 | w << 6)),
            _ => Err(self.invalid(c.pos, "swizzle", "a swizzle has one channel (`.x`) or four (`.xyzw`)")),
        }
    }

    /// A source region as written, for the access mode.
    #[inline]
    fn src_region(&self, o: &Operand, a16: bool, indirect: bool) -> LResult<Region> {
        let raw = o.region.as_ref().map_or(0, |r| r.raw);
        let code = |n: &Num, which: u8| -> LResult<u8> {
            if raw >> which & 1 == 1 {
                // A raw value from an `invalid` marker (at most 15).
                return Ok(n.value as u8);
            }
            let v = u32::try_from(n.value).ok();
            let r = v.and_then(|v| match which {
                0 => Region::new(v, 1, 0).map(|r| r.vstride),
                1 => Region::new(0, v, 0).map(|r| r.width),
                _ => Region::new(0, 1, v).map(|r| r.hstride),
            });
            r.ok_or_else(|| {
                self.invalid(
                    n.pos,
                    "region",
                    match which {
                        0 => "a vertical stride is 0, 1, 2, 4, 8, 16 or 32",
                        1 => "a width is 1, 2, 4, 8 or 16",
                        _ => "a horizontal stride is 0, 1, 2 or 4",
                    },
                )
            })
        };
        const VXH: u8 = crate::isa::region::VSTRIDE_VXH;
        // Align16 takes only the vertical stride (the constructor sets the
        // implied width and stride).
        let Some(r) = &o.region else {
            return Ok(Region::SCALAR);
        };
        // By reference: the values are not copied.
        let [v, w, h] = &r.vals;
        // The common `<v,w,h>` with no marker: the three values through
        // one constructor call (the steps below give the same region, or
        // the error).
        if (r.n, r.vxh, r.raw) == (3, false, 0) {
            let fit = |n: &Num| u32::try_from(n.value).ok();
            if let (Some(vs), Some(ws), Some(hs)) = (fit(v), fit(w), fit(h)) {
                if let Some(region) = Region::new(vs, ws, hs) {
                    return Ok(region);
                }
            }
        }
        let vstride = if r.vxh { VXH } else { code(v, 0)? };
        let (width, hstride) = match (r.n, r.vxh) {
            (1, false) => (WIDTH_1, HSTRIDE_0),
            // Align16 prints vertical stride 15 as `<VxH>`.
            (1, true) if a16 => (WIDTH_1, HSTRIDE_0),
            (3, _) => (code(w, 1)?, code(h, 2)?),
            // `<w,h>` is Mesa's short form of `<VxH,w,h>`, for indirect
            // sources.
            (2, false) if indirect && !a16 => {
                return Ok(Region {
                    vstride: VXH,
                    width: code(v, 1)?,
                    hstride: code(w, 2)?,
                })
            }
            _ => {
                return Err(self.invalid(
                    r.pos,
                    "source region",
                    "a source region is `<v,w,h>`, `<v>` or, for an indirect source, `<w,h>`",
                ))
            }
        };
        Ok(Region {
            vstride,
            width,
            hstride,
        })
    }

    /// A source; the immediate's payload comes back beside it.
    fn src(&self, o: &Operand, a16: bool) -> LResult<(Src, Option<u64>)> {
        let mut s = Src::ZERO;
        let imm = self.src_into(o, if a16 { Mode::Align16 } else { Mode::Align1 }, &mut s)?;
        Ok((s, imm))
    }

    /// [`Lower::src`] in `mode`, the source written into `s` (in place, as
    /// [`Lower::dst_into`]), through the builder's source constructor.
    #[inline]
    fn src_into(&self, o: &Operand, mode: Mode, s: &mut Src) -> LResult<Option<u64>> {
        let v = self.value(o, mode)?;
        construct::src_into(self.p, mode, 0, &v, s).map_err(|f| self.fault(f, o))
    }

    /// A source as written, as an operand value for `mode`.
    #[inline]
    fn value(&self, o: &Operand, mode: Mode) -> LResult<Value> {
        let a16 = mode == Mode::Align16;
        let (file, ty, addr) = match o.base {
            Base::Imm { value, neg } => {
                if o.abs {
                    return Err(self.invalid(o.pos, "immediate", "`(abs)` does not apply to an immediate"));
                }
                let (ty, _) =
                    o.ty.ok_or_else(|| self.invalid(o.pos, "immediate", "a type is required"))?;
                // The type before the value: its width bounds the value.
                construct::imm_type(self.p, 0, ty).map_err(|f| self.fault(f, o))?;
                // A 16-bit value's copy in the upper half comes from
                // canonicalization.
                let v = self.imm_bits(value, neg, imm_bits(ty), o.pos)?;
                return Ok(Value::Imm(Imm::raw(ty, v)));
            }
            Base::Reg { name, sub } => {
                let (file, nr, bare) = self.file_nr(name, o.pos)?;
                let ty = self.reg_type(o, bare.then(|| super::names::bare_type(nr)))?;
                let subnr = self.sub_bytes(sub, ty, a16)?;
                (file, ty, Addr::Direct { nr, subnr })
            }
            // A source's subregister is the field itself, `:uw` or not.
            Base::Indirect { sub, imm, imm_pos, .. } => {
                let ty = self.reg_type(o, None)?;
                // The printer shows the raw field for sources.
                let addr = Addr::Indirect {
                    subnr: self.addr_sub(sub.map_or(0, |n| n.value), o.pos)?,
                    imm: self.addr_imm(imm, imm_pos)?,
                };
                (RegFile::Grf, ty, addr)
            }
        };
        let region = match mode {
            Mode::ThreeSrc => self.three_src_region(o)?,
            _ => self.src_region(o, a16, matches!(o.base, Base::Indirect { .. }))?,
        };
        // By reference: most sources have no swizzle, and nothing is copied.
        let swizzle = match &o.chans {
            None => Swizzle::XYZW,
            Some(c) if mode == Mode::Align1 => return Err(self.invalid(c.pos, "swizzle", "swizzles need align16")),
            Some(c) => self.swizzle(c)?,
        };
        Ok(Value::Reg(Reg::raw(
            file,
            addr,
            ty,
            region,
            self.mods(o),
            swizzle,
            WriteMask::XYZW,
        )))
    }

    /// A 3-source region as written: `<4,4,1>` (or `<4>`), or the scalar
    /// `<0,1,0>` (or `<0>`, or none), which replicates.
    fn three_src_region(&self, o: &Operand) -> LResult<Region> {
        Ok(match o.region {
            None => Region::SCALAR,
            Some(r) if r.vxh => Region::THREE_SRC,
            Some(r) => match (r.n, r.vals.map(|n| n.value)) {
                (1, [0, ..]) | (3, [0, 1, 0]) => Region::SCALAR,
                (1, [4, ..]) | (3, [4, 4, 1]) => Region::THREE_SRC,
                _ => return Err(self.invalid(r.pos, "region", "3-source regions are <4,4,1> or the scalar <0,1,0>")),
            },
        })
    }

    /// The bits of an immediate of `bits` width, two's complement when
    /// negated (as Mesa computes `-value`).
    fn imm_bits(&self, value: u64, neg: bool, bits: u32, pos: Pos) -> LResult<u64> {
        let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        let ok = if neg {
            value <= (1u64 << (bits - 1))
        } else {
            value <= mask
        };
        if !ok {
            // Negated values down to the type's minimum, plain ones up to
            // the unsigned maximum.
            let range = match bits {
                16 => range_text!(i16::MIN, u16::MAX),
                32 => range_text!(i32::MIN, u32::MAX),
                _ => "64 bits",
            };
            return Err(self.err(
                pos,
                AsmErrorKind::OutOfRange {
                    what: "immediate",
                    value: i64::try_from(value)
                        .map(|v| if neg { -v } else { v })
                        .unwrap_or(i64::MAX),
                    range,
                },
            ));
        }
        Ok(if neg { value.wrapping_neg() & mask } else { value })
    }

    /// One- and two-source instructions (MATH included), through the
    /// builder's ALU constructor.
    fn alu(&self, i: &mut Instruction, dst: &Operand, src: &[Option<Operand>; 3]) -> LResult<()> {
        let a16 = i.access_mode == AccessMode::Align16;
        let mode = Mode::of(i.access_mode);
        let [s0, s1, _] = src;
        let Some(s0) = s0 else {
            return Err(self.invalid(dst.pos, "operands", "a source is required"));
        };
        if let (Opcode::Dim, Base::Imm { value, neg }, Some((Type::F, _))) = (i.opcode, s0.base, s0.ty) {
            // Haswell's immediate form; a decoded word may hold a register.
            self.dst_into(dst, a16, &mut i.dst)?;
            return self.dim(i, value, neg, s0.pos);
        }
        let d = self.dst_reg(dst, a16, a16)?;
        let v0 = self.value(s0, mode)?;
        let r = match (s1, v0) {
            (Some(s1), Value::Imm(imm)) => {
                // An immediate src0 beside a register src1 (the validator
                // refuses it): the immediate fills src1's bits, so src1
                // keeps only its file and type.
                construct::alu_operands(self.p, i, &d, &[v0]).map_err(|f| self.fault_in(f, dst, src))?;
                let (src1, whole) = self.file_type_only(s1, a16, imm.bits(), imm_bits(imm.ty()))?;
                i.imm = whole.unwrap_or(imm.bits());
                i.src[1] = src1;
                return Ok(());
            }
            (Some(s1), _) => {
                let v1 = self.value(s1, mode)?;
                construct::alu_operands(self.p, i, &d, &[v0, v1])
            }
            // A one-operand function written without src1 still reads it,
            // as Mesa's emitter sets it.
            (None, Value::Reg(_)) if i.opcode == Opcode::Math => {
                construct::alu_operands(self.p, i, &d, &[v0, construct::math_null_src1(a16)])
            }
            // A one-source instruction (src1's fields are canonical).
            (None, _) => construct::alu_operands(self.p, i, &d, &[v0]),
        };
        r.map_err(|f| self.fault_in(f, dst, src))
    }

    /// A source of which only the file and type are encoded, the other
    /// fields reading as zero (`null<0,1,0>UD`, `g0<0>.xD`): src1 when
    /// the immediate sits in its bits.
    ///
    /// On Gen8 src1 may also be typed as an immediate; Mesa then prints
    /// the same 32 bits, `imm`, as src1's value too.
    ///
    /// Both print the low bits of their type's size of one payload (a
    /// 64-bit src1 type all of it): src1's value comes back when it shows
    /// more than src0's, whose size is `bits0`.
    fn file_type_only(&self, o: &Operand, a16: bool, imm0: u64, bits0: u32) -> LResult<(Src, Option<u64>)> {
        let (s, imm) = self.src(o, a16)?;
        if let Some(v) = imm {
            let bits1 = imm_bits(s.ty);
            let common = bits0.min(bits1).min(32);
            if self.p.is_gen8() && (v ^ imm0) & ((1u64 << common) - 1) == 0 {
                return Ok((Src::imm(s.ty), (bits1 > bits0).then_some(v)));
            }
        }
        let zero = imm.is_none()
            && s.addr == (Addr::Direct { nr: 0, subnr: 0 })
            && s.mods.is_empty()
            && s.region.vstride == VSTRIDE_0
            && (if a16 {
                s.swizzle == Swizzle(0)
            } else {
                s.region.width == WIDTH_1 && s.region.hstride == HSTRIDE_0
            });
        if !zero {
            return Err(self.invalid(
                o.pos,
                "src1",
                "beside an immediate src0, src1 holds only a file and a type: register 0, `<0,1,0>` (align16 `<0>.x`), no modifier",
            ));
        }
        Ok((
            Src {
                file: s.file,
                ty: s.ty,
                ..Src::ZERO
            },
            None,
        ))
    }

    /// Haswell's `dim`: a 64-bit F immediate (`value`, negated or not) in
    /// bits 127:64.
    fn dim(&self, i: &mut Instruction, value: u64, neg: bool, pos: Pos) -> LResult<()> {
        let v = self.imm_bits(value, neg, 64, pos)?;
        // The codec reads bits 127:64 of `dim` as its immediate; src1 keeps
        // its file and the immediate's type code, as Mesa writes them.
        i.src[0] = Src::imm(Type::F);
        i.src[1] = Src {
            file: RegFile::Arf,
            ty: Type::F,
            ..Src::ZERO
        };
        i.imm = v;
        Ok(())
    }

    /// Three-source instructions, through the builder's 3-source
    /// constructor (the destination's subregister is any dword, not just
    /// an align16 half).
    fn three_src(&self, i: &mut Instruction, dst: &Operand, src: &[Option<Operand>; 3]) -> LResult<()> {
        let d = self.dst_reg(dst, true, false)?;
        let mut vals = [Value::Reg(crate::build::null()); 3];
        let mut n = 0;
        for (o, slot) in src.iter().zip(vals.iter_mut()) {
            let Some(o) = o else { break };
            *slot = self.value(o, Mode::ThreeSrc)?;
            n += 1;
        }
        construct::three_src_operands(self.p, i, &d, vals.get(..n).unwrap_or(&[]))
            .map_err(|f| self.fault_in(f, dst, src))
    }

    fn send(&self, i: &mut Instruction, send: &SendOperands, eot: bool) -> LResult<()> {
        let SendOperands {
            dst,
            src0,
            src1,
            desc: Num {
                value: desc,
                pos: desc_pos,
            },
            sfid,
        } = send;
        let (src1, desc, desc_pos, sfid) = (src1.as_ref(), *desc, *desc_pos, *sfid);
        let a16 = i.access_mode == AccessMode::Align16;
        let mode = Mode::of(i.access_mode);
        self.dst_into(dst, a16, &mut i.dst)?;
        let imm = self.src_into(src0, mode, &mut i.src[0])?;
        if imm.is_some() && a16 && !self.p.is_gen8() {
            // Gen7 keeps src0's region bits beside a 32-bit immediate (set
            // here as well: the word is encoded below).
            i.src[0].region = A16_ZERO.region;
        }
        i.cond_modifier = sfid;
        if let Some(v) = imm {
            // An immediate payload (the validator refuses it): the
            // immediate fills bits 127:96, which Mesa prints both as src0
            // and as the descriptor; src1 keeps only a file and type. A
            // 16-bit immediate prints its low half only: the dword has all.
            let bits = i.src[0].ty.size() * 8;
            i.imm = if bits == 64 { v } else { desc };
            if bits < 64 && (v ^ desc) & ((1u64 << bits) - 1) != 0 {
                return Err(self.invalid(src0.pos, "src0", "an immediate payload is the descriptor dword itself"));
            }
            i.src[1] = match src1 {
                None => Src::imm(Type::UD),
                Some(o) => self.file_type_only(o, a16, v, 32)?.0,
            };
            let w = crate::encode_word(self.p, i).map_err(|e| self.err(src0.pos, AsmErrorKind::Encode(e)))?;
            let dword = w.dwords()[3];
            if u64::from(dword) != desc || eot != i.eot() {
                return Err(self.err(
                    desc_pos,
                    AsmErrorKind::DescriptorMismatch {
                        desc: desc as u32,
                        expected: dword,
                    },
                ));
            }
            return Ok(());
        }
        let desc = u32::try_from(desc).map_err(|_| {
            self.err(
                desc_pos,
                AsmErrorKind::OutOfRange {
                    what: "descriptor",
                    value: i64::try_from(desc).unwrap_or(i64::MAX),
                    range: "32 bits",
                },
            )
        })?;
        // The descriptor dword's EOT bit is set by the option.
        let dword = desc & !EOT_BIT | if eot { EOT_BIT } else { 0 };
        match src1 {
            None => {
                i.src[1] = Src::imm(Type::UD);
                i.imm = u64::from(dword);
            }
            Some(o) => {
                // Mesa writes the dword over src1's fields and leaves src1's
                // file and type zero (ARF, UD) for its `a0` descriptors; any
                // register a word holds is read back. The dword must be the
                // operand's encoding.
                let (s1, imm) = self.src(o, a16)?;
                if imm.is_some() {
                    return Err(self.invalid(
                        o.pos,
                        "descriptor register",
                        "a register descriptor is a register, such as `a0<0,1,0>UD`",
                    ));
                }
                i.src[1] = s1;
                let spare_lo = if self.p.is_gen8() {
                    gen8_native::SRC1_SPARE_LO - gen8_native::IMM32_LO
                } else {
                    gen7_native::SRC1_SPARE_LO - gen7_native::IMM32_LO
                };
                i.imm = u64::from(dword >> spare_lo << spare_lo);
                let w = crate::encode_word(self.p, i).map_err(|e| self.err(o.pos, AsmErrorKind::Encode(e)))?;
                let mut dwords = w.dwords();
                let expected = dwords[3];
                if expected != dword {
                    // Parts of src1 the text does not show (a byte
                    // remainder of the subregister, which Mesa prints in
                    // units of the type; the low bits of `null`'s number;
                    // align16's implied width and stride) may hold what
                    // the dword says: take the instruction the dword gives
                    // when it differs from the text's only there.
                    dwords[3] = dword;
                    let given = crate::decode_word(self.p, Word::from_dwords(dwords)).ok();
                    match given {
                        Some(g) if shows_as(i, &g) => *i = g,
                        _ => return Err(self.err(desc_pos, AsmErrorKind::DescriptorMismatch { desc: dword, expected })),
                    }
                }
            }
        }
        Ok(())
    }

    /// WAIT names a notification register `nN`; the assembler keeps
    /// whatever register the text names, as the decoder does (the register
    /// is not a rule the validator checks). Its sources are canonical.
    fn wait(&self, i: &mut Instruction, dst: &Operand) -> LResult<()> {
        let a16 = i.access_mode == AccessMode::Align16;
        self.dst_into(dst, a16, &mut i.dst)
    }

    /// Flow control: the jump targets (the operands are canonical).
    fn branch<'a>(&self, a: &Inst<'a>, jip: Option<Target<'a>>, uip: Option<Target<'a>>) -> LResult<Fixup<'a>> {
        use Opcode::*;
        let op = a.opcode;
        // Mesa's syntax requires the UIP of break, cont and halt.
        let need_uip = matches!(op, Break | Cont | Halt);
        let uip_ok = op.has_uip();
        if crate::canon::shows_jip(op) && jip.is_none() {
            return Err(self.err(a.pos, AsmErrorKind::Jump("this instruction needs `JIP: <label>`")));
        }
        if need_uip && uip.is_none() {
            return Err(self.err(
                a.pos,
                AsmErrorKind::Jump("this instruction needs `UIP: <label>` after its JIP"),
            ));
        }
        if !uip_ok {
            if let Some(Target::Label(_, pos) | Target::Offset(_, pos)) = uip {
                return Err(self.err(pos, AsmErrorKind::Jump("this instruction has no UIP")));
            }
        }
        Ok(Fixup { jip, uip })
    }
}

/// Whether `g`, decoded from the word of `t` with another src1 dword,
/// is what the text of `t` stands for: the same instruction but for the
/// parts of src1 the text cannot show, which Mesa's printer shows alike
/// ([`shown_src`]). The text gives a direct subregister in units of its
/// type, so any byte remainder below one unit is also what it says.
fn shows_as(t: &Instruction, g: &Instruction) -> bool {
    let mut rest = *g;
    rest.src[1] = t.src[1];
    if rest != *t {
        return false;
    }
    let want = shown_src(g.access_mode, &g.src[1]);
    let a = t.src[1];
    let Addr::Direct { nr, subnr } = a.addr else {
        return shown_src(t.access_mode, &a) == want;
    };
    (0..a.ty.size()).any(|r| {
        let addr = Addr::Direct {
            nr,
            subnr: subnr.saturating_add(u8::try_from(r).unwrap_or(u8::MAX)),
        };
        shown_src(t.access_mode, &Src { addr, ..a }) == want
    })
}

/// What Mesa's printer shows of a register source (the disassembler's
/// `src`, `operand_reg` and `reg`): file, type, modifiers; a direct
/// register's number (an ARF class without numbers shows only its name,
/// a numbered one its low four bits) and its subregister in units of the
/// type (none at all when zero); an indirect address as it is; the region
/// (align16: the vertical stride and the swizzle).
fn shown_src(mode: AccessMode, s: &Src) -> (RegFile, Type, SrcMods, Addr, (u8, u8, u8), Swizzle) {
    let addr = match (s.file, s.addr) {
        (file, Addr::Direct { nr, subnr }) => {
            let nr = match super::names::arf_class(nr) {
                Some(c) if file == RegFile::Arf && !c.numbered => crate::isa::arf::class(nr),
                _ => nr,
            };
            // The units shown, and whether any are (`.0` is shown for a
            // subregister below one unit).
            let size = u8::try_from(s.ty.size()).unwrap_or(u8::MAX);
            let subnr = (subnr / size) << 1 | u8::from(subnr != 0);
            Addr::Direct { nr, subnr }
        }
        (_, a) => a,
    };
    let r = s.region;
    let (region, swizzle) = match mode {
        AccessMode::Align16 => ((r.vstride, 0, 0), s.swizzle),
        AccessMode::Align1 => ((r.vstride, r.width, r.hstride), Swizzle(0)),
    };
    (s.file, s.ty, s.mods, addr, region, swizzle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::EncodeError;
    use crate::text::assemble;

    /// A register descriptor's dword is src1's encoding: the text's own,
    /// one whose subregister adds a byte remainder of the type (the text
    /// shows units), or one whose hidden bits print the same; any other
    /// dword is refused.
    #[test]
    fn register_descriptor_is_the_operand_encoding() {
        let p = Platform::Gen75;
        let send = |dword: &str| {
            let text = alloc::format!(
                "send(8) g124<1>UW g8<8,8,1>UD a0<0,1,0>UD {dword}\n    sampler MsgDesc: ld SIMD8 Surface = 0 Sampler = 0 mlen 0 rlen 0 {{ align1 1Q }};"
            );
            assemble(p, &text)
        };
        let i = send("0x00000200").unwrap()[0];
        assert_eq!(i.src[1].addr, Addr::Direct { nr: 0x10, subnr: 0 });
        // a0.0 plus one byte: shown as `a0` in units of UD.
        let i = send("0x00000201").unwrap()[0];
        assert_eq!(i.src[1].addr, Addr::Direct { nr: 0x10, subnr: 1 });
        // a0.1 (four bytes) is another register than the text's.
        let e = send("0x00000204").unwrap_err();
        assert!(
            matches!(
                e.0[0].kind,
                AsmErrorKind::DescriptorMismatch {
                    desc: 0x204,
                    expected: 0x200
                }
            ),
            "{e:?}"
        );
        // So is a1.
        assert!(send("0x00000220").is_err());
    }

    /// The ranges in errors come from the floor's constants.
    #[test]
    fn out_of_range_errors_name_the_floor_range() {
        let range = |text: &str| match assemble(Platform::Gen8, text).unwrap_err().0[0].kind {
            AsmErrorKind::OutOfRange { range, .. } => range,
            ref k => panic!("{k:?}"),
        };
        assert_eq!(range("mov(8) g2<1>UD g[a0.16 0]<8,8,1>UD { align1 1Q };"), "0..=15");
        assert_eq!(
            range("mov(8) g2<1>UD g[a0.1 1024]<8,8,1>UD { align1 1Q };"),
            "-512..=1023"
        );
        assert_eq!(range("mov(8) g2.8<1>UD g3<8,8,1>UD { align1 1Q };"), "0..=31");
        assert_eq!(range("mov(8) g2<1>W 65536W { align1 1Q };"), "-32768..=65535");
        assert_eq!(
            range("mov(8) g2<1>D 4294967296D { align1 1Q };"),
            "-2147483648..=4294967295"
        );
    }

    /// `encode_kind` restates `crate::encode_with` (to keep the word out
    /// of memory): same words, same errors, same warnings.
    #[test]
    fn encode_kind_is_encode_and_encode_unchecked() {
        let p = Platform::Gen8;
        let text = "add(8) g2<1>F g3<8,8,1>F g4<8,8,1>F { align1 1Q };\n\
                    send(8) g9<1>UD g2<8,8,1>UD 0x02280300\n    const MsgDesc: (0, 3, 0, 0) mlen 1 rlen 2 { align1 WE_all 1Q };";
        let mut cases = assemble(p, text).unwrap();
        // Breaks a rule (a zero destination stride).
        let mut bad = cases[0];
        bad.dst.hstride = 0;
        cases.push(bad);
        // Cannot be encoded at all on Gen8 (no `dim`).
        let mut absent = cases[0];
        absent.opcode = Opcode::Dim;
        cases.push(absent);
        let kind = |e: EncodeError| match e {
            EncodeError::Invalid(v) => AsmErrorKind::Rules(v),
            e => AsmErrorKind::Encode(e),
        };
        let mut errors = 0;
        for i in &cases {
            let checked = crate::encode(p, i).map(Word::from_bytes).map_err(kind);
            let unchecked = crate::encode_unchecked(p, i).map(Word::from_bytes).map_err(kind);
            errors += usize::from(checked.is_err()) + usize::from(unchecked.is_err());
            let with = |opts| {
                let mut warnings = Violations::default();
                encode_kind(p, i, opts, &mut warnings).map(|w| (w, warnings))
            };
            let none = |w| (w, Violations::default());
            assert_eq!(with(AsmOptions::CHECKED), checked.map(none), "{i:?}");
            assert_eq!(with(AsmOptions::UNCHECKED), unchecked.map(none), "{i:?}");
            let lenient = crate::encode_with(p, i, Strictness::Lenient)
                .map(|(w, v)| (Word::from_bytes(w), v))
                .map_err(kind);
            assert_eq!(with(AsmOptions::LENIENT), lenient, "{i:?}");
        }
        // The rule break (checked only) and the absent opcode (both).
        assert_eq!(errors, 3);
    }
}
