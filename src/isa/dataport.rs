//! Data port message types: which message types the render cache (SFID
//! 5), data cache 0 (SFID 10) and data cache 1 (SFID 12) define on each
//! platform, and the response sizes that a surface read's descriptor
//! determines.
//!
//! The message type is descriptor bits 17:14 (Gen8: 18:14). The same
//! number means different messages on different ports (5 is a typed
//! surface read in the Ivy Bridge render cache and in data cache 1, an
//! untyped surface read in Ivy Bridge's data cache), and the typed and
//! untyped surface messages moved from the render cache and data cache 0
//! to data cache 1 with Haswell.
//!
//! These are the facts that `msg` (typed descriptors) and `validate` (the
//! `send_msg_type_defined` and `send_surface_read_rlen` rules) both name.
//!
//! Sources: IVB PRM Vol 4 Part 1 and HSW/BDW PRM Vol 7, the message type
//! tables of each data port (an encoding a port's table does not list is
//! reserved); Mesa's `brw_eu_defines.h` names the same numbers
//! (`GFX7_DATAPORT_RC_*`, `GFX7_DATAPORT_DC_*`, `HSW_DATAPORT_DC_PORT0_*`,
//! `HSW_DATAPORT_DC_PORT1_*`, `GFX8_DATAPORT_DC_PORT1_A64_*`).

use super::{Platform, Sfid};

hw_enum! {
    /// SIMD mode of untyped surface read/write (message control bits 5:4).
    SurfaceSimd {
        /// SIMD4x2 (vec4 shaders).
        Simd4x2 = 0,
        /// SIMD16.
        Simd16 = 1,
        /// SIMD8.
        Simd8 = 2,
    }
}

hw_enum! {
    /// Slot group of Gen7.5+ typed surface read/write (message control
    /// bits 5:4). Typed messages are at most eight slots wide on Gen7-Gen8.
    TypedSlotGroup {
        /// SIMD4x2 (align16).
        Simd4x2 = 0,
        /// Slots 0-7.
        Low = 1,
        /// Slots 8-15.
        High = 2,
    }
}

/// Render cache (SFID 5) message types.
pub mod render {
    /// Media block read.
    pub const MEDIA_BLOCK_READ: u8 = 4;
    /// Typed surface read (Ivy Bridge).
    pub const TYPED_SURFACE_READ: u8 = 5;
    /// Typed atomic operation (Ivy Bridge).
    pub const TYPED_ATOMIC: u8 = 6;
    /// Memory fence (Ivy Bridge).
    pub const MEMORY_FENCE: u8 = 7;
    /// Media block write.
    pub const MEDIA_BLOCK_WRITE: u8 = 10;
    /// Render target write.
    pub const RT_WRITE: u8 = 12;
    /// Typed surface write (Ivy Bridge); the same number is Gen9's render
    /// target read.
    pub const TYPED_SURFACE_WRITE: u8 = 13;
}

/// Data cache 0 (SFID 10) message types.
pub mod dc0 {
    /// OWord block read.
    pub const OWORD_BLOCK_READ: u8 = 0;
    /// Unaligned OWord block read.
    pub const UNALIGNED_OWORD_BLOCK_READ: u8 = 1;
    /// OWord dual block read.
    pub const OWORD_DUAL_BLOCK_READ: u8 = 2;
    /// DWord scattered read.
    pub const DWORD_SCATTERED_READ: u8 = 3;
    /// Byte scattered read.
    pub const BYTE_SCATTERED_READ: u8 = 4;
    /// Untyped surface read (Ivy Bridge).
    pub const UNTYPED_SURFACE_READ: u8 = 5;
    /// Untyped atomic operation (Ivy Bridge).
    pub const UNTYPED_ATOMIC: u8 = 6;
    /// Memory fence.
    pub const MEMORY_FENCE: u8 = 7;
    /// OWord block write.
    pub const OWORD_BLOCK_WRITE: u8 = 8;
    /// OWord dual block write.
    pub const OWORD_DUAL_BLOCK_WRITE: u8 = 10;
    /// DWord scattered write.
    pub const DWORD_SCATTERED_WRITE: u8 = 11;
    /// Byte scattered write.
    pub const BYTE_SCATTERED_WRITE: u8 = 12;
    /// Untyped surface write (Ivy Bridge).
    pub const UNTYPED_SURFACE_WRITE: u8 = 13;
}

