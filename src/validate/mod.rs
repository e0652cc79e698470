//! Validation: every register-region, operand and instruction restriction
//! the Gen7, Gen7.5, Gen8 and Cherryview hardware documentation states.
//!
//! Each restriction is one function named after its rule; the rule's
//! identifier is that name, stable across releases. [`validate`] runs them
//! all and collects every violation, in three phases like Mesa's validator:
//!
//! 1. the opcode must exist on the platform (rule `opcode_exists`);
//! 2. the fields must hold values the hardware can encode (reserved region
//!    encodings, out-of-range registers, types without an encoding, ...);
//! 3. only when both passed, the restrictions proper (regions, operand
//!    types, mixed float, 64-bit, SEND, per-instruction rules), which assume
//!    sane field values.
//!
//! Some encodings cannot be held by the model at all, so their rules live
//! in the decoder, which refuses such words with the field named: a reserved
//! execution size (6, 7), the MRF register file (2) and reserved type
//! encodings. The model's [`crate::Dst`] has no vertical stride, so a
//! multi-address (VxH) indirect destination cannot be expressed either.
//!
//! The clean path does not allocate: a [`Violation`]'s message is built only
//! when a rule reports it.
//!
//! ```
//! use geneu::{validate::validate, Dst, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};
//! let mut add = Instruction::new(Opcode::Add, ExecSize::S8);
//! add.dst = Dst::grf(2, 0, Type::F);
//! add.src[0] = Src::grf(4, 0, Type::F, Region::new(8, 8, 1).unwrap());
//! add.src[1] = Src::grf(6, 4, Type::F, Region::new(8, 8, 1).unwrap());
//! let err = validate(Platform::Gen8, &add).unwrap_err();
//! assert!(err.has("row_within_grf")); // g6.1<8,8,1>F: a row straddles g6/g7
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::*;

pub(crate) mod double;
pub(crate) mod encoding;
mod fast;
pub(crate) mod flow;
pub(crate) mod instruction;
pub(crate) mod mixed_float;
pub(crate) mod operand_types;
pub(crate) mod regions;
pub(crate) mod send;
pub(crate) mod sources;
pub(crate) mod vector_imm;

pub use crate::error::{Basis, OperandId, Violation, Violations};

/// A rule: inspects the instruction and reports what it breaks.
pub type Rule = fn(&mut Checker<'_>);

/// The phase a rule runs in (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Phase {
    /// The opcode exists; nothing else runs if it does not.
    Opcode,
    /// Field values are encodable; the restrictions run only if they are.
    Encoding,
    /// The restrictions proper.
    Restriction,
}

/// What a rule restricts, for selecting a family of rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// Field encodings and ranges.
    Encoding,
    /// Null, immediate and register-file rules for sources.
    Sources,
    /// Operand types: strides, alignment and conversions.
    OperandTypes,
    /// Register regions: the `validate_reg` rules and region alignment.
    Region,
    /// Mixed float and half-float.
    MixedFloat,
    /// Vector immediates.
    VectorImmediate,
    /// 64-bit types (and Cherryview's integer dword multiply).
    Double,
    /// SEND and SENDC.
    Send,
    /// Rules of one instruction: CMP, SEL, MUL, logic, BFI2, CSEL, MATH, branches.
    Instruction,
}

/// A rule with its identifier and origin.
#[derive(Debug)]
#[non_exhaustive]
pub struct RuleInfo {
    /// Stable identifier, the name of the rule function.
    pub id: &'static str,
    /// What the rule stands on.
    pub basis: Basis,
    /// The PRM section or vISA rule it comes from; for a conservative
    /// rule, also why it is stricter than the documentation.
    pub source: &'static str,
    /// When it runs.
    pub phase: Phase,
    /// Its family.
    pub category: Category,
    /// The check.
    pub check: Rule,
}

/// Collects violations for one instruction, with facts derived once.
pub struct Checker<'a> {
    /// The platform.
    pub p: Platform,
    /// The instruction.
    pub i: &'a Instruction,
    /// The running rule's index in [`RULES`].
    rule: u8,
    out: Vec<Violation>,
    nsrc: u8,
    exec: u32,
    flags: u16,
    /// Bit k: source k is an align1 register source (see [`Checker::a1_srcs`]).
    a1: u8,
    rgn: [Rgn; 3],
    /// [`src_last_byte`] of each source read.
    last: [Option<u32>; 3],
    pub(crate) ot: Option<operand_types::Ot>,
    split: Option<Option<regions::Split>>,
}

const F_THREE_SRC: u16 = 1;
const F_ALIGN16: u16 = 2;
const F_SEND: u16 = 4;
const F_HAS_DST: u16 = 8;
const F_DST_NULL: u16 = 16;
const F_MIXED: u16 = 32;
const F_OT_APPLIES: u16 = 64;
/// Some operand is register-indirect.
const F_INDIRECT: u16 = 128;
/// Some register source has a width encoding above 4, a vertical stride
/// encoding above 6 (reserved or VxH) or a horizontal stride encoding
/// above 3, or the destination's horizontal stride encoding is above 3.
const F_REGION_ENC: u16 = 256;

/// The align1 register sources of an instruction, with their index and
/// decoded region.
pub(crate) struct A1Srcs<'a> {
    mask: u8,
    i: &'a Instruction,
}

impl<'a> Iterator for A1Srcs<'a> {
    type Item = (u8, &'a Src);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        while self.mask != 0 {
            let k = self.mask.trailing_zeros() as u8;
            self.mask &= self.mask - 1;
            if let Some(s) = self.i.src.get(k as usize) {
                return Some((k, s));
            }
        }
        None
    }
}

impl<'a> Checker<'a> {
    /// A checker with no violation yet.
    #[inline]
    pub fn new(p: Platform, i: &'a Instruction) -> Self {
        let mut c = Self::base(p, i);
        c.derive();
        c
    }

    /// [`Checker::new`] without [`Checker::derive`]: built in place by the
    /// caller (a checker is large; returning it after updating it copies it).
    #[inline(always)]
    fn base(p: Platform, i: &'a Instruction) -> Self {
        let nsrc = i.num_srcs();
        let op = i.opcode;
        let three_src = op.is_three_src();
        let align16 = i.access_mode == AccessMode::Align16;
        let mut flags = 0;
        if three_src {
            flags |= F_THREE_SRC;
        }
        if align16 {
            flags |= F_ALIGN16;
        }
        if op.is_send() {
            flags |= F_SEND;
        }
        if has_dst(op) {
            flags |= F_HAS_DST;
        }
        if is_null_dst(&i.dst) {
            flags |= F_DST_NULL;
        }
        if is_indirect(&i.dst.addr) {
            flags |= F_INDIRECT;
        }
        if i.dst.hstride > 3 {
            flags |= F_REGION_ENC;
        }
        for s in i.src.iter().take(nsrc.min(3) as usize) {
            if is_indirect(&s.addr) {
                flags |= F_INDIRECT;
            }
            let r = s.region;
            if !s.is_imm() && (r.width > 4 || r.vstride > 6 || r.hstride > 3) {
                flags |= F_REGION_ENC;
            }
        }
        let mut a1 = 0u8;
        let mut rgn = [Rgn { v: 0, w: 1, h: 0 }; 3];
        let n = nsrc.min(3) as usize;
        for (k, (s, r)) in i.src.iter().zip(rgn.iter_mut()).enumerate().take(n) {
            *r = Rgn::of(s.region);
            if !three_src && !align16 && !s.is_imm() {
                a1 |= 1 << k;
            }
        }
        // SEND reads no region (grf_number_in_range counts its payload
        // register alone; the span rules skip it).
        let exec = i.exec_size.channels();
        let mut last = [None; 3];
        if !op.is_send() {
            for ((l, s), r) in last.iter_mut().zip(i.src.iter()).zip(rgn.iter()).take(n) {
                *l = last_byte(p, exec, align16, s, *r);
            }
        }
        Checker {
            p,
            i,
            rule: RuleNo::opcode_exists as u8,
            out: Vec::new(),
            nsrc,
            exec,
            flags,
            a1,
            rgn,
            last,
            ot: None,
            split: None,
        }
    }

