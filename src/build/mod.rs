//! A program builder for compiler backends: registers as values, a default
//! instruction state pushed and popped like Mesa's, one method per opcode
//! family, labels and structured control flow with JIP/UIP computed when
//! the program is finished, and SEND messages from typed descriptors.
//!
//! ```
//! use geneu::build::{g, imm_f, null, Builder, Predicate};
//! use geneu::{CondMod, Platform};
//!
//! let mut b = Builder::new(Platform::Gen8);
//! b.add(g(10), g(2), imm_f(1.0))?;
//! b.cmp(CondMod::L, null(), g(10), g(3))?;
//! b.state_mut().predicate = Some(Predicate::normal(0, 0));
//! b.if_()?;
//! b.state_mut().predicate = None;
//! b.mov(g(11), g(10))?;
//! b.else_()?;
//! b.mov(g(11), imm_f(0.0))?;
//! b.endif()?;
//! let prog = b.finish()?;
//! assert_eq!(prog.bytes().len(), 7 * 16);
//! // The IF jumps past the ELSE (JIP) and to the ENDIF (UIP), in bytes on Gen8.
//! let iff = prog.instructions().nth(2).unwrap().1;
//! assert_eq!((iff.jip(Platform::Gen8), iff.uip(Platform::Gen8)), (Some(48), Some(64)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What the builder decides
//!
//! - Operands: a destination with horizontal stride 0 gets stride 1, and in
//!   align1 a width-1 source of a SIMD1 instruction gets `<0;1,0>`, as
//!   Mesa's `brw_set_dest`/`brw_set_src0` do. In align16 a source encodes
//!   only its vertical stride (8 becomes 4) and its swizzle. Three-source
//!   operands are `<4;4,1>`, or replicated when their region is scalar.
//! - Operand values become the model's operands, and 1-, 2- and 3-source
//!   instructions get their operands, through constructors the text
//!   assembler shares (it lowers through them too): what they refuse is
//!   refused with the same words by both. The emitter's choices above are
//!   the builder's alone (text states every field it means).
//! - Hidden fields (the operands of flow control, src1 beside a one-source
//!   immediate, 16-bit immediate replication) come from the crate's one
//!   canonical function, so the builder, the text assembler and a caller
//!   building an [`Instruction`] by hand get the same bytes.
//! - Control flow follows Mesa's `patch_IF_ELSE` and `brw_set_uip_jip`:
//!   IF's JIP is the instruction after the ELSE (the ENDIF without one), its
//!   UIP the ENDIF; ELSE jumps to the ENDIF (JIP, and UIP on Gen8); WHILE's
//!   JIP is the loop's first instruction; BREAK and CONT jump to the end of
//!   the innermost block (JIP) and to the loop's WHILE (UIP); ENDIF to the
//!   next block end or the next instruction; HALT's JIP is the innermost
//!   block end, or its UIP outside any block. Offsets are in bytes on Gen8
//!   and in 8-byte units on Gen7/7.5. (Newer Mesa points a Gen8 ELSE at a
//!   NOP before the ENDIF for Wa_220160235, a Gen9+ erratum; the builder
//!   keeps the Gen8-era rule that Mesa's Gen8 corpus shows.)
//! - `if_` and the other branches take the current state as it is: the
//!   predicate, execution size and channel group are the caller's.
//! - JMPI's offset, in src1, counts from the instruction after the JMPI,
//!   in the units of JIP. CALL writes the return address to its
//!   destination and carries its JIP where the platform's branches carry
//!   theirs; RET reads the register CALL wrote.
//! - `finish` validates every instruction with [`crate::validate`] and
//!   reports every violation with its instruction index and rule id; a
//!   lenient builder ([`Builder::set_strictness`]) lets conservative
//!   violations through as the program's warnings.

use alloc::vec::Vec;
use core::sync::atomic::{AtomicU32, Ordering};

use crate::compact::NATIVE_BYTES;
use crate::isa::region::{HSTRIDE_0, HSTRIDE_1, VSTRIDE_4, VSTRIDE_8, WIDTH_1};
use crate::isa::GRF_LAST;
use crate::model::*;
use crate::msg::{Channels, Dc0Op, Dc1Op, Message, SamplerSimd, SurfaceSimd, UrbOpcode};
use crate::validate::OperandId;
use crate::Strictness;
use construct::{Fault, Why};

pub(crate) mod construct;
pub mod error;
mod operand;
mod state;

pub use error::{BuildError, BuildErrors};
pub use operand::{
    acc, addr, arf, flag, g, imm_d, imm_df, imm_f, imm_hf, imm_q, imm_ud, imm_uq, imm_uv, imm_uw, imm_v, imm_vf, imm_w,
    indirect, ip, notification, null, swz, Chan, Imm, Operand, Reg,
};
pub use state::{PredCtrl, Predicate, State};

/// The canonical encoding of the fields the syntax does not show: the
/// crate's one function ([`crate::canon::canonicalize`]), for every
/// instruction (`call`, `calla` and `ret` print their operands).
#[inline]
fn canonicalize(p: Platform, i: &mut Instruction) {
    crate::canon::canonicalize(p, i)
}

/// Whether a direct register of `file` at `addr` lies beyond g127.
#[inline]
const fn beyond_grf(file: RegFile, addr: Addr) -> bool {
    matches!((file, addr), (RegFile::Grf, Addr::Direct { nr, .. }) if nr > GRF_LAST)
}

static NEXT_BUILDER: AtomicU32 = AtomicU32::new(1);

/// A jump target: a label, or an instruction index relative to the branch.
///
/// ```
/// use geneu::build::{Builder, Target};
/// let mut b = Builder::new(geneu::Platform::Gen8);
/// let l = b.label();
/// let t: Target = l.into();
/// assert_eq!(t, Target::Label(l));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A label of this builder.
    Label(Label),
    /// `n` instructions from the branch (0 is the branch itself).
    Rel(i32),
}

impl From<Label> for Target {
    fn from(l: Label) -> Self {
        Target::Label(l)
    }
}

/// A position in the program, bound with [`Builder::bind`].
///
/// ```
/// let mut b = geneu::build::Builder::new(geneu::Platform::Gen7);
/// let l = b.label();
/// b.bind(l).unwrap();
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    builder: u32,
    n: u32,
}

impl Label {
    /// The label's number in its builder (0, 1, ...).
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// assert_eq!((b.label().number(), b.label().number()), (0, 1));
    /// ```
    pub const fn number(&self) -> usize {
        self.n as usize
    }
}

/// How a branch gets its offsets when the program is finished.
#[derive(Clone, Copy, Debug)]
enum Fix {
    /// Given targets.
    Explicit { jip: Target, uip: Option<Target> },
    /// JMPI: src1, counted from the next instruction.
    Jmpi(Target),
    /// CALL: its JIP.
    Call(Target),
    /// A structured IF.
    If { else_: Option<usize>, endif: usize },
    /// A structured ELSE.
    Else { endif: usize },
    /// A structured WHILE.
    While { start: usize },
    /// BREAK, CONT or ENDIF: Mesa's `brw_set_uip_jip`.
    Rule,
    /// HALT: UIP given, JIP by rule.
    Halt { uip: Target },
}

#[derive(Clone, Copy, Debug)]
struct Jump {
    index: usize,
    /// The branch's opcode (kept here: finishing then reads the
    /// instruction only to write its offsets).
    op: Opcode,
    fix: Fix,
}

#[derive(Clone, Copy, Debug)]
enum Open {
    If { at: usize, else_: Option<usize> },
    Do { start: usize },
}

