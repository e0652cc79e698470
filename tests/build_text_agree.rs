//! The text assembler and the builder share one header constructor
//! (`State`) and one home of branch offsets: the same program, written as
//! text and built, gives the same bytes, for every predicate control and
//! thread control the text can spell, and for branches to labels (or to
//! numeric offsets) on Gen7, Haswell and Gen8.

use geneu::build::{g, null, Builder, PredCtrl, Predicate, State};
use geneu::canon::shows_uip;
use geneu::text::{assemble_words_with, AsmOptions};
use geneu::{AccessMode, CondMod, ExecSize, FlagReg, Opcode, Platform, ThreadControl};

const PLATFORMS: [Platform; 3] = [Platform::Gen7, Platform::Gen75, Platform::Gen8];

/// Every predicate the text can write in `mode`: none, each named control
/// the mode has, and each encoding it reserves (`*** invalid predicate
/// control`), each plain and inverted.
fn predicates(mode: AccessMode) -> Vec<Option<Predicate>> {
    let flag = FlagReg { nr: 0, subnr: 1 };
    let mut ctrls: Vec<PredCtrl> = PredCtrl::ALL.iter().copied().filter(|c| c.hw(mode).is_some()).collect();
    let max = ctrls.iter().filter_map(|c| c.hw(mode)).max().unwrap();
    ctrls.extend((max + 1..=15).map(PredCtrl::Reserved));
    let mut out = vec![None];
    for ctrl in ctrls {
        for invert in [false, true] {
            out.push(Some(Predicate { flag, ctrl, invert }));
        }
    }
    out
}

/// The text of `s`'s predicate, as the parser reads it.
fn pred_text(s: &State) -> String {
    let Some(p) = s.predicate else { return String::new() };
    let sign = if p.invert { '-' } else { '+' };
    let flag = format!("f{}.{}", p.flag.nr, p.flag.subnr);
    match p.ctrl {
        PredCtrl::Normal => format!("({sign}{flag}) "),
        PredCtrl::Reserved(n) => {
            let mode = if s.access_mode == AccessMode::Align16 {
                "align16"
            } else {
                "align1"
            };
            format!("({sign}{flag}*** invalid predicate control {mode} value {n} ) ")
        }
        c => format!("({sign}{flag}.{}) ", c.name()),
    }
}

/// The option block of `s`, as the parser reads it.
fn options_text(s: &State) -> String {
    let mut o = vec![if s.access_mode == AccessMode::Align16 {
        "align16"
    } else {
        "align1"
    }
    .to_string()];
    if s.no_mask {
        o.push("WE_all".into());
    }
    if s.no_dd_clear {
        o.push("NoDDClr".into());
    }
    if s.no_dd_check {
        o.push("NoDDChk".into());
    }
    o.push(if s.nib_control || s.exec_size.channels() < 8 {
        format!("{}N", s.qtr_control * 2 + u8::from(s.nib_control) + 1)
    } else {
        format!("{}Q", s.qtr_control + 1)
    });
    match s.thread_control {
        ThreadControl::Atomic => o.push("atomic".into()),
        ThreadControl::Switch => o.push("switch".into()),
        _ => {}
    }
    if s.acc_write {
        o.push("AccWrEnable".into());
    }
    if s.breakpoint {
        o.push("breakpoint".into());
    }
    format!("{{ {} }}", o.join(" "))
}

