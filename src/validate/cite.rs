//! Where the rules come from: the documentation each rule cites.

/// Opcode table.
pub const OPCODES: &str = "PRM Vol 2a, opcode encoding table";
/// Instruction format.
pub const FORMAT: &str = "PRM Vol 2a, native instruction format (field widths)";
/// Conditional modifiers.
pub const COND_MOD: &str = "PRM Vol 7, Conditional Modifier encoding";
/// Extended math.
pub const MATH: &str = "PRM Vol 2a, MATH: Extended Math Function";
/// 3-source instructions.
pub const THREE_SRC: &str = "PRM Vol 2a, 3-source instruction format (align16 only)";
/// 3-source opcode data types.
pub const THREE_SRC_TYPES: &str = "PRM Vol 2a, MAD/LRP/MADM/BFE: supported data types";
/// Type encodings.
pub const TYPES: &str = "PRM Vol 7, register and immediate type encodings";
/// vISA operand rule: constants are sources only.
pub const VISA_OPERANDS: &str = "vISA operands: a constant operand is never a destination";
/// vISA region rule 1.
pub const VISA_REGION_1: &str = "vISA Region Restrictions rule 1: Width in {1,2,4,8,16}";
/// vISA region rule 2.
pub const VISA_REGION_2: &str = "vISA Region Restrictions rule 2: VertStride in {0,1,2,4,8,16,32}";
/// vISA region rule 3.
pub const VISA_REGION_3: &str = "vISA Region Restrictions rule 3: HorzStride in {0,1,2,4}";
/// vISA region rule 5.
pub const VISA_REGION_5: &str =
    "PRM Vol 7, 3.3.9.2 General Restrictions on Regioning Parameters; vISA rule 5: Dst.HorzStride != 0";
/// Indirect addressing.
pub const INDIRECT: &str = "PRM Vol 7, Register-Indirect Addressing; vISA additional rule 1 (multi-address)";
/// The register file.
pub const GRF_FILE: &str = "PRM Vol 7, General Register File: g0-g127; vISA rule 6";
/// Null sources.
pub const MESA_NULL: &str = "Mesa's validator refuses a null source; the PRM describes the null register \
     as a destination whose writes are dropped and gives no value for a read";
/// Immediates.
pub const IMMEDIATES: &str = "PRM Vol 2a, instruction format: the immediate occupies the last source";
/// SEND.
pub const SEND: &str = "PRM Vol 2a, SEND: src0 is a directly addressed GRF payload";
/// SEND with EOT.
pub const SEND_EOT: &str = "PRM Vol 2a, SEND: with EOT the payload comes from g112-g127";
/// SEND r127 rule.
pub const SEND_R127: &str = "BDW PRM Vol 2a, SEND: r127 is not a return register when source and destination overlap";
/// Message descriptor.
pub const SEND_DESC: &str = "PRM Vol 2a, Message Descriptor: Message Length 1-15, Response Length 0-16";
/// Data port message types.
pub const DP_MSG_TYPE: &str = "IVB PRM Vol 4 Part 1, HSW/BDW PRM Vol 7, Data Port message types: each of \
     the render cache, data cache and data cache 1 lists its message types (descriptor bits 17:14, \
     Gen8 18:14) and the others are reserved; from Haswell the typed and untyped surface messages are \
     data cache 1's";
/// Surface read response lengths.
pub const SURFACE_READ_RLEN: &str = "PRM Vol 7, Typed/Untyped Surface Read: the writeback is one GRF per \
     enabled channel for eight slots (SIMD16: two; SIMD4x2: one in all), as Mesa's \
     brw_surface_payload_size computes it";
