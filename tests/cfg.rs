//! The control-flow graph (`geneu::cfg`): Mesa's label programs, whose
//! branches land where their text's labels stand; a small program whose
//! blocks, edges, regions and DOT are derived by hand; `jmpi` and `call`
//! from the builder; and the typed errors.

use crate::corpus;

use std::collections::BTreeSet;

use geneu::build::{g, Builder};
use geneu::cfg::{Cfg, CfgError, EdgeKind, RegionKind};
use geneu::compact::{compact_program, decode_stream};
use geneu::text::{assemble_words_with, AsmOptions};
use geneu::{Instruction, Opcode, Platform};

fn decode_all(p: Platform, bytes: &[u8]) -> Vec<(usize, Instruction)> {
    decode_stream(p, bytes).map(|(o, r)| (o, r.unwrap())).collect()
}

fn graph(p: Platform, bytes: &[u8]) -> (Vec<(usize, Instruction)>, Cfg) {
    let insts = decode_all(p, bytes);
    let cfg = Cfg::new(p, &insts, bytes.len()).unwrap();
    (insts, cfg)
}

/// The jumps of a graph as (instruction index, kind, target instruction
/// index; the count for the end): from each edge's block's last
/// instruction to its target block's first.
fn jumps(cfg: &Cfg, n: usize) -> BTreeSet<(usize, &'static str, usize)> {
    cfg.edges
        .iter()
        .filter(|e| e.kind != EdgeKind::FallThrough)
        .map(|e| {
            let from = &cfg.blocks[e.from];
            let to = &cfg.blocks[e.to];
            assert!(!from.insts.is_empty());
            let target = if to.insts.is_empty() { n } else { to.insts.start };
            (from.insts.end - 1, e.kind.name(), target)
        })
        .collect()
}

/// Blocks tile the program: each starts where the one before ended, and
/// at its first instruction.
fn assert_tiles(cfg: &Cfg, insts: &[(usize, Instruction)], len: usize) {
    let mut at = 0;
    for b in &cfg.blocks {
        assert_eq!(b.start, at);
        match insts.get(b.insts.start) {
            Some(&(o, _)) if !b.insts.is_empty() => assert_eq!(o, b.start),
            _ => assert_eq!(b.start, len),
        }
        at = b.end;
    }
    assert_eq!(at, len);
}

/// Every label program of Mesa's corpus (its `.expected` words, native
/// and compacted): the jumps are exactly those the text's labels give
/// (JIP and UIP, except Gen7's `else` UIP, which the hardware ignores:
/// Mesa's `update_uip_jip`), and every edge lands on a block start.
#[test]
fn corpus_label_programs_jump_where_the_labels_stand() {
    let Some(root) = corpus::mesa() else { return };
    let mut programs = 0;
    for (dir, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut files: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
        files.sort();
        for asm in files.iter().filter(|f| f.extension().is_some_and(|e| e == "asm")) {
            let text = std::fs::read_to_string(asm).unwrap();
            if !text.contains("LABEL") {
                continue;
            }
            programs += 1;
            // The labels' instruction indices, and each instruction's
            // label references, read from the text alone.
            let mut labels = std::collections::HashMap::new();
            let mut refs = Vec::new();
            for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                if let Some(name) = line.strip_suffix(':') {
                    labels.insert(name.to_string(), refs.len());
                    continue;
                }
                let field = |key: &str| {
                    let at = line.find(key)?;
                    line[at + key.len()..].split_whitespace().next().map(str::to_string)
                };
                let gen7_else = p != Platform::Gen8 && line.contains("else(");
                refs.push((field("JIP:"), field("UIP:").filter(|_| !gen7_else)));
            }
            let want: BTreeSet<_> = refs
                .iter()
                .enumerate()
                .flat_map(|(k, (jip, uip))| {
                    let l = |name: &String| labels[name];
                    [
                        jip.as_ref().map(|j| (k, "jip", l(j))),
                        uip.as_ref().map(|u| (k, "uip", l(u))),
                    ]
                })
                .flatten()
                .collect();
            let expected = asm.with_extension("expected");
            let bytes: Vec<u8> = std::fs::read_to_string(&expected)
                .unwrap()
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).unwrap())
                .collect();
            let compacted = compact_program(p, &bytes).unwrap().bytes;
            for bytes in [&bytes, &compacted] {
                let (insts, cfg) = graph(p, bytes);
                assert_eq!(insts.len(), refs.len(), "{}", asm.display());
                assert_tiles(&cfg, &insts, bytes.len());
                assert_eq!(jumps(&cfg, insts.len()), want, "{}", asm.display());
                let starts: BTreeSet<usize> = cfg.blocks.iter().map(|b| b.start).collect();
                for e in &cfg.edges {
                    assert!(starts.contains(&cfg.blocks[e.to].start));
                }
                for &k in labels.values() {
                    let at = insts.get(k).map_or(bytes.len(), |&(o, _)| o);
                    assert!(
                        starts.contains(&at),
                        "{}: label at {at} is no block start",
                        asm.display()
                    );
                }
            }
        }
    }
    assert!(programs >= 10, "{programs} label programs");
}

