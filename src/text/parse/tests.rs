//! The parser's tests: statements, operands, errors and recovery.

use super::*;
use crate::text::syntax::{Base, Operands, SendOperands, Stmt, Target};

fn parse(src: &str) -> (Vec<Stmt<'_>>, Vec<AsmError>) {
    let mut p = Parser::new(Platform::Gen8, src);
    let mut v = Vec::new();
    while let Some(s) = p.next_statement() {
        v.push(s);
    }
    (v, p.errors)
}

/// `f` of each statement (None for labels) and the errors as
/// (line, column, kind).
#[allow(clippy::type_complexity)]
fn parse_insts<T>(src: &str, f: impl Fn(Inst<'_>) -> Option<T>) -> (Vec<Option<T>>, Vec<(u32, u32, AsmErrorKind)>) {
    let (v, e) = parse(src);
    let e = e.into_iter().map(|e| (e.line, e.column, e.kind)).collect();
    let v = v
        .into_iter()
        .map(|s| match s {
            Stmt::Inst(i) => f(i),
            Stmt::Label(..) => None,
        })
        .collect();
    (v, e)
}

fn one(src: &str) -> Inst<'_> {
    let (v, e) = parse(src);
    assert!(e.is_empty(), "{e:?}");
    match v.as_slice() {
        [Stmt::Inst(i)] => *i,
        _ => panic!("{v:?}"),
    }
}

#[test]
fn instruction_header() {
    let i = one("(-f1.1.any4h) cmp.sat.ge.f0.1(16) null<1>D g2<8,8,1>D 0D { align1 2H WE_all };");
    assert_eq!(i.opcode, Opcode::Cmp);
    let p = i.pred.unwrap();
    assert!(p.inv);
    assert_eq!((p.flag.nr, p.flag.sub, p.suffix.map(|s| s.0)), (1, 1, Some("any4h")));
    assert!(i.sat);
    assert_eq!(i.cmod.map(|c| c.0), Some(4));
    assert_eq!(i.cmod_flag.map(|f| (f.nr, f.sub)), Some((0, 1)));
    assert_eq!(i.exec, ExecSize::S16);
    assert!(i.opts.we_all && !i.opts.align16);
    assert_eq!(i.opts.qtr, 2);
}

#[test]
fn operands_in_all_shapes() {
    let i = one("add(8) g[a0.2 -16]<1>UW -(abs)g1.3<8;4,2>.xyzwF 0x3f800000F /* 1F */;");
    let Operands::Alu { dst, src } = i.ops else { panic!() };
    assert!(matches!(
        dst.base,
        Base::Indirect {
            sub: Some(Num { value: 2, .. }),
            imm: -16,
            ..
        }
    ));
    let s0 = src[0].unwrap();
    assert!(s0.neg && s0.abs);
    assert_eq!(s0.region.unwrap().n, 3);
    assert_eq!(s0.chans.unwrap().n, 4);
    assert_eq!(s0.ty.unwrap().0, Type::F);
    let s1 = src[1].unwrap();
    assert_eq!(
        s1.base,
        Base::Imm {
            value: 0x3f80_0000,
            neg: false
        }
    );
    assert_eq!(s1.ty.unwrap().0, Type::F);
}

#[test]
fn send_with_descriptor_text() {
    let i = one(
        "send(8)         null<1>F        g123<8,8,1>F    0x8a080017\n                            urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0        { align1 1Q EOT };",
    );
    let Operands::Send(SendOperands { desc, sfid, src1, .. }) = i.ops else {
        panic!()
    };
    assert_eq!((desc.value, sfid, src1), (0x8a08_0017, 6, None));
    assert!(i.opts.eot);
    let i = one("send(8) g1<1>UW g7<8,8,1>UD a0<0,1,0>UD 0x00000200 dp data 1 MsgDesc: indirect { align1 };");
    let Operands::Send(SendOperands { sfid, src1, .. }) = i.ops else {
        panic!()
    };
    assert_eq!(sfid, 12);
    assert!(src1.is_some());
}

