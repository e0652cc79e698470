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
//! return the correctly rounded result of Rust's `f64` functions where the
//! hardware is only approximate (documented per function).
//!
//! # Use
//!
//! ```
//! use geneu::sim::{run, Program, RunOptions, Thread, Memory, End};
//! use geneu::{Platform, Instruction, Opcode, ExecSize, Dst, Src, Type, Region};
//! // add(8) g2<1>:D g3<8;8,1>:D 5:D, one native word.
//! let mut add = Instruction::new(Opcode::Add, ExecSize::S8);
//! add.dst = Dst::grf(2, 0, Type::D);
//! add.src[0] = Src::grf(3, 0, Type::D, Region::new(8, 8, 1).unwrap());
//! add.src[1] = Src::imm(Type::D);
//! add.imm = 5;
//! let bytes = geneu::encode(Platform::Gen8, &add).unwrap();
//! let prog = Program::new(Platform::Gen8, &bytes).unwrap();
//! let mut t = Thread::new();
//! t.write_ud8(3, [0, 1, 2, 3, 4, 5, 6, u32::MAX]);
//! let mut opts = RunOptions::default();
//! opts.end_at_program_end = true;
//! let out = run(&prog, &mut t, &mut Memory::default(), &opts).unwrap();
//! assert_eq!(out.end, End::ProgramEnd);
//! assert_eq!(t.read_ud8(2), Some([5, 6, 7, 8, 9, 10, 11, 4]));
//! ```
//!
//! # Control flow
//!
//! SIMD control flow follows the PRM's per-channel instruction pointer
//! model of Gen6+: each enabled channel either runs with the thread or
//! waits, parked at an instruction, until the thread reaches it. A
//! channel that an `if` turns off waits at the `if`'s JIP (the
//! instruction after `else`, or `endif`); `else` parks the running
//! channels at its JIP; `break` parks them after the loop's `while`
//! (Mesa's Gen7+ UIP points at the `while`, Gen6's after it: the
//! simulator resumes broken channels after it on every platform), `cont`
//! at the `while`, `halt` at its UIP. After a forward branch the thread
//! goes on to the next instruction if a channel runs or waits there, and
//! jumps to the JIP otherwise; `while` (and a backward `goto`) jumps back
//! when a channel goes back, parking the others after it.
//!
//! # What is modelled
//!
//! - Registers ([`Thread`]): g0-g127, `a0` (16 words; Gen7/7.5 name 8),
//!   the accumulators as 32 per-channel wide slots (enough for `addc`'s
//!   carry, `subb`'s borrow, `mul`'s 64-bit product and `mac`), `f0`/`f1`,
//!   `sr0`, `cr0` (rounding mode, single/double/half denormal controls),
//!   `ce` (the dispatch channel enables), `ip`, `tm0` (the step count,
//!   deterministic), `tdr0`, `n0`. The null register reads zero.
//! - Operands: align1 regions, direct and indirect (`a0 + imm`, VxH,
//!   Vx1), align16 swizzles and write masks, 3-source operands with
//!   replication, source modifiers (negate is a bitwise not on logic
//!   opcodes), saturation, conversions between B, UB, W, UW, D, UD, F,
//!   HF, DF, Q and UQ (float to integer rounds toward zero and
//!   saturates), V, UV and VF immediates. Compressed SIMD16 falls out of
//!   the region formula. Every source element is read before the first
//!   destination write. On Ivy Bridge an instruction with a DF operand
//!   counts its execution size and regions in 32-bit units (each DF
//!   channel takes two execution channels). Align16 64-bit operands (DF,
//!   Q, UQ) swizzle and mask 32-bit components: a group of four
//!   components is 16 bytes holding two 64-bit channels, each read from
//!   the two components its half of the swizzle names and written in the
//!   halves its write-mask bits enable.
//! - The execution mask: quarter and nibble control, NoMask, every
//!   predicate control of both access modes, inversion, conditional
//!   modifiers (the condition is evaluated on the saturated result;
//!   `.u` is unordered, `.o` an infinite result), CMPN's and SEL's NaN
//!   rule (the number wins).
//! - Opcodes: every ALU opcode of the three generations but those listed
//!   below (SAD2 and SADA2 included: each even channel sums the absolute
//!   differences of its byte pair, SADA2 adding the accumulator; the odd
//!   channels are not written), MATH (INV, LOG, EXP, SQRT, RSQ, SIN, COS, POW, FDIV, the
//!   integer divisions; the transcendental ones are the correctly rounded
//!   results of Rust's `f64` functions, where the hardware is
//!   approximate; they need the `std` feature), Gen8's math macros
//!   `madm` and MATH `invm` and `rsqrtm` with their `mme0`-`mme7`
//!   extended-precision registers (see `mme`: IGC's IEEE division and
//!   square root sequences give the correctly rounded results; the
//!   hardware's initial approximations are not documented and the
//!   model's are named there), NOP, WAIT (a no-op for a single thread),
//!   Haswell's DIM, and SEND/SENDC through the messages'
//!   `send::execute`. Broadwell's and Cherryview's MOVI in the one form a
//!   source defines (IGC's finalizer rewrites a raw SIMD8 `mov` from an
//!   indirect Vx1 source into it): a raw move of a B, UB, W, UW, D, UD or
//!   F element from `r[a0.j, imm]<1;1,0>` to a packed destination in one
//!   GRF, channel k reading at `a0.(j+k) + imm`, every channel within one
//!   aligned half GRF.
//! - Control flow: IF, ELSE, ENDIF, WHILE, BREAK, CONT, HALT, Gen8's GOTO
//!   and JOIN, JMPI, CALL, CALLA and RET (see above).
//!
//! # What is not
//!
//! Returned as [`SimError::Unsupported`] naming the opcode, never a
//! silent no-op: `brd` and `brc` (which channels branch and where the
//! others wait is defined only by the PRM's pages, which are not in the
//! sources the simulator follows), `movi` beyond the form IGC emits (see
//! above), `smov` (no source defines its operation; see
//! [`crate::isa::opcode`]), SEND payloads through an address register,
//! align16 instructions mixing 64-bit and narrower register operands
//! (their channel layout is not documented), and the math-macro forms
//! `mme` lists. Not modelled at all:
//! NaN payloads (any NaN is a NaN), `cr0`'s ALT float mode, directed
//! rounding of DF and of MATH results, the two halves of a compressed
//! instruction seeing each other's writes, timing, and the thread's
//! dependency on other threads (`wait` does not wait).
//!
//! # Speed
//!
//! A program is decoded once; each instruction keeps its branch targets
//! as indices and, for the common ALU forms (align1 F/D/UD/W/UW operands
//! without saturation), a plan with every element's byte address
//! precomputed, which a few monomorphised loops execute. A step allocates
//! nothing (the trace, when asked for, does).

