//! Shared helpers of the validation tests: instruction builders in the
//! style of Mesa's validator tests (SIMD8, `g0<8,8,1>F` operands, align1)
//! and assertions naming the rule.
#![allow(dead_code, unused_imports)]

pub use geneu::validate::{validate, Violations};
pub use geneu::*;
pub use Platform::{Chv, Gen7, Gen75, Gen8};
pub use Type::{B, D, DF, F, HF, Q, UB, UD, UQ, UV, UW, V, VF, W};

/// Every platform.
pub const ALL: [Platform; 4] = Platform::ALL;

/// A region from element counts.
pub fn rgn(v: u32, w: u32, h: u32) -> Region {
    Region::new(v, w, h).unwrap()
}

/// The stride encoding of an element count (0, 1, 2, 4).
pub fn hs(n: u32) -> u8 {
    match n {
        0 => 0,
        1 => 1,
        2 => 2,
        4 => 3,
        _ => panic!("no stride {n}"),
    }
}

/// `g{nr}<8,8,1>{ty}`.
pub fn g(nr: u8, ty: Type) -> Src {
    Src::grf(nr, 0, ty, rgn(8, 8, 1))
}

/// `g{nr}.0<0,1,0>{ty}`.
pub fn scalar(nr: u8, ty: Type) -> Src {
    Src::grf(nr, 0, ty, Region::SCALAR)
}

/// An accumulator source `acc0<8,8,1>{ty}`.
pub fn acc(ty: Type) -> Src {
    Src {
        file: RegFile::Arf,
        ty,
        addr: Addr::Direct { nr: 0x20, subnr: 0 },
        region: rgn(8, 8, 1),
        swizzle: Swizzle(0),
        mods: SrcMods::empty(),
    }
}

/// The null register as a source, `null<8,8,1>{ty}`.
pub fn null_src(ty: Type) -> Src {
    Src {
        file: RegFile::Arf,
        ty,
        addr: Addr::Direct { nr: 0, subnr: 0 },
        region: rgn(8, 8, 1),
        swizzle: Swizzle(0),
        mods: SrcMods::empty(),
    }
}

/// An ARF destination (`acc0` is 0x20, `null` is 0).
pub fn arf_dst(nr: u8, ty: Type) -> Dst {
    Dst {
        file: RegFile::Arf,
        ty,
        addr: Addr::Direct { nr, subnr: 0 },
        hstride: 1,
        writemask: WriteMask::XYZW,
    }
}

/// Mesa's test instruction: `op(8) g0<1>F g0<8,8,1>F [g0<8,8,1>F]`.
pub fn alu(op: Opcode) -> Instruction {
    let mut i = Instruction::new(op, ExecSize::S8);
    i.dst = Dst::grf(0, 0, F);
    for k in 0..op.num_srcs().min(2) as usize {
        i.src[k] = g(0, F);
    }
    i
}

/// `mov(8) g0<1>{d} g0<8,8,1>{s}`.
pub fn mov(d: Type, s: Type) -> Instruction {
    alu(Opcode::Mov).types(d, s, s)
}

/// `op(8) g0<1>{d} g0<8,8,1>{s0} g0<8,8,1>{s1}`.
pub fn alu2(op: Opcode, d: Type, s0: Type, s1: Type) -> Instruction {
    alu(op).types(d, s0, s1)
}

/// A 3-source align16 instruction `op(8) g0<1>{ty} g2<4,4,1> g3<4,4,1> g4<4,4,1>`.
pub fn alu3(op: Opcode, ty: Type) -> Instruction {
    let mut i = Instruction::new(op, ExecSize::S8);
    i.access_mode = AccessMode::Align16;
    i.dst = Dst::grf(0, 0, ty);
    for k in 0..3 {
        i.src[k] = Src {
            swizzle: Swizzle::XYZW,
            ..Src::grf(2 + k as u8, 0, ty, rgn(4, 4, 1))
        };
    }
    i
}