#[test]
fn labels_and_branches() {
    let (v, e) = parse("LABEL0:\n(+f0.0) if(8) JIP: LABEL0 UIP: end;\nend:");
    assert!(e.is_empty());
    assert!(matches!(v[0], Stmt::Label("LABEL0", _)));
    let Stmt::Inst(i) = v[1] else { panic!() };
    assert!(matches!(
        i.ops,
        Operands::Branch {
            jip: Some(Target::Label("LABEL0", _)),
            uip: Some(Target::Label("end", _))
        }
    ));
    assert!(matches!(v[2], Stmt::Label("end", _)));
}

#[test]
fn regions_read_alike_with_or_without_spaces() {
    let region = |src: &str| {
        let mut p = Parser::new(Platform::Gen8, src);
        p.region()
            .map(|r| (r.n, r.vxh, r.vals.map(|v| v.value)))
            .map_err(|e| e.kind)
    };
    for (glued, spaced) in [
        ("<8,8,1>", "< 8 , 8 , 1 >"),
        ("<1>", "< 1 >"),
        ("<4>", "<4 >"),
        ("<0;1,0>", "<0 ;1, 0>"),
        ("<16,8,2>F", "<16 ,8,2>F"),
        ("<999,0,1>", "<999, 0,1>"),
    ] {
        assert_eq!(region(glued), region(spaced), "{glued}");
        assert!(region(glued).is_ok(), "{glued}");
    }
    // Errors.
    for bad in ["<8,8,1,2>", "<8,,8>", "<>", "<8,8,1", "<8 8>", "<8,8,1;"] {
        assert!(region(bad).is_err(), "{bad}");
    }
    assert_eq!(region("<1000>").map(|r| r.2[0]), Ok(1000));
    assert_eq!(region("<0x10,1,0>").map(|r| r.2[0]), Ok(16));
    assert!(region("<VxH,1,0>").unwrap().1);
    // Positions: each item where it is written.
    let mut p = Parser::new(Platform::Gen8, "\n  <8,16,1>");
    let r = p.region().unwrap();
    let src = p.source();
    assert_eq!(
        r.vals.map(|v| (v.pos.line, v.pos.column(src))),
        [(2, 4), (2, 6), (2, 9)]
    );
    assert_eq!((r.pos.line, r.pos.column(src)), (2, 3));
}

#[test]
fn operands_read_alike_with_or_without_spaces() {
    let operand = |src: &str| {
        let mut p = Parser::new(Platform::Gen8, src);
        // Positions differ; the rest must not.
        let base = |b: Base| match b {
            Base::Reg { name, sub } => alloc::format!("{name:?}.{:?}", sub.map(|n| n.value)),
            Base::Indirect { sub, imm, .. } => alloc::format!("[a0.{:?} {imm}]", sub.map(|n| n.value)),
            Base::Imm { value, neg } => alloc::format!("{neg} {value}"),
        };
        let o = p.operand(false).map(|o| {
            (
                o.neg,
                o.abs,
                base(o.base),
                o.region.map(|r| r.vals.map(|v| v.value)),
                o.chans.map(|c| c.ch),
                o.ty.map(|t| t.0),
            )
        });
        (o.map_err(|e| e.kind), p.tok.kind)
    };
    for (glued, spaced) in [
        ("g7.2<8,8,1>D;", "g7 . 2 < 8 , 8 , 1 > D ;"),
        ("-(abs)g2.4<0,1,0>F;", "- ( abs ) g2 .4 <0,1,0> /* c */ F;"),
        ("~acc0<8,8,1>D;", "~ acc0\n<8,8,1>D;"),
        ("g[a0.2-16]<1,0>UW;", "g [ a0 . 2 - 16 ] <1,0> UW;"),
        ("g3<4>.xyzwF;", "g3 <4> . xyzwF;"),
        ("-1D;", "- 1 D;"),
        ("0x3f800000F;", "0x3f800000 F;"),
        ("ip;", "ip ;"),
        ("tdr0<0,1,0>UW;", "tdr0 <0,1,0> UW;"),
    ] {
        assert_eq!(operand(glued), operand(spaced), "{glued}");
        assert!(operand(glued).0.is_ok(), "{glued}");
        assert_eq!(operand(glued).1, Kind::Semi, "{glued}");
    }
    // Each error at the piece that cannot be read, with what was expected.
    for (src, col, expected) in [
        ("g2<8,8,1>Fx", 10, EXPECT_TYPE),
        ("g2<8,8,1> ;", 11, EXPECT_TYPE),
        ("g2<8,8,1,2>F", 10, "`>` closing the region"),
        ("g2<8 8>F", 6, "`,` or `>` in the region"),
        ("(abs g2", 6, "`)` after `(abs`"),
        ("( bas)g2", 3, "`abs` in the `(abs)` source modifier"),
        ("g[a1]<1>F", 3, "the address register `a0`"),
        ("g[a0.1 -]<1>F", 9, "an address offset"),
        ("g[a0.1 +2<1>F", 10, "`]` closing the indirect address"),
        ("g2.<1>F", 4, "channels (x, y, z, w) and a type"),
        (";", 1, EXPECT_SRC),
    ] {
        let mut p = Parser::new(Platform::Gen8, src);
        let e = p.operand(false).unwrap_err();
        assert_eq!(e.column, col, "{src}");
        assert!(
            matches!(e.kind, AsmErrorKind::Unexpected { expected: x, .. } | AsmErrorKind::BadChar { expected: x, .. } if x == expected),
            "{src}: {:?}",
            e.kind
        );
    }
}

