//! Opcodes with a partial or no documented definition: `movi` executes in
//! the one form a source defines (IGC's finalizer rewrites a raw SIMD8
//! indirect Vx1 `mov` into it, so channel k reads `a0.(j+k) + imm`, all
//! within one aligned half GRF); its other forms, `brd`, `brc` and `smov`
//! fail with a typed error naming what is missing.
//!
//! Expectations are derived by hand from that definition: the element a
//! channel reads is the register file's bytes at its address, computed
//! here with Rust arithmetic, not taken from the simulator.

use geneu::sim::{run, Memory, Program, RunOptions, SimError, Thread};
use geneu::{AccessMode, Addr, Controls, Dst, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};

const GEN8: [Platform; 2] = [Platform::Gen8, Platform::Chv];

/// `movi(n) g2<1>:ty r[a0.j, imm]<1;1,0>:ty`, src1 null.
fn movi(n: ExecSize, ty: Type, j: u8, imm: i16) -> Instruction {
    let mut i = Instruction::new(Opcode::Movi, n);
    i.dst = Dst::grf(2, 0, ty);
    let mut s = Src::grf(0, 0, ty, Region::new(1, 1, 0).unwrap());
    s.addr = Addr::Indirect { subnr: j, imm };
    i.src[0] = s;
    // ARF 0: the null register (all-zero src1 fields, as IGA leaves them).
    i.src[1] = Src::ZERO;
    i
}

fn exec(p: Platform, i: &Instruction, t: &mut Thread) -> Result<(), SimError> {
    let bytes = geneu::encode_unchecked(p, i).unwrap();
    let prog = Program::new(p, &bytes).unwrap();
    let mut opts = RunOptions::default();
    opts.end_at_program_end = true;
    run(&prog, t, &mut Memory::default(), &opts).map(|_| ())
}

/// g10 holds 100..107 (dwords), g2 is filled with a marker.
fn thread() -> Thread {
    let mut t = Thread::new();
    t.write_ud8(10, core::array::from_fn(|k| 100 + k as u32));
    t.write_ud8(2, [0xdead_beef; 8]);
    t
}

const G10: u16 = 10 * 32;

#[test]
fn movi_reads_one_element_per_address_subregister() {
    for p in GEN8 {
        // Channel k's address a0.k: dwords 3, 2, 1, 0, 0, 1, 2, 3 of g10's
        // first half.
        let dword = [3u16, 2, 1, 0, 0, 1, 2, 3];
        let mut t = thread();
        for (k, &d) in dword.iter().enumerate() {
            t.set_a0(k as u8, G10 + 4 * d);
        }
        exec(p, &movi(ExecSize::S8, Type::UD, 0, 0), &mut t).unwrap();
        let want: [u32; 8] = core::array::from_fn(|k| 100 + u32::from(dword[k]));
        assert_eq!(t.read_ud8(2), Some(want), "{p}");
    }
}

#[test]
fn movi_adds_the_immediate_and_starts_at_its_subregister() {
    for p in GEN8 {
        // r[a0.3, 16]: channel k reads at a0.(3+k) + 16, in g10's second
        // half (bytes 16-31: dwords 4-7).
        let dword = [7u16, 4, 6, 5, 5, 6, 4, 7];
        let mut t = thread();
        for (k, &d) in dword.iter().enumerate() {
            t.set_a0(3 + k as u8, G10 + 4 * d - 16);
        }
        // a0.0-a0.2 would address g0: they must not be read.
        for k in 0..3 {
            t.set_a0(k, 0);
        }
        exec(p, &movi(ExecSize::S8, Type::D, 3, 16), &mut t).unwrap();
        let want: [u32; 8] = core::array::from_fn(|k| 100 + u32::from(dword[k]));
        assert_eq!(t.read_ud8(2), Some(want), "{p}");
    }
}

#[test]
fn movi_moves_words_with_a_packed_destination() {
    for p in GEN8 {
        let mut t = Thread::new();
        // g10's words: 0x1000 + k.
        let words: [u32; 8] = core::array::from_fn(|k| (0x1000 + 2 * k as u32) | (0x1001 + 2 * k as u32) << 16);
        t.write_ud8(10, words);
        t.write_ud8(2, [0; 8]);
        // Words 7, 0, 3, 3, 1, 6, 2, 5 of g10's first half (bytes 0-15).
        let word = [7u16, 0, 3, 3, 1, 6, 2, 5];
        for (k, &w) in word.iter().enumerate() {
            t.set_a0(k as u8, G10 + 2 * w);
        }
        exec(p, &movi(ExecSize::S8, Type::UW, 0, 0), &mut t).unwrap();
        let got = t.read_ud8(2).unwrap();
        let got_words: Vec<u32> = got.iter().flat_map(|&d| [d & 0xffff, d >> 16]).take(8).collect();
        let want: Vec<u32> = word.iter().map(|&w| 0x1000 + u32::from(w)).collect();
        assert_eq!(got_words, want, "{p}");
        // The rest of g2 is not written.
        assert_eq!(&got[4..], &[0; 4], "{p}");
    }
}

