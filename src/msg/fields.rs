//! A message descriptor's fields, named and numbered in descriptor bits
//! 0..31, for bring-up views (`geneu fields`, `diff` and `desc`).
//!
//! The layout is the one the typed decode ([`Message::decode`]) reads: the
//! message kind picks the `tables/desc_*.tbl` table, and for data port
//! messages the message type picks the sub-fields of the message control
//! (block size, channel mask, atomic operation, render target subtype,
//! scratch block). A message the typed view does not model shows the
//! common fields and the raw function control.

use alloc::vec::Vec;

use super::{DataCache0, DataCache1, Dc0Op, Dc1Op, DpRead, DpReadOp, Message, Render, RenderOp};
use crate::model::Platform;
use crate::word::fields::{
    desc_common, desc_dp_atomic, desc_dp_block, desc_dp_gen7, desc_dp_gen8, desc_dp_rt, desc_dp_scratch,
    desc_dp_surface, desc_dp_typed_gen7, desc_gateway, desc_pi_gen75, desc_sampler, desc_sampler_gen8, desc_spawner,
    desc_urb_gen7, desc_urb_gen8,
};
use crate::word::FieldInfo;

/// One field of a message descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DescField {
    /// The field's table entry: its name and bit ranges in descriptor bits
    /// (serialized flat, beside `raw`).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub field: &'static FieldInfo,
    /// The value of those bits.
    pub raw: u32,
}

/// The sub-fields of a data port message's control bits 13:8.
#[derive(Clone, Copy)]
enum Control {
    /// Shown whole as `msg_control`.
    Raw,
    /// OWord block and dual block size.
    Block,
    /// DWord scattered: SIMD mode bits.
    DwordScattered,
    /// Byte scattered: SIMD mode and data size.
    ByteScattered,
    /// Untyped (Gen7.5+ also typed) surface: channel mask and SIMD mode.
    Surface,
    /// Gen7 typed surface: channel mask and slot group.
    TypedGen7,
    /// Atomic operation.
    Atomic,
    /// Memory fence.
    Fence,
    /// Render target write.
    RtWrite,
}

/// The descriptor `desc` of a message to `sfid` on `p`, field by field,
/// in the layout its message kind uses (see the module documentation).
/// Never fails: an unmodelled message gives the common fields.
///
/// ```
/// use geneu::msg::desc_fields;
/// use geneu::Platform;
///
/// // A Gen8 SIMD8 URB write at global offset 1, five payload GRFs, EOT.
/// let f = desc_fields(Platform::Gen8, 6, 0x8a08_0017);
/// let names: Vec<_> = f.iter().map(|f| (f.field.name, f.raw)).collect();
/// assert!(names.contains(&("urb_opcode", 7)));
/// assert!(names.contains(&("global_offset", 1)));
/// assert!(names.contains(&("mlen", 5)));
/// assert!(names.contains(&("eot", 1)));
/// ```
pub fn desc_fields(p: Platform, sfid: u8, desc: u32) -> Vec<DescField> {
    let m = Message::decode(p, sfid & super::SFID_MAX, desc).unwrap_or(Message::Unknown { sfid, desc });
    let gen8 = p.is_gen8();
    let dp: &[&'static FieldInfo] = if gen8 {
        desc_dp_gen8::FIELDS
    } else {
        desc_dp_gen7::FIELDS
    };
    let (layout, control): (&[&'static FieldInfo], Control) = match &m {
        Message::Sampler(_) if gen8 => (desc_sampler_gen8::FIELDS, Control::Raw),
        Message::Sampler(_) => (desc_sampler::FIELDS, Control::Raw),
        Message::Gateway(_) => (desc_gateway::FIELDS, Control::Raw),
        Message::ThreadSpawner(_) => (desc_spawner::FIELDS, Control::Raw),
        Message::PixelInterp(_) => (desc_pi_gen75::FIELDS, Control::Raw),
        Message::Urb(_) if gen8 => (desc_urb_gen8::FIELDS, Control::Raw),
        Message::Urb(_) => (desc_urb_gen7::FIELDS, Control::Raw),
        Message::SamplerCache(r) | Message::ConstantCache(r) => (dp, dp_read_control(r)),
        Message::Render(r) => (dp, render_control(p, r)),
        Message::DataCache0(DataCache0 {
            op: Dc0Op::Scratch(_), ..
        }) => (desc_dp_scratch::FIELDS, Control::Raw),
        Message::DataCache0(d) => (dp, dc0_control(d)),
        Message::DataCache1(d) => (dp, dc1_control(d)),
        _ => (desc_common::FIELDS, Control::Raw),
    };
    let split = layout.len() > desc_common::FIELDS.len();
    // Gen8 URB bit 15: "channel mask present" for the SIMD8 opcodes,
    // "swizzle control" for the others.
    let simd8_urb = matches!(&m, Message::Urb(u) if u.opcode.is_simd8());
    let mut out = Vec::new();
    let mut push = |f: &'static FieldInfo| {
        out.push(DescField {
            field: f,
            raw: f.get(u128::from(desc)) as u32,
        })
    };
    for &f in layout {
        let skip = match f.name {
            "function_control" => split,
            "channel_mask_present" => !simd8_urb,
            "swizzle_control" => simd8_urb && gen8,
            "msg_control" => !matches!(control, Control::Raw),
            _ => false,
        };
        if skip {
            continue;
        }
        push(f);
        // The control's sub-fields (bits 13:8) follow the binding table
        // index (7:0), where msg_control would be.
        if f.name == "binding_table_index" {
            for &s in control_fields(control) {
                push(s);
            }
        }
    }
    out
}

