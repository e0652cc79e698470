//! The rule registry: each rule with its identifier, phase, category,
//! basis and citation, in the order they run, and the gates that skip
//! blocks of rules that cannot report.

use super::*;

/// A rule: inspects the instruction and reports what it breaks.
pub type Rule = fn(&mut Checker<'_>);

/// The phase a rule runs in (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Phase {
    /// The opcode exists; nothing else runs if it does not.
    Opcode,
    /// Field values are encodable; the restrictions run only if they are.
    Encoding,
    /// The restrictions proper.
    Restriction,
}

impl Phase {
    /// The snake_case name reports print (`check --list-rules`).
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Opcode => "opcode",
            Phase::Encoding => "encoding",
            Phase::Restriction => "restriction",
        }
    }
}

/// What a rule restricts, for selecting a family of rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// Field encodings and ranges.
    Encoding,
    /// Null, immediate and register-file rules for sources.
    Sources,
    /// Operand types: strides, alignment and conversions.
    OperandTypes,
    /// Register regions: the `validate_reg` rules and region alignment.
    Region,
    /// Mixed float and half-float.
    MixedFloat,
    /// Vector immediates.
    VectorImmediate,
    /// 64-bit types (and Cherryview's integer dword multiply).
    Double,
    /// SEND and SENDC.
    Send,
    /// Rules of one instruction: CMP, SEL, MUL, logic, BFI2, CSEL, MATH, branches.
    Instruction,
}

impl Category {
    /// The snake_case name reports print (`check --list-rules`).
    pub const fn name(self) -> &'static str {
        match self {
            Category::Encoding => "encoding",
            Category::Sources => "sources",
            Category::OperandTypes => "operand_types",
            Category::Region => "region",
            Category::MixedFloat => "mixed_float",
            Category::VectorImmediate => "vector_immediate",
            Category::Double => "double",
            Category::Send => "send",
            Category::Instruction => "instruction",
        }
    }
}

/// A rule with its identifier and origin.
#[derive(Debug)]
#[non_exhaustive]
pub struct RuleInfo {
    /// Stable identifier, the name of the rule function.
    pub id: &'static str,
    /// What the rule stands on.
    pub basis: Basis,
    /// The PRM section or vISA rule it comes from; for a conservative
    /// rule, also why it is stricter than the documentation.
    pub source: &'static str,
    /// When it runs.
    pub phase: Phase,
    /// Its family.
    pub category: Category,
    /// The check.
    pub check: Rule,
}

macro_rules! rules {
    ($( $phase:ident { $( $gate:ident { $( $cat:ident $m:ident :: $f:ident => $basis:ident ($src:expr), )* } )* } )*) => {
        /// The description of every rule, by identifier.
        #[allow(non_upper_case_globals)]
        pub mod info {
            use super::*;
            $( $( $(
                #[doc = concat!("The `", stringify!($f), "` rule.")]
                pub static $f: RuleInfo = RuleInfo {
                    id: stringify!($f),
                    basis: Basis::$basis,
                    source: $src,
                    phase: Phase::$phase,
                    category: Category::$cat,
                    check: $m::$f,
                };
            )* )* )*
        }

        /// Rule indices in [`RULES`] (a one-byte store marks the running rule).
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy)]
        #[repr(u8)]
        pub(super) enum RuleNo {
            $( $( $( $f, )* )* )*
        }

        /// Every rule, in the order they run ([`list_rules`] iterates them).
        pub static RULES: &[&RuleInfo] = &[ $( $( $( &info::$f, )* )* )* ];

        /// Runs the rules of one phase; a block of rules is skipped when
        /// its gate says none of them can report.
        #[inline(always)]
        pub(super) fn run_phase(c: &mut Checker<'_>, phase: Phase) {
            $(
                if phase == Phase::$phase {
                    $(
                        if gate::$gate(c) {
                            $( c.run(RuleNo::$f as u8, $m::$f); )*
                        }
                    )*
                }
            )*
        }
    };
}

