//! The checker: one instruction, the facts derived from it once, and
//! the violations its rules report.

use alloc::string::String;
use alloc::vec::Vec;

use super::*;

/// Collects violations for one instruction, with facts derived once.
pub struct Checker<'a> {
    /// The platform.
    pub p: Platform,
    /// The instruction.
    pub i: &'a Instruction,
    /// The running rule's index in [`RULES`].
    pub(super) rule: u8,
    pub(super) out: Vec<Violation>,
    pub(super) nsrc: u8,
    pub(super) exec: u32,
    pub(super) flags: u16,
    /// Bit k: source k is an align1 register source (see [`Checker::a1_srcs`]).
    pub(super) a1: u8,
    pub(super) rgn: [Rgn; 3],
    /// [`src_last_byte`] of each source read.
    pub(super) last: [Option<u32>; 3],
    pub(crate) ot: Option<operand_types::Ot>,
    pub(super) split: Option<Option<regions::Split>>,
}

pub(super) const F_THREE_SRC: u16 = 1;
pub(super) const F_ALIGN16: u16 = 2;
pub(super) const F_SEND: u16 = 4;
pub(super) const F_HAS_DST: u16 = 8;
pub(super) const F_DST_NULL: u16 = 16;
pub(super) const F_MIXED: u16 = 32;
pub(super) const F_OT_APPLIES: u16 = 64;
/// Some operand is register-indirect.
pub(super) const F_INDIRECT: u16 = 128;
/// Some register source has a width encoding above 4, a vertical stride
/// encoding above 6 (reserved or VxH) or a horizontal stride encoding
/// above 3, or the destination's horizontal stride encoding is above 3.
pub(super) const F_REGION_ENC: u16 = 256;

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
    pub(super) fn base(p: Platform, i: &'a Instruction) -> Self {
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
        if !crate::isa::region::hstride_defined(i.dst.hstride) {
            flags |= F_REGION_ENC;
        }
        for s in i.src.iter().take(nsrc.min(3) as usize) {
            if is_indirect(&s.addr) {
                flags |= F_INDIRECT;
            }
            let r = s.region;
            if !s.is_imm() && !r.has_element_counts() {
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
    pub(super) fn derive(&mut self) {
        if operand_types::compute_mixed_float(self) {
            self.flags |= F_MIXED;
        }
        if operand_types::applies(self) {
            self.flags |= F_OT_APPLIES;
        }
    }

    /// Derives the facts the restriction rules share (after the encoding
    /// phase passed).
    pub(super) fn prepare(&mut self) {
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
    pub(super) fn run(&mut self, r: u8, f: Rule) {
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
