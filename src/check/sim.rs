//! The simulator's equivalence property, for fuzz targets and property
//! tests: a program, its compacted form ([`crate::compact::compact_program`])
//! and its disassembly assembled again ([`crate::text`]) run identically.
//!
//! [`arbitrary_program`] builds a valid program from bytes with the
//! builder (ALU instructions of several types and regions, conditional
//! modifiers, predication, extended math, nested if/else/endif, an
//! end-of-thread message); [`forms`] gives its equivalent forms; and
//! [`check_equiv`] runs every form in the simulator from the same
//! registers and panics when their results differ, or when the simulator
//! panics ([`check_equiv_with`] takes the runner).

use alloc::string::String;
use alloc::vec::Vec;

use super::msg::ByteSource;
use crate::build::{g, imm_d, imm_f, imm_ud, null, Builder, Operand, Predicate, Reg, State};
use crate::model::{CondMod, ExecSize, FlagReg, MathFunction, Opcode, Platform};
use crate::msg::{Message, ThreadSpawner};

/// The registers a generated program reads and writes: g2-g39.
pub const FIRST_REG: u8 = 2;
/// One past the last register a generated program touches.
pub const END_REG: u8 = 40;

/// A generated program and the register file it starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimProgram {
    /// The platform.
    pub platform: Platform,
    /// The program's bytes (native words), ending with an end of thread.
    pub bytes: Vec<u8>,
    /// Initial contents of g`FIRST_REG`..g`END_REG`.
    pub regs: Vec<[u8; 32]>,
    /// The dispatch channel enables.
    pub dispatch: u32,
}

/// Operand types a generated instruction uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    F,
    D,
    Ud,
}

fn typed(r: Reg, k: Kind) -> Reg {
    match k {
        Kind::F => r.f(),
        Kind::D => r.d(),
        Kind::Ud => r.ud(),
    }
}

/// A register of the generated range, even (a SIMD16 operand takes two).
fn reg(src: &mut ByteSource<'_>) -> Reg {
    g(FIRST_REG + 2 * (src.u8() % ((END_REG - FIRST_REG) / 2)))
}

/// A source: a register with one of a few regions, or an immediate.
fn source(src: &mut ByteSource<'_>, k: Kind, imm_ok: bool) -> Operand {
    let b = src.u8();
    if imm_ok && b % 4 == 0 {
        return match k {
            Kind::F => imm_f(f32::from(src.u8() as i8) / 4.0).into(),
            Kind::D => imm_d(i32::from(src.u8() as i8)).into(),
            Kind::Ud => imm_ud(src.u32()).into(),
        };
    }
    let r = typed(reg(src), k);
    let r = match b % 8 {
        1 => r.vec1(),
        2 => r.stride(4, 4, 1).unwrap_or(r),
        3 => r.stride(0, 4, 1).unwrap_or(r),
        _ => r,
    };
    let r = match b >> 5 {
        1 if k != Kind::Ud => r.neg(),
        2 if k == Kind::F => r.abs(),
        _ => r,
    };
    r.into()
}

fn kind(src: &mut ByteSource<'_>) -> Kind {
    match src.u8() % 3 {
        0 => Kind::F,
        1 => Kind::D,
        _ => Kind::Ud,
    }
}

/// One instruction into `b`, or nothing when it is not valid.
fn instruction(src: &mut ByteSource<'_>, b: &mut Builder) {
    let p = b.platform();
    let k = kind(src);
    let op = src.u8();
    let dst = typed(reg(src), k);
    // Try on a scratch builder first: only valid instructions go in.
    let mut t = Builder::new(p);
    t.set_state(*b.state());
    let cmod = match src.u8() % 8 {
        0 => Some(CondMod::Z),
        1 => Some(CondMod::G),
        2 => Some(CondMod::L),
        _ => None,
    };
    let built = match op % 16 {
        0 => t.mov(dst, source(src, k, true)),
        1 => t.alu(Opcode::Add, dst, &[source(src, k, false), source(src, k, true)], cmod),
        2 if k != Kind::F => t.alu(Opcode::And, dst, &[source(src, k, false), source(src, k, true)], cmod),
        3 if k != Kind::F => t.alu(Opcode::Or, dst, &[source(src, k, false), source(src, k, true)], None),
        4 if k != Kind::F => t.alu(Opcode::Xor, dst, &[source(src, k, false), source(src, k, true)], None),
        5 if k != Kind::F => t.alu(Opcode::Shl, dst, &[source(src, k, false), source(src, k, true)], None),
        6 if k != Kind::F => t.alu(Opcode::Asr, dst, &[source(src, k, false), source(src, k, true)], None),
        7 => t.alu(Opcode::Mul, dst, &[source(src, k, false), source(src, k, true)], None),
        8 => t.cmp(
            cmod.unwrap_or(CondMod::Ge),
            null().retype(dst.ty()),
            source(src, k, false),
            source(src, k, true),
        ),
        9 => t.sel_cond(
            if src.bool() { CondMod::L } else { CondMod::Ge },
            dst,
            source(src, k, false),
            source(src, k, true),
        ),
        10 if k == Kind::F => t.alu(Opcode::Frc, dst, &[source(src, k, false)], cmod),
        11 if k == Kind::F => t.alu(Opcode::Rndd, dst, &[source(src, k, false)], None),
        12 if k == Kind::F => t.math(MathFunction::Sqrt, dst, source(src, k, false), None),
        13 if k != Kind::F => t.alu(Opcode::Cbit, dst.ud(), &[source(src, Kind::Ud, false)], None),
        14 if k != Kind::F => t.alu(Opcode::Not, dst, &[source(src, k, false)], None),
        _ => t.alu(
            Opcode::Avg,
            dst.d(),
            &[source(src, Kind::D, false), source(src, Kind::D, true)],
            None,
        ),
    };
    if built.is_err() {
        return;
    }
    if let Some(i) = t.instructions().first() {
        if crate::validate::validate(p, i).is_ok() {
            let _ = b.emit(*i);
        }
    }
}