/// A SEND: `send(8) g10<1>UW g2<8,8,1>UD` with an immediate descriptor.
pub fn send(sfid: u8, mlen: u32, rlen: u32, header: bool) -> Instruction {
    let mut i = Instruction::new(Opcode::Send, ExecSize::S8);
    i.dst = Dst::grf(10, 0, UW);
    i.src[0] = g(2, UD);
    i.src[1] = Src::imm(UD);
    i.cond_modifier = sfid;
    i.imm = (mlen as u64) << 25 | (rlen as u64) << 20 | (header as u64) << 19;
    i
}

/// Builder steps on an instruction.
pub trait Build: Sized {
    /// Sets the execution size in channels.
    fn exec(self, n: u32) -> Self;
    /// Retypes dst, src0 and src1 (immediates keep their file).
    fn types(self, d: Type, s0: Type, s1: Type) -> Self;
    /// Sets the destination stride in elements.
    fn dst_stride(self, n: u32) -> Self;
    /// Sets the destination subregister in bytes.
    fn dst_sub(self, n: u8) -> Self;
    /// Sets source `k`'s region in elements.
    fn src_rgn(self, k: usize, v: u32, w: u32, h: u32) -> Self;
    /// Sets source `k`'s subregister in bytes.
    fn src_sub(self, k: usize, n: u8) -> Self;
    /// Switches to align16 with `<4>` sources.
    fn a16(self) -> Self;
    /// Applies any change.
    fn with(self, f: impl FnOnce(&mut Instruction)) -> Self;
}

impl Build for Instruction {
    fn exec(mut self, n: u32) -> Self {
        self.exec_size = ExecSize::from_channels(n).unwrap();
        self
    }
    fn types(mut self, d: Type, s0: Type, s1: Type) -> Self {
        self.dst.ty = d;
        self.src[0].ty = s0;
        if self.opcode.num_srcs() >= 2 || self.src[1].file != RegFile::Arf {
            self.src[1].ty = s1;
        }
        self
    }
    fn dst_stride(mut self, n: u32) -> Self {
        self.dst.hstride = hs(n);
        self
    }
    fn dst_sub(mut self, n: u8) -> Self {
        if let Addr::Direct { nr, .. } = self.dst.addr {
            self.dst.addr = Addr::Direct { nr, subnr: n };
        }
        self
    }
    fn src_rgn(mut self, k: usize, v: u32, w: u32, h: u32) -> Self {
        self.src[k].region = rgn(v, w, h);
        self
    }
    fn src_sub(mut self, k: usize, n: u8) -> Self {
        if let Addr::Direct { nr, .. } = self.src[k].addr {
            self.src[k].addr = Addr::Direct { nr, subnr: n };
        }
        self
    }
    fn a16(mut self) -> Self {
        self.access_mode = AccessMode::Align16;
        let n = self.opcode.num_srcs().min(2) as usize;
        for s in self.src.iter_mut().take(n) {
            if !s.is_imm() {
                s.region = Region {
                    vstride: 3,
                    width: 2,
                    hstride: 1,
                };
                s.swizzle = Swizzle::XYZW;
            }
        }
        self
    }
    fn with(mut self, f: impl FnOnce(&mut Instruction)) -> Self {
        f(&mut self);
        self
    }
}

/// Asserts the instruction validates clean.
#[track_caller]
pub fn ok(p: Platform, i: &Instruction) {
    if let Err(v) = validate(p, i) {
        panic!("{p}: expected no violation, got {v}\n{i:#?}");
    }
}

/// Asserts the instruction breaks `rule`.
#[track_caller]
pub fn bad(p: Platform, i: &Instruction, rule: &str) {
    match validate(p, i) {
        Ok(()) => panic!("{p}: expected a `{rule}` violation, got none\n{i:#?}"),
        Err(v) => assert!(v.has(rule), "{p}: expected `{rule}`, got {v}\n{i:#?}"),
    }
}

/// Asserts `rule` is broken when `illegal`, and the instruction is clean otherwise.
#[track_caller]
pub fn expect(p: Platform, i: &Instruction, rule: &str, legal: bool) {
    if legal {
        ok(p, i)
    } else {
        bad(p, i, rule)
    }
}

/// Asserts the instruction does not break `rule` (it may break others).
#[track_caller]
pub fn not(p: Platform, i: &Instruction, rule: &str) {
    if let Err(v) = validate(p, i) {
        assert!(!v.has(rule), "{p}: unexpected `{rule}`: {v}\n{i:#?}");
    }
}

