//! The ALU: operands (regions, indirect addressing, align16 swizzles and
//! write masks), the execution mask and predication, type conversion,
//! saturation, conditional modifiers and the per-opcode arithmetic.
//!
//! Values are carried per channel in an execution domain: integers as
//! `i64` (wide enough for every integer type, the 33-bit `addc`/`subb`
//! results and the 64-bit products of `mul`/`mach`), single floats as
//! `f32` bits, doubles as `f64` bits.

use half::f16;

use super::float::{f64_to_f32, flush32, flush64, round_int_f64, tr, two_sum, Rnd};
use super::state::{Thread, ACC_SLOTS, GRF_FILE_BYTES};
use super::SimError;
use crate::isa::{arf, cr0, GRF_BYTES, IVB_DF_CHANNELS};
use crate::model::{
    AccessMode, Addr, CondMod, Controls, FlagReg, Instruction, MathFunction, Opcode, Platform, PredCtrl, RegFile, Src,
    SrcMods, Type,
};

/// Channels an instruction can have.
pub(crate) use crate::isa::MAX_CHANNELS as MAX_CH;

/// The execution domain of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dom {
    Int,
    F32,
    F64,
}

/// An instruction's channel geometry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geo {
    /// Channels (DF channels on Ivy Bridge: half the execution size).
    pub n: u32,
    /// The first channel (quarter and nibble control).
    pub first: u32,
    /// Ivy Bridge DF: regions count 32-bit elements, and DF channel `j`
    /// takes execution-mask and flag bit `first + j % 4` (see [`Geo::bit`]).
    pub ivb_df: bool,
}

impl Geo {
    /// The geometry of `i` on `p`.
    pub(crate) fn of(p: Platform, i: &Instruction) -> Geo {
        let exec = i.exec_size.channels();
        // Ivy Bridge (not Haswell) DF: "Each DF operand uses an element
        // size of 4 rather than 8 and all regioning parameters are twice
        // what the values would be based on the true element size:
        // ExecSize, Width, HorzStride, and VertStride. Each DF operand
        // uses a pair of channels" (the IVB PRM as quoted in the Beignet
        // review of 64-bit float support, and Mesa's `verx10 == 70`
        // doubling of a DF instruction's execution size). Mesa doubles
        // Width and VertStride but keeps HorzStride 1; `src_addr` and
        // `dst_addr` follow Mesa.
        let uses_df =
            i.dst.ty == Type::DF || (0..i.num_srcs() as usize).any(|k| i.src.get(k).is_some_and(|s| s.ty == Type::DF));
        let ivb_df = p == Platform::Gen7 && uses_df && exec >= 2;
        Geo {
            n: if ivb_df { exec / 2 } else { exec },
            first: i.first_channel(),
            ivb_df,
        }
    }

    /// The execution-mask (and flag) channel of channel `i`.
    ///
    /// Ivy Bridge DF: the DF execution is four channels wide, and DF
    /// channel `i` takes bit `first + i % 4`, where `first` counts
    /// quarter and nibble control as for 32-bit code (NibCtrl too, although
    /// the encoded execution size is 8). The second half of a compressed
    /// DF instruction (encoded SIMD16, eight DF channels) reuses the first
    /// half's four bits. This is the hardware Mesa's elk compiler is
    /// written for and tested on: it lowers every DF instruction under the
    /// execution mask to SIMD4 on IVB/BYT "because HW applies the same
    /// channel enable signals to both halves of the compressed
    /// instruction" and "the hardware shifts exactly ... 4 [channels per
    /// compressed half] in double-precision" (`get_fpu_lowered_simd_width`),
    /// doubles only the encoded execution size, sets quarter and nibble
    /// control from the logical channel group, and predicates on the flag
    /// bits 32-bit code uses (elk_fs_generator.cpp); Beignet's reviewer
    /// likewise says "we need to use NibCtrl bit to help to choose correct
    /// flags channel". The IVB PRM's "Each DF operand uses a pair of
    /// channels and all masking and swizzling should be adjusted
    /// appropriately" reads otherwise (bits `2i`, `2i + 1`); the two
    /// disagree, and we take Mesa's reading: its code runs on the hardware,
    /// and the PRM's pair sentence is borne out for regions (element size
    /// 4, region parameters doubled, `src_addr`), its masking clause read as
    /// the software's duty to place the channel group.
    #[inline]
    pub(crate) fn bit(&self, i: u32) -> u32 {
        if self.ivb_df {
            self.first + i % IVB_DF_CHANNELS
        } else {
            self.first + i
        }
    }

    /// The channels of `mask` (absolute channel bits) this instruction
    /// covers, as bits 0..n.
    #[inline]
    pub(crate) fn rel(&self, mask: u32) -> u32 {
        // Channel i at bit first + i: a shift.
        if !self.ivb_df {
            return if self.first < 32 {
                (mask >> self.first) & low(self.n)
            } else {
                0
            };
        }
        let mut r = 0;
        for i in 0..self.n {
            let b = self.bit(i);
            if b < 32 && mask >> b & 1 != 0 {
                r |= 1 << i;
            }
        }
        r
    }

    /// The absolute channel bits of relative channels `rel`.
    #[inline]
    pub(crate) fn abs(&self, rel: u32) -> u32 {
        if !self.ivb_df {
            return if self.first < 32 {
                (u64::from(rel & low(self.n)) << self.first) as u32
            } else {
                0
            };
        }
        let mut r = 0;
        for i in 0..self.n {
            let b = self.bit(i);
            if b < 32 && rel >> i & 1 != 0 {
                r |= 1 << b;
            }
        }
        r
    }
}

/// The bit of channel bit `ch` of flag subregister `f` in
/// [`Thread::flag_bits`]: f0.0, f0.1, f1.0 and f1.1 start at bits 0, 16,
/// 32 and 48.
#[inline]
pub(crate) fn flag_bit_index(f: FlagReg, ch: u32) -> u32 {
    u32::from(f.nr & 1) * 32 + u32::from(f.subnr & 1) * 16 + ch
}

/// Channels 0..n as a mask.
#[inline]
pub(crate) const fn low(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

/// The context of one instruction's execution.
pub(crate) struct Ctx<'a> {
    pub p: Platform,
    pub t: &'a mut Thread,
    pub i: &'a Instruction,
    pub offset: u32,
    pub geo: Geo,
}

/// Where a register operand lives.
#[derive(Clone, Copy, Debug)]
enum Space {
    Grf,
    Null,
    /// acc0 or acc1 (the number).
    Acc(u8),
    /// Another architecture register, by its ARF number.
    Arf(u8),
}

fn space(file: RegFile, addr: Addr) -> Space {
    match (file, addr) {
        (RegFile::Arf, Addr::Direct { nr, .. }) => match arf::class(nr) {
            arf::NULL => Space::Null,
            arf::ACC => Space::Acc(nr & arf::NUMBER_MAX),
            _ => Space::Arf(nr),
        },
        _ => Space::Grf,
    }
}