pub mod dispatch;
mod error;
mod exec;
mod fast;
mod float;
pub mod memory;
mod mme;
mod program;
mod send;
mod state;
mod track;

use alloc::vec::Vec;

pub use dispatch::{run_dispatch, Dispatch, DispatchError, DispatchThread, MediaPayloadError};
#[cfg(feature = "std")]
pub use dispatch::{run_dispatch_parallel, DispatchStats};
pub use error::SimError;
pub use memory::{
    AddressMode, ChannelKind, Memory, MemoryError, RtWrite, SamplerState, Surface, SurfaceFormat, UrbWrite,
    SLM_SIZE_MAX, URB_ENTRY_DWORDS_MAX,
};
pub use mme::MmeValue;
pub use program::Program;
pub use state::{Arf, Thread};

use crate::isa::GRF_BYTES;
use crate::model::{Addr, Form, Instruction, Opcode, RegFile};
use exec::{low, Ctx, Geo};
use program::Target;
use state::GRF_FILE_BYTES;

/// How to run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunOptions {
    /// The most instructions to execute ([`SimError::StepLimit`] past it).
    pub step_limit: u64,
    /// Record a [`TraceEntry`] per executed instruction.
    pub trace: bool,
    /// Reaching the end of the program ends the thread ([`End::ProgramEnd`])
    /// instead of failing with [`SimError::RanOffEnd`]: for fragments
    /// without an end-of-thread SEND.
    pub end_at_program_end: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            step_limit: 1_000_000,
            trace: false,
            end_at_program_end: false,
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum End {
    /// A SEND ended the thread (EOT).
    EndOfThread,
    /// The thread ran past the last instruction
    /// ([`RunOptions::end_at_program_end`]).
    ProgramEnd,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Outcome {
    /// How the thread ended.
    pub end: End,
    /// Instructions executed.
    pub steps: u64,
    /// Per executed instruction, in order (empty unless
    /// [`RunOptions::trace`]).
    pub trace: Vec<TraceEntry>,
}

/// One executed instruction.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TraceEntry {
    /// Its byte offset.
    pub offset: u32,
    /// The instruction.
    pub instruction: Instruction,
    /// The channels that executed it (bit n is channel n): after the
    /// execution mask, NoMask and predication.
    pub channels: u32,
    /// Every register byte it changed.
    pub changes: Vec<Change>,
}

