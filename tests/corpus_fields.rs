//! Spot checks of decoded fields against Mesa's text of the same words:
//! opcode, execution size, conditional modifier, saturate, and the
//! destination's register number, subregister and type.

use crate::corpus;

use geneu::{decode, Addr, Instruction, Platform, RegFile};

fn records(gen: &str, name: &str) -> Vec<(String, [u8; 16])> {
    let dir = corpus::dir().join(gen);
    let asm = std::fs::read_to_string(dir.join(format!("{name}.asm"))).unwrap();
    let exp = std::fs::read_to_string(dir.join(format!("{name}.expected"))).unwrap();
    // A record is a line starting in column 0 that is not a label.
    let lines: Vec<String> = asm
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && !l.trim_end().ends_with(':'))
        .map(String::from)
        .collect();
    let words: Vec<[u8; 16]> = exp
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect::<Vec<u8>>()
                .try_into()
                .unwrap()
        })
        .collect();
    assert_eq!(
        lines.len(),
        words.len(),
        "{gen}/{name}: records and words differ in number"
    );
    lines.into_iter().zip(words).collect()
}

/// Splits `(+f0.0) mov.sat.nz.f0.0(8) g17.4<1>F ...` into its parts.
struct Parsed<'a> {
    mnemonic: &'a str,
    modifiers: Vec<&'a str>,
    exec: u32,
    dst: &'a str,
}

fn parse(line: &str) -> Parsed<'_> {
    let mut s = line;
    if s.starts_with('(') {
        s = s[s.find(')').unwrap() + 1..].trim_start();
    }
    let mnem_end = s.find('(').unwrap();
    let head = &s[..mnem_end];
    let close = s.find(')').unwrap();
    let exec: u32 = s[mnem_end + 1..close].parse().unwrap();
    let rest = s[close + 1..].trim_start();
    let dst = rest.split_whitespace().next().unwrap_or("");
    let mut parts = head.split(['.', ' ']);
    let mnemonic = parts.next().unwrap();
    Parsed {
        mnemonic,
        modifiers: parts.filter(|p| !p.is_empty()).collect(),
        exec,
        dst,
    }
}

fn check_record(p: Platform, line: &str, i: &Instruction) {
    let t = parse(line);
    let name = if t.mnemonic == "math" { "math" } else { t.mnemonic };
    assert_eq!(i.opcode.name(), name, "{line}");
    assert_eq!(i.exec_size.channels(), t.exec, "{line}");
    assert_eq!(
        i.controls.contains(geneu::Controls::SATURATE),
        t.modifiers.contains(&"sat"),
        "{line}"
    );
    if let Some(c) = i.cond_mod().filter(|c| *c != geneu::CondMod::None) {
        assert!(t.modifiers.contains(&c.name()), "{line}: cond {c:?}");
        // Mesa prints the flag register only where the instruction writes
        // one: not for SEL (min/max) nor 3-source instructions.
        if !i.opcode.is_three_src() && i.opcode != geneu::Opcode::Sel {
            let flag = format!("f{}", i.flag.nr);
            assert!(t.modifiers.contains(&flag.as_str()), "{line}: flag {flag}");
        }
    }
    if let Some(f) = i.math_function() {
        assert!(
            line.starts_with(&format!("math {}(", f.name())) || line.contains(&format!(" {}(", f.name())),
            "{line}"
        );
    }
    // Destination: gN[.S]<H>T for direct GRF destinations.
    if let (RegFile::Grf, Addr::Direct { nr, subnr }) = (i.dst.file, i.dst.addr) {
        if i.opcode.is_branch() {
            return;
        }
        let d = t.dst;
        assert!(d.starts_with(&format!("g{nr}")), "{line}: dst nr {nr}");
        let sub_elems = subnr as u32 / i.dst.ty.size();
        if i.access_mode == geneu::AccessMode::Align1 && subnr != 0 {
            assert!(
                d.starts_with(&format!("g{nr}.{sub_elems}<")),
                "{line}: dst subnr {subnr}"
            );
        }
        assert!(d.ends_with(i.dst.ty.name()), "{line}: dst type {:?}", i.dst.ty);
    }
    let _ = p;
}

fn check_gen(gen: &str, p: Platform) {
    let dir = corpus::dir().join(gen);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "asm").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    let mut checked = 0;
    for name in names {
        // A sample: every third record of each file.
        for (line, w) in records(gen, &name).iter().step_by(3) {
            let i = decode(p, w).unwrap();
            check_record(p, line, &i);
            checked += 1;
        }
    }
    assert!(checked > 200, "{gen}: only {checked} records checked");
}

#[test]
fn gen7_fields_agree_with_text() {
    if corpus::absent() {
        return;
    }
    check_gen("gen7", Platform::Gen7);
}

#[test]
fn gen75_fields_agree_with_text() {
    if corpus::absent() {
        return;
    }
    check_gen("gen7.5", Platform::Gen75);
}

#[test]
fn gen8_fields_agree_with_text() {
    if corpus::absent() {
        return;
    }
    check_gen("gen8", Platform::Gen8);
}

#[test]
fn sends_carry_their_descriptor() {
    if corpus::absent() {
        return;
    }
    // send(8) null<1>F g123<8,8,1>F 0x8a080017 / urb ... EOT
    let recs = records("gen8", "send");
    let (line, w) = &recs[0];
    let i = decode(Platform::Gen8, w).unwrap();
    assert!(line.contains("0x8a080017"));
    assert_eq!(i.send_desc(), Some(0x0a080017));
    assert!(i.eot());
    assert_eq!(i.sfid(), Some(geneu::isa::Sfid::Urb), "URB is SFID 6");
}

#[test]
fn gen8_branch_offsets_are_bytes() {
    if corpus::absent() {
        return;
    }
    // else(8) three instructions ahead: JIP = UIP = 0x30 bytes.
    let recs = records("gen8", "else");
    let i = decode(Platform::Gen8, &recs[0].1).unwrap();
    assert_eq!((i.jip(Platform::Gen8), i.uip(Platform::Gen8)), (Some(0x30), Some(0x30)));
}

#[test]
fn gen7_branch_offsets_are_eight_byte_units() {
    if corpus::absent() {
        return;
    }
    // break(8) to the next instruction: JIP 2 (two 8-byte units).
    let recs = records("gen7", "break");
    let i = decode(Platform::Gen7, &recs[0].1).unwrap();
    assert_eq!(i.jip(Platform::Gen7), Some(2));
}
