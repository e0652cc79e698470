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

use crate::model::*;

mod checker;
pub mod cite;
pub(crate) mod double;
pub(crate) mod encoding;
mod facts;
mod fast;
pub(crate) mod flow;
pub(crate) mod instruction;
pub(crate) mod mixed_float;
pub(crate) mod operand_types;
pub(crate) mod regions;
mod registry;
pub(crate) mod send;
pub(crate) mod sources;
pub(crate) mod vector_imm;

pub use crate::error::{Basis, OperandId, Violation, Violations};
pub use checker::*;
pub use facts::*;
pub use registry::*;

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
        if gate::operand_types(&c) {
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