    /// The facts derived from the others (mixed float, whether the
    /// operand-type rules apply); [`Checker::new`] runs it.
    #[inline(always)]
    fn derive(&mut self) {
        if operand_types::compute_mixed_float(self) {
            self.flags |= F_MIXED;
        }
        if operand_types::applies(self) {
            self.flags |= F_OT_APPLIES;
        }
    }

    /// Derives the facts the restriction rules share (after the encoding
    /// phase passed).
    fn prepare(&mut self) {
        self.ot = operand_types::compute_facts(self);
    }

    /// Records a violation of the running rule. A rule reports each
    /// operand at most once.
    pub fn report(&mut self, operand: OperandId, message: impl Into<String>) {
        let Some(info) = RULES.get(self.rule as usize) else {
            return;
        };
        let rule = info.id;
        if self.out.iter().any(|v| v.rule == rule && v.operand == operand) {
            return;
        }
        self.out.push(Violation {
            rule,
            basis: info.basis,
            source: info.source,
            operand,
            message: message.into(),
        });
    }

    /// Reports when `cond` holds.
    #[inline]
    pub fn check(&mut self, cond: bool, operand: OperandId, message: &'static str) {
        if cond {
            self.report(operand, message);
        }
    }

    /// Runs one rule under its identity.
    #[inline(always)]
    fn run(&mut self, r: u8, f: Rule) {
        self.rule = r;
        f(self);
    }

    /// The region alignment facts, computed on first use.
    pub(crate) fn split(&mut self) -> Option<regions::Split> {
        if self.split.is_none() {
            self.split = Some(regions::split_facts(self));
        }
        self.split.flatten()
    }

    /// Number of sources the instruction reads (MATH: by function).
    #[inline]
    pub fn nsrc(&self) -> u8 {
        self.nsrc
    }

    /// Execution size in channels.
    #[inline]
    pub fn exec(&self) -> u32 {
        self.exec
    }

    /// Whether the instruction is in align16 mode.
    #[inline]
    pub fn align16(&self) -> bool {
        self.flags & F_ALIGN16 != 0
    }

    /// Whether the instruction uses the 3-source layout.
    #[inline]
    pub fn three_src(&self) -> bool {
        self.flags & F_THREE_SRC != 0
    }

    /// SEND or SENDC.
    #[inline]
    pub fn is_send(&self) -> bool {
        self.flags & F_SEND != 0
    }

    /// Whether the opcode writes a destination (flow control and NOP do not).
    #[inline]
    pub fn has_dst(&self) -> bool {
        self.flags & F_HAS_DST != 0
    }

    /// Whether the destination is the null register.
    #[inline]
    pub fn dst_null(&self) -> bool {
        self.flags & F_DST_NULL != 0
    }

    /// Whether the instruction mixes F and HF (see
    /// `operand_types::is_mixed_float`).
    #[inline]
    pub fn mixed_float(&self) -> bool {
        self.flags & F_MIXED != 0
    }

    /// The align1 register sources the region rules inspect: every source
    /// the instruction reads except immediates, none in align16 or
    /// 3-source instructions (their regions: [`Checker::src_rgn`]).
    #[inline]
    pub(crate) fn a1_srcs(&self) -> A1Srcs<'a> {
        A1Srcs {
            mask: self.a1,
            i: self.i,
        }
    }

    /// [`src_last_byte`] of source `k` (`None` for a source not read).
    #[inline]
    pub(crate) fn src_last(&self, k: u8) -> Option<u32> {
        self.last.get(k as usize).copied().flatten()
    }

    /// The decoded region of source `k` (of a source the instruction
    /// reads; `<0;1,0>` otherwise).
    #[inline]
    pub(crate) fn src_rgn(&self, k: u8) -> Rgn {
        self.rgn.get(k as usize).copied().unwrap_or(Rgn { v: 0, w: 1, h: 0 })
    }

    /// The platform is Gen7 (Ivy Bridge), where 64-bit operands use
    /// 32-bit regioning units.
    #[inline]
    pub fn ivb(&self) -> bool {
        self.p == Platform::Gen7
    }

    /// The sources the instruction reads, with their index.
    #[inline]
    pub fn srcs(&self) -> impl Iterator<Item = (u8, &'a Src)> {
        let n = self.nsrc.min(3) as usize;
        self.i.src.iter().take(n).enumerate().map(|(k, s)| (k as u8, s))
    }

    /// The type of source `k`, or src0's type if `k` is out of range.
    #[inline]
    pub fn src_ty(&self, k: usize) -> Type {
        self.i.src.get(k).map_or(Type::UD, |s| s.ty)
    }

    /// The execution type (Mesa's `execution_type`) for a 1- or 2-source
    /// instruction; `None` for other source counts.
    #[inline]
    pub fn exec_type(&self) -> Option<Type> {
        exec_type(self.i, self.nsrc)
    }
}

/// Opcodes that write a destination.
pub const fn has_dst(op: Opcode) -> bool {
    !(op.is_branch()
        || matches!(
            op,
            Opcode::Illegal | Opcode::Jmpi | Opcode::Call | Opcode::Calla | Opcode::Ret | Opcode::Nop | Opcode::Smov
        ))
}

/// The null register as a destination.
#[inline]
pub fn is_null_dst(d: &Dst) -> bool {
    d.file == RegFile::Arf && matches!(d.addr, Addr::Direct { nr: 0, .. })
}

/// The null register as a source.
#[inline]
pub fn is_null_src(s: &Src) -> bool {
    s.file == RegFile::Arf && matches!(s.addr, Addr::Direct { nr: 0, .. })
}

/// An accumulator (acc0, acc1, ...) source.
#[inline]
pub fn is_acc_src(s: &Src) -> bool {
    s.file == RegFile::Arf
        && matches!(s.addr, Addr::Direct { nr, .. } if crate::isa::arf::class(nr) == crate::isa::arf::ACC)
}

/// The direct subregister byte offset, or `None` for indirect addressing.
#[inline]
pub fn direct_subnr(a: &Addr) -> Option<u32> {
    match *a {
        Addr::Direct { subnr, .. } => Some(subnr as u32),
        Addr::Indirect { .. } => None,
    }
}

/// Whether an operand uses register-indirect addressing.
#[inline]
pub fn is_indirect(a: &Addr) -> bool {
    matches!(a, Addr::Indirect { .. })
}

