//! Every rule's basis (documented or conservative) in the registry and in
//! each violation, the public rule list, and the examples of each
//! kind: words that shipped, classified as the documentation supports.

mod validate_util;
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
