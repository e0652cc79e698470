//! `msg::desc_fields` on every SEND of the Mesa corpus and on arbitrary
//! descriptors: the fields are disjoint, each holds exactly its bits of
//! the descriptor, and together they cover every set bit of a typed
//! message (nothing of the descriptor is hidden from a bring-up view).

use crate::corpus;

use geneu::msg::{desc_fields, Message};
use geneu::{decode_word, Platform, Word};

/// Checks the fields of one descriptor; gives how many there were.
fn check(p: Platform, sfid: u8, desc: u32) -> usize {
    let fields = desc_fields(p, sfid, desc);
    let mut seen = 0u32;
    for f in &fields {
        let mask = f.field.mask() as u32;
        assert_eq!(
            seen & mask,
            0,
            "{p} sfid {sfid} {desc:#010x}: {} overlaps",
            f.field.name
        );
        seen |= mask;
        assert_eq!(u64::from(f.raw), f.field.get(u128::from(desc)), "{}", f.field.name);
    }
    // A message the typed view refuses shows the common fields, which
    // leave the reserved bits 30:29 out (the `desc` header and the typed
    // view's error name them); a typed one shows every set bit.
    let reserved = if Message::decode_typed(p, sfid, desc).is_ok() {
        0
    } else {
        0x6000_0000
    };
    assert_eq!(
        desc & !seen & !reserved,
        0,
        "{p} sfid {sfid} {desc:#010x}: bits not shown"
    );
    fields.len()
}

#[test]
fn corpus_descriptors_are_split_into_disjoint_covering_fields() {
    let Some(dir) = corpus::mesa() else {
        return;
    };
    let mut sends = 0;
    let mut typed = 0;
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        for e in std::fs::read_dir(dir.join(gen)).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "expected") {
                continue;
            }
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                let bytes: Vec<u8> = line
                    .split_whitespace()
                    .map(|t| u8::from_str_radix(t, 16).unwrap())
                    .collect();
                let Some(w) = Word::all_from_bytes(&bytes).next() else {
                    continue;
                };
                let Ok(inst) = decode_word(p, w) else { continue };
                if !inst.opcode.is_send() || !inst.src[1].is_imm() {
                    continue;
                }
                let (sfid, desc) = (inst.cond_modifier & 0xf, inst.imm as u32);
                sends += 1;
                // A typed message shows more than the common fields.
                if Message::decode_typed(p, sfid, desc).is_ok() {
                    typed += 1;
                    assert!(check(p, sfid, desc) > 5, "{p} sfid {sfid} {desc:#010x}");
                } else {
                    check(p, sfid, desc);
                }
            }
        }
    }
    assert!(sends > 500 && typed > 500, "{sends} sends, {typed} typed");
}

#[test]
fn arbitrary_descriptors_are_split_into_disjoint_covering_fields() {
    // A small deterministic generator: every SFID, platform and a spread
    // of descriptors.
    let mut x: u32 = 0x9e37_79b9;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8, Platform::Chv] {
            check(p, (x >> 28) as u8, x.rotate_left(7));
        }
    }
}