/// Asserts validation passes exactly on the platforms in `legal_on`, and
/// breaks `rule` on the others.
#[track_caller]
pub fn only_on(i: &Instruction, rule: &str, legal_on: &[Platform]) {
    for p in ALL {
        expect(p, i, rule, legal_on.contains(&p));
    }
}

/// Mesa's half_float_conversion table: MOV(4) with a dst stride and
/// subregister: (dst, src, dst stride, dst subnr, legal on BDW, legal on
/// CHV). Used by the rule tests and by the ported Mesa cases.
pub const HALF_FLOAT_CONVERSION: [(Type, Type, u32, u8, bool, bool); 43] = [
    (HF, B, 1, 0, false, false),
    (HF, W, 1, 0, false, false),
    (HF, HF, 1, 0, true, true),
    (HF, HF, 1, 2, true, true),
    (HF, D, 1, 0, false, false),
    (HF, F, 1, 0, false, true),
    (HF, Q, 1, 0, false, false),
    (HF, B, 2, 0, true, true),
    (HF, B, 2, 2, false, false),
    (HF, W, 2, 0, true, true),
    (HF, W, 2, 2, false, false),
    (HF, HF, 2, 0, true, true),
    (HF, HF, 2, 2, true, true),
    (HF, D, 2, 0, true, true),
    (HF, D, 2, 2, false, false),
    (HF, F, 2, 0, true, true),
    (HF, F, 2, 2, false, true),
    (HF, Q, 2, 0, false, false),
    (HF, DF, 2, 0, false, false),
    (HF, B, 4, 0, false, false),
    (HF, W, 4, 0, false, false),
    (HF, HF, 4, 0, true, true),
    (HF, HF, 4, 2, true, true),
    (HF, D, 4, 0, false, false),
    (HF, F, 4, 0, false, false),
    (HF, Q, 4, 0, false, false),
    (HF, DF, 4, 0, false, false),
    (B, HF, 1, 0, false, false),
    (W, HF, 1, 0, false, false),
    (D, HF, 1, 0, true, true),
    (D, HF, 1, 4, true, true),
    (F, HF, 1, 0, true, true),
    (F, HF, 1, 4, true, true),
    (Q, HF, 1, 0, false, false),
    (DF, HF, 1, 0, false, false),
    (B, HF, 2, 0, false, false),
    (W, HF, 2, 0, true, true),
    (W, HF, 2, 2, false, false),
    (D, HF, 2, 0, false, false),
    (F, HF, 2, 0, true, true),
    (B, HF, 4, 0, true, true),
    (B, HF, 4, 1, false, false),
    (W, HF, 4, 0, false, false),
];

/// Mesa's packed_byte_destination table: MOV(8) to a packed byte
/// destination: (dst, src, src0 negate, src0 abs, saturate, legal on
/// every platform). Used by the rule tests and by the ported Mesa cases.
pub const PACKED_BYTE_DESTINATION: [(Type, Type, bool, bool, bool, bool); 20] = [
    (UB, UB, false, false, false, true),
    (B, B, false, false, false, true),
    (UB, B, false, false, false, true),
    (B, UB, false, false, false, true),
    (UB, UB, true, false, false, false),
    (B, B, true, false, false, false),
    (UB, B, true, false, false, false),
    (B, UB, true, false, false, false),
    (UB, UB, false, true, false, false),
    (B, B, false, true, false, false),
    (UB, B, false, true, false, false),
    (B, UB, false, true, false, false),
    (UB, UB, false, false, true, false),
    (B, B, false, false, true, false),
    (UB, B, false, false, true, false),
    (B, UB, false, false, true, false),
    (UB, UW, false, false, false, false),
    (B, W, false, false, false, false),
    (UB, UD, false, false, false, false),
    (B, D, false, false, false, false),
];

