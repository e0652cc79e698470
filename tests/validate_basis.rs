//! Every rule's basis (documented or conservative) in the registry and in
//! each violation, the public rule list, and the examples of each
//! kind: words that shipped, classified as the documentation supports.

use crate::validate_util;
use validate_util::*;

use geneu::validate::{find_rule, list_rules, Basis, OperandId};

/// A word in the byte order, decoded.
fn word(p: Platform, hex: &str) -> Instruction {
    let bytes: Vec<u8> = hex
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    decode(p, &bytes.try_into().unwrap()).unwrap()
}

#[test]
fn every_rule_has_a_basis_and_a_citation() {
    let rules: Vec<_> = list_rules().collect();
    assert_eq!(rules.len(), geneu::validate::RULES.len());
    let mut conservative = 0;
    for r in &rules {
        assert!(!r.source.is_empty(), "{}", r.id);
        assert!(std::ptr::eq(find_rule(r.id).unwrap(), *r));
        if r.basis == Basis::Conservative {
            conservative += 1;
            // A conservative rule says why it is stricter than the docs.
            assert!(
                ["Mesa", "borrowed", "assum", "safe"]
                    .iter()
                    .any(|w| r.source.contains(w)),
                "{}: {}",
                r.id,
                r.source
            );
        }
    }
    assert!(conservative >= 5 && conservative < rules.len() / 2, "{conservative}");
    assert!(find_rule("no_such_rule").is_none());
    for (id, basis) in [
        ("gen7_cmp_null_dst_requires_switch", Basis::Documented),
        ("gen7_dst_two_regs_src_two_regs", Basis::Documented),
        ("scalar_region", Basis::Documented),
        ("row_within_grf", Basis::Documented),
        ("gen7_packed_word_exception_src0_only", Basis::Conservative),
        ("scalar_region_vxh", Basis::Conservative),
        ("send_payload_row_within_grf", Basis::Conservative),
        ("mixed_float_f_dst_max_simd8", Basis::Conservative),
    ] {
        assert_eq!(find_rule(id).unwrap().basis, basis, "{id}");
    }
}

#[test]
fn violations_carry_their_rule_basis() {
    let i = alu(Opcode::Add).with(|i| i.dst.hstride = 0);
    let v = validate(Gen8, &i).unwrap_err();
    for x in &v.0 {
        assert_eq!(x.basis, find_rule(x.rule).unwrap().basis);
    }
    assert!(v.any_documented());
    let text = v.to_string();
    assert!(text.contains("[dst_hstride_nonzero] dst: "), "{text}");
    assert!(text.contains("(documented: "), "{text}");
}

/// The false positive: `call(16)` with its return address at
/// g126.16 (shipped 30 times). A call writes two dwords whatever its
/// execution size.
#[test]
fn grf_number_in_range_call_writes_two_dwords() {
    let call = word(Gen8, "2c 00 80 00 08 00 d0 2f 00 00 45 0e 50 34 00 00");
    assert_eq!(call.opcode, Opcode::Call);
    assert_eq!(call.exec_size, ExecSize::S16);
    ok(Gen8, &call);
    for p in ALL {
        let mut c = call;
        c.dst.addr = Addr::Direct { nr: 127, subnr: 24 };
        not(p, &c, "grf_number_in_range");
        c.dst.addr = Addr::Direct { nr: 127, subnr: 28 };
        bad(p, &c, "grf_number_in_range");
    }
}

/// The documented example: a Gen7 `cmp` with a null destination
/// and no {Switch} (1,326 shipped words) fails `check`.
#[test]
fn gen7_cmp_null_dst_without_switch_is_documented() {
    let cmp = alu(Opcode::Cmp).with(|i| {
        i.cond_modifier = 1;
        i.dst = arf_dst(0, F);
    });
    for p in [Gen7, Gen75] {
        let v = validate(p, &cmp).unwrap_err();
        assert!(v.has("gen7_cmp_null_dst_requires_switch"));
        assert!(v.any_documented());
    }
}

/// The mixed-float example from Mesa's own corpus,
/// `mov(16) g6<1>F g2<0,1,0>HF`: a Skylake sentence applied to Gen8.
#[test]
fn mixed_float_simd16_f_dst_is_conservative() {
    let mov = mov(F, HF).exec(16).with(|i| {
        i.dst = Dst::grf(6, 0, F);
        i.src[0] = scalar(2, HF);
    });
    for p in [Gen8, Chv] {
        let v = validate(p, &mov).unwrap_err();
        assert_eq!(
            v.rules().collect::<Vec<_>>(),
            ["mixed_float_f_dst_max_simd8"],
            "{p}: {v}"
        );
        assert_eq!(v.0[0].operand, OperandId::Inst);
        assert!(!v.any_documented(), "{v}");
        // Refused by checked encoding all the same.
        assert!(encode(p, &mov).is_err());
    }
}

/// The mixed-float example and a documented break (a row of g3.1<8,8,1>F
/// straddles g3/g4), at each strictness of checked encoding.
fn strictness_cases() -> (Instruction, Instruction) {
    let conservative = mov(F, HF).exec(16).with(|i| {
        i.dst = Dst::grf(10, 0, F);
        i.src[0] = scalar(4, HF);
    });
    let documented = mov(F, F).exec(16).with(|i| {
        i.dst = Dst::grf(10, 0, F);
        i.src[0] = Src::grf(3, 4, F, rgn(8, 8, 1));
    });
    (conservative, documented)
}