#[test]
fn send_descriptions_with_spaces_comments_and_line_ends() {
    let send = |src: &str| {
        parse_insts(src, |i| match i.ops {
            Operands::Send(SendOperands { sfid, desc, .. }) => Some((sfid, desc.value, i.opts.eot)),
            _ => None,
        })
    };
    let base = "send(8) g2<1>UD g11<8,8,1>UD 0x042a0088\n";
    for tail in [
        "    urb MsgDesc: 8 SIMD8 read mlen 2 rlen 2 { align1 1Q EOT };",
        "    urb MsgDesc : 8 SIMD8 read { align1 1Q EOT };",
        "    urb MsgDesc:{ align1 1Q EOT };",
        "    urb\tMsgDesc: 8 { align1 1Q EOT };",
        "    urb /* c */ MsgDesc: 8 { align1 1Q EOT };",
        "    urb\nMsgDesc: 8 { align1 1Q EOT };",
        "    urb { align1 1Q EOT };",
        "    urb MsgDesc: 8 SIMD8 read;",
    ] {
        let (v, e) = send(&alloc::format!("{base}{tail}"));
        assert!(e.is_empty(), "{tail:?}: {e:?}");
        let eot = !tail.ends_with("read;");
        assert_eq!(v, [Some((6, 0x042a_0088, eot))], "{tail:?}");
    }
    each_is_an_error(
        base,
        &[
            "    urb MsgDescx: 8 { align1 1Q };",
            "    urb MsgDesc 8 { align1 1Q };",
            "    frob MsgDesc: 8 { align1 1Q };",
            // The description ends at its line's end.
            "    urb MsgDesc:\n    8 { align1 1Q };",
            "    urb MsgDesc: 8\n    8 { align1 1Q };",
        ],
        send,
    );
}

/// Asserts that `base` followed by each of `tails`, as `read` reads it
/// (giving statements and errors), has an error.
fn each_is_an_error<T>(base: &str, tails: &[&str], read: impl Fn(&str) -> (T, Vec<(u32, u32, AsmErrorKind)>)) {
    for tail in tails {
        let (_, e) = read(&alloc::format!("{base}{tail}"));
        assert!(!e.is_empty(), "{tail:?}");
    }
}