/// Mesa's vector_immediate_destination_stride table: MOV of a vector
/// immediate: (dst, immediate type, dst stride, legal). Used by the rule
/// tests and by the ported Mesa cases.
pub const VECTOR_IMMEDIATE_DESTINATION_STRIDE: [(Type, Type, u32, bool); 14] = [
    (F, VF, 1, true),
    (F, VF, 2, false),
    (D, VF, 1, true),
    (D, VF, 2, false),
    (W, VF, 2, true),
    (B, VF, 4, true),
    (W, V, 1, true),
    (W, V, 2, false),
    (W, V, 4, false),
    (B, V, 2, true),
    (W, UV, 1, true),
    (W, UV, 2, false),
    (W, UV, 4, false),
    (B, UV, 2, true),
];

/// Mesa's mixed_float_source_indirect_addressing table: ADD(8) in mixed
/// float mode: (dst, src0, src1, dst stride, dst indirect, src0 indirect,
/// legal on Gen8 and CHV). Used by the rule tests and by the ported Mesa
/// cases.
pub const MIXED_FLOAT_SOURCE_INDIRECT_ADDRESSING: [(Type, Type, Type, u32, bool, bool, bool); 16] = [
    (HF, F, F, 2, false, false, true),
    (HF, F, F, 2, true, false, true),
    (HF, F, F, 2, false, true, false),
    (HF, F, F, 2, true, true, false),
    (F, HF, F, 1, false, false, true),
    (F, HF, F, 1, true, false, true),
    (F, HF, F, 1, false, true, false),
    (F, HF, F, 1, true, true, false),
    (HF, HF, F, 2, false, false, true),
    (HF, HF, F, 2, true, false, true),
    (HF, HF, F, 2, false, true, false),
    (HF, HF, F, 2, true, true, false),
    (F, F, HF, 1, false, false, true),
    (F, F, HF, 1, true, false, true),
    (F, F, HF, 1, false, true, false),
    (F, F, HF, 1, true, true, false),
];

/// Mesa's mixed_float_align1_simd16 table: align1 ADD in mixed float
/// mode: (exec size, dst, src0, src1, dst stride, legal on Gen8 and CHV).
/// Used by the rule tests and by the ported Mesa cases.
pub const MIXED_FLOAT_ALIGN1_SIMD16: [(u32, Type, Type, Type, u32, bool); 8] = [
    (8, HF, F, HF, 2, true),
    (16, HF, HF, F, 2, true),
    (16, HF, HF, F, 1, false),
    (16, HF, F, HF, 1, false),
    (8, F, HF, F, 1, true),
    (8, F, F, HF, 1, true),
    (16, F, HF, F, 1, false),
    (16, F, F, HF, 1, false),
];

/// Mesa's vector_immediate_destination_alignment table: MOV of a vector
/// immediate: (dst, immediate type, dst subregister in bytes, exec size,
/// legal on every platform). Used by the rule tests and by the ported Mesa
/// cases.
pub const VECTOR_IMMEDIATE_DESTINATION_ALIGNMENT: [(Type, Type, u8, u32, bool); 9] = [
    (F, VF, 0, 4, true),
    (F, VF, 16, 4, true),
    (F, VF, 1, 4, false),
    (W, V, 0, 8, true),
    (W, V, 16, 8, true),
    (W, V, 1, 8, false),
    (W, UV, 0, 8, true),
    (W, UV, 16, 8, true),
    (W, UV, 1, 8, false),
];

/// A row of [`QWORD_LOW_POWER_ALIGN1_REGIONING`].
pub type QwordRegionCase = (Opcode, u32, Type, u8, u32, Type, u8, u32, u32, u32, bool);