#[test]
fn movi_writes_only_enabled_channels() {
    for p in GEN8 {
        let mut t = thread();
        for k in 0..8 {
            t.set_a0(k, G10 + 4 * (k as u16 % 4));
        }
        // Dispatch mask 0b1010_0101: channels 0, 2, 5, 7.
        t.set_dispatch_mask(0b1010_0101);
        exec(p, &movi(ExecSize::S8, Type::UD, 0, 0), &mut t).unwrap();
        let want: [u32; 8] = core::array::from_fn(|k| {
            if 0b1010_0101u32 >> k & 1 != 0 {
                100 + (k as u32 % 4)
            } else {
                0xdead_beef
            }
        });
        assert_eq!(t.read_ud8(2), Some(want), "{p}");
        // A disabled channel's address is not checked: channel 1 off,
        // pointing elsewhere, the rest run.
        let mut t = thread();
        for k in 0..8 {
            t.set_a0(k, G10);
        }
        t.set_a0(1, 0);
        t.set_dispatch_mask(0b1111_1101);
        exec(p, &movi(ExecSize::S8, Type::UD, 0, 0), &mut t).unwrap();
        let want: [u32; 8] = core::array::from_fn(|k| if k == 1 { 0xdead_beef } else { 100 });
        assert_eq!(t.read_ud8(2), Some(want), "{p}");
    }
}

/// The error `i` gives on `p`, which must be a typed `Unsupported`
/// starting with `prefix`.
fn unsupported(p: Platform, i: &Instruction, t: &mut Thread, prefix: &str) -> &'static str {
    match exec(p, i, t) {
        Err(SimError::Unsupported { offset: 0, what }) => {
            assert!(what.starts_with(prefix), "{p} {:?}: {what}", i.opcode);
            what
        }
        r => panic!("{p} {:?}: {r:?}", i.opcode),
    }
}

#[test]
fn movi_forms_no_source_defines_fail_with_a_reason() {
    let base = movi(ExecSize::S8, Type::UD, 0, 0);
    let setup = || {
        let mut t = thread();
        for k in 0..16 {
            t.set_a0(k, G10);
        }
        t
    };
    // Ivy Bridge and Haswell.
    for p in [Platform::Gen7, Platform::Gen75] {
        let what = unsupported(p, &base, &mut setup(), "movi");
        assert!(what.contains("Haswell"), "{what}");
    }
    for p in GEN8 {
        let mut cases: Vec<(Instruction, &str)> = Vec::new();
        let mut direct = base;
        direct.src[0] = Src::grf(10, 0, Type::UD, Region::new(8, 8, 1).unwrap());
        cases.push((direct, "direct"));
        let mut region = base;
        region.src[0].region = Region::new(8, 8, 1).unwrap();
        cases.push((region, "<1;1,0>"));
        let mut src1 = base;
        src1.src[1] = Src::grf(4, 0, Type::UD, Region::new(8, 8, 1).unwrap());
        cases.push((src1, "src1"));
        let mut sat = base;
        sat.controls |= Controls::SATURATE;
        cases.push((sat, "raw"));
        let mut conv = base;
        conv.dst.ty = Type::F;
        cases.push((conv, "raw"));
        let mut df = movi(ExecSize::S4, Type::DF, 0, 0);
        df.dst.ty = Type::DF;
        cases.push((df, "raw"));
        let mut neg = base;
        neg.src[0].mods = geneu::SrcMods::NEGATE;
        cases.push((neg, "raw"));
        cases.push((movi(ExecSize::S16, Type::UW, 0, 0), "8 channels"));
        let mut strided = base;
        strided.dst.hstride = 2;
        cases.push((strided, "destination"));
        let mut crossing = base;
        crossing.dst = Dst::grf(2, 16, Type::UD);
        cases.push((crossing, "destination"));
        let mut a16 = base;
        a16.access_mode = AccessMode::Align16;
        a16.src[0].region = Region::new(4, 4, 1).unwrap();
        a16.src[1].region = Region::new(4, 4, 1).unwrap();
        cases.push((a16, "align1"));
        for (i, word) in cases {
            let what = unsupported(p, &i, &mut setup(), "movi");
            assert!(what.contains(word), "{p} {word}: {what}");
        }
        // Channels addressing both halves of g10, or two registers.
        for far in [G10 + 16, G10 + 32] {
            let mut t = setup();
            t.set_a0(5, far);
            let what = unsupported(p, &base, &mut t, "movi");
            assert!(what.contains("half GRF"), "{p}: {what}");
            // Nothing was written.
            assert_eq!(t.read_ud8(2), Some([0xdead_beef; 8]), "{p}");
        }
    }
}

#[test]
fn brd_brc_and_smov_name_what_is_missing() {
    for p in Platform::ALL {
        for op in [Opcode::Brd, Opcode::Brc] {
            let mut i = Instruction::new(op, ExecSize::S8);
            i.dst = Dst::null();
            i.src[0] = Src::imm(Type::D);
            let what = unsupported(p, &i, &mut Thread::new(), "brd and brc");
            assert!(what.contains("PRM"), "{what}");
            let mut r = i;
            r.src[0] = Src::grf(11, 0, Type::D, Region::SCALAR);
            unsupported(p, &r, &mut Thread::new(), "brd and brc");
        }
    }
    for p in GEN8 {
        let mut i = Instruction::new(Opcode::Smov, ExecSize::S8);
        i.dst = Dst::grf(2, 0, Type::UD);
        i.src[0] = Src::grf(3, 0, Type::UD, Region::new(8, 8, 1).unwrap());
        let what = unsupported(p, &i, &mut Thread::new(), "smov");
        assert!(what.contains("operation"), "{what}");
    }
}
