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
//! (the CURBE data, local invocation IDs) are the caller's to write, as a
//! driver would program them.
//!
//! [`Dispatch::media`] lays out the payload of media threads (one
//! `MEDIA_OBJECT` each): `r0`, then the interface descriptor's constant
//! URB entry (CURBE) data from `r1`, as many registers as it takes, then
//! the object's inline data in the registers after it (both zero-padded
//! to whole registers). This is the order the PRM's media thread payload
//! gives (header, constant data, inline or indirect data) and the one the
//! drivers' media kernels read: IGT's Gen8 `media_fill` loads one CURBE
//! register and sends the inline data (X and Y offsets) in `MEDIA_OBJECT`,
//! and its kernel takes the fill colour from `g1` and the offsets from
//! `g2`. Media threads are independent: each is its own group (no barrier
//! or shared local memory between them). Their `r0` is zero (the fields
//! the hardware puts there, the interface descriptor offset, scratch space
//! pointer and FFTID, are the caller's to set if the kernel reads them).
//!
//! [`run_dispatch`] runs the threads one group after another (groups in
//! the order of their first thread); within a group the threads take
//! turns: each runs until it ends or waits at the group's barrier (a
//! gateway barrier message), and the barrier opens when every thread of
//! the group that has not ended waits at it. The order is fixed (lowest
//! thread first), so a run is deterministic.
//!
//! [`run_dispatch_parallel`] (with the `std` feature) gives the same result
//! with the groups spread over worker threads. Threads of different groups
//! share only the surfaces, flat memory and URB entries, so each group of a
//! batch runs against its own view of the memory, recording the bytes it
//! reads and writes; the groups are then committed in order, and one that
//! read what an earlier group of its batch wrote runs again, in order, on
//! the memory itself (see the function). A race between groups (atomics
//! included) thus resolves as in the order above. Without `std` only the
//! sequential [`run_dispatch`] exists.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{Memory, Outcome, Program, Resumable, RunOptions, SimError, Thread};
use crate::isa::{GRF_BYTES, GRF_COUNT};

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