impl Ctx<'_> {
    pub(crate) fn unsupported(&self, what: &'static str) -> SimError {
        SimError::Unsupported {
            offset: self.offset,
            what,
        }
    }

    fn out_of_range(&self, operand: &'static str, byte: i64) -> SimError {
        SimError::RegisterOutOfRange {
            offset: self.offset,
            operand,
            byte,
        }
    }

    /// `cr0.0`.
    pub(crate) fn cr0(&self) -> u32 {
        self.t.cr0()
    }

    pub(crate) fn rnd(&self) -> Rnd {
        Rnd::of_cr0(self.cr0())
    }

    /// The address register `a0.<k>`, if the platform has it.
    fn a0(&self, k: u32) -> Result<i64, SimError> {
        if k >= u32::from(self.p.addr_subregs()) {
            return Err(self.unsupported("an address subregister the platform does not have"));
        }
        Ok(i64::from(self.t.a0(k as u8)))
    }

    /// Align16 with a 64-bit operand (DF, and Q/UQ on Gen8): the byte
    /// addresses of the low and the high dword of channel `i`'s element
    /// of source `s`.
    ///
    /// The align16 hardware swizzles 32-bit components only (Mesa's
    /// `apply_logical_swizzle`: "The align16 hardware can only do 32-bit
    /// swizzle channels"; IGC's `FixAlign16Inst` and IGA's decoder read
    /// `.xyxy`/`.zwzw` of a DF source as the double at byte 0/8 of the
    /// 16-byte group). So the four components of a group are the four
    /// dwords of 16 bytes, which hold two 64-bit channels: channel `i`
    /// is half `i % 2` of group `i / 2`, its low dword the component that
    /// swizzle selector `2 * (i % 2)` names and its high dword selector
    /// `2 * (i % 2) + 1`'s. A group starts VertStride elements after the
    /// previous one (Mesa writes `<2>` for a packed DF operand on Haswell
    /// and Broadwell; on Ivy Bridge, where DF regions count 32-bit units,
    /// `<4>`); a 3-source operand, which has no VertStride field, steps 16
    /// bytes a group (IGA reads an `.xyzw` DF 3-source operand as the
    /// packed `<2;1>`), or 0 replicated. On Ivy Bridge a DF channel is two
    /// execution channels (see [`Geo`]) and the same formula holds.
    fn a16_wide_addrs(&self, s: &Src, i: u32) -> Result<(i64, i64), SimError> {
        let base = match s.addr {
            Addr::Direct { nr, subnr } => reg_base(s.file, nr) + i64::from(subnr),
            Addr::Indirect { subnr, imm } => self.a0(u32::from(subnr))? + i64::from(imm),
        };
        let group = if self.i.opcode.is_three_src() {
            if s.region == crate::model::Region::SCALAR {
                0
            } else {
                i64::from(A16_GROUP_BYTES)
            }
        } else {
            let v = s
                .region
                .vstride_elems()
                .ok_or_else(|| self.unsupported("an align16 source with VxH or a reserved vertical stride"))?;
            let unit = if self.geo.ivb_df { 4 } else { 8 };
            i64::from(v) * unit
        };
        let row = base + i64::from(i / 2) * group;
        let half = 2 * (i % 2);
        Ok((
            row + 4 * i64::from(s.swizzle.get(half)),
            row + 4 * i64::from(s.swizzle.get(half + 1)),
        ))
    }

    /// The byte address of channel `i`'s element of source `s` (in its
    /// space: the register file for GRF, the register for ARF).
    fn src_addr(&self, s: &Src, i: u32, size: u32) -> Result<i64, SimError> {
        let size_i = i64::from(size);
        if self.i.access_mode == AccessMode::Align16 {
            let v = s
                .region
                .vstride_elems()
                .ok_or_else(|| self.unsupported("an align16 source with VxH or a reserved vertical stride"))?;
            let base = match s.addr {
                Addr::Direct { nr, subnr } => reg_base(s.file, nr) + i64::from(subnr),
                Addr::Indirect { subnr, imm } => self.a0(u32::from(subnr))? + i64::from(imm),
            };
            let v = if self.geo.ivb_df { v / 2 } else { v };
            return Ok(base + (i64::from(i / 4) * i64::from(v) + i64::from(s.swizzle.get(i % 4))) * size_i);
        }
        let w = s
            .region
            .width_elems()
            .ok_or_else(|| self.unsupported("a reserved region width"))?;
        let h = s.region.hstride_elems();
        let vx = s.region.is_vxh();
        let v = if vx {
            0
        } else {
            s.region
                .vstride_elems()
                .ok_or_else(|| self.unsupported("a reserved vertical stride"))?
        };
        // Ivy Bridge DF: the region counts 32-bit elements and the
        // hardware runs two float channels a DF channel, so channel `i`
        // starts at float channel 2i of the encoded region, in 4-byte
        // steps (the IVB PRM's "regioning parameters ... are in terms of
        // floats"). Mesa's elk generator doubles only ExecSize, Width and
        // VertStride and asserts HorzStride 1, which makes a float pair
        // adjacent; the PRM's wider wording (HorzStride twice too) is not
        // what Mesa emits, and we follow Mesa.
        let (i, size_i) = if self.geo.ivb_df {
            (2 * i, size_i.min(4))
        } else {
            (i, size_i)
        };
        let (row, col) = (i / w, i % w);
        match s.addr {
            Addr::Direct { nr, subnr } => Ok(reg_base(s.file, nr)
                + i64::from(subnr)
                + (i64::from(row) * i64::from(v) + i64::from(col) * i64::from(h)) * size_i),
            Addr::Indirect { subnr, imm } => {
                if vx {
                    // VxH (Vx1 is its width-1 case): one address register a
                    // row.
                    Ok(self.a0(u32::from(subnr) + row)? + i64::from(imm) + i64::from(col) * i64::from(h) * size_i)
                } else {
                    Ok(self.a0(u32::from(subnr))?
                        + i64::from(imm)
                        + (i64::from(row) * i64::from(v) + i64::from(col) * i64::from(h)) * size_i)
                }
            }
        }
    }

    /// The raw bits of source `k`'s element for channel `i` (zero-extended).
    pub(crate) fn read_src_raw(&mut self, k: usize, i: u32) -> Result<u64, SimError> {
        let s = *self.i.src.get(k).ok_or_else(|| self.unsupported("a fourth source"))?;
        if s.is_imm() {
            let (ty, v) = self.i.imm_value().unwrap_or((s.ty, self.i.imm));
            return Ok(match ty {
                // Vector immediates: eight 4-bit integers, four 8-bit
                // restricted floats, channel i taking element i mod n.
                Type::V | Type::UV => (v >> ((i % 8) * 4)) & 0xf,
                Type::VF => (v >> ((i % 4) * 8)) & 0xff,
                Type::HF => v & 0xffff,
                _ => v,
            });
        }
        let size = s.ty.size();
        let which = SRC_NAMES.get(k).copied().unwrap_or("src");
        if size == 8 && self.i.access_mode == AccessMode::Align16 {
            return self.read_a16_wide(&s, i, which);
        }
        match space(s.file, s.addr) {
            Space::Null => Ok(0),
            Space::Grf => {
                let a = self.src_addr(&s, i, size)?;
                read_grf(self.t, a, size).ok_or_else(|| self.out_of_range(which, a))
            }
            Space::Acc(n) => {
                let a = self.src_addr(&s, i, size)? + i64::from(n) * i64::from(GRF_BYTES);
                let slot = acc_slot(a, size).ok_or_else(|| self.out_of_range(which, a))?;
                Ok(self.t.acc(slot) & mask_bits(size))
            }
            Space::Arf(nr) => {
                let a = self.src_addr(&s, i, size)?;
                let offset = self.offset;
                let b = self.t.arf_bytes_mut(nr).ok_or(SimError::Unsupported {
                    offset,
                    what: "an architecture register the simulator does not model",
                })?;
                read_bytes(b, a, size).ok_or(SimError::Unsupported {
                    offset,
                    what: "an access past the end of an architecture register",
                })
            }
        }
    }

    /// An align16 64-bit source element: its two dwords, each where its
    /// swizzle component names (see [`Ctx::a16_wide_addrs`]).
    fn read_a16_wide(&mut self, s: &Src, i: u32, which: &'static str) -> Result<u64, SimError> {
        let (lo, hi) = self.a16_wide_addrs(s, i)?;
        match space(s.file, s.addr) {
            Space::Null => Ok(0),
            Space::Grf => {
                let l = read_grf(self.t, lo, 4).ok_or_else(|| self.out_of_range(which, lo))?;
                let h = read_grf(self.t, hi, 4).ok_or_else(|| self.out_of_range(which, hi))?;
                Ok(l | h << 32)
            }
            Space::Acc(n) => {
                if hi != lo + 4 {
                    return Err(
                        self.unsupported("an align16 64-bit accumulator source with a swizzle that splits its halves")
                    );
                }
                let a = lo + i64::from(n) * i64::from(GRF_BYTES);
                let slot = acc_slot(a, 8).ok_or_else(|| self.out_of_range(which, a))?;
                Ok(self.t.acc(slot))
            }
            Space::Arf(nr) => {
                let offset = self.offset;
                let b = self.t.arf_bytes_mut(nr).ok_or(SimError::Unsupported {
                    offset,
                    what: "an architecture register the simulator does not model",
                })?;
                match (read_bytes(b, lo, 4), read_bytes(b, hi, 4)) {
                    (Some(l), Some(h)) => Ok(l | h << 32),
                    _ => Err(SimError::Unsupported {
                        offset,
                        what: "an access past the end of an architecture register",
                    }),
                }
            }
        }
    }

    /// Source `k` for channel `i` in domain `dom`, with its modifiers.
    fn read_src(&mut self, k: usize, i: u32, dom: Dom) -> Result<u64, SimError> {
        let raw = self.read_src_raw(k, i)?;
        let s = self.i.src.get(k).copied().unwrap_or_default();
        let v = self.convert_in(s.ty, raw, dom);
        Ok(apply_mods(v, s.mods, dom, self.i.opcode.is_logic(), s.ty == Type::UQ))
    }

    /// Converts raw bits of type `ty` to domain `dom`.
    pub(crate) fn convert_in(&self, ty: Type, raw: u64, dom: Dom) -> u64 {
        let cr = self.cr0();
        match dom {
            Dom::Int => match ty {
                t if t.is_int() => int_of(t, raw) as u64,
                // A float in an integer operation (logic on float
                // operands): its bits.
                _ => raw,
            },
            Dom::F32 => {
                let f = match ty {
                    Type::F => f32_in(f32::from_bits(raw as u32), cr),
                    Type::HF => hf_in(raw, cr, self.p),
                    Type::VF => vf(raw as u8),
                    Type::DF => f64_to_f32(f64_in(f64::from_bits(raw), cr), 0.0, self.rnd()),
                    t => {
                        let x = int_wide(t, raw);
                        let d = x as f64;
                        let err = if d.is_finite() && (d as i128) != x {
                            (x - d as i128).signum() as f64
                        } else {
                            0.0
                        };
                        f64_to_f32(d, err, self.rnd())
                    }
                };
                u64::from(f.to_bits())
            }
            Dom::F64 => {
                let f = match ty {
                    Type::DF => f64_in(f64::from_bits(raw), cr),
                    Type::F => f64::from(f32_in(f32::from_bits(raw as u32), cr)),
                    Type::HF => f64::from(hf_in(raw, cr, self.p)),
                    Type::VF => f64::from(vf(raw as u8)),
                    t => int_wide(t, raw) as f64,
                };
                f.to_bits()
            }
        }
    }

    /// Converts a domain value to raw bits of type `ty`, saturating when
    /// `sat` (to [0, 1] for a float type, to the type's range for an
    /// integer one; float-to-integer conversion always saturates and
    /// rounds toward zero). An integer-domain value is unsigned 64-bit
    /// when `unsigned` (a UQ computation: its bits, not an `i64`).
    pub(crate) fn convert_out(&self, dom: Dom, v: u64, ty: Type, sat: bool, unsigned: bool) -> u64 {
        let cr = self.cr0();
        let rnd = self.rnd();
        if ty.is_int() {
            let x: i128 = match dom {
                Dom::Int => int_dom(v, unsigned),
                Dom::F32 => f_to_int(f64::from(f32::from_bits(v as u32))),
                Dom::F64 => f_to_int(f64::from_bits(v)),
            };
            let (lo, hi) = int_range(ty);
            let x = if sat || dom != Dom::Int { x.clamp(lo, hi) } else { x };
            return (x as u64) & mask_bits(ty.size());
        }
        // Float destination.
        let f64v = match dom {
            Dom::Int => {
                let x = int_dom(v, unsigned);
                match ty {
                    Type::DF => x as f64,
                    _ => {
                        let d = x as f64;
                        let err = if d.is_finite() && (d as i128) != x {
                            (x - d as i128).signum() as f64
                        } else {
                            0.0
                        };
                        f64::from(f64_to_f32(d, err, rnd))
                    }
                }
            }
            Dom::F32 => f64::from(f32::from_bits(v as u32)),
            Dom::F64 => f64::from_bits(v),
        };
        let clamp = |x: f64| {
            if sat {
                if x.is_nan() {
                    0.0
                } else {
                    x.clamp(0.0, 1.0)
                }
            } else {
                x
            }
        };
        match ty {
            Type::DF => {
                let x = clamp(f64v);
                let x = if cr & cr0::DP_DENORM_RETAIN == 0 { flush64(x) } else { x };
                x.to_bits()
            }
            Type::HF => {
                let x = clamp(f64v);
                let h = if dom == Dom::F64 {
                    f16::from_f64(x)
                } else {
                    f16::from_f32(x as f32)
                };
                let h = if self.p.is_gen8() && cr & cr0::HF_DENORM_RETAIN == 0 && is_sub16(h) {
                    f16::from_bits(h.to_bits() & 0x8000)
                } else {
                    h
                };
                u64::from(h.to_bits())
            }
            _ => {
                let x = if dom == Dom::F64 {
                    f64_to_f32(f64v, 0.0, rnd)
                } else {
                    f64v as f32
                };
                let x = if sat {
                    if x.is_nan() {
                        0.0
                    } else {
                        x.clamp(0.0, 1.0)
                    }
                } else {
                    x
                };
                let x = if cr & cr0::SP_DENORM_RETAIN == 0 { flush32(x) } else { x };
                u64::from(x.to_bits())
            }
        }
    }

    /// The destination's byte address for channel `i` (in its space), or
    /// `None` when an align16 write mask leaves the channel's component.
    fn dst_addr(&self, i: u32, size: u32) -> Result<Option<i64>, SimError> {
        let d = &self.i.dst;
        let size_i = i64::from(size);
        let base = match d.addr {
            Addr::Direct { nr, subnr } => reg_base(d.file, nr) + i64::from(subnr),
            Addr::Indirect { subnr, imm } => self.a0(u32::from(subnr))? + i64::from(imm),
        };
        if self.i.access_mode == AccessMode::Align16 {
            // A 64-bit channel is enabled by its two 32-bit components'
            // bits (see `a16_wide_addrs`; `write_dst` writes the halves
            // whose bits are set).
            let bits = if size == 8 { 3 << (2 * (i % 2)) } else { 1 << (i % 4) };
            if d.writemask.bits() & bits == 0 {
                return Ok(None);
            }
            return Ok(Some(base + i64::from(i) * size_i));
        }
        let h = d.hstride_elems();
        if self.geo.ivb_df {
            // Float channel 2i, as for a source (see `src_addr`): a DF
            // destination of HorzStride 1 is packed, and a narrower one
            // lands every other float (Mesa's elk generator sets a DF-to-F
            // destination's HorzStride to 1 because "IVB/BYT actually
            // writes two F components per SIMD channel").
            return Ok(Some(base + i64::from(2 * i) * i64::from(h) * size_i.min(4)));
        }
        Ok(Some(base + i64::from(i) * i64::from(h) * size_i))
    }

    /// Writes `raw` (of the destination type) and, for an accumulator
    /// destination, the wide value `wide`, for channel `i`.
    pub(crate) fn write_dst(&mut self, i: u32, raw: u64, wide: u64, extra: i64) -> Result<(), SimError> {
        let d = self.i.dst;
        let size = d.ty.size();
        let Some(a) = self.dst_addr(i, size)? else {
            return Ok(());
        };
        let a = a + extra;
        // Align16 64-bit: the write mask enables each 32-bit half apart.
        let (a, size, raw) = if size == 8 && self.i.access_mode == AccessMode::Align16 {
            match d.writemask.bits() >> (2 * (i % 2)) & 3 {
                1 => (a, 4, raw & 0xffff_ffff),
                2 => (a + 4, 4, raw >> 32),
                _ => (a, size, raw),
            }
        } else {
            (a, size, raw)
        };
        match space(d.file, d.addr) {
            Space::Null => Ok(()),
            Space::Grf => {
                if write_grf(self.t, a, size, raw) {
                    Ok(())
                } else {
                    Err(self.out_of_range("dst", a))
                }
            }
            Space::Acc(n) => {
                let a = a + i64::from(n) * i64::from(GRF_BYTES);
                let slot = acc_slot(a, size).ok_or_else(|| self.out_of_range("dst", a))?;
                self.t.set_acc(slot, if d.ty.is_int() { wide } else { raw });
                Ok(())
            }
            Space::Arf(nr) => {
                let b = self.t.arf_bytes_mut(nr).ok_or(SimError::Unsupported {
                    offset: self.offset,
                    what: "an architecture register the simulator does not model",
                })?;
                if write_bytes(b, a, size, raw) {
                    Ok(())
                } else {
                    Err(self.unsupported("an access past the end of an architecture register"))
                }
            }
        }
    }

    /// Source `k`'s element of channel `ch`, its low 32 bits.
    pub(crate) fn read_ud(&mut self, k: usize, ch: u32) -> Result<u32, SimError> {
        Ok(self.read_src_raw(k, ch)? as u32)
    }

    /// Writes `v` to the destination's element of channel `ch`.
    pub(crate) fn write_ud(&mut self, ch: u32, v: u32) -> Result<(), SimError> {
        self.write_dst(ch, u64::from(v), u64::from(v), 0)
    }

    /// The flag bit of channel bit `ch` in the instruction's flag
    /// subregister.
    fn flag_bit(&self, f: FlagReg, ch: u32) -> bool {
        let b = flag_bit_index(f, ch);
        b < 64 && self.t.flag_bits() >> b & 1 != 0
    }

    /// Sets the flag bit of channel bit `ch`.
    pub(crate) fn set_flag_bit(&mut self, f: FlagReg, ch: u32, v: bool) {
        let b = flag_bit_index(f, ch);
        if b < 64 {
            let all = self.t.flag_bits() & !(1 << b) | u64::from(v) << b;
            self.t.set_flag_bits(all);
        }
    }

    /// The predicate of relative channels 0..n (all ones without one).
    pub(crate) fn predicate(&self) -> Result<u32, SimError> {
        let c = match self.i.pred_ctrl() {
            Ok(None) => return Ok(low(self.geo.n)),
            Ok(Some(c)) => c,
            Err(_) => return Err(self.unsupported("a reserved predicate control")),
        };
        let f = self.i.flag;
        // The common case, the channels' bits read at once (as
        // `flag_bit` reads each).
        if c == PredCtrl::Normal && !self.geo.ivb_df {
            let s = flag_bit_index(f, self.geo.first);
            let m = if s < 64 {
                (self.t.flag_bits() >> s) as u32 & low(self.geo.n)
            } else {
                0
            };
            return Ok(if self.i.controls.contains(Controls::PRED_INV) {
                !m & low(self.geo.n)
            } else {
                m
            });
        }
        let mut m = 0;
        for i in 0..self.geo.n {
            let ch = self.geo.bit(i);
            let group = |g: u32, all: bool| {
                let base = ch - ch % g;
                let mut acc = all;
                for k in base..base + g {
                    let b = self.flag_bit(f, k);
                    acc = if all { acc && b } else { acc || b };
                }
                acc
            };
            let v = match c {
                PredCtrl::Normal => self.flag_bit(f, ch),
                PredCtrl::Any2h => group(2, false),
                PredCtrl::All2h => group(2, true),
                PredCtrl::Any4h => group(4, false),
                PredCtrl::All4h => group(4, true),
                PredCtrl::Any8h => group(8, false),
                PredCtrl::All8h => group(8, true),
                PredCtrl::Any16h => group(16, false),
                PredCtrl::All16h => group(16, true),
                PredCtrl::Any32h => group(32, false),
                PredCtrl::All32h => group(32, true),
                // Align16 replication: the group's x, y, z or w flag.
                PredCtrl::X | PredCtrl::Y | PredCtrl::Z | PredCtrl::W => {
                    let comp = match c {
                        PredCtrl::X => 0,
                        PredCtrl::Y => 1,
                        PredCtrl::Z => 2,
                        _ => 3,
                    };
                    self.flag_bit(f, ch - ch % 4 + comp)
                }
                // Align1 "any/all vertical": the channel's bit in each
                // flag subregister, f0.0, f0.1, f1.0 and f1.1.
                PredCtrl::AnyV | PredCtrl::AllV => {
                    let all = self.t.flag_bits();
                    let set = (0..4).filter(|s| all >> (s * 16 + ch % 16) & 1 != 0).count();
                    if c == PredCtrl::AnyV {
                        set > 0
                    } else {
                        set == 4
                    }
                }
                _ => return Err(self.unsupported("a reserved predicate control")),
            };
            if v {
                m |= 1 << i;
            }
        }
        if self.i.controls.contains(Controls::PRED_INV) {
            m = !m & low(self.geo.n);
        }
        Ok(m)
    }
}

