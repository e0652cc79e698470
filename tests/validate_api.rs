//! The validator's interface: rule identifiers, reports, the codec's use
//! of validation, and a test per rule.

use crate::validate_util;
use validate_util::*;

#[cfg(feature = "check")]
use geneu::check::validate_no_panic;
use geneu::validate::{info, validate_category, Category, OperandId, Phase, RULES};

#[test]
fn rule_ids_are_unique_and_named_after_their_function() {
    let mut ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate rule identifiers");
    assert!(n >= 80, "only {n} rules");
    for r in RULES {
        assert!(
            r.id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{}",
            r.id
        );
        assert!(!r.source.is_empty(), "{} has no source", r.id);
    }
    assert_eq!(info::exec_size_ge_width.id, "exec_size_ge_width");
    assert_eq!(info::opcode_exists.phase, Phase::Opcode);
    assert_eq!(info::row_within_grf.category, Category::Region);
}

/// Every rule has a test function named after it in tests/validate_*.rs.
#[test]
fn every_rule_has_a_test_named_after_it() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut text = String::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("validate_") && name.ends_with(".rs") {
            text += &std::fs::read_to_string(&path).unwrap();
        }
    }
    let missing: Vec<&str> = RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !text.contains(&format!("fn {id}()")))
        .collect();
    assert!(missing.is_empty(), "rules without a test: {missing:?}");
}

#[test]
fn violations_name_rule_source_operand_and_message() {
    // Three independent faults, all collected.
    let i = alu(Opcode::Add)
        .with(|i| i.src[0].region = rgn(4, 8, 1))
        .with(|i| i.src[1].region = rgn(0, 2, 0))
        .with(|i| i.dst.hstride = 0);
    let v = validate(Gen8, &i).unwrap_err();
    assert!(v.has("width_eq_exec_implies_vstride"));
    assert!(v.has("zero_strides_imply_width_one"));
    assert!(v.has("dst_hstride_nonzero"));
    let w = v.0.iter().find(|x| x.rule == "zero_strides_imply_width_one").unwrap();
    assert_eq!(w.operand, OperandId::Src(1));
    assert!(w.source.contains("Regioning"));
    assert!(!w.message.is_empty());
    let text = v.to_string();
    assert!(text.contains("[zero_strides_imply_width_one] src1: "), "{text}");
    // One report per rule and operand.
    let mut seen: Vec<(&str, OperandId)> = v.0.iter().map(|x| (x.rule, x.operand)).collect();
    let n = seen.len();
    seen.sort_by_key(|x| (x.0, format!("{}", x.1)));
    seen.dedup();
    assert_eq!(seen.len(), n);
}

#[test]
fn encoding_faults_stop_before_the_restrictions() {
    // A reserved width makes the region rules meaningless: only the
    // encoding rule reports.
    let i = alu(Opcode::Add).with(|i| i.src[0].region.width = 7);
    let v = validate(Gen8, &i).unwrap_err();
    assert_eq!(v.rules().collect::<Vec<_>>(), ["width_encoding_valid"]);
}

#[test]
fn encode_validates_and_encode_unchecked_does_not() {
    let i = alu(Opcode::Add).with(|i| i.src[0].region = rgn(4, 8, 1));
    for p in ALL {
        match encode(p, &i) {
            Err(EncodeError::Invalid(v)) => assert!(v.has("width_eq_exec_implies_vstride")),
            other => panic!("{p}: {other:?}"),
        }
        let bytes = encode_unchecked(p, &i).unwrap();
        // decode does not reject the word; validate reports it.
        let back = decode(p, &bytes).unwrap();
        assert_eq!(back, i);
        assert!(validate(p, &back).is_err());
        assert!(encode(p, &alu(Opcode::Add)).is_ok());
    }
}

#[test]
fn encode_refuses_a_16_byte_word_with_cmptctrl() {
    // The hardware reads a word with bit 29 set as an 8-byte compacted
    // instruction: checked encoding never writes one; unchecked encoding
    // keeps the bit so that the decoded word encodes back to itself.
    let i = alu(Opcode::Add).with(|i| i.controls |= geneu::Controls::COMPACTED);
    for p in ALL {
        assert!(validate(p, &i).is_ok());
        match encode(p, &i) {
            Err(e @ EncodeError::Unencodable { .. }) => assert!(e.to_string().contains("CmptCtrl (bit 29)"), "{e}"),
            other => panic!("{p}: {other:?}"),
        }
        let bytes = encode_unchecked(p, &i).unwrap();
        assert_eq!(bytes[3] & 0x20, 0x20, "{p}: bit 29");
        assert_eq!(decode(p, &bytes).unwrap(), i);
        #[cfg(feature = "check")]
        {
            geneu::check::decode_roundtrip(p, &bytes);
            geneu::check::encode_roundtrip(p, &i);
        }
    }
}

#[test]
fn validate_category_selects_a_family() {
    let i = alu2(Opcode::Add, W, D, D);
    assert!(validate_category(Gen8, &i, Category::Region).is_ok());
    assert!(validate_category(Gen8, &i, Category::OperandTypes)
        .unwrap_err()
        .has("dst_stride_matches_exec_type_ratio"));
}

#[test]
#[cfg(feature = "check")]
fn validate_no_panic_holds_on_clean_and_broken_instructions() {
    for p in ALL {
        validate_no_panic(p, &alu(Opcode::Add));
        validate_no_panic(p, &alu(Opcode::Add).with(|i| i.src[0].region.vstride = 0xff));
        validate_no_panic(p, &Instruction::new(Opcode::Illegal, ExecSize::S32));
    }
}

/// Found by the `validate` fuzz target: a DF `mad` whose destination
/// starts at g127 reaches past it (8 channels of 8 bytes); the fast accept
/// counted the destination's bytes as 4 per channel and accepted it.
#[test]
#[cfg(feature = "check")]
fn fast_accept_counts_a_df_three_source_destination_in_full() {
    let input = [7, 91, 1, 96, 0, 64, 216, 0, 127, 200, 33, 3, 57, 48, 32, 135, 18];
    let (p, i) = geneu::check::instruction_input(&input).expect("a fuzz input");
    validate_no_panic(p, &i);
    for p in [Gen75, Gen8, Chv] {
        let mut mad = Instruction::new(Opcode::Mad, ExecSize::S8);
        mad.access_mode = AccessMode::Align16;
        mad.dst = Dst::grf(127, 0, Type::DF);
        for (k, nr) in [50, 24, 74].into_iter().enumerate() {
            mad.src[k] = Src::grf(nr, 0, Type::DF, Region::THREE_SRC);
        }
        let e = geneu::validate::validate(p, &mad).unwrap_err();
        assert!(e.has("grf_number_in_range"), "{p}: {e:?}");
        mad.dst = Dst::grf(126, 0, Type::DF);
        assert!(geneu::validate::validate(p, &mad).is_ok(), "{p}");
    }
}
