//! Operands as values: registers with typed views and regions, and typed
//! immediates.
//!
//! A [`Reg`] is a register of the GRF or of the architecture file with a
//! type, a region, source modifiers and the align16 swizzle and write
//! mask. Its constructors name the register ([`g`], [`null`], [`acc`],
//! [`flag`], [`addr`], [`ip`], [`notification`], [`arf`]); its methods
//! give typed views (`g(12).ud()`), regions (`.vec1()`,
//! `.stride(16, 8, 2)?`), offsets and modifiers. A region or subregister
//! the hardware cannot express is refused when the operand is built.
//!
//! An [`Imm`] is a typed immediate: [`imm_f`], [`imm_d`], [`imm_ud`],
//! [`imm_w`], [`imm_uw`], [`imm_hf`], [`imm_df`], [`imm_q`], [`imm_uq`]
//! and the packed vectors [`imm_v`], [`imm_uv`], [`imm_vf`]. Whether the
//! platform has the type is checked when the instruction is built.

use crate::build::error::BuildError;
use crate::model::{Addr, RegFile, Region, Src, SrcMods, Swizzle, Type, WriteMask};

use crate::isa::arf as arfnr;
use crate::isa::region::{
    HSTRIDE_0, HSTRIDE_1, VSTRIDE_16, VSTRIDE_2, VSTRIDE_4, VSTRIDE_8, WIDTH_1, WIDTH_16, WIDTH_2, WIDTH_4, WIDTH_8,
};

use crate::isa::GRF_BYTES;

/// A register operand: file, number and subregister (or an indirect
/// address), type, region and modifiers.
///
/// ```
/// use geneu::build::g;
/// use geneu::Type;
/// let r = g(12).ud().vec1();
/// assert_eq!((r.nr(), r.ty()), (12, Type::UD));
/// assert!(g(4).stride(3, 1, 0).is_err()); // a vertical stride of 3 has no encoding
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg {
    /// The register as a source operand of the model (its swizzle counts
    /// in align16 only): the constructors copy it whole.
    s: Src,
    writemask: WriteMask,
}

/// `<8;8,1>`, the region of a fresh register.
const VEC8: Region = Region {
    vstride: VSTRIDE_8,
    width: WIDTH_8,
    hstride: HSTRIDE_1,
};

const fn reg(file: RegFile, nr: u8, subnr: u8, ty: Type, region: Region) -> Reg {
    Reg::raw(
        file,
        Addr::Direct { nr, subnr },
        ty,
        region,
        SrcMods::empty(),
        Swizzle::XYZW,
        WriteMask::XYZW,
    )
}

/// General register `g{nr}`: type F, region `<8;8,1>` (Mesa's `brw_vec8_grf`).
/// Registers above g127 are refused when the instruction is built.
///
/// ```
/// let r = geneu::build::g(2);
/// assert_eq!(r.nr(), 2);
/// ```
pub const fn g(nr: u8) -> Reg {
    reg(RegFile::Grf, nr, 0, Type::F, VEC8)
}

/// The null register, type F, region `<8;8,1>` (Mesa's `brw_null_reg`).
///
/// ```
/// assert_eq!(geneu::build::null().ud().ty(), geneu::Type::UD);
/// ```
pub const fn null() -> Reg {
    reg(RegFile::Arf, arfnr::NULL, 0, Type::F, VEC8)
}

/// Accumulator `acc{n}` (0 or 1), type F, region `<8;8,1>`.
///
/// ```
/// assert_eq!(geneu::build::acc(0).nr(), 0x20);
/// ```
pub const fn acc(n: u8) -> Reg {
    reg(RegFile::Arf, arfnr::ACC | (n & arfnr::NUMBER_MAX), 0, Type::F, VEC8)
}

/// Flag subregister `f{nr}.{subnr}` as an operand: type UW, scalar.
///
/// ```
/// let f = geneu::build::flag(1, 0);
/// assert_eq!((f.nr(), f.subnr()), (0x31, 0));
/// ```
pub const fn flag(nr: u8, subnr: u8) -> Reg {
    reg(
        RegFile::Arf,
        arfnr::FLAG | (nr & arfnr::NUMBER_MAX),
        subnr.wrapping_mul(2),
        Type::UW,
        Region::SCALAR,
    )
}