const SRC_NAMES: [&str; 3] = ["src0", "src1", "src2"];

/// Bytes of an align16 group of four 32-bit components.
const A16_GROUP_BYTES: u32 = 16;

/// Whether an align16 instruction has both 64-bit and narrower register
/// operands (immediates and a null destination aside): the documents give
/// the channel layout of 64-bit align16 operands (two channels a group of
/// four 32-bit components) and of narrower ones (four a group), not of
/// both in one instruction, and neither Mesa nor IGC emits one.
pub(crate) fn mixes_widths_a16(i: &Instruction) -> bool {
    let (mut wide, mut narrow) = (false, false);
    let mut see = |t: Type| {
        if t.is_64bit() {
            wide = true;
        } else {
            narrow = true;
        }
    };
    if !matches!(space(i.dst.file, i.dst.addr), Space::Null) {
        see(i.dst.ty);
    }
    for k in 0..i.num_srcs() as usize {
        if let Some(s) = i
            .src
            .get(k)
            .filter(|s| !s.is_imm() && !matches!(space(s.file, s.addr), Space::Null))
        {
            see(s.ty);
        }
    }
    wide && narrow
}

/// The even channels of an execution mask (bits 0, 2, 4 ...).
const EVEN_CHANNELS: u32 = 0x5555_5555;

