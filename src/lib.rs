//! geneu: encoder, decoder, validator and assembler for the native 128-bit
//! instruction words of Intel Gen7 (Ivy Bridge), Gen7.5 (Haswell) and Gen8
//! (Broadwell, and Cherryview as Gen8 LP) execution units.
//!
//! Layers, each using only those before it:
//! - [`word`]: the raw word and the field accessors generated from `tables/`;
//! - [`model`]: the typed [`Instruction`];
//! - [`codec`]: model ⇄ word, per platform, lossless;
//! - [`validate`]: register-region and operand restrictions.
//!
//! [`check`] holds the property checks that the fuzz targets and the
//! property tests share (see `FUZZING.md`).
//!
//! ```
//! use geneu::{decode, encode, Platform};
//! // mov(8) g17<1>F g12<8,8,1>F { align1 1Q };
//! let bytes = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
//!              0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00];
//! let inst = decode(Platform::Gen8, &bytes).unwrap();
//! assert_eq!(inst.opcode, geneu::Opcode::Mov);
//! assert_eq!(inst.dst.addr, geneu::Addr::Direct { nr: 17, subnr: 0 });
//! assert_eq!(geneu::encode_unchecked(Platform::Gen8, &inst).unwrap(), bytes);
//! ```
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
pub mod text;
pub mod validate;
pub mod visa;
pub mod word;

pub use checked::encode;
pub use codec::{decode, decode_slice, decode_word, encode_unchecked, encode_word};
pub use error::{DecodeError, EncodeError};
pub use model::*;
pub use word::Word;

/// The README's examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