/// A register byte an instruction changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// Where.
    pub at: Loc,
    /// The byte before.
    pub old: u8,
    /// The byte after.
    pub new: u8,
}

/// A register byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Loc {
    /// Byte `byte` of g`reg`.
    Grf {
        /// The register.
        reg: u8,
        /// The byte in it.
        byte: u8,
    },
    /// Byte `byte` of an architecture register.
    Arf {
        /// The register.
        reg: Arf,
        /// The byte in it.
        byte: u8,
    },
}

/// No channel parked.
const NOT_PARKED: u32 = u32::MAX;

/// The per-channel instruction pointers: the running channels, and for
/// each waiting channel the instruction where it waits.
struct Channels {
    active: u32,
    parked: [u32; 32],
    /// Waiting channels per instruction index (the program's length
    /// included).
    waiters: Vec<u8>,
}

impl Channels {
    fn park(&mut self, mask: u32, at: u32) {
        let mut m = mask & self.active;
        self.active &= !m;
        while m != 0 {
            let ch = m.trailing_zeros();
            m &= m - 1;
            if let Some(p) = self.parked.get_mut(ch as usize) {
                *p = at;
                if let Some(w) = self.waiters.get_mut(at as usize) {
                    *w = w.saturating_add(1);
                }
            }
        }
    }

    /// Wakes the channels waiting at `at`.
    #[inline]
    fn wake(&mut self, at: u32) {
        if self.waiters.get(at as usize).map_or(true, |&w| w == 0) {
            return;
        }
        for (ch, p) in self.parked.iter_mut().enumerate() {
            if *p == at {
                *p = NOT_PARKED;
                self.active |= 1 << ch;
            }
        }
        if let Some(w) = self.waiters.get_mut(at as usize) {
            *w = 0;
        }
    }

    fn waiting_at(&self, at: u32) -> bool {
        self.waiters.get(at as usize).is_some_and(|&w| w > 0)
    }
}

/// Runs `thread` on `prog` from its first instruction until a SEND ends
/// the thread (or, with [`RunOptions::end_at_program_end`], the program
/// ends). The thread's registers are updated in place, also when the run
/// fails. A barrier message alone in its group opens at once; threads
/// that meet at barriers run through [`dispatch::run_dispatch`].
pub fn run(prog: &Program, thread: &mut Thread, mem: &mut Memory, opts: &RunOptions) -> Result<Outcome, SimError> {
    let mut r = Resumable::new();
    loop {
        if let Some(out) = r.resume(prog, thread, mem, opts)? {
            return Ok(out);
        }
    }
}