/// A media thread's payload does not fit in the register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("media thread {thread}: r0, the constant data and the inline data take {registers} registers, more than the {available} of the register file")]
#[non_exhaustive]
pub struct MediaPayloadError {
    /// The index of the thread (its inline data).
    pub thread: u32,
    /// The registers its payload needs.
    pub registers: u32,
    /// The registers there are.
    pub available: u32,
}

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

    /// One media thread per entry of `inline` (a `MEDIA_OBJECT`'s inline
    /// data), each in its own group, with the channels of `dispatch_mask`
    /// enabled: `r0` zero, the constant data `curbe` from `r1`, the inline
    /// data in the registers after it (see the module documentation).
    pub fn media<I: AsRef<[u8]>>(
        curbe: &[u8],
        inline: &[I],
        dispatch_mask: u32,
    ) -> Result<Dispatch, MediaPayloadError> {
        let grf = GRF_BYTES as usize;
        let curbe_regs = curbe.len().div_ceil(grf);
        let mut d = Dispatch::new();
        for (k, data) in inline.iter().enumerate() {
            let data = data.as_ref();
            let thread = u32::try_from(k).unwrap_or(u32::MAX);
            let regs = 1 + curbe_regs + data.len().div_ceil(grf);
            if regs > GRF_COUNT as usize {
                return Err(MediaPayloadError {
                    thread,
                    registers: u32::try_from(regs).unwrap_or(u32::MAX),
                    available: GRF_COUNT,
                });
            }
            let mut t = Thread::new();
            t.set_dispatch_mask(dispatch_mask);
            let file = t.grf_mut();
            let at = grf;
            for (start, bytes) in [(at, curbe), (at + curbe_regs * grf, data)] {
                if let Some(dst) = file.get_mut(start..start + bytes.len()) {
                    dst.copy_from_slice(bytes);
                }
            }
            d.push(thread, t);
        }
        Ok(d)
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

/// The groups of a dispatch, in the order of their first thread: the group
/// index and its threads' indices.
fn groups_of(dispatch: &Dispatch) -> Vec<(u32, Vec<u32>)> {
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
    groups
}

/// What running one group gave: its threads' registers and outcomes (in
/// the order of its members), and the error that stopped it.
struct GroupRun {
    threads: Vec<Thread>,
    outcomes: Vec<Option<Outcome>>,
    error: Option<DispatchError>,
}

/// Runs the threads `members` of group `group` (their registers taken from
/// `dispatch`) against `mem`: turns between barriers, lowest thread first.
fn run_group(
    prog: &Program,
    dispatch: &Dispatch,
    group: u32,
    members: &[u32],
    mem: &mut Memory,
    opts: &RunOptions,
) -> GroupRun {
    let mut threads: Vec<Thread> = members
        .iter()
        .filter_map(|&k| dispatch.threads.get(k as usize))
        .map(|t| t.thread.clone())
        .collect();
    for (t, &k) in threads.iter_mut().zip(members) {
        t.set_ids(k, group);
    }
    let mut outcomes: Vec<Option<Outcome>> = alloc::vec![None; threads.len()];
    let mut runs: Vec<Resumable> = threads.iter().map(|_| Resumable::new()).collect();
    // Turns: each thread runs until it ends or waits at the barrier; after
    // a turn every thread left waits there, and it opens.
    loop {
        let mut live = 0;
        for (((t, run), out), &k) in threads
            .iter_mut()
            .zip(runs.iter_mut())
            .zip(outcomes.iter_mut())
            .zip(members)
        {
            if run.ended() {
                continue;
            }
            match run.resume(prog, t, mem, opts) {
                Ok(Some(o)) => *out = Some(o),
                Ok(None) => live += 1,
                Err(error) => {
                    return GroupRun {
                        threads,
                        outcomes,
                        error: Some(DispatchError { thread: k, error }),
                    }
                }
            }
        }
        if live == 0 {
            return GroupRun {
                threads,
                outcomes,
                error: None,
            };
        }
    }
}

/// Stores a group's run into the dispatch and the outcomes; its error, if
/// it stopped on one.
fn store(
    dispatch: &mut Dispatch,
    outcomes: &mut [Option<Outcome>],
    members: &[u32],
    run: GroupRun,
) -> Result<(), DispatchError> {
    for ((t, o), &k) in run.threads.into_iter().zip(run.outcomes).zip(members) {
        if let Some(d) = dispatch.threads.get_mut(k as usize) {
            d.thread = t;
        }
        if let Some(slot) = outcomes.get_mut(k as usize) {
            *slot = o;
        }
    }
    run.error.map_or(Ok(()), Err)
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
    let mut outcomes: Vec<Option<Outcome>> = alloc::vec![None; dispatch.threads.len()];
    for (group, members) in groups_of(dispatch) {
        let run = run_group(prog, dispatch, group, &members, mem, opts);
        store(dispatch, &mut outcomes, &members, run)?;
    }
    Ok(outcomes.into_iter().flatten().collect())
}

#[cfg(feature = "std")]
pub use parallel::{run_dispatch_parallel, DispatchStats};

#[cfg(feature = "std")]
mod parallel {
    use super::{groups_of, run_group, store, Dispatch, DispatchError, GroupRun};
    use crate::sim::track::{Access, Ranges};
    use crate::sim::{Memory, Outcome, Program, RunOptions};
    use alloc::vec::Vec;
    use core::sync::atomic::{AtomicUsize, Ordering};

    /// How a parallel dispatch went.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    #[non_exhaustive]
    pub struct DispatchStats {
        /// Thread groups.
        pub groups: usize,
        /// Groups whose run on a worker was kept.
        pub parallel: usize,
        /// Groups run again (or only) on the caller's memory, in order:
        /// those that read what a group before them in their batch wrote,
        /// and those of batches run one after another.
        pub sequential: usize,
    }

    /// A group's run on a worker, against its own view of the memory.
    struct Speculative {
        run: GroupRun,
        view: Memory,
        access: Access,
    }

    /// Runs `dispatch` as [`super::run_dispatch`] does, with the same
    /// result (every thread's registers and outcome, every byte of `mem`,
    /// the URB and render target writes in the same order, the same
    /// error), its groups spread over `workers` threads.
    ///
    /// Groups go in batches (four per worker). Each group of a batch runs
    /// on a worker against its own view of `mem` as the batch found it
    /// (sharing its bytes; what the group writes goes into copies of the
    /// surfaces of up to 64 KiB it writes and 256-byte pages of larger
    /// surfaces and of flat memory), recording the
    /// bytes of surfaces and flat memory it reads and writes (a message
    /// that reaches a surface as a whole, typed, media block, sampler or
    /// render target, counts as reading and writing all of it; the URB
    /// entries count as one block). Then, in group order, a group's writes
    /// are copied into `mem` if it read nothing that a group before it in
    /// the batch wrote; otherwise it runs again on `mem` itself, which by
    /// then holds what the groups before it wrote. Shared local memory and
    /// scratch space belong to one group and one thread. A batch where
    /// most groups had to run again is followed by one run one group after
    /// another, so a dispatch whose groups all depend on each other (one
    /// atomic counter) costs little more than the sequential run.
    /// `workers` of 0 or 1 runs [`super::run_dispatch`].
    pub fn run_dispatch_parallel(
        prog: &Program,
        dispatch: &mut Dispatch,
        mem: &mut Memory,
        opts: &RunOptions,
        workers: usize,
    ) -> Result<(Vec<Outcome>, DispatchStats), DispatchError> {
        let groups = groups_of(dispatch);
        let mut stats = DispatchStats {
            groups: groups.len(),
            ..DispatchStats::default()
        };
        let mut outcomes: Vec<Option<Outcome>> = alloc::vec![None; dispatch.threads.len()];
        let full = workers.saturating_mul(4).max(1);
        let mut batch = full;
        let mut sequential_next = workers <= 1;
        let mut next = 0;
        while next < groups.len() {
            let end = groups.len().min(next + batch);
            let part = groups.get(next..end).unwrap_or(&[]);
            next = end;
            if sequential_next {
                for (group, members) in part {
                    let run = run_group(prog, dispatch, *group, members, mem, opts);
                    stats.sequential += 1;
                    store(dispatch, &mut outcomes, members, run)?;
                }
                sequential_next = workers <= 1;
                continue;
            }
            let spec = speculate(prog, dispatch, part, mem, opts, workers);
            let mut written = Ranges::default();
            let mut again = 0;
            for ((group, members), s) in part.iter().zip(spec) {
                let run = if written.meets_any(&s.access.reads) {
                    again += 1;
                    stats.sequential += 1;
                    mem.start_tracking();
                    let run = run_group(prog, dispatch, *group, members, mem, opts);
                    let access = mem.take_access();
                    written.add_all(&access.writes);
                    run
                } else {
                    stats.parallel += 1;
                    written.add_all(&s.access.writes);
                    mem.commit(s.view, &s.access, *group, members);
                    s.run
                };
                store(dispatch, &mut outcomes, members, run)?;
            }
            if again * 2 > part.len() {
                sequential_next = true;
                batch = (batch / 2).max(workers);
            } else {
                batch = full;
            }
        }
        Ok((outcomes.into_iter().flatten().collect(), stats))
    }

    /// Runs each group of `part` on a worker against its own view of `mem`.
    fn speculate(
        prog: &Program,
        dispatch: &Dispatch,
        part: &[(u32, Vec<u32>)],
        mem: &Memory,
        opts: &RunOptions,
        workers: usize,
    ) -> Vec<Speculative> {
        let next = AtomicUsize::new(0);
        let work = || {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((group, members)) = part.get(i) else {
                    return done;
                };
                let mut view = mem.view(*group, members);
                let run = run_group(prog, dispatch, *group, members, &mut view, opts);
                let access = view.take_access();
                done.push((i, Speculative { run, view, access }));
            }
        };
        let mut all: Vec<(usize, Speculative)> = std::thread::scope(|s| {
            let handles: Vec<_> = (1..workers.min(part.len())).map(|_| s.spawn(work)).collect();
            let mut all = work();
            for h in handles {
                // A worker panics only on a bug; its groups are then
                // missing and run again below.
                if let Ok(mut d) = h.join() {
                    all.append(&mut d);
                }
            }
            all
        });
        all.sort_by_key(|(i, _)| *i);
        let mut out = Vec::with_capacity(part.len());
        let mut it = all.into_iter().peekable();
        for (i, (group, members)) in part.iter().enumerate() {
            match it.next_if(|(k, _)| *k == i) {
                Some((_, s)) => out.push(s),
                None => {
                    let mut view = mem.view(*group, members);
                    let run = run_group(prog, dispatch, *group, members, &mut view, opts);
                    let access = view.take_access();
                    out.push(Speculative { run, view, access });
                }
            }
        }
        out
    }
}
