//! Disassembly of forms the corpus does not contain: indirect operands,
//! invalid table values (uncounted error text), every immediate type,
//! ARF names, options, Mesa's Gen7 3-source flag quirk, labels.
//!
//! Each instruction is built from the model, encoded, and decoded again,
//! so the text is that of a real word. Expected texts follow the printing
//! rules of Mesa's brw_disasm.c (columns 16/32/48/64, at least one space
//! per pad, error texts not counted).

use geneu::text::program::{Program, TextOptions};
use geneu::{
    decode, encode_unchecked, AccessMode, Addr, Controls, Dst, ExecSize, Instruction, Opcode, Platform, RegFile,
    Region, Src, SrcMods, Swizzle, ThreadControl, Type, Word, WriteMask,
};

const G7: Platform = Platform::Gen7;
const G75: Platform = Platform::Gen75;
const G8: Platform = Platform::Gen8;

/// Mesa's text of the instruction after an encode/decode round trip
/// (without the field annotation geneu adds for words Mesa's emitter would
/// not produce: the instructions here are built by hand).
fn text(p: Platform, i: &Instruction) -> String {
    let bytes = encode_unchecked(p, i).unwrap();
    let d = decode(p, &bytes).unwrap();
    if std::env::var_os("GENEU_PRINT_WORDS").is_some() {
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        eprintln!("{} {}", p.name(), hex.join(" "));
    }
    d.display(p).without_annotation().to_string()
}

fn mov(es: ExecSize, dst: Dst, src: Src) -> Instruction {
    let mut i = Instruction::new(Opcode::Mov, es);
    i.dst = dst;
    i.src[0] = src;
    i
}

/// Switches a two-operand instruction to align16 with `<4>` regions.
fn align16(mut i: Instruction) -> Instruction {
    i.access_mode = AccessMode::Align16;
    for s in &mut i.src[..2] {
        s.region = Region {
            vstride: if s.file == RegFile::Grf { 3 } else { 0 },
            width: 2,
            hstride: 1,
        };
        s.swizzle = Swizzle::XYZW;
    }
    i
}

fn grf(nr: u8, ty: Type) -> Src {
    Src::grf(nr, 0, ty, Region::new(8, 8, 1).unwrap())
}

fn imm(op: Opcode, dst_ty: Type, ty: Type, v: u64) -> Instruction {
    let mut i = Instruction::new(op, ExecSize::S8);
    i.dst = Dst::grf(2, 0, dst_ty);
    i.src[0] = Src::imm(ty);
    i.imm = v;
    i
}

#[test]
fn indirect_operands_print_raw_address_fields() {
    let mut dst = Dst::grf(0, 0, Type::UW);
    dst.addr = Addr::Indirect { subnr: 2, imm: 16 };
    let mut src = grf(0, Type::UW);
    src.addr = Addr::Indirect { subnr: 1, imm: -32 };
    // The destination's address subregister is divided by the type size,
    // the source's is not; the immediate is the raw 10-bit field.
    assert_eq!(
        text(G8, &mov(ExecSize::S8, dst, src)),
        "mov(8)          g[a0.1 16]<1>UW g[a0.1 992]<8,8,1>UW            { align1 1Q };"
    );
    assert_eq!(
        text(G7, &mov(ExecSize::S8, dst, src)),
        "mov(8)          g[a0.1 16]<1>UW g[a0.1 992]<8,8,1>UW            { align1 1Q };"
    );
    let mut vxh = src;
    vxh.addr = Addr::Indirect { subnr: 0, imm: 0 };
    vxh.region = Region {
        vstride: 0xf,
        width: 0,
        hstride: 0,
    };
    assert_eq!(
        text(G8, &mov(ExecSize::S8, Dst::grf(4, 0, Type::UW), vxh)),
        "mov(8)          g4<1>UW         g[a0]<VxH,1,0>UW                { align1 1Q };"
    );
}

#[test]
fn align16_indirect_prints_in_align1_form() {
    // Mesa prints "Indirect align16 address mode not supported", which no
    // assembler reads; geneu prints align1's form with the align16 region.
    let mut i = align16(mov(ExecSize::S8, Dst::grf(3, 0, Type::F), grf(4, Type::F)));
    i.src[0].addr = Addr::Indirect { subnr: 0, imm: 16 };
    assert_eq!(
        text(G8, &i),
        "mov(8)          g3<1>F          g[a0 16]<4>F                    { align16 1Q };"
    );
}