/// The byte address of register `nr`'s start: GRF registers in the file,
/// ARF registers at their own byte 0.
fn reg_base(file: RegFile, nr: u8) -> i64 {
    match file {
        RegFile::Grf => i64::from(nr) * i64::from(GRF_BYTES),
        _ => 0,
    }
}

fn mask_bits(size: u32) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    }
}

/// The accumulator slot of byte address `a` (acc1 from byte 32).
fn acc_slot(a: i64, size: u32) -> Option<usize> {
    let s = usize::try_from(a).ok()? / size.max(1) as usize;
    (s < ACC_SLOTS && a % i64::from(size.max(1)) == 0).then_some(s)
}

fn read_bytes(b: &[u8], a: i64, size: u32) -> Option<u64> {
    let a = usize::try_from(a).ok()?;
    let s = b.get(a..a.checked_add(size as usize)?)?;
    let mut v = [0u8; 8];
    v.get_mut(..s.len())?.copy_from_slice(s);
    Some(u64::from_le_bytes(v))
}

fn write_bytes(b: &mut [u8], a: i64, size: u32, v: u64) -> bool {
    let Ok(a) = usize::try_from(a) else { return false };
    let Some(end) = a.checked_add(size as usize) else {
        return false;
    };
    match (b.get_mut(a..end), v.to_le_bytes().get(..size as usize)) {
        (Some(d), Some(s)) if d.len() == s.len() => {
            d.copy_from_slice(s);
            true
        }
        _ => false,
    }
}

#[inline]
fn read_grf(t: &Thread, a: i64, size: u32) -> Option<u64> {
    if a < 0 || a + i64::from(size) > GRF_FILE_BYTES as i64 {
        return None;
    }
    read_bytes(&t.grf[..], a, size)
}

#[inline]
fn write_grf(t: &mut Thread, a: i64, size: u32, v: u64) -> bool {
    write_bytes(&mut t.grf[..], a, size, v)
}

/// An integer type's value of raw bits, extended to i64.
pub(crate) fn int_of(ty: Type, raw: u64) -> i64 {
    match ty {
        Type::B => raw as u8 as i8 as i64,
        Type::UB => raw as u8 as i64,
        Type::W => raw as u16 as i16 as i64,
        Type::UW => raw as u16 as i64,
        Type::D => raw as u32 as i32 as i64,
        Type::UD => raw as u32 as i64,
        // A 4-bit vector element: V signed, UV unsigned.
        Type::V => ((raw as u8) << 4) as i8 as i64 >> 4,
        Type::UV => (raw & 0xf) as i64,
        _ => raw as i64,
    }
}

/// An integer type's value of raw bits, exact (a UQ from 2^63 up is not
/// an `i64`).
fn int_wide(ty: Type, raw: u64) -> i128 {
    if ty == Type::UQ {
        i128::from(raw)
    } else {
        i128::from(int_of(ty, raw))
    }
}

/// An integer-domain value (`i64` bits), exact: as unsigned 64-bit when
/// `unsigned`.
fn int_dom(v: u64, unsigned: bool) -> i128 {
    if unsigned {
        i128::from(v)
    } else {
        i128::from(v as i64)
    }
}

/// An integer type's range.
fn int_range(ty: Type) -> (i128, i128) {
    match ty {
        Type::B => (i8::MIN.into(), i8::MAX.into()),
        Type::UB => (0, u8::MAX.into()),
        Type::W => (i16::MIN.into(), i16::MAX.into()),
        Type::UW => (0, u16::MAX.into()),
        Type::D => (i32::MIN.into(), i32::MAX.into()),
        Type::UD => (0, u32::MAX.into()),
        Type::Q => (i64::MIN.into(), i64::MAX.into()),
        Type::UQ => (0, u64::MAX.into()),
        _ => (i128::MIN, i128::MAX),
    }
}

/// Float to integer: toward zero, NaN to 0 (the caller clamps).
fn f_to_int(x: f64) -> i128 {
    if x.is_nan() {
        0
    } else if x >= 1.8e19 {
        i128::from(u64::MAX) + 1
    } else if x <= -1.8e19 {
        i128::from(i64::MIN) - 1
    } else {
        x as i128
    }
}

fn f32_in(x: f32, cr: u32) -> f32 {
    if cr & cr0::SP_DENORM_RETAIN == 0 {
        flush32(x)
    } else {
        x
    }
}

fn f64_in(x: f64, cr: u32) -> f64 {
    if cr & cr0::DP_DENORM_RETAIN == 0 {
        flush64(x)
    } else {
        x
    }
}

/// A half-float denormal (exponent zero, mantissa not).
fn is_sub16(h: f16) -> bool {
    h.to_bits() & 0x7c00 == 0 && h.to_bits() & 0x3ff != 0
}

fn hf_in(raw: u64, cr: u32, p: Platform) -> f32 {
    let h = f16::from_bits(raw as u16);
    let h = if p.is_gen8() && cr & cr0::HF_DENORM_RETAIN == 0 && is_sub16(h) {
        f16::from_bits(h.to_bits() & 0x8000)
    } else {
        h
    };
    h.to_f32()
}

/// A restricted 8-bit float of a VF immediate: sign, 3-bit exponent
/// (bias 3), 4-bit mantissa; 0 and 0x80 are the zeros (Mesa's
/// `brw_vf_to_float`).
pub(crate) fn vf(b: u8) -> f32 {
    if b & 0x7f == 0 {
        return f32::from_bits(u32::from(b) << 24);
    }
    let sign = u32::from(b & 0x80) << 24;
    let e = u32::from(b >> 4 & 7);
    let m = u32::from(b & 0xf);
    f32::from_bits(sign | (e + 124) << 23 | m << 19)
}

/// Applies source modifiers in a domain (for logic opcodes negate is a
/// bitwise not; the absolute value of an unsigned UQ, `unsigned`, is
/// itself).
fn apply_mods(v: u64, m: SrcMods, dom: Dom, logic: bool, unsigned: bool) -> u64 {
    if m.is_empty() {
        return v;
    }
    match dom {
        Dom::Int if logic => {
            if m.contains(SrcMods::NEGATE) {
                !v
            } else {
                v
            }
        }
        Dom::Int => {
            let mut x = v as i64;
            if m.contains(SrcMods::ABS) && !unsigned {
                x = x.wrapping_abs();
            }
            if m.contains(SrcMods::NEGATE) {
                x = x.wrapping_neg();
            }
            x as u64
        }
        Dom::F32 => {
            let mut x = v as u32;
            if m.contains(SrcMods::ABS) {
                x &= !(1 << 31);
            }
            if m.contains(SrcMods::NEGATE) {
                x ^= 1 << 31;
            }
            u64::from(x)
        }
        Dom::F64 => {
            let mut x = v;
            if m.contains(SrcMods::ABS) {
                x &= !(1 << 63);
            }
            if m.contains(SrcMods::NEGATE) {
                x ^= 1 << 63;
            }
            x
        }
    }
}

