//! A whole vISA-level kernel, lowered through the program builder
//! ([`crate::build`]): instructions and `GATHER4_TYPED` through their
//! lowerings, then labels with `JMP`, subroutine `CALL`/`RET`, Gen8
//! `GOTO`, and the EOT send, with every jump placed when the kernel is
//! finished.
//!
//! What is not lowered: `GOTO` on Gen7/7.5, which have no goto/join
//! (a backend turns it into `if`/`endif` or a uniform `jmpi`, which needs
//! knowledge of the control flow this layer does not have); vISA's
//! `FCALL`/`FRET` between kernels and `IFCALL` (indirect calls need a
//! calling convention the caller defines); and `SUBROUTINE` frames (the
//! caller chooses the return-address register with
//! [`Kernel::with_return_register`]).
//!
//! ```
//! use geneu::build::g;
//! use geneu::visa::{ExecCtl, Kernel, LowerCtx, VarTable};
//! use geneu::{ExecSize, Platform};
//! let mut k = Kernel::new(Platform::Gen8, VarTable::new(), LowerCtx::default()).with_return_register(120);
//! let sub = k.label();
//! let end = k.label();
//! k.call(sub)?;
//! k.jmp(None, end)?;
//! k.bind(sub)?;
//! k.ret()?;
//! k.bind(end)?;
//! k.builder().nop()?;
//! let prog = k.finish()?;
//! assert_eq!(prog.len(), 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::error::VisaError;
use super::exec::{check_exec, pred_control, pred_flag};
use super::format::{ExecCtl, PredCtl};
use super::gather::{lower_gather4_typed, VisaGather4Typed};
use super::inst::{lower, LowerCtx, VisaInst};
use super::vars::VarTable;
use crate::build::{g, null, BuildError, BuildErrors, Builder, Label, PredCtrl, Predicate, Program, State, Target};
use crate::model::{AccessMode, ExecSize, Opcode, Platform};
use crate::msg::Message;

/// A vISA kernel being lowered: a [`Builder`] with the variable table and
/// the registers set aside for lowering.
#[derive(Clone, Debug)]
pub struct Kernel {
    b: Builder,
    vars: VarTable,
    ctx: LowerCtx,
    ret: Option<u8>,
}

impl Kernel {
    /// An empty kernel for `p`.
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let k = Kernel::new(geneu::Platform::Gen7, VarTable::new(), LowerCtx::default());
    /// ```
    pub fn new(p: Platform, vars: VarTable, ctx: LowerCtx) -> Kernel {
        Kernel {
            b: Builder::new(p),
            vars,
            ctx,
            ret: None,
        }
    }

    /// The same kernel, with `g{nr}` holding the return address of `call`.
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let k = Kernel::new(geneu::Platform::Gen8, VarTable::new(), LowerCtx::default()).with_return_register(127);
    /// ```
    pub fn with_return_register(mut self, nr: u8) -> Kernel {
        self.ret = Some(nr);
        self
    }

    /// The builder, for instructions written at the hardware level.
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let mut k = Kernel::new(geneu::Platform::Gen8, VarTable::new(), LowerCtx::default());
    /// k.builder().nop().unwrap();
    /// ```
    pub fn builder(&mut self) -> &mut Builder {
        &mut self.b
    }

    /// The builder state of a vISA execution size, mask control and predicate.
    fn state(&self, exec: ExecCtl, pred: Option<PredCtl>) -> Result<State, VisaError> {
        check_exec(exec)?;
        let mut s = State::default().simd(exec.size).group(exec.mask.offset())?;
        s.no_mask = exec.mask.no_mask;
        if let Some(pc) = pred {
            let flag = pred_flag(&self.vars, pc, exec)?;
            let n = pred_control(pc.combine, exec.size.channels());
            s.predicate = Some(Predicate {
                flag,
                ctrl: PredCtrl::from_hw(AccessMode::Align1, n).unwrap_or_default(),
                invert: pc.inverse,
            });
        }
        Ok(s)
    }

