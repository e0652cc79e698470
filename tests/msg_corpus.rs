//! Every SEND/SENDC of the Mesa corpus: the descriptor decodes into a typed
//! message that re-encodes to the same 32 bits, its fields agree with the
//! `MsgDesc:` comment of the `.asm` file, and the printed comment (with
//! Mesa's padding computed from the counted width) matches byte for byte.

use crate::corpus;

use std::path::PathBuf;

use geneu::msg::*;
use geneu::{decode, Instruction, Platform};

fn corpus_dir() -> PathBuf {
    corpus::dir()
}

struct Record {
    file: String,
    first: String,
    cont: Vec<String>,
    bytes: [u8; 16],
}

fn records(gen: &str, name: &str) -> Vec<Record> {
    let dir = corpus_dir().join(gen);
    let asm = std::fs::read_to_string(dir.join(format!("{name}.asm"))).unwrap();
    let hex = std::fs::read_to_string(dir.join(format!("{name}.expected"))).unwrap();
    let mut recs: Vec<(String, Vec<String>)> = Vec::new();
    for line in asm.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with(' ') || line.starts_with('\t') {
            recs.last_mut().unwrap().1.push(line.to_string());
        } else {
            recs.push((line.to_string(), Vec::new()));
        }
    }
    let hexes: Vec<&str> = hex.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(recs.len(), hexes.len(), "{gen}/{name}: record count");
    recs.into_iter()
        .zip(hexes)
        .map(|((first, cont), h)| {
            let v: Vec<u8> = h
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect();
            Record {
                file: format!("{gen}/{name}"),
                first,
                cont,
                bytes: v.try_into().unwrap(),
            }
        })
        .collect()
}

fn sends(gen: &str) -> Vec<Record> {
    let mut v = records(gen, "send");
    v.extend(records(gen, "sendc"));
    v
}

const GENS: [(&str, Platform); 3] = [
    ("gen7", Platform::Gen7),
    ("gen7.5", Platform::Gen75),
    ("gen8", Platform::Gen8),
];

/// Splits a continuation line into the MsgDesc text and the number of
/// padding spaces before the options block.
fn split_line(line: &str) -> (&str, usize) {
    let body = line.strip_prefix(&" ".repeat(28)).expect("28-space indent");
    let brace = body.rfind('{').expect("options block");
    let text = body[..brace].trim_end_matches(' ');
    (text, brace - text.len())
}

#[test]
fn corpus_text_matches_mesa() {
    if corpus::absent() {
        return;
    }
    let mut failures = Vec::new();
    let mut n = 0;
    for (gen, p) in GENS {
        for r in sends(gen) {
            n += 1;
            let inst = decode(p, &r.bytes).unwrap();
            assert_eq!(r.cont.len(), 1, "{}: {}", r.file, r.first);
            let (want, pad) = split_line(&r.cont[0]);
            let (got, counted) = msg_desc_text(p, &inst);
            let want_pad = 48usize.saturating_sub(counted).max(1);
            if got != want || pad != want_pad {
                failures.push(format!(
                    "{}: {}\n  want {want:?} (pad {pad})\n  got  {got:?} (pad {want_pad})",
                    r.file, r.first
                ));
            }
            // The Display adapter and the plain writer agree.
            let mut s = String::new();
            write_msg_desc(&mut s, p, &inst).unwrap();
            assert_eq!(s, got);
            assert_eq!(MsgDescDisplay::of(p, &inst).unwrap().to_string(), got);
        }
    }
    assert!(n > 1800, "only {n} sends");
    assert!(
        failures.is_empty(),
        "{} of {n} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_descriptors_are_typed_and_roundtrip() {
    if corpus::absent() {
        return;
    }
    let mut failures = Vec::new();
    for (gen, p) in GENS {
        for r in sends(gen) {
            let inst = decode(p, &r.bytes).unwrap();
            if !inst.src[1].is_imm() {
                assert!(Message::of_instruction(p, &inst).is_none());
                continue;
            }
            let desc = inst.imm as u32;
            let sfid = inst.cond_modifier;
            let m = match Message::decode_typed(p, sfid, desc) {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!("{}: {}: {e}", r.file, r.first));
                    continue;
                }
            };
            assert_eq!(Message::decode(p, sfid, desc), Ok(m));
            assert_eq!(m.desc(), Ok(desc), "{}: {}", r.file, r.first);
            assert_eq!(m.sfid(), sfid);
            assert_eq!(m.platform(), Some(p));
            if let Err(e) = fields_agree(&m, &r.cont[0]) {
                failures.push(format!(
                    "{}: {}\n  {}\n  {e}\n  {m:?}",
                    r.file,
                    r.first,
                    r.cont[0].trim()
                ));
            }
            // The typed value prints the same text as the raw descriptor.
            assert_eq!(m.mesa(p).unwrap().to_string(), msg_desc_text(p, &inst).0);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn indirect_descriptors_print_indirect() {
    if corpus::absent() {
        return;
    }
    let mut seen = 0;
    for (gen, p) in GENS {
        for r in sends(gen) {
            let inst: Instruction = decode(p, &r.bytes).unwrap();
            if inst.src[1].is_imm() {
                continue;
            }
            seen += 1;
            let (text, counted) = msg_desc_text(p, &inst);
            assert!(text.ends_with(" MsgDesc: indirect"), "{text}");
            assert_eq!(counted, text.len());
        }
    }
    assert_eq!(seen, 3);
}

/// Reads `mlen N rlen N` from the end of a comment.
fn lengths(text: &str) -> (u8, u8) {
    let w: Vec<&str> = text.split_whitespace().collect();
    let n = w.len();
    assert_eq!(w[n - 4], "mlen");
    assert_eq!(w[n - 2], "rlen");
    (w[n - 3].parse().unwrap(), w[n - 1].parse().unwrap())
}

fn ensure(ok: bool, what: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("{what} disagrees"))
    }
}

