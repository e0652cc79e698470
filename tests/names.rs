//! `Display` and `FromStr` agree for every value of the vocabulary's enums
//! and for words; unknown names are refused with what was being parsed.

use geneu::error::UnknownName;
use geneu::msg;
use geneu::{AccessMode, CondMod, ExecSize, Instruction, MathFunction, Opcode, Platform, PredCtrl, Sfid, Type, Word};

fn round_trip<T>(all: &[T])
where
    T: Copy + std::fmt::Display + std::str::FromStr<Err = UnknownName> + PartialEq + std::fmt::Debug,
{
    for &v in all {
        assert_eq!(v.to_string().parse::<T>(), Ok(v), "{v:?}");
    }
}

#[test]
fn every_name_parses_back() {
    round_trip(Opcode::ALL);
    round_trip(&Type::ALL);
    round_trip(CondMod::ALL);
    round_trip(MathFunction::ALL);
    round_trip(Sfid::ALL);
    round_trip(PredCtrl::ALL);
    round_trip(msg::AtomicOp::ALL);
    round_trip(msg::GatewayOp::ALL);
    round_trip(msg::RtWriteSubtype::ALL);
    round_trip(msg::SamplerMsgType::ALL);
    round_trip(msg::SamplerSimd::ALL);
    round_trip(msg::UrbOpcode::ALL);
    for p in Platform::ALL {
        assert_eq!(p.to_string().parse::<Platform>(), Ok(p));
    }
}

#[test]
fn unknown_names_say_what_was_expected() {
    let e = "movv".parse::<Opcode>().unwrap_err();
    assert_eq!(e.to_string(), "unknown opcode `movv`");
    assert_eq!("ud".parse::<Type>().unwrap_err().what, "type");
    assert!("x".parse::<CondMod>().is_err());
    assert!("vme2".parse::<Sfid>().is_err());
    assert_eq!(
        "write simd8".parse::<msg::UrbOpcode>().err().map(|e| e.what),
        Some("URB opcode")
    );
}

#[test]
fn words_print_and_parse_as_hex() {
    let bytes = [
        0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22, 0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00,
    ];
    let w = Word::from_bytes(bytes);
    let s = w.to_string();
    assert_eq!(s, "0x00000000008d018022203ae800600001");
    assert_eq!(s.parse::<Word>(), Ok(w));
    assert_eq!("8d0180_22203ae8_00600001".parse::<Word>(), Ok(w));
    assert_eq!(format!("{w:x}"), "8d018022203ae800600001");
    for bad in ["", "0x", "g1", &"f".repeat(33)] {
        assert!(bad.parse::<Word>().is_err(), "{bad:?}");
    }
    assert_eq!(format!("{:#x}", Word(u128::MAX)).parse::<Word>(), Ok(Word(u128::MAX)));
}

/// The typed predicate and channel-group accessors agree with the raw
/// codes in both access modes, and refuse what a mode lacks.
#[test]
fn predicate_and_channel_group_are_typed() {
    for mode in [AccessMode::Align1, AccessMode::Align16] {
        let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
        i.access_mode = mode;
        for &c in PredCtrl::ALL {
            let ok = i.set_pred_ctrl(Some(c));
            assert_eq!(ok, c.hw(mode).is_some(), "{c:?} in {mode:?}");
            if ok {
                assert_eq!(i.pred_ctrl(), Ok(Some(c)));
                assert_eq!(PredCtrl::from_hw(mode, i.pred_control), Some(c));
            }
        }
        assert!(i.set_pred_ctrl(None));
        assert_eq!((i.pred_control, i.pred_ctrl()), (0, Ok(None)));
    }
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
    i.pred_control = 14;
    assert_eq!(i.pred_ctrl(), Err(14));
    for (exec, first, ok) in [
        (ExecSize::S4, 28, true),
        (ExecSize::S4, 2, false),
        (ExecSize::S8, 8, true),
        (ExecSize::S8, 4, false),
        (ExecSize::S16, 16, true),
        (ExecSize::S16, 8, false),
        (ExecSize::S32, 0, true),
        (ExecSize::S32, 16, false),
    ] {
        let mut i = Instruction::new(Opcode::Add, exec);
        assert_eq!(i.set_first_channel(first), ok, "{exec:?} at {first}");
        assert_eq!(i.first_channel(), if ok { first } else { 0 });
    }
}