#[test]
fn invalid_table_values_are_not_counted() {
    let mut i = Instruction::new(Opcode::Cmp, ExecSize::S8);
    i.dst = Dst::null().with_type(Type::F);
    i.src[0] = grf(2, Type::F);
    i.src[1] = grf(3, Type::F);
    i.cond_modifier = 10;
    // The message takes no columns, so the dst pad still counts from
    // `cmp.f0.0(8)`; the flag suffix follows because the field is non-zero.
    assert_eq!(
        text(G8, &i),
        "cmp*** invalid conditional modifier value 10 .f0.0(8)     null<1>F        g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };"
    );

    let mut i = align16(mov(ExecSize::S8, Dst::grf(3, 0, Type::F), grf(4, Type::F)));
    i.pred_control = 8;
    assert_eq!(
        text(G8, &i),
        "(+f0.0*** invalid predicate control align16 value 8 ) mov(8)  g3<1>F          g4<4>F                          { align16 1Q };"
    );

    let mut i = mov(ExecSize::S8, Dst::grf(3, 0, Type::F), grf(4, Type::F));
    i.src[0].region.width = 5;
    assert_eq!(
        text(G8, &i),
        "mov(8)          g3<1>F          g4<8,*** invalid width value 5 ,1>F                       { align1 1Q };"
    );
}

#[test]
fn math_functions() {
    let mut i = Instruction::new(Opcode::Math, ExecSize::S8);
    i.dst = Dst::grf(10, 0, Type::F);
    i.src[0] = grf(2, Type::F);
    i.src[1] = grf(0, Type::F);
    i.src[1].file = RegFile::Arf;
    i.cond_modifier = 8;
    assert_eq!(
        text(G7, &i),
        "math sincos(8)  g10<1>F         g2<8,8,1>F      null<8,8,1>F    { align1 1Q };"
    );
    i.cond_modifier = 0;
    assert_eq!(
        text(G7, &i),
        "math *** invalid function value 0 (8)        g10<1>F         g2<8,8,1>F      null<8,8,1>F    { align1 1Q };"
    );
    i.cond_modifier = 12;
    i.controls |= Controls::SATURATE;
    assert_eq!(
        text(G8, &i),
        "math.sat intdiv(8) g10<1>F      g2<8,8,1>F      null<8,8,1>F    { align1 1Q };"
    );
}

#[test]
fn immediates_of_every_type() {
    let cases: &[(Platform, Opcode, Type, Type, u64, &str)] = &[
        (
            G8,
            Opcode::Mov,
            Type::UD,
            Type::UD,
            0xf000,
            "mov(8)          g2<1>UD         0x0000f000UD                    { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::D,
            Type::D,
            0xffff_fffd,
            "mov(8)          g2<1>D          -3D                             { align1 1Q };",
        ),
        (
            G7,
            Opcode::Mov,
            Type::W,
            Type::W,
            0xfffd_fffd,
            "mov(8)          g2<1>W          -3W                             { align1 1Q };",
        ),
        (
            G7,
            Opcode::Mov,
            Type::UW,
            Type::UW,
            0x0008_0008,
            "mov(8)          g2<1>UW         0x0008UW                        { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::W,
            Type::V,
            0x7654_3210,
            "mov(8)          g2<1>W          0x76543210V                     { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::UW,
            Type::UV,
            0x0123_4567,
            "mov(8)          g2<1>UW         0x01234567UV                    { align1 1Q };",
        ),
        (
            G75,
            Opcode::Mov,
            Type::F,
            Type::VF,
            0x3000_3000,
            "mov(8)          g2<1>F          0x30003000VF    /* [0F, 1F, 0F, 1F]VF */ { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::F,
            Type::VF,
            0,
            "mov(8)          g2<1>F          0x0VF           /* [0F, 0F, 0F, 0F]VF */ { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::F,
            Type::F,
            0x3e80_0000,
            "mov(8)          g2<1>F          0x3e800000F      /* 0.25F */    { align1 1Q };",
        ),
        (
            G7,
            Opcode::Mov,
            Type::F,
            Type::F,
            0xffff_ffe0,
            "mov(8)          g2<1>F          0xffffffe0F      /* -nanF */    { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::DF,
            Type::DF,
            0x3ff0_0000_0000_0000,
            "mov(8)          g2<1>DF         0x3ff0000000000000DF /* 1DF */  { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::Q,
            Type::Q,
            0xbff0_0000_0000_0000,
            "mov(8)          g2<1>Q          0xbff0000000000000Q             { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::UQ,
            Type::UQ,
            0x10,
            "mov(8)          g2<1>UQ         0x0000000000000010UQ            { align1 1Q };",
        ),
        (
            G8,
            Opcode::Mov,
            Type::HF,
            Type::HF,
            0x3c00,
            "mov(8)          g2<1>HF         0x3c00HF        /* 1HF */       { align1 1Q };",
        ),
    ];
    for (p, op, dt, st, v, want) in cases {
        let i = imm(*op, *dt, *st, *v);
        assert_eq!(text(*p, &i), *want, "{st:?} on {p}");
    }
}