/// A domain value as f64 (floats) for comparisons.
fn as_f64(dom: Dom, v: u64) -> f64 {
    match dom {
        Dom::F32 => f64::from(f32::from_bits(v as u32)),
        Dom::F64 => f64::from_bits(v),
        Dom::Int => v as i64 as f64,
    }
}

/// Whether `a cm b` holds (for compares; `b` is zero for the result
/// conditions of other instructions). Integer-domain values compare as
/// unsigned 64-bit when `unsigned` (UQ operands).
fn cond_holds(cm: CondMod, dom: Dom, a: u64, b: u64, unsigned: bool) -> bool {
    if dom == Dom::Int {
        let (x, y) = (int_dom(a, unsigned), int_dom(b, unsigned));
        return match cm {
            CondMod::Z => x == y,
            CondMod::Nz => x != y,
            CondMod::G => x > y,
            CondMod::Ge => x >= y,
            CondMod::L => x < y,
            CondMod::Le => x <= y,
            _ => false,
        };
    }
    let (x, y) = (as_f64(dom, a), as_f64(dom, b));
    match cm {
        CondMod::Z => x == y,
        CondMod::Nz => x != y,
        CondMod::G => x > y,
        CondMod::Ge => x >= y,
        CondMod::L => x < y,
        CondMod::Le => x <= y,
        CondMod::U => x.is_nan() || y.is_nan(),
        _ => false,
    }
}

/// The result of one channel.
#[derive(Clone, Copy, Default)]
struct Res {
    v: u64,
    /// A second value: `addc`'s carry or `subb`'s borrow for the
    /// accumulator, the remainder of INT DIV's both.
    extra: Option<u64>,
}

