//! The opcode table's facts: hardware numbers round-trip on each platform,
//! the numbers and mnemonics are Mesa's, and each opcode's form agrees
//! with the word layout the codec gives it (three sources survive only
//! the three-source layout, branches keep their JIP and UIP).

use geneu::{
    decode, encode_unchecked, AccessMode, Dst, ExecSize, Form, Instruction, Opcode, Platform, Region, Src, Type,
};

/// Mesa's `opcode_descs` (`elk_eu.c`): mnemonic and hardware number of
/// every Gen7-Gen8 opcode, and the platforms that have it (as version
/// times ten ranges). An independent transcription to check the table by.
const MESA: &[(&str, u8, u32, u32)] = &[
    ("illegal", 0, 70, 80),
    ("mov", 1, 70, 80),
    ("sel", 2, 70, 80),
    ("movi", 3, 70, 80),
    ("not", 4, 70, 80),
    ("and", 5, 70, 80),
    ("or", 6, 70, 80),
    ("xor", 7, 70, 80),
    ("shr", 8, 70, 80),
    ("shl", 9, 70, 80),
    ("dim", 10, 75, 75),
    ("smov", 10, 80, 80),
    ("asr", 12, 70, 80),
    ("cmp", 16, 70, 80),
    ("cmpn", 17, 70, 80),
    ("csel", 18, 80, 80),
    ("f32to16", 19, 70, 75),
    ("f16to32", 20, 70, 75),
    ("bfrev", 23, 70, 80),
    ("bfe", 24, 70, 80),
    ("bfi1", 25, 70, 80),
    ("bfi2", 26, 70, 80),
    ("jmpi", 32, 70, 80),
    ("brd", 33, 70, 80),
    ("if", 34, 70, 80),
    ("brc", 35, 70, 80),
    ("else", 36, 70, 80),
    ("endif", 37, 70, 80),
    ("while", 39, 70, 80),
    ("break", 40, 70, 80),
    ("cont", 41, 70, 80),
    ("halt", 42, 70, 80),
    ("calla", 43, 75, 80),
    ("call", 44, 70, 80),
    ("ret", 45, 70, 80),
    ("goto", 46, 80, 80),
    ("join", 47, 80, 80),
    ("wait", 48, 70, 80),
    ("send", 49, 70, 80),
    ("sendc", 50, 70, 80),
    ("math", 56, 70, 80),
    ("add", 64, 70, 80),
    ("mul", 65, 70, 80),
    ("avg", 66, 70, 80),
    ("frc", 67, 70, 80),
    ("rndu", 68, 70, 80),
    ("rndd", 69, 70, 80),
    ("rnde", 70, 70, 80),
    ("rndz", 71, 70, 80),
    ("mac", 72, 70, 80),
    ("mach", 73, 70, 80),
    ("lzd", 74, 70, 80),
    ("fbh", 75, 70, 80),
    ("fbl", 76, 70, 80),
    ("cbit", 77, 70, 80),
    ("addc", 78, 70, 80),
    ("subb", 79, 70, 80),
    ("sad2", 80, 70, 80),
    ("sada2", 81, 70, 80),
    ("dp4", 84, 70, 80),
    ("dph", 85, 70, 80),
    ("dp3", 86, 70, 80),
    ("dp2", 87, 70, 80),
    ("line", 89, 70, 80),
    ("pln", 90, 70, 80),
    ("mad", 91, 70, 80),
    ("lrp", 92, 70, 80),
    ("madm", 93, 80, 80),
    ("nop", 126, 70, 80),
];

#[test]
fn numbers_names_and_platforms_are_mesas() {
    assert_eq!(Opcode::ALL.len(), MESA.len());
    for &(name, hw, from, to) in MESA {
        let op: Opcode = name.parse().unwrap();
        assert_eq!(op.hw(), hw, "{name}");
        for p in Platform::ALL {
            let v = p.verx10();
            assert_eq!(op.exists_on(p), (from..=to).contains(&v), "{name} on {p}");
        }
    }
}

#[test]
fn hardware_numbers_round_trip_on_every_platform() {
    for p in Platform::ALL {
        for &op in Opcode::ALL {
            if op.exists_on(p) {
                assert_eq!(Opcode::from_hw(p, op.hw()), Some(op), "{op} on {p}");
            }
        }
        for n in 0..=255u8 {
            if let Some(op) = Opcode::from_hw(p, n) {
                assert!(op.exists_on(p) && op.hw() == n & 127, "{n} on {p}: {op}");
            }
        }
    }
}

