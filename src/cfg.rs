//! The control-flow graph of a program: basic blocks, the edges between
//! them (fall-through, JIP, UIP, `jmpi`, `call`), and the structured
//! regions (`if` … `endif`, loops) they form, from decoded instructions
//! with their byte offsets; and the graph in Graphviz DOT
//! ([`Cfg::to_dot`]), the form LLVM's and Mesa's CFG dumps take.
//!
//! Where a jump lands is read once, by the model
//! ([`Instruction::jip`]/[`Instruction::uip`] and the distance of `jmpi`
//! and `call`, in the platform's branch units,
//! [`Platform::jump_unit_bytes`]), the reading compaction's program
//! rewrite ([`crate::compact::compact_program`]) moves. It works on
//! native and compacted instructions alike (16 bytes, or 8 with
//! [`Controls::COMPACTED`](crate::Controls::COMPACTED), as decoding a
//! compacted one gives it).
//!
//! ```
//! use geneu::cfg::{Cfg, EdgeKind};
//! use geneu::{compact::decode_stream, text::assemble_words, Platform};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let p = Platform::Gen8;
//! let words = assemble_words(p, "
//!     cmp.l.f0.0(8) null<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
//!     (+f0.0) if(8) JIP: LABEL0 UIP: LABEL0 { align1 1Q };
//!     mov(8) g4<1>F g2<8,8,1>F { align1 1Q };
//! LABEL0:
//!     endif(8) JIP: LABEL1 { align1 1Q };
//! LABEL1:
//!     mov(8) g5<1>F g4<8,8,1>F { align1 1Q };")?;
//! let bytes: Vec<u8> = words.concat();
//! let insts: Vec<_> = decode_stream(p, &bytes).map(|(o, r)| r.map(|i| (o, i))).collect::<Result<_, _>>()?;
//! let cfg = Cfg::new(p, &insts, bytes.len())?;
//! // cmp+if | mov | endif | mov
//! let starts: Vec<usize> = cfg.blocks.iter().map(|b| b.start).collect();
//! assert_eq!(starts, [0, 32, 48, 64]);
//! assert!(cfg.edges.iter().any(|e| (e.from, e.to, e.kind) == (0, 2, EdgeKind::Jip)));
//! # Ok(()) }
//! ```
//!
//! # What the graph holds
//!
//! - A block begins at the program's first instruction, at every jump
//!   target and after every flow-control instruction (a branch, `jmpi`,
//!   `call`, `calla`, `ret`) and every SEND with EOT; it ends before the
//!   next block.
//! - Edges leave a block's last instruction: its JIP and UIP (where the
//!   hardware uses it, [`Opcode::uses_uip`]: not Gen7's `else`), the
//!   distance of `jmpi` (from the next instruction) and `call`, and a
//!   fall-through to the next block. Every SIMD branch may fall through
//!   (some channels go on), so every one has a fall-through edge, as in
//!   Mesa's `cfg_t` (its physical edges); so has `call`, where its `ret`
//!   comes back. No fall-through leaves an unpredicated `jmpi`, a `ret` or
//!   a SEND with EOT.
//! - A jump to the end of the program lands on an empty exit block at the
//!   program's length, into which the last block also falls.
//! - `calla` (an absolute address) and a `jmpi` or `call` by a register
//!   have no target edge: where they go is known only when the program
//!   runs.
//! - Regions: an `if` spans the blocks after it up to its UIP target (its
//!   `endif`), a loop the blocks from a backward `while`'s JIP target to
//!   the `while`. Regions that do not nest are left out.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;
use core::ops::Range;

use crate::compact::{COMPACT_BYTES, NATIVE_BYTES};
use crate::model::{Controls, Form, Instruction, NoStaticTarget, OffsetField, Opcode, Platform};

/// What kind of edge leaves a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum EdgeKind {
    /// To the next instruction.
    FallThrough,
    /// A branch's JIP.
    Jip,
    /// A branch's UIP.
    Uip,
    /// The distance of `jmpi`.
    Jmpi,
    /// The target of `call`.
    Call,
}

impl EdgeKind {
    /// The lower-case name DOT labels print: `fallthrough`, `jip`, `uip`,
    /// `jmpi`, `call`.
    pub const fn name(self) -> &'static str {
        match self {
            EdgeKind::FallThrough => "fallthrough",
            EdgeKind::Jip => "jip",
            EdgeKind::Uip => "uip",
            EdgeKind::Jmpi => "jmpi",
            EdgeKind::Call => "call",
        }
    }

    /// The DOT attributes of an edge of this kind, beside its label.
    const fn dot_style(self) -> &'static str {
        match self {
            EdgeKind::FallThrough => "",
            EdgeKind::Jip => ", color=blue, fontcolor=blue",
            EdgeKind::Uip => ", color=darkgreen, fontcolor=darkgreen, style=dashed",
            EdgeKind::Jmpi => ", color=red, fontcolor=red, style=bold",
            EdgeKind::Call => ", color=purple, fontcolor=purple, style=dotted",
        }
    }
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Block {
    /// Byte offset of its first instruction (the program's length for
    /// the exit block).
    pub start: usize,
    /// Byte offset after its last instruction: the next block's start.
    pub end: usize,
    /// Its instructions: indices into the list given to [`Cfg::new`]
    /// (empty for the exit block).
    pub insts: Range<usize>,
}

