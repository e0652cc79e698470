//! `geneu run`: the bundled kernel fills its buffer with the values its
//! instructions compute (worked out here from the kernel's text), and
//! register settings, the trace and errors behave as documented.

use crate::cli_common;
use cli_common::geneu;

fn examples() -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples"))
}

/// A scratch folder holding a copy of the example's dispatch description
/// (its output file lands beside it, not in `examples/`).
fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("geneu-cli-run-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(examples().join("fill.json"), d.join("fill.json")).unwrap();
    d
}

#[test]
fn fill_kernel_writes_three_times_each_index() {
    // The default (one worker per core), one worker, and three.
    for threads in [None, Some("1"), Some("3")] {
        let d = scratch(&format!("fill{threads:?}"));
        let asm = examples().join("fill.asm");
        let json = d.join("fill.json");
        let mut args = vec![
            "run",
            "--gen",
            "bdw",
            asm.to_str().unwrap(),
            "--dispatch",
            json.to_str().unwrap(),
        ];
        if let Some(n) = threads {
            args.extend(["--threads", n]);
        }
        let (code, out, err) = geneu(&args, b"");
        assert_eq!(code, 0, "{out}{err}");
        // Four groups of one SIMD8 thread: thread g writes dword 8g+i = 3(8g+i).
        let bytes = std::fs::read(d.join("fill.out.bin")).unwrap();
        let words: Vec<u32> = bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let expect: Vec<u32> = (0..32).map(|i| 3 * i).collect();
        assert_eq!(words, expect);
        assert_eq!(out.matches("end_of_thread").count(), 4, "{out}");
        assert!(out.find("thread 0 ") < out.find("thread 3 "), "{out}");
    }
}

#[test]
fn grf_settings_and_trace() {
    // g2 = g3 + g4, as dwords; g5 = g6 * 2.5 as floats.
    let text = "add(8)          g2<1>D          g3<8,8,1>D      g4<8,8,1>D      { align1 1Q };\n\
                mul(8)          g5<1>F          g6<8,8,1>F      0x40200000F  /* 2.5F */ { align1 1Q };\n";
    let (code, out, err) = geneu(
        &[
            "run",
            "--gen",
            "hsw",
            "--grf",
            "g3=1,2,3,4,5,6,7,-8:d",
            "--grf",
            "g4=10,20,30,40,50,60,70,80",
            "--grf",
            "g6=1.0,2.0,-4.0,0.5,0,0,0,0:f",
            "--trace",
        ],
        text.as_bytes(),
    );
    assert_eq!(code, 0, "{out}{err}");
    let sums: Vec<String> = [11i32, 22, 33, 44, 55, 66, 77, 72]
        .iter()
        .map(|v| format!("{:08x}", *v as u32))
        .collect();
    let g2 = out.lines().find(|l| l.trim_start().starts_with("g2 ")).unwrap();
    for s in &sums {
        assert!(g2.contains(s.as_str()), "{g2}");
    }
    let g5 = out.lines().find(|l| l.trim_start().starts_with("g5 ")).unwrap();
    for v in [2.5f32, 5.0, -10.0, 1.25] {
        assert!(g5.contains(&format!("{:08x}", v.to_bits())), "{g5}");
    }
    // The trace names each instruction with its offset and the register it changed.
    assert!(out.contains("0x0000") && out.contains("0x0010"), "{out}");
    assert!(out.lines().any(|l| l.contains("add(8)") && l.contains("g2")), "{out}");
}

