//! `geneu run`: the bundled kernel fills its buffer with the values its
//! instructions compute (worked out here from the kernel's text), and
//! register settings, the trace and errors behave as documented.

mod cli_common;
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
        assert_eq!(out.matches("EndOfThread").count(), 4, "{out}");
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
