//! Property tests of the message descriptors: decode(build(d)) == d for
//! arbitrary typed descriptors, and decoding arbitrary bits never fails
//! and, when typed, re-builds the same 32 bits.
#![cfg(feature = "check")] // the shared property checks (`geneu::check`)

use geneu::check::msg::{arbitrary_message, fuzz_check, ByteSource};
use geneu::msg::*;
use geneu::Platform;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The shared check the fuzz target runs.
    #[test]
    fn fuzz_check_holds(data in proptest::collection::vec(any::<u8>(), 0..48)) {
        fuzz_check(&data);
    }

    /// Arbitrary bits for every platform and SFID.
    #[test]
    fn arbitrary_bits_decode(p in 0usize..4, sfid in 0u8..16, desc in any::<u32>()) {
        let p = Platform::ALL[p];
        let m = Message::decode(p, sfid, desc).unwrap();
        prop_assert_eq!(m.desc(), Ok(desc));
        prop_assert_eq!(m.sfid(), sfid);
        prop_assert_eq!(Message::decode(p, sfid, m.desc().unwrap()), Ok(m));
        prop_assert_eq!(m.is_typed(), Message::decode_typed(p, sfid, desc).is_ok());
    }

    /// Typed messages built from arbitrary bytes.
    #[test]
    fn typed_roundtrip(data in proptest::collection::vec(any::<u8>(), 16..40)) {
        let m = arbitrary_message(&mut ByteSource::new(&data));
        if let (true, Ok(d)) = (m.is_typed(), m.desc()) {
            let p = m.platform().unwrap();
            prop_assert_eq!(Message::decode(p, m.sfid(), d), Ok(m));
        }
    }
}

/// Descriptors that are mostly zero hit the typed decoders far more often
/// than uniform bits: every typed family must decode from some of them.
#[test]
fn sparse_descriptors_reach_every_family() {
    let mut seen = std::collections::BTreeSet::new();
    let mut x: u64 = 0x1234_5678_9abc_def1;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let p = Platform::ALL[(x % 4) as usize];
        let sfid = ((x >> 8) % 13) as u8;
        let desc = (x >> 20) as u32 & (x >> 40) as u32 & 0x1fff_ffff;
        let m = Message::decode(p, sfid, desc).unwrap();
        assert_eq!(m.desc(), Ok(desc));
        if m.is_typed() {
            seen.insert(sfid);
        }
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        vec![2, 3, 4, 5, 6, 7, 9, 10, 11, 12]
    );
}

/// The generator used by the fuzz check builds every typed family, so the
/// round-trip property is exercised on all of them.
#[test]
fn generator_builds_every_family() {
    let mut built = std::collections::BTreeSet::new();
    let mut x: u32 = 0x9e37_79b9;
    let mut buf = [0u8; 40];
    for _ in 0..20_000 {
        for b in buf.iter_mut() {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            *b = (x >> 24) as u8;
        }
        let m = arbitrary_message(&mut ByteSource::new(&buf));
        if m.is_typed() && m.desc().is_ok() {
            built.insert(m.sfid());
        }
    }
    assert_eq!(
        built.into_iter().collect::<Vec<_>>(),
        vec![2, 3, 4, 5, 6, 7, 9, 10, 11, 12]
    );
}