/// URB messages.
pub const URB: &str = "PRM Vol 7, URB messages: header and opcodes per generation";
/// Operand-type restrictions.
pub const OPERAND_TYPES: &str = "PRM Vol 7, Register Region Restrictions: General Restrictions Based on Operand Types";
/// BDW MOV conversions.
pub const MOV_BDW: &str = "BDW PRM Vol 2a, MOV: no direct conversion between B/UB or HF and 64-bit types; \
     applied, as Mesa does, to the implicit conversions of every opcode and to Ivy Bridge/Haswell DF";
/// Integer/half-float conversions.
pub const HF_CONVERSION: &str =
    "BDW PRM Vol 7: integer <-> HF conversion is dword aligned and dword strided on the destination";
/// CHV word destinations.
pub const HF_WORD_CHV: &str = "CHV PRM Vol 7: relaxed word-destination alignment (all even or all odd words)";
/// Align16.
pub const ALIGN16: &str = "PRM Vol 7, Align16 access mode: Dst.HorzStride 1, VertStride 0 or 4 (HSW+: 2)";
/// General regioning restrictions.
pub const REGION_PARAMS: &str = "PRM Vol 7, 3.3.9.2 General Restrictions on Regioning Parameters";
/// Region alignment rules.
pub const REGION_ALIGN: &str = "PRM Vol 7, Region Alignment Rules for Direct Register Addressing";
/// Gen7 region alignment rules.
pub const REGION_ALIGN_GEN7: &str =
    "IVB/HSW PRM, Region Alignment Rules: destination and source both spanning two registers";
/// Mixed float.
pub const MIXED: &str = "SKL PRM Vol 7, Special Restrictions for Handling Mixed Mode Float Operations; \
     borrowed for Broadwell and Cherryview as Mesa does (the Gen8 documents state no such rule)";
/// Vector immediates.
pub const VECTOR_IMM: &str =
    "PRM Vol 7, Immediate vectors: destination 128-bit aligned, word (V/UV) or dword (VF) stride";
/// CHV 64-bit.
pub const DOUBLE_CHV: &str = "CHV PRM Vol 7, Special Requirements for Handling Double Precision Data Types";
/// BDW 64-bit align16.
pub const DOUBLE_BDW: &str = "BDW PRM Vol 7, Special Requirements for Handling Double Precision Data Types (align16)";
/// CMP.
pub const CMP: &str = "IVB PRM Vol 4 Part 3 / HSW PRM Vol 2b, CMP: destination and condition";
/// SEL.
pub const SEL: &str = "PRM Vol 2a, SEL: predicated or conditional, not both";
/// MUL.
pub const MUL: &str = "PRM Vol 2a, MUL: dword operands";
/// MUL accumulator sources before Gen8.
pub const MUL_ACC_GEN7: &str = "IVB PRM Vol 4 Part 3, MUL: source operands cannot be an accumulator";
/// MUL float destination on HSW.
pub const MUL_HSW: &str = "HSW PRM Vol 2b, MUL: no float destination with a dword source";
/// Gen8 accumulator rules.
pub const ACC_BDW: &str = "BDW PRM Vol 7, Accumulator Restrictions: integer sources cannot be accumulators";
/// Logic instructions.
pub const LOGIC: &str = "BDW PRM Vol 2a, AND/OR/XOR/NOT: source modifiers and conditions";
/// Abs on logic instructions.
pub const LOGIC_ABS: &str = "BDW PRM Vol 2a, AND/OR/XOR/NOT define negate as bitwise NOT and give abs no \
     meaning; refused to be safe, as Mesa does";
/// VxH at execution size 1.
pub const VXH_SCALAR: &str = "PRM Vol 7, 3.3.9.2 (ExecSize = Width = 1 needs <0;1,0>) speaks of direct \
     strides; VxH has none, but Mesa's validator reads encoding 15 as a stride and refuses it";
/// SEND payload rows.
pub const SEND_PAYLOAD_ROWS: &str = "PRM Vol 7, 3.3.9.2 (VertStride must be used to cross GRF boundaries) \
     concerns regioned reads; a SEND payload is read as whole registers, but Mesa applies the rule to it";