#[test]
fn multi_word_shared_functions() {
    let base = "send(8) null<1>UW g1<8,8,1>UD 0x0e0b6001\n";
    let sfid = |src: &str| {
        parse_insts(src, |i| match i.ops {
            Operands::Send(SendOperands { sfid, .. }) => Some(sfid),
            _ => None,
        })
    };
    for (tail, want) in [
        (
            "    dp data 1 MsgDesc: ( DC typed surface write, Surface = 1) mlen 7 { align1 2Q };",
            12,
        ),
        ("    dp  data\t0x1 MsgDesc: x { align1 2Q };", 12),
        ("    dp /* c */ data\n 1 MsgDesc: x;", 12),
        ("    dp data 01 { align1 };", 12),
        (
            "    pixel interp MsgDesc: (persp, sample_position) mlen 2 rlen 4 { align1 1Q };",
            11,
        ),
        ("    pixel\ninterp MsgDesc: x { align1 1Q };", 11),
        ("    rt accel MsgDesc: x { align1 1Q };", 8),
    ] {
        let (v, e) = sfid(&alloc::format!("{base}{tail}"));
        assert!(e.is_empty(), "{tail:?}: {e:?}");
        assert_eq!(v, [Some(want)], "{tail:?}");
    }
    each_is_an_error(
        base,
        &[
            "    dp data 2 MsgDesc: x { align1 };",
            "    dp data 1D MsgDesc: x { align1 };",
            "    dp data MsgDesc: x { align1 };",
            "    dp date 1 MsgDesc: x { align1 };",
            "    pixel interpx MsgDesc: x { align1 };",
            "    pixel MsgDesc: x { align1 };",
            "    rt /* c MsgDesc: x { align1 };",
        ],
        sfid,
    );
}

#[test]
fn multi_word_shared_functions_after_a_register_descriptor() {
    // An error on the line after the description is reported on that
    // line.
    for tail in [
        "pixel interp MsgDesc: x { align1 1Q };",
        "pixel\ninterp MsgDesc: x;",
        "dp /* c */ data\n\n 1 MsgDesc: x { align1 };",
        "rt accel MsgDesc: x;",
    ] {
        let src = alloc::format!("send(8) g1<8,8,1>UD g2<8,8,1>UD a0<0,1,0>UD 0x0e0b6001 {tail}\nfrob(8) g1<1>F;\n");
        let (_, errors) = statements(Platform::Gen8, &src);
        let lines = src.matches('\n').count() as u32;
        assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), [lines], "{src:?}");
    }
}

#[test]
fn statements_with_any_register() {
    for src in [
        "mov(8) acc0<1>F (abs)g2<8,8,1>F { align1 1Q };",
        "and(1) cr0<1>UD cr0<0,1,0>UD 0xffffff7fUD { align1 1N switch };",
        "(-f0.0) sel(8) g44<1>F (abs)g41<8,8,1>F 0x3f800000F /* 1F */ { align1 1Q };",
        "mov.nz.f0.0(16) g2<1>F -(abs)g3<0,1,0>F { align1 1H };",
        "mov(1) ip<1>UD -(abs)1D;",
        "mov(8) g2<1>F (abs)1F;",
        "mov(8) m3<1>F ARF5<0,1,0>F;",
        "mov(8) null.1<1>F tdr0<0,1,0>UD;",
        "mov(8) g2<1>F g0001<8,8,1>F;",
        "mov(8) g2<1>F f0.1<0,1,0>UW;\nmov(8) g3<1>UD tm0<4,4,1>UD;",
        "mov(8) g2<1>F (abs) g3<8,8,1>F;",
        // Errors.
        "mov(8) acc99<1>F g2<8,8,1>F;",
        "mov(8) g2<1>F (abs)acc16<8,8,1>F;",
    ] {
        let (stmts, errors) = statements(Platform::Gen8, src);
        let bad = src.contains("acc99") || src.contains("acc16");
        assert_eq!(stmts.is_empty(), bad, "{src:?}: {stmts:?}");
        assert_eq!(errors.is_empty(), !bad, "{src:?}: {errors:?}");
    }
}

#[test]
fn register_names_with_trailing_characters_are_errors() {
    for name in ["g12x", "g1_", "r0a", "g1234", "null1x"] {
        let src = alloc::format!("mov(8) {name}<1>F g1<8,8,1>F;\nmov(8) g1<1>F {name}<8,8,1>F;");
        let (_, e) = statements(Platform::Gen8, &src);
        assert_eq!(e.len(), 2, "{src:?}: {e:?}");
    }
}