/// The sub-fields of the message control, in bit order (low first).
fn control_fields(c: Control) -> &'static [&'static FieldInfo] {
    match c {
        Control::Raw => &[],
        Control::Block => &[&desc_dp_block::BLOCK_SIZE],
        Control::DwordScattered => &[&desc_dp_block::SCATTERED_SIMD16, &desc_dp_block::LEGACY_SIMD_MODE],
        Control::ByteScattered => &[&desc_dp_block::SCATTERED_SIMD16, &desc_dp_block::SCATTERED_DATA_SIZE],
        Control::Surface => &[&desc_dp_surface::CHANNEL_DISABLE, &desc_dp_surface::SURFACE_MODE],
        Control::TypedGen7 => &[
            &desc_dp_typed_gen7::CHANNEL_DISABLE,
            &desc_dp_typed_gen7::TYPED_SLOT_GROUP,
        ],
        Control::Atomic => &[
            &desc_dp_atomic::ATOMIC_OP,
            &desc_dp_atomic::ATOMIC_SIMD8,
            &desc_dp_atomic::RETURN_DATA,
        ],
        Control::Fence => &[&desc_dp_block::FENCE_COMMIT],
        Control::RtWrite => &[
            &desc_dp_rt::RT_SUBTYPE,
            &desc_dp_rt::RT_SLOT_GROUP,
            &desc_dp_rt::LAST_RT,
        ],
    }
}

fn dp_read_control(r: &DpRead) -> Control {
    match r.op {
        DpReadOp::OwordBlockRead { .. }
        | DpReadOp::UnalignedOwordBlockRead { .. }
        | DpReadOp::OwordDualBlockRead { .. } => Control::Block,
        DpReadOp::DwordScatteredRead { .. } => Control::DwordScattered,
        _ => Control::Raw,
    }
}

fn render_control(p: Platform, r: &Render) -> Control {
    match r.op {
        RenderOp::RtWrite { .. } => Control::RtWrite,
        RenderOp::TypedSurfaceRead { .. } | RenderOp::TypedSurfaceWrite { .. } if p == Platform::Gen7 => {
            Control::TypedGen7
        }
        RenderOp::TypedSurfaceRead { .. } | RenderOp::TypedSurfaceWrite { .. } => Control::Surface,
        RenderOp::TypedAtomic { .. } => Control::Atomic,
        RenderOp::MemoryFence { .. } => Control::Fence,
        _ => Control::Raw,
    }
}

fn dc0_control(d: &DataCache0) -> Control {
    match d.op {
        Dc0Op::OwordBlockRead { .. }
        | Dc0Op::UnalignedOwordBlockRead { .. }
        | Dc0Op::OwordDualBlockRead { .. }
        | Dc0Op::OwordBlockWrite { .. }
        | Dc0Op::OwordDualBlockWrite { .. } => Control::Block,
        Dc0Op::DwordScatteredRead { .. } | Dc0Op::DwordScatteredWrite { .. } => Control::DwordScattered,
        Dc0Op::ByteScatteredRead { .. } | Dc0Op::ByteScatteredWrite { .. } => Control::ByteScattered,
        Dc0Op::UntypedSurfaceRead { .. } | Dc0Op::UntypedSurfaceWrite { .. } => Control::Surface,
        Dc0Op::UntypedAtomic { .. } => Control::Atomic,
        Dc0Op::MemoryFence { .. } => Control::Fence,
        _ => Control::Raw,
    }
}

fn dc1_control(d: &DataCache1) -> Control {
    match d.op {
        Dc1Op::UntypedSurfaceRead { .. }
        | Dc1Op::UntypedSurfaceWrite { .. }
        | Dc1Op::TypedSurfaceRead { .. }
        | Dc1Op::TypedSurfaceWrite { .. }
        | Dc1Op::A64UntypedSurfaceRead { .. }
        | Dc1Op::A64UntypedSurfaceWrite { .. } => Control::Surface,
        Dc1Op::UntypedAtomic { .. }
        | Dc1Op::UntypedAtomicSimd4x2 { .. }
        | Dc1Op::TypedAtomic { .. }
        | Dc1Op::TypedAtomicSimd4x2 { .. }
        | Dc1Op::AtomicCounter { .. }
        | Dc1Op::AtomicCounterSimd4x2 { .. }
        | Dc1Op::A64UntypedAtomic { .. } => Control::Atomic,
        _ => Control::Raw,
    }
}
