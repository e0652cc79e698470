//! The caller's memory: what SEND messages read and write. The simulator
//! owns none of it; the caller fills it before a run and reads it after.

/// Everything outside the register file that messages reach.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Memory {}
