//! SEND and SENDC: the shared functions' messages, executed against the
//! caller's [`Memory`].

use super::{Memory, SimError};
use crate::{Platform, Sfid};

/// What the core hands a shared function: everything the hardware's message
/// carries, with the payload registers already read from the register file.
#[allow(dead_code)] // filled in by the messages' implementation
pub(crate) struct MessageCall<'a> {
    /// The platform.
    pub platform: Platform,
    /// Byte offset of the SEND (for errors).
    pub offset: u32,
    /// The shared function (from the extended descriptor on Gen7/8).
    pub sfid: Sfid,
    /// The message descriptor (immediate, or read from a0.0).
    pub desc: u32,
    /// The extended message descriptor.
    pub exdesc: u32,
    /// The instruction's execution size in channels.
    pub exec_size: u32,
    /// The channels enabled for this instruction (bit n is channel n), after
    /// the execution mask, predication and NoMask.
    pub channel_mask: u32,
    /// The `mlen` payload registers, starting at src0's register.
    pub payload: &'a [[u8; 32]],
    /// The index of the running thread in its dispatch (scratch space is per thread).
    pub thread: u32,
    /// The index of the running thread's group (shared local memory is per group).
    pub group: u32,
}

/// What a message gives back.
#[allow(dead_code)]
pub(crate) struct MessageReply {
    /// Exactly `rlen` registers, written to the destination and on.
    pub regs: alloc::vec::Vec<[u8; 32]>,
    /// The thread waits at its group's barrier before it goes on.
    pub barrier: bool,
    /// The thread ends (a message with EOT, or the thread spawner's end of thread).
    pub end_of_thread: bool,
}

/// Carries out one message.
#[allow(dead_code)]
pub(crate) fn execute(call: &MessageCall<'_>, _mem: &mut Memory) -> Result<MessageReply, SimError> {
    Err(SimError::UnmodelledMessage {
        offset: call.offset,
        sfid: call.sfid.hw(),
        msg_type: 0,
        what: "any",
    })
}