/// Address subregister `a0.{subnr}`: type UW, scalar.
///
/// ```
/// assert_eq!(geneu::build::addr(0).nr(), 0x10);
/// ```
pub const fn addr(subnr: u8) -> Reg {
    reg(
        RegFile::Arf,
        arfnr::ADDRESS,
        subnr.wrapping_mul(2),
        Type::UW,
        Region::SCALAR,
    )
}

/// The instruction pointer `ip`: type UD, region `<4;1,0>` (Mesa's `brw_ip_reg`).
///
/// ```
/// assert_eq!(geneu::build::ip().nr(), 0xa0);
/// ```
pub const fn ip() -> Reg {
    reg(
        RegFile::Arf,
        arfnr::IP,
        0,
        Type::UD,
        Region {
            vstride: VSTRIDE_4,
            width: WIDTH_1,
            hstride: HSTRIDE_0,
        },
    )
}

/// Notification register `n{n}`: type UD, scalar (the operand of WAIT).
///
/// ```
/// assert_eq!(geneu::build::notification(0).nr(), 0x90);
/// ```
pub const fn notification(n: u8) -> Reg {
    reg(
        RegFile::Arf,
        arfnr::NOTIFICATION | (n & arfnr::NUMBER_MAX),
        0,
        Type::UD,
        Region::SCALAR,
    )
}

/// Any architecture register by its encoded number (`0x70` sr0, `0x80`
/// cr0, `0xc0` tm0, ...): type UD, scalar.
///
/// ```
/// assert_eq!(geneu::build::arf(0x70).nr(), 0x70);
/// ```
pub const fn arf(nr: u8) -> Reg {
    reg(RegFile::Arf, nr, 0, Type::UD, Region::SCALAR)
}