#[test]
fn architecture_registers_in_the_output_and_the_trace() {
    // a0.0-7 = g3's words + 4; f0.0 = the channels where g3 < 3; an
    // addc writes its carries to the accumulator.
    let text = "add(8)          a0<1>UW         g3<8,8,1>UW     0x0004UW        { align1 1Q };\n\
                cmp.l.f0.0(8)   null<1>D        g3<8,8,1>D      3D              { align1 1Q };\n\
                addc(8)         g5<1>UD         g3<8,8,1>UD     0xffffffffUD    { align1 1Q AccWrEnable };\n";
    let grf = ["run", "--gen", "bdw", "--grf", "g3=1,2,3,4,5,6,7,0:uw"];
    let (code, out, err) = geneu(&[&grf[..], &["--trace"]].concat(), text.as_bytes());
    assert_eq!(code, 0, "{out}{err}");
    // The words 1..7, 0 plus 4, two to a dword, little-endian.
    let a0 = out
        .lines()
        .find(|l| l.trim_start().starts_with("a0 "))
        .expect("a0 changed");
    for d in ["00060005*", "00080007*", "000a0009*", "0004000b*"] {
        assert!(a0.contains(d), "{a0}");
    }
    // cmp and addc read g3 as dwords: the eight words make four, and
    // the rest of g3 is zero.
    let dw: Vec<i32> = [1u32 | 2 << 16, 3 | 4 << 16, 5 | 6 << 16, 7, 0, 0, 0, 0]
        .iter()
        .map(|&v| v as i32)
        .collect();
    let f0: u32 = dw.iter().enumerate().filter(|(_, &v)| v < 3).map(|(k, _)| 1 << k).sum();
    let f0_line = out
        .lines()
        .find(|l| l.trim_start().starts_with("f0 "))
        .expect("f0 changed");
    assert!(f0_line.contains(&format!("{f0:08x}*")), "{f0_line}");
    // addc's carry of channel k is 1 where g3's dword is nonzero.
    for (k, v) in dw.iter().enumerate() {
        let carry = u64::from(*v != 0);
        let name = format!("acc[{k}]");
        let line = out.lines().find(|l| l.trim_start().starts_with(&format!("{name} ")));
        match line {
            Some(l) => assert!(l.contains(&format!("{:08x}*", carry)), "{l}"),
            None => assert_eq!(carry, 0, "{name} unchanged: {out}"),
        }
    }
    // The trace names the registers each instruction changed.
    assert!(out.lines().any(|l| l.contains("add(8)") && l.ends_with(" a0")), "{out}");
    assert!(out.lines().any(|l| l.contains("cmp.l") && l.ends_with(" f0")), "{out}");
    // JSON: the same registers under the same names.
    let (code, json, err) = geneu(&[&grf[..], &["--json"]].concat(), text.as_bytes());
    assert_eq!(code, 0, "{json}{err}");
    for name in ["\"g5\"", "\"a0\"", "\"f0\"", "\"acc[0]\""] {
        assert!(json.contains(&format!("\"register\": {name}")), "{name}: {json}");
    }
}