#[test]
fn options_read_alike_with_or_without_spaces() {
    let opts = |src: &str| {
        let mut p = Parser::new(Platform::Gen8, src);
        let o = p.options().map_err(|e| (e.line, e.column, e.kind));
        (o, p.tok.kind)
    };
    for (glued, spaced) in [
        ("{ align1 1Q };", "{ align1 1 Q\n};"),
        ("{ align1 WE_all 3N };", "{align1 WE_all\t3N};"),
        (
            "{ align16 2H NoDDClr, NoDDChk, AccWrEnable switch EOT };",
            "{\nalign16 2 H NoDDClr , NoDDChk /**/, AccWrEnable switch EOT };",
        ),
        (
            "{ align1 8N 1N compr sechalf atomic compacted breakpoint nomask };",
            "{ align1 8N 1 N compr sechalf atomic compacted breakpoint nomask\n};",
        ),
        ("{}", "{ }"),
    ] {
        assert_eq!(opts(glued), opts(spaced), "{glued}");
        assert!(opts(glued).0.is_ok(), "{glued}");
    }
    for bad in [
        "{ align1 9N }",
        "{ align1 1q }",
        "{ align2 }",
        "{ align1 1Qx }",
        "{ align1",
        "{ 1 }",
    ] {
        assert!(opts(bad).0.is_err(), "{bad}");
    }
    assert!(opts("{ 01Q }").0.is_ok());
    assert!(opts("{ 0x1Q }").0.is_ok());
}

/// A block read again from its bytes ([`OptionsMemo`]) reads as when it
/// is read alone: the same options (at its own position), the same errors;
/// blocks too long to keep, on two lines, with comments, differing from
/// one kept only at their end, at the end of the input, found in any
/// slot and after the slots have been replaced.
#[test]
fn options_read_alike_after_any_blocks() {
    let blocks = [
        "{ align1 1Q }",
        "{ align1 1H }",
        "{ align1 1Q EOT }",
        "{ align1 WE_all 1Q }",
        "{align1 WE_all 1Q}",
        "{ align1 1Q /* } */ }",
        "{ align1 1Q\n}",
        "{ align1 1Q }x",
        "{ align1 1Qx }",
        "{ align1 1Q",
        "{ align1 compr sechalf 1Q }",
        "{ align1 sechalf 2Q }",
        "{ align16 2H NoDDClr, NoDDChk }",
        // 31, 32 and 33 bytes.
        "{ align16 2H NoDDClr, NoDDChk  }",
        "{ align16 2H NoDDClr, NoDDChk   }",
        "{ align16 2H NoDDClr, NoDDChk    }",
        "{ align16 2H NoDDClr, NoDDChk, AccWrEnable switch EOT }",
        "{}",
        "{ 9N }",
    ];
    type Read = (Vec<Option<Options>>, Vec<(u32, u32, AsmErrorKind)>);
    // Each statement's options (position checked to be its `{`, then
    // cleared) and the errors.
    let read = |src: &str| -> Read {
        let (v, e) = parse_insts(src, |i| Some(i.opts));
        let v = v
            .into_iter()
            .map(|o| {
                o.map(|mut o| {
                    assert_eq!(src.as_bytes().get(o.pos.offset as usize), Some(&b'{'), "{src:?}");
                    o.pos = Pos::default();
                    o
                })
            })
            .collect();
        (v, e)
    };
    let stmt = |b: &str| alloc::format!("mov(8) g2<1>F g3<8,8,1>F {b};\n");
    // The statements of the blocks `seq` (indices) in turn, against each
    // read alone (its errors' lines moved by the lines before it).
    let check = |seq: &[usize], pad: &str, alone: &[Read]| {
        let mut src = String::new();
        let mut want: Read = (Vec::new(), Vec::new());
        for &k in seq {
            let (b, rb) = (blocks.get(k).unwrap(), alone.get(k).unwrap());
            let shift = src.matches('\n').count() as u32;
            want.0.extend(rb.0.iter().cloned());
            want.1
                .extend(rb.1.iter().map(|(l, c, kind)| (l + shift, *c, kind.clone())));
            src += &stmt(b);
        }
        src += pad;
        assert_eq!(read(&src), want, "{src:?}");
    };
    for pad in ["", "// a comment long enough for a whole window of the last block\n"] {
        let alone: Vec<Read> = blocks.iter().map(|b| read(&(stmt(b) + pad))).collect();
        for a in 0..blocks.len() {
            for b in 0..blocks.len() {
                check(&[a, b, b, a], pad, &alone);
            }
        }
        let all: Vec<usize> = (0..blocks.len())
            .chain(0..blocks.len())
            .chain((0..blocks.len()).rev())
            .collect();
        check(&all, pad, &alone);
        for n in 1..=6 {
            let round: Vec<usize> = (0..n).cycle().take(4 * n).collect();
            check(&round, pad, &alone);
        }
    }
}

