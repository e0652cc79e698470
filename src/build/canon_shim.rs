//! TEMPORARY: the fields Mesa's syntax does not show, until the shared
//! canonical function (`crate::canon`) lands; then this file goes and the
//! builder calls that function instead.

use crate::model::*;
use crate::word::fields::gen8_native;

const A16_ZERO: Src = Src {
    region: Region {
        vstride: 0,
        width: 2,
        hstride: 1,
    },
    ..Src::ZERO
};

fn zero_dst(a16: bool) -> Dst {
    Dst {
        file: RegFile::Arf,
        ty: Type::UD,
        addr: Addr::Direct { nr: 0, subnr: 0 },
        hstride: 0,
        writemask: if a16 { WriteMask::empty() } else { WriteMask::XYZW },
    }
}

fn hidden_dst(nr: u8, ty: Type) -> Dst {
    Dst {
        file: RegFile::Arf,
        ty,
        addr: Addr::Direct { nr, subnr: 0 },
        hstride: 1,
        writemask: WriteMask::XYZW,
    }
}

fn hidden_src(nr: u8, region: Region, ty: Type, a16: bool, exec: ExecSize) -> Src {
    let mut s = Src {
        file: RegFile::Arf,
        ty,
        addr: Addr::Direct { nr, subnr: 0 },
        ..Src::ZERO
    };
    if a16 {
        s.swizzle = Swizzle::XYZW;
        s.region = Region {
            vstride: if region.vstride == 4 { 3 } else { region.vstride },
            width: 2,
            hstride: 1,
        };
    } else if region.width == 0 && exec == ExecSize::S1 {
        s.region = Region::SCALAR;
    } else {
        s.region = region;
    }
    s
}

/// Sets the fields the text does not show, as Mesa's emitter sets them.
pub(crate) fn canonicalize(p: Platform, i: &mut Instruction) {
    use Opcode::*;
    let a16 = i.access_mode == AccessMode::Align16;
    let op = i.opcode;
    match op {
        If | Else | Endif | While | Break | Cont | Halt => {
            let keep = i.imm;
            if p.is_gen8() {
                i.dst = match op {
                    Endif => zero_dst(a16),
                    Cont => hidden_dst(0xa0, Type::UD),
                    _ => hidden_dst(0, Type::D),
                };
                i.src[0] = Src::imm(Type::D);
                i.src[1] = Src::ZERO;
                if !op.has_uip() {
                    let d = u64::from(Type::D.reg_hw(p).unwrap_or(0)) << (gen8_native::SRC1_REG_TYPE_LO - 64);
                    i.imm = keep & 0xffff_ffff | d << 32;
                }
            } else {
                let vec8 = Region {
                    vstride: 4,
                    width: 3,
                    hstride: 1,
                };
                let ip = Region {
                    vstride: 3,
                    width: 0,
                    hstride: 0,
                };
                let (dnr, dty, snr, sreg) = match op {
                    Cont => (0xa0, Type::UD, 0xa0, ip),
                    If => (0, Type::D, 0, Region::SCALAR),
                    _ => (0, Type::D, 0, vec8),
                };
                i.dst = hidden_dst(dnr, dty);
                i.src[0] = hidden_src(snr, sreg, dty, a16, i.exec_size);
                i.src[1] = Src::imm(if matches!(op, If | Else | Endif | While) {
                    Type::W
                } else {
                    Type::D
                });
            }
        }
        Nop => {
            i.dst = zero_dst(a16);
            if a16 {
                i.src[0] = A16_ZERO;
                i.src[1] = A16_ZERO;
            }
        }
        _ if op.is_three_src() => {
            for s in &mut i.src {
                if s.region == Region::SCALAR {
                    s.swizzle = Swizzle(0);
                }
            }
        }
        _ if op.num_srcs() >= 1 && !op.is_send() => {
            if i.src[0].is_imm() {
                let ty0 = i.src[0].ty;
                if a16 && !p.is_gen8() {
                    i.src[0].region = A16_ZERO.region;
                }
                if i.num_srcs() < 2 || op == Jmpi {
                    if !ty0.is_64bit() {
                        i.src[1] = Src::ZERO;
                        if let Some(t) = ty0.imm_hw(p).and_then(|c| Type::from_reg_hw(p, c)) {
                            i.src[1] = Src {
                                file: RegFile::Arf,
                                ty: t,
                                ..Src::ZERO
                            };
                        }
                    } else {
                        i.src[1] = Src::ZERO;
                    }
                }
            } else if a16 && i.num_srcs() < 2 && op != Math {
                i.src[1] = A16_ZERO;
            }
            if let Some(k) = i.imm_src() {
                if i.src
                    .get(k)
                    .is_some_and(|s| matches!(s.ty, Type::W | Type::UW | Type::HF))
                {
                    let lo = i.imm & 0xffff;
                    i.imm = lo | lo << 16;
                }
            }
        }
        _ => {}
    }
}
