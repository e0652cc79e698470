//! Writes the seed corpora of the fuzz targets (`fuzz/`) from the Mesa
//! corpus, so that no binary seed is committed:
//!
//! ```text
//! cargo run --release --features arbitrary --example fuzz_seeds -- [CORPUS_DIR] [OUT_DIR]
//! ```
//!
//! `CORPUS_DIR` defaults to `../shared/corpus/mesa`, `OUT_DIR` to
//! `fuzz/corpus`; each target gets `OUT_DIR/<target>/seed-NNNNN` files in
//! the input layout of its check function (see `geneu::check`):
//!
//! - `decode_roundtrip`: every corpus word, as platform byte + word (Gen8
//!   words also as Cherryview);
//! - `encode_roundtrip`, `validate`: the same words in word mode
//!   (`check::MODE_BIT`), unperturbed;
//! - `text_roundtrip`: every corpus word in word mode, every `.asm` file
//!   whole (up to 4 KiB), and each of its records alone, as platform byte
//!   + text;
//! - `iga_roundtrip`: every corpus word in word mode, and every IGA-syntax
//!   text of `CORPUS_DIR/../iga/<gen>/*.iga` (`iga64 -d`'s text of the
//!   Mesa words) whole (up to 4 KiB) and line by line, as platform byte +
//!   text;
//! - `descriptor_roundtrip`: the SFID and descriptor of every SEND/SENDC
//!   with an immediate descriptor (`msg::fuzz_check` layout);
//! - `visa_lower`: every vISA opcode at SIMD8 and SIMD16 over a small
//!   table of float and integer variables (`check::visa_input` layout).

use std::collections::BTreeSet;
use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};

use geneu::check;
use geneu::visa::{ExecCtl, LowerCtx, PredCtl, VarTable, VecOperand, VisaInst, VisaOp, VisaRegion, VisaType};
use geneu::{decode, ExecSize, FlagReg, Opcode, Platform};

/// Whole `.asm` files longer than this are seeded only record by record,
/// to keep the text target's inputs small (and its runs fast).
const MAX_TEXT: usize = 4096;

type Res<T> = Result<T, Box<dyn Error>>;

const GENS: [(&str, Platform); 3] = [
    ("gen7", Platform::Gen7),
    ("gen7.5", Platform::Gen75),
    ("gen8", Platform::Gen8),
];

/// The seeds of every target, deduplicated.
#[derive(Default)]
struct Seeds {
    decode: BTreeSet<Vec<u8>>,
    instruction: BTreeSet<Vec<u8>>,
    text: BTreeSet<Vec<u8>>,
    iga: BTreeSet<Vec<u8>>,
    descriptor: BTreeSet<Vec<u8>>,
    visa: BTreeSet<Vec<u8>>,
}

fn with_platform(p: Platform, word_mode: bool, payload: &[u8]) -> Vec<u8> {
    let mut v = vec![check::platform_byte(p, word_mode)];
    v.extend_from_slice(payload);
    v
}

fn parse_words(text: &str) -> Res<Vec<[u8; 16]>> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let bytes = line
            .split_whitespace()
            .map(|b| u8::from_str_radix(b, 16))
            .collect::<Result<Vec<u8>, _>>()?;
        out.push(bytes.try_into().map_err(|_| format!("not 16 bytes: {line}"))?);
    }
    Ok(out)
}

/// Each record of an `.asm` file: a line in column 0 with its indented
/// continuation lines (labels stay with the record that follows).
fn records(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let starts = !line.starts_with(' ') && !line.is_empty();
        if starts && !cur.is_empty() && !cur.trim_end().ends_with(':') {
            out.push(std::mem::take(&mut cur));
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

fn add_word(seeds: &mut Seeds, p: Platform, w: &[u8; 16]) {
    seeds.decode.insert(with_platform(p, false, w));
    seeds.instruction.insert(with_platform(p, true, w));
    seeds.text.insert(with_platform(p, true, w));
    seeds.iga.insert(with_platform(p, true, w));
    let Ok(inst) = decode(p, w) else { return };
    if matches!(inst.opcode, Opcode::Send | Opcode::Sendc) && inst.src[1].file == geneu::RegFile::Imm {
        // msg::fuzz_check: platform, SFID, descriptor, then a typed message.
        let mut d = vec![check::platform_byte(p, false), inst.cond_modifier];
        d.extend_from_slice(&(inst.imm as u32).to_le_bytes());
        seeds.descriptor.insert(d.clone());
        d.extend_from_slice(&[check::platform_byte(p, false), 0, 0, 0]);
        seeds.descriptor.insert(d);
    }
}

/// The IGA-syntax corpus (`gen7.5`, `gen8`; absent: no text seeds):
/// each `.iga` file whole (up to [`MAX_TEXT`]) and each line alone.
fn iga_seeds(seeds: &mut Seeds, dir: &Path) -> Res<()> {
    for (gen, p) in [("gen7.5", Platform::Gen75), ("gen8", Platform::Gen8)] {
        let Ok(entries) = fs::read_dir(dir.join(gen)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
        files.sort();
        for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "iga")) {
            let text = fs::read_to_string(f)?;
            if text.len() <= MAX_TEXT {
                seeds.iga.insert(with_platform(p, false, text.as_bytes()));
            }
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                seeds.iga.insert(with_platform(p, false, line.as_bytes()));
            }
        }
    }
    Ok(())
}