/// Mesa's qword_low_power_align1_regioning_restrictions table: (opcode,
/// exec size, dst, dst subregister, dst stride, src, src subregister, src
/// vstride, width, hstride, legal on CHV). Used by the rule tests and by
/// the ported Mesa cases.
pub const QWORD_LOW_POWER_ALIGN1_REGIONING: [QwordRegionCase; 62] = [
    (Opcode::Mov, 4, DF, 0, 1, DF, 0, 4, 4, 1, true),
    (Opcode::Mov, 4, Q, 0, 1, Q, 0, 4, 4, 1, true),
    (Opcode::Mov, 4, UQ, 0, 1, UQ, 0, 4, 4, 1, true),
    (Opcode::Mov, 4, DF, 0, 1, F, 0, 8, 4, 2, true),
    (Opcode::Mov, 4, Q, 0, 1, D, 0, 8, 4, 2, true),
    (Opcode::Mov, 4, UQ, 0, 1, UD, 0, 8, 4, 2, true),
    (Opcode::Mov, 4, F, 0, 2, DF, 0, 4, 4, 1, true),
    (Opcode::Mov, 4, D, 0, 2, Q, 0, 4, 4, 1, true),
    (Opcode::Mov, 4, UD, 0, 2, UQ, 0, 4, 4, 1, true),
    (Opcode::Mul, 8, D, 0, 2, D, 0, 8, 4, 2, true),
    (Opcode::Mul, 8, UD, 0, 2, UD, 0, 8, 4, 2, true),
    (Opcode::Mov, 2, DF, 8, 1, DF, 8, 2, 2, 1, true),
    (Opcode::Mov, 2, Q, 8, 1, Q, 8, 2, 2, 1, true),
    (Opcode::Mov, 2, UQ, 8, 1, UQ, 8, 2, 2, 1, true),
    (Opcode::Mul, 2, D, 4, 2, D, 4, 4, 2, 2, true),
    (Opcode::Mul, 2, UD, 4, 2, UD, 4, 4, 2, 2, true),
    // 1. Source and destination strides aligned to the same qword.
    (Opcode::Mov, 4, DF, 0, 2, DF, 0, 4, 4, 1, false),
    (Opcode::Mov, 4, Q, 0, 2, Q, 0, 4, 4, 1, false),
    (Opcode::Mov, 4, UQ, 0, 2, UQ, 0, 4, 4, 1, false),
    (Opcode::Mov, 4, DF, 0, 2, F, 0, 8, 4, 2, false),
    (Opcode::Mov, 4, Q, 0, 2, D, 0, 8, 4, 2, false),
    (Opcode::Mov, 4, UQ, 0, 2, UD, 0, 8, 4, 2, false),
    (Opcode::Mov, 4, DF, 0, 2, F, 0, 4, 4, 1, false),
    (Opcode::Mov, 4, Q, 0, 2, D, 0, 4, 4, 1, false),
    (Opcode::Mov, 4, UQ, 0, 2, UD, 0, 4, 4, 1, false),
    (Opcode::Mul, 4, D, 0, 2, D, 0, 4, 4, 1, false),
    (Opcode::Mul, 4, UD, 0, 2, UD, 0, 4, 4, 1, false),
    (Opcode::Mul, 4, D, 0, 1, D, 0, 8, 4, 2, false),
    (Opcode::Mul, 4, UD, 0, 1, UD, 0, 8, 4, 2, false),
    // 2. Src.VertStride = Src.Width * Src.HorzStride.
    (Opcode::Mov, 4, DF, 0, 1, DF, 0, 0, 2, 1, false),
    (Opcode::Mov, 4, Q, 0, 1, Q, 0, 0, 2, 1, false),
    (Opcode::Mov, 4, UQ, 0, 1, UQ, 0, 0, 2, 1, false),
    (Opcode::Mov, 4, DF, 0, 1, F, 0, 0, 2, 2, false),
    (Opcode::Mov, 4, Q, 0, 1, D, 0, 0, 2, 2, false),
    (Opcode::Mov, 4, UQ, 0, 1, UD, 0, 0, 2, 2, false),
    (Opcode::Mov, 8, F, 0, 2, DF, 0, 0, 2, 1, false),
    (Opcode::Mov, 8, D, 0, 2, Q, 0, 0, 2, 1, false),
    (Opcode::Mov, 8, UD, 0, 2, UQ, 0, 0, 2, 1, false),
    (Opcode::Mul, 8, D, 0, 2, D, 0, 0, 4, 2, false),
    (Opcode::Mul, 8, UD, 0, 2, UD, 0, 0, 4, 2, false),
    (Opcode::Mul, 8, D, 0, 2, D, 0, 0, 4, 2, false),
    (Opcode::Mul, 8, UD, 0, 2, UD, 0, 0, 4, 2, false),
    // 3. Source and destination offsets equal, except scalar sources.
    (Opcode::Mov, 2, DF, 8, 1, DF, 0, 2, 2, 1, false),
    (Opcode::Mov, 2, Q, 8, 1, Q, 0, 2, 2, 1, false),
    (Opcode::Mov, 2, UQ, 8, 1, UQ, 0, 2, 2, 1, false),
    (Opcode::Mov, 2, DF, 0, 1, DF, 8, 2, 2, 1, false),
    (Opcode::Mov, 2, Q, 0, 1, Q, 8, 2, 2, 1, false),
    (Opcode::Mov, 2, UQ, 0, 1, UQ, 8, 2, 2, 1, false),
    (Opcode::Mul, 4, D, 4, 2, D, 0, 4, 2, 2, false),
    (Opcode::Mul, 4, UD, 4, 2, UD, 0, 4, 2, 2, false),
    (Opcode::Mul, 4, D, 0, 2, D, 4, 4, 2, 2, false),
    (Opcode::Mul, 4, UD, 0, 2, UD, 4, 4, 2, 2, false),
    (Opcode::Mov, 2, DF, 8, 1, DF, 0, 0, 1, 0, true),
    (Opcode::Mov, 2, Q, 8, 1, Q, 0, 0, 1, 0, true),
    (Opcode::Mov, 2, UQ, 8, 1, UQ, 0, 0, 1, 0, true),
    (Opcode::Mov, 2, DF, 8, 1, F, 4, 0, 1, 0, true),
    (Opcode::Mov, 2, Q, 8, 1, D, 4, 0, 1, 0, true),
    (Opcode::Mov, 2, UQ, 8, 1, UD, 4, 0, 1, 0, true),
    (Opcode::Mul, 4, D, 4, 1, D, 0, 0, 1, 0, true),
    (Opcode::Mul, 4, UD, 4, 1, UD, 0, 0, 1, 0, true),
    (Opcode::Mul, 4, D, 0, 1, D, 4, 0, 1, 0, true),
    (Opcode::Mul, 4, UD, 0, 1, UD, 4, 0, 1, 0, true),
];