#[test]
fn src1_float_immediate_comment_after_pad() {
    let mut i = Instruction::new(Opcode::Add, ExecSize::S16);
    i.dst = Dst::grf(125, 0, Type::F);
    i.src[0] = grf(6, Type::F);
    i.src[0].mods = SrcMods::NEGATE;
    i.src[1] = Src::imm(Type::F);
    i.imm = 0x3f00_0000;
    i.qtr_control = 2;
    assert_eq!(
        text(G8, &i),
        "add(16)         g125<1>F        -g6<8,8,1>F     0x3f000000F  /* 0.5F */ { align1 2H };"
    );
}

#[test]
fn dim_prints_its_64_bit_immediate() {
    let i = imm(Opcode::Dim, Type::DF, Type::F, 0);
    let mut bytes = encode_unchecked(G75, &i).unwrap();
    // 2.0 as a double in bits 127:64.
    bytes[8..16].copy_from_slice(&2.0f64.to_bits().to_le_bytes());
    let d = decode(G75, &bytes).unwrap();
    assert_eq!(
        d.display(G75).without_annotation().to_string(),
        "dim(8)          g2<1>DF         0x4000000000000000F /* 2F */    { align1 1Q };"
    );
}

#[test]
fn logic_negation_is_bitnot_on_gen8_only() {
    let mut i = Instruction::new(Opcode::And, ExecSize::S1);
    i.dst = Dst::grf(3, 0, Type::D);
    i.src[0] = Src::grf(2, 8, Type::D, Region::SCALAR);
    i.src[0].mods = SrcMods::NEGATE;
    i.src[1] = Src::imm(Type::D);
    i.imm = 31;
    i.controls |= Controls::WE_ALL;
    assert_eq!(
        text(G8, &i),
        "and(1)          g3<1>D          ~g2.2<0,1,0>D   31D             { align1 WE_all 1N };"
    );
    assert_eq!(
        text(G7, &i),
        "and(1)          g3<1>D          -g2.2<0,1,0>D   31D             { align1 WE_all 1N };"
    );
    i.src[0].mods = SrcMods::NEGATE | SrcMods::ABS;
    i.opcode = Opcode::Add;
    assert_eq!(
        text(G8, &i),
        "add(1)          g3<1>D          -(abs)g2.2<0,1,0>D 31D          { align1 WE_all 1N };"
    );
}

#[test]
fn nop_pads_to_the_options_column() {
    let i = Instruction::new(Opcode::Nop, ExecSize::S1);
    assert_eq!(text(G8, &i), format!("nop{};", " ".repeat(61)));
}