/// A finished program: the bytes, and the instructions with their offsets.
///
/// ```
/// use geneu::build::{g, Builder};
/// let mut b = Builder::new(geneu::Platform::Gen8);
/// b.mov(g(10), g(2))?;
/// b.add(g(11), g(10), g(3))?;
/// let prog = b.finish()?;
/// assert_eq!((prog.platform(), prog.len(), prog.is_empty()), (geneu::Platform::Gen8, 2, false));
/// assert_eq!(prog.bytes().len(), 32);
/// let offsets: Vec<usize> = prog.instructions().map(|(at, _)| at).collect();
/// assert_eq!(offsets, [0, 16]);
/// assert_eq!(prog.into_bytes().len(), 32);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    platform: Platform,
    bytes: Vec<u8>,
    insts: Vec<Instruction>,
    /// Each instruction's byte offset when some are compacted (`None`:
    /// 16 bytes each).
    offsets: Option<Vec<usize>>,
    /// The conservative rules broken and let through (lenient builders).
    warnings: Vec<BuildError>,
}

impl Program {
    /// The platform.
    ///
    /// ```
    /// let p = geneu::build::Builder::new(geneu::Platform::Gen75).finish().unwrap();
    /// assert_eq!(p.platform(), geneu::Platform::Gen75);
    /// ```
    pub fn platform(&self) -> Platform {
        self.platform
    }
    /// The encoded program: 16 bytes per instruction, or 8 for each one
    /// [`Builder::finish_compacted`] compacted.
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.mov(g(10), g(2)).unwrap();
    /// assert_eq!(b.finish().unwrap().bytes()[0], 0x01); // mov's opcode
    /// ```
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// The program's bytes, taken.
    ///
    /// ```
    /// let p = geneu::build::Builder::new(geneu::Platform::Gen8).finish().unwrap();
    /// assert!(p.into_bytes().is_empty());
    /// ```
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
    /// The instructions that break only conservative rules, let through
    /// by a lenient builder ([`Builder::set_strictness`]): each a
    /// [`BuildError::Invalid`] with its index and those rules. Empty for a
    /// strict or unchecked builder.
    ///
    /// ```
    /// use geneu::build::{g, BuildError, Builder};
    /// use geneu::{ExecSize, Platform, Strictness};
    /// let mut b = Builder::new(Platform::Gen8);
    /// b.state_mut().exec_size = ExecSize::S16;
    /// // Broadwell: SIMD16 F from a scalar HF, refused only by the
    /// // mixed-float rules borrowed from Skylake's documentation.
    /// b.mov(g(10).f(), g(4).hf().scalar())?;
    /// assert!(b.clone().finish().is_err());
    /// b.set_strictness(Strictness::Lenient);
    /// let prog = b.finish().unwrap();
    /// match prog.warnings() {
    ///     [BuildError::Invalid { index: 0, violations }] => assert!(violations.has("mixed_float_f_dst_max_simd8")),
    ///     other => panic!("{other:?}"),
    /// }
    /// # Ok::<(), BuildError>(())
    /// ```
    pub fn warnings(&self) -> &[BuildError] {
        &self.warnings
    }
    /// Each instruction with its byte offset (a compacted one has
    /// [`Controls::COMPACTED`](crate::Controls::COMPACTED) set).
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// use geneu::Opcode;
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.mov(g(10), g(2)).unwrap();
    /// let p = b.finish().unwrap();
    /// let (at, inst) = p.instructions().next().unwrap();
    /// assert_eq!((at, inst.opcode), (0, Opcode::Mov));
    /// ```
    pub fn instructions(&self) -> impl Iterator<Item = (usize, &Instruction)> + '_ {
        self.insts.iter().enumerate().map(|(k, i)| {
            let at = match &self.offsets {
                Some(o) => o.get(k).copied().unwrap_or(0),
                None => k * NATIVE_BYTES,
            };
            (at, i)
        })
    }
    /// The number of instructions.
    ///
    /// ```
    /// let p = geneu::build::Builder::new(geneu::Platform::Gen8).finish().unwrap();
    /// assert_eq!(p.len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.insts.len()
    }
    /// Whether the program is empty.
    ///
    /// ```
    /// let p = geneu::build::Builder::new(geneu::Platform::Gen8).finish().unwrap();
    /// assert!(p.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }
}

/// Builds a program for one platform. See the [module documentation](self).
///
/// ```
/// use geneu::build::{g, imm_f, Builder};
/// let mut b = Builder::new(geneu::Platform::Gen8);
/// b.mul(g(11), g(10), imm_f(2.0))?;
/// let program = b.finish()?;
/// assert_eq!(program.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Builder {
    p: Platform,
    id: u32,
    insts: Vec<Instruction>,
    state: State,
    saved: Vec<State>,
    labels: Vec<Option<usize>>,
    jumps: Vec<Jump>,
    /// The indices of the instructions Mesa's block-end search looks at
    /// (IF, ELSE, ENDIF, WHILE, HALT), in order.
    flow: Vec<(usize, Opcode)>,
    open: Vec<Open>,
    /// How `finish` applies the hardware rules.
    strictness: Strictness,
}

