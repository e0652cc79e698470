//! `Display` and `FromStr` agree for every value of the vocabulary's enums
//! and for words; unknown names are refused with what was being parsed.

use geneu::error::UnknownName;
use geneu::{CondMod, MathFunction, Opcode, Platform, Sfid, Type, Word};

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