/// Data cache 1 (SFID 12, Haswell and later) message types.
pub mod dc1 {
    /// Untyped surface read.
    pub const UNTYPED_SURFACE_READ: u8 = 1;
    /// Untyped atomic operation.
    pub const UNTYPED_ATOMIC: u8 = 2;
    /// Untyped atomic operation, SIMD4x2.
    pub const UNTYPED_ATOMIC_SIMD4X2: u8 = 3;
    /// Media block read.
    pub const MEDIA_BLOCK_READ: u8 = 4;
    /// Typed surface read.
    pub const TYPED_SURFACE_READ: u8 = 5;
    /// Typed atomic operation.
    pub const TYPED_ATOMIC: u8 = 6;
    /// Typed atomic operation, SIMD4x2.
    pub const TYPED_ATOMIC_SIMD4X2: u8 = 7;
    /// Untyped surface write.
    pub const UNTYPED_SURFACE_WRITE: u8 = 9;
    /// Media block write.
    pub const MEDIA_BLOCK_WRITE: u8 = 10;
    /// Atomic counter operation.
    pub const ATOMIC_COUNTER: u8 = 11;
    /// Atomic counter operation, SIMD4x2.
    pub const ATOMIC_COUNTER_SIMD4X2: u8 = 12;
    /// Typed surface write.
    pub const TYPED_SURFACE_WRITE: u8 = 13;
    /// A64 untyped surface read (Gen8).
    pub const A64_UNTYPED_SURFACE_READ: u8 = 0x11;
    /// A64 untyped atomic operation (Gen8).
    pub const A64_UNTYPED_ATOMIC: u8 = 0x12;
    /// A64 untyped surface write (Gen8).
    pub const A64_UNTYPED_SURFACE_WRITE: u8 = 0x19;
    /// A64 scattered write (Gen8).
    pub const A64_SCATTERED_WRITE: u8 = 0x1a;
    /// A64 scattered read (Gen8). Mesa's `brw_eu_defines.h` names it
    /// `GFX9_DATAPORT_DC_PORT1_A64_SCATTERED_READ`, but Mesa emits it on
    /// Gen8 (`brw_dp_a64_byte_scattered_rw_desc` asserts `ver >= 8` and
    /// serves both directions), and IGA's `MessageDecoderHDC` decodes
    /// 0x10 and 0x1a with one layout and no platform floor beyond A64's:
    /// the read came with the write, in Gen8; the `GFX9_` prefix is
    /// Mesa's naming, not the hardware's.
    pub const A64_SCATTERED_READ: u8 = 0x10;
    /// A64 OWord block write (Gen9; Mesa names it).
    pub const A64_OWORD_BLOCK_WRITE: u8 = 0x15;
    /// Untyped atomic float operation (Gen9; Mesa names it).
    pub const UNTYPED_ATOMIC_FLOAT: u8 = 0x1b;
    /// A64 untyped atomic float operation (Gen9; Mesa names it).
    pub const A64_UNTYPED_ATOMIC_FLOAT: u8 = 0x1d;
}

/// Message types of the read-only data ports, the sampler cache (SFID 4)
/// and the constant cache (SFID 9), on Gen7-Gen8 (IVB PRM Vol 4 Part 1,
/// the sampler cache / constant cache message type table). Mesa's
/// disassembler prints these as numbers.
pub(crate) mod read_only {
    /// OWord block read (Mesa's `BRW_DATAPORT_READ_MESSAGE_OWORD_BLOCK_READ`).
    pub(crate) const OWORD_BLOCK_READ: u8 = 0;
    /// Unaligned OWord block read.
    pub(crate) const UNALIGNED_OWORD_BLOCK_READ: u8 = 1;
    /// OWord dual block read.
    pub(crate) const OWORD_DUAL_BLOCK_READ: u8 = 2;
    /// DWord scattered read.
    pub(crate) const DWORD_SCATTERED_READ: u8 = 3;
    /// Media block read.
    pub(crate) const MEDIA_BLOCK_READ: u8 = 4;
}

