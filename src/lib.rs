//! geneu: encoder, decoder, validator and assembler for the native 128-bit
//! instruction words of Intel Gen7 (Ivy Bridge), Gen7.5 (Haswell) and Gen8
//! (Broadwell, and Cherryview as Gen8 LP) execution units.
//!
//! # A short tour
//!
//! Decode a word into the typed [`Instruction`], and encode it back:
//! [`encode`] validates first and refuses a rule-breaking instruction,
//! [`encode_unchecked`] refuses only what the platform cannot express.
//!
//! ```
//! use geneu::{decode, encode, encode_unchecked, Addr, Opcode, Platform};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // mov(8) g17<1>F g12<8,8,1>F { align1 1Q };
//! let bytes = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
//!              0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00];
//! let inst = decode(Platform::Gen8, &bytes)?;
//! assert_eq!(inst.opcode, Opcode::Mov);
//! assert_eq!(inst.dst.addr, Addr::Direct { nr: 17, subnr: 0 });
//! assert_eq!(encode(Platform::Gen8, &inst)?, bytes);
//! assert_eq!(encode_unchecked(Platform::Gen8, &inst)?, bytes);
//! # Ok(()) }
//! ```
//!
//! Validate: every documented restriction, each a rule with an identifier
//! and its basis ([`validate`]).
//!
//! ```
//! use geneu::{validate::validate, Dst, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};
//! let mut add = Instruction::new(Opcode::Add, ExecSize::S8);
//! add.dst = Dst::grf(2, 0, Type::F);
//! add.src[0] = Src::grf(4, 0, Type::F, Region::new(8, 8, 1).unwrap());
//! add.src[1] = Src::grf(6, 4, Type::F, Region::new(8, 8, 1).unwrap());
//! let report = validate(Platform::Gen8, &add).unwrap_err();
//! assert!(report.has("row_within_grf")); // g6.1<8,8,1>F straddles g6 and g7
//! ```
//!
//! Disassemble and assemble Mesa's syntax ([`text`]):
//!
//! ```
//! use geneu::{decode, text::assemble_words, Platform};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let words = assemble_words(Platform::Gen8, "mov(8) g17<1>F g12<8,8,1>F { align1 1Q };")?;
//! let inst = decode(Platform::Gen8, &words[0])?;
//! let text = inst.display(Platform::Gen8).to_string();
//! assert!(text.starts_with("mov(8)") && text.contains("g12<8,8,1>F"));
//! # Ok(()) }
//! ```
//!
//! Build and read SEND message descriptors ([`msg`]):
//!
//! ```
//! use geneu::msg::{Common, Descriptor, Message, Render, RenderOp, RtWriteSubtype};
//! use geneu::{Platform, Sfid};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let op = RenderOp::RtWrite { subtype: RtWriteSubtype::Simd16, slot_group_high: false, last_rt: true };
//! let rt = Render::new(Platform::Gen8, Common::new(10, 0, true), 0, op);
//! let desc = rt.desc()?;
//! assert_eq!(Message::decode(Platform::Gen8, Sfid::RenderCache.hw(), desc)?, Message::Render(rt));
//! # Ok(()) }
//! ```
//!
//! Lower vISA operations to instructions that validate ([`visa`]):
//!
//! ```
//! use geneu::visa::{lower, ExecCtl, LowerCtx, VarTable, VecOperand, VisaInst, VisaOp, VisaRegion, VisaType};
//! use geneu::{ExecSize, Platform};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut vars = VarTable::new();
//! vars.add_general(VisaType::F, 16, 2 * 32); // V0 in g2-g3
//! vars.add_general(VisaType::F, 16, 4 * 32); // V1 in g4-g5
//! let src = VecOperand::general(0, 0, 0, VisaRegion::new(Some(8), 8, 1).unwrap_or_default());
//! let dst = VecOperand::general_dst(1, 0, 0, 1).unwrap();
//! let mov = VisaInst::new(VisaOp::Mov, ExecCtl::new(ExecSize::S16), dst, &[src]);
//! let ctx = LowerCtx::default();
//! for inst in lower(Platform::Gen8, &vars, &ctx, &mov)? {
//!     geneu::encode(Platform::Gen8, &inst)?;
//! }
//! # Ok(()) }
//! ```
//!
//! # Layers
//!
//! Each uses only those before it: [`isa`] (the vocabulary: shared
//! functions, ARF numbers, region codes) → [`word`] (the raw word and its
//! tables) → [`model`] → [`error`] → [`codec`] and [`compact`] (and
//! [`cfg`](mod@cfg), the control-flow graph, on the model alone) → [`validate`]
//! → checked [`encode`] → [`fields`], [`msg`] → [`text`], [`visa`]. With the
//! `check` feature, `geneu::check` holds the property checks that the fuzz
//! targets and the property tests share (see `FUZZING.md`).
//!
//! # Features
//!
//! - `std` (default): `std::error::Error` paths; without it the crate is
//!   `no_std` with `alloc`.
//! - `serde`: `Serialize`/`Deserialize` for the model and the message
//!   descriptors, `Serialize` for violations and errors.
//! - `arbitrary`: `Arbitrary` for the model and the descriptors.
//! - `check`: the shared property checks (unstable).
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    warn(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

extern crate alloc;

pub mod build;
pub mod canon;
pub mod cfg;
#[cfg(feature = "check")]
pub mod check;
mod checked;
pub mod codec;
pub mod compact;
mod decimal;
mod display;
pub mod error;
pub mod fields;
pub mod isa;
pub mod model;
pub mod msg;
pub mod sim;
pub mod text;
pub mod validate;
pub mod visa;
pub mod word;

pub use checked::{encode, encode_with, Strictness};
pub use codec::{decode, decode_slice, decode_word, encode_unchecked, encode_word};
pub use error::{DecodeError, EncodeError};
pub use model::*;
pub use word::Word;

/// The README's examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