/// The number after `key` in `text`.
fn number_after(text: &str, key: &str) -> u32 {
    let rest = &text[text.find(key).unwrap_or_else(|| panic!("no `{key}` in {text}")) + key.len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().unwrap()
}

/// Compares the typed fields with what Mesa's comment says, parsing the
/// comment independently of the printer.
fn fields_agree(m: &Message, line: &str) -> Result<(), String> {
    let (text, _) = split_line(line);
    let c = m.common();
    let (mlen, rlen) = lengths(text);
    ensure(c.mlen == mlen && c.rlen == rlen, "mlen/rlen")?;
    let body = &text[text.find("MsgDesc:").unwrap() + "MsgDesc:".len()..text.rfind(" mlen").unwrap()];
    match m {
        Message::Sampler(s) => {
            let w: Vec<&str> = body.split_whitespace().collect();
            ensure(w[0] == s.msg_type.mesa_name(), "sampler message type")?;
            ensure(w[1] == s.simd.mesa_name(), "SIMD mode")?;
            ensure(number_after(body, "Surface = ") == s.bti as u32, "surface")?;
            ensure(number_after(body, "Sampler = ") == s.sampler as u32, "sampler")
        }
        Message::Urb(u) => {
            let w: Vec<&str> = body.split_whitespace().collect();
            ensure(w[0].parse::<u16>().unwrap() == u.global_offset, "global offset")?;
            ensure(
                body.contains(&format!(" {} ", u.opcode.mesa_name())) || body.ends_with(u.opcode.mesa_name()),
                "opcode",
            )?;
            ensure(w.contains(&"per-slot") == u.per_slot_offset, "per-slot")?;
            ensure(w.contains(&"interleave") == u.interleave, "interleave")?;
            ensure(w.contains(&"complete") == u.complete, "complete")?;
            ensure(w.contains(&"masked") == u.channel_mask, "channel mask")
        }
        Message::Render(r) => {
            ensure(number_after(body, "Surface = ") == r.bti as u32, "surface")?;
            match r.op {
                RenderOp::RtWrite {
                    subtype,
                    slot_group_high,
                    last_rt,
                } => {
                    let w: Vec<&str> = body.split_whitespace().collect();
                    ensure(w[0] == "RT" && w[1] == "write", "RT write")?;
                    ensure(w[2] == subtype.mesa_name(), "RT write subtype")?;
                    ensure(w.contains(&"Hi") == slot_group_high, "slot group")?;
                    ensure(w.contains(&"LastRT") == last_rt, "last RT")
                }
                RenderOp::TypedSurfaceRead {
                    channels,
                    high_slot_group,
                }
                | RenderOp::TypedSurfaceWrite {
                    channels,
                    high_slot_group,
                } => {
                    let read = matches!(r.op, RenderOp::TypedSurfaceRead { .. });
                    ensure(
                        body.starts_with(if read {
                            " typed surface read"
                        } else {
                            " typed surface write"
                        }),
                        "type",
                    )?;
                    // Mesa prints the decimal message control after "0x".
                    let mc = number_after(body, "MsgCtrl = 0x");
                    ensure(mc & 0xf == channels.disable_mask() as u32, "channel mask")?;
                    ensure((mc >> 5 & 1 == 1) == high_slot_group, "slot group")
                }
                RenderOp::TypedAtomic {
                    op,
                    high_slot_group,
                    return_data,
                } => {
                    ensure(body.starts_with(" typed atomic op"), "type")?;
                    let mc = number_after(body, "MsgCtrl = 0x");
                    ensure(mc & 0xf == op.hw() as u32, "atomic op")?;
                    ensure((mc >> 4 & 1 == 1) == high_slot_group, "slot group")?;
                    ensure((mc >> 5 & 1 == 1) == return_data, "return data")
                }
                _ => Err("unexpected render message in the corpus".into()),
            }
        }
        Message::DataCache0(d) => {
            // ( <type>, <bti>, <control>)
            let inner = body.trim().trim_start_matches('(').trim_end_matches(')');
            let parts: Vec<&str> = inner.rsplitn(3, ',').collect();
            let (ctl, bti, ty) = (parts[0].trim(), parts[1].trim(), parts[2].trim());
            match d.op {
                Dc0Op::Scratch(s) => {
                    // Mesa reads a scratch descriptor as an ordinary one:
                    // the offset's low bits as the BTI, the block size in
                    // the control.
                    ensure(bti.parse::<u16>().unwrap() == s.offset & 0xff, "scratch offset")?;
                    ensure(
                        !s.write
                            && ty.contains(if d.platform == Platform::Gen8 {
                                "value 16"
                            } else {
                                "OWORD block read"
                            }),
                        "scratch read",
                    )
                }
                op => {
                    ensure(bti.parse::<u8>().unwrap() == d.bti, "binding table index")?;
                    let name = match op {
                        Dc0Op::OwordBlockRead { .. } => "DC OWORD block read",
                        Dc0Op::OwordBlockWrite { .. } => "DC OWORD block write",
                        Dc0Op::OwordDualBlockWrite { .. } => "DC OWORD dual block write",
                        Dc0Op::UntypedSurfaceRead { .. } => "DC untyped surface read",
                        Dc0Op::UntypedSurfaceWrite { .. } => "DC untyped surface write",
                        Dc0Op::UntypedAtomic { .. } => "DC untyped atomic",
                        Dc0Op::MemoryFence { .. } => "DC mfence",
                        _ => return Err(format!("unexpected data cache message {op:?}")),
                    };
                    ensure(ty == name, "message type")?;
                    match op {
                        Dc0Op::UntypedAtomic { op, .. } => ensure(ctl == op.mesa_name(), "atomic op"),
                        Dc0Op::OwordBlockRead { size } | Dc0Op::OwordBlockWrite { size } => {
                            ensure(ctl.parse::<u8>().unwrap() == size.hw(), "block size")
                        }
                        Dc0Op::MemoryFence { commit } => ensure((ctl.parse::<u8>().unwrap() == 32) == commit, "commit"),
                        Dc0Op::UntypedSurfaceRead { channels, simd }
                        | Dc0Op::UntypedSurfaceWrite { channels, simd } => {
                            let v = ctl.parse::<u8>().unwrap();
                            ensure(
                                v & 0xf == channels.disable_mask() && v >> 4 == simd.hw(),
                                "untyped control",
                            )
                        }
                        _ => Ok(()),
                    }
                }
            }
        }
        Message::DataCache1(d) => {
            ensure(number_after(body, "Surface = ") == d.bti as u32, "surface")?;
            let simd_word = |s: &str| body.contains(&format!(", {s},"));
            match d.op {
                Dc1Op::UntypedSurfaceRead { channels, simd } | Dc1Op::UntypedSurfaceWrite { channels, simd } => {
                    let read = matches!(d.op, Dc1Op::UntypedSurfaceRead { .. });
                    ensure(
                        body.starts_with(if read {
                            " ( untyped surface read,"
                        } else {
                            " ( DC untyped surface write,"
                        }),
                        "type",
                    )?;
                    let s = match simd {
                        SurfaceSimd::Simd16 => "SIMD16",
                        SurfaceSimd::Simd8 => "SIMD8",
                        _ => "SIMD4x2",
                    };
                    ensure(simd_word(s), "SIMD mode")?;
                    ensure(
                        body.contains(&format!("Mask = 0x{:x})", channels.disable_mask())),
                        "channel mask",
                    )
                }
                Dc1Op::TypedSurfaceRead { channels, slot_group }
                | Dc1Op::TypedSurfaceWrite { channels, slot_group } => {
                    let read = matches!(d.op, Dc1Op::TypedSurfaceRead { .. });
                    ensure(
                        body.starts_with(if read {
                            " ( DC typed surface read,"
                        } else {
                            " ( DC typed surface write,"
                        }),
                        "type",
                    )?;
                    // Mesa names the slot groups as SIMD modes.
                    let s = match slot_group {
                        TypedSlotGroup::Low => "SIMD16",
                        TypedSlotGroup::High => "SIMD8",
                        _ => "SIMD4x2",
                    };
                    ensure(simd_word(s), "slot group")?;
                    ensure(
                        body.contains(&format!("Mask = 0x{:x})", channels.disable_mask())),
                        "channel mask",
                    )
                }
                Dc1Op::UntypedAtomic { op, simd8, .. }
                | Dc1Op::TypedAtomic {
                    op,
                    high_slot_group: simd8,
                    ..
                } => {
                    let typed = matches!(d.op, Dc1Op::TypedAtomic { .. });
                    ensure(
                        body.starts_with(if typed {
                            " ( DC typed atomic,"
                        } else {
                            " ( DC untyped atomic op,"
                        }),
                        "type",
                    )?;
                    ensure(body.contains(if simd8 { "SIMD8," } else { "SIMD16," }), "SIMD mode")?;
                    ensure(body.ends_with(&format!(" {})", op.mesa_name())), "atomic op")
                }
                Dc1Op::UntypedAtomicSimd4x2 { op, .. } => {
                    ensure(body.starts_with(" ( DC untyped 4x2 atomic op,"), "type")?;
                    ensure(body.ends_with(&format!(" {})", op.mesa_name())), "atomic op")
                }
                op => Err(format!("unexpected data cache 1 message {op:?}")),
            }
        }
        Message::ConstantCache(d) | Message::SamplerCache(d) => {
            let inner = body.trim().trim_start_matches('(').trim_end_matches(')');
            let v: Vec<u32> = inner.split(", ").map(|x| x.parse().unwrap()).collect();
            ensure(v[0] == d.bti as u32, "binding table index")?;
            ensure(v[2] == d.op.msg_type() as u32, "message type")?;
            match d.op {
                DpReadOp::OwordBlockRead { size } => ensure(v[1] == size.hw() as u32, "block size"),
                op => Err(format!("unexpected read-only data port message {op:?}")),
            }
        }
        Message::PixelInterp(pi) => {
            let inner = body.trim().trim_start_matches('(').trim_end_matches(')');
            let v: Vec<&str> = inner.split(", ").collect();
            ensure(v[0] == if pi.linear { "linear" } else { "persp" }, "interpolation mode")?;
            ensure(v[1] == pi.msg.mesa_name(), "message type")?;
            let data = u8::from_str_radix(v[2].trim_start_matches("0x"), 16).unwrap();
            match pi.msg {
                PiMessage::SamplePosition { sample } => ensure(data >> 4 == sample && data & 0xf == 0, "sample"),
                PiMessage::PerMessageOffset { x, y } => {
                    let sx = ((data << 4) as i8) >> 4;
                    let sy = (data as i8) >> 4;
                    ensure(sx == x && sy == y, "offsets")
                }
                _ => ensure(data == 0, "message data"),
            }
        }
        Message::ThreadSpawner(t) => {
            ensure(body.is_empty(), "thread spawner body")?;
            ensure(
                c.eot && t.keep_urb && t.opcode == TsOpcode::DereferenceResource,
                "end of thread",
            )
        }
        Message::Gateway(g) => ensure(body == format!(" ({})", g.op.mesa_name()), "gateway sub-function"),
        other => Err(format!("unexpected message {other:?}")),
    }
}