/// Executes an ALU (or math) instruction on the channels of `active`
/// (absolute channel bits); returns the channels that executed.
pub(crate) fn alu(ctx: &mut Ctx<'_>, active: u32) -> Result<u32, SimError> {
    let i = *ctx.i;
    let geo = ctx.geo;
    if i.is_math_macro() {
        return math_macro(ctx, active);
    }
    if i.access_mode == AccessMode::Align16 && mixes_widths_a16(&i) {
        return Err(ctx.unsupported(
            "an align16 instruction mixing 64-bit and narrower register operands (its channel layout is not documented)",
        ));
    }
    let n = geo.n;
    let op = i.opcode;
    let we_all = i.controls.contains(Controls::WE_ALL);
    let emask = if we_all { low(n) } else { geo.rel(active) };
    let pred = ctx.predicate()?;
    let predicated = !matches!(i.pred_ctrl(), Ok(None));
    // A predicated SEL chooses by the predicate; every enabled channel
    // writes.
    let sel_by_pred = op == Opcode::Sel && predicated && i.cond_mod().map_or(true, |c| c == CondMod::None);
    let en = if sel_by_pred { emask } else { emask & pred };
    // SAD2 and SADA2 write the even channels only, each from its own
    // elements and its odd neighbour's (see the opcode's arm below).
    let pair_op = matches!(op, Opcode::Sad2 | Opcode::Sada2);
    let en = if pair_op { en & EVEN_CHANNELS } else { en };

    if op == Opcode::Movi {
        return movi(ctx, en);
    }

    // A raw move: the same type on both sides, no modifier, no
    // saturation and no condition copies the bits (no denormal flush, no
    // NaN change).
    if op == Opcode::Mov
        && i.src[0].ty == i.dst.ty
        && !i.src[0].ty.is_vector_imm()
        && i.src[0].mods.is_empty()
        && !i.controls.contains(Controls::SATURATE)
        && i.cond_mod().map_or(true, |c| c == CondMod::None)
    {
        // Every source element is read before the first write.
        let mut v = [0u64; MAX_CH];
        for (ch, x) in v.iter_mut().enumerate().take(n as usize) {
            if en >> ch & 1 != 0 {
                *x = ctx.read_src_raw(0, ch as u32)?;
            }
        }
        for (ch, &x) in v.iter().enumerate().take(n as usize) {
            if en >> ch & 1 != 0 {
                ctx.write_dst(ch as u32, x, int_of(i.dst.ty, x) as u64, 0)?;
                if i.controls.contains(Controls::ACC_WR) {
                    ctx.t.set_acc(ch, x);
                }
            }
        }
        return Ok(geo.abs(en));
    }
    let nsrc = i.num_srcs() as usize;
    let math = i.math_function();
    let src_ty = |k: usize| i.src.get(k).map_or(Type::UD, |s| s.ty);
    let any = |f: &dyn Fn(Type) -> bool| (0..nsrc).any(|k| f(src_ty(k)));
    // An integer computation on UQ operands holds unsigned 64-bit values
    // (in `i64` bits): they compare and convert as unsigned.
    let uq = any(&|t| t == Type::UQ);
    let mut dom = if any(&|t| t == Type::DF) {
        Dom::F64
    } else if any(&|t| t.is_float()) {
        Dom::F32
    } else {
        Dom::Int
    };
    if op == Opcode::Dim {
        dom = Dom::F64;
    }
    if matches!(op, Opcode::F16to32) {
        dom = Dom::Int;
    }
    // The dot products, line and plane read whole groups.
    let group_op = matches!(op, Opcode::Dp4 | Opcode::Dph | Opcode::Dp3 | Opcode::Dp2);
    let read_mask = if group_op || pair_op { low(n) } else { en };

    let mut s = [[0u64; MAX_CH]; 3];
    for (k, sk) in s.iter_mut().enumerate().take(nsrc.min(3)) {
        if matches!(op, Opcode::Line | Opcode::Pln) && k == 0 {
            continue;
        }
        for (ch, slot) in sk.iter_mut().enumerate().take(n as usize) {
            if read_mask >> ch & 1 != 0 {
                *slot = ctx.read_src(k, ch as u32, dom)?;
            }
        }
    }

    let rnd = ctx.rnd();
    let cm = i.cond_mod().filter(|c| *c != CondMod::None);
    let mut res = [Res::default(); MAX_CH];
    let mut rdom = dom;
    // Line and plane: src0's scalar elements 0, 1 and 3.
    let mut plane = [0f64; 4];
    if matches!(op, Opcode::Line | Opcode::Pln) {
        let s0 = i.src[0];
        let base = ctx.src_addr(&s0, 0, 4)?;
        for (k, p) in plane.iter_mut().enumerate() {
            let a = base + 4 * k as i64;
            let raw = read_grf(ctx.t, a, 4).ok_or_else(|| ctx.out_of_range("src0", a))?;
            *p = f64::from(f32_in(f32::from_bits(raw as u32), ctx.cr0()));
        }
    }
    let f32r = |x: f64, e: f64| u64::from(f64_to_f32(x, e, rnd).to_bits());
    for ch in 0..n as usize {
        // Channel 0 is computed (and discarded) when no channel runs, so
        // that an opcode the simulator does not model fails whatever the
        // mask.
        let compute = en | if group_op { low(n) } else { 0 } | u32::from(en == 0);
        if compute >> ch & 1 == 0 {
            continue;
        }
        let g = |k: usize| s.get(k).and_then(|a| a.get(ch)).copied().unwrap_or(0);
        let (a, b, c) = (g(0), g(1), g(2));
        let fa = as_f64(dom, a);
        let fb = as_f64(dom, b);
        let fc = as_f64(dom, c);
        let fl = |x: f64, e: f64| match dom {
            Dom::F64 => x.to_bits(),
            _ => f32r(x, e),
        };
        let r: Res = match op {
            Opcode::Mov => Res { v: a, extra: None },
            Opcode::Dim => Res { v: i.imm, extra: None },
            Opcode::Sel => {
                let take0 = if sel_by_pred {
                    pred >> ch & 1 != 0
                } else if let Some(c) = cm {
                    if dom != Dom::Int
                        && matches!(c, CondMod::L | CondMod::Le | CondMod::G | CondMod::Ge)
                        && (fa.is_nan() || fb.is_nan())
                    {
                        // min/max: the number, where one is NaN.
                        fb.is_nan()
                    } else {
                        cond_holds(c, dom, a, b, uq)
                    }
                } else {
                    true
                };
                Res {
                    v: if take0 { a } else { b },
                    extra: None,
                }
            }
            Opcode::Csel => {
                let c_ = cm.unwrap_or(CondMod::None);
                Res {
                    v: if cond_holds(c_, dom, c, 0, uq) { a } else { b },
                    extra: None,
                }
            }
            Opcode::Not => Res { v: !a, extra: None },
            Opcode::And => Res { v: a & b, extra: None },
            Opcode::Or => Res { v: a | b, extra: None },
            Opcode::Xor => Res { v: a ^ b, extra: None },
            Opcode::Shl | Opcode::Shr | Opcode::Asr => {
                let bits = if src_ty(0).is_64bit() || i.dst.ty.is_64bit() {
                    64
                } else {
                    32
                };
                let sh = (b as u32) & (bits - 1);
                let m = if bits == 64 { u64::MAX } else { 0xffff_ffff };
                let v = match op {
                    Opcode::Shl => a << sh,
                    Opcode::Shr => (a & m) >> sh,
                    _ => {
                        let x = if bits == 64 { a as i64 } else { a as u32 as i32 as i64 };
                        (x >> sh) as u64
                    }
                };
                Res { v, extra: None }
            }
            Opcode::Cmp | Opcode::Cmpn => {
                let c_ = cm.unwrap_or(CondMod::None);
                let hold = if op == Opcode::Cmpn && dom != Dom::Int && (fa.is_nan() || fb.is_nan()) {
                    // CMPN: a NaN src1 makes the condition true, a NaN
                    // src0 (alone) false (the min/max rule of SEL).
                    fb.is_nan()
                } else {
                    cond_holds(c_, dom, a, b, uq)
                };
                Res {
                    v: u64::from(hold),
                    extra: None,
                }
            }
            Opcode::Bfrev => Res {
                v: u64::from((a as u32).reverse_bits()),
                extra: None,
            },
            Opcode::Bfe => {
                // bfe(width, offset, value), the PRM's pseudo-code.
                let (w, off) = (a as u32 & 31, b as u32 & 31);
                let signed = src_ty(2).is_signed_int();
                let v = if w == 0 {
                    0
                } else if w + off < 32 {
                    let x = (c as u32) << (32 - w - off);
                    if signed {
                        ((x as i32) >> (32 - w)) as i64 as u64
                    } else {
                        u64::from(x >> (32 - w))
                    }
                } else if signed {
                    ((c as u32 as i32) >> off) as i64 as u64
                } else {
                    u64::from(c as u32 >> off)
                };
                Res { v, extra: None }
            }
            Opcode::Bfi1 => {
                let (w, off) = (a as u32 & 31, b as u32 & 31);
                Res {
                    v: u64::from(((1u64 << w) - 1) as u32) << off & 0xffff_ffff,
                    extra: None,
                }
            }
            Opcode::Bfi2 => Res {
                v: (a & b) | (!a & c),
                extra: None,
            },
            Opcode::F32to16 => {
                rdom = Dom::Int;
                Res {
                    v: u64::from(f16::from_f32(f32::from_bits(a as u32)).to_bits()),
                    extra: None,
                }
            }
            Opcode::F16to32 => {
                rdom = Dom::F32;
                Res {
                    v: u64::from(f16::from_bits(a as u16).to_f32().to_bits()),
                    extra: None,
                }
            }
            Opcode::Add => match dom {
                Dom::Int => Res {
                    v: (a as i64).wrapping_add(b as i64) as u64,
                    extra: None,
                },
                _ => {
                    let (x, e) = two_sum(fa, fb);
                    Res {
                        v: fl(x, e),
                        extra: None,
                    }
                }
            },
            Opcode::Mul => match dom {
                Dom::Int => Res {
                    v: (a as i64).wrapping_mul(b as i64) as u64,
                    extra: None,
                },
                // f32 products are exact in f64.
                _ => Res {
                    v: fl(fa * fb, 0.0),
                    extra: None,
                },
            },
            Opcode::Avg => Res {
                v: ((i128::from(a as i64) + i128::from(b as i64) + 1) >> 1) as u64,
                extra: None,
            },
            Opcode::Frc => Res {
                v: fl(fa - round_int_f64(fa, Rnd::Down), 0.0),
                extra: None,
            },
            Opcode::Rndu => Res {
                v: fl(round_int_f64(fa, Rnd::Up), 0.0),
                extra: None,
            },
            Opcode::Rndd => Res {
                v: fl(round_int_f64(fa, Rnd::Down), 0.0),
                extra: None,
            },
            Opcode::Rnde => Res {
                v: fl(round_int_f64(fa, Rnd::Even), 0.0),
                extra: None,
            },
            Opcode::Rndz => Res {
                v: fl(round_int_f64(fa, Rnd::Zero), 0.0),
                extra: None,
            },
            Opcode::Mac => {
                let acc = ctx.t.acc(ch);
                match dom {
                    Dom::Int => Res {
                        v: (acc as i64).wrapping_add((a as i64).wrapping_mul(b as i64)) as u64,
                        extra: None,
                    },
                    Dom::F32 => {
                        let (x, e) = two_sum(f64::from(f32::from_bits(acc as u32)), fa * fb);
                        Res {
                            v: fl(x, e),
                            extra: None,
                        }
                    }
                    Dom::F64 => Res {
                        v: tr::fma(fa, fb, f64::from_bits(acc)).to_bits(),
                        extra: None,
                    },
                }
            }
            Opcode::Mach => {
                // The high 32 bits of the 64-bit product (the result the
                // PRM's MUL-into-acc then MACH sequence computes); the low
                // half goes to the accumulator.
                let signed = src_ty(0).is_signed_int() || src_ty(1).is_signed_int();
                let p = if signed {
                    i128::from(a as u32 as i32) * i128::from(b as u32 as i32)
                } else {
                    i128::from(a as u32) * i128::from(b as u32)
                };
                Res {
                    v: (p >> 32) as u64,
                    extra: Some(p as u32 as u64),
                }
            }
            Opcode::Lzd => Res {
                v: u64::from((a as u32).leading_zeros()),
                extra: None,
            },
            Opcode::Fbh => {
                let x = a as u32;
                let v = if src_ty(0).is_signed_int() {
                    let y = if (x as i32) < 0 { !x } else { x };
                    if y == 0 {
                        u32::MAX
                    } else {
                        y.leading_zeros()
                    }
                } else if x == 0 {
                    u32::MAX
                } else {
                    x.leading_zeros()
                };
                Res {
                    v: u64::from(v),
                    extra: None,
                }
            }
            Opcode::Fbl => {
                let x = a as u32;
                Res {
                    v: u64::from(if x == 0 { u32::MAX } else { x.trailing_zeros() }),
                    extra: None,
                }
            }
            Opcode::Cbit => Res {
                v: u64::from((a as u32).count_ones()),
                extra: None,
            },
            Opcode::Addc => {
                let sum = u64::from(a as u32) + u64::from(b as u32);
                Res {
                    v: sum & 0xffff_ffff,
                    extra: Some(sum >> 32),
                }
            }
            Opcode::Subb => {
                let (x, y) = (a as u32, b as u32);
                Res {
                    v: u64::from(x.wrapping_sub(y)),
                    extra: Some(u64::from(x < y)),
                }
            }
            Opcode::Sad2 | Opcode::Sada2 => {
                // The PRM's SAD2 and SADA2 pseudo-code: for each even
                // channel n, dst.chan[n] = abs(src0.chan[n] -
                // src1.chan[n]) + abs(src0.chan[n+1] - src1.chan[n+1]),
                // plus acc0.chan[n] for SADA2 (which reads the accumulator
                // implicitly: `Opcode::reads_acc_implicitly`, Mesa's
                // `reads_accumulator_implicitly`); the odd channels are
                // not written. The byte sources (B or UB, IGA's OpSpec:
                // "W,UW <- B,UB", "Sum of Absolute Difference 2") are read
                // by their type's sign. The PRM page itself is not in the
                // reference corpus the project searches: IGA and Mesa
                // confirm the types and the accumulator read, not the
                // pairing.
                let next = |k: usize| s.get(k).and_then(|a| a.get(ch + 1)).copied().unwrap_or(0);
                let d0 = (a as i64).wrapping_sub(b as i64).wrapping_abs();
                let d1 = (next(0) as i64).wrapping_sub(next(1) as i64).wrapping_abs();
                let acc = if op == Opcode::Sada2 { ctx.t.acc(ch) as i64 } else { 0 };
                Res {
                    v: acc.wrapping_add(d0).wrapping_add(d1) as u64,
                    extra: None,
                }
            }
            Opcode::Dp4 | Opcode::Dph | Opcode::Dp3 | Opcode::Dp2 => {
                let base = ch - ch % 4;
                let comp = |k: usize, j: usize| s.get(k).and_then(|a| a.get(base + j)).copied().unwrap_or(0);
                let terms = match op {
                    Opcode::Dp4 | Opcode::Dph => 4,
                    Opcode::Dp3 => 3,
                    _ => 2,
                };
                let mut acc = 0f64;
                let mut first = true;
                for j in 0..terms {
                    let prod = if op == Opcode::Dph && j == 3 {
                        as_f64(dom, comp(1, 3))
                    } else {
                        as_f64(dom, fl(as_f64(dom, comp(0, j)) * as_f64(dom, comp(1, j)), 0.0))
                    };
                    acc = if first {
                        prod
                    } else {
                        let (x, e) = two_sum(acc, prod);
                        as_f64(dom, fl(x, e))
                    };
                    first = false;
                }
                Res {
                    v: fl(acc, 0.0),
                    extra: None,
                }
            }
            Opcode::Line | Opcode::Pln => {
                let [p0, p1, _, p3] = plane;
                let x = f64::from(f32::from_bits(b as u32));
                let v = if op == Opcode::Line {
                    p0 * x + p3
                } else {
                    let s1 = i.src[1];
                    let a0 = ctx.src_addr(&s1, ch as u32, 4)? + if n > 8 { 64 } else { 32 };
                    let raw = read_grf(ctx.t, a0, 4).ok_or_else(|| ctx.out_of_range("src1", a0))?;
                    let y = f64::from(f32_in(f32::from_bits(raw as u32), ctx.cr0()));
                    p0 * x + p1 * y + p3
                };
                rdom = Dom::F32;
                Res {
                    v: f32r(v, 0.0),
                    extra: None,
                }
            }
            Opcode::Mad => match dom {
                Dom::Int => Res {
                    v: (a as i64).wrapping_add((b as i64).wrapping_mul(c as i64)) as u64,
                    extra: None,
                },
                Dom::F32 => {
                    // Fused: the f32 product is exact in f64.
                    let (x, e) = two_sum(fa, fb * fc);
                    Res {
                        v: fl(x, e),
                        extra: None,
                    }
                }
                Dom::F64 => Res {
                    v: tr::fma(fb, fc, fa).to_bits(),
                    extra: None,
                },
            },
            Opcode::Lrp => Res {
                v: fl(fb * fa + fc * (1.0 - fa), 0.0),
                extra: None,
            },
            Opcode::Math => math_op(ctx, math, dom, a, b, fa, fb, &mut rdom)?,
            Opcode::Nop | Opcode::Wait => Res::default(),
            // No source the simulator follows says what smov does: IGA's
            // Gen8 model (`ModelGen8.hpp`) gives only its operand form
            // (two sources) and types, Mesa's table neither sources nor a
            // destination, and neither Mesa nor IGC's vISA finalizer
            // emits it with operands whose meaning they state.
            Opcode::Smov => return Err(ctx.unsupported(
                "smov (scattered move): no source the simulator follows defines its operation, only its operand form (IGA: two sources)",
            )),
            _ => return Err(ctx.unsupported("an opcode the simulator does not model")),
        };
        if let Some(x) = res.get_mut(ch) {
            *x = r;
        }
    }

    if matches!(op, Opcode::Nop | Opcode::Wait) {
        return Ok(geo.abs(en));
    }

    // Write back: destination, accumulator, flags.
    let sat = i.controls.contains(Controls::SATURATE);
    let dty = i.dst.ty;
    let writes_flag = op.cond_modifier_writes_flag() && cm.is_some();
    let acc_wr = i.controls.contains(Controls::ACC_WR);
    let both = math == Some(MathFunction::IntDivQuotientAndRemainder);
    for ch in 0..n {
        if en >> ch & 1 == 0 {
            continue;
        }
        let r = res.get(ch as usize).copied().unwrap_or_default();
        let (raw, wide, cond_val) = if op.is_compare() {
            let hold = r.v != 0;
            (if hold { mask_bits(dty.size()) } else { 0 }, u64::from(hold), None)
        } else {
            let raw = ctx.convert_out(rdom, r.v, dty, sat, uq);
            // The condition is evaluated on the saturated result.
            let cv = ctx.convert_in(dty, raw, rdom);
            (raw, r.v, Some(cv))
        };
        ctx.write_dst(ch, raw, wide, 0)?;
        if both {
            if let Some(rem) = r.extra {
                let raw = ctx.convert_out(Dom::Int, rem, dty, sat, false);
                ctx.write_dst(ch, raw, rem, i64::from(GRF_BYTES))?;
            }
        }
        if writes_flag {
            let hold = match cond_val {
                None => r.v != 0,
                Some(v) => match cm {
                    Some(CondMod::O) => rdom != Dom::Int && as_f64(rdom, v).is_infinite(),
                    Some(CondMod::U) => rdom != Dom::Int && as_f64(rdom, v).is_nan(),
                    Some(c) => cond_holds(c, rdom, v, 0, dty == Type::UQ),
                    None => false,
                },
            };
            ctx.set_flag_bit(i.flag, geo.bit(ch), hold);
        }
        match (op, r.extra) {
            (Opcode::Addc | Opcode::Subb, Some(carry)) => ctx.t.set_acc(ch as usize, carry),
            (Opcode::Mach, Some(lo)) if acc_wr => ctx.t.set_acc(ch as usize, lo),
            _ if acc_wr && !op.is_compare() => {
                ctx.t.set_acc(ch as usize, r.v);
            }
            _ => {}
        }
    }
    Ok(geo.abs(en))
}

