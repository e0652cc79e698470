//! Structured control flow, semantically: random programs as an AST
//! (nested if/else, bounded loops with break and continue, halt, calls,
//! each condition per channel), evaluated directly in Rust as each
//! channel's scalar code, and built with `geneu::build` into a program
//! whose per-channel register values identify the path each channel took.
//!
//! Register layout of the built program (each value is one UD per channel;
//! at SIMD16 a value spans two registers):
//! - `g2`: the channel's input word (conditions test its bits);
//! - `g10`: the accumulator, updated by every block (`add`, `mul` or `xor`
//!   with a block-specific constant), so its final value names the path;
//! - `g20 + 2d`: the iteration counter of the loop at depth `d` (bounds
//!   every loop so the reference terminates);
//! - `g100+`: return addresses of calls.
#![allow(dead_code)]

use geneu::build::{g, imm_ud, imm_uw, null, BuildErrors, Builder, Predicate, Target};
use geneu::{CondMod, ExecSize, Opcode, Platform};

pub use super::Rng;

/// The input register.
pub const INPUT: u8 = 2;
/// The accumulator register.
pub const ACC: u8 = 10;
/// The first loop counter register.
pub const COUNTER: u8 = 20;
/// The first return-address register.
pub const RET: u8 = 100;

/// A per-channel condition: bit `bit` of the input word or of the accumulator is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    /// Bit of the input word (fixed per channel).
    Input(u8),
    /// Bit of the accumulator (changes as the channel runs).
    Acc(u8),
}

/// A block's arithmetic update of the accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// `acc += k`.
    Add(u32),
    /// `acc *= k` (k odd, below 2^16).
    Mul(u16),
    /// `acc ^= k`.
    Xor(u32),
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// An update of the accumulator.
    Op(Update),
    /// `if (cond) { then } else { else_ }`.
    If(Cond, Vec<Stmt>, Option<Vec<Stmt>>),
    /// `for (n = 0; n < max; n++) { body }`, left by `break` (or the bound).
    Loop(u32, Vec<Stmt>),
    /// `if (cond) break;` (inside a loop).
    Break(Cond),
    /// `if (cond) continue;` (inside a loop).
    Cont(Cond),
    /// `if (cond) halt;`: the channel stops until the end of the program.
    Halt(Cond),
    /// Calls subroutine `k` (all active channels).
    Call(usize),
    /// `if (!cond) { body }` as a forward jump: on Gen8 a `goto` over the
    /// body to a `join` (the channels whose condition holds wait there),
    /// on Gen7/7.5 an `if` on the inverted condition. The body has only
    /// updates, ifs and gotos.
    Goto(Cond, Vec<Stmt>),
}

/// A program: the main body and its subroutines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prog {
    /// The main body.
    pub main: Vec<Stmt>,
    /// Subroutines (updates and ifs only).
    pub subs: Vec<Vec<Stmt>>,
}

// ---------------------------------------------------------------------------
// Evaluation: each channel runs the program as scalar code.
// ---------------------------------------------------------------------------

/// How a statement list ended for a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Normal,
    Break,
    Cont,
    Halt,
}

/// One channel's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chan {
    /// The input word.
    pub input: u32,
    /// The accumulator.
    pub acc: u32,
    /// Loop counters by depth (their final values are compared too).
    pub counters: Vec<u32>,
}

impl Cond {
    fn holds(self, c: &Chan) -> bool {
        match self {
            Cond::Input(b) => c.input >> b & 1 != 0,
            Cond::Acc(b) => c.acc >> b & 1 != 0,
        }
    }
}

impl Update {
    fn apply(self, acc: u32) -> u32 {
        match self {
            Update::Add(k) => acc.wrapping_add(k),
            Update::Mul(k) => acc.wrapping_mul(u32::from(k)),
            Update::Xor(k) => acc ^ k,
        }
    }
}

fn run(p: &Prog, stmts: &[Stmt], c: &mut Chan, depth: usize) -> Flow {
    for s in stmts {
        let f = match s {
            Stmt::Op(u) => {
                c.acc = u.apply(c.acc);
                Flow::Normal
            }
            Stmt::If(cond, t, e) => {
                if cond.holds(c) {
                    run(p, t, c, depth)
                } else if let Some(e) = e {
                    run(p, e, c, depth)
                } else {
                    Flow::Normal
                }
            }
            Stmt::Loop(max, body) => {
                c.counters[depth] = 0;
                loop {
                    if c.counters[depth] >= *max {
                        break Flow::Normal;
                    }
                    c.counters[depth] += 1;
                    match run(p, body, c, depth + 1) {
                        Flow::Break => break Flow::Normal,
                        Flow::Halt => break Flow::Halt,
                        Flow::Normal | Flow::Cont => {}
                    }
                }
            }
            Stmt::Break(cond) if cond.holds(c) => Flow::Break,
            Stmt::Cont(cond) if cond.holds(c) => Flow::Cont,
            Stmt::Halt(cond) if cond.holds(c) => Flow::Halt,
            Stmt::Break(_) | Stmt::Cont(_) | Stmt::Halt(_) => Flow::Normal,
            Stmt::Call(k) => run(p, &p.subs[*k], c, depth),
            Stmt::Goto(cond, body) => {
                if cond.holds(c) {
                    Flow::Normal
                } else {
                    run(p, body, c, depth)
                }
            }
        };
        if f != Flow::Normal {
            return f;
        }
    }
    Flow::Normal
}