#[test]
fn arf_register_names() {
    let arf = |nr: u8, ty: Type| Src {
        file: RegFile::Arf,
        addr: Addr::Direct { nr, subnr: 0 },
        ..Src::grf(0, 0, ty, Region::SCALAR)
    };
    let cases: &[(u8, &str)] = &[
        (0x00, "null<0,1,0>UD"),
        (0x10, "a0<0,1,0>UD"),
        (0x21, "acc1<0,1,0>UD"),
        (0x31, "f1<0,1,0>UD"),
        (0x40, "mask0<0,1,0>UD"),
        (0x50, "ms0<0,1,0>UD"),
        (0x60, "msd0<0,1,0>UD"),
        (0x70, "sr0<0,1,0>UD"),
        (0x80, "cr0<0,1,0>UD"),
        (0x90, "n0<0,1,0>UD"),
        // Mesa prints these two bare; geneu prints their region and type.
        (0xa0, "ip<0,1,0>UD"),
        (0xb0, "tdr0<0,1,0>UD"),
        (0xc0, "tm0<0,1,0>UD"),
        (0xd0, "ARF208<0,1,0>UD"),
    ];
    for (nr, want) in cases {
        let i = mov(ExecSize::S1, Dst::grf(5, 0, Type::UD), arf(*nr, Type::UD));
        let t = text(G8, &i);
        let got = t.get(32..).unwrap().split_whitespace().next().unwrap();
        assert_eq!(got, *want, "{t}");
    }
    let mut i = mov(ExecSize::S1, Dst::grf(5, 4, Type::UW), arf(0x31, Type::UW));
    i.src[0].addr = Addr::Direct { nr: 0x30, subnr: 2 };
    i.dst = Dst {
        file: RegFile::Arf,
        addr: Addr::Direct { nr: 0xa0, subnr: 0 },
        ..Dst::grf(0, 0, Type::UD)
    };
    assert_eq!(
        text(G8, &i),
        "mov(1)          ip<1>UD         f0.1<0,1,0>UW                   { align1 1N };"
    );
}

#[test]
fn options_block() {
    let mut i = mov(ExecSize::S8, Dst::grf(3, 0, Type::F), grf(4, Type::F));
    i.controls |=
        Controls::WE_ALL | Controls::NO_DD_CLEAR | Controls::NO_DD_CHECK | Controls::NIB_CTRL | Controls::ACC_WR;
    i.thread_control = ThreadControl::Switch;
    i.qtr_control = 1;
    assert_eq!(
        text(G8, &i),
        "mov(8)          g3<1>F          g4<8,8,1>F                      { align1 WE_all NoDDClr,NoDDChk 4N switch AccWrEnable };"
    );
    let mut i = mov(ExecSize::S32, Dst::grf(3, 0, Type::W), grf(4, Type::W));
    i.controls |= Controls::NO_DD_CHECK;
    i.thread_control = ThreadControl::Atomic;
    assert_eq!(
        text(G7, &i),
        "mov(32)         g3<1>W          g4<8,8,1>W                      { align1 NoDDChk atomic };"
    );
    let mut i = mov(ExecSize::S4, Dst::grf(3, 0, Type::W), grf(4, Type::W));
    i.qtr_control = 1;
    assert_eq!(
        text(G7, &i),
        "mov(4)          g3<1>W          g4<8,8,1>W                      { align1 3N };"
    );
    // Bit 28 is branch control on Gen8 if/else.
    let mut i = Instruction::new(Opcode::If, ExecSize::S8);
    i.dst = Dst::null().with_type(Type::D);
    i.src[0] = Src::imm(Type::D);
    i.controls |= Controls::ACC_WR;
    assert!(i.set_branch(G8, 32, Some(48)));
    i.pred_control = 1;
    assert_eq!(
        text(G8, &i),
        "(+f0.0) if(8)   JIP: 32               UIP: 48                   { align1 1Q BranchCtrl };"
    );
}

#[test]
fn saturate_breakpoint_predicate_and_flag_suffixes() {
    let mut i = Instruction::new(Opcode::Sel, ExecSize::S16);
    i.dst = Dst::grf(2, 0, Type::F);
    i.src[0] = grf(4, Type::F);
    i.src[1] = grf(6, Type::F);
    i.cond_modifier = 4;
    i.flag.nr = 1;
    i.flag.subnr = 1;
    i.controls |= Controls::SATURATE | Controls::BREAKPOINT;
    assert_eq!(
        text(G8, &i),
        "sel.sat.breakpoint.ge(16) g2<1>F g4<8,8,1>F     g6<8,8,1>F      { align1 1H };"
    );
    i.opcode = Opcode::Add;
    i.pred_control = 7;
    i.controls |= Controls::PRED_INV;
    assert_eq!(
        text(G8, &i),
        "(-f1.1.all4h) add.sat.breakpoint.ge.f1.1(16) g2<1>F g4<8,8,1>F g6<8,8,1>F { align1 1H };"
    );
}