/// `a / b` (0 if `b` is 0), by a shift for the power-of-two divisors
/// regions have.
#[inline(always)]
pub(crate) fn div_p2(a: u32, b: u32) -> u32 {
    if b.is_power_of_two() {
        a >> b.trailing_zeros()
    } else {
        a.checked_div(b).unwrap_or(0)
    }
}

/// `a` divided by `b` rounding up (0 if `b` is 0), by shifts for a
/// power-of-two `b`.
#[inline(always)]
pub(crate) fn div_ceil_p2(a: u64, b: u64) -> u64 {
    if b.is_power_of_two() {
        (a >> b.trailing_zeros()) + u64::from(a & (b - 1) != 0)
    } else if b == 0 {
        0
    } else {
        a.div_ceil(b)
    }
}

/// A horizontal stride encoding in elements (0, 1, 2, 4); reserved
/// encodings (above 3) read as 0.
#[inline]
pub const fn stride(enc: u8) -> u32 {
    if enc <= 3 {
        (1 << enc) >> 1
    } else {
        0
    }
}

/// A decoded align1 region in elements. VxH (and reserved) vertical
/// strides read as 2^14, a stride no direct region reaches, like Mesa's
/// decoding of encoding 15.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgn {
    /// Vertical stride.
    pub v: u32,
    /// Width.
    pub w: u32,
    /// Horizontal stride.
    pub h: u32,
}

impl Rgn {
    /// Decodes a region; reserved widths read as 1.
    #[inline]
    pub const fn of(r: Region) -> Rgn {
        // (1 << e) >> 1 is 0 for e == 0 and 1 << (e - 1) otherwise.
        Rgn {
            v: if r.vstride <= 6 { (1 << r.vstride) >> 1 } else { 1 << 14 },
            w: if r.width <= 4 { 1 << r.width } else { 1 },
            h: stride(r.hstride),
        }
    }

    /// The scalar region `<0;1,0>` (as encoded).
    #[inline]
    pub const fn is_scalar(r: Region) -> bool {
        r.vstride == 0 && r.width == 0 && r.hstride == 0
    }
}

/// Whether `<v;w,h>` is packed: adjacent elements, no gaps, no repeats.
#[inline]
pub const fn is_packed(v: u32, w: u32, h: u32) -> bool {
    v == w && if v == 1 { h == 0 } else { h == 1 }
}

/// The execution-type class of one operand type.
#[inline]
const fn exec_class(t: Type) -> Type {
    match t {
        Type::DF | Type::F | Type::HF => t,
        Type::VF => Type::F,
        Type::Q | Type::UQ => Type::Q,
        Type::D | Type::UD => Type::D,
        _ => Type::W,
    }
}

/// Integer register types (not the vector immediates).
#[inline]
pub const fn is_integer(t: Type) -> bool {
    matches!(
        t,
        Type::B | Type::UB | Type::W | Type::UW | Type::D | Type::UD | Type::Q | Type::UQ
    )
}

/// F mixed with HF, in either order.
#[inline]
pub const fn mixed_pair(a: Type, b: Type) -> bool {
    matches!((a, b), (Type::F, Type::HF) | (Type::HF, Type::F))
}

/// The execution data type of a 1- or 2-source instruction.
pub fn exec_type(i: &Instruction, nsrc: u8) -> Option<Type> {
    let dst = i.dst.ty;
    let s0 = exec_class(i.src[0].ty);
    match nsrc {
        1 => Some(if s0 == Type::HF { dst } else { s0 }),
        2 => {
            let s1 = exec_class(i.src[1].ty);
            if mixed_pair(s0, s1) || mixed_pair(s0, dst) || mixed_pair(s1, dst) {
                return Some(Type::F);
            }
            if s0 == s1 {
                return Some(s0);
            }
            let either = |t: Type| s0 == t || s1 == t;
            Some(if either(Type::Q) {
                Type::Q
            } else if either(Type::D) {
                Type::D
            } else if either(Type::W) {
                Type::W
            } else if either(Type::DF) {
                Type::DF
            } else {
                s0
            })
        }
        _ => None,
    }
}

/// Byte masks of the elements a region touches, one per channel, within
/// a two-register (64-byte) window that wraps like the hardware's
/// documentation model (and Mesa's `align1_access_mask`). Returns the
/// number of channels filled.
pub fn access_masks(exec: u32, es: u32, subreg: u32, r: Rgn, out: &mut [u64; 32]) -> usize {
    let mask = (1u64 << es.min(8)) - 1;
    let mut rowbase = subreg;
    let mut k = 0usize;
    let rows = exec.checked_div(r.w).unwrap_or(0);
    for _ in 0..rows {
        let mut off = rowbase;
        for _ in 0..r.w {
            if let Some(slot) = out.get_mut(k) {
                *slot = mask << (off % 64);
            }
            k += 1;
            off = off.wrapping_add(r.h.wrapping_mul(es));
        }
        rowbase = rowbase.wrapping_add(r.v.wrapping_mul(es));
    }
    k.min(32)
}

/// How many registers a set of channel masks touches: 2 if any channel
/// reaches the second register, else 1 if any byte is touched, else 0.
pub fn regs_touched(masks: &[u64]) -> u32 {
    let mut n = 0;
    for &m in masks {
        if m > 0xffff_ffff {
            return 2;
        }
        if m != 0 {
            n = 1;
        }
    }
    n
}

/// The element size regions are counted in: the type size, except that
/// Ivy Bridge regions 64-bit operands in 32-bit units.
#[inline]
pub fn region_elem_size(p: Platform, ty: Type) -> u32 {
    match ty.size() {
        8 if p == Platform::Gen7 => 4,
        s => s,
    }
}

/// The last byte a directly addressed register source touches, counted
/// from the first byte of its register; `None` for an immediate or an
/// indirect source. Align16 and 3-source regions are `<v;4,1>`.
pub fn src_last_byte(c: &Checker<'_>, s: &Src) -> Option<u32> {
    last_byte(c.p, c.exec(), c.align16(), s, Rgn::of(s.region))
}

/// [`src_last_byte`] from the platform, execution size, access mode and
/// the source's decoded region `r`.
#[inline(always)]
fn last_byte(p: Platform, exec: u32, align16: bool, s: &Src, r: Rgn) -> Option<u32> {
    let sub = match (s.file, s.addr) {
        (RegFile::Imm, _) | (_, Addr::Indirect { .. }) => return None,
        (_, Addr::Direct { subnr, .. }) => subnr as u32,
    };
    if s.region.vstride > 6 {
        return None; // VxH or reserved
    }
    let es = region_elem_size(p, s.ty);
    let (v, w, h) = if align16 && !Rgn::is_scalar(s.region) {
        (r.v, 4, 1)
    } else {
        (r.v, r.w, r.h)
    };
    // Widths and execution sizes are powers of two (a width is at least
    // 1), so the rows divide exactly once the width is clamped.
    let w = w.min(exec).max(1);
    let rows = if w.is_power_of_two() && exec.is_power_of_two() {
        exec >> w.trailing_zeros()
    } else {
        div_ceil_p2(u64::from(exec), u64::from(w)) as u32
    };
    let last = (rows - 1).saturating_mul(v).saturating_add((w - 1).saturating_mul(h));
    Some(last.saturating_mul(es).saturating_add(sub + es - 1))
}