/// Render target write subtypes (message control bits 2:0) beyond the
/// ones `msg::RtWriteSubtype` models.
pub(crate) mod rt_write {
    /// Subtype 0b111, which Mesa's disassembler names `SIMD16/RepData-111`
    /// (its table has no define for it; the PRM lists it as reserved).
    pub(crate) const SUBTYPE_REPDATA_111: u8 = 7;
}

/// Floating-point atomic operations (message control bits 3:0 of the Gen9
/// untyped atomic float messages): Mesa's `BRW_AOP_FMAX`, `BRW_AOP_FMIN`,
/// `BRW_AOP_FCMPWR`, which its disassembler prints on every platform.
pub(crate) mod atomic_float {
    /// Floating-point maximum.
    pub(crate) const FMAX: u8 = 1;
    /// Floating-point minimum.
    pub(crate) const FMIN: u8 = 2;
    /// Floating-point compare and exchange.
    pub(crate) const FCMPWR: u8 = 3;
}

/// Scratch block read/write (data cache 0, category bit set): the Gen7 and
/// Gen7.5 encodings of the block size field (descriptor bits 13:12), the
/// number of registers minus one; 2 is reserved, and there is no 8-register
/// block (IVB PRM Vol 4 Part 1, scratch block read message descriptor;
/// Mesa's `GFX7_DATAPORT_SCRATCH_NUM_REGS_SHIFT`). Gen8 encodes log2 of the
/// registers instead (`msg::ScratchRegs`).
pub(crate) mod scratch {
    /// One register.
    pub(crate) const GEN7_BLOCK_1_REG: u8 = 0;
    /// Two registers.
    pub(crate) const GEN7_BLOCK_2_REGS: u8 = 1;
    /// Four registers.
    pub(crate) const GEN7_BLOCK_4_REGS: u8 = 3;
}

/// Pixel interpolator (SFID 11, Gen7.5+) message types (descriptor bits
/// 13:12): Mesa's `GFX7_PIXEL_INTERPOLATOR_LOC_*` (HSW PRM Vol 7, pixel
/// interpolator message descriptor).
pub(crate) mod pi {
    /// Interpolate at an offset shared by all pixels (`per_message_offset`).
    pub(crate) const LOC_SHARED_OFFSET: u8 = 0;
    /// Interpolate at a sample position (`sample_position`).
    pub(crate) const LOC_SAMPLE: u8 = 1;
    /// Interpolate at the centroid (`centroid`).
    pub(crate) const LOC_CENTROID: u8 = 2;
    /// Interpolate at per-pixel offsets from the payload (`per_slot_offset`).
    pub(crate) const LOC_PER_SLOT_OFFSET: u8 = 3;
}

/// Sampler (SFID 2) message types that Gen9 adds (Mesa's
/// `GFX9_SAMPLER_MESSAGE_*`). Gen7-Gen8 reserve them and the typed
/// descriptors do not model them, but Mesa's disassembler names them on
/// every platform. (The sampler is not a data port; these sit here with
/// the other message type numbers the descriptor printer names.)
pub(crate) mod sampler {
    /// `sample_lz`: sample at LOD 0.
    pub(crate) const GEN9_SAMPLE_LZ: u8 = 24;
    /// `sample_c_lz`: sample with compare at LOD 0.
    pub(crate) const GEN9_SAMPLE_C_LZ: u8 = 25;
    /// `ld_lz`: load at LOD 0.
    pub(crate) const GEN9_SAMPLE_LD_LZ: u8 = 26;
    /// `ld2dms_w`: multisample load, wide MCS.
    pub(crate) const GEN9_SAMPLE_LD2DMS_W: u8 = 28;
}

/// What the descriptor of a message type says about its response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Response {
    /// Not determined by the descriptor alone (or not modelled).
    Other,
    /// An untyped surface read: [`surface_read_regs`] of the enabled
    /// channels and the SIMD mode (message control bits 5:4).
    UntypedRead,
    /// A Haswell+ typed surface read: [`typed_read_regs`] of the enabled
    /// channels and the slot group (message control bits 5:4).
    TypedRead,
    /// An Ivy Bridge typed surface read (no SIMD mode field): one register
    /// per enabled channel in align1, one register in align16 (SIMD4x2).
    TypedReadGen7,
}

/// One message type of a data port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MessageType {
    /// The shared function.
    pub sfid: Sfid,
    /// The message type encoding.
    pub ty: u8,
    /// The platforms that define it (bit `p as u8`).
    platforms: u8,
    /// What its descriptor says about the response.
    pub response: Response,
}