/// A region and type read again from their bytes ([`RegionMemo`]) read
/// as when they are read alone: the same values and type at the same
/// places (from the statement's start), the same errors; regions too long
/// to keep, on two lines, with markers, with channels, differing from one
/// kept only at their end or followed by more of the type's name, and at
/// the end of the input.
#[test]
fn regions_read_alike_after_any_regions() {
    let regions = [
        "<8,8,1>F",
        "<8,8,1>UD",
        "<8,8,1>UDx",
        "<8,8,1>U",
        "<8,8,1> F",
        "<8,8,1>",
        "<0,1,0>UD",
        "<1>F",
        "<4>.xyzwF",
        "<4>.xF",
        "<8;8,1>F",
        "<8, 8, 1>F",
        "<8,8,1\n>F",
        "<8,8,1>\nF",
        "<VxH,1,0>F",
        "<*** invalid vert stride value 3,8,1>F",
        "<8,*** invalid width value 3,1>F",
        "<16,16,1>F",
        "<8,       8,       1>F",
        "<8,8,1,2>F",
        "<8,8,11>F",
        "<8,8,1F",
        "<99999999999999999999,1,0>F",
        "<>F",
    ];
    type Seen = Vec<(u8, bool, u8, u32, Vec<(u64, u32, u32)>, Option<(Type, u32, u32)>)>;
    type Read = (Vec<Option<Seen>>, Vec<(u32, u32, AsmErrorKind)>);
    // Each statement's source regions and types: count, markers, position
    // and values, the positions from the statement's start; and the
    // errors.
    let read = |src: &str| -> Read {
        parse_insts(src, |i| {
            let Operands::Alu { src, .. } = i.ops else { return None };
            let rel = |p: Pos| (p.offset - i.pos.offset, p.line - i.pos.line);
            let seen = src
                .iter()
                .flatten()
                .filter_map(|o| Some((o.region?, o.ty)))
                .map(|(r, ty)| {
                    let vals = r.vals.iter().take(usize::from(r.n));
                    let vals = vals.map(|v| (v.value, rel(v.pos).0, rel(v.pos).1)).collect();
                    let ty = ty.map(|(t, p)| (t, rel(p).0, rel(p).1));
                    (r.n, r.vxh, r.raw, rel(r.pos).0, vals, ty)
                })
                .collect();
            Some(seen)
        })
    };
    let stmt = |a: &str, b: &str| alloc::format!("add(8) g2<1>F g3{a} g4{b};\n");
    let check = |seq: &[(usize, usize)], pad: &str| {
        let mut src = String::new();
        let mut want: Read = (Vec::new(), Vec::new());
        for &(a, b) in seq {
            let text = stmt(regions[a], regions[b]);
            let alone = read(&(text.clone() + pad));
            let shift = src.matches('\n').count() as u32;
            want.0.extend(alone.0);
            want.1
                .extend(alone.1.into_iter().map(|(l, c, kind)| (l + shift, c, kind)));
            src += &text;
        }
        src += pad;
        assert_eq!(read(&src), want, "{src:?}");
    };
    for pad in ["", "// a comment long enough for a whole window of the last region\n"] {
        for a in 0..regions.len() {
            for b in 0..regions.len() {
                check(&[(a, b), (b, a), (a, a), (b, b)], pad);
            }
        }
        let all: Vec<(usize, usize)> = (0..regions.len()).map(|k| (k, (k + 1) % regions.len())).collect();
        check(&all, pad);
    }
}

