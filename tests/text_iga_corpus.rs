//! IGA-syntax disassembly against `iga64`'s own output: every line of
//! `../shared/corpus/iga/<gen>/<name>.iga` (see its README) compared with
//! geneu's text of the same Mesa words, trailing whitespace removed; and
//! the words IGA's assembler makes of that text (`.iga.expected`) against
//! `iga_canonical`, which the field annotation is measured from.

use crate::corpus;

use std::fs;
use std::path::Path;

use geneu::text::iga::{iga_canonical, write_program, IgaDisasm};
use geneu::{codec, Platform};

fn words(path: &Path) -> Vec<Vec<u8>> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect()
        })
        .collect()
}

/// (lines compared, lines equal, words whose IGA encoding `iga_canonical`
/// gives, words compared) for one platform.
fn run(gen: &str, p: Platform, failures: &mut Vec<String>) -> (usize, usize, usize, usize) {
    let Some(mesa) = corpus::mesa() else {
        return (0, 0, 0, 0);
    };
    let dir = mesa.join("../iga").join(gen);
    let (mut n, mut ok, mut enc_ok, mut enc_n) = (0, 0, 0, 0);
    let mut names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let f = e.unwrap().file_name().into_string().unwrap();
            f.strip_suffix(".iga").map(str::to_owned)
        })
        .collect();
    names.sort();
    for name in names {
        let ws = words(&mesa.join(gen).join(format!("{name}.expected")));
        let text = fs::read_to_string(dir.join(format!("{name}.iga"))).unwrap();
        let expected: Vec<&str> = text.lines().collect();
        let assembled: Vec<String> = fs::read_to_string(dir.join(format!("{name}.iga.expected")))
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        let whole = expected.first().is_some_and(|l| *l == "L0:");
        let got: Vec<String> = if whole {
            let bytes: Vec<u8> = ws.concat();
            let mut s = String::new();
            write_program(&mut s, p, &bytes, false).unwrap();
            s.lines().map(str::to_owned).collect()
        } else {
            ws.iter()
                .map(|w| match codec::decode(p, &<[u8; 16]>::try_from(&w[..]).unwrap()) {
                    Ok(i) => IgaDisasm::new(p, &i).without_annotation().to_text(),
                    Err(e) => format!("// undecodable: {e}"),
                })
                .collect()
        };
        if got.len() != expected.len() {
            failures.push(format!(
                "{gen}/{name}: {} lines, iga64 printed {}",
                got.len(),
                expected.len()
            ));
        }
        for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
            if e.starts_with("// refused by iga64") {
                continue;
            }
            n += 1;
            if g.trim_end() == e.trim_end() {
                ok += 1;
            } else {
                failures.push(format!(
                    "{gen}/{name}:{}\n  iga64: {}\n  geneu: {}",
                    k + 1,
                    e.trim_end(),
                    g.trim_end()
                ));
            }
        }
        // The encoding IGA's assembler gives the text, word by word.
        let lines: Vec<&String> = assembled.iter().collect();
        for (k, w) in ws.iter().enumerate() {
            let Some(a) = lines.get(k) else { break };
            if a.starts_with("//") {
                continue;
            }
            let want: Vec<u8> = a
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect();
            let Ok(i) = codec::decode(p, &<[u8; 16]>::try_from(&w[..]).unwrap()) else {
                continue;
            };
            enc_n += 1;
            let base = iga_canonical(p, &i);
            match codec::encode_unchecked(p, &base) {
                Ok(b) if b[..] == want[..] => enc_ok += 1,
                Ok(b) => failures.push(format!(
                    "{gen}/{name}: word {}: iga_canonical gives {}\n  iga64 -a: {}",
                    k + 1,
                    hex(&b),
                    hex(&want)
                )),
                Err(e) => failures.push(format!("{gen}/{name}: word {}: {e}", k + 1)),
            }
        }
    }
    (n, ok, enc_ok, enc_n)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(" ")
}

#[test]
fn iga_text_matches_iga64() {
    if corpus::absent() {
        return;
    }
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for (gen, p) in [("gen8", Platform::Gen8), ("gen7.5", Platform::Gen75)] {
        let (n, ok, eok, en) = run(gen, p, &mut failures);
        summary.push(format!(
            "{gen}: text {ok}/{n} lines equal ({:.1}%), encoding {eok}/{en} words",
            100.0 * ok as f64 / n.max(1) as f64
        ));
    }
    for s in &summary {
        eprintln!("{s}");
    }
    if let Some(path) = std::env::var_os("GENEU_IGA_FAILURES") {
        fs::write(path, failures.join("\n")).unwrap();
    }
    let shown: Vec<_> = failures.iter().take(60).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}\n{}",
        failures.len(),
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"),
        summary.join("\n")
    );
}