macro_rules! views {
    ($($(#[$m:meta])* $name:ident => $t:ident;)*) => {
        $( $(#[$m])* #[inline] pub const fn $name(self) -> Reg { self.retype(Type::$t) } )*
    };
}

impl Reg {
    /// The register file.
    ///
    /// ```
    /// use geneu::build::g;
    /// use geneu::{RegFile, Type};
    /// let r = g(12).ud().subreg(2).unwrap();
    /// assert_eq!((r.file(), r.nr(), r.subnr(), r.ty()), (RegFile::Grf, 12, 8, Type::UD));
    /// ```
    pub const fn file(&self) -> RegFile {
        self.s.file
    }
    /// The register number (for an ARF, its encoded number; 0 for an
    /// [`indirect`] register).
    ///
    /// ```
    /// assert_eq!(geneu::build::g(12).nr(), 12);
    /// ```
    pub const fn nr(&self) -> u8 {
        match self.s.addr {
            Addr::Direct { nr, .. } => nr,
            Addr::Indirect { .. } => 0,
        }
    }
    /// The subregister offset in bytes (for an [`indirect`] register, the
    /// address subregister).
    ///
    /// ```
    /// // Subregister 2 of a dword view is byte 8.
    /// assert_eq!(geneu::build::g(12).ud().subreg(2).unwrap().subnr(), 8);
    /// ```
    pub const fn subnr(&self) -> u8 {
        match self.s.addr {
            Addr::Direct { subnr, .. } | Addr::Indirect { subnr, .. } => subnr,
        }
    }
    /// The address: direct (number and subregister) or indirect (address
    /// subregister and offset).
    ///
    /// ```
    /// use geneu::{build::{g, indirect}, Addr};
    /// assert_eq!(g(3).address(), Addr::Direct { nr: 3, subnr: 0 });
    /// assert_eq!(indirect(1, -32).unwrap().address(), Addr::Indirect { subnr: 1, imm: -32 });
    /// ```
    pub const fn address(&self) -> Addr {
        self.s.addr
    }
    /// The type.
    ///
    /// ```
    /// assert_eq!(geneu::build::g(12).w().ty(), geneu::Type::W);
    /// ```
    pub const fn ty(&self) -> Type {
        self.s.ty
    }
    /// The region (for a destination only its horizontal stride counts).
    ///
    /// ```
    /// use geneu::build::g;
    /// assert_eq!(g(12).vec1().region(), geneu::Region::SCALAR);
    /// ```
    pub const fn region(&self) -> Region {
        self.s.region
    }
    /// Source modifiers.
    ///
    /// ```
    /// use geneu::build::g;
    /// assert_eq!(g(12).neg().abs().mods(), geneu::SrcMods::NEGATE | geneu::SrcMods::ABS);
    /// ```
    pub const fn mods(&self) -> SrcMods {
        self.s.mods
    }
    /// Align16 swizzle.
    ///
    /// ```
    /// use geneu::build::{g, swz, Chan::*};
    /// assert_eq!(g(12).swizzle(swz(X, X, X, X)).swizzle_of(), swz(X, X, X, X));
    /// ```
    pub const fn swizzle_of(&self) -> Swizzle {
        self.s.swizzle
    }
    /// Align16 write mask.
    ///
    /// ```
    /// use geneu::{build::g, WriteMask};
    /// assert_eq!(g(12).writemask(WriteMask::X).writemask_of(), WriteMask::X);
    /// ```
    pub const fn writemask_of(&self) -> WriteMask {
        self.writemask
    }

    /// The same register seen as type `ty` (region and offset unchanged).
    ///
    /// ```
    /// use geneu::{build::g, Type};
    /// assert_eq!(g(3).retype(Type::W).ty(), Type::W);
    /// ```
    pub const fn retype(mut self, ty: Type) -> Reg {
        self.s.ty = ty;
        self
    }

    views! {
        /// Seen as F.
        f => F;
        /// Seen as D.
        d => D;
        /// Seen as UD.
        ud => UD;
        /// Seen as W.
        w => W;
        /// Seen as UW.
        uw => UW;
        /// Seen as B.
        b => B;
        /// Seen as UB.
        ub => UB;
        /// Seen as DF.
        df => DF;
        /// Seen as Q.
        q => Q;
        /// Seen as UQ.
        uq => UQ;
        /// Seen as HF.
        hf => HF;
    }

    pub(crate) const fn with_region(mut self, region: Region) -> Reg {
        self.s.region = region;
        self
    }

    /// The scalar region `<0;1,0>`.
    ///
    /// ```
    /// assert_eq!(geneu::build::g(1).vec1().region(), geneu::Region::SCALAR);
    /// ```
    pub const fn vec1(self) -> Reg {
        self.with_region(Region::SCALAR)
    }
    /// The scalar region `<0;1,0>` (same as [`Reg::vec1`]).
    ///
    /// ```
    /// assert_eq!(geneu::build::g(1).scalar(), geneu::build::g(1).vec1());
    /// ```
    pub const fn scalar(self) -> Reg {
        self.vec1()
    }
    /// `<2;2,1>`.
    ///
    /// ```
    /// assert_eq!(geneu::build::g(1).vec2().region(), geneu::Region::new(2, 2, 1).unwrap());
    /// ```
    pub const fn vec2(self) -> Reg {
        self.with_region(Region {
            vstride: VSTRIDE_2,
            width: WIDTH_2,
            hstride: HSTRIDE_1,
        })
    }
    /// `<4;4,1>`.
    ///
    /// ```
    /// assert_eq!(geneu::build::g(1).vec4().region(), geneu::Region::new(4, 4, 1).unwrap());
    /// ```
    pub const fn vec4(self) -> Reg {
        self.with_region(Region {
            vstride: VSTRIDE_4,
            width: WIDTH_4,
            hstride: HSTRIDE_1,
        })
    }
    /// `<8;8,1>`.
    ///
    /// ```
    /// assert_eq!(geneu::build::g(1).vec1().vec8(), geneu::build::g(1));
    /// ```
    pub const fn vec8(self) -> Reg {
        self.with_region(VEC8)
    }
    /// `<16;16,1>`.
    ///
    /// ```
    /// assert_eq!(geneu::build::g(1).vec16().region(), geneu::Region::new(16, 16, 1).unwrap());
    /// ```
    pub const fn vec16(self) -> Reg {
        self.with_region(Region {
            vstride: VSTRIDE_16,
            width: WIDTH_16,
            hstride: HSTRIDE_1,
        })
    }

    /// The region `<vstride;width,hstride>` in elements; refused if a
    /// value has no encoding. (Whether the region suits the instruction is
    /// the validator's question, asked when the program is finished.)
    ///
    /// ```
    /// use geneu::build::{g, BuildError};
    /// assert!(g(2).stride(16, 8, 2).is_ok());
    /// assert!(matches!(g(2).stride(8, 3, 1), Err(BuildError::Region { width: 3, .. })));
    /// ```
    pub const fn stride(self, vstride: u32, width: u32, hstride: u32) -> Result<Reg, BuildError> {
        match Region::new(vstride, width, hstride) {
            Some(r) => Ok(self.with_region(r)),
            None => Err(BuildError::Region {
                vstride,
                width,
                hstride,
            }),
        }
    }

    /// Subregister `n`, counted in elements of the register's type.
    ///
    /// ```
    /// use geneu::build::g;
    /// assert_eq!(g(2).ud().subreg(3).unwrap().subnr(), 12);
    /// assert!(g(2).ud().subreg(8).is_err()); // byte 32 is the next register
    /// ```
    pub const fn subreg(mut self, n: u32) -> Result<Reg, BuildError> {
        let bytes = n.saturating_mul(self.s.ty.size());
        let Addr::Direct { nr, .. } = self.s.addr else {
            return Err(BuildError::Register {
                what: "subregister",
                value: n as i64,
                why: "an indirect register has an address, not a subregister (see `offset`)",
            });
        };
        if bytes >= GRF_BYTES {
            return Err(BuildError::Register {
                what: "subregister",
                value: n as i64,
                why: "a subregister lies within its 32-byte register",
            });
        }
        self.s.addr = Addr::Direct { nr, subnr: bytes as u8 };
        Ok(self)
    }

    /// The register `n` elements further on (negative: back), crossing
    /// into following registers as needed (Mesa's `suboffset`); for an
    /// [`indirect`] register, the address offset moves.
    ///
    /// ```
    /// use geneu::build::{g, indirect};
    /// use geneu::Addr;
    /// let r = g(2).ud().offset(10).unwrap();
    /// assert_eq!((r.nr(), r.subnr()), (3, 8));
    /// let i = indirect(0, 0).unwrap().ud().offset(2).unwrap();
    /// assert_eq!(i.address(), Addr::Indirect { subnr: 0, imm: 8 });
    /// ```
    pub const fn offset(mut self, n: i32) -> Result<Reg, BuildError> {
        let delta = n as i64 * self.s.ty.size() as i64;
        match self.s.addr {
            Addr::Direct { nr, subnr } => {
                let at = (nr as i64) * GRF_BYTES as i64 + subnr as i64 + delta;
                if at < 0 || at >= 256 * GRF_BYTES as i64 {
                    return Err(BuildError::Register {
                        what: "offset",
                        value: n as i64,
                        why: "the register number would leave 0..=255",
                    });
                }
                self.s.addr = Addr::Direct {
                    nr: (at / GRF_BYTES as i64) as u8,
                    subnr: (at % GRF_BYTES as i64) as u8,
                };
            }
            Addr::Indirect { subnr, imm } => {
                let at = imm as i64 + delta;
                if at < ADDR_IMM_MIN as i64 || at > ADDR_IMM_MAX as i64 {
                    return Err(BuildError::Register {
                        what: "offset",
                        value: n as i64,
                        why: ADDR_OFFSET_RANGE,
                    });
                }
                self.s.addr = Addr::Indirect { subnr, imm: at as i16 };
            }
        }
        Ok(self)
    }

    /// Negated (bitwise not for logic opcodes).
    ///
    /// ```
    /// assert!(geneu::build::g(1).neg().mods().contains(geneu::SrcMods::NEGATE));
    /// ```
    pub const fn neg(mut self) -> Reg {
        self.s.mods = SrcMods::from_bits_retain(self.s.mods.bits() ^ SrcMods::NEGATE.bits());
        self
    }

    /// Absolute value.
    ///
    /// ```
    /// assert!(geneu::build::g(1).abs().mods().contains(geneu::SrcMods::ABS));
    /// ```
    pub const fn abs(mut self) -> Reg {
        self.s.mods = SrcMods::from_bits_retain(self.s.mods.bits() | SrcMods::ABS.bits());
        self
    }

    /// Align16 swizzle (see [`swz`]).
    ///
    /// ```
    /// use geneu::build::{g, swz, Chan::*};
    /// assert_eq!(g(1).swizzle(swz(X, X, X, X)).swizzle_of().0, 0);
    /// ```
    pub const fn swizzle(mut self, s: Swizzle) -> Reg {
        self.s.swizzle = s;
        self
    }

    /// Align16 destination write mask.
    ///
    /// ```
    /// use geneu::{build::g, WriteMask};
    /// assert_eq!(g(1).writemask(WriteMask::X).writemask_of(), WriteMask::X);
    /// ```
    pub const fn writemask(mut self, m: WriteMask) -> Reg {
        self.writemask = m;
        self
    }

    /// The register as a source operand of the model, as given (its
    /// swizzle counts in align16 only).
    #[inline]
    pub(crate) const fn as_src(&self) -> Src {
        self.s
    }

    /// Whether this is the null register.
    pub(crate) const fn is_null(&self) -> bool {
        matches!(self.s.file, RegFile::Arf) && matches!(self.s.addr, Addr::Direct { nr: arfnr::NULL, .. })
    }

    /// Any operand the model can hold, field by field, as the text
    /// assembler reads it (a region's codes are taken as they are: the
    /// text may name codes the builder's constructors refuse).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) const fn raw(
        file: RegFile,
        addr: Addr,
        ty: Type,
        region: Region,
        mods: SrcMods,
        swizzle: Swizzle,
        writemask: WriteMask,
    ) -> Reg {
        Reg {
            s: Src {
                file,
                ty,
                addr,
                region,
                swizzle,
                mods,
            },
            writemask,
        }
    }
}

/// The smallest indirect address offset, in bytes (a signed 10-bit field).
pub(crate) const ADDR_IMM_MIN: i16 = crate::isa::ADDR_IMM_MIN;
/// The largest indirect address offset, in bytes.
pub(crate) const ADDR_IMM_MAX: i16 = crate::isa::ADDR_IMM_MAX;

/// Why an indirect address offset is refused: its range, from the floor.
const ADDR_OFFSET_RANGE: &str =
    crate::decimal::range_text!("an indirect address offset (in bytes) is ", ADDR_IMM_MIN, ADDR_IMM_MAX);

/// A general register addressed indirectly, `g[a0.{subnr} + offset]`:
/// the register whose byte address is address subregister `a0.{subnr}`
/// plus `offset` (Mesa's `brw_vec8_indirect`). `subnr` is the field's
/// value, as a source's text shows it (Mesa prints a destination's in units
/// of its type: `a0.1` of a UD destination is 4). Type F, region `<8;8,1>`;
/// refused: an address subregister above 15 or an offset outside
/// -512..=511 (Gen7's field holds subregisters 0..=7 only: a higher one
/// is refused when the program is encoded).
///
/// ```
/// use geneu::build::{indirect, BuildError};
/// use geneu::Addr;
/// assert_eq!(indirect(2, 64).unwrap().address(), Addr::Indirect { subnr: 2, imm: 64 });
/// assert!(matches!(indirect(0, 600), Err(BuildError::Register { what: "address offset", .. })));
/// ```
pub const fn indirect(subnr: u8, offset: i16) -> Result<Reg, BuildError> {
    if subnr >= crate::isa::ADDR_SUBREGS {
        return Err(BuildError::Register {
            what: "address subregister",
            value: subnr as i64,
            why: "an address subregister is 0..=15",
        });
    }
    if offset < ADDR_IMM_MIN || offset > ADDR_IMM_MAX {
        return Err(BuildError::Register {
            what: "address offset",
            value: offset as i64,
            why: ADDR_OFFSET_RANGE,
        });
    }
    let mut r = g(0);
    r.s.addr = Addr::Indirect { subnr, imm: offset };
    Ok(r)
}

/// An align16 channel selector.
///
/// ```
/// use geneu::build::{swz, Chan};
/// assert_eq!(swz(Chan::W, Chan::Z, Chan::Y, Chan::X).0, 0b00_01_10_11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Chan {
    X = 0,
    Y = 1,
    Z = 2,
    W = 3,
}

/// The swizzle `.xyzw` picking `x`, `y`, `z`, `w` for the four channels.
///
/// ```
/// use geneu::build::{swz, Chan::*};
/// assert_eq!(swz(X, Y, Z, W), geneu::Swizzle::XYZW);
/// ```
pub const fn swz(x: Chan, y: Chan, z: Chan, w: Chan) -> Swizzle {
    Swizzle(x as u8 | (y as u8) << 2 | (z as u8) << 4 | (w as u8) << 6)
}

/// A typed immediate: its type and its bits (the low bits of the type's size).
///
/// ```
/// use geneu::{build::imm_f, Type};
/// assert_eq!(imm_f(1.0).bits(), 0x3f80_0000);
/// assert_eq!(imm_f(1.0).ty(), Type::F);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Imm {
    ty: Type,
    bits: u64,
}

impl Imm {
    /// The type.
    ///
    /// ```
    /// assert_eq!(geneu::build::imm_ud(7).ty(), geneu::Type::UD);
    /// ```
    pub const fn ty(&self) -> Type {
        self.ty
    }
    /// The value's bits (16-bit values are not yet replicated: the
    /// canonical encoding does that).
    ///
    /// ```
    /// assert_eq!(geneu::build::imm_w(-1).bits(), 0xffff);
    /// ```
    pub const fn bits(&self) -> u64 {
        self.bits
    }
    /// An immediate of type `ty` with the given bits (the text
    /// assembler's: its value was range-checked as written).
    #[inline]
    pub(crate) const fn raw(ty: Type, bits: u64) -> Imm {
        Imm { ty, bits }
    }
}

/// F immediate.
///
/// ```
/// assert_eq!(geneu::build::imm_f(-2.0).bits(), 0xc000_0000);
/// ```
pub fn imm_f(v: f32) -> Imm {
    Imm {
        ty: Type::F,
        bits: v.to_bits() as u64,
    }
}
/// D immediate.
///
/// ```
/// assert_eq!(geneu::build::imm_d(-1).bits(), 0xffff_ffff);
/// ```
pub const fn imm_d(v: i32) -> Imm {
    Imm {
        ty: Type::D,
        bits: v as u32 as u64,
    }
}
/// UD immediate.
///
/// ```
/// assert_eq!(geneu::build::imm_ud(7).bits(), 7);
/// ```
pub const fn imm_ud(v: u32) -> Imm {
    Imm {
        ty: Type::UD,
        bits: v as u64,
    }
}
/// W immediate (replicated into both halves of the dword when encoded).
///
/// ```
/// assert_eq!(geneu::build::imm_w(-1).bits(), 0xffff);
/// ```
pub const fn imm_w(v: i16) -> Imm {
    Imm {
        ty: Type::W,
        bits: v as u16 as u64,
    }
}
/// UW immediate (replicated into both halves of the dword when encoded).
///
/// ```
/// assert_eq!(geneu::build::imm_uw(5).bits(), 5);
/// ```
pub const fn imm_uw(v: u16) -> Imm {
    Imm {
        ty: Type::UW,
        bits: v as u64,
    }
}
/// HF immediate from its 16 bits (Gen8; replicated when encoded).
///
/// ```
/// assert_eq!(geneu::build::imm_hf(0x3c00).ty(), geneu::Type::HF);
/// ```
pub const fn imm_hf(bits: u16) -> Imm {
    Imm {
        ty: Type::HF,
        bits: bits as u64,
    }
}
/// DF immediate (Gen8).
///
/// ```
/// assert_eq!(geneu::build::imm_df(1.0).bits(), 0x3ff0_0000_0000_0000);
/// ```
pub fn imm_df(v: f64) -> Imm {
    Imm {
        ty: Type::DF,
        bits: v.to_bits(),
    }
}
/// Q immediate (Gen8).
///
/// ```
/// assert_eq!(geneu::build::imm_q(-1).bits(), u64::MAX);
/// ```
pub const fn imm_q(v: i64) -> Imm {
    Imm {
        ty: Type::Q,
        bits: v as u64,
    }
}
/// UQ immediate (Gen8).
///
/// ```
/// assert_eq!(geneu::build::imm_uq(1 << 40).bits(), 1 << 40);
/// ```
pub const fn imm_uq(v: u64) -> Imm {
    Imm { ty: Type::UQ, bits: v }
}

/// V immediate: eight signed 4-bit elements (-8..=7), element 0 lowest.
///
/// ```
/// use geneu::build::imm_v;
/// assert_eq!(imm_v([0, 1, 2, 3, 4, 5, 6, 7]).unwrap().bits(), 0x7654_3210);
/// assert!(imm_v([8, 0, 0, 0, 0, 0, 0, 0]).is_err());
/// ```
pub fn imm_v(e: [i8; 8]) -> Result<Imm, BuildError> {
    let mut bits = 0u64;
    for (k, &v) in e.iter().enumerate() {
        if !(-8..=7).contains(&v) {
            return Err(BuildError::VectorImmediate {
                element: k,
                value: v.into(),
                why: "a V element is a signed 4-bit integer, -8..=7",
            });
        }
        bits |= ((v as u8 & 0xf) as u64) << (4 * k);
    }
    Ok(Imm { ty: Type::V, bits })
}

/// UV immediate: eight unsigned 4-bit elements (0..=15), element 0 lowest.
///
/// ```
/// use geneu::build::imm_uv;
/// assert_eq!(imm_uv([15, 0, 0, 0, 0, 0, 0, 1]).unwrap().bits(), 0x1000_000f);
/// assert!(imm_uv([16, 0, 0, 0, 0, 0, 0, 0]).is_err());
/// ```
pub fn imm_uv(e: [u8; 8]) -> Result<Imm, BuildError> {
    let mut bits = 0u64;
    for (k, &v) in e.iter().enumerate() {
        if v > 15 {
            return Err(BuildError::VectorImmediate {
                element: k,
                value: v.into(),
                why: "a UV element is an unsigned 4-bit integer, 0..=15",
            });
        }
        bits |= (v as u64) << (4 * k);
    }
    Ok(Imm { ty: Type::UV, bits })
}

/// The 8-bit restricted float of `f` (sign, 3-bit exponent biased by 3,
/// 4-bit mantissa), if it has one.
fn vf_of(f: f32) -> Option<u8> {
    let b = f.to_bits();
    if f == 0.0 {
        return Some((b >> 24) as u8); // 0 or -0
    }
    let sign = (b >> 31) as u8;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 3;
    let mant = b & 0x7f_ffff;
    if !(1..=7).contains(&exp) || mant & ((1 << 19) - 1) != 0 {
        return None;
    }
    Some(sign << 7 | (exp as u8) << 4 | (mant >> 19) as u8)
}

/// VF immediate: four restricted floats (±0, or ±2^e·(1+m/16) for e in
/// -2..=4 and m in 0..=15), element 0 lowest.
///
/// ```
/// use geneu::build::imm_vf;
/// assert_eq!(imm_vf([0.0, 1.0, 2.0, 0.5]).unwrap().bits(), 0x2040_3000);
/// assert!(imm_vf([0.1, 0.0, 0.0, 0.0]).is_err());
/// ```
pub fn imm_vf(e: [f32; 4]) -> Result<Imm, BuildError> {
    let mut bits = 0u64;
    for (k, &v) in e.iter().enumerate() {
        let Some(x) = vf_of(v) else {
            return Err(BuildError::VectorImmediate {
                element: k,
                value: v as i64,
                why: "not a restricted float (±2^-2..±31 with 4 mantissa bits, or ±0)",
            });
        };
        bits |= (x as u64) << (8 * k);
    }
    Ok(Imm { ty: Type::VF, bits })
}

/// A source operand: a register or an immediate.
///
/// ```
/// use geneu::build::{g, imm_d, Operand};
/// let a: Operand = g(2).into();
/// let b: Operand = imm_d(3).into();
/// assert!(matches!((a, b), (Operand::Reg(_), Operand::Imm(_))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register.
    Reg(Reg),
    /// An immediate.
    Imm(Imm),
}

impl From<Reg> for Operand {
    fn from(r: Reg) -> Self {
        Operand::Reg(r)
    }
}

impl From<Imm> for Operand {
    fn from(i: Imm) -> Self {
        Operand::Imm(i)
    }
}