/// A loop around an if/else, then an EOT send. By hand (16 bytes each):
///
/// ```text
/// k0 0x00 mov                       B0
/// k1 0x10 cmp     (LOOP)            B1 (loop head)
/// k2 0x20 if      JIP ELSE1 UIP ENDIF
/// k3 0x30 add                       B2
/// k4 0x40 else    JIP ENDIF UIP ENDIF
/// k5 0x50 mul     (ELSE1)           B3
/// k6 0x60 endif   JIP NEXT (ENDIF)  B4
/// k7 0x70 while   JIP LOOP (NEXT)   B5
/// k8 0x80 send EOT                  B6
/// ```
const LOOP_IF: &str = "\
    mov(8) g2<1>F g3<8,8,1>F { align1 1Q };
LOOP:
    cmp.l.f0.0(8) null<1>F g2<8,8,1>F g4<8,8,1>F { align1 1Q };
    (+f0.0) if(8) JIP: ELSE1 UIP: ENDIF { align1 1Q };
    add(8) g2<1>F g2<8,8,1>F g5<8,8,1>F { align1 1Q };
    else(8) JIP: ENDIF UIP: ENDIF { align1 1Q };
ELSE1:
    mul(8) g2<1>F g2<8,8,1>F g5<8,8,1>F { align1 1Q };
ENDIF:
    endif(8) JIP: NEXT { align1 1Q };
NEXT:
    (+f0.0) while(8) JIP: LOOP { align1 1Q };
    send(8) null<1>F g123<8,8,1>F 0x8a080017
        urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0 { align1 1Q EOT };
";

/// The DOT of [`LOOP_IF`] on Broadwell, written by hand from the table
/// above (instruction `k`'s text given as `Ik`).
const LOOP_IF_DOT: &str = r#"digraph cfg {
    node [shape=box, fontname="monospace"];
    b0 [label="B0 [0x0000, 0x0010)\l0x0000  I0\l"];
    b6 [label="B6 [0x0080, 0x0090)\l0x0080  I8\l"];
    subgraph cluster_0 {
        label="loop 0x0070";
        style=dashed;
        b1 [label="B1 [0x0010, 0x0030)\l0x0010  I1\l0x0020  I2\l"];
        b5 [label="B5 [0x0070, 0x0080)\l0x0070  I7\l"];
        subgraph cluster_1 {
            label="if 0x0020";
            style=dashed;
            b2 [label="B2 [0x0030, 0x0050)\l0x0030  I3\l0x0040  I4\l"];
            b3 [label="B3 [0x0050, 0x0060)\l0x0050  I5\l"];
            b4 [label="B4 [0x0060, 0x0070)\l0x0060  I6\l"];
        }
    }
    b0 -> b1 [label="fallthrough"];
    b1 -> b2 [label="fallthrough"];
    b1 -> b3 [label="jip", color=blue, fontcolor=blue];
    b1 -> b4 [label="uip", color=darkgreen, fontcolor=darkgreen, style=dashed];
    b2 -> b3 [label="fallthrough"];
    b2 -> b4 [label="jip", color=blue, fontcolor=blue];
    b2 -> b4 [label="uip", color=darkgreen, fontcolor=darkgreen, style=dashed];
    b3 -> b4 [label="fallthrough"];
    b4 -> b5 [label="fallthrough"];
    b4 -> b5 [label="jip", color=blue, fontcolor=blue];
    b5 -> b6 [label="fallthrough"];
    b5 -> b1 [label="jip", color=blue, fontcolor=blue];
}
"#;