/// The half GRF within which every channel of a `movi` must address its
/// element (see [`movi`]).
const MOVI_SPAN_BYTES: i64 = GRF_BYTES as i64 / 2;

/// `movi` (move indexed, opcode 3), in the one form a source defines.
///
/// Basis: IGC's vISA finalizer (`visa/Optimizer.cpp`,
/// `Optimizer::doSimplification`) rewrites a raw `mov` whose source is an
/// indirect Vx1 region (one address subregister a channel) into `movi`,
/// keeping the operands and setting the source region to `<1;1,0>`, when
/// the execution size is 8, the source and destination types match
/// without modifiers, the destination is packed (its stride in bytes is
/// the element size) within one GRF, and every channel's address is a
/// 16-byte-aligned base plus a `uv` immediate (0 to 15): the addresses all
/// start in one aligned half GRF. `HWConformity::evenlySplitInst` splits a
/// `movi` as a Vx1 region: channel k of `r[a0.j, imm]` keeps address
/// subregister `a0.(j+k)`. The rewrite is an identity only if `movi`
/// reads, for channel k, the element at `a0.(j+k) + imm`, as that `mov`
/// does: that is what is executed here. IGC's platforms begin with
/// Broadwell, so Ivy Bridge and Haswell are not covered. IGA's Gen8 model
/// (`ModelGen8.hpp`) gives `movi` one source (`BASIC_UNARY_REGIMM`) of
/// type B, UB, W, UW, D, UD or F, the destination's type; Mesa's table
/// counts two (the crate's model follows Mesa), so src1 must be the null
/// register.
///
/// Every other form (another platform, a direct source, another region or
/// type, a modifier, saturation, a conditional modifier, more than 8
/// channels, another destination region, addresses outside one aligned
/// half GRF, a src1) is left to the PRM's MOVI page, which the sources do
/// not restate: a typed [`SimError::Unsupported`] naming the condition.
fn movi(ctx: &mut Ctx<'_>, en: u32) -> Result<u32, SimError> {
    let i = *ctx.i;
    let n = ctx.geo.n;
    let s = i.src[0];
    if !ctx.p.is_gen8() {
        return Err(ctx.unsupported(
            "movi on Ivy Bridge or Haswell: its one source (IGC's finalizer) covers Broadwell and Cherryview only",
        ));
    }
    let Addr::Indirect { subnr, imm } = s.addr else {
        return Err(
            ctx.unsupported("movi with a direct src0: only the indirect r[a0.k]<1;1,0> form IGC emits is defined")
        );
    };
    if i.access_mode != AccessMode::Align1
        || s.file != RegFile::Grf
        || s.region.vstride_elems() != Some(1)
        || s.region.width_elems() != Some(1)
        || s.region.hstride_elems() != 0
    {
        return Err(
            ctx.unsupported("movi with a src0 other than an align1 GRF r[a0.k]<1;1,0>: the only form IGC emits")
        );
    }
    let s1 = i.src[1];
    if s1.is_imm() || !matches!(space(s1.file, s1.addr), Space::Null) {
        return Err(ctx.unsupported(
            "movi with a src1 other than null: IGA gives movi one source, and no source says what a second does",
        ));
    }
    if s.ty != i.dst.ty
        || !matches!(
            s.ty,
            Type::B | Type::UB | Type::W | Type::UW | Type::D | Type::UD | Type::F
        )
        || !s.mods.is_empty()
        || i.controls.contains(Controls::SATURATE)
        || i.cond_mod().is_some_and(|c| c != CondMod::None)
    {
        return Err(ctx.unsupported(
            "movi other than a raw move of one B, UB, W, UW, D, UD or F type (no modifier, saturation or condition)",
        ));
    }
    if n > 8 {
        return Err(ctx.unsupported("movi with more than 8 channels: IGC emits SIMD8 and narrower"));
    }
    let size = s.ty.size();
    let packed_in_one_grf = match i.dst.addr {
        Addr::Direct { subnr, .. } => {
            i.dst.file == RegFile::Grf && i.dst.hstride_elems() == 1 && u32::from(subnr) + n * size <= GRF_BYTES
        }
        Addr::Indirect { .. } => false,
    };
    if !packed_in_one_grf {
        return Err(ctx.unsupported(
            "movi with a destination other than a packed direct GRF region in one register: the only form IGC emits",
        ));
    }
    // Every source element is read before the first write.
    let mut v = [0u64; 8];
    let mut span = None;
    for (ch, x) in v.iter_mut().enumerate().take(n as usize) {
        if en >> ch & 1 == 0 {
            continue;
        }
        let a = ctx.a0(u32::from(subnr) + ch as u32)? + i64::from(imm);
        let half = a.div_euclid(MOVI_SPAN_BYTES);
        if *span.get_or_insert(half) != half {
            return Err(ctx.unsupported(
                "movi whose channels address more than one aligned half GRF: IGC emits movi only within one",
            ));
        }
        *x = read_grf(ctx.t, a, size).ok_or_else(|| ctx.out_of_range("src0", a))?;
    }
    for (ch, &x) in v.iter().enumerate().take(n as usize) {
        if en >> ch & 1 != 0 {
            ctx.write_dst(ch as u32, x, int_of(i.dst.ty, x) as u64, 0)?;
            if i.controls.contains(Controls::ACC_WR) {
                ctx.t.set_acc(ch, x);
            }
        }
    }
    Ok(ctx.geo.abs(en))
}