/// Whether the opcode writes its destination as two dwords (the return
/// IP and channel mask) whatever the execution size: CALL and CALLA.
#[inline]
pub const fn writes_two_dwords(op: Opcode) -> bool {
    matches!(op, Opcode::Call | Opcode::Calla)
}

/// The last byte a directly addressed destination touches, counted from
/// the first byte of its register; `None` if it is indirect. A CALL
/// writes two dwords whatever its execution size.
pub fn dst_last_byte(c: &Checker<'_>) -> Option<u32> {
    let d = &c.i.dst;
    let sub = direct_subnr(&d.addr)?;
    if writes_two_dwords(c.i.opcode) {
        return Some(sub + 7);
    }
    let es = region_elem_size(c.p, d.ty);
    let s = if c.align16() { 1 } else { stride(d.hstride) };
    Some(((c.exec() - 1) * s * es).saturating_add(sub + es - 1))
}

macro_rules! rules {
    ($( $phase:ident { $( $gate:ident { $( $cat:ident $m:ident :: $f:ident => $basis:ident ($src:expr), )* } )* } )*) => {
        /// The description of every rule, by identifier.
        #[allow(non_upper_case_globals)]
        pub mod info {
            use super::*;
            $( $( $(
                #[doc = concat!("The `", stringify!($f), "` rule.")]
                pub static $f: RuleInfo = RuleInfo {
                    id: stringify!($f),
                    basis: Basis::$basis,
                    source: $src,
                    phase: Phase::$phase,
                    category: Category::$cat,
                    check: $m::$f,
                };
            )* )* )*
        }

        /// Rule indices in [`RULES`] (a one-byte store marks the running rule).
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy)]
        #[repr(u8)]
        enum RuleNo {
            $( $( $( $f, )* )* )*
        }

        /// Every rule, in the order they run ([`list_rules`] iterates them).
        pub static RULES: &[&RuleInfo] = &[ $( $( $( &info::$f, )* )* )* ];

        /// Runs the rules of one phase; a block of rules is skipped when
        /// its gate says none of them can report.
        #[inline(always)]
        fn run_phase(c: &mut Checker<'_>, phase: Phase) {
            $(
                if phase == Phase::$phase {
                    $(
                        if gate::$gate(c) {
                            $( c.run(RuleNo::$f as u8, $m::$f); )*
                        }
                    )*
                }
            )*
        }
    };
}

/// Cheap tests that skip blocks of rules. Each gate is implied by every
/// rule of its block: when a gate is false, no rule of the block reports.
/// [`validate_category`] runs rules without gates, so a gate never
/// changes a verdict.
mod gate {
    use super::*;

    #[inline(always)]
    pub(super) fn always(_: &Checker<'_>) -> bool {
        true
    }

    /// The region encoding rules: some field holds a value they refuse.
    #[inline(always)]
    pub(super) fn region_encoding(c: &Checker<'_>) -> bool {
        c.flags & F_REGION_ENC != 0
    }

    #[inline(always)]
    pub(super) fn indirect(c: &Checker<'_>) -> bool {
        c.flags & F_INDIRECT != 0
    }

    /// Align1 register regions with some indirect operand.
    #[inline(always)]
    pub(super) fn align1_indirect(c: &Checker<'_>) -> bool {
        align1_regions(c) && indirect(c)
    }

    #[inline(always)]
    pub(super) fn three_src(c: &Checker<'_>) -> bool {
        c.three_src()
    }

    #[inline(always)]
    pub(super) fn not_three_src(c: &Checker<'_>) -> bool {
        !c.three_src()
    }

    #[inline(always)]
    pub(super) fn send(c: &Checker<'_>) -> bool {
        c.is_send()
    }

    #[inline(always)]
    pub(super) fn operand_types(c: &Checker<'_>) -> bool {
        c.flags & F_OT_APPLIES != 0
    }

    #[inline(always)]
    pub(super) fn align16(c: &Checker<'_>) -> bool {
        c.align16()
    }

    /// Align1, not 3-source: the region rules on align1 sources and the
    /// destination.
    #[inline(always)]
    pub(super) fn align1_regions(c: &Checker<'_>) -> bool {
        !c.align16() && !c.three_src()
    }

    /// The region alignment rules (align1, not SEND or 3-source).
    #[inline(always)]
    pub(super) fn alignment(c: &Checker<'_>) -> bool {
        !c.align16() && !c.three_src() && !c.is_send()
    }

    /// The operand-type rules, unless a fast check proves they all pass.
    #[inline(always)]
    pub(super) fn operand_type_rules(c: &Checker<'_>) -> bool {
        operand_types(c) && !operand_types::clean(c)
    }

    /// The align1 region rules, unless a fast check proves they all pass.
    #[inline(always)]
    pub(super) fn align1_region_rules(c: &Checker<'_>) -> bool {
        align1_regions(c) && !regions::a1_regions_clean(c)
    }

    /// The region alignment rules, unless a fast check proves they all
    /// pass.
    #[inline(always)]
    pub(super) fn alignment_rules(c: &Checker<'_>) -> bool {
        alignment(c) && !regions::alignment_clean(c)
    }

    #[inline(always)]
    pub(super) fn mixed_float(c: &Checker<'_>) -> bool {
        c.mixed_float()
    }

    /// A vector immediate can only be the last source of a 1- or 2-source
    /// instruction.
    #[inline(always)]
    pub(super) fn imm_src(c: &Checker<'_>) -> bool {
        !c.three_src() && (c.i.src[0].is_imm() || c.i.src[1].is_imm())
    }

    #[inline(always)]
    pub(super) fn chv(c: &Checker<'_>) -> bool {
        c.p == Platform::Chv
    }

    #[inline(always)]
    pub(super) fn gen8_align16(c: &Checker<'_>) -> bool {
        c.p.is_gen8() && c.align16()
    }

    #[inline(always)]
    pub(super) fn cmp(c: &Checker<'_>) -> bool {
        matches!(c.i.opcode, Opcode::Cmp | Opcode::Cmpn)
    }

    #[inline(always)]
    pub(super) fn mul(c: &Checker<'_>) -> bool {
        c.i.opcode == Opcode::Mul
    }

    #[inline(always)]
    pub(super) fn logic(c: &Checker<'_>) -> bool {
        c.i.opcode.is_logic()
    }

    #[inline(always)]
    pub(super) fn bfi2(c: &Checker<'_>) -> bool {
        c.i.opcode == Opcode::Bfi2
    }

    #[inline(always)]
    pub(super) fn csel(c: &Checker<'_>) -> bool {
        c.i.opcode == Opcode::Csel
    }

    #[inline(always)]
    pub(super) fn math(c: &Checker<'_>) -> bool {
        c.i.opcode == Opcode::Math
    }

    /// JMPI, BRD, BRC, CALL, CALLA, WAIT.
    #[inline(always)]
    pub(super) fn flow(c: &Checker<'_>) -> bool {
        matches!(
            c.i.opcode,
            Opcode::Jmpi | Opcode::Brd | Opcode::Brc | Opcode::Call | Opcode::Calla | Opcode::Wait
        )
    }
}