/// An edge between blocks (indices into [`Cfg::blocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Edge {
    /// The block it leaves (from its last instruction).
    pub from: usize,
    /// The block it lands on (at its start).
    pub to: usize,
    /// Why.
    pub kind: EdgeKind,
}

/// The kind of a structured region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum RegionKind {
    /// `if` … (`else` …) `endif`: the blocks after the `if` up to and
    /// including the one its UIP lands on.
    If,
    /// A loop: the blocks from a `while`'s JIP target to the `while`.
    Loop,
}

/// A structured region: consecutive blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Region {
    /// What it is.
    pub kind: RegionKind,
    /// Byte offset of the instruction that makes it: the `if`, or the
    /// `while`.
    pub at: usize,
    /// Its blocks (indices into [`Cfg::blocks`]).
    pub blocks: Range<usize>,
    /// The innermost region around it (an index into [`Cfg::regions`],
    /// which lists outer regions first).
    pub parent: Option<usize>,
}

/// Why a program's graph cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum CfgError {
    /// A jump lands outside the program or between two instructions.
    #[error("offset {offset}: {opcode} {kind} lands on byte {target}, {why}", kind = kind.name())]
    Target {
        /// Byte offset of the jumping instruction.
        offset: usize,
        /// Its opcode.
        opcode: Opcode,
        /// Which of its jumps.
        kind: EdgeKind,
        /// The byte offset it lands on.
        target: i64,
        /// `outside the program` or `between two instructions`.
        why: &'static str,
    },
    /// An instruction overlaps the next one or the program's end (each is
    /// 16 bytes, 8 if compacted; the offsets must increase).
    #[error("offset {offset}: the instruction overlaps the next one or runs past the program's end")]
    Order {
        /// The offending offset.
        offset: usize,
    },
}

/// A program's control-flow graph (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Cfg {
    /// The basic blocks in program order; the exit block, if some jump
    /// lands on the program's end, last.
    pub blocks: Vec<Block>,
    /// The edges, by the block they leave, each block's fall-through
    /// first.
    pub edges: Vec<Edge>,
    /// The structured regions, outer ones before those inside them.
    pub regions: Vec<Region>,
    /// Each instruction's byte offset.
    #[cfg_attr(feature = "serde", serde(skip))]
    offsets: Vec<usize>,
}

/// Whether an instruction ends its block: flow control, or the end of the
/// thread.
fn ends_block(i: &Instruction) -> bool {
    i.opcode.is_branch() || matches!(i.opcode.form(), Form::Jump | Form::Call | Form::Return) || i.eot()
}

/// Whether execution may go on with the next instruction after `i`, a
/// block's last instruction.
fn falls_through(i: &Instruction) -> bool {
    match i.opcode.form() {
        Form::Return => false,
        Form::Jump => !matches!(i.pred_ctrl(), Ok(None)),
        _ => !i.eot(),
    }
}

