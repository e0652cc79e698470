//! The integer atomic operations of the untyped, typed and A64 atomic
//! messages (PRM Vol 7, "Atomic Operations"): the new value of each
//! operation, and the value the message returns: the old one, but for
//! `predec`, which returns the decremented value (Mesa implements GLSL's
//! `atomicCounterDecrement`, which returns the decremented value, with
//! `BRW_AOP_PREDEC`).

use crate::msg::AtomicOp;

/// `$name`: the new value of a location of `$u` holding `old` after `op`
/// with sources `src0` and `src1`, and the value the message returns
/// (`$i` is the signed type of the same width, for `imax`/`imin`).
///
/// `cmpwr` writes `src1` when `old == src0` (src0 is the compared value,
/// as Mesa's `BRW_AOP_CMPWR` payload orders them: compare, then new).
macro_rules! atomic_apply {
    ($(#[$m:meta])* $name:ident, $u:ty, $i:ty) => {
        $(#[$m])*
        pub(super) fn $name(op: AtomicOp, old: $u, src0: $u, src1: $u) -> ($u, $u) {
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
                AtomicOp::Imax => (old as $i).max(src0 as $i) as $u,
                AtomicOp::Imin => (old as $i).min(src0 as $i) as $u,
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
    };
}

atomic_apply!(
    /// A 32-bit location (see [`atomic_apply`]).
    apply32, u32, i32
);
atomic_apply!(
    /// A 64-bit location (the A64 qword atomics).
    apply64, u64, i64
);