/// Where a thread stands between its turns: the per-channel instruction
/// pointers, the next instruction, the steps and the trace so far.
struct RunState {
    ch: Channels,
    idx: u32,
    steps: u64,
    trace: Vec<TraceEntry>,
}

/// A run that stops at barriers and goes on from there.
pub(crate) struct Resumable {
    /// `None` before the first turn (the dispatch mask is read then) and
    /// during a turn.
    state: Option<RunState>,
    ended: bool,
}

impl Resumable {
    pub(crate) fn new() -> Resumable {
        Resumable {
            state: None,
            ended: false,
        }
    }

    /// Whether the thread has ended (or failed).
    pub(crate) fn ended(&self) -> bool {
        self.ended
    }

    /// Runs the thread until it ends (`Some`) or waits at a barrier
    /// (`None`).
    pub(crate) fn resume(
        &mut self,
        prog: &Program,
        thread: &mut Thread,
        mem: &mut Memory,
        opts: &RunOptions,
    ) -> Result<Option<Outcome>, SimError> {
        let saved = self.state.take();
        // An error ends the thread too.
        self.ended = true;
        match run_from(prog, thread, mem, opts, saved)? {
            Stop::Ended(out) => Ok(Some(out)),
            Stop::Barrier(st) => {
                self.state = Some(st);
                self.ended = false;
                Ok(None)
            }
        }
    }
}

/// Why a turn stopped.
enum Stop {
    Ended(Outcome),
    Barrier(RunState),
}