/// A row of [`QWORD_LOW_POWER_NO_INDIRECT_ADDRESSING`].
pub type QwordIndirectCase = (Opcode, u32, Type, bool, u32, Type, bool, u32, u32, u32, bool);

/// Mesa's qword_low_power_no_indirect_addressing table: (opcode, exec
/// size, dst, dst indirect, dst stride, src, src indirect, src vstride,
/// width, hstride, legal on CHV). Used by the rule tests and by the ported
/// Mesa cases.
pub const QWORD_LOW_POWER_NO_INDIRECT_ADDRESSING: [QwordIndirectCase; 30] = [
    (Opcode::Mov, 4, DF, false, 1, DF, false, 4, 4, 1, true),
    (Opcode::Mov, 4, Q, false, 1, Q, false, 4, 4, 1, true),
    (Opcode::Mov, 4, UQ, false, 1, UQ, false, 4, 4, 1, true),
    (Opcode::Mul, 8, D, false, 2, D, false, 8, 4, 2, true),
    (Opcode::Mul, 8, UD, false, 2, UD, false, 8, 4, 2, true),
    (Opcode::Mov, 4, F, true, 1, F, false, 4, 4, 1, true),
    (Opcode::Mov, 4, F, false, 1, F, true, 4, 4, 1, true),
    (Opcode::Mov, 4, F, true, 1, F, true, 4, 4, 1, true),
    (Opcode::Mov, 4, DF, true, 1, DF, false, 4, 4, 1, false),
    (Opcode::Mov, 4, Q, true, 1, Q, false, 4, 4, 1, false),
    (Opcode::Mov, 4, UQ, true, 1, UQ, false, 4, 4, 1, false),
    (Opcode::Mov, 4, DF, false, 1, DF, true, 4, 4, 1, false),
    (Opcode::Mov, 4, Q, false, 1, Q, true, 4, 4, 1, false),
    (Opcode::Mov, 4, UQ, false, 1, UQ, true, 4, 4, 1, false),
    (Opcode::Mov, 4, DF, true, 1, F, false, 8, 4, 2, false),
    (Opcode::Mov, 4, Q, true, 1, D, false, 8, 4, 2, false),
    (Opcode::Mov, 4, UQ, true, 1, UD, false, 8, 4, 2, false),
    (Opcode::Mov, 4, DF, false, 1, F, true, 8, 4, 2, false),
    (Opcode::Mov, 4, Q, false, 1, D, true, 8, 4, 2, false),
    (Opcode::Mov, 4, UQ, false, 1, UD, true, 8, 4, 2, false),
    (Opcode::Mov, 4, F, true, 2, DF, false, 4, 4, 1, false),
    (Opcode::Mov, 4, D, true, 2, Q, false, 4, 4, 1, false),
    (Opcode::Mov, 4, UD, true, 2, UQ, false, 4, 4, 1, false),
    (Opcode::Mov, 4, F, false, 2, DF, true, 4, 4, 1, false),
    (Opcode::Mov, 4, D, false, 2, Q, true, 4, 4, 1, false),
    (Opcode::Mov, 4, UD, false, 2, UQ, true, 4, 4, 1, false),
    (Opcode::Mul, 8, D, true, 2, D, false, 8, 4, 2, false),
    (Opcode::Mul, 8, UD, true, 2, UD, false, 8, 4, 2, false),
    (Opcode::Mul, 8, D, false, 2, D, true, 8, 4, 2, false),
    (Opcode::Mul, 8, UD, false, 2, UD, true, 8, 4, 2, false),
];