/// Runs `p` for one channel from its input word and initial accumulator.
pub fn eval_channel(p: &Prog, input: u32, acc: u32) -> Chan {
    let mut c = Chan {
        input,
        acc,
        counters: vec![0; max_depth(&p.main) + 1],
    };
    run(p, &p.main, &mut c, 0);
    c
}

/// The deepest loop nesting of `stmts` (loops count 1 each).
pub fn max_depth(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::If(_, t, e) => max_depth(t).max(e.as_deref().map_or(0, max_depth)),
            Stmt::Goto(_, b) => max_depth(b),
            Stmt::Loop(_, b) => 1 + max_depth(b),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------
// Generation from a seeded random source.
// ---------------------------------------------------------------------------

struct Gen<'r> {
    rng: &'r mut Rng,
    /// Statements left to generate (bounds the size).
    budget: u32,
    /// Constants come from this counter, so every block's is distinct.
    next_k: u32,
    subs: usize,
}

impl Gen<'_> {
    fn cond(&mut self) -> Cond {
        let b = self.rng.below(8) as u8;
        if self.rng.below(2) == 0 {
            Cond::Input(b)
        } else {
            Cond::Acc(b)
        }
    }

    fn update(&mut self) -> Update {
        self.next_k += 1;
        let k = self.next_k;
        match self.rng.below(3) {
            0 => Update::Add(k.wrapping_mul(0x9e37_79b9) | 1),
            1 => Update::Mul((2 * k + 1) as u16 | 1),
            _ => Update::Xor(k << (k % 16) | k),
        }
    }

    fn block(&mut self, in_loop: bool, in_sub: bool, depth: u32) -> Vec<Stmt> {
        let n = 1 + self.rng.below(3);
        let mut out = vec![Stmt::Op(self.update())];
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let choice = self.rng.below(10);
            let s = match choice {
                0..=2 => Stmt::Op(self.update()),
                3 | 4 if depth < 4 && self.rng.below(3) == 0 => {
                    let c = self.cond();
                    Stmt::Goto(c, self.block(false, true, depth + 1))
                }
                3 | 4 if depth < 4 => {
                    let c = self.cond();
                    let t = self.block(in_loop, in_sub, depth + 1);
                    let e = (self.rng.below(2) == 0).then(|| self.block(in_loop, in_sub, depth + 1));
                    Stmt::If(c, t, e)
                }
                5 if depth < 4 && !in_sub => {
                    let max = 1 + self.rng.below(4);
                    let mut body = self.block(true, in_sub, depth + 1);
                    // Usually a data-dependent way out before the bound.
                    if self.rng.below(4) != 0 {
                        let at = self.rng.below(body.len() as u32 + 1) as usize;
                        body.insert(at, Stmt::Break(self.cond()));
                    }
                    Stmt::Loop(max, body)
                }
                6 if in_loop => Stmt::Break(self.cond()),
                7 if in_loop => Stmt::Cont(self.cond()),
                8 if !in_sub && self.rng.below(3) == 0 => Stmt::Halt(self.cond()),
                9 if !in_sub && self.subs > 0 => Stmt::Call(self.rng.below(self.subs as u32) as usize),
                _ => Stmt::Op(self.update()),
            };
            out.push(s);
        }
        out
    }
}

/// A random program of about `size` statements.
pub fn gen_prog(rng: &mut Rng, size: u32) -> Prog {
    let nsubs = rng.below(3) as usize;
    let mut g = Gen {
        rng,
        budget: size,
        next_k: 0,
        subs: 0,
    };
    let mut subs = Vec::new();
    for _ in 0..nsubs {
        g.budget = 3;
        subs.push(g.block(false, true, 2));
    }
    g.subs = nsubs;
    g.budget = size;
    let main = g.block(false, false, 0);
    Prog { main, subs }
}

// ---------------------------------------------------------------------------
// Building with geneu::build.
// ---------------------------------------------------------------------------

/// Registers one value takes at `simd` channels.
pub fn regs(simd: ExecSize) -> u8 {
    if simd.channels() > 8 {
        2
    } else {
        1
    }
}

struct Emit {
    b: Builder,
    simd: ExecSize,
    /// Where halted channels resume (before the end of thread).
    end: geneu::build::Label,
    /// Subroutine labels.
    subs: Vec<geneu::build::Label>,
}

