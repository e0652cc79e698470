//! The default instruction state, pushed and popped like Mesa's
//! `brw_push_insn_state`/`brw_pop_insn_state`.

use crate::build::error::BuildError;
use crate::isa::PRED_CONTROL_NONE;
pub use crate::model::PredCtrl;
use crate::model::{AccessMode, Controls, ExecSize, FlagReg, Instruction, ThreadControl};

/// A predicate: flag subregister, combination and inversion.
///
/// ```
/// use geneu::build::Predicate;
/// let p = Predicate::normal(0, 0).inverted();
/// assert!(p.invert);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Predicate {
    /// The flag subregister read.
    pub flag: FlagReg,
    /// How the flag bits combine.
    pub ctrl: PredCtrl,
    /// `(-f0.0)`: the inverse.
    pub invert: bool,
}

impl Predicate {
    /// `(+f{nr}.{subnr})`.
    ///
    /// ```
    /// assert_eq!(geneu::build::Predicate::normal(1, 0).flag.nr, 1);
    /// ```
    pub const fn normal(nr: u8, subnr: u8) -> Predicate {
        Predicate {
            flag: FlagReg { nr, subnr },
            ctrl: PredCtrl::Normal,
            invert: false,
        }
    }

    /// The same predicate with another combination.
    ///
    /// ```
    /// use geneu::build::{Predicate, PredCtrl};
    /// assert_eq!(Predicate::normal(0, 1).with(PredCtrl::Any4h).ctrl, PredCtrl::Any4h);
    /// ```
    pub const fn with(mut self, ctrl: PredCtrl) -> Predicate {
        self.ctrl = ctrl;
        self
    }

    /// The inverse predicate.
    ///
    /// ```
    /// assert!(!geneu::build::Predicate::normal(0, 0).inverted().inverted().invert);
    /// ```
    pub const fn inverted(mut self) -> Predicate {
        self.invert = !self.invert;
        self
    }
}

/// The state every new instruction takes its controls from. Fields are
/// public; [`crate::build::Builder::state_mut`] changes the current one
/// and `push_state`/`pop_state` save and restore it.
///
/// The default is Mesa's: SIMD8, align1, first quarter, masked, no
/// predicate, flag f0.0 for conditional modifiers.
///
/// ```
/// use geneu::{build::State, ExecSize};
/// let s = State::default().simd(ExecSize::S16).no_mask();
/// assert!(s.no_mask);
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Execution size.
    pub exec_size: ExecSize,
    /// Quarter control (0..=3; 2 is the second half of SIMD16).
    pub qtr_control: u8,
    /// Nibble control: the upper four channels of the quarter.
    pub nib_control: bool,
    /// Mask control: execute on every channel (`NoMask`, `WE_all`).
    pub no_mask: bool,
    /// Access mode.
    pub access_mode: AccessMode,
    /// Predicate, if any.
    pub predicate: Option<Predicate>,
    /// Flag register written by conditional modifiers (and read by a
    /// predicate that names none).
    pub flag: FlagReg,
    /// Saturate the result.
    pub saturate: bool,
    /// Accumulator write enable.
    pub acc_write: bool,
    /// Dependency control: no destination dependency clear.
    pub no_dd_clear: bool,
    /// Dependency control: no destination dependency check.
    pub no_dd_check: bool,
    /// Thread control.
    pub thread_control: ThreadControl,
    /// Debug control: a breakpoint on the instruction.
    pub breakpoint: bool,
}

impl Default for State {
    fn default() -> Self {
        State {
            exec_size: ExecSize::S8,
            qtr_control: 0,
            nib_control: false,
            no_mask: false,
            access_mode: AccessMode::Align1,
            predicate: None,
            flag: FlagReg { nr: 0, subnr: 0 },
            saturate: false,
            acc_write: false,
            no_dd_clear: false,
            no_dd_check: false,
            thread_control: ThreadControl::Normal,
            breakpoint: false,
        }
    }
}

impl State {
    /// The same state with execution size `s`.
    ///
    /// ```
    /// use geneu::{build::State, ExecSize};
    /// assert_eq!(State::default().simd(ExecSize::S1).exec_size, ExecSize::S1);
    /// ```
    pub const fn simd(mut self, s: ExecSize) -> State {
        self.exec_size = s;
        self
    }

    /// The same state with `NoMask`.
    ///
    /// ```
    /// assert!(geneu::build::State::default().no_mask().no_mask);
    /// ```
    pub const fn no_mask(mut self) -> State {
        self.no_mask = true;
        self
    }

    /// The same state in align16.
    ///
    /// ```
    /// use geneu::{build::State, AccessMode};
    /// assert_eq!(State::default().align16().access_mode, AccessMode::Align16);
    /// ```
    pub const fn align16(mut self) -> State {
        self.access_mode = AccessMode::Align16;
        self
    }

    /// The same state predicated by `p`.
    ///
    /// ```
    /// use geneu::build::{Predicate, State};
    /// assert!(State::default().predicated(Predicate::normal(0, 0)).predicate.is_some());
    /// ```
    pub const fn predicated(mut self, p: Predicate) -> State {
        self.predicate = Some(p);
        self
    }