fn run_from(
    prog: &Program,
    thread: &mut Thread,
    mem: &mut Memory,
    opts: &RunOptions,
    saved: Option<RunState>,
) -> Result<Stop, SimError> {
    let p = prog.platform();
    let len = prog.len() as u32;
    let RunState {
        mut ch,
        mut idx,
        mut steps,
        mut trace,
    } = match saved {
        Some(st) => st,
        None => RunState {
            ch: Channels {
                active: thread.dispatch_mask(),
                parked: [NOT_PARKED; 32],
                waiters: alloc::vec![0; prog.len() + 1],
            },
            idx: 0,
            steps: 0,
            trace: Vec::new(),
        },
    };
    let mut before_grf: Vec<u8> = Vec::new();
    let (mut arf_before, mut arf_after) = (Vec::new(), Vec::new());
    let mut mme_before: Option<alloc::boxed::Box<mme::MmeFile>> = None;
    loop {
        ch.wake(idx);
        let Some(slot) = prog.slots.get(idx as usize) else {
            if opts.end_at_program_end {
                return Ok(Stop::Ended(Outcome {
                    end: End::ProgramEnd,
                    steps,
                    trace,
                }));
            }
            return Err(SimError::RanOffEnd {
                offset: prog.len_bytes(),
            });
        };
        let offset = slot.offset;
        if steps >= opts.step_limit {
            return Err(SimError::StepLimit {
                steps: opts.step_limit,
                offset,
            });
        }
        let inst = match &slot.inst {
            Ok(i) => i,
            Err(e) => return Err(SimError::Decode { offset, error: *e }),
        };
        steps += 1;
        thread.ip = offset.to_le_bytes();
        thread.tm0 = steps.to_le_bytes();
        if opts.trace {
            before_grf.clear();
            before_grf.extend_from_slice(thread.grf());
            thread.arf_image(&mut arf_before);
            match &mut mme_before {
                Some(m) => **m = *thread.mme,
                None => mme_before = Some(thread.mme.clone()),
            }
        }
        let geo = slot.geo;
        let next = idx + 1;
        let mut executed: u32;
        let mut ended = false;
        let mut barrier = false;
        let tgt = |t: Option<Target>| -> Result<u32, SimError> {
            match t {
                Some(Ok(k)) => Ok(k),
                Some(Err(target)) => Err(SimError::BadJump { offset, target }),
                None => Err(SimError::Unsupported {
                    offset,
                    what: "a branch whose target is not an immediate",
                }),
            }
        };
        let form = inst.opcode.form();
        match form {
            Form::Unary | Form::Binary | Form::Ternary | Form::Math | Form::Nullary | Form::Wait => {
                if let Some(m) = slot
                    .plan
                    .as_ref()
                    .and_then(|plan| plan.run(thread, ch.active, inst.controls.contains(crate::Controls::WE_ALL)))
                {
                    executed = m;
                    idx = next;
                } else {
                    let mut ctx = Ctx {
                        p,
                        t: thread,
                        i: inst,
                        offset,
                        geo,
                    };
                    executed = exec::alu(&mut ctx, ch.active)?;
                    idx = next;
                }
            }
            Form::Send => {
                let (done, mask, wait) = send(p, thread, inst, offset, geo, ch.active, mem)?;
                executed = mask;
                ended = done;
                barrier = wait;
                idx = next;
            }
            _ => {
                let ctx = Ctx {
                    p,
                    t: thread,
                    i: inst,
                    offset,
                    geo,
                };
                let pred = ctx.predicate()?;
                let predicated = !matches!(inst.pred_ctrl(), Ok(None));
                let mine = ch.active & geo.abs(low(geo.n));
                let taken = mine & geo.abs(pred);
                // The channels that follow the instruction: the
                // predicated ones (all, unpredicated).
                let go = if predicated { taken } else { mine };
                executed = go;
                // After a forward branch: on if a channel runs or waits at
                // the next instruction, else to the JIP.
                let forward = |c: &Channels| -> Result<u32, SimError> {
                    if c.active != 0 || c.waiting_at(next) {
                        Ok(next)
                    } else {
                        tgt(slot.jip)
                    }
                };
                match inst.opcode {
                    Opcode::If => {
                        let j = tgt(slot.jip)?;
                        // The channels whose predicate is false skip.
                        ch.park(mine & !go, j);
                        executed = mine & go;
                        idx = forward(&ch)?;
                    }
                    Opcode::Else => {
                        ch.park(mine, tgt(slot.jip)?);
                        executed = mine;
                        idx = forward(&ch)?;
                    }
                    Opcode::Endif | Opcode::Join => {
                        executed = mine;
                        idx = forward(&ch)?;
                    }
                    Opcode::Break => {
                        let w = tgt(slot.uip)?;
                        if w >= len {
                            return Err(SimError::BadJump {
                                offset,
                                target: i64::from(prog.len_bytes()),
                            });
                        }
                        ch.park(go, w + 1);
                        idx = forward(&ch)?;
                    }
                    Opcode::Cont | Opcode::Halt => {
                        ch.park(go, tgt(slot.uip)?);
                        idx = forward(&ch)?;
                    }
                    Opcode::While => {
                        let j = tgt(slot.jip)?;
                        if go != 0 {
                            let stay = ch.active & !go;
                            ch.park(stay, next);
                            ch.active = go;
                            idx = j;
                        } else {
                            idx = next;
                        }
                    }
                    Opcode::Goto => {
                        let u = tgt(slot.uip)?;
                        if u > idx {
                            ch.park(go, u);
                            idx = forward(&ch)?;
                        } else if go != 0 {
                            let stay = ch.active & !go;
                            ch.park(stay, next);
                            ch.active = go;
                            idx = u;
                        } else {
                            idx = next;
                        }
                    }
                    Opcode::Jmpi => {
                        let jump = !predicated || pred != 0;
                        executed = mine;
                        idx = if jump {
                            let mut ctx = ctx;
                            jmpi_target(prog, slot, inst, &mut ctx)?
                        } else {
                            next
                        };
                    }
                    Opcode::Call | Opcode::Calla => {
                        let go = if predicated { taken } else { mine };
                        if go == 0 {
                            idx = next;
                        } else {
                            let t = tgt(slot.jip)?;
                            let ret = prog.offset_of(next as usize).unwrap_or(prog.len_bytes());
                            let before = ch.active;
                            let mut ctx = ctx;
                            write_call(&mut ctx, ret, before)?;
                            let stay = ch.active & !go;
                            ch.park(stay, next);
                            ch.active = go;
                            idx = t;
                        }
                    }
                    Opcode::Ret => {
                        let mut ctx = ctx;
                        let r = ctx.read_ud(0, 0)?;
                        idx = prog
                            .resolve(i64::from(r))
                            .map_err(|target| SimError::BadJump { offset, target })?;
                        executed = mine;
                    }
                    // brd and brc: no source the simulator follows says
                    // which channels take the branch, where the others
                    // wait, or which channels a brc brings back. IGA's
                    // Gen8 model gives their operand forms only (JIP; JIP
                    // and UIP; or a register holding them, type D);
                    // Mesa never emits them; IGC's finalizer only maps
                    // them to IGA's opcodes and counts them as branch-unit
                    // instructions; Beignet's encoder (`GenEncoder::BRD`,
                    // `BRC`) and code emission patch their JIP and UIP as
                    // for if/else, which says where the offsets point, not
                    // which channels follow them. The PRM's BRD and BRC
                    // pages (Vol 2a) are the one definition, and their
                    // text is not in those sources.
                    _ => return Err(SimError::Unsupported {
                        offset,
                        what: "brd and brc: which channels branch and where the others wait is defined only by the PRM's BRD/BRC pages, not by a source the simulator follows",
                    }),
                }
            }
        }
        if opts.trace {
            let mut changes = Vec::new();
            for (k, (&o, &n)) in before_grf.iter().zip(thread.grf().iter()).enumerate() {
                if o != n {
                    changes.push(Change {
                        at: Loc::Grf {
                            reg: (k / GRF_BYTES as usize) as u8,
                            byte: (k % GRF_BYTES as usize) as u8,
                        },
                        old: o,
                        new: n,
                    });
                }
            }
            thread.arf_image(&mut arf_after);
            for (&(r, b, o), &(_, _, n)) in arf_before.iter().zip(arf_after.iter()) {
                // ip and tm0 change every step: not the instruction's doing.
                if o != n && !matches!(r, Arf::Ip | Arf::Tm0) {
                    changes.push(Change {
                        at: Loc::Arf { reg: r, byte: b },
                        old: o,
                        new: n,
                    });
                }
            }
            let old_slots = mme_before.as_deref().into_iter().flatten().flatten();
            for (k, (o, n)) in old_slots.zip(thread.mme.iter().flatten()).enumerate() {
                if o == n {
                    continue;
                }
                let reg = Arf::Mme {
                    reg: (k / crate::isa::MAX_CHANNELS) as u8,
                    channel: (k % crate::isa::MAX_CHANNELS) as u8,
                };
                for (b, (&o, n)) in o.image().iter().zip(n.image()).enumerate() {
                    if o != n {
                        changes.push(Change {
                            at: Loc::Arf { reg, byte: b as u8 },
                            old: o,
                            new: n,
                        });
                    }
                }
            }
            trace.push(TraceEntry {
                offset,
                instruction: *inst,
                channels: executed,
                changes,
            });
        }
        if ended {
            return Ok(Stop::Ended(Outcome {
                end: End::EndOfThread,
                steps,
                trace,
            }));
        }
        if barrier {
            return Ok(Stop::Barrier(RunState { ch, idx, steps, trace }));
        }
    }
}