impl MessageType {
    /// Whether `p` defines this message type.
    #[inline]
    pub const fn exists_on(&self, p: Platform) -> bool {
        self.platforms >> p as u8 & 1 != 0
    }
}

const IVB: u8 = 1 << Platform::Gen7 as u8;
const HSW: u8 = 1 << Platform::Gen75 as u8;
const BDW: u8 = 1 << Platform::Gen8 as u8 | 1 << Platform::Chv as u8;
const ALL: u8 = IVB | HSW | BDW;

const fn row(sfid: Sfid, ty: u8, platforms: u8, response: Response) -> MessageType {
    MessageType {
        sfid,
        ty,
        platforms,
        response,
    }
}

use Response::{Other, TypedRead, TypedReadGen7, UntypedRead};
use Sfid::{DataCache as Dc0, DataCache1 as Dc1, RenderCache as Rc};

/// Every message type of the render cache, data cache 0 and data cache 1.
pub const MESSAGE_TYPES: &[MessageType] = &[
    row(Rc, render::MEDIA_BLOCK_READ, ALL, Other),
    row(Rc, render::TYPED_SURFACE_READ, IVB, TypedReadGen7),
    row(Rc, render::TYPED_ATOMIC, IVB, Other),
    row(Rc, render::MEMORY_FENCE, IVB, Other),
    row(Rc, render::MEDIA_BLOCK_WRITE, ALL, Other),
    row(Rc, render::RT_WRITE, ALL, Other),
    row(Rc, render::TYPED_SURFACE_WRITE, IVB, Other),
    row(Dc0, dc0::OWORD_BLOCK_READ, ALL, Other),
    row(Dc0, dc0::UNALIGNED_OWORD_BLOCK_READ, ALL, Other),
    row(Dc0, dc0::OWORD_DUAL_BLOCK_READ, ALL, Other),
    row(Dc0, dc0::DWORD_SCATTERED_READ, ALL, Other),
    row(Dc0, dc0::BYTE_SCATTERED_READ, ALL, Other),
    row(Dc0, dc0::UNTYPED_SURFACE_READ, IVB, UntypedRead),
    row(Dc0, dc0::UNTYPED_ATOMIC, IVB, Other),
    row(Dc0, dc0::MEMORY_FENCE, ALL, Other),
    row(Dc0, dc0::OWORD_BLOCK_WRITE, ALL, Other),
    row(Dc0, dc0::OWORD_DUAL_BLOCK_WRITE, ALL, Other),
    row(Dc0, dc0::DWORD_SCATTERED_WRITE, ALL, Other),
    row(Dc0, dc0::BYTE_SCATTERED_WRITE, ALL, Other),
    row(Dc0, dc0::UNTYPED_SURFACE_WRITE, IVB, Other),
    row(Dc1, dc1::UNTYPED_SURFACE_READ, HSW | BDW, UntypedRead),
    row(Dc1, dc1::UNTYPED_ATOMIC, HSW | BDW, Other),
    row(Dc1, dc1::UNTYPED_ATOMIC_SIMD4X2, HSW | BDW, Other),
    row(Dc1, dc1::MEDIA_BLOCK_READ, HSW | BDW, Other),
    row(Dc1, dc1::TYPED_SURFACE_READ, HSW | BDW, TypedRead),
    row(Dc1, dc1::TYPED_ATOMIC, HSW | BDW, Other),
    row(Dc1, dc1::TYPED_ATOMIC_SIMD4X2, HSW | BDW, Other),
    row(Dc1, dc1::UNTYPED_SURFACE_WRITE, HSW | BDW, Other),
    row(Dc1, dc1::MEDIA_BLOCK_WRITE, HSW | BDW, Other),
    row(Dc1, dc1::ATOMIC_COUNTER, HSW | BDW, Other),
    row(Dc1, dc1::ATOMIC_COUNTER_SIMD4X2, HSW | BDW, Other),
    row(Dc1, dc1::TYPED_SURFACE_WRITE, HSW | BDW, Other),
    row(Dc1, dc1::A64_UNTYPED_SURFACE_READ, BDW, UntypedRead),
    row(Dc1, dc1::A64_UNTYPED_ATOMIC, BDW, Other),
    row(Dc1, dc1::A64_UNTYPED_SURFACE_WRITE, BDW, Other),
    row(Dc1, dc1::A64_SCATTERED_READ, BDW, Other),
    row(Dc1, dc1::A64_SCATTERED_WRITE, BDW, Other),
];