    /// Lowers one vISA instruction.
    ///
    /// ```
    /// use geneu::visa::*;
    /// use geneu::ExecSize;
    /// let mut vars = VarTable::new();
    /// let a = vars.add_general(VisaType::F, 8, 2 * 32);
    /// let b = vars.add_general(VisaType::F, 8, 3 * 32);
    /// let mut k = Kernel::new(geneu::Platform::Gen8, vars, LowerCtx::default());
    /// let dst = VecOperand::general_dst(b, 0, 0, 1).unwrap();
    /// let src = VecOperand::general(a, 0, 0, VisaRegion::new(Some(8), 8, 1).unwrap());
    /// k.inst(&VisaInst::new(VisaOp::Mov, ExecCtl::new(ExecSize::S8), dst, &[src]))?;
    /// assert_eq!(k.finish()?.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inst(&mut self, i: &VisaInst) -> Result<(), VisaError> {
        for hw in lower(self.b.platform(), &self.vars, &self.ctx, i)? {
            self.b.emit(hw)?;
        }
        Ok(())
    }

    /// Lowers `GATHER4_TYPED` (payload moves, then the typed surface read).
    ///
    /// ```
    /// use geneu::visa::*;
    /// let mut vars = VarTable::new();
    /// let u = vars.add_general(VisaType::UD, 8, 20 * 32);
    /// let rgba = vars.add_general(VisaType::F, 32, 24 * 32);
    /// let ctx = LowerCtx { payload_grf: Some(100), ..LowerCtx::default() };
    /// let mut k = Kernel::new(geneu::Platform::Gen8, vars, ctx);
    /// let g = VisaGather4Typed::new(0xf, Surface::Bti(1), RawOperand { id: u, offset: 0 }, RawOperand { id: rgba, offset: 0 });
    /// k.gather4_typed(&g)?;
    /// k.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gather4_typed(&mut self, g: &VisaGather4Typed) -> Result<(), VisaError> {
        for hw in lower_gather4_typed(self.b.platform(), &self.vars, &self.ctx, g)? {
            self.b.emit(hw)?;
        }
        Ok(())
    }

    /// A new label.
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let mut k = Kernel::new(geneu::Platform::Gen8, VarTable::new(), LowerCtx::default());
    /// let l = k.label();
    /// k.bind(l).unwrap();
    /// ```
    pub fn label(&mut self) -> Label {
        self.b.label()
    }

    /// Binds `l` to the next instruction.
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let mut k = Kernel::new(geneu::Platform::Gen8, VarTable::new(), LowerCtx::default());
    /// let l = k.label();
    /// k.bind(l).unwrap();
    /// assert!(k.bind(l).is_err());
    /// ```
    pub fn bind(&mut self, l: Label) -> Result<(), VisaError> {
        Ok(self.b.bind(l)?)
    }

    /// vISA `JMP (1) label`, optionally predicated: a scalar jump, `jmpi`.
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let mut k = Kernel::new(geneu::Platform::Gen7, VarTable::new(), LowerCtx::default());
    /// let l = k.label();
    /// k.jmp(None, l).unwrap();
    /// k.bind(l).unwrap();
    /// ```
    pub fn jmp(&mut self, pred: Option<PredCtl>, target: Label) -> Result<(), VisaError> {
        let s = self.state(ExecCtl::new(ExecSize::S1), pred)?;
        self.b.with_state(s, |b| b.jmpi(target))?;
        Ok(())
    }

    fn ret_reg(&self, what: &'static str) -> Result<u8, VisaError> {
        self.ret.ok_or(VisaError::Unsupported {
            what,
            why: "no return-address register: see Kernel::with_return_register",
        })
    }

    /// vISA `CALL (1) label`: a subroutine call, the return address in the
    /// register of [`Kernel::with_return_register`].
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let mut k = Kernel::new(geneu::Platform::Gen8, VarTable::new(), LowerCtx::default());
    /// let l = k.label();
    /// assert!(k.call(l).is_err()); // no return register
    /// ```
    pub fn call(&mut self, target: Label) -> Result<(), VisaError> {
        let r = self.ret_reg("call")?;
        let s = State::default().simd(ExecSize::S1).no_mask();
        self.b.with_state(s, |b| b.call(g(r).ud().vec1(), target))?;
        Ok(())
    }

    /// vISA `RET (1)`: returns through the return-address register.
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let mut k = Kernel::new(geneu::Platform::Gen8, VarTable::new(), LowerCtx::default()).with_return_register(120);
    /// k.ret().unwrap();
    /// ```
    pub fn ret(&mut self) -> Result<(), VisaError> {
        let r = self.ret_reg("ret")?;
        let s = State::default().simd(ExecSize::S1).no_mask();
        self.b.with_state(s, |b| b.ret(g(r).ud().vec1()))?;
        Ok(())
    }

    /// vISA `GOTO (exec) label`: on Gen8, a `goto` whose JIP and UIP are
    /// `target`, where [`Kernel::bind_join`] puts the `join`. Gen7/7.5
    /// have no goto: not lowered.
    ///
    /// ```
    /// use geneu::visa::{ExecCtl, Kernel, LowerCtx, VarTable, VisaError};
    /// use geneu::ExecSize;
    /// let mut k = Kernel::new(geneu::Platform::Gen7, VarTable::new(), LowerCtx::default());
    /// let l = k.label();
    /// assert!(matches!(k.goto(ExecCtl::new(ExecSize::S8), None, l), Err(VisaError::Unsupported { .. })));
    /// ```
    pub fn goto(&mut self, exec: ExecCtl, pred: Option<PredCtl>, target: Label) -> Result<(), VisaError> {
        if !Opcode::Goto.exists_on(self.b.platform()) {
            return Err(VisaError::Unsupported {
                what: "goto",
                why: "Gen7/7.5 have no goto/join; lower it to if/endif or jmpi",
            });
        }
        let s = self.state(exec, pred)?;
        self.b
            .with_state(s, |b| b.branch_to(Opcode::Goto, target, Some(Target::Label(target))))?;
        Ok(())
    }

    /// Binds `target` of a `goto` and puts the `join` there (Gen8), where
    /// the channels that jumped rejoin; its JIP is the next instruction.
    ///
    /// ```
    /// use geneu::visa::{ExecCtl, Kernel, LowerCtx, VarTable};
    /// use geneu::ExecSize;
    /// let x8 = ExecCtl::new(ExecSize::S8);
    /// let mut k = Kernel::new(geneu::Platform::Gen8, VarTable::new(), LowerCtx::default());
    /// let l = k.label();
    /// k.goto(x8, None, l)?;
    /// k.bind_join(x8, l)?;
    /// k.builder().nop()?;
    /// k.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bind_join(&mut self, exec: ExecCtl, target: Label) -> Result<(), VisaError> {
        let s = self.state(exec, None)?;
        self.b.bind(target)?;
        self.b
            .with_state(s, |b| b.branch_to(Opcode::Join, Target::Rel(1), None))?;
        Ok(())
    }

    /// The end-of-thread send: `msg` (which must have EOT) with its payload
    /// from `g{payload}` (g112-g127).
    ///
    /// ```
    /// use geneu::msg::{Common, Message, Urb, UrbOpcode};
    /// use geneu::visa::{ExecCtl, Kernel, LowerCtx, VarTable};
    /// use geneu::{ExecSize, Platform};
    /// let mut k = Kernel::new(Platform::Gen8, VarTable::new(), LowerCtx::default());
    /// let urb = Urb::new(Platform::Gen8, Common::new(1, 0, true).with_eot(), UrbOpcode::Simd8Write);
    /// k.eot(ExecCtl::new(ExecSize::S8), 127, &Message::Urb(urb))?;
    /// k.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn eot(&mut self, exec: ExecCtl, payload: u8, msg: &Message) -> Result<(), VisaError> {
        if !msg.common().eot {
            return Err(VisaError::Unsupported {
                what: "eot",
                why: "the message does not end the thread (set EOT in its common fields)",
            });
        }
        let s = self.state(exec, None)?;
        self.b.with_state(s, |b| b.send(null(), g(payload), msg))?;
        Ok(())
    }

    /// Finishes the kernel: see [`Builder::finish`].
    ///
    /// ```
    /// use geneu::visa::{Kernel, LowerCtx, VarTable};
    /// let k = Kernel::new(geneu::Platform::Gen8, VarTable::new(), LowerCtx::default());
    /// assert!(k.finish().unwrap().is_empty());
    /// ```
    pub fn finish(self) -> Result<Program, BuildErrors> {
        self.b.finish()
    }
}

impl From<BuildError> for VisaError {
    fn from(e: BuildError) -> Self {
        VisaError::Build(e)
    }
}