impl Cfg {
    /// The graph of a program of `len` bytes whose instructions are
    /// `insts`, each with its byte offset (in increasing order, as
    /// [`crate::compact::decode_stream`] gives them).
    pub fn new(p: Platform, insts: &[(usize, Instruction)], len: usize) -> Result<Cfg, CfgError> {
        let n = insts.len();
        let offsets: Vec<usize> = insts.iter().map(|&(o, _)| o).collect();
        // Each instruction's size: 8 bytes if compacted, else 16.
        let size = |i: &Instruction| {
            if i.controls.contains(Controls::COMPACTED) {
                COMPACT_BYTES
            } else {
                NATIVE_BYTES
            }
        };
        for (k, (o, inst)) in insts.iter().enumerate() {
            let next = offsets.get(k + 1).copied().unwrap_or(len);
            if o.checked_add(size(inst)).map_or(true, |end| end > next) {
                return Err(CfgError::Order { offset: *o });
            }
        }
        // Every jump: (instruction, kind, target instruction; `n` is the end).
        let mut jumps: Vec<(usize, EdgeKind, usize)> = Vec::new();
        for (k, (offset, inst)) in insts.iter().enumerate() {
            let found = match inst.branch_offsets(p) {
                Ok(found) => found,
                Err(NoStaticTarget::Absolute | NoStaticTarget::Indirect) => continue,
            };
            for o in found.into_iter().flatten() {
                let kind = match (inst.opcode.form(), o.field) {
                    (Form::Call, _) => EdgeKind::Call,
                    (_, OffsetField::Imm32) => EdgeKind::Jmpi,
                    (_, OffsetField::Jip) => EdgeKind::Jip,
                    (_, OffsetField::Uip) => EdgeKind::Uip,
                };
                let target = o.target(*offset as i64, size(inst) as i64);
                let to = if target == len as i64 {
                    Ok(n)
                } else {
                    offsets.binary_search_by(|&x| (x as i64).cmp(&target))
                };
                let to = to.map_err(|_| CfgError::Target {
                    offset: *offset,
                    opcode: inst.opcode,
                    kind,
                    target,
                    why: if target < 0 || target > len as i64 {
                        "outside the program"
                    } else {
                        "between two instructions"
                    },
                })?;
                jumps.push((k, kind, to));
            }
        }
        // Leaders: the first instruction, every target, every instruction
        // after one that ends a block.
        let mut leader = alloc::vec![false; n + 1];
        if let Some(first) = leader.first_mut() {
            *first = true;
        }
        for &(_, _, to) in &jumps {
            if let Some(l) = leader.get_mut(to) {
                *l = true;
            }
        }
        for (k, (_, inst)) in insts.iter().enumerate() {
            if ends_block(inst) {
                if let Some(l) = leader.get_mut(k + 1) {
                    *l = true;
                }
            }
        }
        let exit = jumps.iter().any(|&(_, _, to)| to == n);
        let mut blocks = Vec::new();
        // The block of each instruction, and of the end (if it has one).
        let mut block_of = alloc::vec![0usize; n + 1];
        let mut first = 0;
        for k in 1..=n {
            if leader.get(k).copied().unwrap_or(false) || k == n {
                if first < k {
                    for b in block_of.get_mut(first..k).into_iter().flatten() {
                        *b = blocks.len();
                    }
                    let start = offsets.get(first).copied().unwrap_or(len);
                    let end = offsets.get(k).copied().unwrap_or(len);
                    blocks.push(Block {
                        start,
                        end,
                        insts: first..k,
                    });
                }
                first = k;
            }
        }
        if exit {
            if let Some(b) = block_of.get_mut(n) {
                *b = blocks.len();
            }
            blocks.push(Block {
                start: len,
                end: len,
                insts: n..n,
            });
        }
        let block_at = |k: usize| block_of.get(k).copied().unwrap_or(0);
        // Edges, block by block: the fall-through first, then the jumps of
        // the last instruction in the order the model gives them.
        let mut edges = Vec::new();
        let mut j = 0;
        for (b, block) in blocks.iter().enumerate() {
            let Some(last) = block.insts.end.checked_sub(1).filter(|_| !block.insts.is_empty()) else {
                continue;
            };
            let Some((_, inst)) = insts.get(last) else { continue };
            let next = last + 1;
            if (!ends_block(inst) || falls_through(inst)) && (next < n || exit) {
                edges.push(Edge {
                    from: b,
                    to: block_at(next),
                    kind: EdgeKind::FallThrough,
                });
            }
            while let Some(&(k, kind, to)) = jumps.get(j) {
                if k > last {
                    break;
                }
                // A jump that is not the block's last instruction cannot be:
                // every jump ends its block.
                edges.push(Edge {
                    from: b,
                    to: block_at(to),
                    kind,
                });
                j += 1;
            }
        }
        let regions = regions(insts, &jumps, &block_of);
        Ok(Cfg {
            blocks,
            edges,
            regions,
            offsets,
        })
    }

    /// The index of the block that starts at byte `offset`, if one does.
    pub fn block_at(&self, offset: usize) -> Option<usize> {
        // Blocks are in order of their starts (the exit block, at the
        // program's length, last).
        self.blocks.binary_search_by_key(&offset, |b| b.start).ok()
    }

