//! Every integration test of the library, built as one test binary: one
//! compile and one link instead of one for each file, which is most of
//! the time a build of the tests takes. Each file beside this one is a
//! module here, and the helpers shared between files (`corpus`,
//! `text_common`, ...) are this crate's modules. Run one file's tests
//! with a filter on its module:
//! `cargo test --release --features arbitrary,serde --test suite text_roundtrip::`.

mod corpus;
mod semantic_common;
mod sim_common;
mod text_common;
mod validate_util;
mod visa_common;

mod build_corpus;
mod build_errors;
mod build_example;
mod build_props;
mod build_shared;
mod build_text_agree;
mod canon;
mod cfg;
mod compact;
mod compact_program;
mod compact_props;
mod compact_tables;
mod corpus_codec;
mod corpus_fields;
mod example_kernel;
mod fidelity_codec;
mod fidelity_text;
mod msg_builders;
mod msg_corpus;
mod msg_desc_fields;
mod msg_gather;
mod msg_props;
mod names;
mod opcode_table;
mod props;
mod regressions;
#[path = "serde.rs"]
mod serde_feature;
mod sim_alu;
mod sim_dispatch;
mod sim_equiv;
mod sim_flow;
mod sim_flow_semantic;
mod sim_fuzz;
mod sim_math_macro;
mod sim_ops;
mod sim_regions;
mod sim_visa_semantic;
mod suite_files;
mod tables;
mod text_asm_corpus;
mod text_asm_pieces;
mod text_disasm_corpus;
mod text_disasm_forms;
mod text_iga_asm;
mod text_iga_corpus;
mod text_iga_forms;
mod text_iga_props;
mod text_math_macro;
mod text_roundtrip;
mod text_uncovered_forms;
mod validate_api;
mod validate_basis;
mod validate_corpus;
mod validate_double;
mod validate_encoding;
mod validate_fidelity;
mod validate_ged_gaps;
mod validate_instruction;
mod validate_mesa_cases;
mod validate_mixed_float;
mod validate_operand_types;
mod validate_props;
mod validate_regions;
mod validate_send_messages;
mod validate_sources_send;
mod visa_df;
mod visa_example;
mod visa_exec;
mod visa_format;
mod visa_gather;
mod visa_inst;
mod visa_kernel;
mod visa_operand;
mod visa_props;