/// Whether [`MESSAGE_TYPES`] lists the message types of `sfid` (the
/// render cache, data cache 0 and data cache 1).
#[inline]
pub const fn has_message_types(sfid: Sfid) -> bool {
    port_index(sfid).is_some()
}

/// The row of [`MESSAGE_TYPES`] (plus one; 0 for none) of each message
/// type (0..=31) of each port (render cache, data cache 0, data cache 1),
/// built at compile time from the table.
#[allow(clippy::indexing_slicing)] // k < len by the loop; ty < 32 by the mask
const INDEX: [[u8; 32]; 3] = {
    let mut t = [[0u8; 32]; 3];
    let mut k = 0;
    while k < MESSAGE_TYPES.len() {
        let m = &MESSAGE_TYPES[k];
        if let Some(port) = port_index(m.sfid) {
            t[port][(m.ty & 31) as usize] = k as u8 + 1;
        }
        k += 1;
    }
    t
};

/// The index of a port with listed message types.
const fn port_index(sfid: Sfid) -> Option<usize> {
    match sfid {
        Sfid::RenderCache => Some(0),
        Sfid::DataCache => Some(1),
        Sfid::DataCache1 => Some(2),
        _ => None,
    }
}

/// The message type `ty` of the data port `sfid` on `p`, if `p` defines
/// it there.
#[inline]
pub const fn message_type(p: Platform, sfid: Sfid, ty: u8) -> Option<&'static MessageType> {
    let Some(port) = port_index(sfid) else {
        return None;
    };
    if ty > 31 {
        return None;
    }
    // In range: port < 3, ty <= 31, and INDEX holds row numbers of the table.
    #[allow(clippy::indexing_slicing)]
    let k = INDEX[port][ty as usize] as usize;
    if k == 0 || k > MESSAGE_TYPES.len() {
        return None;
    }
    #[allow(clippy::indexing_slicing)]
    let m = &MESSAGE_TYPES[k - 1];
    if m.exists_on(p) {
        Some(m)
    } else {
        None
    }
}

/// Whether `p` defines message type `ty` on the data port `sfid`.
#[inline]
pub const fn defined(p: Platform, sfid: Sfid, ty: u8) -> bool {
    message_type(p, sfid, ty).is_some()
}

/// Registers an untyped surface read returns: one per enabled channel
/// for SIMD8, two for SIMD16, and one in all for SIMD4x2 (two slots of
/// four dwords). Mesa's `brw_surface_payload_size`.
#[inline]
pub const fn surface_read_regs(channels: u32, simd: SurfaceSimd) -> u32 {
    match simd {
        SurfaceSimd::Simd4x2 => 1,
        SurfaceSimd::Simd8 => channels,
        SurfaceSimd::Simd16 => 2 * channels,
    }
}

/// Registers a Haswell+ typed surface read returns: one per enabled
/// channel for a group of eight slots, one in all for SIMD4x2.
#[inline]
pub const fn typed_read_regs(channels: u32, slots: TypedSlotGroup) -> u32 {
    match slots {
        TypedSlotGroup::Simd4x2 => 1,
        TypedSlotGroup::Low | TypedSlotGroup::High => channels,
    }
}

/// Number of channels a surface message's 4-bit channel *disable* mask
/// (message control bits 3:0) leaves enabled.
#[inline]
pub const fn enabled_channels(disable_mask: u8) -> u32 {
    (!disable_mask & 0xf).count_ones()
}

hw_enum! {
    /// URB message opcode (SFID 6, descriptor bits 2:0, Gen8 3:0): a
    /// floor fact that `msg` (typed descriptors) and `validate` (the URB
    /// opcode rule) both name.
    UrbOpcode {
        /// Write HWords (Gen7 vec4 data).
        WriteHWord = 0,
        /// Write OWords.
        WriteOWord = 1,
        /// Read HWords.
        ReadHWord = 2,
        /// Read OWords.
        ReadOWord = 3,
        /// Atomic move.
        AtomicMov = 4,
        /// Atomic increment.
        AtomicInc = 5,
        /// Atomic add (Gen7.5 and Gen8).
        AtomicAdd = 6,
        /// SIMD8 write (Gen8).
        Simd8Write = 7,
        /// SIMD8 read (Gen8).
        Simd8Read = 8,
    }
}

