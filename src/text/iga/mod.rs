//! IGA's syntax: disassembly as Intel's assembler `iga64` (IGA 1.1.0,
//! intel-graphics-compiler `visa/iga`) prints it, beside Mesa's syntax
//! ([`crate::text::Disasm`]).
//!
//! [`IgaDisasm`] prints one instruction; [`write_program`] prints a whole
//! binary with IGA's block labels (`L<offset>:` at offset 0, at every
//! branch target, and after every branch and every SEND with EOT).
//! Haswell and Broadwell/Cherryview print as `iga64 -p=7p5` / `-p=8`
//! do; Ivy Bridge, which IGA does not model, prints by the same rules.
//!
//! [`assemble_iga`] reads the syntax back (the `parse` module): what the
//! printer prints, with its annotation, gives back every word that
//! decodes; text written by hand for `iga64 -a` gives the bytes `iga64
//! -a` gives. [`looks_like_iga`] tells the two syntaxes apart.
//!
//! # Line layout
//!
//! ```text
//! (W&~f0.1.any4h) op.fn (8|M8)  (lt)f0.0  dst  src0  src1  src2  {Opt,Opt} [field=value ...] // comment
//! ```
//!
//! Columns are padded as IGA pads them (see the `print` module); trailing
//! spaces are IGA's too.
//!
//! # The field annotation
//!
//! A word that IGA's assembler would not produce from its own text (for
//! example most words Mesa's compiler emits: a SEND's src0 region, which
//! IGA leaves zero, or src1's type field beside an immediate) prints with
//! the fields where it differs from what IGA's assembler encodes from
//! the text:
//!
//! ```text
//! send (8|M0)              null:f   r123:f  0x26            0x0A080017           {EOT} [src0_hstride=0x1 src0_width=0x3 src0_vstride=0x4] // wr:5h+0, rd:0; hdc.urb; urb dword write
//! ```
//!
//! Placement, for a reader: the annotation is the last `[`…`]` of the
//! line before its ` // ` comment (no other part of IGA's text has a `[`
//! after the operands: indirect operands `r[a0.N,IMM]` come before).
//! It follows the options block `{…}` if there is one, else the last
//! operand or SEND descriptor and that column's padding, after one space
//! (so: one or more spaces, `[`). Items are separated by one space; each
//! is `name=0xHEX`, `name` a field of the word's layout table as `geneu
//! fields` lists it (the first field of that name in the layout, native
//! or 3-source table before the flow-control one) or `bits_HI_LO` for
//! bits no field names, exactly as in Mesa's syntax (`crate::text`,
//! whose `hidden` module reads them). The text without annotation
//! stands for [`iga_canonical`] of the instruction: the fields the text
//! shows, IGA's values for the others. A reader builds that instruction
//! from the text, encodes it, and then writes these fields: the word
//! printed. Words IGA's encoder produces (equal to their
//! [`iga_canonical`]) print without annotation.
//!
//! What the text shows, in short (`iga_canonical` is the exact rule):
//! opcode, math function, execution size and channel offset (not for
//! `nop`, `illegal`, `wait`), NoMask, predicate (flag, inversion,
//! control), flag modifier and its flag, saturation, the options shown,
//! destination and sources (register file, number, subregister in units
//! of the type, indirect address, align1 region, type, modifiers,
//! immediates), 3-source regions as replicated or not, SEND destination
//! and payload register and type, shared function, EOT and descriptor,
//! branch targets (`brd`/`brc`: src0's register, which holds their
//! offsets, without region, or their JIP/UIP labels; with src0's type
//! where it is not `:d`, as IGA prints them). Everything else — align16 access mode, swizzles and
//! write masks, SEND regions, hidden operands of branches, `wait`'s
//! destination, unread sources — takes IGA's value. Gen8's math macros
//! (`madm`, `math.invm`, `math.rsqtm`) with direct operands print as IGA
//! prints them: each operand's math-macro register in its subregister's
//! place (`r8.mme0:df`, `-r7.nomme:df`, no region; the specifier is the
//! write mask's or the swizzle's low bits, [`crate::model::MathMacro`]),
//! and the MATH ones' early-out flag as `(eo)f0.0`.
//!
//! Branch targets print as `L<byte offset>` labels counted from the
//! instruction's own offset ([`IgaDisasm::at`]); a target before the
//! program is `L_N<bytes>`.

mod float;
mod print;

use core::fmt::{self, Write};

use alloc::string::String;

use crate::model::*;

pub use canon::{iga_canonical, is_iga_canonical};

mod canon;
mod expr;
mod msg;
mod parse;

pub use parse::{assemble_iga, assemble_iga_words, looks_like_iga};

/// One instruction in IGA's syntax: `Display` prints it as `iga64 -d`
/// does (no final newline).
///
/// Branch operands print as labels `L<byte offset>`: the target counted
/// from the instruction's own offset ([`IgaDisasm::at`], 0 unless set).
#[derive(Clone, Copy, Debug)]
pub struct IgaDisasm<'a> {
    platform: Platform,
    inst: &'a Instruction,
    pc: i64,
    annotate: bool,
}