fn assemble(p: Platform, text: &str) -> Vec<u8> {
    assemble_words_with(p, text, AsmOptions::UNCHECKED).unwrap().concat()
}

#[test]
fn loop_around_if_else_by_hand() {
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8] {
        let bytes = assemble(p, LOOP_IF);
        let (insts, cfg) = graph(p, &bytes);
        let ranges: Vec<_> = cfg.blocks.iter().map(|b| (b.start, b.end)).collect();
        assert_eq!(
            ranges,
            [
                (0x00, 0x10),
                (0x10, 0x30),
                (0x30, 0x50),
                (0x50, 0x60),
                (0x60, 0x70),
                (0x70, 0x80),
                (0x80, 0x90)
            ],
            "{p}"
        );
        let edges: Vec<_> = cfg.edges.iter().map(|e| (e.from, e.to, e.kind.name())).collect();
        let mut want = vec![
            (0, 1, "fallthrough"),
            (1, 2, "fallthrough"),
            (1, 3, "jip"),
            (1, 4, "uip"),
            (2, 3, "fallthrough"),
            (2, 4, "jip"),
            (2, 4, "uip"),
            (3, 4, "fallthrough"),
            (4, 5, "fallthrough"),
            (4, 5, "jip"),
            (5, 6, "fallthrough"),
            (5, 1, "jip"),
        ];
        if p != Platform::Gen8 {
            // Gen7's else: its UIP field is unused.
            want.retain(|&e| e != (2, 4, "uip"));
        }
        assert_eq!(edges, want, "{p}");
        let regions: Vec<_> = cfg
            .regions
            .iter()
            .map(|r| (r.kind, r.at, r.blocks.clone(), r.parent))
            .collect();
        assert_eq!(
            regions,
            [
                (RegionKind::Loop, 0x70, 1..6, None),
                (RegionKind::If, 0x20, 2..5, Some(0))
            ],
            "{p}"
        );
        assert_eq!(cfg.block_at(0x50), Some(3));
        assert_eq!(cfg.block_at(0x58), None);

        // Compacted: the same blocks and edges, by instruction.
        let small = compact_program(p, &bytes).unwrap().bytes;
        assert!(small.len() < bytes.len());
        let (small_insts, small_cfg) = graph(p, &small);
        assert_tiles(&small_cfg, &small_insts, small.len());
        assert_eq!(jumps(&small_cfg, small_insts.len()), jumps(&cfg, insts.len()), "{p}");
        let by_inst = |c: &Cfg| c.blocks.iter().map(|b| b.insts.clone()).collect::<Vec<_>>();
        assert_eq!(by_inst(&small_cfg), by_inst(&cfg), "{p}");
        assert_eq!(small_cfg.edges, cfg.edges, "{p}");
    }
    let bytes = assemble(Platform::Gen8, LOOP_IF);
    let (_, cfg) = graph(Platform::Gen8, &bytes);
    assert_eq!(cfg.to_dot(|k| format!("I{k}")), LOOP_IF_DOT);
}