/// The end of the thread: `mov(8) g127 g0` and the thread spawner's
/// end-of-thread message from g127, NoMask.
fn end_of_thread(b: &mut Builder) -> Option<()> {
    let p = b.platform();
    let s = State {
        exec_size: ExecSize::S8,
        no_mask: true,
        qtr_control: 0,
        nib_control: false,
        predicate: None,
        ..*b.state()
    };
    b.with_state(s, |b| {
        b.mov(g(127).ud(), g(0).ud()).ok()?;
        b.send(
            null().ud(),
            g(127).ud(),
            &Message::ThreadSpawner(ThreadSpawner::end_of_thread(p)),
        )
        .ok()
    })?;
    Some(())
}

/// A valid program from `data`, or `None` when the bytes do not make one.
pub fn arbitrary_program(data: &[u8]) -> Option<SimProgram> {
    let mut src = ByteSource::new(data);
    let platform = src.pick(&Platform::ALL)?;
    let simd = if src.bool() { ExecSize::S16 } else { ExecSize::S8 };
    let dispatch = match src.u8() % 4 {
        0 => src.u32(),
        _ => u32::MAX,
    } & if simd == ExecSize::S16 { 0xffff } else { 0xff };
    let mut regs = Vec::new();
    for _ in FIRST_REG..END_REG {
        let mut r = [0u8; 32];
        for x in &mut r {
            *x = src.u8();
        }
        regs.push(r);
    }
    let mut b = Builder::new(platform);
    b.state_mut().exec_size = simd;
    let mut open_ifs = 0u32;
    let mut has_else = Vec::new();
    let n = 1 + src.u8() % 32;
    for _ in 0..n {
        match src.u8() % 16 {
            // Open a block on f0.0 (an if, predicated).
            0 if open_ifs < 4 => {
                let s = State {
                    predicate: Some(Predicate::normal(0, 0)),
                    ..*b.state()
                };
                b.with_state(s, |b| b.if_()).ok()?;
                open_ifs += 1;
                has_else.push(false);
            }
            1 if open_ifs > 0 && has_else.last() == Some(&false) => {
                b.else_().ok()?;
                if let Some(e) = has_else.last_mut() {
                    *e = true;
                }
            }
            2 if open_ifs > 0 => {
                b.endif().ok()?;
                open_ifs -= 1;
                has_else.pop();
            }
            // A predicated instruction.
            3 => {
                let flag = FlagReg {
                    nr: src.u8() % 2,
                    subnr: 0,
                };
                let mut s = *b.state();
                s.predicate = Some(Predicate::normal(flag.nr, flag.subnr));
                s.predicate = s.predicate.map(|p| if src.bool() { p.inverted() } else { p });
                let saved = *b.state();
                b.set_state(s);
                instruction(&mut src, &mut b);
                b.set_state(saved);
            }
            // A conditional modifier writing f1.0 instead of f0.0.
            4 => {
                let saved = *b.state();
                b.state_mut().flag = FlagReg { nr: 1, subnr: 0 };
                instruction(&mut src, &mut b);
                b.set_state(saved);
            }
            _ => instruction(&mut src, &mut b),
        }
    }
    for _ in 0..open_ifs {
        b.endif().ok()?;
    }
    end_of_thread(&mut b)?;
    let bytes = b.finish().ok()?.into_bytes();
    Some(SimProgram {
        platform,
        bytes,
        regs,
        dispatch,
    })
}

