//! The field annotation of IGA's syntax keeps every bit: the instruction
//! IGA's assembler builds from the text (`iga_canonical`) depends only on
//! the text. Two words that print the same text (without annotation) must
//! have the same canonical form, and the canonical form prints that same
//! text; so text plus annotation (the fields where a word differs from
//! its canonical form) gives the word back. Checked over a random walk of
//! decoded words with single-bit neighbours, as is `is_iga_canonical`
//! (the printer's check without building) against building and comparing.

use geneu::codec::{decode_word, encode_word};
use geneu::text::iga::{iga_canonical, is_iga_canonical, IgaDisasm};
use geneu::{ExecSize, Instruction, Opcode, Platform, Word};

fn text(p: Platform, i: &Instruction) -> String {
    IgaDisasm::new(p, i).without_annotation().to_text()
}

#[test]
fn canonical_form_depends_only_on_the_text() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut failures = Vec::new();
    let mut pairs = 0;
    let mut checked = 0;
    for p in [Platform::Gen8, Platform::Gen75, Platform::Gen7] {
        let starts = [
            Opcode::Add,
            Opcode::Mov,
            Opcode::Send,
            Opcode::Mad,
            Opcode::If,
            Opcode::Math,
            Opcode::Brd,
            Opcode::Brc,
            Opcode::Madm,
        ];
        for op in starts {
            let Ok(mut at) = encode_word(p, &Instruction::new(op, ExecSize::S8)) else {
                continue;
            };
            for _ in 0..20_000 {
                let mut w = at.0;
                for _ in 0..1 + next() % 3 {
                    w ^= 1 << (next() % 128);
                }
                let Ok(i) = decode_word(p, Word(w)) else { continue };
                if i.opcode != op && next() % 4 != 0 {
                    continue;
                }
                at = Word(w);
                let t = text(p, &i);
                let c = iga_canonical(p, &i);
                // The check without building agrees with building and
                // comparing: on the word, on its canonical form, and on
                // that form with one bit changed (canonical but for one
                // field, which the check may reach late).
                let mut near = vec![i, c];
                if let Ok(cw) = encode_word(p, &c) {
                    if let Ok(f) = decode_word(p, Word(cw.0 ^ 1 << (next() % 128))) {
                        near.push(f);
                    }
                }
                for n in &near {
                    let by_building = iga_canonical(p, n) == *n;
                    if is_iga_canonical(p, n) != by_building {
                        failures.push(format!(
                            "{p:?} {w:032x}: is_iga_canonical says {} of\n  {}",
                            !by_building,
                            text(p, n)
                        ));
                    }
                    checked += usize::from(by_building);
                }
                let tc = text(p, &c);
                if tc != t {
                    failures.push(format!("{p:?} {w:032x}: canonical prints\n  {tc}\n  not\n  {t}"));
                    continue;
                }
                // A reader may build any instruction with the fields the
                // text shows and canonicalize it: the canonical form is
                // its own canonical form.
                if iga_canonical(p, &c) != c {
                    failures.push(format!("{p:?} {w:032x}: canonical form is not canonical\n  {t}"));
                    continue;
                }
                if let Err(e) = encode_word(p, &c) {
                    failures.push(format!("{p:?} {w:032x}: canonical form does not encode: {e}\n  {t}"));
                    continue;
                }
                // A neighbour with the same text has the same canonical form.
                let w2 = w ^ 1 << (next() % 128);
                let Ok(i2) = decode_word(p, Word(w2)) else { continue };
                if text(p, &i2) != t {
                    continue;
                }
                pairs += 1;
                let (a, b) = (encode_word(p, &c).ok(), encode_word(p, &iga_canonical(p, &i2)).ok());
                if a != b {
                    failures.push(format!(
                        "{p:?} {w:032x} and {w2:032x} print\n  {t}\n  but differ in bits {:032x}",
                        a.map_or(0, |a| a.0) ^ b.map_or(0, |b| b.0)
                    ));
                }
            }
        }
    }
    let n = failures.len();
    failures.truncate(25);
    assert!(n == 0, "{n} failures ({pairs} pairs):\n{}", failures.join("\n"));
    assert!(pairs > 1000, "{pairs} pairs");
    assert!(checked > 10_000, "{checked} canonical instructions checked");
}

/// The `iga_roundtrip` fuzz target's property, through the very function
/// the target calls (`geneu::check::iga_roundtrip`, which panics when the
/// property breaks): on every platform, words from a random walk (from an
/// instruction of each form, `brd`/`brc` among them) in word mode; and
/// their IGA-syntax texts, cut short or with a byte changed, in text mode
/// (the reader never panics; what it assembles decodes back).
#[cfg(feature = "check")] // the shared property check (`geneu::check`)
#[test]
fn iga_roundtrip_property() {
    use geneu::check::{iga_roundtrip, platform_byte};
    let mut x: u64 = 0x0123_4567_89ab_cdef;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut words = 0;
    for p in Platform::ALL {
        for op in [
            Opcode::Add,
            Opcode::Mov,
            Opcode::Send,
            Opcode::Mad,
            Opcode::If,
            Opcode::Math,
            Opcode::Jmpi,
            Opcode::Brd,
            Opcode::Brc,
        ] {
            let Ok(mut at) = encode_word(p, &Instruction::new(op, ExecSize::S8)) else {
                continue;
            };
            for _ in 0..600 {
                let mut w = at.0;
                for _ in 0..1 + next() % 3 {
                    w ^= 1 << (next() % 128);
                }
                let bytes = Word(w).to_bytes();
                let mut input = vec![platform_byte(p, true)];
                input.extend_from_slice(&bytes);
                iga_roundtrip(&input);
                let Ok(i) = decode_word(p, Word(w)) else { continue };
                at = Word(w);
                words += 1;
                if next() % 8 != 0 {
                    continue;
                }
                // Text mode: the word's text, mangled.
                let t = IgaDisasm::new(p, &i).to_text().into_bytes();
                let mut edited = vec![platform_byte(p, false)];
                let k = (next() as usize) % (t.len() + 1);
                if next() % 2 == 0 {
                    edited.extend_from_slice(&t[..k]);
                } else {
                    edited.extend_from_slice(&t);
                    if let Some(b) = edited.get_mut(1 + k) {
                        *b = b" -.:;,()<>[]{}0123456789abcdefLrW|M=_x\n"[(next() % 39) as usize];
                    }
                }
                iga_roundtrip(&edited);
            }
        }
    }
    assert!(words > 5000, "{words} words decoded");
}