    /// Selects the channels starting at `first` (a multiple of 4 below
    /// 32, and of the execution size when that is 8 or more), like Mesa's
    /// `brw_set_default_group`: quarter `first / 8`, nibble `(first / 4) % 2`.
    ///
    /// ```
    /// use geneu::{build::State, ExecSize};
    /// let s = State::default().simd(ExecSize::S16).group(16).unwrap();
    /// assert_eq!(s.qtr_control, 2);
    /// assert!(State::default().group(4).is_err()); // SIMD8 starts on a quarter
    /// ```
    pub fn group(mut self, first: u32) -> Result<State, BuildError> {
        let Some((qtr, nib)) = crate::model::channel_group_codes(self.exec_size, first) else {
            return Err(BuildError::Group {
                first,
                channels: self.exec_size.channels(),
                why: "a channel group starts at a multiple of the execution size (at least 4) and ends by channel 32",
            });
        };
        self.qtr_control = qtr;
        self.nib_control = nib;
        Ok(self)
    }

    /// vISA's mask control `M{k}` (1..=8: first channel `4·(k-1)`), with
    /// `_NM` (`no_mask`) or without.
    ///
    /// ```
    /// use geneu::{build::State, ExecSize};
    /// let s = State::default().simd(ExecSize::S8).visa_mask(3, true).unwrap();
    /// assert_eq!((s.qtr_control, s.no_mask), (1, true)); // M3_NM: channels 8-15, NoMask
    /// assert!(State::default().visa_mask(9, false).is_err());
    /// ```
    pub fn visa_mask(self, k: u8, no_mask: bool) -> Result<State, BuildError> {
        if !(1..=8).contains(&k) {
            return Err(BuildError::Group {
                first: u32::from(k),
                channels: self.exec_size.channels(),
                why: "vISA mask controls are M1..M8",
            });
        }
        let mut s = self.group(4 * (u32::from(k) - 1))?;
        s.no_mask = no_mask;
        Ok(s)
    }

    /// The state an instruction was built in: its execution size, channel
    /// group, mask, access mode, predicate, flag and single-bit controls.
    /// `None` if its predicate control is reserved in its access mode.
    ///
    /// ```
    /// use geneu::{build::State, ExecSize, Instruction, Opcode};
    /// let i = Instruction::new(Opcode::Add, ExecSize::S16);
    /// assert_eq!(State::of(&i).unwrap().exec_size, ExecSize::S16);
    /// ```
    pub fn of(i: &Instruction) -> Option<State> {
        let c = i.controls;
        let predicate = match i.pred_control {
            PRED_CONTROL_NONE => None,
            n => Some(Predicate {
                flag: i.flag,
                ctrl: PredCtrl::from_hw(i.access_mode, n)?,
                invert: c.contains(Controls::PRED_INV),
            }),
        };
        Some(State {
            exec_size: i.exec_size,
            qtr_control: i.qtr_control,
            nib_control: c.contains(Controls::NIB_CTRL),
            no_mask: c.contains(Controls::WE_ALL),
            access_mode: i.access_mode,
            predicate,
            flag: i.flag,
            saturate: c.contains(Controls::SATURATE),
            acc_write: c.contains(Controls::ACC_WR),
            no_dd_clear: c.contains(Controls::NO_DD_CLEAR),
            no_dd_check: c.contains(Controls::NO_DD_CHECK),
            thread_control: i.thread_control,
            breakpoint: c.contains(Controls::BREAKPOINT),
        })
    }

    /// Writes the state's controls into `i`, the builder's error naming
    /// instruction `index` ([`State::header_into`]).
    #[inline]
    pub(crate) fn apply(&self, i: &mut Instruction, index: usize) -> Result<(), BuildError> {
        self.header_into(i).map_err(|PredNotInMode| BuildError::State {
            index,
            why: "this predicate combination does not exist in this access mode",
        })
    }

    /// Writes the state into the header of `i`: execution size, access
    /// mode, thread control, channel group, mask, dependency control,
    /// saturate, accumulator write, breakpoint, predicate (control checked
    /// against the access mode, inverse, flag) and the flag. The one
    /// constructor of the header, for the builder and for the text
    /// assembler, which lowers what the text says into a `State`. Always
    /// inlined: its stores then sit beside the rest of the instruction's
    /// (the builder's bench measured about 3% faster than with a call).
    #[inline(always)]
    pub(crate) fn header_into(&self, i: &mut Instruction) -> Result<(), PredNotInMode> {
        i.exec_size = self.exec_size;
        i.access_mode = self.access_mode;
        i.thread_control = self.thread_control;
        i.qtr_control = self.qtr_control;
        let mut c = Controls::empty();
        c.set(Controls::WE_ALL, self.no_mask);
        c.set(Controls::NIB_CTRL, self.nib_control);
        c.set(Controls::SATURATE, self.saturate);
        c.set(Controls::ACC_WR, self.acc_write);
        c.set(Controls::NO_DD_CLEAR, self.no_dd_clear);
        c.set(Controls::NO_DD_CHECK, self.no_dd_check);
        c.set(Controls::BREAKPOINT, self.breakpoint);
        i.flag = self.flag;
        i.pred_control = PRED_CONTROL_NONE;
        if let Some(p) = self.predicate {
            i.pred_control = p.ctrl.hw(self.access_mode).ok_or(PredNotInMode)?;
            c.set(Controls::PRED_INV, p.invert);
            i.flag = p.flag;
        }
        i.controls = c;
        Ok(())
    }
}

/// A predicate combination that its access mode does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PredNotInMode;