/// Instruction text is escaped for DOT's quoted strings, and each of its
/// lines is a left-aligned line of the box.
#[test]
fn dot_escapes_instruction_text() {
    let p = Platform::Gen8;
    let bytes = assemble(p, "nop;\n");
    let (_, cfg) = graph(p, &bytes);
    let dot = cfg.to_dot(|_| "say \"hi\" \\ bye\nsecond".to_string());
    assert!(
        dot.contains(r#"b0 [label="B0 [0x0000, 0x0010)\l0x0000  say \"hi\" \\ bye\l        second\l"];"#),
        "{dot}"
    );
}

/// `jmpi` (from the next instruction, no fall-through when unpredicated)
/// and `call` (with a fall-through where `ret` comes back), built with
/// labels bound by hand; native and compacted.
#[test]
fn jmpi_and_call_from_the_builder() {
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8] {
        let mut b = Builder::new(p);
        let (skip, func) = (b.label(), b.label());
        b.mov(g(2).f(), g(3).f()).unwrap(); // k0
        b.jmpi(skip).unwrap(); // k1
        b.mov(g(4).f(), g(3).f()).unwrap(); // k2: jumped over
        b.bind(skip).unwrap();
        b.call(g(120).ud().vec1(), func).unwrap(); // k3
        b.mov(g(5).f(), g(3).f()).unwrap(); // k4: where ret comes back
        b.bind(func).unwrap();
        b.ret(g(120).ud().vec1()).unwrap(); // k5
        let native = b.clone().finish().unwrap();
        let compacted = b.finish_compacted().unwrap();
        for prog in [native, compacted] {
            let insts: Vec<_> = prog.instructions().map(|(o, i)| (o, *i)).collect();
            let cfg = Cfg::new(p, &insts, prog.bytes().len()).unwrap();
            let blocks: Vec<_> = cfg.blocks.iter().map(|b| b.insts.clone()).collect();
            assert_eq!(blocks, [0..2, 2..3, 3..4, 4..5, 5..6], "{p}");
            let edges: Vec<_> = cfg.edges.iter().map(|e| (e.from, e.to, e.kind)).collect();
            assert_eq!(
                edges,
                [
                    (0, 2, EdgeKind::Jmpi),
                    (1, 2, EdgeKind::FallThrough),
                    (2, 3, EdgeKind::FallThrough),
                    (2, 4, EdgeKind::Call),
                    (3, 4, EdgeKind::FallThrough),
                ],
                "{p}"
            );
            assert!(cfg.regions.is_empty());
            assert_eq!(insts[5].1.opcode, Opcode::Ret);
        }
    }
}

/// `jmpi` and `call` keep their distance in src1's whole immediate dword
/// on every platform (Mesa's `brw_JMPI` and Beignet's `patchJMPI` write a
/// D immediate; only branches have Gen7's 16-bit JIP): a jump farther
/// than 16 bits of its units, forward (`jmpi`) and back (`call`), lands
/// where the builder aimed it, native and compacted; and IGA's text of
/// the native program, which names both targets by label, reads back to
/// its bytes.
#[test]
fn far_jmpi_and_call_keep_their_32_bit_distance() {
    // Past i16::MAX units on Ivy Bridge (8-byte units, 2 an instruction)
    // and on Haswell (bytes, 16 an instruction).
    const FAR: usize = 16_400;
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8] {
        let mut b = Builder::new(p);
        let (main, func) = (b.label(), b.label());
        b.jmpi(main).unwrap(); // k0
        b.bind(func).unwrap();
        b.ret(g(120).ud().vec1()).unwrap(); // k1
        for _ in 0..FAR {
            b.mov(g(4).f(), g(3).f()).unwrap(); // k2 ..= FAR + 1
        }
        b.bind(main).unwrap();
        b.call(g(120).ud().vec1(), func).unwrap(); // FAR + 2
        b.mov(g(5).f(), g(3).f()).unwrap();
        let native = b.clone().finish().unwrap();
        let compacted = b.finish_compacted().unwrap();
        let mut iga = String::new();
        geneu::text::iga::write_program(&mut iga, p, native.bytes(), true).unwrap();
        let words = geneu::text::iga::assemble_iga_words(p, &iga, AsmOptions::UNCHECKED).unwrap();
        assert!(words.concat() == native.bytes(), "{p}: IGA's text reads back");
        for prog in [native, compacted] {
            let insts: Vec<_> = prog.instructions().map(|(o, i)| (o, *i)).collect();
            let cfg = Cfg::new(p, &insts, prog.bytes().len()).unwrap();
            let found: BTreeSet<_> = jumps(&cfg, insts.len()).into_iter().collect();
            let want: BTreeSet<_> = [(0, EdgeKind::Jmpi.name(), FAR + 2), (FAR + 2, EdgeKind::Call.name(), 1)]
                .into_iter()
                .collect();
            assert_eq!(found, want, "{p}");
        }
    }
}