impl Emit {
    /// `and.nz.f0.0 null reg (1 << bit)`: the condition into f0.0.
    fn cond(&mut self, c: Cond) -> Result<(), geneu::build::BuildError> {
        let (r, bit) = match c {
            Cond::Input(b) => (INPUT, b),
            Cond::Acc(b) => (ACC, b),
        };
        self.b.alu(
            Opcode::And,
            null().ud(),
            &[g(r).ud().into(), imm_ud(1 << bit).into()],
            Some(CondMod::Nz),
        )?;
        Ok(())
    }

    fn predicated<T>(
        &mut self,
        f: impl FnOnce(&mut Builder) -> Result<T, geneu::build::BuildError>,
    ) -> Result<T, geneu::build::BuildError> {
        self.b.push_state();
        self.b.state_mut().predicate = Some(Predicate::normal(0, 0));
        let r = f(&mut self.b);
        self.b.pop_state()?;
        r
    }

    fn update(&mut self, u: Update) -> Result<(), geneu::build::BuildError> {
        let acc = g(ACC).ud();
        match u {
            Update::Add(k) => self.b.add(acc, acc, imm_ud(k))?,
            Update::Mul(k) => self.b.mul(acc, acc, imm_uw(k))?,
            Update::Xor(k) => self.b.xor(acc, acc, imm_ud(k))?,
        };
        Ok(())
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: usize) -> Result<(), geneu::build::BuildError> {
        for s in stmts {
            match s {
                Stmt::Op(u) => self.update(*u)?,
                Stmt::If(c, t, e) => {
                    self.cond(*c)?;
                    self.predicated(|b| b.if_())?;
                    self.stmts(t, depth)?;
                    if let Some(e) = e {
                        self.b.else_()?;
                        self.stmts(e, depth)?;
                    }
                    self.b.endif()?;
                }
                Stmt::Loop(max, body) => {
                    let cnt = g(COUNTER + 2 * depth as u8).ud();
                    self.b.mov(cnt, imm_ud(0))?;
                    self.b.do_();
                    // The bound: channels that ran `max` times leave.
                    self.b.cmp(CondMod::Ge, null().ud(), cnt, imm_ud(*max))?;
                    self.predicated(|b| b.break_())?;
                    self.b.add(cnt, cnt, imm_ud(1))?;
                    self.stmts(body, depth + 1)?;
                    self.b.while_()?;
                }
                Stmt::Break(c) => {
                    self.cond(*c)?;
                    self.predicated(|b| b.break_())?;
                }
                Stmt::Cont(c) => {
                    self.cond(*c)?;
                    self.predicated(|b| b.cont())?;
                }
                Stmt::Halt(c) => {
                    self.cond(*c)?;
                    let end = self.end;
                    self.predicated(|b| b.halt(end))?;
                }
                Stmt::Call(k) => {
                    let l = self.subs[*k];
                    self.b.call(g(RET).ud().vec1(), l)?;
                }
                Stmt::Goto(c, body) => {
                    self.cond(*c)?;
                    if Opcode::Goto.exists_on(self.b.platform()) {
                        let join = self.b.label();
                        self.predicated(|b| b.branch_to(Opcode::Goto, join, Some(join.into())))?;
                        self.stmts(body, depth)?;
                        self.b.bind(join)?;
                        self.b.branch_to(Opcode::Join, Target::Rel(1), None)?;
                    } else {
                        self.b.push_state();
                        self.b.state_mut().predicate = Some(Predicate::normal(0, 0).inverted());
                        let r = self.b.if_();
                        self.b.pop_state()?;
                        r?;
                        self.stmts(body, depth)?;
                        self.b.endif()?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Builds `p` for `platform` at `simd` channels (8 or 16): the main body,
/// the end-of-thread message, then the subroutines.
pub fn build(platform: Platform, simd: ExecSize, p: &Prog) -> Result<Vec<u8>, BuildErrors> {
    let mut b = Builder::new(platform);
    b.state_mut().exec_size = simd;
    let end = b.label();
    let subs = (0..p.subs.len()).map(|_| b.label()).collect();
    let mut e = Emit { b, simd, end, subs };
    e.stmts(&p.main, 0).map_err(|x| BuildErrors(vec![x]))?;
    e.b.bind(e.end).map_err(|x| BuildErrors(vec![x]))?;
    super::end_of_thread(&mut e.b).map_err(|x| BuildErrors(vec![x]))?;
    for (k, body) in p.subs.iter().enumerate() {
        let l = e.subs[k];
        e.b.bind(l).map_err(|x| BuildErrors(vec![x]))?;
        e.stmts(body, 0).map_err(|x| BuildErrors(vec![x]))?;
        e.b.ret(g(RET).ud().vec1()).map_err(|x| BuildErrors(vec![x]))?;
    }
    Ok(e.b.finish()?.into_bytes())
}

/// The first register of loop depth `d`'s counter.
pub fn counter_reg(d: usize) -> u8 {
    COUNTER + 2 * d as u8
}