/// Every predicate control and thread control, with the other header
/// controls turned on and off along the way: `add` built in the state and
/// written as text give the same word (unchecked: reserved encodings are
/// the validator's to refuse).
#[test]
fn every_predicate_and_thread_control_builds_as_it_assembles() {
    let threads = [ThreadControl::Normal, ThreadControl::Atomic, ThreadControl::Switch];
    let mut count = 0;
    for p in PLATFORMS {
        for mode in [AccessMode::Align1, AccessMode::Align16] {
            for (k, predicate) in predicates(mode).into_iter().enumerate() {
                for (t, thread_control) in threads.into_iter().enumerate() {
                    let n = k * 3 + t;
                    let simd4 = n % 5 == 0;
                    let mut s = State::default();
                    s.exec_size = if simd4 { ExecSize::S4 } else { ExecSize::S8 };
                    s.qtr_control = (n % 4) as u8;
                    s.nib_control = simd4 && n % 2 == 1;
                    s.access_mode = mode;
                    s.predicate = predicate;
                    s.flag = predicate.map_or(FlagReg::default(), |p| p.flag);
                    s.thread_control = thread_control;
                    s.no_mask = n % 2 == 0;
                    s.no_dd_clear = n % 3 == 0;
                    s.no_dd_check = n % 7 < 3;
                    s.acc_write = n % 5 == 1;
                    s.saturate = n % 6 == 2;
                    s.breakpoint = n % 4 == 3;
                    let mut b = Builder::new(p);
                    b.set_state(s);
                    b.add(g(2), g(3), g(4)).unwrap();
                    let built = geneu::encode_unchecked(p, &b.instructions()[0]).unwrap();
                    let sat = if s.saturate { ".sat" } else { "" };
                    let e = s.exec_size.channels();
                    let text = if mode == AccessMode::Align16 {
                        format!(
                            "{}add{sat}({e}) g2<1>F g3<4,4,1>F g4<4,4,1>F {};",
                            pred_text(&s),
                            options_text(&s)
                        )
                    } else {
                        format!(
                            "{}add{sat}({e}) g2<1>F g3<8,8,1>F g4<8,8,1>F {};",
                            pred_text(&s),
                            options_text(&s)
                        )
                    };
                    let words = assemble_words_with(p, &text, AsmOptions::UNCHECKED)
                        .unwrap_or_else(|e| panic!("{p:?} {text}: {e}"));
                    assert_eq!(words, [built], "{p:?} {text}");
                    count += 1;
                }
            }
        }
    }
    // Align1: none, 13 named and 2 reserved, align16: none, 7 named and 8
    // reserved; plain and inverted; three thread controls; three platforms.
    assert_eq!(count, 3 * 3 * ((1 + 2 * 15) + (1 + 2 * 15)));
}

/// A structured program with every kind of label branch: if/else/endif,
/// a loop with break, cont and while, and halt, nested.
fn structured(p: Platform) -> Builder {
    let mut b = Builder::new(p);
    let pred = Some(Predicate::normal(0, 0));
    let end = b.label();
    b.cmp(CondMod::L, null(), g(2), g(3)).unwrap();
    b.state_mut().predicate = pred;
    b.if_().unwrap();
    b.state_mut().predicate = None;
    b.add(g(4), g(5), g(6)).unwrap();
    b.do_();
    b.add(g(7), g(7), g(6)).unwrap();
    b.state_mut().predicate = pred;
    b.break_().unwrap();
    b.if_().unwrap();
    b.cont().unwrap();
    b.state_mut().predicate = None;
    b.endif().unwrap();
    b.state_mut().predicate = pred;
    b.halt(end).unwrap();
    b.while_().unwrap();
    b.state_mut().predicate = None;
    b.else_().unwrap();
    b.mov(g(4), g(6)).unwrap();
    b.endif().unwrap();
    b.bind(end).unwrap();
    b.mov(g(8), g(4)).unwrap();
    b
}