#[test]
fn attributes_read_the_form() {
    for &op in Opcode::ALL {
        let f = op.form();
        assert_eq!(op.num_srcs(), f.num_srcs(), "{op}");
        assert_eq!(op.is_three_src(), f == Form::Ternary, "{op}");
        assert_eq!(op.is_send(), f == Form::Send, "{op}");
        assert_eq!(op.is_branch(), f.is_branch(), "{op}");
        // Every UIP branch is a branch (it has a JIP).
        assert!(!op.has_uip() || op.is_branch(), "{op}");
        // Logic operations and comparisons are two-source (or NOT) ALU operations.
        assert!(!op.is_logic() || f.is_alu(), "{op}");
        assert!(!op.is_compare() || f == Form::Binary, "{op}");
        assert!(!op.cond_modifier_writes_flag() || f.has_cond_modifier_field(), "{op}");
    }
    let names = |pick: &dyn Fn(Opcode) -> bool| {
        Opcode::ALL
            .iter()
            .filter(|o| pick(**o))
            .map(|o| o.name())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&|o| o.is_three_src()),
        ["csel", "bfe", "bfi2", "mad", "lrp", "madm"]
    );
    assert_eq!(
        names(&|o| o.has_uip()),
        ["if", "brc", "else", "break", "cont", "halt", "goto"]
    );
    for p in Platform::ALL {
        let want: &[&str] = if p.is_gen8() {
            &["if", "brc", "else", "break", "cont", "halt", "goto"]
        } else {
            &["if", "brc", "break", "cont", "halt", "goto"]
        };
        assert_eq!(names(&|o| o.uses_uip(p)), want, "{p}");
    }
    assert_eq!(names(&|o| o.is_logic()), ["not", "and", "or", "xor"]);
    assert_eq!(
        names(&|o| !o.cond_modifier_writes_flag() && o.form().has_cond_modifier_field()),
        ["sel", "csel", "if", "while"]
    );
    // Only `calla` jumps to an absolute instruction pointer; it is a call.
    assert_eq!(names(&|o| o.jumps_absolute()), ["calla"]);
    assert!(!Opcode::Calla.jumps_absolute() || Opcode::Calla.form() == Form::Call);
}

/// A register `g<nr>` source of type F.
fn src(nr: u8, region: Region) -> Src {
    Src::grf(nr, 0, Type::F, region)
}

#[test]
fn three_sources_survive_only_the_three_source_layout() {
    for p in Platform::ALL {
        for &op in Opcode::ALL.iter().filter(|o| o.exists_on(p) && o.form().is_alu()) {
            let mut i = Instruction::new(op, ExecSize::S8);
            i.access_mode = AccessMode::Align16;
            i.dst = Dst::grf(2, 0, Type::F);
            i.src = [
                src(4, Region::THREE_SRC),
                src(5, Region::THREE_SRC),
                src(6, Region::THREE_SRC),
            ];
            // The native layout has no third source: the encoder refuses
            // it; the three-source layout keeps it.
            let w = encode_unchecked(p, &i);
            assert_eq!(w.is_ok(), op.is_three_src(), "{op} on {p}: {w:?}");
            if let Ok(w) = w {
                let back = decode(p, &w).unwrap_or_else(|e| panic!("{op} on {p}: {e}"));
                assert_eq!(back.src, i.src, "{op} on {p}");
            }
        }
    }
}

#[test]
fn branches_keep_their_jip_and_uip() {
    for p in Platform::ALL {
        for &op in Opcode::ALL.iter().filter(|o| o.exists_on(p)) {
            let mut i = Instruction::new(op, ExecSize::S8);
            if op.offsets_may_be_register() {
                // brd/brc keep offsets in the word only beside an
                // immediate src0 (with a register, the register holds them).
                let mut reg = i;
                reg.src[0] = Src::grf(11, 0, Type::UD, Region::SCALAR);
                let back = decode(p, &encode_unchecked(p, &reg).unwrap()).unwrap();
                assert_eq!((back.jip(p), back.uip(p)), (None, None), "{op} on {p}");
                i.src[0] = Src::imm(Type::D);
            }
            assert!(i.set_branch(p, 32, Some(64)) || !op.is_branch(), "{op}");
            let Ok(w) = encode_unchecked(p, &i) else { continue };
            let back = decode(p, &w).unwrap();
            assert_eq!(back.jip(p).is_some(), op.is_branch(), "{op} on {p}");
            assert_eq!(back.uip(p).is_some(), op.has_uip(), "{op} on {p}");
            if op.is_branch() {
                assert_eq!(back.jip(p), Some(32), "{op} on {p}");
            }
            if op.has_uip() {
                assert_eq!(back.uip(p), Some(64), "{op} on {p}");
            }
        }
    }
}