#[test]
fn errors_name_thread_and_offset() {
    // A jump into the middle of the next instruction.
    let text = "jmpi(1)         1D                                              { align1 WE_all 1N };\n\
                mov(8)          g2<1>UD         g3<8,8,1>UD                     { align1 1Q };\n";
    let (code, _, err) = geneu(&["run", "--gen", "bdw"], text.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("thread 0") && err.contains("offset 0x0"), "{err}");
    // Bad settings are usage errors.
    let (code, _, err) = geneu(&["run", "--gen", "bdw", "--grf", "g200=1"], b"nop;\n");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = geneu(&["run", "--gen", "bdw", "--grf", "g2=300:ub"], b"nop;\n");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn step_limit() {
    // Gen8 jumps count bytes from the next instruction: -16 is itself.
    let text = "jmpi(1)         -16D                                            { align1 WE_all 1N };\n";
    let (code, _, err) = geneu(&["run", "--gen", "bdw", "--steps", "100"], text.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("step limit of 100"), "{err}");
}

/// The README's dispatch description is one `geneu run` reads: a grid of
/// 4 x 2 groups of 2 threads and one listed thread, each with its r0
/// header, registers, surfaces and flat memory, and the outputs written.
#[test]
fn readme_dispatch_description_runs() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let from = readme.find("### Dispatch description").unwrap();
    let block = &readme[from..];
    let start = block.find("```json\n").unwrap() + 8;
    let end = start + block[start..].find("```").unwrap();
    let d = std::env::temp_dir().join(format!("geneu-cli-run-{}-readme", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("dispatch.json"), &block[start..end]).unwrap();
    std::fs::write(d.join("in.bin"), [1u8; 16]).unwrap();
    std::fs::write(d.join("image.bin"), vec![0u8; 64 * 256]).unwrap();
    std::fs::write(d.join("flat.bin"), [2u8; 256]).unwrap();
    let mut payload = vec![0u8; 64];
    payload[32] = 5; // g1.0 of the listed thread
    std::fs::write(d.join("payload.bin"), payload).unwrap();
    // g3 = g0.1 (group ID X) + g1 (the registers setting, or the payload file).
    let text = "add(8)          g3<1>UD         g0.1<0,1,0>UD   g1<8,8,1>UD     { align1 1Q };\n";
    let (code, out, err) = geneu(
        &[
            "run",
            "--gen",
            "bdw",
            "--json",
            "--dispatch",
            d.join("dispatch.json").to_str().unwrap(),
        ],
        text.as_bytes(),
    );
    assert_eq!(code, 0, "{out}{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let threads = doc["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 4 * 2 * 2 + 1);
    // Thread 2k and 2k+1 are group k; group k has X = k % 4.
    for (k, t) in threads.iter().enumerate().take(16) {
        let x = (k / 2 % 4) as u32;
        let g3 = t["changed"].as_array().unwrap().iter().find(|r| r["register"] == "g3");
        let bytes: Vec<u8> = g3.map_or(vec![0; 32], |r| {
            r["bytes"]
                .as_str()
                .unwrap()
                .split(' ')
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect()
        });
        let lane = |i: usize| u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
        for i in 0..8 {
            assert_eq!(lane(i), x + i as u32, "thread {k} lane {i}");
        }
        assert_eq!(t["group"], (k / 2) as u64);
    }
    // The listed thread: group 9; its file's g1.0 = 5 gives way to the
    // setting for every thread (g1 = 0..7), and its own g2.1 = 7 is set.
    assert_eq!(threads[16]["group"], 9);
    let listed = threads[16]["changed"].as_array().unwrap();
    let g3 = listed.iter().find(|r| r["register"] == "g3").unwrap();
    assert!(
        g3["bytes"]
            .as_str()
            .unwrap()
            .starts_with("00 00 00 00 01 00 00 00 02 00 00 00"),
        "{g3}"
    );
    for f in ["out.bin", "image.out.bin", "flat.out.bin", "urb.txt", "rt.txt"] {
        assert!(d.join(f).exists(), "{f}");
    }
    assert_eq!(std::fs::read(d.join("out.bin")).unwrap().len(), 4096);
    assert_eq!(std::fs::read(d.join("image.out.bin")).unwrap().len(), 64 * 256);
}

/// `threads.media`: one thread per inline data list, the constant data
/// from g1 (here nine dwords: g1 and g2) and the inline data in the
/// register after it (g3); g10 = g1.0 + g3.0 + g3.1 shows where each went.
#[test]
fn media_dispatch_description_fills_constant_and_inline_data() {
    let d = std::env::temp_dir().join(format!("geneu-cli-run-{}-media", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let desc = r#"{ "schema": 1, "threads": { "dispatch_mask": 255, "media": {
        "curbe_dwords": [100, 0, 0, 0, 0, 0, 0, 0, 7],
        "inline_dwords": [[1, 10], [2, 20], [3, 30]] } } }"#;
    std::fs::write(d.join("media.json"), desc).unwrap();
    let text = "add(8)          g10<1>UD        g1<0,1,0>UD     g3<0,1,0>UD     { align1 1Q };\n\
                add(8)          g10<1>UD        g10<8,8,1>UD    g3.1<0,1,0>UD   { align1 1Q };\n";
    let json = d.join("media.json");
    let args = ["run", "--gen", "bdw", "--json", "--dispatch", json.to_str().unwrap()];
    let (code, out, err) = geneu(&args, text.as_bytes());
    assert_eq!(code, 0, "{out}{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let threads = doc["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 3);
    for (k, t) in threads.iter().enumerate() {
        assert_eq!(t["group"], k as u64, "a media thread is its own group");
        let g10 = t["changed"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["register"] == "g10")
            .unwrap();
        let want = 100 + 11 * (k as u32 + 1);
        let lane0: Vec<String> = want.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert!(
            g10["bytes"].as_str().unwrap().starts_with(&lane0.join(" ")),
            "thread {k}: {g10}"
        );
    }
    // `groups` and `media` together, and a payload past g127, are input errors.
    let both = r#"{ "schema": 1, "threads": { "groups": [1, 1, 1], "media": { "inline_dwords": [[1]] } } }"#;
    std::fs::write(d.join("both.json"), both).unwrap();
    let json = d.join("both.json");
    let (code, _, err) = geneu(
        &["run", "--gen", "bdw", "--dispatch", json.to_str().unwrap()],
        text.as_bytes(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`groups` and `media`"), "{err}");
    let big = format!(
        r#"{{ "schema": 1, "threads": {{ "media": {{ "curbe_dwords": [{}], "inline_dwords": [[1]] }} }} }}"#,
        vec!["0"; 127 * 8].join(",")
    );
    std::fs::write(d.join("big.json"), big).unwrap();
    let json = d.join("big.json");
    let (code, _, err) = geneu(
        &["run", "--gen", "bdw", "--dispatch", json.to_str().unwrap()],
        text.as_bytes(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("media thread 0"), "{err}");
}
