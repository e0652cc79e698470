//! Compaction of single instructions: Mesa's compaction test cases
//! (test_eu_compact.cpp: the instructions it builds and its two-bit fuzz
//! around each), the corpus, and the tables' own facts.

use crate::corpus;

use std::path::PathBuf;

use geneu::compact::{compact, compact_word, decode_compact, decode_compact_word, tables, uncompact_word, CompactWord};
use geneu::*;

fn corpus_dir() -> PathBuf {
    corpus::dir()
}

/// Every word of a corpus generation, with its file.
fn corpus(gen: &str) -> Vec<(String, Word)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir().join(gen))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        if f.extension().is_some_and(|e| e == "expected") {
            for line in std::fs::read_to_string(&f).unwrap().lines() {
                let b: Vec<u8> = line
                    .split_whitespace()
                    .map(|x| u8::from_str_radix(x, 16).unwrap())
                    .collect();
                if let Ok(b) = <[u8; 16]>::try_from(b) {
                    out.push((
                        f.file_name().unwrap().to_string_lossy().into_owned(),
                        Word::from_bytes(b),
                    ));
                }
            }
        }
    }
    out
}

const GENS: [(&str, Platform); 4] = [
    ("gen7", Platform::Gen7),
    ("gen7.5", Platform::Gen75),
    ("gen8", Platform::Gen8),
    ("gen8", Platform::Chv),
];

/// The property Mesa's test_compact_instruction checks, and more: when a
/// word compacts, the compacted word uncompacts to it bit for bit, and it
/// decodes to the word's instruction with COMPACTED set.
fn check_word(p: Platform, w: Word) -> bool {
    let Some(c) = compact_word(p, w) else { return false };
    assert_eq!(c.0 >> 29 & 1, 1, "{p}: CmptCtrl set in {c:?}");
    assert_eq!(uncompact_word(p, c), Ok(w), "{p}: {w:?} -> {c:?}");
    if let Ok(i) = decode_word(p, w) {
        let mut ci = i;
        ci.controls.insert(Controls::COMPACTED);
        assert_eq!(decode_compact_word(p, c), Ok(ci), "{p}: {w:?}");
        assert_eq!(compact(p, &ci), Some(c), "{p}: compact(decode) of {c:?}");
        assert_eq!(compact(p, &i), Some(c));
    }
    true
}

#[test]
fn every_corpus_word_that_compacts_uncompacts_to_itself() {
    if corpus::absent() {
        return;
    }
    let mut rates = Vec::new();
    for (gen, p) in GENS {
        let ws = corpus(gen);
        assert!(ws.len() > 100);
        let n = ws.iter().filter(|(_, w)| check_word(p, *w)).count();
        rates.push(format!(
            "{p}: {n}/{} ({:.0}%)",
            ws.len(),
            100.0 * n as f64 / ws.len() as f64
        ));
        // Real code compacts: a fair share of the corpus must.
        assert!(n * 20 > ws.len(), "{p}: only {n} of {} compact", ws.len());
    }
    eprintln!("compaction rate: {}", rates.join(", "));
}

/// Mesa's test instructions, built as its `elk_*` helpers build them, in
/// align1 (`<8;8,1>` regions) and align16 (`<4;4,1>.xyzw`, write mask xyzw).
fn mesa_cases(align16: bool) -> Vec<(&'static str, Instruction)> {
    let region = if align16 {
        Region::new(4, 4, 1).unwrap()
    } else {
        Region::new(8, 8, 1).unwrap()
    };
    // Align16 implies width 4 and stride 1: only the vertical stride is 0.
    let scalar = if align16 {
        Region {
            vstride: 0,
            width: 2,
            hstride: 1,
        }
    } else {
        Region::SCALAR
    };
    let grf = |nr: u8, ty: Type, r: Region| {
        let mut s = Src::grf(nr, 0, ty, r);
        if align16 {
            s.swizzle = Swizzle::XYZW;
        }
        s
    };
    let base = |op: Opcode, es: ExecSize, ty: Type| {
        let mut i = Instruction::new(op, es);
        i.access_mode = if align16 {
            AccessMode::Align16
        } else {
            AccessMode::Align1
        };
        i.dst = Dst::grf(0, 0, ty);
        i
    };
    let mut out = Vec::new();
    let mut add = base(Opcode::Add, ExecSize::S8, Type::F);
    add.src = [grf(2, Type::F, region), grf(4, Type::F, region), Src::ZERO];
    out.push(("ADD_GRF_GRF_GRF", add));
    let mut addf = base(Opcode::Add, ExecSize::S8, Type::F);
    addf.src = [grf(2, Type::F, region), Src::imm(Type::F), Src::ZERO];
    addf.imm = 1.0f32.to_bits().into();
    out.push(("ADD_GRF_GRF_IMM", addf));
    let mut addd = base(Opcode::Add, ExecSize::S8, Type::D);
    addd.src = [grf(2, Type::D, region), Src::imm(Type::D), Src::ZERO];
    addd.imm = 1;
    out.push(("ADD_GRF_GRF_IMM_d", addd));
    let mut mov = base(Opcode::Mov, ExecSize::S8, Type::F);
    mov.src[0] = grf(2, Type::F, region);
    if align16 {
        // An unused align16 source still has align16's implied width and stride.
        mov.src[1].region = Region {
            vstride: 0,
            width: 2,
            hstride: 1,
        };
    }
    out.push(("MOV_GRF_GRF", mov));
    let mut add1 = base(Opcode::Add, ExecSize::S1, Type::F);
    add1.src = [grf(2, Type::F, scalar), grf(4, Type::F, scalar), Src::ZERO];
    out.push(("ADD_vec1_GRF_GRF_GRF", add1));
    let mut f00 = mov;
    f00.pred_control = 1;
    out.push(("f0_0_MOV_GRF_GRF", f00));
    let mut f01 = f00;
    f01.flag.subnr = 1;
    out.push(("f0_1_MOV_GRF_GRF", f01));
    out
}