/// Cheap tests that skip blocks of rules. Each gate is implied by every
/// rule of its block: when a gate is false, no rule of the block reports.
/// [`validate_category`] runs rules without gates, so a gate never
/// changes a verdict.
pub(super) mod gate {
    use super::*;

    #[inline(always)]
    pub(crate) fn always(_: &Checker<'_>) -> bool {
        true
    }

    /// The region encoding rules: some field holds a value they refuse.
    #[inline(always)]
    pub(crate) fn region_encoding(c: &Checker<'_>) -> bool {
        c.flags & F_REGION_ENC != 0
    }

    #[inline(always)]
    pub(crate) fn indirect(c: &Checker<'_>) -> bool {
        c.flags & F_INDIRECT != 0
    }

    /// Align1 register regions with some indirect operand.
    #[inline(always)]
    pub(crate) fn align1_indirect(c: &Checker<'_>) -> bool {
        align1_regions(c) && indirect(c)
    }

    #[inline(always)]
    pub(crate) fn three_src(c: &Checker<'_>) -> bool {
        c.three_src()
    }

    #[inline(always)]
    pub(crate) fn not_three_src(c: &Checker<'_>) -> bool {
        !c.three_src()
    }

    #[inline(always)]
    pub(crate) fn send(c: &Checker<'_>) -> bool {
        c.is_send()
    }

    #[inline(always)]
    pub(crate) fn operand_types(c: &Checker<'_>) -> bool {
        c.flags & F_OT_APPLIES != 0
    }

    #[inline(always)]
    pub(crate) fn align16(c: &Checker<'_>) -> bool {
        c.align16()
    }

    /// Align1, not 3-source: the region rules on align1 sources and the
    /// destination.
    #[inline(always)]
    pub(crate) fn align1_regions(c: &Checker<'_>) -> bool {
        !c.align16() && !c.three_src()
    }

    /// The region alignment rules (align1, not SEND or 3-source).
    #[inline(always)]
    pub(crate) fn alignment(c: &Checker<'_>) -> bool {
        !c.align16() && !c.three_src() && !c.is_send()
    }

    #[inline(always)]
    pub(crate) fn mixed_float(c: &Checker<'_>) -> bool {
        c.mixed_float()
    }

    /// A vector immediate can only be the last source of a 1- or 2-source
    /// instruction.
    #[inline(always)]
    pub(crate) fn imm_src(c: &Checker<'_>) -> bool {
        !c.three_src() && (c.i.src[0].is_imm() || c.i.src[1].is_imm())
    }

    #[inline(always)]
    pub(crate) fn chv(c: &Checker<'_>) -> bool {
        c.p == Platform::Chv
    }

    #[inline(always)]
    pub(crate) fn gen8_align16(c: &Checker<'_>) -> bool {
        c.p.is_gen8() && c.align16()
    }

    #[inline(always)]
    pub(crate) fn cmp(c: &Checker<'_>) -> bool {
        c.i.opcode.is_compare()
    }

    #[inline(always)]
    pub(crate) fn mul(c: &Checker<'_>) -> bool {
        c.i.opcode == Opcode::Mul
    }

    #[inline(always)]
    pub(crate) fn logic(c: &Checker<'_>) -> bool {
        c.i.opcode.is_logic()
    }

    #[inline(always)]
    pub(crate) fn bfi2(c: &Checker<'_>) -> bool {
        c.i.opcode == Opcode::Bfi2
    }

    #[inline(always)]
    pub(crate) fn csel(c: &Checker<'_>) -> bool {
        c.i.opcode == Opcode::Csel
    }

    #[inline(always)]
    pub(crate) fn math(c: &Checker<'_>) -> bool {
        c.i.opcode == Opcode::Math
    }

