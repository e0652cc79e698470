//! The integer atomic operations of the untyped, typed and A64 atomic
//! messages (PRM Vol 7, "Atomic Operations"): the new value of each
//! operation, and the value the message returns: the old one, but for
//! `predec`, which returns the decremented value (Mesa implements GLSL's
//! `atomicCounterDecrement`, which returns the decremented value, with
//! `BRW_AOP_PREDEC`).

use crate::msg::AtomicOp;

/// The new value of a 32-bit location holding `old` after `op` with
/// sources `src0` and `src1`, and the value the message returns.
///
/// `cmpwr` writes `src1` when `old == src0` (src0 is the compared value,
/// as Mesa's `BRW_AOP_CMPWR` payload orders them: compare, then new).
pub(super) fn apply32(op: AtomicOp, old: u32, src0: u32, src1: u32) -> (u32, u32) {
    let new = match op {
        AtomicOp::And => old & src0,
        AtomicOp::Or => old | src0,
        AtomicOp::Xor => old ^ src0,
        AtomicOp::Mov => src0,
        AtomicOp::Inc => old.wrapping_add(1),
        AtomicOp::Dec => old.wrapping_sub(1),
        AtomicOp::Add => old.wrapping_add(src0),
        AtomicOp::Sub => old.wrapping_sub(src0),
        AtomicOp::Revsub => src0.wrapping_sub(old),
        AtomicOp::Imax => (old as i32).max(src0 as i32) as u32,
        AtomicOp::Imin => (old as i32).min(src0 as i32) as u32,
        AtomicOp::Umax => old.max(src0),
        AtomicOp::Umin => old.min(src0),
        AtomicOp::Cmpwr => {
            if old == src0 {
                src1
            } else {
                old
            }
        }
        AtomicOp::Predec => return (old.wrapping_sub(1), old.wrapping_sub(1)),
    };
    (new, old)
}

/// The same on a 64-bit location (the A64 qword atomics).
pub(super) fn apply64(op: AtomicOp, old: u64, src0: u64, src1: u64) -> (u64, u64) {
    let new = match op {
        AtomicOp::And => old & src0,
        AtomicOp::Or => old | src0,
        AtomicOp::Xor => old ^ src0,
        AtomicOp::Mov => src0,
        AtomicOp::Inc => old.wrapping_add(1),
        AtomicOp::Dec => old.wrapping_sub(1),
        AtomicOp::Add => old.wrapping_add(src0),
        AtomicOp::Sub => old.wrapping_sub(src0),
        AtomicOp::Revsub => src0.wrapping_sub(old),
        AtomicOp::Imax => (old as i64).max(src0 as i64) as u64,
        AtomicOp::Imin => (old as i64).min(src0 as i64) as u64,
        AtomicOp::Umax => old.max(src0),
        AtomicOp::Umin => old.min(src0),
        AtomicOp::Cmpwr => {
            if old == src0 {
                src1
            } else {
                old
            }
        }
        AtomicOp::Predec => return (old.wrapping_sub(1), old.wrapping_sub(1)),
    };
    (new, old)
}