/// The builder's program written as text with a label at every branch
/// target (`numeric`: the offsets as numbers instead), each instruction
/// in the state it was built in.
fn as_text(p: Platform, insts: &[geneu::Instruction], numeric: bool) -> String {
    // JIP and UIP units per instruction: 16 bytes on Gen8, two 8-byte
    // units before.
    let unit = if p.is_gen8() { 16 } else { 2 };
    let target = |k: usize, off: i32| (k as i64 + i64::from(off) / unit) as usize;
    let mut labels = std::collections::BTreeSet::new();
    for (k, i) in insts.iter().enumerate() {
        if geneu::canon::shows_jip(i.opcode) {
            labels.insert(target(k, i.jip(p).unwrap()));
            if shows_uip(p, i.opcode) {
                labels.insert(target(k, i.uip(p).unwrap()));
            }
        }
    }
    let jump = |k: usize, off: i32| {
        if numeric {
            off.to_string()
        } else {
            format!("L{}", target(k, off))
        }
    };
    let mut text = String::new();
    for (k, i) in insts.iter().enumerate() {
        if labels.contains(&k) {
            text += &format!("L{k}:\n");
        }
        let s = State::of(i).unwrap();
        let e = i.exec_size.channels();
        let o = options_text(&s);
        text += &match i.opcode {
            Opcode::Cmp => format!("cmp.l.f0.0({e}) null<1>F g2<8,8,1>F g3<8,8,1>F {o};\n"),
            Opcode::Add => {
                let (d, a, c) = match i.dst.addr {
                    geneu::Addr::Direct { nr: 4, .. } => (4, 5, 6),
                    _ => (7, 7, 6),
                };
                format!("add({e}) g{d}<1>F g{a}<8,8,1>F g{c}<8,8,1>F {o};\n")
            }
            Opcode::Mov => {
                let (d, a) = match i.dst.addr {
                    geneu::Addr::Direct { nr: 4, .. } => (4, 6),
                    _ => (8, 4),
                };
                format!("mov({e}) g{d}<1>F g{a}<8,8,1>F {o};\n")
            }
            op => {
                let uip = if shows_uip(p, op) {
                    format!(" UIP: {}", jump(k, i.uip(p).unwrap()))
                } else {
                    String::new()
                };
                format!(
                    "{}{}({e}) JIP: {}{uip} {o};\n",
                    pred_text(&s),
                    op.name(),
                    jump(k, i.jip(p).unwrap())
                )
            }
        };
    }
    if labels.contains(&insts.len()) {
        text += &format!("L{}:\n", insts.len());
    }
    text
}

/// Branches to labels, and to the same offsets written as numbers, give
/// the builder's bytes on Gen7, Haswell and Gen8: the text's labels and
/// the builder's are resolved into offsets by one piece of code.
#[test]
fn label_branches_assemble_as_the_builder_places_them() {
    for p in PLATFORMS {
        let prog = structured(p).finish().unwrap();
        let insts: Vec<_> = prog.instructions().map(|(_, i)| *i).collect();
        for numeric in [false, true] {
            let text = as_text(p, &insts, numeric);
            let words = geneu::text::assemble_words(p, &text).unwrap_or_else(|e| panic!("{p:?}\n{text}\n{e}"));
            assert_eq!(words.concat(), prog.bytes(), "{p:?}\n{text}");
        }
    }
}

/// A label branch the field cannot hold is refused by both with the
/// field's range, from the one check.
#[test]
fn a_jump_too_far_is_refused_with_the_fields_range() {
    let p = Platform::Gen7;
    // 2^15 instructions of 2 units each do not fit Gen7's signed 16 bits.
    let text = "while(8) JIP: 65536 { align1 1Q };";
    let e = geneu::text::assemble(p, text).unwrap_err().0;
    let geneu::text::AsmErrorKind::OutOfRange { range, value, .. } = &e[0].kind else {
        panic!("{e:?}");
    };
    let mut b = Builder::new(p);
    b.branch_to(Opcode::While, geneu::build::Target::Rel(1 << 15), None)
        .unwrap();
    for _ in 0..(1 << 15) {
        b.nop().unwrap();
    }
    let be = b.finish().unwrap_err().0;
    let geneu::build::BuildError::JumpRange {
        range: brange, offset, ..
    } = &be[0]
    else {
        panic!("{be:?}");
    };
    assert_eq!((range, *value), (brange, 65536));
    assert_eq!(*offset, 65536);
}