    /// JMPI, BRD, BRC, CALL, CALLA, WAIT.
    #[inline(always)]
    pub(crate) fn flow(c: &Checker<'_>) -> bool {
        matches!(
            c.i.opcode.form(),
            Form::Jump | Form::BranchDiverging | Form::BranchConverging | Form::Call | Form::Wait
        )
    }
}

rules! {
    Opcode {
        always {
            Encoding encoding::opcode_exists => Documented(cite::OPCODES),
        }
    }
    Encoding {
        always {
            Encoding encoding::control_fields_in_range => Documented(cite::FORMAT),
            Encoding encoding::cond_modifier_valid => Documented(cite::COND_MOD),
            Encoding encoding::math_function_valid => Documented(cite::MATH),
            Encoding encoding::three_src_align16_only => Documented(cite::THREE_SRC),
            Encoding encoding::dst_not_immediate => Documented(cite::VISA_OPERANDS),
            Encoding encoding::reg_type_encoding_valid => Documented(cite::TYPES),
        }
        three_src {
            Encoding encoding::three_src_type_encoding_valid => Documented(cite::THREE_SRC),
            Encoding encoding::three_src_operands_grf_direct => Documented(cite::THREE_SRC),
            Encoding encoding::three_src_region_valid => Documented(cite::THREE_SRC),
        }
        region_encoding {
            Encoding encoding::width_encoding_valid => Documented(cite::VISA_REGION_1),
            Encoding encoding::vstride_encoding_valid => Documented(cite::VISA_REGION_2),
            Encoding encoding::hstride_encoding_valid => Documented(cite::VISA_REGION_3),
            Encoding encoding::vxh_only_indirect_align1 => Documented(cite::INDIRECT),
        }
        always {
            Encoding encoding::subreg_in_range => Documented(cite::FORMAT),
        }
        indirect {
            Encoding encoding::indirect_address_in_range => Documented(cite::INDIRECT),
        }
        always {
            Encoding encoding::grf_number_in_range => Documented(cite::GRF_FILE),
        }
    }
    Restriction {
        always {
            Encoding encoding::channel_offset_fits_exec_size => Conservative(cite::CHANNEL_OFFSET),
        }
        not_three_src {
            Sources sources::src0_not_null => Conservative(cite::MESA_NULL),
            Sources sources::src1_not_null => Conservative(cite::MESA_NULL),
            Sources sources::imm_only_last_source => Documented(cite::IMMEDIATES),
            Sources sources::imm64_only_single_source => Documented(cite::IMMEDIATES),
        }
        send {
            Send send::send_sfid_defined => Documented(cite::SFID),
            Send send::send_desc_imm_or_a0 => Documented(cite::SEND_DESC_OPERAND),
            Send send::send_src0_direct => Documented(cite::SEND),
            Send send::send_src0_grf => Documented(cite::SEND),
            Send send::send_eot_src_g112_g127 => Documented(cite::SEND_EOT),
            Send send::send_dst_src_overlap_r127 => Documented(cite::SEND_R127),
            Send send::send_desc_bits_30_29_zero => Conservative(cite::SEND_DESC_30_29),
            Send send::send_mlen_range => Documented(cite::SEND_DESC),
            Send send::send_rlen_range => Documented(cite::SEND_DESC),
            Send send::send_payload_in_grf_range => Documented(cite::SEND_DESC),
            Send send::send_response_in_grf_range => Documented(cite::SEND_DESC),
            Send send::send_msg_type_defined => Documented(cite::DP_MSG_TYPE),
            Send send::send_surface_read_rlen => Documented(cite::SURFACE_READ_RLEN),
        }
        operand_types {
            OperandTypes operand_types::packed_byte_dst_raw_mov => Documented(cite::OPERAND_TYPES),
            OperandTypes operand_types::no_byte_64bit_conversion => Conservative(cite::MOV_BDW),
            OperandTypes operand_types::no_hf_64bit_conversion => Conservative(cite::MOV_BDW),
            OperandTypes operand_types::int_hf_conversion_dst_dword => Documented(cite::HF_CONVERSION),
            OperandTypes operand_types::chv_hf_dst_word_placement => Documented(cite::HF_WORD_CHV),
            OperandTypes operand_types::dst_stride_matches_exec_type_ratio => Documented(cite::OPERAND_TYPES),
            OperandTypes operand_types::dst_subreg_aligned_to_exec_type => Documented(cite::OPERAND_TYPES),
        }
        align16 {
            Region regions::align16_dst_hstride_one => Documented(cite::ALIGN16),
            Region regions::align16_src_vstride => Documented(cite::ALIGN16),
        }
        align1_regions {
            Region regions::exec_size_ge_width => Documented(cite::REGION_PARAMS),
            Region regions::width_eq_exec_implies_vstride => Documented(cite::REGION_PARAMS),
            Region regions::width_one_implies_hstride_zero => Documented(cite::REGION_PARAMS),
            Region regions::scalar_region => Documented(cite::REGION_PARAMS),
            Region regions::scalar_region_vxh => Conservative(cite::VXH_SCALAR),
            Region regions::zero_strides_imply_width_one => Documented(cite::REGION_PARAMS),
            Region regions::row_within_grf => Documented(cite::REGION_PARAMS),
            Region regions::send_payload_row_within_grf => Conservative(cite::SEND_PAYLOAD_ROWS),
            Region regions::dst_hstride_nonzero => Documented(cite::VISA_REGION_5),
        }
        align1_indirect {
            Region regions::vxh_addresses_in_a0 => Documented(cite::INDIRECT),
        }
        alignment {
            Region regions::src_spans_at_most_two_grfs => Documented(cite::REGION_ALIGN),
            Region regions::dst_spans_at_most_two_grfs => Documented(cite::REGION_ALIGN),
            Region regions::dst_one_reg_src_two_regs_oword_split => Documented(cite::REGION_ALIGN),
            Region regions::dst_two_regs_evenly_split => Documented(cite::REGION_ALIGN),
            Region regions::gen7_dst_two_regs_evenly_split_one_reg_srcs => Conservative(cite::EVEN_SPLIT_GEN7),
            Region regions::gen7_dst_reg_from_one_src_reg => Documented(cite::REGION_ALIGN_GEN7),
            Region regions::gen7_two_src_regs_same_offset => Documented(cite::REGION_ALIGN_GEN7),
            Region regions::gen7_dst_two_regs_src_two_regs => Documented(cite::REGION_ALIGN_GEN7),
            Region regions::gen7_packed_word_exception_src0_only => Conservative(cite::PACKED_WORD_SRC1),
        }
        mixed_float {
            MixedFloat mixed_float::mixed_float_no_indirect_src => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_f_dst_max_simd8 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a16_packed_vstride4 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a16_max_simd8 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a16_no_acc_src => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a1_packed_hf_dst_max_simd8 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_a1_math_hf_src_strided => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_packed_hf_dst_oword => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_packed_hf_dst_acc_offset0 => Conservative(cite::MIXED),
            MixedFloat mixed_float::mixed_float_hf_dst_acc_needs_stride2 => Conservative(cite::MIXED),
        }
        imm_src {
            VectorImmediate vector_imm::vector_imm_dst_oword_aligned => Documented(cite::VECTOR_IMM),
            VectorImmediate vector_imm::vf_dst_dword_stride => Documented(cite::VECTOR_IMM),
            VectorImmediate vector_imm::v_uv_dst_word_stride => Documented(cite::VECTOR_IMM),
        }
        chv {
            Double double::chv_64bit_align1_stride_qword_equal => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_vstride_eq_width_hstride => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_same_offset => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_no_indirect => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_no_arf => Documented(cite::DOUBLE_CHV),
            Double double::chv_64bit_no_depctrl => Documented(cite::DOUBLE_CHV),
        }
        gen8_align16 {
            Double double::gen8_align16_qword_dst_nonqword_src_max_exec2 => Documented(cite::DOUBLE_BDW),
        }
        cmp {
            Instruction instruction::cmp_requires_cond_mod => Documented(cite::CMP),
            Instruction instruction::gen7_cmp_dst_not_arf => Documented(cite::CMP),
            Instruction instruction::gen7_cmp_null_dst_requires_switch => Documented(cite::CMP),
        }
        always {
            Instruction instruction::sel_pred_xor_cond_mod => Documented(cite::SEL),
        }
        mul {
            Instruction instruction::mul_dword_operand_on_src0 => Documented(cite::MUL),
            Instruction instruction::gen7_mul_no_acc_source => Documented(cite::MUL_ACC_GEN7),
            Instruction instruction::hsw_mul_no_acc_source => Conservative(cite::MUL_ACC_HSW),
            Instruction instruction::gen8_mul_no_int_acc_source => Documented(cite::ACC_BDW),
            Instruction instruction::gen7_mul_dword_src_no_float_dst => Documented(cite::MUL_HSW),
            Instruction instruction::gen8_mul_dwxdw_dst_not_acc => Documented(cite::MUL),
            Instruction instruction::mul_dword_no_sat_no_cond_mod => Documented(cite::MUL),
        }
        logic {
            Instruction instruction::gen8_logic_no_abs => Conservative(cite::LOGIC_ABS),
            Instruction instruction::gen8_logic_no_src_mod_on_acc => Documented(cite::LOGIC),
            Instruction instruction::logic_no_o_r_u_cond_mod => Documented(cite::LOGIC),
        }
        bfi2 {
            Instruction instruction::bfi2_no_cond_mod_or_saturate => Documented(cite::BFI2),
            Instruction instruction::bfi2_types => Documented(cite::BFI2),
        }
        csel {
            Instruction instruction::csel_not_predicated => Documented(cite::CSEL),
            Instruction instruction::csel_requires_cond_mod => Documented(cite::CSEL),
            Instruction instruction::csel_types => Documented(cite::CSEL),
        }
        three_src {
            Instruction instruction::three_src_opcode_types => Documented(cite::THREE_SRC_TYPES),
            Instruction instruction::ivb_three_src_max_one_grf => Documented(cite::IVB_ALIGN16),
        }
        math {
            Instruction instruction::gen7_math_operands_direct_grf => Documented(cite::MATH_GEN7),
            Instruction instruction::math_int_div_no_src_mods => Documented(cite::MATH),
            Instruction instruction::math_operand_types => Documented(cite::MATH),
        }
        always {
            Instruction instruction::gen8_branch_offset_aligned => Documented(cite::BRANCH),
        }
        flow {
            Instruction flow::jmpi_simd1_nomask => Documented(cite::JMPI),
            Instruction flow::jmpi_operands => Documented(cite::JMPI),
            Instruction flow::brd_brc_dst_null => Documented(cite::BRD_BRC),
            Instruction flow::brd_brc_src0_register => Conservative(cite::BRD_BRC_REGISTER),
            Instruction flow::call_src0_two_dwords => Documented(cite::CALL),
            Instruction flow::wait_src0_scalar => Documented(cite::WAIT),
        }
        send {
            Send send::send_urb_header_present => Documented(cite::URB),
            Send send::send_urb_opcode_valid => Documented(cite::URB),
        }
    }
}

/// Every rule in the order they run, with its identifier, [`Basis`] and
/// citation: what `geneu check --list-rules` prints.
pub fn list_rules() -> impl ExactSizeIterator<Item = &'static RuleInfo> {
    RULES.iter().copied()
}

/// The rule with this identifier.
pub fn find_rule(id: &str) -> Option<&'static RuleInfo> {
    list_rules().find(|r| r.id == id)
}
