//! Validation never panics, whatever the instruction holds, and an
//! instruction that encodes passed validation (`validate_no_panic`).
#![cfg(feature = "check")] // the shared property checks (`geneu::check`)

use geneu::check::validate_no_panic;
use geneu::validate::validate;
use geneu::*;
use proptest::prelude::*;

fn pick<T: Copy>(all: &[T], b: u8) -> T {
    all[b as usize % all.len()]
}

/// Bytes read one at a time; `sane` keeps values near the legal ranges so
/// the deeper rules run, otherwise any value goes.
struct Bytes<'a>(&'a [u8], usize, bool);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.0[self.1 % self.0.len()];
        self.1 += 1;
        b
    }
    fn field(&mut self, limit: u8) -> u8 {
        let b = self.next();
        if self.2 {
            b % limit
        } else {
            b
        }
    }
    fn addr(&mut self, a16: bool) -> Addr {
        if self.next() % 8 == 0 {
            Addr::Indirect {
                subnr: self.field(16),
                imm: i16::from_le_bytes([self.next(), self.next()]) % if self.2 { 64 } else { i16::MAX },
            }
        } else {
            let sub = self.field(32);
            Addr::Direct {
                nr: self.field(128),
                subnr: if a16 && self.2 { sub & 16 } else { sub },
            }
        }
    }
    fn file(&mut self) -> RegFile {
        pick(&[RegFile::Grf, RegFile::Grf, RegFile::Arf, RegFile::Imm], self.next())
    }
}

fn instruction(bytes: &[u8], sane: bool) -> Instruction {
    let mut b = Bytes(bytes, 0, sane);
    let mut i = Instruction::new(pick(Opcode::ALL, b.next()), pick(ExecSize::ALL, b.next()));
    i.access_mode = pick(AccessMode::ALL, b.next());
    let a16 = i.access_mode == AccessMode::Align16;
    i.thread_control = pick(ThreadControl::ALL, b.next());
    i.qtr_control = b.field(4);
    i.pred_control = b.field(3);
    i.cond_modifier = b.field(16);
    i.controls = Controls::from_bits_truncate(u16::from_le_bytes([b.next(), b.next()]));
    i.flag = FlagReg {
        nr: b.field(2),
        subnr: b.field(2),
    };
    let dfile = b.file();
    i.dst = Dst {
        file: if sane && dfile == RegFile::Imm {
            RegFile::Grf
        } else {
            dfile
        },
        ty: pick(&Type::ALL, b.next()),
        addr: b.addr(a16),
        hstride: b.field(4),
        writemask: WriteMask::from_bits_truncate(b.next()),
    };
    for k in 0..3 {
        let file = b.file();
        let region = if a16 {
            Region {
                vstride: b.field(4),
                width: 2,
                hstride: 1,
            }
        } else {
            Region {
                vstride: b.field(7),
                width: b.field(5),
                hstride: b.field(4),
            }
        };
        i.src[k] = Src {
            file,
            ty: pick(&Type::ALL, b.next()),
            addr: b.addr(a16),
            region,
            swizzle: Swizzle(b.next()),
            mods: SrcMods::from_bits_truncate(b.next()),
        };
    }
    i.imm = u64::from_le_bytes(std::array::from_fn(|_| b.next()));
    i
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_instruction_validates_without_panic(bytes in prop::collection::vec(any::<u8>(), 64), sane: bool) {
        let i = instruction(&bytes, sane);
        for p in Platform::ALL {
            validate_no_panic(p, &i);
        }
    }

    #[test]
    fn any_decoded_word_validates_without_panic(w: u128) {
        for p in Platform::ALL {
            if let Ok(i) = decode_word(p, Word(w)) {
                validate_no_panic(p, &i);
                // The verdict survives a round trip through the encoding.
                if let Ok(bytes) = encode_unchecked(p, &i) {
                    let back = decode(p, &bytes).unwrap();
                    prop_assert_eq!(validate(p, &back).is_ok(), validate(p, &i).is_ok());
                }
            }
        }
    }
}