/// The program's equivalent forms, named: the program itself, its
/// compacted form, the compacted form's disassembly assembled again
/// (native words), and that compacted again.
pub fn forms(p: Platform, bytes: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let mut out = alloc::vec![("native", bytes.to_vec())];
    let compacted = match crate::compact::compact_program(p, bytes) {
        Ok(r) => r.bytes,
        Err(e) => panic!("{p}: a built program does not compact: {e}"),
    };
    let mut text = String::new();
    let printed = crate::text::program::Program::decode(p, &compacted)
        .write_text(&mut text, &crate::text::program::TextOptions::default());
    assert!(printed.is_ok(), "{p}: the compacted program does not print");
    let words = match crate::text::assemble_words_with(p, &text, crate::text::AsmOptions::UNCHECKED) {
        Ok(w) => w,
        Err(e) => panic!("{p}: the disassembly does not assemble: {e}\n{text}"),
    };
    let reassembled: Vec<u8> = words.concat();
    let recompacted = match crate::compact::compact_program(p, &reassembled) {
        Ok(r) => r.bytes,
        Err(e) => panic!("{p}: the reassembled program does not compact: {e}"),
    };
    out.push(("compacted", compacted));
    out.push(("text", reassembled));
    out.push(("text compacted", recompacted));
    out
}

/// What a run leaves that the equivalence compares: the general
/// registers, the flags, `a0`, and whether it ended (with its error's
/// kind, not its offset, which differs between forms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    /// g0-g127 after the run.
    pub grf: Vec<u8>,
    /// `f0` and `f1`.
    pub flags: [u32; 2],
    /// `a0`'s words.
    pub a0: [u16; 16],
    /// `None` when the thread ended; the error's kind otherwise.
    pub error: Option<String>,
}

/// Checks that every form of the program of `data` runs as the program
/// itself does, with `run` as the simulator (a form's bytes, the
/// program's platform and starting registers, to a [`RunResult`]).
///
/// Returns the program's own result (`None` when the bytes make no
/// program), so that a test can check that most runs end normally: forms
/// that all fail alike are equivalent, but say little.
///
/// # Panics
///
/// Panics when two forms' results differ.
pub fn check_equiv_with(
    data: &[u8],
    mut run: impl FnMut(Platform, &[u8], &SimProgram) -> RunResult,
) -> Option<RunResult> {
    let prog = arbitrary_program(data)?;
    let p = prog.platform;
    let mut first: Option<(&'static str, RunResult)> = None;
    for (name, bytes) in forms(p, &prog.bytes) {
        let r = run(p, &bytes, &prog);
        match &first {
            None => first = Some((name, r)),
            Some((base, want)) => {
                if &r != want {
                    let diff = want
                        .grf
                        .iter()
                        .zip(&r.grf)
                        .position(|(a, b)| a != b)
                        .map(|k| alloc::format!("first differing byte g{}.{}", k / 32, k % 32))
                        .unwrap_or_default();
                    panic!(
                        "{p}: the {name} form runs differently from the {base} one: {diff}\n{:?} against {:?}\nflags {:x?} against {:x?}",
                        r.error, want.error, r.flags, want.flags
                    );
                }
            }
        }
    }
    first.map(|(_, r)| r)
}

/// [`check_equiv_with`] with [`crate::sim::run`]: each form runs from the
/// program's registers (g2-g39 as generated, the rest zero) and dispatch
/// mask, with an empty memory and a step limit.
///
/// Returns the program's own result, as [`check_equiv_with`] does.
///
/// # Panics
///
/// Panics when two forms' results differ, or when the simulator panics.
pub fn check_equiv(data: &[u8]) -> Option<RunResult> {
    use crate::sim::{Memory, Program, RunOptions, Thread};
    check_equiv_with(data, |p, bytes, prog| {
        let mut t = Thread::new();
        for (k, r) in prog.regs.iter().enumerate() {
            if let Some(d) = t.reg_mut(FIRST_REG.saturating_add(k as u8)) {
                *d = *r;
            }
        }
        t.set_dispatch_mask(prog.dispatch);
        let opts = RunOptions {
            step_limit: 10_000,
            ..RunOptions::default()
        };
        let error = match Program::new(p, bytes) {
            Ok(program) => crate::sim::run(&program, &mut t, &mut Memory::default(), &opts)
                .err()
                .map(|e| alloc::format!("{:?}", core::mem::discriminant(&e))),
            Err(e) => Some(alloc::format!("{e}")),
        };
        RunResult {
            grf: t.grf().to_vec(),
            flags: [t.flag(0), t.flag(1)],
            a0: core::array::from_fn(|k| t.a0(k as u8)),
            error,
        }
    })
}