/// A row of [`QWORD_LOW_POWER_NO_DEPCTRL`].
pub type QwordDepctrlCase = (Opcode, u32, Type, u32, Type, u32, u32, u32, bool, bool, bool);

/// Mesa's qword_low_power_no_depctrl table: (opcode, exec size, dst, dst
/// stride, src, src vstride, width, hstride, NoDDChk, NoDDClr, legal on
/// CHV). Used by the rule tests and by the ported Mesa cases.
pub const QWORD_LOW_POWER_NO_DEPCTRL: [QwordDepctrlCase; 25] = [
    (Opcode::Mov, 4, DF, 1, F, 8, 4, 2, false, false, true),
    (Opcode::Mov, 4, Q, 1, D, 8, 4, 2, false, false, true),
    (Opcode::Mov, 4, UQ, 1, UD, 8, 4, 2, false, false, true),
    (Opcode::Mov, 4, F, 2, DF, 4, 4, 1, false, false, true),
    (Opcode::Mov, 4, D, 2, Q, 4, 4, 1, false, false, true),
    (Opcode::Mov, 4, UD, 2, UQ, 4, 4, 1, false, false, true),
    (Opcode::Mul, 8, D, 2, D, 8, 4, 2, false, false, true),
    (Opcode::Mul, 8, UD, 2, UD, 8, 4, 2, false, false, true),
    (Opcode::Mov, 4, F, 1, F, 4, 4, 1, true, true, true),
    (Opcode::Mov, 4, DF, 1, F, 8, 4, 2, true, false, false),
    (Opcode::Mov, 4, Q, 1, D, 8, 4, 2, true, false, false),
    (Opcode::Mov, 4, UQ, 1, UD, 8, 4, 2, true, false, false),
    (Opcode::Mov, 4, F, 2, DF, 4, 4, 1, true, false, false),
    (Opcode::Mov, 4, D, 2, Q, 4, 4, 1, true, false, false),
    (Opcode::Mov, 4, UD, 2, UQ, 4, 4, 1, true, false, false),
    (Opcode::Mov, 4, DF, 1, F, 8, 4, 2, false, true, false),
    (Opcode::Mov, 4, Q, 1, D, 8, 4, 2, false, true, false),
    (Opcode::Mov, 4, UQ, 1, UD, 8, 4, 2, false, true, false),
    (Opcode::Mov, 4, F, 2, DF, 4, 4, 1, false, true, false),
    (Opcode::Mov, 4, D, 2, Q, 4, 4, 1, false, true, false),
    (Opcode::Mov, 4, UD, 2, UQ, 4, 4, 1, false, true, false),
    (Opcode::Mul, 8, D, 2, D, 8, 4, 2, true, false, false),
    (Opcode::Mul, 8, UD, 2, UD, 8, 4, 2, true, false, false),
    (Opcode::Mul, 8, D, 2, D, 8, 4, 2, false, true, false),
    (Opcode::Mul, 8, UD, 2, UD, 8, 4, 2, false, true, false),
];