fn mad(p: Platform) -> Instruction {
    let mut i = Instruction::new(Opcode::Mad, ExecSize::S8);
    i.access_mode = AccessMode::Align16;
    i.dst = Dst::grf(18, 0, Type::F);
    i.dst.writemask = WriteMask::X | WriteMask::Y | WriteMask::Z;
    let r441 = Region::new(4, 4, 1).unwrap();
    for (k, s) in i.src.iter_mut().enumerate() {
        *s = Src::grf(10 + k as u8, 0, Type::F, r441);
        s.swizzle = Swizzle::XYZW;
    }
    i.src[0].mods = SrcMods::NEGATE;
    i.src[2] = Src::grf(5, 12, Type::F, Region::SCALAR);
    let _ = p;
    i
}

#[test]
fn three_source_forms() {
    let i = mad(G8);
    assert_eq!(
        text(G8, &i),
        "mad(8)          g18<1>.xyzF     -g10<4,4,1>F    g11<4,4,1>F     g5.3<0,1,0>F { align16 1Q };"
    );
    let mut i = mad(G8);
    i.src[1].swizzle = Swizzle(0b1010_0100); // x y z z
    i.src[0].swizzle = Swizzle(0);
    i.src[2] = Src::grf(5, 0, Type::F, Region::SCALAR);
    assert_eq!(
        text(G8, &i),
        "mad(8)          g18<1>.xyzF     -g10<4,4,1>.xF  g11<4,4,1>.xyzzF g5.0<0,1,0>F { align16 1Q };"
    );
}

#[test]
fn gen7_three_source_flag_is_read_where_mesa_reads_it() {
    // Mesa prints the flag of a Gen7 3-source instruction from bits 90:89,
    // which are bits 4:3 of the src1 swizzle there.
    let mut i = mad(G7);
    i.cond_modifier = 4;
    i.src[1].swizzle = Swizzle(0x55); // yyyy: bit 4 set, bit 3 clear
    assert_eq!(
        text(G7, &i),
        "mad.ge.f1.0(8)  g18<1>.xyzF     -g10<4,4,1>F    g11<4,4,1>.yF   g5.3<0,1,0>F { align16 1Q };"
    );
    // On Gen8 the real 3-source flag fields are printed.
    let mut i = mad(G8);
    i.cond_modifier = 4;
    i.flag.subnr = 1;
    i.src[1].swizzle = Swizzle(0x55);
    assert_eq!(
        text(G8, &i),
        "mad.ge.f0.1(8)  g18<1>.xyzF     -g10<4,4,1>F    g11<4,4,1>.yF   g5.3<0,1,0>F { align16 1Q };"
    );
}

#[test]
fn align16_operands() {
    let mut i = Instruction::new(Opcode::Add, ExecSize::S8);
    i.access_mode = AccessMode::Align16;
    i.dst = Dst::grf(24, 16, Type::F);
    i.dst.writemask = WriteMask::W;
    i.src[0] = Src::grf(5, 16, Type::F, Region::new(0, 4, 1).unwrap());
    i.src[0].swizzle = Swizzle(0b1111_1110); // z w w w
    i.src[1] = Src::grf(6, 0, Type::F, Region::new(4, 4, 1).unwrap());
    i.src[1].swizzle = Swizzle::XYZW;
    assert_eq!(
        text(G8, &i),
        "add(8)          g24.4<1>.wF     g5.4<0>.zwwwF   g6<4>F          { align16 1Q };"
    );
}