/// One channel of MATH.
#[allow(clippy::too_many_arguments)]
fn math_op(
    ctx: &Ctx<'_>,
    f: Option<MathFunction>,
    dom: Dom,
    a: u64,
    b: u64,
    fa: f64,
    fb: f64,
    rdom: &mut Dom,
) -> Result<Res, SimError> {
    let f = f.ok_or_else(|| ctx.unsupported("a MATH function code with no function"))?;
    if f.is_int_div() {
        *rdom = Dom::Int;
        let signed = ctx.i.src.first().is_some_and(|s| s.ty.is_signed_int())
            || ctx.i.src.get(1).is_some_and(|s| s.ty.is_signed_int());
        // Division by zero is undefined in the PRM: the simulator gives
        // an all-ones quotient and the dividend as remainder.
        let (q, r) = if signed {
            let (x, y) = (a as u32 as i32, b as u32 as i32);
            if y == 0 {
                (-1i64, i64::from(x))
            } else {
                (i64::from(x.wrapping_div(y)), i64::from(x.wrapping_rem(y)))
            }
        } else {
            let (x, y) = (a as u32, b as u32);
            match (x.checked_div(y), x.checked_rem(y)) {
                (Some(q), Some(r)) => (i64::from(q), i64::from(r)),
                _ => (i64::from(u32::MAX), i64::from(x)),
            }
        };
        return Ok(match f {
            MathFunction::IntDivRemainder => Res {
                v: r as u64,
                extra: None,
            },
            MathFunction::IntDivQuotientAndRemainder => Res {
                v: q as u64,
                extra: Some(r as u64),
            },
            _ => Res {
                v: q as u64,
                extra: None,
            },
        });
    }
    if dom == Dom::Int {
        return Err(ctx.unsupported("a float MATH function on integer operands"));
    }
    let none = || ctx.unsupported("a transcendental MATH function without the std feature");
    let x = match f {
        MathFunction::Inv => 1.0 / fa,
        MathFunction::Sqrt => tr::sqrt(fa).ok_or_else(none)?,
        MathFunction::Rsq => 1.0 / tr::sqrt(fa).ok_or_else(none)?,
        MathFunction::Log => tr::log2(fa).ok_or_else(none)?,
        MathFunction::Exp => tr::exp2(fa).ok_or_else(none)?,
        MathFunction::Sin => tr::sin(fa).ok_or_else(none)?,
        MathFunction::Cos => tr::cos(fa).ok_or_else(none)?,
        MathFunction::Pow => tr::pow(fa, fb).ok_or_else(none)?,
        MathFunction::Fdiv => fa / fb,
        // INVM and RSQRTM run in `mme`; no other code reaches here.
        _ => return Err(ctx.unsupported("a MATH function code the simulator does not model")),
    };
    Ok(Res {
        v: match dom {
            Dom::F64 => x.to_bits(),
            _ => u64::from((x as f32).to_bits()),
        },
        extra: None,
    })
}

use super::mme;
use crate::model::{MathMacro, Swizzle, WriteMask};

/// Executes `madm`, `invm` or `rsqrtm` on the channels of `active`.
pub(super) fn math_macro(ctx: &mut Ctx<'_>, active: u32) -> Result<u32, SimError> {
    let i = *ctx.i;
    let ty = i.dst.ty;
    let f = match ty {
        Type::DF => mme::F64,
        Type::F => mme::F32,
        _ => return Err(ctx.unsupported("a math macro of a type other than DF and F")),
    };
    if i.access_mode != AccessMode::Align16 {
        return Err(ctx.unsupported("an align1 math macro (Gen8's are align16)"));
    }
    let math = i.math_function();
    let nsrc = usize::from(i.num_srcs()).min(3);
    // MATH keeps its function where the conditional modifier would be:
    // INVM and RSQRTM always write the early-out flag. MADM's conditions
    // are not documented.
    let early_out = i.opcode == Opcode::Math;
    if !early_out && i.cond_mod().is_some_and(|c| c != CondMod::None) {
        return Err(ctx.unsupported("a conditional modifier on madm (its meaning is not documented)"));
    }
    if i.controls.contains(Controls::ACC_WR) {
        return Err(ctx.unsupported("a math macro with AccWrEn"));
    }
    let bad = || ctx.unsupported("a math-macro specifier that names no register (9-15)");
    let dm = i.dst.math_macro().ok_or_else(bad)?;
    let sat = i.controls.contains(Controls::SATURATE);
    if sat && dm.register().is_some() {
        return Err(ctx.unsupported("a saturated math macro to an mme register"));
    }
    let mut sm = [MathMacro::NoMme; 3];
    for (k, m) in sm.iter_mut().enumerate().take(nsrc) {
        let s = i.src.get(k).copied().unwrap_or_default();
        if s.is_imm() || s.ty != ty {
            return Err(ctx.unsupported("a math macro with an immediate or a source of another type"));
        }
        *m = s.math_macro().ok_or_else(bad)?;
    }
    // The operands as registers: packed (IGA reads a macro's sources as
    // `<2;1>`/`<1>`, `<4;4,1>` for MATH) and wholly written.
    let mut plain = i;
    plain.dst.writemask = WriteMask::XYZW;
    for s in plain.src.iter_mut() {
        s.swizzle = Swizzle::XYZW;
    }
    let geo = ctx.geo;
    let mut c = Ctx {
        p: ctx.p,
        t: &mut *ctx.t,
        i: &plain,
        offset: ctx.offset,
        geo,
    };
    let n = geo.n;
    let emask = if i.controls.contains(Controls::WE_ALL) {
        low(n)
    } else {
        geo.rel(active)
    };
    let en = emask & c.predicate()?;
    let cr = c.cr0();
    let rnd = c.rnd();
    let flush =
        cr & if ty == Type::DF {
            cr0::DP_DENORM_RETAIN
        } else {
            cr0::SP_DENORM_RETAIN
        } == 0;

    // Every source element is read before the first write.
    let mut v = [[mme::MmeValue::Zero(false); MAX_CH]; 3];
    for (k, vk) in v.iter_mut().enumerate().take(nsrc) {
        let mods = i.src.get(k).map_or(SrcMods::empty(), |s| s.mods);
        for (ch, slot) in vk.iter_mut().enumerate().take(n as usize) {
            if en >> ch & 1 == 0 {
                continue;
            }
            let raw = c.read_src_raw(k, ch as u32)?;
            let bit = geo.bit(ch as u32) as usize;
            let saved = sm
                .get(k)
                .and_then(|m| m.register())
                .and_then(|r| c.t.mme.get(usize::from(r)).and_then(|m| m.get(bit)))
                .filter(|s| s.valid && s.image == raw)
                .map(|s| s.value);
            let mut x = saved.unwrap_or_else(|| mme::MmeValue::from_bits(raw, f, flush));
            if mods.contains(SrcMods::ABS) {
                x = x.abs();
            }
            if mods.contains(SrcMods::NEGATE) {
                x = x.neg();
            }
            *slot = x;
        }
    }

    let bounded = dm.register().is_none();
    for ch in 0..n {
        if en >> ch & 1 == 0 {
            continue;
        }
        let g = |k: usize| v.get(k).and_then(|x| x.get(ch as usize)).copied().unwrap_or_default();
        let (r, fin) = match (i.opcode, math) {
            (Opcode::Madm, _) => (mme::fma(g(0), g(1), g(2), f, bounded, rnd), false),
            (_, Some(MathFunction::Invm)) => mme::invm(g(0), g(1), f),
            _ => mme::rsqrtm(g(0), f),
        };
        let bit = geo.bit(ch);
        let raw = match dm.register() {
            Some(reg) => {
                let value = mme::reround(r, f, false, rnd);
                let image = mme::reround(value, f, true, Rnd::Even).to_bits(f);
                if let Some(s) = c.t.mme.get_mut(usize::from(reg)).and_then(|m| m.get_mut(bit as usize)) {
                    *s = mme::MmeSlot {
                        value,
                        image,
                        valid: true,
                    };
                }
                image
            }
            None => {
                let mut x = mme::reround(r, f, true, rnd);
                // Rounded to the format, a value is normalized unless it
                // is a denormal.
                if let mme::MmeValue::Fin { neg, sig, .. } = x {
                    if flush && sig < 1 << (f.prec - 1) {
                        x = mme::MmeValue::Zero(neg);
                    }
                }
                if sat {
                    x = mme::saturate(x);
                }
                x.to_bits(f)
            }
        };
        c.write_dst(ch, raw, raw, 0)?;
        if early_out {
            c.set_flag_bit(i.flag, bit, fin);
        }
    }
    Ok(geo.abs(en))
}