/// Mesa's test_fuzz_compact_instruction: every pair of bits flipped (but
/// the pad bit 7 and CmptCtrl); each word that decodes either does not
/// compact or comes back exactly.
fn fuzz_two_bits(p: Platform, w: Word) -> usize {
    let mut compacted = 0;
    for b0 in 0..128u32 {
        if b0 == 7 || b0 == 29 {
            continue;
        }
        for b1 in b0..128u32 {
            if b1 == 7 || b1 == 29 {
                continue;
            }
            let v = Word(w.0 ^ (1u128 << b0) ^ (1u128 << b1));
            if decode_word(p, v).is_ok() && check_word(p, v) {
                compacted += 1;
            }
        }
    }
    compacted
}

#[test]
fn mesa_compaction_cases_on_gen7_and_gen8() {
    for p in Platform::ALL {
        for align16 in [false, true] {
            for (name, i) in mesa_cases(align16) {
                let w = encode_word(p, &i).unwrap_or_else(|e| panic!("{p} {name}: {e}"));
                let did = check_word(p, w);
                // What Mesa's tables give (without its precompact step):
                // plain float moves and adds compact; 1.0f does not fit 13
                // bits.
                match name {
                    "MOV_GRF_GRF" | "ADD_GRF_GRF_GRF" if !align16 => {
                        assert!(did, "{p} align16={align16}: {name} should compact")
                    }
                    "ADD_GRF_GRF_IMM" => {
                        assert!(!did, "{p} align16={align16}: {name} should not compact")
                    }
                    _ => {}
                }
                fuzz_two_bits(p, w);
            }
        }
    }
}

#[test]
fn an_immediate_compacts_only_within_13_bits_sign_extended() {
    let p = Platform::Gen8;
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
    i.dst = Dst::grf(1, 0, Type::UD);
    i.src[0] = Src::imm(Type::UD);
    for (v, fits) in [
        (0u64, true),
        (0xfff, true),
        (0x1000, false),
        (0xffff_f000, true),
        (0xffff_efff, false),
    ] {
        i.imm = v;
        let Ok(w) = encode_word(p, &i) else { continue };
        let c = compact_word(p, w);
        if fits {
            // Fitting is necessary, not sufficient (the datatype table must
            // also hold dst:UD, imm:UD); when it compacts it comes back.
            if let Some(c) = c {
                assert_eq!(uncompact_word(p, c), Ok(w));
            }
        } else {
            assert_eq!(c, None, "{v:#x} does not fit 13 bits");
        }
    }
}

#[test]
fn three_source_instructions_compact_on_gen8_only() {
    // mad(8) g10<1>.xyzwF g1<4,4,1>.xyzwF g2<4,4,1>.xyzwF g3<4,4,1>.xyzwF
    let mut i = Instruction::new(Opcode::Mad, ExecSize::S8);
    i.access_mode = AccessMode::Align16;
    i.dst = Dst::grf(10, 0, Type::F);
    let r = Region::new(4, 4, 1).unwrap();
    for (k, s) in i.src.iter_mut().enumerate() {
        *s = Src::grf(k as u8 + 1, 0, Type::F, r);
        s.swizzle = Swizzle::XYZW;
    }
    for p in Platform::ALL {
        let w = encode_word(p, &i).unwrap();
        let c = compact_word(p, w);
        assert_eq!(c.is_some(), p.is_gen8(), "{p}");
        if let Some(c) = c {
            assert_eq!(uncompact_word(p, c), Ok(w));
            fuzz_two_bits(p, w);
        }
    }
    // A compacted word with a 3-source opcode is refused on Gen7, naming
    // the opcode field.
    let c = CompactWord(0x2000_0000 | u64::from(Opcode::Mad.hw()));
    let e = uncompact_word(Platform::Gen7, c).unwrap_err();
    assert!(e.to_string().contains("opcode"), "{e}");
    // A register number of 128 or more has no 7-bit compacted field.
    let mut big = i;
    big.dst.addr = Addr::Direct { nr: 130, subnr: 0 };
    let w = encode_word(Platform::Gen8, &big).unwrap();
    assert_eq!(compact_word(Platform::Gen8, w), None);
}