#[test]
fn jmpi_prints_src1() {
    let mut i = Instruction::new(Opcode::Jmpi, ExecSize::S1);
    let ip = |ty| Src {
        file: RegFile::Arf,
        addr: Addr::Direct { nr: 0xa0, subnr: 0 },
        ..Src::grf(0, 0, ty, Region::SCALAR)
    };
    i.dst = Dst {
        file: RegFile::Arf,
        addr: Addr::Direct { nr: 0xa0, subnr: 0 },
        ..Dst::grf(0, 0, Type::UD)
    };
    i.src[0] = ip(Type::UD);
    i.src[1] = Src::imm(Type::D);
    i.imm = 64;
    i.controls |= Controls::WE_ALL;
    assert_eq!(
        text(G7, &i),
        "jmpi(1)         64D                                             { align1 WE_all 1N };"
    );
}

/// Words of a small Gen8 loop: a backward `while`, a forward `break`,
/// and jumps to a non-instruction offset and before the start (printed as
/// numbers, since no label line could define them).
#[test]
fn program_labels_and_out_of_range_targets() {
    let p = G8;
    let add = {
        let mut i = Instruction::new(Opcode::Add, ExecSize::S8);
        i.dst = Dst::grf(2, 0, Type::D);
        i.src[0] = grf(2, Type::D);
        i.src[1] = Src::imm(Type::D);
        i.imm = 1;
        i
    };
    let branch = |op: Opcode, jip: i32, uip: Option<i32>| {
        let mut i = Instruction::new(op, ExecSize::S8);
        i.dst = Dst::null().with_type(Type::D);
        i.src[0] = Src::imm(Type::D);
        assert!(i.set_branch(p, jip, uip));
        i
    };
    let insts = [
        add,
        branch(Opcode::Break, 48, Some(48)),
        add,
        branch(Opcode::While, -48, None),
        branch(Opcode::Halt, 8, Some(-1600)),
    ]
    .map(|mut i| {
        geneu::canon::canonicalize(p, &mut i);
        i
    });
    let words: Vec<Word> = insts
        .iter()
        .map(|i| Word::from_bytes(encode_unchecked(p, i).unwrap()))
        .collect();
    let prog = Program::from_words(p, words);
    let mut out = String::new();
    let sum = prog.write_text(&mut out, &TextOptions::default()).unwrap();
    assert_eq!(sum.instructions, 5);
    let want = [
        // The break's UIP label is created before the while's, as Mesa does.
        "LABEL1:",
        "add(8)          g2<1>D          g2<8,8,1>D      1D              { align1 1Q };",
        "break(8)        JIP: LABEL0           UIP: LABEL0               { align1 1Q };",
        "add(8)          g2<1>D          g2<8,8,1>D      1D              { align1 1Q };",
        "while(8)        JIP: LABEL1                                     { align1 1Q };",
        "LABEL0:",
        "halt(8)         JIP: 8                UIP: -1600                { align1 1Q };",
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), want, "{out}");
}

#[test]
fn label_at_the_end_of_the_program() {
    let p = Platform::Gen7;
    let mut i = Instruction::new(Opcode::Endif, ExecSize::S16);
    i.dst = Dst::null().with_type(Type::D);
    i.src[0] = Src::grf(0, 0, Type::D, Region::new(8, 8, 1).unwrap()).with_file(RegFile::Arf);
    i.src[1] = Src::imm(Type::W);
    assert!(i.set_branch(p, 2, None));
    let prog = Program::from_words(p, [Word::from_bytes(encode_unchecked(p, &i).unwrap())]);
    let mut out = String::new();
    prog.write_text(&mut out, &TextOptions::default()).unwrap();
    assert_eq!(
        out,
        "endif(16)       JIP: LABEL0                                     { align1 1H };\nLABEL0:\n"
    );
}

#[test]
#[cfg(feature = "check")]
fn check_disasm_property_holds_on_samples() {
    let mut state = 0x1234_5678_9abc_def0u64;
    for p in Platform::ALL {
        for _ in 0..2000 {
            let mut b = [0u8; 16];
            for x in &mut b {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *x = state as u8;
            }
            geneu::check::text::check_disasm(p, &b);
        }
    }
}

trait WithFile {
    fn with_file(self, f: RegFile) -> Self;
}

impl WithFile for Src {
    fn with_file(mut self, f: RegFile) -> Self {
        self.file = f;
        self
    }
}

trait WithType {
    fn with_type(self, t: Type) -> Self;
}

impl WithType for Dst {
    fn with_type(mut self, t: Type) -> Self {
        self.ty = t;
        self
    }
}