impl UrbOpcode {
    /// Whether the opcode exists on `p`: the SIMD8 read and write on
    /// Gen8, atomic add from Gen7.5 (Mesa's validator: "The Haswell PRM
    /// lists this opcode as valid on page 317"; Mesa names the constant
    /// GFX8_ and its disassembler's table says "Gfx8+", but the PRM page
    /// its validator cites is Haswell's, so the validator is followed),
    /// the others on every platform here.
    pub const fn exists_on(self, p: Platform) -> bool {
        match self {
            UrbOpcode::Simd8Write | UrbOpcode::Simd8Read => p.is_gen8(),
            UrbOpcode::AtomicAdd => p.is_gen75_or_later(),
            _ => true,
        }
    }

    /// The SIMD8 (Gen8) opcodes, whose bit 15 is "channel mask present".
    pub const fn is_simd8(self) -> bool {
        matches!(self, UrbOpcode::Simd8Write | UrbOpcode::Simd8Read)
    }

    /// Mesa's name.
    pub const fn mesa_name(self) -> &'static str {
        match self {
            UrbOpcode::WriteHWord => "write HWord",
            UrbOpcode::WriteOWord => "write OWord",
            UrbOpcode::ReadHWord => "read HWord",
            UrbOpcode::ReadOWord => "read OWord",
            UrbOpcode::AtomicMov => "atomic mov",
            UrbOpcode::AtomicInc => "atomic inc",
            UrbOpcode::AtomicAdd => "atomic add",
            UrbOpcode::Simd8Write => "SIMD8 write",
            UrbOpcode::Simd8Read => "SIMD8 read",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_port_lists_a_message_type_once() {
        for (k, a) in MESSAGE_TYPES.iter().enumerate() {
            assert!(a.ty < 32, "{a:?}");
            for b in MESSAGE_TYPES.iter().skip(k + 1) {
                assert!(!(a.sfid == b.sfid && a.ty == b.ty), "{a:?} twice");
            }
        }
    }

    #[test]
    fn message_types_are_listed_once_per_platform() {
        for p in Platform::ALL {
            for (k, a) in MESSAGE_TYPES.iter().enumerate() {
                for b in MESSAGE_TYPES.iter().skip(k + 1) {
                    assert!(
                        !(a.sfid == b.sfid && a.ty == b.ty && a.exists_on(p) && b.exists_on(p)),
                        "{a:?} twice on {p}"
                    );
                }
            }
        }
    }

    #[test]
    fn surface_moves_to_data_cache_1_with_haswell() {
        assert!(defined(Platform::Gen7, Sfid::RenderCache, render::TYPED_SURFACE_READ));
        assert!(!defined(Platform::Gen75, Sfid::RenderCache, render::TYPED_SURFACE_READ));
        assert!(defined(Platform::Gen75, Sfid::DataCache1, dc1::TYPED_SURFACE_READ));
        assert!(!defined(Platform::Gen7, Sfid::DataCache1, dc1::TYPED_SURFACE_READ));
        assert!(!defined(
            Platform::Gen75,
            Sfid::DataCache1,
            dc1::A64_UNTYPED_SURFACE_READ
        ));
        assert!(defined(Platform::Chv, Sfid::DataCache1, dc1::A64_UNTYPED_SURFACE_READ));
    }

    #[test]
    fn surface_read_sizes() {
        assert_eq!(surface_read_regs(4, SurfaceSimd::Simd16), 8);
        assert_eq!(surface_read_regs(3, SurfaceSimd::Simd8), 3);
        assert_eq!(surface_read_regs(4, SurfaceSimd::Simd4x2), 1);
        assert_eq!(typed_read_regs(2, TypedSlotGroup::High), 2);
        assert_eq!(typed_read_regs(4, TypedSlotGroup::Simd4x2), 1);
        assert_eq!(enabled_channels(0xe), 1);
        assert_eq!(enabled_channels(0), 4);
    }
}