rules! {
    Opcode {
        always {
            Encoding encoding::opcode_exists => Documented(cite::OPCODES),
        }
    }
    Encoding {
        always {
            Encoding encoding::control_fields_in_range => Documented(cite::FORMAT),
            Encoding encoding::cond_modifier_valid => Documented(cite::COND_MOD),
            Encoding encoding::math_function_valid => Documented(cite::MATH),
            Encoding encoding::three_src_align16_only => Documented(cite::THREE_SRC),
            Encoding encoding::dst_not_immediate => Documented(cite::VISA_OPERANDS),
            Encoding encoding::reg_type_encoding_valid => Documented(cite::TYPES),
        }
        three_src {
            Encoding encoding::three_src_type_encoding_valid => Documented(cite::THREE_SRC),
            Encoding encoding::three_src_operands_grf_direct => Documented(cite::THREE_SRC),
            Encoding encoding::three_src_region_valid => Documented(cite::THREE_SRC),
        }
        region_encoding {
            Encoding encoding::width_encoding_valid => Documented(cite::VISA_REGION_1),
            Encoding encoding::vstride_encoding_valid => Documented(cite::VISA_REGION_2),
            Encoding encoding::hstride_encoding_valid => Documented(cite::VISA_REGION_3),
            Encoding encoding::vxh_only_indirect_align1 => Documented(cite::INDIRECT),
        }
        always {
            Encoding encoding::subreg_in_range => Documented(cite::FORMAT),
        }
        indirect {
            Encoding encoding::indirect_address_in_range => Documented(cite::INDIRECT),
        }
        always {
            Encoding encoding::grf_number_in_range => Documented(cite::GRF_FILE),
        }
    }
    Restriction {
        not_three_src {
            Sources sources::src0_not_null => Conservative(cite::MESA_NULL),
            Sources sources::src1_not_null => Conservative(cite::MESA_NULL),
            Sources sources::imm_only_last_source => Documented(cite::IMMEDIATES),
            Sources sources::imm64_only_single_source => Documented(cite::IMMEDIATES),
        }
        send {
            Send send::send_sfid_defined => Documented(cite::SFID),
            Send send::send_desc_imm_or_a0 => Documented(cite::SEND_DESC_OPERAND),
            Send send::send_src0_direct => Documented(cite::SEND),
            Send send::send_src0_grf => Documented(cite::SEND),
            Send send::send_eot_src_g112_g127 => Documented(cite::SEND_EOT),
            Send send::send_dst_src_overlap_r127 => Documented(cite::SEND_R127),
            Send send::send_mlen_range => Documented(cite::SEND_DESC),
            Send send::send_rlen_range => Documented(cite::SEND_DESC),
            Send send::send_payload_in_grf_range => Documented(cite::SEND_DESC),
            Send send::send_response_in_grf_range => Documented(cite::SEND_DESC),
            Send send::send_msg_type_defined => Documented(cite::DP_MSG_TYPE),
            Send send::send_surface_read_rlen => Documented(cite::SURFACE_READ_RLEN),
        }
        operand_type_rules {
            OperandTypes operand_types::packed_byte_dst_raw_mov => Documented(cite::OPERAND_TYPES),
            OperandTypes operand_types::no_byte_64bit_conversion => Conservative(cite::MOV_BDW),
            OperandTypes operand_types::no_hf_64bit_conversion => Conservative(cite::MOV_BDW),
            OperandTypes operand_types::int_hf_conversion_dst_dword => Documented(cite::HF_CONVERSION),
            OperandTypes operand_types::chv_hf_dst_word_placement => Documented(cite::HF_WORD_CHV),
            OperandTypes operand_types::dst_stride_matches_exec_type_ratio => Documented(cite::OPERAND_TYPES),
            OperandTypes operand_types::dst_subreg_aligned_to_exec_type => Documented(cite::OPERAND_TYPES),
        }
        align16 {
            Region regions::align16_dst_hstride_one => Documented(cite::ALIGN16),
            Region regions::align16_src_vstride => Documented(cite::ALIGN16),
        }
        align1_region_rules {
            Region regions::exec_size_ge_width => Documented(cite::REGION_PARAMS),
            Region regions::width_eq_exec_implies_vstride => Documented(cite::REGION_PARAMS),
            Region regions::width_one_implies_hstride_zero => Documented(cite::REGION_PARAMS),
            Region regions::scalar_region => Documented(cite::REGION_PARAMS),
            Region regions::scalar_region_vxh => Conservative(cite::VXH_SCALAR),
            Region regions::zero_strides_imply_width_one => Documented(cite::REGION_PARAMS),
            Region regions::row_within_grf => Documented(cite::REGION_PARAMS),
            Region regions::send_payload_row_within_grf => Conservative(cite::SEND_PAYLOAD_ROWS),
            Region regions::dst_hstride_nonzero => Documented(cite::VISA_REGION_5),
        }
        align1_indirect {
            Region regions::vxh_addresses_in_a0 => Documented(cite::INDIRECT),
        }
        alignment_rules {
            Region regions::src_spans_at_most_two_grfs => Documented(cite::REGION_ALIGN),
            Region regions::dst_spans_at_most_two_grfs => Documented(cite::REGION_ALIGN),
            Region regions::dst_one_reg_src_two_regs_oword_split => Documented(cite::REGION_ALIGN),
            Region regions::dst_two_regs_evenly_split => Documented(cite::REGION_ALIGN),
            Region regions::gen7_dst_two_regs_evenly_split_one_reg_srcs => Conservative(cite::EVEN_SPLIT_GEN7),
            Region regions::gen7_dst_reg_from_one_src_reg => Documented(cite::REGION_ALIGN_GEN7),
            Region regions::gen7_two_src_regs_same_offset => Documented(cite::REGION_ALIGN_GEN7),
            Region regions::gen7_dst_two_regs_src_two_regs => Documented(cite::REGION_ALIGN_GEN7),
            Region regions::gen7_packed_word_exception_src0_only => Conservative(cite::PACKED_WORD_SRC1),
        }
        mixed_float {
            MixedFloat mixed_float::mixed_float_no_indirect_src => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_f_dst_max_simd8 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a16_packed_vstride4 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a16_max_simd8 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a16_no_acc_src => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a1_packed_hf_dst_max_simd8 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a1_math_hf_src_strided => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_packed_hf_dst_oword => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_packed_hf_dst_acc_offset0 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_hf_dst_acc_needs_stride2 => Conservative(cite::MIXED),
        }
        imm_src {
            VectorImmediate vector_imm::vector_imm_dst_oword_aligned => Documented(cite::VECTOR_IMM),
            VectorImmediate vector_imm::vf_dst_dword_stride => Documented(cite::VECTOR_IMM),
            VectorImmediate vector_imm::v_uv_dst_word_stride => Documented(cite::VECTOR_IMM),
        }
        chv {
            Double double::chv_64bit_align1_stride_qword_equal => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_vstride_eq_width_hstride => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_same_offset => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_no_indirect => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_no_arf => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_no_depctrl => Documented(cite::DOUBLE_CHV),
        }
        gen8_align16 {
            Double double::gen8_align16_qword_dst_nonqword_src_max_exec2 => Documented(cite::DOUBLE_BDW),
        }
        cmp {
            Instruction instruction::cmp_requires_cond_mod => Documented(cite::CMP),
            Instruction instruction::gen7_cmp_dst_not_arf => Documented(cite::CMP),
            Instruction instruction::gen7_cmp_null_dst_requires_switch => Documented(cite::CMP),
        }
        always {
            Instruction instruction::sel_pred_xor_cond_mod => Documented(cite::SEL),
        }
        mul {
            Instruction instruction::mul_dword_operand_on_src0 => Documented(cite::MUL),
            Instruction instruction::gen7_mul_no_acc_source => Documented(cite::MUL_ACC_GEN7),
            Instruction instruction::hsw_mul_no_acc_source => Conservative(cite::MUL_ACC_HSW),
            Instruction instruction::gen8_mul_no_int_acc_source => Documented(cite::ACC_BDW),
            Instruction instruction::gen7_mul_dword_src_no_float_dst => Documented(cite::MUL_HSW),
            Instruction instruction::gen8_mul_dwxdw_dst_not_acc => Documented(cite::MUL),
            Instruction instruction::mul_dword_no_sat_no_cond_mod => Documented(cite::MUL),
        }
        logic {
            Instruction instruction::gen8_logic_no_abs => Conservative(cite::LOGIC_ABS),
            Instruction instruction::gen8_logic_no_src_mod_on_acc => Documented(cite::LOGIC),
            Instruction instruction::logic_no_o_r_u_cond_mod => Documented(cite::LOGIC),
        }
        bfi2 {
            Instruction instruction::bfi2_no_cond_mod_or_saturate => Documented(cite::BFI2),
            Instruction instruction::bfi2_types => Documented(cite::BFI2),
        }
        csel {
            Instruction instruction::csel_not_predicated => Documented(cite::CSEL),
            Instruction instruction::csel_requires_cond_mod => Documented(cite::CSEL),
            Instruction instruction::csel_types => Documented(cite::CSEL),
        }
        three_src {
            Instruction instruction::three_src_opcode_types => Documented(cite::THREE_SRC_TYPES),
            Instruction instruction::ivb_three_src_max_one_grf => Documented(cite::IVB_ALIGN16),
        }
        math {
            Instruction instruction::gen7_math_operands_direct_grf => Documented(cite::MATH_GEN7),
            Instruction instruction::math_int_div_no_src_mods => Documented(cite::MATH),
            Instruction instruction::math_operand_types => Documented(cite::MATH),
        }
        always {
            Instruction instruction::gen8_branch_offset_aligned => Documented(cite::BRANCH),
        }
        flow {
            Instruction flow::jmpi_simd1_nomask => Documented(cite::JMPI),
            Instruction flow::jmpi_operands => Documented(cite::JMPI),
            Instruction flow::brd_brc_dst_null => Documented(cite::BRD_BRC),
            Instruction flow::call_src0_two_dwords => Documented(cite::CALL),
            Instruction flow::wait_src0_scalar => Documented(cite::WAIT),
        }
        send {
            Send send::send_urb_header_present => Documented(cite::URB),
            Send send::send_urb_opcode_valid => Documented(cite::URB),
        }
    }
}