#[test]
fn encode_with_lenient_warns_on_conservative_and_refuses_documented() {
    let (conservative, documented) = strictness_cases();
    for p in [Gen8, Chv] {
        let word = encode_unchecked(p, &conservative).unwrap();
        // Strict is `encode`: refused.
        match encode_with(p, &conservative, Strictness::Strict) {
            Err(EncodeError::Invalid(v)) => assert!(v.has("mixed_float_f_dst_max_simd8")),
            other => panic!("{p}: {other:?}"),
        }
        assert_eq!(Strictness::default(), Strictness::Strict);
        // Lenient: the same word as unchecked, the conservative rule given back.
        let (w, warnings) = encode_with(p, &conservative, Strictness::Lenient).unwrap();
        assert_eq!(w, word, "{p}");
        assert_eq!(warnings.rules().collect::<Vec<_>>(), ["mixed_float_f_dst_max_simd8"]);
        assert!(warnings.0.iter().all(|v| v.basis == Basis::Conservative));
        // Unchecked: no validation, no warnings.
        assert_eq!(
            encode_with(p, &conservative, Strictness::Unchecked),
            Ok((word, Violations::default()))
        );
        // A documented break is refused by lenient too, with its rule.
        let v = validate(p, &documented).unwrap_err();
        assert!(v.has("row_within_grf") && v.any_documented(), "{v}");
        assert_eq!(
            encode_with(p, &documented, Strictness::Lenient),
            Err(EncodeError::Invalid(v.clone()))
        );
        assert_eq!(
            encode_with(p, &documented, Strictness::Strict),
            Err(EncodeError::Invalid(v))
        );
        assert!(encode_with(p, &documented, Strictness::Unchecked).is_ok());
        // A clean instruction: the word, no warnings, at every strictness.
        let clean = mov(F, F);
        for s in [Strictness::Strict, Strictness::Lenient, Strictness::Unchecked] {
            assert_eq!(
                encode_with(p, &clean, s),
                Ok((encode(p, &clean).unwrap(), Violations::default()))
            );
        }
    }
}

#[test]
fn builder_finish_lenient_keeps_warnings_and_refuses_documented() {
    use geneu::build::{g, BuildError, Builder};
    let build = |s: Option<Strictness>, documented: bool| {
        let mut b = Builder::new(Gen8);
        b.mov(g(2).f(), g(3).f()).unwrap();
        b.state_mut().exec_size = ExecSize::S16;
        let src = if documented {
            g(3).f().subreg(1).unwrap().stride(8, 8, 1).unwrap()
        } else {
            g(4).hf().scalar()
        };
        b.mov(g(10).f(), src).unwrap();
        if let Some(s) = s {
            b.set_strictness(s);
        }
        b.finish()
    };
    let (conservative, _) = strictness_cases();
    // Strict (the default and when chosen): refused at instruction 1.
    for s in [None, Some(Strictness::Strict)] {
        let e = build(s, false).unwrap_err();
        assert!(matches!(&e.0[..], [BuildError::Invalid { index: 1, .. }]), "{e}");
        assert!(e.has_rule("mixed_float_f_dst_max_simd8"));
    }
    // Lenient: built, the warning kept with its index; the same bytes as
    // unchecked encoding of the instruction.
    let prog = build(Some(Strictness::Lenient), false).unwrap();
    match prog.warnings() {
        [BuildError::Invalid { index: 1, violations }] => {
            assert_eq!(violations.rules().collect::<Vec<_>>(), ["mixed_float_f_dst_max_simd8"]);
        }
        other => panic!("{other:?}"),
    }
    let inst = prog.instructions().nth(1).unwrap().1;
    assert_eq!(inst.dst, conservative.dst);
    assert_eq!(prog.bytes()[16..], encode_unchecked(Gen8, inst).unwrap());
    // Unchecked: built, no warnings.
    assert!(build(Some(Strictness::Unchecked), false).unwrap().warnings().is_empty());
    // A documented break: lenient refuses it.
    let e = build(Some(Strictness::Lenient), true).unwrap_err();
    assert!(e.has_rule("row_within_grf"), "{e}");
    assert!(build(Some(Strictness::Unchecked), true).is_ok());
}

#[test]
fn assembler_lenient_keeps_warnings_with_their_lines() {
    use geneu::text::{assemble_listing, AsmErrorKind, AsmOptions};
    let text = "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\nmov(16) g10<1>F g4<0,1,0>HF { align1 1H };\n";
    let strict = assemble_listing(Gen8, text, AsmOptions::CHECKED).unwrap_err();
    assert!(
        matches!(&strict.0[..], [e] if e.line == 2 && matches!(&e.kind, AsmErrorKind::Rules(v) if v.has("mixed_float_f_dst_max_simd8")))
    );
    let list = assemble_listing(Gen8, text, AsmOptions::LENIENT).unwrap();
    let unchecked = assemble_listing(Gen8, text, AsmOptions::UNCHECKED).unwrap();
    assert_eq!(list.len(), 2);
    assert!(list[0].warnings.0.is_empty());
    assert_eq!((list[1].line, list[1].column), (2, 1));
    assert_eq!(
        list[1].warnings.rules().collect::<Vec<_>>(),
        ["mixed_float_f_dst_max_simd8"]
    );
    for (a, b) in list.iter().zip(&unchecked) {
        assert_eq!(a.word, b.word);
        assert!(b.warnings.0.is_empty());
    }
    let documented = "mov(8) g2<1>F g3.1<8,8,1>F { align1 1Q };\n";
    assert!(assemble_listing(Gen8, documented, AsmOptions::LENIENT).is_err());
}