    /// The graph in Graphviz DOT: one box per block, labelled with its
    /// number, its byte range and its instructions (`text(k)` gives
    /// instruction `k`'s text; each of its lines is one line of the box),
    /// one edge per [`Edge`], labelled with its kind and styled by it
    /// (fall-through black, JIP blue, UIP green and dashed, `jmpi` red and
    /// bold, `call` purple and dotted), and one dashed cluster per
    /// [`Region`] (`if 0x…` or `loop 0x…`, at its `if` or `while`), nested
    /// as the regions are.
    pub fn to_dot(&self, mut text: impl FnMut(usize) -> String) -> String {
        let mut out = String::from("digraph cfg {\n    node [shape=box, fontname=\"monospace\"];\n");
        // The innermost region of each block.
        let mut home: Vec<Option<usize>> = alloc::vec![None; self.blocks.len()];
        for (r, region) in self.regions.iter().enumerate() {
            for h in home.get_mut(region.blocks.clone()).into_iter().flatten() {
                *h = Some(r);
            }
        }
        self.dot_region(&mut out, None, &home, &mut text, 1);
        for e in &self.edges {
            let _ = writeln!(
                out,
                "    b{} -> b{} [label=\"{}\"{}];",
                e.from,
                e.to,
                e.kind.name(),
                e.kind.dot_style()
            );
        }
        out.push_str("}\n");
        out
    }

    /// Writes the blocks whose innermost region is `r` (`None`: outside
    /// every region) and the regions directly inside it, as clusters.
    fn dot_region(
        &self,
        out: &mut String,
        r: Option<usize>,
        home: &[Option<usize>],
        text: &mut impl FnMut(usize) -> String,
        depth: usize,
    ) {
        let pad = "    ".repeat(depth);
        for (b, block) in self.blocks.iter().enumerate() {
            if home.get(b).copied().flatten() != r {
                continue;
            }
            let _ = write!(out, "{pad}b{b} [label=\"");
            if block.insts.is_empty() {
                let _ = write!(out, "B{b} end 0x{:04x}", block.start);
            } else {
                let _ = write!(out, "B{b} [0x{:04x}, 0x{:04x})\\l", block.start, block.end);
            }
            for k in block.insts.clone() {
                let at = self.offsets.get(k).copied().unwrap_or(0);
                for (n, line) in text(k).lines().enumerate() {
                    if n == 0 {
                        let _ = write!(out, "0x{at:04x}  ");
                    } else {
                        out.push_str("        ");
                    }
                    escape(out, line);
                    out.push_str("\\l");
                }
            }
            out.push_str("\"];\n");
        }
        for (c, region) in self.regions.iter().enumerate() {
            if region.parent != r {
                continue;
            }
            let name = match region.kind {
                RegionKind::If => "if",
                RegionKind::Loop => "loop",
            };
            let _ = writeln!(
                out,
                "{pad}subgraph cluster_{c} {{\n{pad}    label=\"{name} 0x{:04x}\";\n{pad}    style=dashed;",
                region.at
            );
            self.dot_region(out, Some(c), home, text, depth + 1);
            let _ = writeln!(out, "{pad}}}");
        }
    }
}

/// Appends `s` to a DOT double-quoted string: `\` and `"` escaped.
fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
}

/// The structured regions: each `if` to its UIP target, each backward
/// `while` from its JIP target; those that do not nest are left out.
fn regions(insts: &[(usize, Instruction)], jumps: &[(usize, EdgeKind, usize)], block_of: &[usize]) -> Vec<Region> {
    let block = |k: usize| block_of.get(k).copied().unwrap_or(0);
    let mut found: Vec<Region> = Vec::new();
    for &(k, kind, to) in jumps {
        let Some(&(at, ref inst)) = insts.get(k) else { continue };
        let blocks = match (inst.opcode, kind) {
            (Opcode::If, EdgeKind::Uip) if to > k => block(k) + 1..block(to) + 1,
            (Opcode::While, EdgeKind::Jip) if to <= k => block(to)..block(k) + 1,
            _ => continue,
        };
        if blocks.is_empty() {
            continue;
        }
        let kind = if inst.opcode == Opcode::If {
            RegionKind::If
        } else {
            RegionKind::Loop
        };
        found.push(Region {
            kind,
            at,
            blocks,
            parent: None,
        });
    }
    // Outer first: by first block, then the longest.
    found.sort_by(|a, b| {
        a.blocks
            .start
            .cmp(&b.blocks.start)
            .then(b.blocks.end.cmp(&a.blocks.end))
            .then(a.at.cmp(&b.at))
    });
    let mut out: Vec<Region> = Vec::with_capacity(found.len());
    // The regions (indices into `out`) around the current one.
    let mut stack: Vec<usize> = Vec::new();
    for mut r in found {
        while let Some(&top) = stack.last() {
            match out.get(top) {
                Some(t) if t.blocks.end <= r.blocks.start => {
                    stack.pop();
                }
                _ => break,
            }
        }
        let parent = stack.last().copied();
        if let Some(t) = parent.and_then(|t| out.get(t)) {
            if t.blocks.end < r.blocks.end || t.blocks == r.blocks && t.kind == r.kind {
                // Overlaps without nesting (or repeats): left out.
                continue;
            }
        }
        r.parent = parent;
        stack.push(out.len());
        out.push(r);
    }
    out
}
