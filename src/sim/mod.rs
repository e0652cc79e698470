//! A functional simulator of the Gen7, Gen7.5 and Gen8 execution unit.
//!
//! It executes decoded programs: a layer above the model, the codec,
//! compaction and [`crate::msg`], which needs neither the text layer nor the
//! builder. The core (registers, regions, the execution mask, the ALU and
//! SIMD control flow) lives in this module's children; the messages a SEND
//! carries out live in `send`, against the caller's [`Memory`].
//!
//! Semantics follow the PRM (Vol 2a instruction reference, Vol 7 EU
//! chapters). Where the hardware is exact the simulator is bit-exact (NaN,
//! signed zero, saturation, rounding mode); transcendental `math` functions
//! return the correctly rounded result of Rust's `f32` functions where the
//! hardware is only approximate (documented per function).

mod error;
pub mod memory;
mod send;

pub use error::SimError;
pub use memory::{
    AddressMode, ChannelKind, Memory, MemoryError, RtWrite, SamplerState, Surface, SurfaceFormat, UrbWrite,
    SLM_SIZE_MAX, URB_ENTRY_DWORDS_MAX,
};