/// The pieces kept are the last ones used: a piece found becomes the
/// most recently used, and a new piece replaces the least.
#[test]
fn memos_replace_the_least_recently_used() {
    const SLOTS: usize = 8;
    // Pieces of six bytes, `{ 1N }` to `{ 9N }`, each followed by spaces
    // to a whole window.
    let names: Vec<String> = (1..=SLOTS + 1).map(|k| alloc::format!("{{ {k}N }}")).collect();
    let w: Vec<Vec<u8>> = names.iter().map(|n| alloc::format!("{n:32}").into_bytes()).collect();
    let mut m = Memo::<usize, 2, SLOTS>::new(usize::MAX);
    for (k, w) in w.iter().take(SLOTS).enumerate() {
        m.keep(w, 6, k);
    }
    let found = |m: &mut Memo<usize, 2, SLOTS>, k: usize| m.find(&w[k]);
    assert_eq!(found(&mut m, 0), Some((0, 6)));
    m.keep(&w[SLOTS], 6, SLOTS);
    assert_eq!(found(&mut m, 1), None);
    for k in (0..=SLOTS).filter(|&k| k != 1) {
        assert_eq!(found(&mut m, k), Some((k, 6)), "{k}");
    }
    // Too long, or too near the end, to keep or find.
    let mut m = Memo::<usize, 1, 2>::new(usize::MAX);
    m.keep(b"{ 1N }          x", 17, 1);
    m.keep(b"{ 2N }", 6, 2);
    assert_eq!(m.find(b"{ 1N }          x"), None);
    assert_eq!(m.find(b"{ 2N }          x"), None);
    m.keep(b"{ 2N }          x", 6, 2);
    assert_eq!(m.find(b"{ 2N }"), None);
    assert_eq!(m.find(b"{ 2N }0123456789"), Some((2, 6)));
}

#[test]
fn exec_sizes_read_alike_with_or_without_spaces() {
    let exec = |src: &str| parse_insts(src, |i| Some(i.exec));
    for n in [
        "1", "2", "4", "8", "16", "32", "08", "008", "3", "0", "33", "99", "100", "0x10", "x",
    ] {
        let glued = alloc::format!("nop({n});\nnop;");
        let spaced = alloc::format!("nop({n} );\nnop;");
        assert_eq!(exec(&glued), exec(&spaced), "{n}");
    }
    assert_eq!(exec("nop(16);").0, [Some(ExecSize::S16)]);
    assert!(!exec("nop(3);").1.is_empty());
    assert!(!exec("nop(8;").1.is_empty());
}

#[test]
fn errors_recover_at_semicolon_and_next_line() {
    let (v, e) =
        parse("mov(8) g1<1>F g2<8,8,1>Q7;\nadd(8) g1<1>F g2<8,8,1>F\nmov(8) g1<1>F g2<8,8,1>F;\nfoo(8);\nnop;");
    // The first statement fails at `Q7`, the second lacks its `;` and
    // resumes at the next line, `foo` is unknown.
    assert_eq!(e.len(), 3, "{e:?}");
    assert_eq!(v.len(), 2);
    assert_eq!((e[0].line, e[1].line, e[2].line), (1, 3, 4));
}

#[test]
fn out_of_range_errors_name_the_floor_range() {
    let range = |src: &str| {
        let (_, e) = parse(src);
        match e.first().map(|e| &e.kind) {
            Some(AsmErrorKind::OutOfRange { what, range, .. }) => (*what, *range),
            other => panic!("{src}: {other:?}"),
        }
    };
    assert_eq!(
        range("mov(8) acc16<1>F g2<8,8,1>F;"),
        ("architecture register number", "0..=15")
    );
    assert_eq!(range("mov(8) m144<1>F g2<8,8,1>F;"), ("MRF register number", "0..=143"));
    assert_eq!(
        range("mov(8) g0256<1>F g2<8,8,1>F;"),
        ("GRF register number", "0..=255")
    );
    assert_eq!(
        range("mov(8) ARF256<1>F g2<8,8,1>F;"),
        ("ARF register number", "0..=255")
    );
    assert_eq!(
        range("mov(8) g99999999999<1>F g2<8,8,1>F;"),
        ("register number", "0..=255")
    );
    assert_eq!(
        range("(+f0.2) mov(8) g2<1>F g2<8,8,1>F;"),
        ("flag subregister", "0..=1")
    );
    assert_eq!(
        range("cmp.z.f0.2(8) null<1>F g2<8,8,1>F g3<8,8,1>F;"),
        ("flag subregister", "0..=1")
    );
    assert_eq!(
        range("mov*** invalid conditional modifier value 16(8) g2<1>F g2<8,8,1>F;"),
        ("field value", "0..=15")
    );
}