/// Where the rules come from.
pub mod cite {
    /// Opcode table.
    pub const OPCODES: &str = "PRM Vol 2a, opcode encoding table";
    /// Instruction format.
    pub const FORMAT: &str = "PRM Vol 2a, native instruction format (field widths)";
    /// Conditional modifiers.
    pub const COND_MOD: &str = "PRM Vol 7, Conditional Modifier encoding";
    /// Extended math.
    pub const MATH: &str = "PRM Vol 2a, MATH: Extended Math Function";
    /// 3-source instructions.
    pub const THREE_SRC: &str = "PRM Vol 2a, 3-source instruction format (align16 only)";
    /// 3-source opcode data types.
    pub const THREE_SRC_TYPES: &str = "PRM Vol 2a, MAD/LRP/MADM/BFE: supported data types";
    /// Type encodings.
    pub const TYPES: &str = "PRM Vol 7, register and immediate type encodings";
    /// vISA operand rule: constants are sources only.
    pub const VISA_OPERANDS: &str = "vISA operands: a constant operand is never a destination";
    /// vISA region rule 1.
    pub const VISA_REGION_1: &str = "vISA Region Restrictions rule 1: Width in {1,2,4,8,16}";
    /// vISA region rule 2.
    pub const VISA_REGION_2: &str = "vISA Region Restrictions rule 2: VertStride in {0,1,2,4,8,16,32}";
    /// vISA region rule 3.
    pub const VISA_REGION_3: &str = "vISA Region Restrictions rule 3: HorzStride in {0,1,2,4}";
    /// vISA region rule 5.
    pub const VISA_REGION_5: &str =
        "PRM Vol 7, 3.3.9.2 General Restrictions on Regioning Parameters; vISA rule 5: Dst.HorzStride != 0";
    /// Indirect addressing.
    pub const INDIRECT: &str = "PRM Vol 7, Register-Indirect Addressing; vISA additional rule 1 (multi-address)";
    /// The register file.
    pub const GRF_FILE: &str = "PRM Vol 7, General Register File: g0-g127; vISA rule 6";
    /// Null sources.
    pub const MESA_NULL: &str = "Mesa's validator refuses a null source; the PRM describes the null register \
         as a destination whose writes are dropped and gives no value for a read";
    /// Immediates.
    pub const IMMEDIATES: &str = "PRM Vol 2a, instruction format: the immediate occupies the last source";
    /// SEND.
    pub const SEND: &str = "PRM Vol 2a, SEND: src0 is a directly addressed GRF payload";
    /// SEND with EOT.
    pub const SEND_EOT: &str = "PRM Vol 2a, SEND: with EOT the payload comes from g112-g127";
    /// SEND r127 rule.
    pub const SEND_R127: &str =
        "BDW PRM Vol 2a, SEND: r127 is not a return register when source and destination overlap";
    /// Message descriptor.
    pub const SEND_DESC: &str = "PRM Vol 2a, Message Descriptor: Message Length 1-15, Response Length 0-16";
    /// Data port message types.
    pub const DP_MSG_TYPE: &str = "IVB PRM Vol 4 Part 1, HSW/BDW PRM Vol 7, Data Port message types: each of \
         the render cache, data cache and data cache 1 lists its message types (descriptor bits 17:14, \
         Gen8 18:14) and the others are reserved; from Haswell the typed and untyped surface messages are \
         data cache 1's";
    /// Surface read response lengths.
    pub const SURFACE_READ_RLEN: &str = "PRM Vol 7, Typed/Untyped Surface Read: the writeback is one GRF per \
         enabled channel for eight slots (SIMD16: two; SIMD4x2: one in all), as Mesa's \
         brw_surface_payload_size computes it";
    /// URB messages.
    pub const URB: &str = "PRM Vol 7, URB messages: header and opcodes per generation";
    /// Operand-type restrictions.
    pub const OPERAND_TYPES: &str =
        "PRM Vol 7, Register Region Restrictions: General Restrictions Based on Operand Types";
    /// BDW MOV conversions.
    pub const MOV_BDW: &str = "BDW PRM Vol 2a, MOV: no direct conversion between B/UB or HF and 64-bit types; \
         applied, as Mesa does, to the implicit conversions of every opcode and to Ivy Bridge/Haswell DF";
    /// Integer/half-float conversions.
    pub const HF_CONVERSION: &str =
        "BDW PRM Vol 7: integer <-> HF conversion is dword aligned and dword strided on the destination";
    /// CHV word destinations.
    pub const HF_WORD_CHV: &str = "CHV PRM Vol 7: relaxed word-destination alignment (all even or all odd words)";
    /// Align16.
    pub const ALIGN16: &str = "PRM Vol 7, Align16 access mode: Dst.HorzStride 1, VertStride 0 or 4 (HSW+: 2)";
    /// General regioning restrictions.
    pub const REGION_PARAMS: &str = "PRM Vol 7, 3.3.9.2 General Restrictions on Regioning Parameters";
    /// Region alignment rules.
    pub const REGION_ALIGN: &str = "PRM Vol 7, Region Alignment Rules for Direct Register Addressing";
    /// Gen7 region alignment rules.
    pub const REGION_ALIGN_GEN7: &str =
        "IVB/HSW PRM, Region Alignment Rules: destination and source both spanning two registers";
    /// Mixed float.
    pub const MIXED: &str = "SKL PRM Vol 7, Special Restrictions for Handling Mixed Mode Float Operations; \
         borrowed for Broadwell and Cherryview as Mesa does (the Gen8 documents state no such rule)";
    /// Vector immediates.
    pub const VECTOR_IMM: &str =
        "PRM Vol 7, Immediate vectors: destination 128-bit aligned, word (V/UV) or dword (VF) stride";
    /// CHV 64-bit.
    pub const DOUBLE_CHV: &str = "CHV PRM Vol 7, Special Requirements for Handling Double Precision Data Types";
    /// BDW 64-bit align16.
    pub const DOUBLE_BDW: &str =
        "BDW PRM Vol 7, Special Requirements for Handling Double Precision Data Types (align16)";
    /// CMP.
    pub const CMP: &str = "IVB PRM Vol 4 Part 3 / HSW PRM Vol 2b, CMP: destination and condition";
    /// SEL.
    pub const SEL: &str = "PRM Vol 2a, SEL: predicated or conditional, not both";
    /// MUL.
    pub const MUL: &str = "PRM Vol 2a, MUL: dword operands";
    /// MUL accumulator sources before Gen8.
    pub const MUL_ACC_GEN7: &str = "IVB PRM Vol 4 Part 3, MUL: source operands cannot be an accumulator";
    /// MUL float destination on HSW.
    pub const MUL_HSW: &str = "HSW PRM Vol 2b, MUL: no float destination with a dword source";
    /// Gen8 accumulator rules.
    pub const ACC_BDW: &str = "BDW PRM Vol 7, Accumulator Restrictions: integer sources cannot be accumulators";
    /// Logic instructions.
    pub const LOGIC: &str = "BDW PRM Vol 2a, AND/OR/XOR/NOT: source modifiers and conditions";
    /// Abs on logic instructions.
    pub const LOGIC_ABS: &str = "BDW PRM Vol 2a, AND/OR/XOR/NOT define negate as bitwise NOT and give abs no \
         meaning; refused to be safe, as Mesa does";
    /// VxH at execution size 1.
    pub const VXH_SCALAR: &str = "PRM Vol 7, 3.3.9.2 (ExecSize = Width = 1 needs <0;1,0>) speaks of direct \
         strides; VxH has none, but Mesa's validator reads encoding 15 as a stride and refuses it";
    /// SEND payload rows.
    pub const SEND_PAYLOAD_ROWS: &str = "PRM Vol 7, 3.3.9.2 (VertStride must be used to cross GRF boundaries) \
         concerns regioned reads; a SEND payload is read as whole registers, but Mesa applies the rule to it";
    /// Even split on Gen7 with sources in one register.
    pub const EVEN_SPLIT_GEN7: &str = "IVB/HSW PRM state the even destination split only with a source \
         spanning two registers; BDW PRM states it always, and Mesa assumes the older text forgot the case";
    /// The packed-word exception on src1.
    pub const PACKED_WORD_SRC1: &str = "IVB/HSW PRM, Region Alignment Rules: the packed-word exception names no \
         source, but HSW notes src1's subregister is not incremented with the lower 8 channels disabled; \
         Mesa allows it on src0 only to play it safe";
    /// MUL accumulator sources on Haswell.
    pub const MUL_ACC_HSW: &str = "IVB PRM Vol 4 Part 3, MUL: source operands cannot be an accumulator; \
         Haswell's MUL page drops the sentence, and Mesa assumes Haswell keeps it";
    /// BFI2.
    pub const BFI2: &str = "PRM Vol 2a, BFI2";
    /// CSEL.
    pub const CSEL: &str = "BDW PRM Vol 2a, CSEL";
    /// IVB align16 limits.
    pub const IVB_ALIGN16: &str = "IVB PRM: in align16, no SIMD16 for dword operations and no SIMD8 for DF";
    /// Shared function IDs.
    pub const SFID: &str = "PRM Vol 2a, SEND: SFID encodings (1, 14 and 15 reserved; 12 and 13 from Haswell)";
    /// The descriptor operand.
    pub const SEND_DESC_OPERAND: &str =
        "PRM Vol 2a, SEND: the message descriptor is an immediate or the address register a0.0";
    /// Gen7 MATH operands.
    pub const MATH_GEN7: &str = "IVB/HSW PRM Vol 2a, MATH: operands are directly addressed GRFs";
    /// JMPI.
    pub const JMPI: &str = "PRM Vol 2a, JMPI: SIMD1, NoMask, ip as src0 and a :d distance in src1 \
         (Intel's decoder enforces it; Mesa's brw_JMPI emits it)";
    /// BRD and BRC.
    pub const BRD_BRC: &str = "PRM Vol 2a, BRD/BRC: the destination is the null register";
    /// CALL and CALLA.
    pub const CALL: &str = "PRM Vol 2a, CALL/CALLA: src0 is :ud dwords (<2;2,1>) without modifiers";
    /// WAIT.
    pub const WAIT: &str = "PRM Vol 2a, WAIT: src0 is a scalar notification register";
    /// Branches.
    pub const BRANCH: &str = "BDW PRM Vol 2a, branch instructions: JIP/UIP in bytes, on instruction boundaries";
}

