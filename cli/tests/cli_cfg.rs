//! `geneu cfg`, run as the real binary: the same graph from assembly,
//! hex and binary input (native or compacted), and errors with offsets.

use crate::cli_common;
use cli_common::*;

/// An if/else/endif, by hand (16 bytes each): blocks [0x00, 0x20)
/// (mov, if), [0x20, 0x40) (add, else), [0x40, 0x50) (mul),
/// [0x50, 0x60) (endif), [0x60, 0x70) (mov).
const IF_ELSE: &str = "\
    mov(8) g2<1>F g3<8,8,1>F { align1 1Q };
    (+f0.0) if(8) JIP: ELSE1 UIP: ENDIF { align1 1Q };
    add(8) g2<1>F g2<8,8,1>F g5<8,8,1>F { align1 1Q };
    else(8) JIP: ENDIF UIP: ENDIF { align1 1Q };
ELSE1:
    mul(8) g2<1>F g2<8,8,1>F g5<8,8,1>F { align1 1Q };
ENDIF:
    endif(8) JIP: NEXT { align1 1Q };
NEXT:
    mov(8) g6<1>F g2<8,8,1>F { align1 1Q };
";

/// The edge lines of a DOT graph, in order.
fn edges(dot: &str) -> Vec<String> {
    dot.lines()
        .filter(|l| l.contains("->"))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn cfg_of_assembly_hex_and_binary() {
    let (code, dot, err) = geneu(&["cfg", "--gen", "bdw"], IF_ELSE.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(dot.starts_with("digraph cfg {\n") && dot.ends_with("}\n"), "{dot}");
    assert_eq!(
        edges(&dot),
        [
            "b0 -> b1 [label=\"fallthrough\"];",
            "b0 -> b2 [label=\"jip\", color=blue, fontcolor=blue];",
            "b0 -> b3 [label=\"uip\", color=darkgreen, fontcolor=darkgreen, style=dashed];",
            "b1 -> b2 [label=\"fallthrough\"];",
            "b1 -> b3 [label=\"jip\", color=blue, fontcolor=blue];",
            "b1 -> b3 [label=\"uip\", color=darkgreen, fontcolor=darkgreen, style=dashed];",
            "b2 -> b3 [label=\"fallthrough\"];",
            "b3 -> b4 [label=\"fallthrough\"];",
            "b3 -> b4 [label=\"jip\", color=blue, fontcolor=blue];",
        ]
    );
    for range in [
        "B0 [0x0000, 0x0020)",
        "B1 [0x0020, 0x0040)",
        "B2 [0x0040, 0x0050)",
        "B3 [0x0050, 0x0060)",
    ] {
        assert!(dot.contains(range), "{range}: {dot}");
    }
    // The if region: the blocks after the if, to its endif.
    assert!(
        dot.contains("subgraph cluster_0 {\n        label=\"if 0x0010\";"),
        "{dot}"
    );
    // Instructions as Mesa prints them.
    assert!(dot.contains("0x0040  mul(8) "), "{dot}");

    // The same words as hex and as binary: the same graph.
    let (_, hex, _) = geneu(&["asm", "--gen", "bdw"], IF_ELSE.as_bytes());
    let (code, from_hex, err) = geneu(&["cfg", "--gen", "bdw"], hex.as_bytes());
    assert_eq!((code, &from_hex), (0, &dot), "{err}");
    let (_, bin, _) = geneu_bytes(&["asm", "--gen", "bdw", "--type", "bin"], IF_ELSE.as_bytes());
    let (code, from_bin, err) = geneu(&["cfg", "--gen", "bdw", "--bin"], &bin);
    assert_eq!((code, &from_bin), (0, &dot), "{err}");

    // Compacted: other offsets, the same edges.
    let (_, small, _) = geneu_bytes(
        &["asm", "--gen", "bdw", "--compact", "--type", "bin"],
        IF_ELSE.as_bytes(),
    );
    assert!(small.len() < bin.len());
    let (code, from_small, err) = geneu(&["cfg", "--gen", "bdw"], &small);
    assert_eq!(code, 0, "{err}");
    assert_eq!(edges(&from_small), edges(&dot));
    assert!(from_small.contains("compacted"), "{from_small}");
}

#[test]
fn cfg_errors_name_the_offset() {
    // JIP 8 bytes from 0x10: inside the next instruction.
    let text = "nop;\n(+f0.0) if(8) JIP: 8 UIP: 16 { align1 1Q };\nnop;\n";
    let (code, out, err) = geneu(&["cfg", "--gen", "bdw"], text.as_bytes());
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("offset 16: if jip lands on byte 24, between two instructions"),
        "{err}"
    );
    // Malformed assembly: 2, with the line.
    let (code, _, err) = geneu(&["cfg", "--gen", "bdw"], b"mov(8) g2<1>F bogus;\n");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("<stdin>:1:"), "{err}");
    // Truncated binary: 2.
    let (code, _, err) = geneu(&["cfg", "--gen", "bdw", "--bin"], &[1, 0, 0, 0]);
    assert_eq!(code, 2, "{err}");
}