macro_rules! alu1 {
    ($($(#[$m:meta])* $name:ident => $op:ident;)*) => {
        $( $(#[$m])*
        pub fn $name(&mut self, dst: Reg, src: impl Into<Operand>) -> Result<usize, BuildError> {
            self.alu(Opcode::$op, dst, &[src.into()], None)
        } )*
    };
}

macro_rules! alu2 {
    ($($(#[$m:meta])* $name:ident => $op:ident;)*) => {
        $( $(#[$m])*
        pub fn $name(&mut self, dst: Reg, a: impl Into<Operand>, b: impl Into<Operand>) -> Result<usize, BuildError> {
            self.alu(Opcode::$op, dst, &[a.into(), b.into()], None)
        } )*
    };
}

macro_rules! alu3 {
    ($($(#[$m:meta])* $name:ident => $op:ident;)*) => {
        $( $(#[$m])*
        pub fn $name(&mut self, dst: Reg, a: Reg, b: Reg, c: Reg) -> Result<usize, BuildError> {
            self.alu(Opcode::$op, dst, &[a.into(), b.into(), c.into()], None)
        } )*
    };
}

impl Builder {
    /// An empty program for `p`, in the default [`State`].
    ///
    /// ```
    /// let b = geneu::build::Builder::new(geneu::Platform::Gen75);
    /// assert_eq!(b.len(), 0);
    /// ```
    pub fn new(p: Platform) -> Builder {
        Builder::with_capacity(p, 0)
    }

    /// An empty program with room for `n` instructions.
    ///
    /// ```
    /// let b = geneu::build::Builder::with_capacity(geneu::Platform::Gen8, 100);
    /// assert!(b.is_empty());
    /// ```
    pub fn with_capacity(p: Platform, n: usize) -> Builder {
        Builder {
            p,
            id: NEXT_BUILDER.fetch_add(1, Ordering::Relaxed),
            insts: Vec::with_capacity(n),
            state: State::default(),
            saved: Vec::new(),
            labels: Vec::new(),
            // Room for a branch every eight instructions (a guess; the
            // vectors grow beyond it).
            jumps: Vec::with_capacity(n / 8),
            flow: Vec::with_capacity(n / 8),
            open: Vec::new(),
            strictness: Strictness::Strict,
        }
    }

    /// Chooses how [`finish`](Self::finish) applies the hardware rules:
    /// [`Strictness::Strict`] (the default) refuses every violation,
    /// [`Strictness::Lenient`] refuses documented ones and keeps
    /// conservative ones as the program's
    /// [`warnings`](Program::warnings), [`Strictness::Unchecked`] does not
    /// validate.
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// b.set_strictness(geneu::Strictness::Lenient);
    /// assert!(b.finish().unwrap().warnings().is_empty());
    /// ```
    pub fn set_strictness(&mut self, strictness: Strictness) {
        self.strictness = strictness;
    }

    /// The platform.
    ///
    /// ```
    /// assert_eq!(geneu::build::Builder::new(geneu::Platform::Chv).platform(), geneu::Platform::Chv);
    /// ```
    pub fn platform(&self) -> Platform {
        self.p
    }

    /// The number of instructions so far (the index of the next one).
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// b.nop().unwrap();
    /// assert_eq!(b.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.insts.len()
    }

    /// Whether no instruction was emitted yet.
    ///
    /// ```
    /// assert!(geneu::build::Builder::new(geneu::Platform::Gen8).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }

    /// The instructions so far (branch offsets not yet filled in).
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// b.nop().unwrap();
    /// assert_eq!(b.instructions()[0].opcode, geneu::Opcode::Nop);
    /// ```
    pub fn instructions(&self) -> &[Instruction] {
        &self.insts
    }

    // ---- state ----

    /// The current state.
    ///
    /// ```
    /// let b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// assert_eq!(b.state().exec_size, geneu::ExecSize::S8);
    /// ```
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The current state, to change.
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// b.state_mut().exec_size = geneu::ExecSize::S16;
    /// ```
    pub fn state_mut(&mut self) -> &mut State {
        &mut self.state
    }

    /// Replaces the current state.
    ///
    /// ```
    /// use geneu::{build::{Builder, State}, ExecSize};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.set_state(State::default().simd(ExecSize::S1).no_mask());
    /// assert!(b.state().no_mask);
    /// ```
    pub fn set_state(&mut self, s: State) {
        self.state = s;
    }

    /// Saves the current state (Mesa's `brw_push_insn_state`).
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// b.push_state();
    /// b.state_mut().no_mask = true;
    /// b.pop_state().unwrap();
    /// assert!(!b.state().no_mask);
    /// ```
    pub fn push_state(&mut self) {
        self.saved.push(self.state);
    }

    /// Restores the last saved state (Mesa's `brw_pop_insn_state`).
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// assert!(b.pop_state().is_err());
    /// ```
    pub fn pop_state(&mut self) -> Result<(), BuildError> {
        self.state = self
            .saved
            .pop()
            .ok_or_else(|| BuildError::StateUnderflow { index: self.len() })?;
        Ok(())
    }

    /// Runs `f` in state `s`, then restores the current state.
    ///
    /// ```
    /// use geneu::build::{g, imm_ud, Builder, State};
    /// use geneu::ExecSize;
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.with_state(State::default().simd(ExecSize::S1).no_mask(), |b| b.mov(g(3).ud().vec1(), imm_ud(0)))?;
    /// assert_eq!(b.state().exec_size, ExecSize::S8);
    /// # Ok::<(), geneu::build::BuildError>(())
    /// ```
    pub fn with_state<T>(&mut self, s: State, f: impl FnOnce(&mut Builder) -> T) -> T {
        let old = core::mem::replace(&mut self.state, s);
        let r = f(self);
        self.state = old;
        r
    }

    // ---- instructions ----

    /// Refuses an opcode the platform does not have.
    fn check_exists(&self, op: Opcode) -> Result<(), BuildError> {
        if op.exists_on(self.p) {
            return Ok(());
        }
        Err(BuildError::Opcode {
            index: self.len(),
            opcode: op,
            why: "the platform does not have this opcode",
        })
    }

    /// A new instruction of `op` in the current state.
    fn start(&self, op: Opcode) -> Result<Instruction, BuildError> {
        let index = self.len();
        self.check_exists(op)?;
        let mut i = Instruction::new(op, self.state.exec_size);
        self.state.apply(&mut i, index)?;
        Ok(i)
    }

    /// Appends a new instruction of `op` in the current state, in its
    /// canonical encoding ([`Builder::append`] with nothing to fill in).
    fn begin(&mut self, op: Opcode) -> Result<usize, BuildError> {
        self.check_exists(op)?;
        let index = Self::append(&mut self.insts, self.p, &self.state, op, |_, _| Ok(()))?;
        self.note_flow(op, index);
        Ok(index)
    }

    /// Appends to `insts` (the program for `p`) a new instruction of `op`
    /// in `state`, filled in by `fill` (given the platform), in its
    /// canonical encoding. It is built in its place in the program: a copy
    /// of a value built field by field would be read back wider than it
    /// was written, which stalls. A refused instruction is taken out again.
    /// (The program and the state are passed apart, so that the builder's
    /// own state is read where it is, not copied.)
    #[inline]
    fn append(
        insts: &mut Vec<Instruction>,
        p: Platform,
        state: &State,
        op: Opcode,
        fill: impl FnOnce(Platform, &mut Instruction) -> Result<(), BuildError>,
    ) -> Result<usize, BuildError> {
        let index = insts.len();
        insts.push(Instruction::new(op, state.exec_size));
        let r = match insts.last_mut() {
            Some(i) => state
                .apply(i, index)
                .and_then(|()| fill(p, i))
                .map(|()| canonicalize(p, i)),
            None => Ok(()),
        };
        if r.is_err() {
            insts.pop();
        }
        r.map(|()| index)
    }

    /// Appends `i` in its canonical encoding.
    fn put(&mut self, mut i: Instruction) -> usize {
        canonicalize(self.p, &mut i);
        self.insts.push(i);
        self.insts.len() - 1
    }

    /// Notes instruction `index` of `op` if Mesa's block-end search looks
    /// at it ([`flow::is_block_flow`]), so that finishing need not read
    /// every instruction again to find them. Every instruction whose
    /// opcode could be one comes through [`Builder::begin`] or
    /// [`Builder::emit`] (the other methods that append build ALU
    /// instructions, sends and the other jumps).
    #[inline]
    fn note_flow(&mut self, op: Opcode, index: usize) {
        if flow::is_block_flow(op) {
            self.flow.push((index, op));
        }
    }

    /// Appends a hand-built instruction as it is, after the canonical
    /// function has set the fields the syntax does not show. For
    /// instructions no other method builds; checked by `finish` like the
    /// others. Its branch offsets, if any, are kept. One with
    /// [`Controls::COMPACTED`] is refused: which instructions are compacted
    /// is [`finish_compacted`](Self::finish_compacted)'s choice.
    ///
    /// ```
    /// use geneu::{build::Builder, Controls, ExecSize, Instruction, Opcode};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// let mut nop = Instruction::new(Opcode::Nop, ExecSize::S1);
    /// assert_eq!(b.emit(nop).unwrap(), 0);
    /// nop.controls |= Controls::COMPACTED;
    /// assert!(b.emit(nop).is_err());
    /// ```
    pub fn emit(&mut self, i: Instruction) -> Result<usize, BuildError> {
        self.check_exists(i.opcode)?;
        if i.marked_compacted() {
            return Err(BuildError::State {
                index: self.len(),
                why: "Controls::COMPACTED is set: finish_compacted chooses what is compacted",
            });
        }
        let (op, index) = (i.opcode, self.put(i));
        self.note_flow(op, index);
        Ok(index)
    }

    /// Mesa's emitter's choices for a destination (`brw_set_dest`), made
    /// on the model's operand: a horizontal stride of 0 becomes 1 (align16:
    /// always 1). Refused: a general register above g127.
    #[inline]
    fn emit_dst(d: &mut Dst, a16: bool) -> Result<(), Fault> {
        if beyond_grf(d.file, d.addr) {
            return Err(Fault {
                operand: OperandId::Dst,
                why: Why::GrfRange,
            });
        }
        if a16 || d.hstride == HSTRIDE_0 {
            d.hstride = HSTRIDE_1;
        }
        Ok(())
    }

    /// Mesa's emitter's choices for source `k` (`brw_set_src0`/`src1`) of
    /// an instruction in `a16` or not, of execution size `exec`: align16
    /// reads rows of four, so a vertical stride of 8 becomes 4; in align1 a
    /// width-1 source of a SIMD1 instruction becomes `<0;1,0>`. Refused: a
    /// general register above g127.
    #[inline]
    fn emit_src(s: &mut Src, k: u8, a16: bool, exec: ExecSize) -> Result<(), Fault> {
        if beyond_grf(s.file, s.addr) {
            return Err(Fault {
                operand: OperandId::Src(k),
                why: Why::GrfRange,
            });
        }
        if a16 {
            if s.region.vstride == VSTRIDE_8 {
                s.region.vstride = VSTRIDE_4;
            }
        } else if s.region.width == WIDTH_1 && exec == ExecSize::S1 && s.file != RegFile::Imm {
            s.region = Region::SCALAR;
        }
        Ok(())
    }

    /// `r` as the destination of an instruction in the current state.
    fn dst_of(&self, r: Reg, index: usize) -> Result<Dst, BuildError> {
        let a16 = self.state.access_mode == AccessMode::Align16;
        let mut d = Dst::null();
        construct::dst_into(a16, &r, &mut d)
            .and_then(|()| Self::emit_dst(&mut d, a16))
            .map_err(|f| f.at(self.p, index))?;
        Ok(d)
    }

    /// `o` as source `k` of an instruction in the current state; an
    /// immediate's bits come back beside it.
    fn src_of(&self, o: Operand, k: u8, index: usize) -> Result<(Src, Option<u64>), BuildError> {
        let am = self.state.access_mode;
        let mut s = Src::ZERO;
        let imm = construct::src_into(self.p, construct::Mode::of(am), k, &o, &mut s)
            .and_then(|imm| {
                Self::emit_src(&mut s, k, am == AccessMode::Align16, self.state.exec_size)?;
                Ok(imm)
            })
            .map_err(|f| f.at(self.p, index))?;
        Ok((s, imm))
    }

    /// Fills the operands of `i` (its header set) from `dst` and `srcs`
    /// through the constructors the text assembler shares, then makes the
    /// emitter's choices on them.
    #[inline]
    fn operands_into(p: Platform, i: &mut Instruction, dst: &Reg, srcs: &[Operand]) -> Result<(), Fault> {
        if i.opcode.is_three_src() {
            construct::three_src_operands(p, i, dst, srcs)?;
        } else {
            construct::alu_operands(p, i, dst, srcs)?;
        }
        let (a16, exec) = (i.access_mode == AccessMode::Align16, i.exec_size);
        Self::emit_dst(&mut i.dst, a16)?;
        for (k, s) in i.src.iter_mut().take(srcs.len()).enumerate() {
            Self::emit_src(s, k as u8, a16, exec)?;
        }
        Ok(())
    }

    /// Any ALU instruction: `op dst srcs...` (1, 2 or 3 sources) with an
    /// optional conditional modifier (written to the state's flag).
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// use geneu::Opcode;
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.alu(Opcode::Add, g(4), &[g(2).into(), g(3).into()], None)?;
    /// # Ok::<(), geneu::build::BuildError>(())
    /// ```
    pub fn alu(&mut self, op: Opcode, dst: Reg, srcs: &[Operand], cmod: Option<CondMod>) -> Result<usize, BuildError> {
        let index = self.len();
        let three = op.is_three_src();
        let n = usize::from(op.num_srcs());
        if !op.form().is_alu() {
            return Err(BuildError::Opcode {
                index,
                opcode: op,
                why: "not an ALU opcode: use its own method",
            });
        }
        if srcs.len() != n {
            return Err(BuildError::Opcode {
                index,
                opcode: op,
                why: "wrong number of sources for this opcode",
            });
        }
        self.check_exists(op)?;
        let in_align16;
        let state = if three && self.state.access_mode != AccessMode::Align16 {
            // Gen7-Gen8 three-source instructions are align16 only.
            in_align16 = State {
                access_mode: AccessMode::Align16,
                ..self.state
            };
            &in_align16
        } else {
            &self.state
        };
        Self::append(&mut self.insts, self.p, state, op, |p, i| {
            Self::operands_into(p, i, &dst, srcs).map_err(|f| f.at(p, index))?;
            if let Some(c) = cmod {
                i.cond_modifier = c.hw();
            }
            if op.is_compare() && !p.is_gen8() && dst.is_null() {
                // Mesa (WaCMPInstNullDstForcesThreadSwitch, and the IVB PRM
                // for CMPN): a CMP with a null destination uses {switch}.
                i.thread_control = ThreadControl::Switch;
            }
            Ok(())
        })
    }

    alu1! {
        /// `mov dst src`.
        ///
        /// ```
        /// use geneu::build::{g, imm_w, Builder};
        /// let mut b = Builder::new(geneu::Platform::Gen8);
        /// b.mov(g(2).w(), imm_w(-2))?;
        /// assert_eq!(b.instructions()[0].imm, 0xfffe_fffe); // replicated
        /// # Ok::<(), geneu::build::BuildError>(())
        /// ```
        mov => Mov;
        /// `not dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).not(geneu::build::g(2).ud(), geneu::build::g(3).ud()).unwrap();
        /// ```
        not => Not;
        /// `frc dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).frc(geneu::build::g(2), geneu::build::g(3)).unwrap();
        /// ```
        frc => Frc;
        /// `rndu dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).rndu(geneu::build::g(2), geneu::build::g(3)).unwrap();
        /// ```
        rndu => Rndu;
        /// `rndd dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).rndd(geneu::build::g(2), geneu::build::g(3)).unwrap();
        /// ```
        rndd => Rndd;
        /// `rnde dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).rnde(geneu::build::g(2), geneu::build::g(3)).unwrap();
        /// ```
        rnde => Rnde;
        /// `rndz dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).rndz(geneu::build::g(2), geneu::build::g(3)).unwrap();
        /// ```
        rndz => Rndz;
        /// `lzd dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).lzd(geneu::build::g(2).ud(), geneu::build::g(3).ud()).unwrap();
        /// ```
        lzd => Lzd;
        /// `fbh dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).fbh(geneu::build::g(2).ud(), geneu::build::g(3).ud()).unwrap();
        /// ```
        fbh => Fbh;
        /// `fbl dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).fbl(geneu::build::g(2).ud(), geneu::build::g(3).ud()).unwrap();
        /// ```
        fbl => Fbl;
        /// `cbit dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).cbit(geneu::build::g(2).ud(), geneu::build::g(3).ud()).unwrap();
        /// ```
        cbit => Cbit;
        /// `bfrev dst src`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).bfrev(geneu::build::g(2).ud(), geneu::build::g(3).ud()).unwrap();
        /// ```
        bfrev => Bfrev;
    }

    alu2! {
        /// `add dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).add(geneu::build::g(2), geneu::build::g(3), geneu::build::imm_f(1.0)).unwrap();
        /// ```
        add => Add;
        /// `mul dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).mul(geneu::build::g(2), geneu::build::g(3), geneu::build::g(4)).unwrap();
        /// ```
        mul => Mul;
        /// `avg dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).avg(geneu::build::g(2).d(), geneu::build::g(3).d(), geneu::build::g(4).d()).unwrap();
        /// ```
        avg => Avg;
        /// `and dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).and(geneu::build::g(2).ud(), geneu::build::g(3).ud(), geneu::build::imm_ud(1)).unwrap();
        /// ```
        and => And;
        /// `or dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).or(geneu::build::g(2).ud(), geneu::build::g(3).ud(), geneu::build::imm_ud(1)).unwrap();
        /// ```
        or => Or;
        /// `xor dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).xor(geneu::build::g(2).ud(), geneu::build::g(3).ud(), geneu::build::imm_ud(1)).unwrap();
        /// ```
        xor => Xor;
        /// `shl dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).shl(geneu::build::g(2).ud(), geneu::build::g(3).ud(), geneu::build::imm_ud(2)).unwrap();
        /// ```
        shl => Shl;
        /// `shr dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).shr(geneu::build::g(2).ud(), geneu::build::g(3).ud(), geneu::build::imm_ud(2)).unwrap();
        /// ```
        shr => Shr;
        /// `asr dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).asr(geneu::build::g(2).d(), geneu::build::g(3).d(), geneu::build::imm_d(2)).unwrap();
        /// ```
        asr => Asr;
        /// `mac dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).mac(geneu::build::g(2), geneu::build::g(3), geneu::build::g(4)).unwrap();
        /// ```
        mac => Mac;
        /// `mach dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).mach(geneu::build::g(2).d(), geneu::build::g(3).d(), geneu::build::g(4).d()).unwrap();
        /// ```
        mach => Mach;
        /// `addc dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).addc(geneu::build::g(2).ud(), geneu::build::g(3).ud(), geneu::build::g(4).ud()).unwrap();
        /// ```
        addc => Addc;
        /// `subb dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).subb(geneu::build::g(2).ud(), geneu::build::g(3).ud(), geneu::build::g(4).ud()).unwrap();
        /// ```
        subb => Subb;
        /// `sad2 dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).sad2(geneu::build::g(2).w(), geneu::build::g(3).ub(), geneu::build::g(4).ub()).unwrap();
        /// ```
        sad2 => Sad2;
        /// `sada2 dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).sada2(geneu::build::g(2).w(), geneu::build::g(3).ub(), geneu::build::g(4).ub()).unwrap();
        /// ```
        sada2 => Sada2;
        /// `dp4 dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).dp4(geneu::build::g(2), geneu::build::g(3), geneu::build::g(4)).unwrap();
        /// ```
        dp4 => Dp4;
        /// `dph dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).dph(geneu::build::g(2), geneu::build::g(3), geneu::build::g(4)).unwrap();
        /// ```
        dph => Dph;
        /// `dp3 dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).dp3(geneu::build::g(2), geneu::build::g(3), geneu::build::g(4)).unwrap();
        /// ```
        dp3 => Dp3;
        /// `dp2 dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).dp2(geneu::build::g(2), geneu::build::g(3), geneu::build::g(4)).unwrap();
        /// ```
        dp2 => Dp2;
        /// `line dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).line(geneu::build::g(2), geneu::build::g(3).vec1(), geneu::build::g(4)).unwrap();
        /// ```
        line => Line;
        /// `pln dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).pln(geneu::build::g(2), geneu::build::g(3).vec1(), geneu::build::g(4)).unwrap();
        /// ```
        pln => Pln;
        /// `bfi1 dst a b`.
        ///
        /// ```
        /// geneu::build::Builder::new(geneu::Platform::Gen8).bfi1(geneu::build::g(2).ud(), geneu::build::g(3).ud(), geneu::build::g(4).ud()).unwrap();
        /// ```
        bfi1 => Bfi1;
    }

    alu3! {
        /// `mad dst a b c` (align16, as three-source instructions are).
        ///
        /// ```
        /// use geneu::build::{g, Builder};
        /// Builder::new(geneu::Platform::Gen8).mad(g(2), g(3), g(4), g(5).vec1()).unwrap();
        /// ```
        mad => Mad;
        /// `lrp dst a b c`.
        ///
        /// ```
        /// use geneu::build::{g, Builder};
        /// Builder::new(geneu::Platform::Gen8).lrp(g(2), g(3), g(4), g(5)).unwrap();
        /// ```
        lrp => Lrp;
        /// `bfe dst a b c`.
        ///
        /// ```
        /// use geneu::build::{g, Builder};
        /// Builder::new(geneu::Platform::Gen8).bfe(g(2).ud(), g(3).ud(), g(4).ud(), g(5).ud()).unwrap();
        /// ```
        bfe => Bfe;
        /// `bfi2 dst a b c`.
        ///
        /// ```
        /// use geneu::build::{g, Builder};
        /// Builder::new(geneu::Platform::Gen8).bfi2(g(2).ud(), g(3).ud(), g(4).ud(), g(5).ud()).unwrap();
        /// ```
        bfi2 => Bfi2;
    }

    /// `cmp.{cond}.{flag} dst a b`: compares and writes the state's flag.
    ///
    /// ```
    /// use geneu::build::{g, null, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.cmp(geneu::CondMod::L, null(), g(2), g(3))?;
    /// # Ok::<(), geneu::build::BuildError>(())
    /// ```
    pub fn cmp(
        &mut self,
        cond: CondMod,
        dst: Reg,
        a: impl Into<Operand>,
        b: impl Into<Operand>,
    ) -> Result<usize, BuildError> {
        self.alu(Opcode::Cmp, dst, &[a.into(), b.into()], Some(cond))
    }

    /// `cmpn.{cond}.{flag} dst a b` (NaN-aware compare).
    ///
    /// ```
    /// use geneu::build::{g, null, Builder};
    /// Builder::new(geneu::Platform::Gen8).cmpn(geneu::CondMod::Ge, null(), g(2), g(3)).unwrap();
    /// ```
    pub fn cmpn(
        &mut self,
        cond: CondMod,
        dst: Reg,
        a: impl Into<Operand>,
        b: impl Into<Operand>,
    ) -> Result<usize, BuildError> {
        self.alu(Opcode::Cmpn, dst, &[a.into(), b.into()], Some(cond))
    }

    /// `sel dst a b`, choosing by the state's predicate.
    ///
    /// ```
    /// use geneu::build::{g, Builder, Predicate};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.state_mut().predicate = Some(Predicate::normal(0, 0));
    /// b.sel(g(2), g(3), g(4)).unwrap();
    /// ```
    pub fn sel(&mut self, dst: Reg, a: impl Into<Operand>, b: impl Into<Operand>) -> Result<usize, BuildError> {
        self.alu(Opcode::Sel, dst, &[a.into(), b.into()], None)
    }

    /// `sel.{cond} dst a b`: minimum (`L`) or maximum (`Ge`).
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// Builder::new(geneu::Platform::Gen8).sel_cond(geneu::CondMod::L, g(2), g(3), g(4)).unwrap();
    /// ```
    pub fn sel_cond(
        &mut self,
        cond: CondMod,
        dst: Reg,
        a: impl Into<Operand>,
        b: impl Into<Operand>,
    ) -> Result<usize, BuildError> {
        self.alu(Opcode::Sel, dst, &[a.into(), b.into()], Some(cond))
    }

    /// `csel.{cond} dst a b c` (Gen8): `a` where `c` compares true against 0, else `b`.
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// Builder::new(geneu::Platform::Gen8).csel(geneu::CondMod::Nz, g(2), g(3), g(4), g(5)).unwrap();
    /// assert!(Builder::new(geneu::Platform::Gen7).csel(geneu::CondMod::Nz, g(2), g(3), g(4), g(5)).is_err());
    /// ```
    pub fn csel(&mut self, cond: CondMod, dst: Reg, a: Reg, b: Reg, c: Reg) -> Result<usize, BuildError> {
        self.alu(Opcode::Csel, dst, &[a.into(), b.into(), c.into()], Some(cond))
    }

    /// `math.{function} dst a [b]`: `b` is for the two-source functions
    /// (fdiv, pow, integer division) and must be absent for the others,
    /// whose src1 is `null` F as Mesa emits it.
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// use geneu::MathFunction;
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.math(MathFunction::Inv, g(2), g(3), None)?;
    /// assert!(b.math(MathFunction::Pow, g(2), g(3), None).is_err());
    /// # Ok::<(), geneu::build::BuildError>(())
    /// ```
    pub fn math(
        &mut self,
        f: MathFunction,
        dst: Reg,
        a: impl Into<Operand>,
        b: Option<Operand>,
    ) -> Result<usize, BuildError> {
        let index = self.len();
        let b = match (f.num_srcs(), b) {
            (2, Some(b)) => b,
            (1, None) => construct::math_null_src1(self.state.access_mode == AccessMode::Align16),
            _ if f == MathFunction::None => {
                return Err(BuildError::Opcode {
                    index,
                    opcode: Opcode::Math,
                    why: "a math instruction needs a function",
                })
            }
            (2, None) => {
                return Err(BuildError::Operand {
                    index,
                    operand: OperandId::Src(1),
                    why: "this math function reads two sources",
                })
            }
            _ => {
                return Err(BuildError::Operand {
                    index,
                    operand: OperandId::Src(1),
                    why: "this math function reads one source",
                })
            }
        };
        self.check_exists(Opcode::Math)?;
        let srcs = [a.into(), b];
        Self::append(&mut self.insts, self.p, &self.state, Opcode::Math, |p, i| {
            Self::operands_into(p, i, &dst, &srcs).map_err(|f| f.at(p, index))?;
            i.cond_modifier = f.hw();
            Ok(())
        })
    }

    /// `nop` (every field zero, as Mesa's `brw_NOP`).
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen7);
    /// b.nop().unwrap();
    /// ```
    pub fn nop(&mut self) -> Result<usize, BuildError> {
        Ok(self.put(Instruction::new(Opcode::Nop, ExecSize::S1)))
    }

    /// `wait n` on a notification register: SIMD1, NoMask, unpredicated,
    /// src0 the same register and src1 `null`, as Mesa's `brw_WAIT`.
    ///
    /// ```
    /// use geneu::build::{notification, Builder};
    /// Builder::new(geneu::Platform::Gen8).wait(notification(0)).unwrap();
    /// ```
    pub fn wait(&mut self, n: Reg) -> Result<usize, BuildError> {
        let s = State {
            exec_size: ExecSize::S1,
            qtr_control: 0,
            nib_control: false,
            no_mask: true,
            predicate: None,
            ..self.state
        };
        self.with_state(s, |b| {
            let index = b.len();
            let mut i = b.start(Opcode::Wait)?;
            i.dst = b.dst_of(n, index)?;
            i.src[0] = b.src_of(n.into(), 0, index)?.0;
            i.src[1] = b.src_of(null().into(), 1, index)?.0;
            Ok(b.put(i))
        })
    }

    // ---- messages ----

    /// `send dst payload` with the typed message `msg`: SFID, descriptor,
    /// lengths, header and EOT all come from `msg`. Refused: a descriptor
    /// that does not build, one built for another platform, a message
    /// whose SIMD width or response length does not fit the execution size
    /// and enabled channels, and an EOT send whose payload is not in
    /// g112-g127.
    ///
    /// ```
    /// use geneu::build::{g, null, Builder};
    /// use geneu::msg::{Common, Message, Urb, UrbOpcode};
    /// use geneu::Platform;
    /// let mut b = Builder::new(Platform::Gen8);
    /// let mut urb = Urb::new(Platform::Gen8, Common::new(5, 0, true).with_eot(), UrbOpcode::Simd8Write);
    /// urb.global_offset = 1;
    /// b.send(null(), g(123), &Message::Urb(urb))?;
    /// assert!(b.send(null(), g(20), &Message::Urb(urb)).is_err()); // EOT from g20
    /// # Ok::<(), geneu::build::BuildError>(())
    /// ```
    pub fn send(&mut self, dst: Reg, payload: Reg, msg: &Message) -> Result<usize, BuildError> {
        self.send_op(Opcode::Send, dst, payload, msg)
    }

    /// `sendc`: as [`Builder::send`], waiting on the thread's dependencies.
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// use geneu::msg::Message;
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.sendc(g(10), g(2), &Message::Unknown { sfid: 8, desc: 0x0210_0000 }).unwrap();
    /// ```
    pub fn sendc(&mut self, dst: Reg, payload: Reg, msg: &Message) -> Result<usize, BuildError> {
        self.send_op(Opcode::Sendc, dst, payload, msg)
    }

    fn send_op(&mut self, op: Opcode, dst: Reg, payload: Reg, msg: &Message) -> Result<usize, BuildError> {
        let index = self.len();
        msg.desc().map_err(|error| BuildError::Message { index, error })?;
        if msg.platform().is_some_and(|q| q != self.p) {
            return Err(BuildError::MessageShape {
                index,
                why: "the descriptor was built for another platform",
            });
        }
        Sfid::from_hw(msg.sfid()).ok_or(BuildError::MessageShape {
            index,
            why: "shared function IDs 14 and 15 are reserved",
        })?;
        check_message(msg, &self.state).map_err(|why| BuildError::MessageShape { index, why })?;
        let common = msg.common();
        let eot_ok = payload.file() == RegFile::Grf
            && matches!(payload.address(), Addr::Direct { nr, .. } if nr >= crate::isa::EOT_PAYLOAD_FIRST);
        if common.eot && !eot_ok {
            return Err(BuildError::EotPayload {
                index,
                nr: payload.nr(),
            });
        }
        let mut i = self.start(op)?;
        i.dst = self.dst_of(dst, index)?;
        i.src[0] = self.src_of(payload.into(), 0, index)?.0;
        msg.apply_to(&mut i)
            .map_err(|error| BuildError::Message { index, error })?;
        Ok(self.put(i))
    }

    // ---- labels and control flow ----

    /// A new, unbound label.
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// assert_ne!(b.label(), b.label());
    /// ```
    pub fn label(&mut self) -> Label {
        self.labels.push(None);
        Label {
            builder: self.id,
            n: (self.labels.len() - 1) as u32,
        }
    }

    /// Binds `l` to the next instruction's position.
    ///
    /// ```
    /// use geneu::build::{BuildError, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// let l = b.label();
    /// b.bind(l)?;
    /// assert!(matches!(b.bind(l), Err(BuildError::LabelBoundTwice { .. })));
    /// # Ok::<(), BuildError>(())
    /// ```
    pub fn bind(&mut self, l: Label) -> Result<(), BuildError> {
        let here = self.len();
        let slot = self.label_slot(l, here)?;
        match *slot {
            Some(first) => Err(BuildError::LabelBoundTwice {
                label: l.number(),
                first,
                second: here,
            }),
            None => {
                *slot = Some(here);
                Ok(())
            }
        }
    }

    fn label_slot(&mut self, l: Label, index: usize) -> Result<&mut Option<usize>, BuildError> {
        if l.builder != self.id {
            return Err(BuildError::ForeignLabel {
                label: l.number(),
                index,
            });
        }
        self.labels.get_mut(l.number()).ok_or(BuildError::ForeignLabel {
            label: l.number(),
            index,
        })
    }

    fn check_target(&mut self, t: Target, index: usize) -> Result<(), BuildError> {
        if let Target::Label(l) = t {
            self.label_slot(l, index)?;
        }
        Ok(())
    }

    fn branch(&mut self, op: Opcode, fix: Fix) -> Result<usize, BuildError> {
        let index = self.begin(op)?;
        self.jumps.push(Jump { index, op, fix });
        Ok(index)
    }

    /// A branch with given targets: `op` is IF, ELSE, ENDIF, WHILE, BREAK,
    /// CONT or HALT (and, on Gen8, GOTO and JOIN); `uip` only for those
    /// that have one. For code whose structure is not the builder's, such
    /// as a program read from text.
    ///
    /// ```
    /// use geneu::build::Builder;
    /// use geneu::Opcode;
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// let end = b.label();
    /// b.branch_to(Opcode::Break, end, Some(end.into()))?;
    /// b.bind(end)?;
    /// b.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn branch_to(&mut self, op: Opcode, jip: impl Into<Target>, uip: Option<Target>) -> Result<usize, BuildError> {
        let index = self.len();
        if !matches!(op.form(), Form::Jip | Form::JipUip) {
            return Err(BuildError::Opcode {
                index,
                opcode: op,
                why: "not a JIP/UIP branch the builder places",
            });
        }
        if uip.is_some() && !op.has_uip() {
            return Err(BuildError::Opcode {
                index,
                opcode: op,
                why: "this branch has no UIP",
            });
        }
        let jip = jip.into();
        self.check_target(jip, index)?;
        if let Some(u) = uip {
            self.check_target(u, index)?;
        }
        self.branch(op, Fix::Explicit { jip, uip })
    }

    /// `if`: opens a block, predicated by the state's predicate.
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// b.if_()?;
    /// b.endif()?;
    /// b.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn if_(&mut self) -> Result<usize, BuildError> {
        let at = self.begin(Opcode::If)?;
        self.open.push(Open::If { at, else_: None });
        Ok(at)
    }

    /// `else`: the other half of the innermost open `if_` (its execution
    /// size is the IF's, as Mesa's `patch_IF_ELSE` sets it).
    ///
    /// ```
    /// use geneu::build::{BuildError, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// assert!(matches!(b.else_(), Err(BuildError::ElseWithoutIf { index: 0 })));
    /// ```
    pub fn else_(&mut self) -> Result<usize, BuildError> {
        let index = self.len();
        let Some(Open::If { at, else_: None }) = self.open.last().copied() else {
            return Err(BuildError::ElseWithoutIf { index });
        };
        let exec = self.insts.get(at).map_or(self.state.exec_size, |i| i.exec_size);
        let e = self.begin(Opcode::Else)?;
        if let Some(i) = self.insts.get_mut(e) {
            i.exec_size = exec;
        }
        if let Some(Open::If { else_, .. }) = self.open.last_mut() {
            *else_ = Some(e);
        }
        Ok(e)
    }

    /// `endif`: closes the innermost open `if_`.
    ///
    /// ```
    /// use geneu::build::{BuildError, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// assert!(matches!(b.endif(), Err(BuildError::EndifWithoutIf { index: 0 })));
    /// ```
    pub fn endif(&mut self) -> Result<usize, BuildError> {
        let index = self.len();
        let Some(Open::If { at, else_ }) = self.open.last().copied() else {
            return Err(BuildError::EndifWithoutIf { index });
        };
        let endif = self.begin(Opcode::Endif)?;
        self.open.pop();
        self.jumps.push(Jump {
            index: at,
            op: Opcode::If,
            fix: Fix::If { else_, endif },
        });
        if let Some(e) = else_ {
            self.jumps.push(Jump {
                index: e,
                op: Opcode::Else,
                fix: Fix::Else { endif },
            });
        }
        self.jumps.push(Jump {
            index: endif,
            op: Opcode::Endif,
            fix: Fix::Rule,
        });
        Ok(endif)
    }

    /// `do`: opens a loop at the next instruction (Gen7+ has no DO
    /// instruction: nothing is emitted).
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// b.do_();
    /// b.break_()?;
    /// b.while_()?;
    /// b.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn do_(&mut self) {
        self.open.push(Open::Do { start: self.len() });
    }

    /// `while`: closes the innermost loop, jumping back to its start
    /// (predicated by the state's predicate).
    ///
    /// ```
    /// use geneu::build::{BuildError, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// assert!(matches!(b.while_(), Err(BuildError::WhileWithoutDo { index: 0 })));
    /// ```
    pub fn while_(&mut self) -> Result<usize, BuildError> {
        let index = self.len();
        let Some(Open::Do { start }) = self.open.last().copied() else {
            return Err(BuildError::WhileWithoutDo { index });
        };
        let w = self.branch(Opcode::While, Fix::While { start })?;
        self.open.pop();
        Ok(w)
    }

    fn in_loop(&self) -> bool {
        self.open.iter().any(|o| matches!(o, Open::Do { .. }))
    }

    /// `break`: leaves the innermost loop.
    ///
    /// ```
    /// use geneu::build::{BuildError, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// assert!(matches!(b.break_(), Err(BuildError::OutsideLoop { .. })));
    /// ```
    pub fn break_(&mut self) -> Result<usize, BuildError> {
        if !self.in_loop() {
            return Err(BuildError::OutsideLoop {
                index: self.len(),
                opcode: Opcode::Break,
            });
        }
        self.branch(Opcode::Break, Fix::Rule)
    }

    /// `cont`: goes on with the innermost loop's next iteration.
    ///
    /// ```
    /// use geneu::build::{BuildError, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// assert!(matches!(b.cont(), Err(BuildError::OutsideLoop { .. })));
    /// ```
    pub fn cont(&mut self) -> Result<usize, BuildError> {
        if !self.in_loop() {
            return Err(BuildError::OutsideLoop {
                index: self.len(),
                opcode: Opcode::Cont,
            });
        }
        self.branch(Opcode::Cont, Fix::Rule)
    }

    /// `halt`: stops the channels until `uip` (where the halted channels
    /// resume, usually the end of the program); its JIP is the end of the
    /// innermost block, or `uip` outside every block.
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// let end = b.label();
    /// b.halt(end)?;
    /// b.bind(end)?;
    /// b.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn halt(&mut self, uip: impl Into<Target>) -> Result<usize, BuildError> {
        let uip = uip.into();
        self.check_target(uip, self.len())?;
        self.branch(Opcode::Halt, Fix::Halt { uip })
    }

    /// `jmpi target`: SIMD1, NoMask jump (predicated by the state's
    /// predicate), as Mesa's `brw_JMPI`.
    ///
    /// ```
    /// let mut b = geneu::build::Builder::new(geneu::Platform::Gen8);
    /// let l = b.label();
    /// b.jmpi(l)?;
    /// b.bind(l)?;
    /// b.nop()?;
    /// b.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn jmpi(&mut self, target: impl Into<Target>) -> Result<usize, BuildError> {
        let index = self.len();
        let t = target.into();
        self.check_target(t, index)?;
        let s = State {
            exec_size: ExecSize::S1,
            qtr_control: 0,
            nib_control: false,
            no_mask: true,
            ..self.state
        };
        self.with_state(s, |b| {
            let mut i = b.start(Opcode::Jmpi)?;
            i.dst = b.dst_of(ip(), index)?;
            i.src[0] = b.src_of(ip().into(), 0, index)?.0;
            i.src[1] = Src::imm(Type::D);
            let index = b.put(i);
            b.jumps.push(Jump {
                index,
                op: Opcode::Jmpi,
                fix: Fix::Jmpi(t),
            });
            Ok(index)
        })
    }

    /// `call ret target`: jumps to `target`, writing the return address to
    /// `ret` (typed UD).
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// let f = b.label();
    /// b.call(g(120).ud().vec1(), f)?;
    /// b.bind(f)?;
    /// b.ret(g(120).ud().vec1())?;
    /// # Ok::<(), geneu::build::BuildError>(())
    /// ```
    pub fn call(&mut self, ret: Reg, target: impl Into<Target>) -> Result<usize, BuildError> {
        let index = self.len();
        let t = target.into();
        self.check_target(t, index)?;
        let mut i = self.start(Opcode::Call)?;
        i.dst = self.dst_of(ret.ud(), index)?;
        // src0 is `null<2;2,1>:ud`, read as two dwords (the PRM's CALL
        // operand rule, `validate::flow::call_src0_two_dwords`), as the
        // calls of shipped Gen8 kernels and IGA's encoder
        // (`Encoder::encodeBranchingInstruction`, `callNeedsSrcRegion221`)
        // have it. The jump is src1's immediate `:d` on every platform: a
        // src1 that is not an immediate is the register a call jumps by
        // (IGA's `Decoder::decodeBranchInstruction` reads a call so).
        i.src[0] = self.src_of(null().ud().stride(2, 2, 1)?.into(), 0, index)?.0;
        i.src[1] = Src::imm(Type::D);
        let index = self.put(i);
        self.jumps.push(Jump {
            index,
            op: Opcode::Call,
            fix: Fix::Call(t),
        });
        Ok(index)
    }

    /// `brd offsets`: a diverging branch whose JIP (in bytes on Gen8, in
    /// 8-byte units before) is the dword `offsets`, a GRF read as `:ud`;
    /// the destination is `null`. (IGA's `brd (8) r11.1:ud`; the text
    /// prints it `brd(8) null<1>UD g11.1<0,1,0>UD`.)
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.brd(g(11).ud().subreg(1)?.vec1())?;
    /// b.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn brd(&mut self, offsets: Reg) -> Result<usize, BuildError> {
        self.branch_by_register(Opcode::Brd, offsets)
    }

    /// `brc offsets`: a converging branch whose JIP and UIP are the two
    /// dwords at `offsets`, a GRF read as `:ud`; the destination is `null`.
    /// (IGA's `brc (8) r11.0:ud`.)
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen75);
    /// b.brc(g(11).vec1())?;
    /// b.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn brc(&mut self, offsets: Reg) -> Result<usize, BuildError> {
        self.branch_by_register(Opcode::Brc, offsets)
    }

    /// `brd` or `brc` with the offsets in a register.
    fn branch_by_register(&mut self, op: Opcode, offsets: Reg) -> Result<usize, BuildError> {
        let index = self.len();
        let mut i = self.start(op)?;
        i.dst = self.dst_of(null().ud(), index)?;
        i.src[0] = self.src_of(offsets.ud().into(), 0, index)?.0;
        Ok(self.put(i))
    }

    /// `ret ret`: returns to the address `call` wrote in `ret`, read as
    /// the two dwords `call` wrote (`<2;2,1>:ud`, whatever region `ret`
    /// has, as IGA's encoder writes it: `OpSpec::implicitSrcRegion`).
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// Builder::new(geneu::Platform::Gen7).ret(g(120).ud().vec1()).unwrap();
    /// ```
    pub fn ret(&mut self, ret: Reg) -> Result<usize, BuildError> {
        let index = self.len();
        let mut i = self.start(Opcode::Ret)?;
        i.dst = self.dst_of(null().ud(), index)?;
        i.src[0] = self.src_of(ret.ud().stride(2, 2, 1)?.into(), 0, index)?.0;
        Ok(self.put(i))
    }

    // ---- finishing ----

    fn resolve_target(&self, t: Target, index: usize, op: Opcode) -> Result<usize, BuildError> {
        let len = self.len();
        let target = match t {
            Target::Label(l) => match self.labels.get(l.number()) {
                Some(Some(at)) if l.builder == self.id => return Ok(*at),
                Some(None) if l.builder == self.id => {
                    return Err(BuildError::UnboundLabel {
                        label: l.number(),
                        index,
                    })
                }
                _ => {
                    return Err(BuildError::ForeignLabel {
                        label: l.number(),
                        index,
                    })
                }
            },
            Target::Rel(n) => index as i64 + i64::from(n),
        };
        if target < 0 || target > len as i64 {
            return Err(BuildError::LeavesProgram {
                index,
                opcode: op,
                target,
                len,
            });
        }
        Ok(target as usize)
    }

    /// Finishes the program: fills in every branch offset, validates every
    /// instruction and encodes them. All errors are reported together, each
    /// with its instruction index (and rule id for a broken hardware rule).
    ///
    /// ```
    /// use geneu::build::{BuildError, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.if_()?;
    /// let err = b.finish().unwrap_err();
    /// assert_eq!(err.0, vec![BuildError::UnclosedIf { index: 0 }]);
    /// # Ok::<(), BuildError>(())
    /// ```
    pub fn finish(mut self) -> Result<Program, BuildErrors> {
        let mut errors = Vec::new();
        for o in &self.open {
            errors.push(match *o {
                Open::If { at, .. } => BuildError::UnclosedIf { index: at },
                Open::Do { start } => BuildError::UnclosedDo { index: start },
            });
        }
        if errors.is_empty() {
            flow::resolve(&mut self, &mut errors);
        }
        if !errors.is_empty() {
            return Err(BuildErrors(errors));
        }
        let p = self.p;
        let mut bytes = Vec::with_capacity(self.insts.len() * NATIVE_BYTES);
        let mut warnings = Vec::new();
        for (index, i) in self.insts.iter().enumerate() {
            match self.strictness.check(p, i) {
                Ok(violations) if violations.0.is_empty() => {}
                Ok(violations) => warnings.push(BuildError::Invalid { index, violations }),
                Err(violations) => {
                    errors.push(BuildError::Invalid { index, violations });
                    continue;
                }
            }
            match crate::codec::encode_word(p, i) {
                Ok(w) => bytes.extend_from_slice(&w.to_bytes()),
                Err(error) => errors.push(BuildError::Encode { index, error }),
            }
        }
        if !errors.is_empty() {
            return Err(BuildErrors(errors));
        }
        Ok(Program {
            platform: p,
            bytes,
            offsets: None,
            insts: self.insts,
            warnings,
        })
    }

    /// Finishes the program as [`finish`](Self::finish) does, then
    /// compacts every instruction the platform can express in 8 bytes
    /// ([`compact_program`](crate::compact::compact_program)): every branch
    /// offset moves so that each branch lands on the same instruction. The
    /// instructions are given as the bytes hold them (new offsets, moved
    /// branch offsets), and a
    /// compacted one with [`Controls::COMPACTED`](crate::Controls::COMPACTED).
    ///
    /// It fails only where [`finish`](Self::finish) does: the builder's
    /// branches all land on instructions of the program and its `jmpi` and
    /// `call` jump by immediates, so the compaction cannot be refused.
    ///
    /// ```
    /// use geneu::build::{g, imm_f, Builder};
    /// use geneu::{Controls, Platform};
    /// let mut b = Builder::new(Platform::Gen8);
    /// b.mov(g(10), g(2))?;
    /// b.add(g(12), g(10), imm_f(1.0))?;
    /// let p = b.finish_compacted().unwrap();
    /// let offsets: Vec<usize> = p.instructions().map(|(o, _)| o).collect();
    /// assert_eq!(offsets, [0, 8]); // the mov is compacted, the add is not
    /// assert!(p.instructions().next().unwrap().1.controls.contains(Controls::COMPACTED));
    /// assert_eq!(p.bytes().len(), 24);
    /// # Ok::<(), geneu::build::BuildError>(())
    /// ```
    pub fn finish_compacted(self) -> Result<Program, BuildErrors> {
        let native = self.finish()?;
        let p = native.platform;
        let small = match crate::compact::compact_program(p, &native.bytes) {
            Ok(r) => r.bytes,
            // Not reached (see above); the native program is still right.
            Err(_) => return Ok(native),
        };
        // The instructions as the bytes now hold them: moved offsets, the
        // compaction flag. Every piece decodes (each came from a word that
        // did), so the counts agree.
        let (mut offsets, mut insts) = (
            Vec::with_capacity(native.insts.len()),
            Vec::with_capacity(native.insts.len()),
        );
        for ((offset, r), old) in crate::compact::decode_stream(p, &small).zip(&native.insts) {
            offsets.push(offset);
            insts.push(r.unwrap_or(*old));
        }
        Ok(Program {
            platform: p,
            bytes: small,
            insts,
            offsets: Some(offsets),
            warnings: native.warnings,
        })
    }
}