/// Even split on Gen7 with sources in one register.
pub const EVEN_SPLIT_GEN7: &str = "IVB/HSW PRM state the even destination split only with a source \
     spanning two registers; BDW PRM states it always, and Mesa assumes the older text forgot the case";
/// The packed-word exception on src1.
pub const PACKED_WORD_SRC1: &str = "IVB/HSW PRM, Region Alignment Rules: the packed-word exception names no \
     source, but HSW notes src1's subregister is not incremented with the lower 8 channels disabled; \
     Mesa allows it on src0 only to play it safe";
/// MUL accumulator sources on Haswell.
pub const MUL_ACC_HSW: &str = "IVB PRM Vol 4 Part 3, MUL: source operands cannot be an accumulator; \
     Haswell's MUL page drops the sentence, and Mesa assumes Haswell keeps it";
/// BFI2.
pub const BFI2: &str = "PRM Vol 2a, BFI2";
/// CSEL.
pub const CSEL: &str = "BDW PRM Vol 2a, CSEL";
/// IVB align16 limits.
pub const IVB_ALIGN16: &str = "IVB PRM: in align16, no SIMD16 for dword operations and no SIMD8 for DF";
/// Shared function IDs.
pub const SFID: &str = "PRM Vol 2a, SEND: SFID encodings (1, 14 and 15 reserved; 12 and 13 from Haswell)";
/// The descriptor operand.
pub const SEND_DESC_OPERAND: &str =
    "PRM Vol 2a, SEND: the message descriptor is an immediate or the address register a0.0";
/// Gen7 MATH operands.
pub const MATH_GEN7: &str = "IVB/HSW PRM Vol 2a, MATH: operands are directly addressed GRFs";
/// JMPI.
pub const JMPI: &str = "PRM Vol 2a, JMPI: SIMD1, NoMask, ip as src0 and a :d distance in src1 \
     (Intel's decoder enforces it; Mesa's brw_JMPI emits it)";
/// BRD and BRC.
pub const BRD_BRC: &str = "PRM Vol 2a, BRD/BRC: the destination is the null register";
/// BRD and BRC with their offsets in a register.
pub const BRD_BRC_REGISTER: &str = "PRM Vol 2a, BRD/BRC: the offsets come from src0 when it is a register \
     (IGA's forms: brd reg32, brc reg64, a GRF); other files, types and modifiers refused to be safe";
/// CALL and CALLA.
pub const CALL: &str = "PRM Vol 2a, CALL/CALLA: src0 is :ud dwords (<2;2,1>) without modifiers";
/// WAIT.
pub const WAIT: &str = "PRM Vol 2a, WAIT: src0 is a scalar notification register";
/// Branches.
pub const BRANCH: &str = "BDW PRM Vol 2a, branch instructions: JIP/UIP in bytes, on instruction boundaries";
/// The channel offset against the execution size.
pub const CHANNEL_OFFSET: &str = "Intel's decoder (GED's Gen7 and Gen8 models) refuses a channel offset \
     (quarter and nibble control) that is not a multiple of the execution size; the IVB/HSW/BDW PRMs \
     name the groups per execution size (1H/2H for SIMD16) without stating the rule, which Mesa's \
     validator states from Gen12 on; applied to SIMD16 and SIMD32 only (Mesa emits SIMD8 with NibCtrl), \
     and to Ivy Bridge 64-bit operations in their DF channels (Mesa's SIMD16 DF halves at 2Q)";
/// Descriptor bits 30:29.
pub const SEND_DESC_30_29: &str = "Intel's decoder (GED's IVB, HSW and BDW models) and Mesa \
     (elk_inst_send_desc reads bits 124:96) take the immediate descriptor as bits 28:0, bits 30:29 \
     as zero; Mesa's Gen8 sampler descriptor puts its return format in bit 30, which Mesa never emits \
     on Broadwell; not Cherryview, whose sampler uses bit 29";
