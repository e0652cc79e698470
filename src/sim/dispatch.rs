//! Many threads: a dispatch of thread groups, their `r0` headers, shared
//! local memory and barriers.
//!
//! A [`Dispatch`] is a list of threads, each with its group and its
//! initial registers. [`Dispatch::gpgpu`] fills the GPGPU (compute) `r0`
//! header of every thread of a grid of thread groups as the Gen7/Gen8
//! hardware does for the fields the programs read:
//!
//! | field | where | from |
//! | --- | --- | --- |
//! | thread group ID X | `r0.1` | Mesa's `load_workgroup_id` (`g0.1`) |
//! | thread group ID Y | `r0.6` | Mesa's `load_workgroup_id` (`g0.6`) |
//! | thread group ID Z | `r0.7` | Mesa's `load_workgroup_id` (`g0.7`) |
//! | barrier ID | `r0.2` bits 27:24 | Mesa's `emit_barrier` (mask `0x0f000000` on Gen7 and Gen8) |
//!
//! Every other header field is zero; the dispatch's payload registers
//! (the CURBE data, local invocation IDs, a media object's inline data)
//! are the caller's to write, as a driver would program them.
//!
//! [`run_dispatch`] runs the threads one group after another (groups in
//! the order of their first thread); within a group the threads take
//! turns: each runs until it ends or waits at the group's barrier (a
//! gateway barrier message), and the barrier opens when every thread of
//! the group that has not ended waits at it. The order is fixed (lowest
//! thread first), so a run is deterministic. Groups run one after another
//! on one core: threads of different groups share only the surfaces and
//! flat memory, and running them at once would make a race between groups
//! (atomics included) give other results than this order.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{Memory, Outcome, Program, Resumable, RunOptions, SimError, Thread};

/// The dword of `r0` that holds the thread group ID X.
pub const R0_GROUP_ID_X: u32 = 1;
/// The dword of `r0` that holds the barrier ID.
pub const R0_BARRIER_DWORD: u32 = 2;
/// The bits of `r0.2` that hold the barrier ID on Gen7 and Gen8.
pub const R0_BARRIER_ID_MASK: u32 = 0x0f00_0000;
/// The dword of `r0` that holds the thread group ID Y.
pub const R0_GROUP_ID_Y: u32 = 6;
/// The dword of `r0` that holds the thread group ID Z.
pub const R0_GROUP_ID_Z: u32 = 7;

/// One thread of a dispatch.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DispatchThread {
    /// The index of the thread's group (its shared local memory and barrier).
    pub group: u32,
    /// The thread's registers: set before the run, read after.
    pub thread: Thread,
}

/// The threads of a dispatch, in the order they are numbered.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dispatch {
    threads: Vec<DispatchThread>,
}

impl Dispatch {
    /// No threads.
    pub fn new() -> Dispatch {
        Dispatch::default()
    }

    /// A grid of `groups` thread groups (X, Y, Z), `threads_per_group`
    /// threads each, every thread with the channels of `dispatch_mask`
    /// enabled and its `r0` header filled (see the module documentation);
    /// threads are numbered group by group, X fastest.
    pub fn gpgpu(groups: [u32; 3], threads_per_group: u32, dispatch_mask: u32) -> Dispatch {
        let mut d = Dispatch::new();
        let mut group = 0u32;
        for z in 0..groups[2] {
            for y in 0..groups[1] {
                for x in 0..groups[0] {
                    for _ in 0..threads_per_group {
                        let mut t = Thread::new();
                        t.set_dispatch_mask(dispatch_mask);
                        let barrier_id = (group << R0_BARRIER_ID_MASK.trailing_zeros()) & R0_BARRIER_ID_MASK;
                        for (dword, v) in [
                            (R0_GROUP_ID_X, x),
                            (R0_GROUP_ID_Y, y),
                            (R0_GROUP_ID_Z, z),
                            (R0_BARRIER_DWORD, barrier_id),
                        ] {
                            t.write_ud(0, dword * 4, v);
                        }
                        d.push(group, t);
                    }
                    group = group.wrapping_add(1);
                }
            }
        }
        d
    }

    /// Adds a thread to group `group`; its index is the number of threads
    /// before it.
    pub fn push(&mut self, group: u32, thread: Thread) {
        self.threads.push(DispatchThread { group, thread });
    }

    /// The threads.
    pub fn threads(&self) -> &[DispatchThread] {
        &self.threads
    }

    /// The threads, to set their registers.
    pub fn threads_mut(&mut self) -> &mut [DispatchThread] {
        &mut self.threads
    }
}

/// Why a dispatch stopped: a thread's error, with the thread.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("thread {thread}: {error}")]
#[non_exhaustive]
pub struct DispatchError {
    /// The index of the thread.
    pub thread: u32,
    /// What happened.
    pub error: SimError,
}

/// Runs every thread of `dispatch` on `prog` against `mem` (see the module
/// documentation for the order). Each thread's registers are left as its
/// run left them; the outcome of each thread, in order.
pub fn run_dispatch(
    prog: &Program,
    dispatch: &mut Dispatch,
    mem: &mut Memory,
    opts: &RunOptions,
) -> Result<Vec<Outcome>, DispatchError> {
    let n = dispatch.threads.len();
    let mut outcomes: Vec<Option<Outcome>> = alloc::vec![None; n];
    // The groups, in the order of their first thread.
    let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
    let mut index: BTreeMap<u32, usize> = BTreeMap::new();
    for (k, t) in dispatch.threads.iter().enumerate() {
        let Ok(k) = u32::try_from(k) else { break };
        let slot = *index.entry(t.group).or_insert_with(|| {
            groups.push((t.group, Vec::new()));
            groups.len() - 1
        });
        if let Some((_, members)) = groups.get_mut(slot) {
            members.push(k);
        }
    }
    for (group, members) in groups {
        let mut runs: Vec<(u32, Resumable)> = members.iter().map(|&k| (k, Resumable::new(prog))).collect();
        for &k in &members {
            if let Some(t) = dispatch.threads.get_mut(k as usize) {
                t.thread.set_ids(k, group);
            }
        }
        // Turns: each thread runs until it ends or waits at the barrier;
        // after a turn every thread left waits there, and it opens.
        loop {
            let mut live = 0;
            for (k, run) in runs.iter_mut() {
                let Some(t) = dispatch.threads.get_mut(*k as usize) else {
                    continue;
                };
                if run.ended() {
                    continue;
                }
                match run.resume(prog, &mut t.thread, mem, opts) {
                    Ok(Some(out)) => {
                        if let Some(o) = outcomes.get_mut(*k as usize) {
                            *o = Some(out);
                        }
                    }
                    Ok(None) => live += 1,
                    Err(error) => return Err(DispatchError { thread: *k, error }),
                }
            }
            if live == 0 {
                break;
            }
        }
    }
    Ok(outcomes.into_iter().flatten().collect())
}