#[test]
fn undefined_fields_of_a_compacted_word_are_named() {
    for p in Platform::ALL {
        // Bit 28 is reserved on Gen7 and Gen8 (FlagSubRegNum on Gen6).
        let nop = 0x2000_0000u64 | u64::from(Opcode::Nop.hw());
        assert!(uncompact_word(p, CompactWord(nop)).is_ok());
        let e = uncompact_word(p, CompactWord(nop | 1 << 28)).unwrap_err();
        assert!(e.to_string().contains("28"), "{e}");
        // CmptCtrl clear: not a compacted word.
        let e = uncompact_word(p, CompactWord(u64::from(Opcode::Nop.hw()))).unwrap_err();
        assert!(e.to_string().contains("cmpt_control"), "{e}");
        // An opcode the platform lacks.
        let e = decode_compact(p, &(0x2000_0000u64 | 0x7f).to_le_bytes()).unwrap_err();
        assert!(e.to_string().contains("opcode"), "{e}");
    }
    // Reserved bits of a Gen8 3-source word.
    let mad = 0x2000_0000u64 | u64::from(Opcode::Mad.hw());
    let e = uncompact_word(Platform::Gen8, CompactWord(mad | 1 << 20)).unwrap_err();
    assert!(e.to_string().contains("20"), "{e}");
}

#[test]
fn tables_have_an_entry_for_every_index_and_no_duplicates() {
    for t in tables::compact_gen7::TABLES
        .iter()
        .chain(tables::compact_gen8::TABLES)
        .chain(tables::compact_3src_bdw::TABLES)
        .chain(tables::compact_3src_chv::TABLES)
    {
        for (k, &e) in t.entries.iter().enumerate() {
            assert_eq!(t.find(e), Some(k as u8), "{}", t.source);
            assert_eq!(t.gather(t.scatter(e)), e, "{}", t.source);
            assert_eq!(t.scatter(e) & !t.mask(), 0, "{}", t.source);
            assert_eq!(
                t.native.get(k),
                Some(&t.scatter(e)),
                "{}: the compile-time native bits",
                t.source
            );
        }
        assert_eq!(t.native.len(), t.entries.len());
        assert!(t.entries.len().is_power_of_two());
    }
    // Gen7 and Gen8 share the control and source entries (over other
    // native bits); Broadwell's 3-source entries are Cherryview's low bits.
    assert_eq!(
        tables::compact_gen7::CONTROL.entries,
        tables::compact_gen8::CONTROL.entries
    );
    assert_eq!(tables::compact_gen7::SRC0.entries, tables::compact_gen8::SRC1.entries);
    assert_eq!(
        tables::compact_3src_bdw::SOURCE.entries,
        tables::compact_3src_chv::SOURCE.entries
    );
}

/// Every compacted word of a kind that decodes: compact(decode(c)) == c,
/// exhaustively over the table indices of a few opcodes.
#[test]
fn every_index_combination_that_decodes_compacts_back() {
    for p in Platform::ALL {
        let mut n = 0;
        for op in [Opcode::Mov, Opcode::Add, Opcode::Sel] {
            for ctl in 0..32u64 {
                for dt in 0..32u64 {
                    for sub in (0..32u64).step_by(3) {
                        for s0 in (0..32u64).step_by(5) {
                            let c = CompactWord(
                                u64::from(op.hw())
                                    | ctl << 8
                                    | dt << 13
                                    | sub << 18
                                    | 1 << 29
                                    | s0 << 30
                                    | 7 << 35
                                    | 5 << 40
                                    | 6 << 48
                                    | 9 << 56,
                            );
                            if let Ok(i) = decode_compact_word(p, c) {
                                n += 1;
                                assert_eq!(compact(p, &i), Some(c), "{p}: {c:?} {i:?}");
                            }
                        }
                    }
                }
            }
        }
        assert!(n > 1000, "{p}: only {n} decode");
    }
}