pub(crate) mod flow;

/// Whether the message's SIMD width and lengths fit the state.
fn check_message(msg: &Message, s: &State) -> Result<(), &'static str> {
    let exec = s.exec_size.channels();
    let a16 = s.access_mode == AccessMode::Align16;
    let rlen = u32::from(msg.common().rlen);
    let surface = |channels: Channels, simd: SurfaceSimd, read: bool| -> Result<(), &'static str> {
        match simd {
            SurfaceSimd::Simd16 if exec != 16 => return Err("a SIMD16 surface message needs execution size 16"),
            SurfaceSimd::Simd8 if exec != 8 => return Err("a SIMD8 surface message needs execution size 8"),
            SurfaceSimd::Simd4x2 if !a16 => return Err("a SIMD4x2 surface message needs align16"),
            _ => {}
        }
        let want = crate::isa::dataport::surface_read_regs(channels.count(), simd);
        if read && rlen != want {
            return Err("the response length is not the enabled channels times the registers per channel");
        }
        if !read && rlen != 0 {
            return Err("a surface write returns nothing (response length 0)");
        }
        Ok(())
    };
    match msg {
        Message::Sampler(m) => match m.simd {
            SamplerSimd::Simd8 if exec != 8 => Err("a SIMD8 sampler message needs execution size 8"),
            SamplerSimd::Simd16 if exec != 16 => Err("a SIMD16 sampler message needs execution size 16"),
            SamplerSimd::Simd4x2 if !a16 => Err("a SIMD4x2 sampler message needs align16"),
            _ => Ok(()),
        },
        Message::Urb(u) if u.opcode == UrbOpcode::Simd8Write && exec != 8 => {
            Err("a URB SIMD8 write needs execution size 8")
        }
        Message::DataCache0(m) => match m.op {
            Dc0Op::UntypedSurfaceRead { channels, simd } => surface(channels, simd, true),
            _ => Ok(()),
        },
        Message::DataCache1(m) => match m.op {
            Dc1Op::UntypedSurfaceRead { channels, simd } | Dc1Op::A64UntypedSurfaceRead { channels, simd } => {
                surface(channels, simd, true)
            }
            Dc1Op::UntypedSurfaceWrite { channels, simd } | Dc1Op::A64UntypedSurfaceWrite { channels, simd } => {
                surface(channels, simd, false)
            }
            Dc1Op::TypedSurfaceRead { channels, slot_group }
                if rlen != crate::isa::dataport::typed_read_regs(channels.count(), slot_group) =>
            {
                Err("a typed surface read returns one register per enabled channel")
            }
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}