/// `Instruction::set_branch` writes a `jmpi`'s distance where the model
/// and Mesa's text read it, the whole immediate dword, on every platform;
/// a `jmpi` has no UIP.
#[test]
fn set_branch_writes_a_jmpi_distance_whole() {
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8] {
        let words = assemble_words_with(p, "jmpi(1) 0D { align1 WE_all 1N };\n", AsmOptions::UNCHECKED).unwrap();
        let mut i = geneu::decode(p, &words[0]).unwrap();
        assert!(!i.set_branch(p, 2, Some(4)), "{p}");
        assert!(i.set_branch(p, -40_000, None), "{p}");
        let again = geneu::decode(p, &geneu::encode_unchecked(p, &i).unwrap()).unwrap();
        let text = geneu::text::Disasm::new(p, &again).to_string();
        assert!(text.contains(" -40000D "), "{p}: {text}");
    }
}

/// A jump to the end of the program lands on an empty exit block, into
/// which the last block falls.
#[test]
fn jump_to_the_end_lands_on_the_exit_block() {
    let p = Platform::Gen8;
    let bytes = assemble(p, "(+f0.0) if(8) JIP: END UIP: END { align1 1Q };\nnop;\nEND:\n");
    let (_, cfg) = graph(p, &bytes);
    let blocks: Vec<_> = cfg.blocks.iter().map(|b| (b.start, b.end, b.insts.clone())).collect();
    assert_eq!(blocks, [(0, 16, 0..1), (16, 32, 1..2), (32, 32, 2..2)]);
    let edges: Vec<_> = cfg.edges.iter().map(|e| (e.from, e.to, e.kind)).collect();
    assert_eq!(
        edges,
        [
            (0, 1, EdgeKind::FallThrough),
            (0, 2, EdgeKind::Jip),
            (0, 2, EdgeKind::Uip),
            (1, 2, EdgeKind::FallThrough)
        ]
    );
    assert!(cfg.to_dot(|_| String::new()).contains("b2 [label=\"B2 end 0x0020\"];"));
}

/// A jump between two instructions or outside the program is an error
/// with the jumping instruction's offset; so are offsets out of order.
#[test]
fn errors_name_the_offset() {
    let p = Platform::Gen8;
    // At 0x10, JIP 8 bytes on: 0x18, inside the instruction at 0x10.
    let bytes = assemble(p, "nop;\n(+f0.0) if(8) JIP: 8 UIP: 32 { align1 1Q };\nnop;\nnop;\n");
    let insts = decode_all(p, &bytes);
    assert_eq!(
        Cfg::new(p, &insts, bytes.len()),
        Err(CfgError::Target {
            offset: 16,
            opcode: Opcode::If,
            kind: EdgeKind::Jip,
            target: 24,
            why: "between two instructions"
        })
    );
    // UIP -32 from 0x10: before the program.
    let bytes = assemble(p, "nop;\n(+f0.0) if(8) JIP: 16 UIP: -32 { align1 1Q };\nnop;\n");
    let insts = decode_all(p, &bytes);
    let e = Cfg::new(p, &insts, bytes.len()).unwrap_err();
    assert_eq!(
        e,
        CfgError::Target {
            offset: 16,
            opcode: Opcode::If,
            kind: EdgeKind::Uip,
            target: -16,
            why: "outside the program"
        }
    );
    assert_eq!(
        e.to_string(),
        "offset 16: if uip lands on byte -16, outside the program"
    );
    // Gen7 counts in 8-byte units: JIP 3 from 0x10 is 0x28, past a
    // 0x30-byte program's instruction at 0x20 (inside it).
    let bytes = assemble(
        Platform::Gen7,
        "nop;\n(+f0.0) if(8) JIP: 3 UIP: 2 { align1 1Q };\nnop;\n",
    );
    let insts = decode_all(Platform::Gen7, &bytes);
    assert!(matches!(
        Cfg::new(Platform::Gen7, &insts, bytes.len()),
        Err(CfgError::Target {
            offset: 16,
            target: 40,
            kind: EdgeKind::Jip,
            ..
        })
    ));
    // Offsets must increase and stay inside the length.
    let mut swapped = decode_all(p, &assemble(p, "nop;\nnop;\n"));
    swapped.swap(0, 1);
    assert_eq!(Cfg::new(p, &swapped, 32), Err(CfgError::Order { offset: 16 }));
    let one = decode_all(p, &assemble(p, "nop;\n"));
    assert_eq!(Cfg::new(p, &one, 8), Err(CfgError::Order { offset: 0 }));
}