fn visa_seeds(seeds: &mut Seeds) -> Res<()> {
    let mut vars = VarTable::new();
    let f0 = vars.add_general(VisaType::F, 32, 10 * 32);
    let f1 = vars.add_general(VisaType::F, 32, 20 * 32);
    let d0 = vars.add_general(VisaType::D, 32, 30 * 32);
    let d1 = vars.add_general(VisaType::D, 32, 40 * 32);
    vars.add_address(2, 0);
    vars.add_predicate(16, FlagReg { nr: 0, subnr: 0 });
    let ctx = LowerCtx {
        temp_grf: Some(120),
        scratch_flag: Some(FlagReg { nr: 1, subnr: 1 }),
        ..LowerCtx::default()
    };
    let region = VisaRegion::new(Some(8), 8, 1).ok_or("region")?;
    for p in Platform::ALL {
        for op in VisaOp::ALL {
            let float = !op.integer_only();
            let (a, b) = if float { (f0, f1) } else { (d0, d1) };
            for size in [ExecSize::S8, ExecSize::S16] {
                let dst = VecOperand::general_dst(b, 0, 0, 1).ok_or("dst")?;
                let src: Vec<VecOperand> = (0..op.num_srcs())
                    .map(|_| VecOperand::general(a, 0, 0, region))
                    .collect();
                let inst = VisaInst::new(op, ExecCtl::new(size), dst, &src);
                for inst in [inst.clone(), inst.with_pred(PredCtl::new(1))] {
                    let bytes = check::visa_input_bytes(p, &vars, &ctx, &inst).ok_or("visa layout")?;
                    seeds.visa.insert(bytes);
                }
            }
        }
    }
    Ok(())
}

fn write(dir: &Path, seeds: &BTreeSet<Vec<u8>>) -> Res<usize> {
    fs::create_dir_all(dir)?;
    for (n, s) in seeds.iter().enumerate() {
        fs::write(dir.join(format!("seed-{n:05}")), s)?;
    }
    Ok(seeds.len())
}

fn main() -> Res<()> {
    let mut args = std::env::args_os().skip(1);
    let corpus = args
        .next()
        .map_or_else(|| PathBuf::from("../shared/corpus/mesa"), PathBuf::from);
    let out = args.next().map_or_else(|| PathBuf::from("fuzz/corpus"), PathBuf::from);
    let mut seeds = Seeds::default();
    for (dir, p) in GENS {
        let mut files: Vec<PathBuf> = fs::read_dir(corpus.join(dir))?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        files.sort();
        for f in files {
            match f.extension().and_then(|e| e.to_str()) {
                Some("expected") => {
                    for w in parse_words(&fs::read_to_string(&f)?)? {
                        add_word(&mut seeds, p, &w);
                        if p == Platform::Gen8 {
                            add_word(&mut seeds, Platform::Chv, &w);
                        }
                    }
                }
                Some("asm") => {
                    let text = fs::read_to_string(&f)?;
                    if text.len() <= MAX_TEXT {
                        seeds.text.insert(with_platform(p, false, text.as_bytes()));
                    }
                    for r in records(&text) {
                        seeds.text.insert(with_platform(p, false, r.as_bytes()));
                    }
                }
                _ => {}
            }
        }
    }
    iga_seeds(&mut seeds, &corpus.join("../iga"))?;
    visa_seeds(&mut seeds)?;
    for (target, set) in [
        ("decode_roundtrip", &seeds.decode),
        ("encode_roundtrip", &seeds.instruction),
        ("validate", &seeds.instruction),
        ("text_roundtrip", &seeds.text),
        ("iga_roundtrip", &seeds.iga),
        ("descriptor_roundtrip", &seeds.descriptor),
        ("visa_lower", &seeds.visa),
    ] {
        let n = write(&out.join(target), set)?;
        println!("{target}: {n} seeds");
    }
    Ok(())
}