impl<'a> IgaDisasm<'a> {
    /// An instruction on a platform, at byte offset 0.
    pub fn new(platform: Platform, inst: &'a Instruction) -> Self {
        IgaDisasm {
            platform,
            inst,
            pc: 0,
            annotate: true,
        }
    }

    /// The instruction's byte offset in its program (for branch labels).
    #[must_use]
    pub fn at(mut self, offset: u64) -> Self {
        self.pc = i64::try_from(offset).unwrap_or(i64::MAX);
        self
    }

    /// IGA's text only, without the field annotation.
    #[must_use]
    pub fn without_annotation(mut self) -> Self {
        self.annotate = false;
        self
    }

    /// Writes the text to any writer.
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        self.write_with(out, None, &mut crate::text::annotate::Items::default())
    }

    /// [`Self::write_to`], the annotation's fields chosen through `items`
    /// (kept from the program's previous instruction); `word` is the
    /// native word the instruction was decoded from, if known.
    fn write_with<W: Write + ?Sized>(
        &self,
        out: &mut W,
        word: Option<crate::word::Word>,
        items: &mut crate::text::annotate::Items,
    ) -> fmt::Result {
        let pr = print::Printer {
            p: self.platform,
            i: self.inst,
            pc: self.pc,
        };
        let mut o = print::Cols::new(out);
        pr.body(&mut o)?;
        pr.options(&mut o)?;
        if self.annotate {
            canon::write_annotation(out, self.platform, self.inst, word, items)?;
        }
        if self.inst.opcode.is_send() {
            out.write_str(" // ")?;
            msg::write_comment(out, self.platform, self.inst)?;
        }
        Ok(())
    }

    /// The text as a string.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        // Writing to a String does not fail.
        let _ = self.write_to(&mut s);
        s
    }
}

impl fmt::Display for IgaDisasm<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// Writes a whole binary in IGA's syntax: `L<offset>:` lines where IGA
/// starts a block, one line per instruction, and a comment line for a
/// word that does not decode; each instruction with its field annotation
/// when `annotate` (without it, the text is IGA's own). Returns the
/// counts.
pub fn write_program<W: Write + ?Sized>(
    out: &mut W,
    p: Platform,
    bytes: &[u8],
    annotate: bool,
) -> Result<crate::text::program::Summary, fmt::Error> {
    use crate::compact::{pieces, Piece};
    // Word by word, as Mesa's `write_bytes_text`: each word decoded as it
    // is printed, only the branches decoded before (for the labels).
    let (labels, len) = crate::text::program::scan_labels(p, bytes, true);
    let mut targets = labels.iter().map(|(o, _)| o).peekable();
    let mut sum = crate::text::program::Summary::default();
    // A block starts at 0, at every branch target (the labels Mesa's
    // printer finds, and `jmpi`'s), and after every branch and EOT.
    let mut block_start = true;
    let mut items = crate::text::annotate::Items::default();
    // One instruction's place, which each word is decoded into.
    let mut decoded = Err(crate::error::DecodeError::Length(0));
    for (o, piece) in pieces(bytes.get(..len).unwrap_or(&[])) {
        let offset = o as u64;
        // The labels come in increasing order, all at instructions' starts.
        let mut target = false;
        while let Some(&t) = targets.peek() {
            if t > offset {
                break;
            }
            target |= t == offset;
            targets.next();
        }
        if block_start || target {
            print::write_label(out, offset as i64)?;
            out.write_str(":\n")?;
        }
        piece.decode_in_place(p, &mut decoded);
        match &decoded {
            Ok(i) => {
                let d = IgaDisasm::new(p, i).at(offset);
                // A native word is the instruction's encoding (lossless).
                let word = match piece {
                    Piece::Native(w) => Some(w),
                    _ => None,
                };
                if annotate { d } else { d.without_annotation() }.write_with(out, word, &mut items)?;
                out.write_str("\n")?;
                sum.instructions += 1;
                block_start = ends_block(i);
            }
            Err(err) => {
                let w = crate::text::program::native_of(p, &piece);
                crate::text::program::write_undecodable(out, w, err)?;
                out.write_str("\n")?;
                sum.undecodable += 1;
                block_start = false;
            }
        }
    }
    if block_start || labels.get(len as u64).is_some() {
        print::write_label(out, len as i64)?;
        out.write_str(":\n")?;
    }
    Ok(sum)
}

/// Whether IGA ends a block after `i`: an instruction of IGA's `JUMP_*`
/// formats (the branches, `jmpi`, `call`, `calla`, `ret`), or a SEND with
/// EOT.
fn ends_block(i: &Instruction) -> bool {
    use crate::isa::Form;
    i.opcode.is_branch() || matches!(i.opcode.form(), Form::Jump | Form::Call | Form::Return) || i.eot()
}
