//! The ISA vocabulary: the hardware numbers that every layer names.
//!
//! This is the ground floor: it uses nothing else in the crate. A hardware
//! number (a shared-function ID, an architecture register number, a region
//! code) is written here once and named everywhere else.
//!
//! - [`Sfid`]: the shared-function IDs of SEND's bits 27:24;
//! - [`arf`]: the architecture register numbers (the high nibble of an ARF
//!   operand's register number picks the register);
//! - [`region`]: the codes of a region's vertical stride, width and
//!   horizontal stride;
//! - `hw_enum!`: the one macro for enums with hardware encodings;
//! - [`Platform`]: the hardware generations;
//! - [`opcode`]: the opcode table, each opcode with its [`Form`] and flags;
//! - [`dataport`]: the data port message types each shared function
//!   defines, and the response sizes their descriptors determine.

/// Declares an enum whose variants carry their hardware encodings, with
/// `ALL`, `hw()` and `from_hw()`. `#[derive(Default)]` on the enum and
/// `#[default]` on a variant give it a default.
macro_rules! hw_enum {
    ($(#[$m:meta])* $name:ident { $( $(#[$vm:meta])* $v:ident = $n:literal ),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[repr(u8)]
        #[non_exhaustive]
        pub enum $name { $( $(#[$vm])* $v = $n, )* }
        impl $name {
            /// Every value, in encoding order.
            pub const ALL: &'static [$name] = &[$($name::$v,)*];
            /// The hardware encoding.
            #[inline]
            pub const fn hw(self) -> u8 { self as u8 }
            /// The value with this hardware encoding, if it is defined.
            #[inline]
            pub const fn from_hw(n: u8) -> Option<Self> {
                match n { $( $n => Some($name::$v), )* _ => None }
            }
        }
    };
}
pub(crate) use hw_enum;

hw_enum! {
    /// Shared function IDs of Gen7-Gen8: a SEND's bits 27:24 (the field
    /// that holds the conditional modifier of other instructions).
    ///
    /// 14 and 15 are reserved everywhere, and the encodings of 12 and 13
    /// exist from Gen7.5 on; the validator judges them, the type only names
    /// the encodings.
    Sfid {
        /// Null.
        Null = 0,
        /// Extended math (a shared function on Gen4-5 only).
        Math = 1,
        /// Sampling engine.
        Sampler = 2,
        /// Message gateway.
        Gateway = 3,
        /// Data port, sampler cache (read only).
        SamplerCache = 4,
        /// Data port, render cache.
        RenderCache = 5,
        /// Unified return buffer.
        Urb = 6,
        /// Thread spawner.
        ThreadSpawner = 7,
        /// Video motion estimation.
        Vme = 8,
        /// Data port, constant cache (read only).
        ConstantCache = 9,
        /// Data port, data cache (data cache 0 from Haswell on).
        DataCache = 10,
        /// Pixel interpolator.
        PixelInterpolator = 11,
        /// Data port, data cache 1 (Gen7.5+).
        DataCache1 = 12,
        /// Check and refinement engine (Gen7.5+).
        Cre = 13,
    }
}

impl Sfid {
    /// The name Mesa prints (`None` for VME, which Mesa leaves unnamed).
    pub const fn mesa_name(self) -> Option<&'static str> {
        Some(match self {
            Sfid::Null => "null",
            Sfid::Math => "math",
            Sfid::Sampler => "sampler",
            Sfid::Gateway => "gateway",
            Sfid::SamplerCache => "dp_sampler",
            Sfid::RenderCache => "render",
            Sfid::Urb => "urb",
            Sfid::ThreadSpawner => "thread_spawner",
            Sfid::Vme => return None,
            Sfid::ConstantCache => "const",
            Sfid::DataCache => "data",
            Sfid::PixelInterpolator => "pixel interp",
            Sfid::DataCache1 => "dp data 1",
            Sfid::Cre => "cre",
        })
    }
}

/// Architecture register numbers: the register number of an ARF operand.
/// The high nibble picks the register, the low nibble its number (`acc1`
/// is `ACC | 1`); [`arf::class`] gives the high nibble.
pub mod arf {
    /// The null register.
    pub const NULL: u8 = 0x00;
    /// Address registers `a0`.
    pub const ADDRESS: u8 = 0x10;
    /// Accumulators `acc0`, `acc1`.
    pub const ACC: u8 = 0x20;
    /// Flag registers `f0`, `f1`.
    pub const FLAG: u8 = 0x30;
    /// Channel enable (mask) registers `mask0`.
    pub const MASK: u8 = 0x40;
    /// Mask stack registers `ms0`.
    pub const MASK_STACK: u8 = 0x50;
    /// Mask stack depth registers `msd0`.
    pub const MASK_STACK_DEPTH: u8 = 0x60;
    /// State registers `sr0`.
    pub const STATE: u8 = 0x70;
    /// Control registers `cr0`.
    pub const CONTROL: u8 = 0x80;
    /// Notification registers `n0`, `n1`.
    pub const NOTIFICATION: u8 = 0x90;
    /// The instruction pointer `ip`.
    pub const IP: u8 = 0xa0;
    /// The thread dependency register `tdr0`.
    pub const TDR: u8 = 0xb0;
    /// Timestamp registers `tm0`.
    pub const TIMESTAMP: u8 = 0xc0;

    /// The largest register number within a class (`acc15` at most): the
    /// low nibble.
    pub const NUMBER_MAX: u8 = 0x0f;

    /// The register class of an ARF register number: its high nibble.
    #[inline]
    pub const fn class(nr: u8) -> u8 {
        nr & !NUMBER_MAX
    }
}

/// The last subregister of a flag register: `f0` and `f1` each hold two
/// 16-bit subregisters, `f0.0` and `f0.1`.
pub const FLAG_SUBREG_LAST: u8 = 1;

/// Channels per step of the quarter control: code n starts the
/// instruction's channels at 8n (Mesa's `1Q`..`4Q`; `2H` is code 2).
pub(crate) const QUARTER_CHANNELS: u32 = 8;
/// Channels the nibble control adds (Gen7+, Mesa's `N` groups): a set
/// nibble control starts the channels 4 past the quarter's first.
pub(crate) const NIBBLE_CHANNELS: u32 = 4;
/// Execution-mask and flag channels of an Ivy Bridge DF instruction: its
/// DF execution is four channels wide, at the channel group of its quarter
/// and nibble control, and the second half of a compressed one reuses the
/// first half's four (Mesa's elk `get_fpu_lowered_simd_width`; see the
/// simulator's `Geo::bit`). The vISA lowering cuts DF under the execution
/// mask into parts of this size.
pub(crate) const IVB_DF_CHANNELS: u32 = 4;

/// Gen7+ has no message register file: Mesa's text names the GRFs from
/// this one on `m0`, `m1`, ... (`m<n>` is GRF n + 112).
pub const MRF_GRF_BASE: u8 = 112;

/// The first register an end-of-thread SEND may take its payload from:
/// with EOT the payload comes from g112-g127 (PRM Vol 2a, SEND).
pub const EOT_PAYLOAD_FIRST: u8 = 112;

/// An operand's address mode field (`*_address_mode`, one bit): direct
/// register addressing, `g12.4` (PRM Vol 2a, Address Mode; Mesa's
/// `BRW_ADDRESS_DIRECT`).
pub(crate) const ADDRESS_MODE_DIRECT: u8 = 0;
/// The address mode of register-indirect addressing, `g[a0.N + imm]`
/// (Mesa's `BRW_ADDRESS_REGISTER_INDIRECT_REGISTER`).
pub(crate) const ADDRESS_MODE_INDIRECT: u8 = 1;

/// The math function encoding 8, `sincos` (a Gen4-5 function): Mesa's
/// printer and assembler still name it on Gen7+, though
/// [`crate::MathFunction`] has no value for it there.
pub const MATH_FN_SINCOS: u8 = 8;

/// Region codes: the encodings of `<vstride;width,hstride>` in the
/// instruction word.
pub mod region {
    /// Vertical stride code of VxH (indirect, one address per row).
    pub const VSTRIDE_VXH: u8 = 0xf;
    /// The last vertical stride code that is a stride: 6, 32 elements
    /// (code n is 2^(n-1) elements, 0 is 0; 7 to 14 are reserved).
    pub const VSTRIDE_LAST: u8 = 6;
    /// The last width code: 4, 16 elements (code n is 2^n; 5 to 7 are
    /// reserved).
    pub const WIDTH_LAST: u8 = 4;
    /// The last horizontal stride code: 3, 4 elements (code n is
    /// 2^(n-1), 0 is 0). The field has two bits; the model's byte can
    /// hold more.
    pub const HSTRIDE_LAST: u8 = 3;

    /// Whether a vertical stride code is a stride in elements (not VxH,
    /// not reserved).
    #[inline(always)]
    pub(crate) const fn vstride_is_stride(code: u8) -> bool {
        code <= VSTRIDE_LAST
    }

    /// Whether a vertical stride code is defined: a stride or VxH.
    #[inline(always)]
    pub(crate) const fn vstride_defined(code: u8) -> bool {
        vstride_is_stride(code) || code == VSTRIDE_VXH
    }

    /// Whether a width code is defined.
    #[inline(always)]
    pub(crate) const fn width_defined(code: u8) -> bool {
        code <= WIDTH_LAST
    }

    /// Whether a horizontal stride code is defined.
    #[inline(always)]
    pub(crate) const fn hstride_defined(code: u8) -> bool {
        code <= HSTRIDE_LAST
    }
    /// Width code of 4 elements: align16 operands read rows of four.
    pub const WIDTH_4: u8 = 2;
    /// Horizontal stride code of 1 element.
    pub const HSTRIDE_1: u8 = 1;
    /// Vertical stride code of 4 elements.
    pub const VSTRIDE_4: u8 = 3;

    // The other codes, each named by the count of elements it encodes
    // (PRM Vol 2a, an operand's VertStride, Width and HorzStride fields;
    // the model's `Region` restates the encodings).

    /// Vertical stride code of 0 elements (every row reads the same
    /// elements, as in the scalar `<0;1,0>`).
    pub const VSTRIDE_0: u8 = 0;
    /// Vertical stride code of 1 element.
    pub const VSTRIDE_1: u8 = 1;
    /// Vertical stride code of 2 elements.
    pub const VSTRIDE_2: u8 = 2;
    /// Vertical stride code of 8 elements (`<8;8,1>`, the usual SIMD8
    /// region).
    pub const VSTRIDE_8: u8 = 4;
    /// Vertical stride code of 16 elements.
    pub const VSTRIDE_16: u8 = 5;
    /// Vertical stride code of 32 elements ([`VSTRIDE_LAST`]).
    pub const VSTRIDE_32: u8 = 6;
    /// Width code of 1 element (a row of one, as in the scalar `<0;1,0>`).
    pub const WIDTH_1: u8 = 0;
    /// Width code of 2 elements.
    pub const WIDTH_2: u8 = 1;
    /// Width code of 8 elements.
    pub const WIDTH_8: u8 = 3;
    /// Width code of 16 elements ([`WIDTH_LAST`]).
    pub const WIDTH_16: u8 = 4;
    /// Horizontal stride code of 0 elements (every channel of a row reads
    /// the same element).
    pub const HSTRIDE_0: u8 = 0;
    /// Horizontal stride code of 2 elements.
    pub const HSTRIDE_2: u8 = 2;
    /// Horizontal stride code of 4 elements ([`HSTRIDE_LAST`]).
    pub const HSTRIDE_4: u8 = 3;

    /// The width an align16 source decodes to (and must have to encode):
    /// align16 encodes only the vertical stride.
    pub const A16_WIDTH: u8 = WIDTH_4;
    /// The horizontal stride an align16 source decodes to.
    pub const A16_HSTRIDE: u8 = HSTRIDE_1;
}

/// Bytes in one general register.
pub const GRF_BYTES: u32 = 32;

/// The most channels an instruction executes (SIMD32, the largest
/// execution size).
pub(crate) const MAX_CHANNELS: usize = 32;

/// The last general register, g127 (the register file holds g0-g127).
pub const GRF_LAST: u8 = 127;

/// General registers in the register file (g0 to [`GRF_LAST`]).
pub const GRF_COUNT: u32 = GRF_LAST as u32 + 1;

/// Indirect register addressing, `g[a0.N + imm]`: the number of address
/// subregisters an operand field can name on Gen8 (4 bits; Gen7's field
/// has 3, which the codec checks), and below, the range of the signed
/// 10-bit address immediate (bytes).
pub const ADDR_SUBREGS: u8 = 16;
/// The smallest indirect address immediate.
pub const ADDR_IMM_MIN: i16 = -512;
/// The largest indirect address immediate.
pub const ADDR_IMM_MAX: i16 = 511;

/// Bytes in an OWord, half a register: align16 subregister numbers count
/// OWords, and the region rules split a register's channels between its
/// two OWords (PRM Vol 7, 3.3.9.3).
pub(crate) const OWORD_BYTES: u32 = 16;

/// Bytes per unit of a 3-source subregister number: the 3-bit field of
/// Gen7 and Gen8 counts dwords (bytes 0-28).
pub(crate) const THREE_SRC_SUBREG_BYTES: u32 = 4;

/// Control register `cr0.0` bits the simulator honours (PRM Vol 2a,
/// Control Register; Mesa's `brw_rnd_mode`, `BRW_CR0_*` and the denorm
/// bits Mesa sets with `brw_float_controls`).
pub mod cr0 {
    /// The rounding-mode field, bits 5:4: 0 round to nearest even, 1 up
    /// (toward +inf), 2 down (toward -inf), 3 toward zero.
    pub const RND_MODE_SHIFT: u32 = 4;
    /// The rounding-mode field's mask (after the shift).
    pub const RND_MODE_MASK: u32 = 3;
    /// Double precision denormals are kept (clear: flushed to zero).
    pub const DP_DENORM_RETAIN: u32 = 1 << 6;
    /// Single precision denormals are kept (clear: flushed to zero).
    pub const SP_DENORM_RETAIN: u32 = 1 << 7;
    /// Half precision denormals are kept (Gen8; clear: flushed to zero).
    pub const HF_DENORM_RETAIN: u32 = 1 << 10;
}

/// The last flag register, `f1` (flag registers `f0` and `f1`).
pub(crate) const FLAG_REG_LAST: u8 = 1;

/// Predicate control 0: the instruction is not predicated.
pub(crate) const PRED_CONTROL_NONE: u8 = 0;

/// The largest response length of a SEND: 16 registers (PRM Vol 2a, SEND;
/// the descriptor's 5-bit field could hold more).
pub(crate) const RLEN_MAX: u32 = 16;

use core::fmt;

/// A hardware generation with its own encoding rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Platform {
    /// Gen7, Ivy Bridge.
    Gen7,
    /// Gen7.5, Haswell.
    Gen75,
    /// Gen8, Broadwell.
    Gen8,
    /// Cherryview: Gen8 LP, Gen8's layout with extra 64-bit restrictions.
    Chv,
}

impl Platform {
    /// Every platform, oldest first.
    pub const ALL: [Platform; 4] = [Platform::Gen7, Platform::Gen75, Platform::Gen8, Platform::Chv];

    /// `true` on Gen8 and Cherryview.
    #[inline]
    pub const fn is_gen8(self) -> bool {
        matches!(self, Platform::Gen8 | Platform::Chv)
    }

    /// The address subregisters an indirect operand can name:
    /// [`ADDR_SUBREGS`] on Gen8, half as many (a 3-bit field, a0.0-a0.7)
    /// on Gen7 and Gen7.5.
    #[inline]
    pub(crate) const fn addr_subregs(self) -> u8 {
        if self.is_gen8() {
            ADDR_SUBREGS
        } else {
            ADDR_SUBREGS / 2
        }
    }

    /// Bytes per unit of a jump offset of `op` (JIP and UIP of the
    /// branches, the distance of `jmpi` and `call`):
    /// - 1 on Gen8;
    /// - on Gen7.5, 1 for `jmpi`, `call` and `calla`, whose offset is
    ///   src1's immediate, and 8 for JIP and UIP. IGA's encoder keeps
    ///   Gen7.5 offsets in QWords except for those three opcodes
    ///   (`Encoder::arePcsInQWords`), and Beignet's Haswell encoder
    ///   scales its `jmpi` to bytes ("the HSW's offset of jmpi is in
    ///   byte", `Gen75Encoder::patchJMPI`);
    /// - 8 on Gen7, `jmpi` included (Mesa's `brw_land_fwd_jump` counts
    ///   two units an instruction from Gen5 on, as Beignet's Gen7
    ///   encoder does; IGA has no Gen7).
    pub const fn jump_unit_bytes(self, op: Opcode) -> i64 {
        match self {
            Platform::Gen8 | Platform::Chv => 1,
            Platform::Gen75 if matches!(op, Opcode::Jmpi | Opcode::Call | Opcode::Calla) => 1,
            _ => 8,
        }
    }

    /// Jump-offset units of `op` per native (16-byte) instruction.
    pub const fn jump_units_per_instruction(self, op: Opcode) -> i64 {
        16 / self.jump_unit_bytes(op)
    }

    /// The jump offsets of `op`, in its units ([`Self::jump_unit_bytes`]),
    /// that its offset field holds, and their description for errors:
    /// JIP and UIP are signed 32-bit on Gen8 and 16-bit before; the
    /// distance of `jmpi` and `call`, src1's immediate dword, is signed
    /// 32-bit on every platform.
    pub const fn jump_offset_range(self, op: Opcode) -> (i64, i64, &'static str) {
        let wide = self.is_gen8() || matches!(op.form(), opcode::Form::Jump | opcode::Form::Call);
        match (wide, self.jump_unit_bytes(op)) {
            (true, 1) => (i32::MIN as i64, i32::MAX as i64, "a signed 32-bit byte offset"),
            (true, _) => (
                i32::MIN as i64,
                i32::MAX as i64,
                "a signed 32-bit offset in 8-byte units",
            ),
            (false, _) => (
                i16::MIN as i64,
                i16::MAX as i64,
                "a signed 16-bit offset in 8-byte units",
            ),
        }
    }

    /// `true` on Gen7.5 and later.
    #[inline]
    pub const fn is_gen75_or_later(self) -> bool {
        !matches!(self, Platform::Gen7)
    }

    /// Version times ten: 70, 75, 80 (80 for Cherryview too).
    pub const fn verx10(self) -> u32 {
        match self {
            Platform::Gen7 => 70,
            Platform::Gen75 => 75,
            Platform::Gen8 | Platform::Chv => 80,
        }
    }

    /// The short name used on the command line: `ivb`, `hsw`, `bdw`, `chv`.
    pub const fn name(self) -> &'static str {
        match self {
            Platform::Gen7 => "ivb",
            Platform::Gen75 => "hsw",
            Platform::Gen8 => "bdw",
            Platform::Chv => "chv",
        }
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A platform name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[error("unknown platform `{0}` (expected ivb, byt, hsw, bdw, chv, bsw, 7, 7.5 or 8)")]
pub struct UnknownPlatform(pub alloc::string::String);

/// Mesa's platform names (`intel_device_info`) and the numeric forms.
/// Bay Trail (`byt`) has Ivy Bridge's EU encoding and Braswell (`bsw`) is
/// Cherryview's.
impl core::str::FromStr for Platform {
    type Err = UnknownPlatform;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "ivb" | "byt" | "7" | "gen7" => Platform::Gen7,
            "hsw" | "7.5" | "75" | "gen7.5" | "gen75" => Platform::Gen75,
            "bdw" | "8" | "gen8" => Platform::Gen8,
            "chv" | "bsw" | "gen8lp" => Platform::Chv,
            _ => return Err(UnknownPlatform(s.into())),
        })
    }
}

pub mod dataport;
pub mod opcode;
pub use opcode::{Form, Opcode};