/// JMPI's target: the immediate's (resolved with the program), or a
/// register's offset, counted from the next instruction.
fn jmpi_target(prog: &Program, slot: &program::Slot, inst: &Instruction, ctx: &mut Ctx<'_>) -> Result<u32, SimError> {
    let offset = slot.offset;
    if inst.src[1].is_imm() {
        return match slot.jip {
            Some(Ok(k)) => Ok(k),
            Some(Err(target)) => Err(SimError::BadJump { offset, target }),
            None => Err(SimError::Unsupported {
                offset,
                what: "a JMPI without a target",
            }),
        };
    }
    let v = ctx.read_ud(1, 0)? as i32;
    let target = i64::from(offset) + i64::from(slot.size) + i64::from(v) * prog.platform().jump_unit_bytes(inst.opcode);
    prog.resolve(target)
        .map_err(|target| SimError::BadJump { offset, target })
}

/// CALL's destination: the return offset in dword 0, the channels that
/// ran before the call in dword 1.
fn write_call(ctx: &mut Ctx<'_>, ret: u32, mask: u32) -> Result<(), SimError> {
    ctx.write_ud(0, ret)?;
    ctx.write_ud(1, mask)
}

/// Executes a SEND: returns whether the thread ends, the channels, and
/// whether the thread waits at its group's barrier.
fn send(
    p: crate::Platform,
    t: &mut Thread,
    inst: &Instruction,
    offset: u32,
    geo: Geo,
    active: u32,
    mem: &mut Memory,
) -> Result<(bool, u32, bool), SimError> {
    let ctx = Ctx {
        p,
        t,
        i: inst,
        offset,
        geo,
    };
    let pred = ctx.predicate()?;
    let en = if inst.controls.contains(crate::Controls::WE_ALL) {
        low(geo.n)
    } else {
        geo.rel(active)
    } & pred;
    // The message sees its slots (relative to the first channel); the
    // trace the absolute channels.
    let channel_mask = geo.abs(en);
    let sfid = inst.sfid().ok_or(SimError::UnmodelledMessage {
        offset,
        sfid: inst.cond_modifier,
        msg_type: 0,
        what: "a reserved shared function ID",
    })?;
    let desc = match inst.send_desc() {
        Some(d) => d,
        None => {
            let mut ctx = ctx;
            ctx.read_ud(1, 0)?
        }
    };
    let common = crate::msg::Common::decode(desc);
    let Addr::Direct { nr, .. } = inst.src[0].addr else {
        return Err(SimError::Unsupported {
            offset,
            what: "a SEND payload through an address register",
        });
    };
    let mut payload = [[0u8; GRF_BYTES as usize]; 16];
    let mlen = usize::from(common.mlen);
    for (k, r) in payload.iter_mut().enumerate().take(mlen) {
        let reg = usize::from(nr) + k;
        *r = t
            .reg(u8::try_from(reg).unwrap_or(u8::MAX))
            .filter(|_| reg < 128)
            .copied()
            .ok_or(SimError::RegisterOutOfRange {
                offset,
                operand: "payload",
                byte: (reg * GRF_BYTES as usize) as i64,
            })?;
    }
    let call = send::MessageCall {
        platform: p,
        offset,
        sfid,
        desc,
        exec_size: inst.exec_size.channels(),
        channel_mask: en,
        payload: payload.get(..mlen).unwrap_or(&[]),
        thread: t.thread_id,
        group: t.group_id,
        eot: inst.eot(),
    };
    let reply = send::execute(&call, mem)?;
    let rlen = usize::from(common.rlen);
    if inst.dst.file == RegFile::Grf {
        if let Addr::Direct { nr, .. } = inst.dst.addr {
            for (k, r) in reply.regs.iter().take(rlen).enumerate() {
                let reg = usize::from(nr) + k;
                let s = reg * GRF_BYTES as usize;
                match t.grf_mut().get_mut(s..s + GRF_BYTES as usize) {
                    Some(d) if s + (GRF_BYTES as usize) <= GRF_FILE_BYTES => d.copy_from_slice(r),
                    _ => {
                        return Err(SimError::RegisterOutOfRange {
                            offset,
                            operand: "response",
                            byte: s as i64,
                        })
                    }
                }
            }
        }
    }
    Ok((reply.end_of_thread || inst.eot(), channel_mask, reply.barrier))
}