/// Every rule in the order they run, with its identifier, [`Basis`] and
/// citation: what `geneu check --list-rules` prints.
pub fn list_rules() -> impl ExactSizeIterator<Item = &'static RuleInfo> {
    RULES.iter().copied()
}

/// The rule with this identifier.
pub fn find_rule(id: &str) -> Option<&'static RuleInfo> {
    list_rules().find(|r| r.id == id)
}

/// Validates an instruction on a platform; every violation is collected.
///
/// Common valid shapes are accepted by one cheap pass that proves no rule
/// can report; everything else goes through every rule, as
/// [`validate_full`] does, with the same result.
#[inline]
pub fn validate(p: Platform, i: &Instruction) -> Result<(), Violations> {
    if fast::accept(p, i) {
        return Ok(());
    }
    validate_full(p, i)
}

/// [`validate`] without its fast accept: every rule (behind the gates of
/// its blocks) on every instruction. Returns what [`validate`] returns.
pub fn validate_full(p: Platform, i: &Instruction) -> Result<(), Violations> {
    let mut c = Checker::base(p, i);
    c.derive();
    run_phase(&mut c, Phase::Opcode);
    if c.out.is_empty() {
        run_phase(&mut c, Phase::Encoding);
    }
    if c.out.is_empty() {
        // Only the operand-type rules read the prepared facts.
        if gate::operand_type_rules(&c) {
            c.prepare();
        }
        run_phase(&mut c, Phase::Restriction);
    }
    if c.out.is_empty() {
        Ok(())
    } else {
        Err(Violations(c.out))
    }
}