/// Issue #28's Ivy Bridge word: an `add` with an immediate source whose
/// subregister index, 11, repeats an earlier entry under the immediate
/// (the immediate covers the entries' src1 bits). Intel's decoder reads it
/// and the hardware runs it: it decodes, keeps its index, and encodes,
/// disassembles and assembles back to its 8 bytes.
#[test]
fn a_repeated_subregister_index_beside_an_immediate_is_kept() {
    use geneu::compact::compact_instructions;
    use geneu::text::program::{Program, TextOptions};
    let bytes = [0x40, 0x40, 0x2d, 0x20, 0x00, 0x05, 0x06, 0x07];
    let v = u64::from_le_bytes(bytes);
    // Bits 22:18, the subregister index; bits 6:0, the opcode.
    let sub = ((v >> 18) & 31) as u8;
    assert_eq!(sub, 11);
    assert_eq!(v & 0x7f, u64::from(Opcode::Add.hw()));
    for p in [Platform::Gen7, Platform::Gen75] {
        let i = decode_compact(p, &bytes).unwrap();
        assert_eq!(i.opcode, Opcode::Add);
        assert!(i.src[1].is_imm() || i.src[0].is_imm(), "{p}: {i:?}");
        assert_eq!(i.compact_subreg, sub, "{p}");
        assert_eq!(compact(p, &i).map(|c| c.to_bytes()), Some(bytes), "{p}");
        // The lowest index that stands for the same native word: another
        // entry, equal in the bits an immediate leaves (dst and src0's).
        let mut lowest = i;
        lowest.compact_subreg = 0;
        let low = compact(p, &lowest).unwrap();
        let k = ((low.0 >> 18) & 31) as u8;
        assert!(k < sub, "{p}: {k}");
        assert_eq!(low.0 & !(31 << 18), v & !(31 << 18), "{p}: only the index differs");
        let t = &tables::compact_gen7::SUBREG;
        assert_eq!(
            t.entry(k) & 0x3ff,
            t.entry(sub) & 0x3ff,
            "{p}: dst and src0 subregisters agree"
        );
        assert_ne!(t.entry(k), t.entry(sub));
        assert_eq!(uncompact_word(p, low), uncompact_word(p, CompactWord(v)), "{p}");
        // The 16-byte encoders cannot hold the index.
        assert!(encode_unchecked(p, &i).is_err(), "{p}");
        let mut native = i;
        native.compact_subreg = 0;
        native.controls.remove(Controls::COMPACTED);
        assert_eq!(
            decode_word(p, uncompact_word(p, CompactWord(v)).unwrap()),
            Ok(native),
            "{p}"
        );
        // Disassembly names the index; assembly with the marked
        // instructions compacted gives the 8 bytes back.
        let mut text = String::new();
        Program::decode(p, &bytes)
            .write_text(&mut text, &TextOptions::default())
            .unwrap();
        assert!(
            text.contains("compacted") && text.contains("subreg_index=0xb"),
            "{p}: {text}"
        );
        let list = geneu::text::assemble_listing(p, &text, geneu::text::AsmOptions::UNCHECKED).unwrap();
        let native_bytes: Vec<u8> = list.iter().flat_map(|a| a.word).collect();
        let insts: Vec<Instruction> = list.iter().map(|a| a.inst).collect();
        let back = compact_instructions(p, &native_bytes, &insts).unwrap();
        assert_eq!(back.bytes, bytes, "{p}: {text}");
        // Without the annotation the text compacts to the lowest index.
        let plain = text.replace(" subreg_index=0xb", "");
        let list = geneu::text::assemble_listing(p, &plain, geneu::text::AsmOptions::UNCHECKED).unwrap();
        let insts: Vec<Instruction> = list.iter().map(|a| a.inst).collect();
        let back = compact_instructions(p, &native_bytes, &insts).unwrap();
        assert_eq!(back.bytes, low.to_bytes(), "{p}: {plain}");
    }
}

/// Every subregister index of compacted words beside an immediate: each
/// word whose native form decodes is decoded and compacts back to itself
/// (the shared check of the `compact_roundtrip` fuzz target), and some
/// keep a repeated index.
#[cfg(feature = "check")] // the shared property checks (`geneu::check`)
#[test]
fn every_subregister_index_beside_an_immediate_round_trips() {
    let base = u64::from_le_bytes([0x40, 0x40, 0x2d, 0x20, 0x00, 0x05, 0x06, 0x07]) & !(31 << 18);
    for p in Platform::ALL {
        let mut repeated = 0;
        for ctl in 0..32u64 {
            for sub in 0..32u64 {
                let v = base & !(31 << 8) | ctl << 8 | sub << 18;
                geneu::check::compact_word_roundtrip(p, &v.to_le_bytes());
                if decode_compact_word(p, CompactWord(v)).is_ok_and(|i| i.compact_subreg != 0) {
                    repeated += 1;
                }
            }
        }
        assert!(repeated > 0, "{p}");
    }
}
