//! The `serde` feature: the model and the message descriptors round-trip
//! through JSON, and violations and errors serialize with their fields.
#![cfg(feature = "serde")]

use geneu::msg::Message;
use geneu::{decode, encode, Dst, EncodeError, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};
use serde_json::{json, Value};

/// The bundled example kernel's words.
fn kernel() -> Vec<[u8; 16]> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kernel.hex");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let b: Vec<u8> = l
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).unwrap())
                .collect();
            b.try_into().unwrap()
        })
        .collect()
}

#[test]
fn instructions_and_messages_round_trip_through_json() {
    let mut messages = 0;
    for w in kernel() {
        let inst = decode(Platform::Gen8, &w).unwrap();
        let text = serde_json::to_string(&inst).unwrap();
        let back: Instruction = serde_json::from_str(&text).unwrap();
        assert_eq!(back, inst, "{text}");
        if let Some(m) = Message::of_instruction(Platform::Gen8, &inst) {
            let text = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<Message>(&text).unwrap(), m, "{text}");
            messages += 1;
        }
    }
    assert!(messages > 0, "the example kernel has SENDs");
}

#[test]
fn enums_serialize_by_variant_name() {
    assert_eq!(serde_json::to_value(Opcode::Mov).unwrap(), json!("Mov"));
    assert_eq!(serde_json::to_value(Platform::Chv).unwrap(), json!("Chv"));
    assert_eq!(serde_json::from_value::<Type>(json!("HF")).unwrap(), Type::HF);
}

#[test]
fn violations_and_errors_serialize_with_their_fields() {
    let mut mov = Instruction::new(Opcode::Mov, ExecSize::S8);
    mov.dst = Dst::grf(17, 0, Type::F);
    mov.src[0] = Src::grf(12, 4, Type::F, Region::new(8, 8, 1).unwrap());
    let Err(EncodeError::Invalid(v)) = encode(Platform::Gen8, &mov) else {
        panic!("g12.1<8,8,1>F straddles two registers")
    };
    let j = serde_json::to_value(&v).unwrap();
    let list = j.as_array().unwrap();
    assert_eq!(list.len(), v.0.len());
    assert!(list.iter().any(|x| x["rule"] == json!("row_within_grf")));
    assert!(list.iter().all(|x| x["message"].is_string() && x["source"].is_string()));
    assert_eq!(serde_json::to_value(v.0[0].operand).unwrap(), json!({ "Src": 0 }));

    // A reserved execution size: the decoder names the field and its bits.
    let mut w = kernel()[0];
    w[2] |= 0xe0;
    let e = decode(Platform::Gen8, &w).unwrap_err();
    let j: Value = serde_json::to_value(e).unwrap();
    let field = &j["Field"]["field"];
    assert!(field["name"].is_string() && field["frags"].is_array(), "{j}");
}