/// Runs only the rules of one [`Category`] (after the opcode and encoding
/// checks, which every rule relies on). `validate_reg(p, i)` is
/// `validate_category(p, i, Category::Region)`.
pub fn validate_category(p: Platform, i: &Instruction, cat: Category) -> Result<(), Violations> {
    let mut c = Checker::new(p, i);
    run_phase(&mut c, Phase::Opcode);
    if c.out.is_empty() {
        run_phase(&mut c, Phase::Encoding);
    }
    if c.out.is_empty() {
        c.prepare();
        for (k, r) in (0u8..).zip(RULES.iter()) {
            if r.phase == Phase::Restriction && r.category == cat {
                c.run(k, r.check);
            }
        }
    }
    if c.out.is_empty() {
        Ok(())
    } else {
        Err(Violations(c.out))
    }
}

/// The region rules alone: ExecSize, Width, VertStride and HorzStride
/// relations, rows within a register, spans of at most two registers and
/// the even-split rules (plus the encoding checks they rely on).
pub fn validate_reg(p: Platform, i: &Instruction) -> Result<(), Violations> {
    validate_category(p, i, Category::Region)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule in order without gates: what [`validate`] must return.
    fn ungated(p: Platform, i: &Instruction) -> Result<(), Violations> {
        let mut c = Checker::new(p, i);
        for phase in [Phase::Opcode, Phase::Encoding, Phase::Restriction] {
            if !c.out.is_empty() {
                break;
            }
            if phase == Phase::Restriction {
                c.prepare();
            }
            for (k, r) in (0u8..).zip(RULES.iter()) {
                if r.phase == phase {
                    c.run(k, r.check);
                }
            }
        }
        if c.out.is_empty() {
            Ok(())
        } else {
            Err(Violations(c.out))
        }
    }

    /// A small xorshift generator for the mutation tests here and in
    /// `fast`.
    pub(super) struct Rng(pub(super) u64);

    impl Rng {
        pub(super) fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        pub(super) fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
            xs[self.below(xs.len())]
        }
    }

    /// Changes one to three fields of `i` at random, towards the edges
    /// of the rules (also used by `fast`'s tests).
    pub(super) fn mutate(r: &mut Rng, i: &mut Instruction) {
        let ops = [
            Opcode::Mov,
            Opcode::Add,
            Opcode::Mul,
            Opcode::Mad,
            Opcode::Sel,
            Opcode::Cmp,
            Opcode::Cmpn,
            Opcode::And,
            Opcode::Not,
            Opcode::Xor,
            Opcode::Math,
            Opcode::Send,
            Opcode::Sendc,
            Opcode::Csel,
            Opcode::Mac,
            Opcode::If,
            Opcode::Else,
            Opcode::While,
            Opcode::Nop,
            Opcode::Lrp,
            Opcode::Bfe,
            Opcode::Bfi2,
            Opcode::Madm,
            Opcode::Dim,
            Opcode::Smov,
            Opcode::F32to16,
            Opcode::Illegal,
            Opcode::Jmpi,
            Opcode::Brd,
            Opcode::Brc,
            Opcode::Call,
            Opcode::Wait,
        ];
        let files = [RegFile::Grf, RegFile::Arf, RegFile::Imm];
        for _ in 0..1 + r.below(3) {
            let k = r.below(3);
            let n = r.below(256) as u8;
            let small = r.below(18) as u8;
            match r.below(27) {
                0 => i.opcode = r.pick(&ops),
                1 => i.exec_size = r.pick(ExecSize::ALL),
                2 => i.dst.ty = r.pick(&Type::ALL),
                3 => i.src[k].ty = r.pick(&Type::ALL),
                4 => i.dst.hstride = small % 5,
                5 => i.src[k].region.vstride = small,
                6 => i.src[k].region.width = small % 7,
                7 => i.src[k].region.hstride = small % 5,
                8 => {
                    i.dst.addr = Addr::Direct {
                        nr: n,
                        subnr: small * 2,
                    }
                }
                9 => {
                    i.src[k].addr = Addr::Direct {
                        nr: n,
                        subnr: small * 2 % 36,
                    }
                }
                10 => {
                    i.src[k].addr = Addr::Indirect {
                        subnr: small,
                        imm: i16::from(n) * 4 - 512,
                    }
                }
                11 => i.access_mode = r.pick(&[AccessMode::Align1, AccessMode::Align16]),
                12 => i.cond_modifier = small,
                13 => i.src[k].file = r.pick(&files),
                14 => i.dst.file = r.pick(&files),
                15 => i.pred_control = small,
                16 => i.qtr_control = small % 5,
                17 => {
                    i.flag = FlagReg {
                        nr: small % 3,
                        subnr: n % 3,
                    }
                }
                18 => i.thread_control = r.pick(&[ThreadControl::Normal, ThreadControl::Atomic, ThreadControl::Switch]),
                19 => i.src[k].mods = SrcMods::from_bits_truncate(small),
                20 => i.controls = Controls::from_bits_truncate(u16::from(n) << r.below(2)),
                // Descriptor fields: mlen, rlen, header, URB opcode, EOT.
                21 => i.imm ^= 1 << r.pick(&[0, 1, 2, 3, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 31, 32, 33, 34, 35]),
                // Data port message control and message type.
                25 => i.imm ^= 1 << r.pick(&[8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]),
                22 => {
                    i.dst.addr = Addr::Direct {
                        nr: 100 + small * 2,
                        subnr: 0,
                    }
                }
                // A packed region <w;w,1> or the scalar one.
                23 => {
                    let w = small % 6;
                    i.src[k].region = Region {
                        vstride: w + 1,
                        width: w,
                        hstride: 1,
                    };
                    if w == 5 {
                        i.src[k].region = Region::SCALAR;
                    }
                }
                24 => {
                    i.src[k].addr = Addr::Direct {
                        nr: n % 8,
                        subnr: small * 4 % 36,
                    }
                }
                _ => {
                    i.src[0].addr = Addr::Direct {
                        nr: 100 + small * 2,
                        subnr: 0,
                    }
                }
            }
        }
    }

    /// The gates skip only rules that would report nothing.
    #[test]
    fn gates_never_change_a_verdict() {
        let rgn = Region::new(8, 8, 1).unwrap();
        let mut add = Instruction::new(Opcode::Add, ExecSize::S16);
        add.dst = Dst::grf(2, 0, Type::F);
        add.src[0] = Src::grf(4, 0, Type::F, rgn);
        add.src[1] = Src::grf(6, 0, Type::F, rgn);
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut ok, mut bad) = (0, 0);
        for _ in 0..20_000 {
            let mut i = add;
            mutate(&mut r, &mut i);
            let p = r.pick(&Platform::ALL);
            let v = validate(p, &i);
            assert_eq!(v, ungated(p, &i), "{p:?} {i:?}");
            if v.is_ok() {
                ok += 1;
            } else {
                bad += 1;
            }
        }
        assert!(ok > 1000 && bad > 1000, "{ok} valid, {bad} invalid");
    }
}
