//! vISA lowering, semantically: random vISA instructions are lowered and
//! run in the simulator, and every variable's bytes are compared with
//! `semantic_common::visa_ref`, a reference evaluator written from the vISA
//! specification. The reference itself is first checked against examples
//! worked by hand from the specification's pseudo-code.
#![cfg(feature = "check")]

use crate::semantic_common;

use geneu::visa::*;
use geneu::{ExecSize, FlagReg};
use semantic_common::visa_ref::{eval, RefState, Undefined};

fn ud_var(vars: &mut VarTable, n: u32, byte: u32) -> u32 {
    vars.add_general(VisaType::UD, n, byte)
}

fn ud_bytes(vals: impl IntoIterator<Item = u32>) -> Vec<u8> {
    vals.into_iter().flat_map(u32::to_le_bytes).collect()
}

fn uds(b: &[u8]) -> Vec<u32> {
    b.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn exec(n: u32, m: u8, nm: bool) -> ExecCtl {
    ExecCtl {
        size: ExecSize::from_channels(n).unwrap(),
        mask: MaskCtl::m(m, nm).unwrap(),
    }
}

fn src(id: u32, row: u8, col: u8, v: Option<u32>, w: u32, h: u32) -> VecOperand {
    VecOperand::general(id, row, col, VisaRegion::new(v, w, h).unwrap())
}

fn dst(id: u32, row: u8, col: u8, h: u32) -> VecOperand {
    VecOperand::general_dst(id, row, col, h).unwrap()
}

/// Two UD variables of 32 elements: V0 holds 0..32 (times 10), V1 zeros.
fn two_vars() -> (VarTable, RefState) {
    let mut vars = VarTable::new();
    ud_var(&mut vars, 32, 0);
    ud_var(&mut vars, 32, 4 * 32);
    vars.add_predicate(32, FlagReg { nr: 0, subnr: 0 });
    let mut st = RefState::zeroed(&vars);
    st.vars[0] = ud_bytes((0..32).map(|k| 10 * k));
    (vars, st)
}

/// The specification's source pseudo-code: `<8;4,2>` over 8 channels
/// reads elements 0,2,4,6 then 8,10,12,14; the origin `(1,2)` starts at
/// element 8 + 2 (a row is a GRF: eight UDs).
#[test]
fn a_source_region_reads_the_elements_of_the_pseudo_code() {
    let (vars, mut st) = two_vars();
    let i = VisaInst::new(
        VisaOp::Mov,
        exec(8, 1, false),
        dst(1, 0, 0, 1),
        &[src(0, 1, 2, Some(8), 4, 2)],
    );
    eval(&vars, &mut st, &i).unwrap();
    let got = uds(&st.vars[1]);
    assert_eq!(&got[..8], &[100, 120, 140, 160, 180, 200, 220, 240]);
    assert!(got[8..].iter().all(|&v| v == 0));
}

/// A destination `<2>` writes every other element; the origin column counts elements.
#[test]
fn a_destination_stride_skips_elements() {
    let (vars, mut st) = two_vars();
    let i = VisaInst::new(
        VisaOp::Mov,
        exec(4, 1, false),
        dst(1, 0, 1, 2),
        &[src(0, 0, 0, Some(1), 1, 0)],
    );
    eval(&vars, &mut st, &i).unwrap();
    // <1;1,0>: channel c reads element c.
    assert_eq!(&uds(&st.vars[1])[..9], &[0, 0, 0, 10, 0, 20, 0, 30, 0]);
}

/// M2 starts at channel 4 of both the execution mask and the predicate:
/// channel n is enabled by EM[n + 4] and Pred[n + 4].
#[test]
fn the_mask_offset_selects_execution_mask_and_predicate_bits() {
    let (vars, mut st) = two_vars();
    st.em = 0b1111_0110_0000; // channels 5, 6, 8..11
    st.preds[0] = 0b1010_1100_0000; // bits 6, 7, 9, 11
    let i = VisaInst::new(
        VisaOp::Mov,
        exec(4, 2, false),
        dst(1, 0, 0, 1),
        &[src(0, 0, 0, Some(1), 1, 0)],
    )
    .with_pred(PredCtl::new(1));
    eval(&vars, &mut st, &i).unwrap();
    // Channel n (0..4) sees EM bit n+4 and predicate bit n+4: only n = 2 (bit 6).
    assert_eq!(&uds(&st.vars[1])[..4], &[0, 0, 20, 0]);

    // NoMask ignores EM, not the predicate: n = 2 and 3 (bits 6, 7).
    let (vars, mut st2) = two_vars();
    st2.em = 0;
    st2.preds[0] = 0b1100_0000;
    let i = VisaInst::new(
        VisaOp::Mov,
        exec(4, 2, true),
        dst(1, 0, 0, 1),
        &[src(0, 0, 0, Some(1), 1, 0)],
    )
    .with_pred(PredCtl::new(1));
    eval(&vars, &mut st2, &i).unwrap();
    assert_eq!(&uds(&st2.vars[1])[..4], &[0, 0, 20, 30]);
}

/// any/all combine the channels' predicate bits first, then the inverse applies.
#[test]
fn any_and_all_combine_before_the_inverse() {
    let cases = [
        (PredCombine::Any, false, 0b0100u32, true),
        (PredCombine::Any, true, 0b0100, false),
        (PredCombine::All, false, 0b0111, false),
        (PredCombine::All, false, 0b1111, true),
        (PredCombine::All, true, 0b0111, true),
        (PredCombine::Any, true, 0, true),
    ];
    for (combine, inverse, bits, on) in cases {
        let (vars, mut st) = two_vars();
        st.preds[0] = bits << 8 | 0xff; // M3: channels read bits 8..12
        let pc = PredCtl {
            id: 1,
            combine,
            inverse,
        };
        let i = VisaInst::new(
            VisaOp::Mov,
            exec(4, 3, false),
            dst(1, 0, 0, 1),
            &[src(0, 0, 0, Some(1), 1, 0)],
        )
        .with_pred(pc);
        eval(&vars, &mut st, &i).unwrap();
        let want = if on { vec![0, 10, 20, 30] } else { vec![0; 4] };
        assert_eq!(&uds(&st.vars[1])[..4], &want[..], "{pc:?} bits {bits:#b}");
    }
}

/// A multi-address indirect source takes each row's origin from the next
/// address element; a single-address one the whole region from one.
#[test]
fn indirect_sources_take_row_origins_from_the_address_elements() {
    let (mut vars, _) = two_vars();
    vars.add_address(4, 0);
    let mut st = RefState::zeroed(&vars);
    st.vars[0] = ud_bytes((0..32).map(|k| 10 * k));
    // Byte addresses of V0's elements 3, 20, 7, 9.
    st.addr[0] = vec![12, 80, 28, 36];
    let ind = |v: Option<u32>, w: u32, h: u32, off: i16| {
        VecOperand::from(OperandKind::Indirect(IndirectOperand {
            addr: 0,
            addr_offset: 1,
            offset: off,
            ty: VisaType::UD,
            region: VisaRegion::new(v, w, h).unwrap(),
        }))
    };
    // Multi-address <;2,1> from element 1 on: rows at 80+4, 28+4, 36+4.
    let i = VisaInst::new(VisaOp::Mov, exec(4, 1, false), dst(1, 0, 0, 1), &[ind(None, 2, 1, 4)]);
    eval(&vars, &mut st, &i).unwrap();
    assert_eq!(&uds(&st.vars[1])[..4], &[210, 220, 80, 90]);
    // Single-address <4;2,2>: origin 80 - 8 (element 18), then +2 per column, +4 per row.
    let i = VisaInst::new(
        VisaOp::Mov,
        exec(4, 1, false),
        dst(1, 0, 0, 1),
        &[ind(Some(4), 2, 2, -8)],
    );
    eval(&vars, &mut st, &i).unwrap();
    assert_eq!(&uds(&st.vars[1])[..4], &[180, 200, 220, 240]);
}

/// Mixed types: W sources add exactly (no 16-bit wrap) and saturate into UB.
#[test]
fn mixed_types_add_exactly_and_saturate_to_the_destination() {
    let mut vars = VarTable::new();
    vars.add_general(VisaType::W, 16, 0);
    vars.add_general(VisaType::UB, 16, 32);
    vars.add_general(VisaType::D, 8, 64);
    let mut st = RefState::zeroed(&vars);
    let ws: [i16; 4] = [32767, -5, 100, 200];
    st.vars[0] = ws.iter().flat_map(|w| w.to_le_bytes()).chain([0; 24]).collect();
    let w = |c| src(0, 0, c, Some(1), 1, 0);
    // UB <- sat(W + W): 65534 -> 255, -10 -> 0, 200, 400 -> 255
    let mut d = dst(1, 0, 0, 1);
    d.modifier = Modifier::Sat;
    let i = VisaInst::new(VisaOp::Add, exec(4, 1, false), d, &[w(0), w(0)]);
    eval(&vars, &mut st, &i).unwrap();
    assert_eq!(&st.vars[1][..4], &[255, 0, 200, 255]);
    // D <- W + W: exact 65534.
    let i = VisaInst::new(VisaOp::Add, exec(4, 1, false), dst(2, 0, 0, 1), &[w(0), w(0)]);
    eval(&vars, &mut st, &i).unwrap();
    let ds: Vec<i32> = st.vars[2][..16]
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(ds, [65534, -10, 200, 400]);
    // UB <- W without saturation wraps: 0x7fff -> 0xff, -5 -> 0xfb.
    let i = VisaInst::new(VisaOp::Mov, exec(4, 1, false), dst(1, 0, 0, 1), &[w(0)]);
    eval(&vars, &mut st, &i).unwrap();
    assert_eq!(&st.vars[1][..4], &[0xff, 0xfb, 100, 200]);
}

/// Float: negate and abs modifiers, saturation to [0, 1], conversion to D
/// toward zero and clamped.
#[test]
fn float_modifiers_saturation_and_conversions() {
    let mut vars = VarTable::new();
    vars.add_general(VisaType::F, 8, 0);
    vars.add_general(VisaType::F, 8, 32);
    vars.add_general(VisaType::D, 8, 64);
    vars.add_general(VisaType::DF, 4, 96);
    let mut st = RefState::zeroed(&vars);
    let fs = [0.25f32, -2.5, 3e10, f32::NAN];
    st.vars[0] = fs.iter().flat_map(|f| f.to_le_bytes()).chain([0; 16]).collect();
    let f = src(0, 0, 0, Some(1), 1, 0);
    let mut sat = dst(1, 0, 0, 1);
    sat.modifier = Modifier::Sat;
    let i = VisaInst::new(VisaOp::Mov, exec(4, 1, false), sat, &[f.with_modifier(Modifier::Neg)]);
    eval(&vars, &mut st, &i).unwrap();
    let got: Vec<f32> = st.vars[1][..16]
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(got, [0.0, 1.0, 0.0, 0.0]);
    let i = VisaInst::new(
        VisaOp::Mov,
        exec(4, 1, false),
        dst(2, 0, 0, 1),
        &[f.with_modifier(Modifier::NegAbs)],
    );
    eval(&vars, &mut st, &i).unwrap();
    let ds: Vec<i32> = st.vars[2][..16]
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(ds, [0, -2, i32::MIN, 0]);
    // DF <- F + F is computed in F (both sources F), then widened.
    let i = VisaInst::new(VisaOp::Add, exec(4, 1, false), dst(3, 0, 0, 1), &[f, f]);
    eval(&vars, &mut st, &i).unwrap();
    let dfs: Vec<f64> = st.vars[3]
        .chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(dfs[..3], [0.5, -5.0, 6e10f32 as f64]);
    assert!(dfs[3].is_nan());
}

/// CMP writes the predicate's bits of the enabled channels only (at the
/// mask offset); into a general variable, all ones or zero.
#[test]
fn cmp_writes_predicate_bits_and_all_ones() {
    let (vars, mut st) = two_vars();
    st.preds[0] = 0xffff_0000;
    st.em = !0b0100_0000_0000_0000_0000; // channel 18 off
    let k = VisaOp::Cmp(RelOp::Gt);
    let imm = VecOperand::imm(Immediate::int(VisaType::UD, 175));
    // M5: channels 16..24, elements 0..8 of V0 (0..70) against 175 -> none,
    // so read row 2 (160..230): > 175 for 180.. (c >= 2).
    let i = VisaInst::new(
        k,
        exec(8, 5, false),
        VecOperand::pred(1),
        &[src(0, 2, 0, Some(1), 1, 0), imm],
    );
    eval(&vars, &mut st, &i).unwrap();
    // Bits 16, 17 cleared (160, 170), 18 kept (disabled), 19..24 set, 24.. untouched.
    assert_eq!(st.preds[0], 0xfffc_0000 | 0b0100 << 16);
    let i = VisaInst::new(
        k,
        exec(8, 1, true),
        dst(1, 0, 0, 1),
        &[src(0, 2, 0, Some(1), 1, 0), imm],
    );
    eval(&vars, &mut st, &i).unwrap();
    assert_eq!(&uds(&st.vars[1])[..8], &[0, 0, !0, !0, !0, !0, !0, !0]);
}

/// SEL reads its predicate as the choice of each enabled channel, not as enables.
#[test]
fn sel_chooses_by_the_predicate() {
    let (vars, mut st) = two_vars();
    st.preds[0] = 0b0101;
    let i = VisaInst::new(
        VisaOp::Sel,
        exec(4, 1, false),
        dst(1, 0, 0, 1),
        &[
            src(0, 0, 0, Some(1), 1, 0),
            VecOperand::imm(Immediate::int(VisaType::UD, 7)),
        ],
    )
    .with_pred(PredCtl::new(1));
    eval(&vars, &mut st, &i).unwrap();
    assert_eq!(&uds(&st.vars[1])[..4], &[0, 7, 20, 7]);
}

/// Integer division by zero is undefined: the reference refuses it.
#[test]
fn integer_division_by_zero_is_undefined() {
    let (vars, mut st) = two_vars();
    let i = VisaInst::new(
        VisaOp::Div,
        exec(1, 1, false),
        dst(1, 0, 0, 1),
        &[src(0, 0, 1, Some(0), 1, 0), src(0, 0, 0, Some(0), 1, 0)],
    );
    assert!(matches!(eval(&vars, &mut st, &i), Err(Undefined(_))));
}

/// Shifts: the count is taken modulo the 32-bit execution width; SHR is
/// logical, ASR arithmetic, both on the source extended to 32 bits.
#[test]
fn shifts_count_modulo_the_width() {
    let mut vars = VarTable::new();
    vars.add_general(VisaType::W, 16, 0);
    vars.add_general(VisaType::D, 8, 32);
    let mut st = RefState::zeroed(&vars);
    st.vars[0] = [-16i16, 33, 0, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .chain([0; 24])
        .collect();
    let a = src(0, 0, 0, Some(0), 1, 0);
    let s = src(0, 0, 1, Some(0), 1, 0); // 33 -> shift by 1
    let d = |op| VisaInst::new(op, exec(1, 1, false), dst(1, 0, 0, 1), &[a, s]);
    let read = |st: &RefState| i32::from_le_bytes(st.vars[1][..4].try_into().unwrap());
    eval(&vars, &mut st, &d(VisaOp::Shl)).unwrap();
    assert_eq!(read(&st), -32);
    eval(&vars, &mut st, &d(VisaOp::Shr)).unwrap();
    assert_eq!(read(&st), (0xffff_fff0u32 >> 1) as i32);
    eval(&vars, &mut st, &d(VisaOp::Asr)).unwrap();
    assert_eq!(read(&st), -8);
}

// ---------------------------------------------------------------------------
// Random instructions: lowered, simulated, compared with the reference.
// ---------------------------------------------------------------------------

use geneu::check::visa::{arbitrary_case, CaseOp};
use geneu::visa::lower_gather4_typed;
use geneu::{encode, Instruction, Platform};
use semantic_common::machine::{self, Machine};
use semantic_common::Rng;

/// One semantic case: a lowered instruction with its inputs and the
/// reference's outputs.
struct SemCase {
    p: Platform,
    vars: VarTable,
    ctx: LowerCtx,
    inst: VisaInst,
    lowered: Vec<Instruction>,
    before: RefState,
    after: RefState,
}

/// A value of type `t`, as bytes: mostly small or simple numbers, so that
/// operations meet each other's ranges, sometimes any bits.
fn value(rng: &mut Rng, t: VisaType) -> Vec<u8> {
    let r = rng.below(16);
    let f = match r {
        0 => f64::from(rng.below(7)) - 3.0,
        1 => [0.0, -0.0, 0.5, -0.5, 1.0, 1.5, 2.5, -2.5, 1e30, -1e-30][rng.below(10) as usize],
        2 => [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 65504.0, 1e-8][rng.below(5) as usize],
        _ => (f64::from(rng.below(4001)) - 2000.0) / 16.0,
    };
    let bits = rng.next();
    let any = rng.below(8) == 0;
    let size = t.size() as usize;
    let raw: u64 = match t {
        VisaType::F if !any => u64::from((f as f32).to_bits()),
        VisaType::DF if !any => f.to_bits(),
        VisaType::HF if !any => u64::from(half::f16::from_f64(f).to_bits()),
        _ if any || r > 8 => bits,
        // Small integers, either sign.
        _ => (i64::from(rng.below(64)) - 16) as u64,
    };
    raw.to_le_bytes()[..size].to_vec()
}

/// Random inputs for `vars`: values, address elements that point into a
/// variable with room for any region the generator makes, predicate bits
/// and (usually every channel of) the execution mask.
fn inputs(rng: &mut Rng, vars: &VarTable) -> RefState {
    let mut st = RefState::zeroed(vars);
    for (k, v) in vars.general.iter().enumerate() {
        let size = v.ty.size() as usize;
        for e in 0..st.vars[k].len() / size.max(1) {
            let b = value(rng, v.ty);
            st.vars[k][e * size..(e + 1) * size].copy_from_slice(&b);
        }
    }
    let bases: Vec<u32> = vars
        .general
        .iter()
        .filter_map(|v| match v.placement {
            Placement::Grf(b) if v.elements * v.ty.size() >= 512 => Some(b),
            _ => None,
        })
        .collect();
    for a in &mut st.addr {
        for e in a.iter_mut() {
            let base = bases[rng.below(bases.len() as u32) as usize];
            *e = (base + 8 * rng.below(16)) as u16;
        }
    }
    for p in &mut st.preds {
        *p = rng.next() as u32;
    }
    for (p, v) in st.preds.iter_mut().zip(&vars.predicate) {
        if v.elements < 32 {
            *p &= (1 << v.elements) - 1;
        }
    }
    st.em = if rng.below(4) == 0 { rng.next() as u32 } else { u32::MAX };
    st
}

/// The case of `seed` on `p`, if its instruction lowers and the reference
/// defines its result: the tame half of the vISA property generator
/// (`check::visa::arbitrary_case`: well-placed variables, common regions,
/// predicates, mask controls, modifiers, immediates) with random inputs.
fn sem_case(seed: u64, p: Platform) -> Option<SemCase> {
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
    let mut data: Vec<u8> = (0..96).map(|_| rng.next() as u8).collect();
    data[0] = Platform::ALL.iter().position(|&q| q == p).unwrap() as u8;
    data[1] &= !1; // the tame half
    let case = arbitrary_case(&data);
    assert_eq!(case.platform, p);
    let CaseOp::Inst(inst) = case.op else { return None };
    let lowered = lower(p, &case.vars, &case.ctx, &inst).ok()?;
    let before = inputs(&mut rng, &case.vars);
    let mut after = before.clone();
    eval(&case.vars, &mut after, &inst).ok()?;
    Some(SemCase {
        p,
        vars: case.vars,
        ctx: case.ctx,
        inst,
        lowered,
        before,
        after,
    })
}

/// What a case exercises, for the coverage check.
#[derive(Default, Debug)]
struct Coverage {
    cases: u32,
    ivb_df: u32,
    /// Ivy Bridge DF past vISA channel 15, at SIMD8 or wider, with a
    /// predicate, with a partial execution mask, compares (into a
    /// predicate or a variable).
    ivb_df_high: u32,
    ivb_df_wide: u32,
    ivb_df_pred: u32,
    ivb_df_partial_em: u32,
    ivb_df_cmp: u32,
    mixed_types: u32,
    mask_offsets: [u32; 8],
    no_mask: u32,
    preds: [u32; 3],
    inverse: u32,
    indirect: u32,
    modifiers: u32,
    saturate: u32,
    partial_em: u32,
    ops: std::collections::BTreeMap<String, u32>,
}

impl Coverage {
    fn add(&mut self, c: &SemCase) {
        self.cases += 1;
        let types: Vec<VisaType> = core::iter::once(&c.inst.dst)
            .chain(&c.inst.src)
            .filter_map(|o| match o.kind {
                OperandKind::General(g) => c.vars.general.get(g.id as usize).map(|v| v.ty),
                OperandKind::Indirect(i) => Some(i.ty),
                OperandKind::Immediate(i) => Some(i.ty),
                _ => None,
            })
            .collect();
        if c.p == geneu::Platform::Gen7 && types.contains(&VisaType::DF) {
            let (base, n) = (c.inst.exec.mask.offset(), c.inst.exec.size.channels());
            self.ivb_df += 1;
            self.ivb_df_high += u32::from(base + n > 16);
            self.ivb_df_wide += u32::from(n >= 8);
            self.ivb_df_pred += u32::from(c.inst.pred.is_some());
            self.ivb_df_partial_em += u32::from(c.before.em != u32::MAX && !c.inst.exec.mask.no_mask);
            self.ivb_df_cmp += u32::from(matches!(c.inst.op, VisaOp::Cmp(_)));
        }
        if types.windows(2).any(|w| w[0] != w[1]) {
            self.mixed_types += 1;
        }
        self.mask_offsets[usize::from(c.inst.exec.mask.index & 7)] += 1;
        self.no_mask += u32::from(c.inst.exec.mask.no_mask);
        if let Some(pc) = c.inst.pred {
            self.preds[pc.combine as usize] += 1;
            self.inverse += u32::from(pc.inverse);
        }
        let all = core::iter::once(&c.inst.dst).chain(&c.inst.src);
        self.indirect += u32::from(all.clone().any(|o| matches!(o.kind, OperandKind::Indirect(_))));
        self.modifiers += u32::from(c.inst.src.iter().any(|o| o.modifier != Modifier::None));
        self.saturate += u32::from(c.inst.dst.modifier == Modifier::Sat);
        self.partial_em += u32::from(c.before.em != u32::MAX);
        let name = format!("{:?}", c.inst.op);
        *self
            .ops
            .entry(name.split('(').next().unwrap_or("").to_string())
            .or_default() += 1;
    }

    fn check(&self) {
        let c = self;
        assert!(c.cases >= 400, "{c:?}");
        assert!(c.ivb_df >= 10, "Ivy Bridge DF: {c:?}");
        assert!(c.mixed_types >= 20, "{c:?}");
        assert!(c.mask_offsets.iter().all(|&n| n >= 3), "every mask control: {c:?}");
        assert!(
            c.no_mask >= 10 && c.inverse >= 5 && c.preds.iter().all(|&n| n >= 3),
            "{c:?}"
        );
        assert!(
            c.indirect >= 10 && c.modifiers >= 20 && c.saturate >= 10 && c.partial_em >= 50,
            "{c:?}"
        );
    }
}

const SEEDS: u64 = 6000;

/// The generator reaches lowered instructions the reference defines, on
/// every platform, with Ivy Bridge DF, mixed types, every mask control,
/// NoMask, every predicate combine and inverse, indirect operands,
/// modifiers, saturation and partial execution masks.
#[test]
fn the_semantic_generator_covers_the_lowering() {
    let mut cov = Coverage::default();
    for seed in 0..SEEDS {
        for p in Platform::ALL {
            if let Some(c) = sem_case(seed, p) {
                cov.add(&c);
            }
        }
    }
    eprintln!("{cov:?}");
    cov.check();
}

/// Bytes equal, or both NaN of the variable's float type.
fn same_element(t: VisaType, a: &[u8], b: &[u8]) -> bool {
    use semantic_common::visa_ref::{from_bytes, Val};
    a == b
        || match (from_bytes(t, a), from_bytes(t, b)) {
            (Val::F(x), Val::F(y)) => x.is_nan() && y.is_nan(),
            (Val::D(x), Val::D(y)) => x.is_nan() && y.is_nan(),
            _ => false,
        }
}

/// Runs one case in the simulator and compares every variable, address
/// variable and predicate with the reference; the registers outside the
/// variables keep their values, except the caller's scratch registers.
fn check_case(c: &SemCase) -> Result<(), String> {
    let mut program: Vec<u8> = Vec::new();
    for i in &c.lowered {
        program.extend_from_slice(&encode(c.p, i).map_err(|e| e.to_string())?);
    }
    program.extend(semantic_common::end_of_thread_bytes(c.p));
    let mut m = Machine::new(u32::MAX);
    // Registers outside the variables hold a pattern that must survive.
    for (k, b) in m.grf.iter_mut().enumerate() {
        *b = (k as u8).wrapping_mul(37) ^ 0x5a;
    }
    machine::place(&c.vars, &c.before, &mut m);
    let start = m.clone();
    machine::run(c.p, &program, &mut m)?;
    let got = machine::read_back(&c.vars, &m, &c.after);
    let mut diffs = Vec::new();
    for (k, v) in c.vars.general.iter().enumerate() {
        let size = v.ty.size() as usize;
        for e in 0..c.after.vars[k].len() / size.max(1) {
            let r = e * size..(e + 1) * size;
            if !same_element(v.ty, &got.vars[k][r.clone()], &c.after.vars[k][r.clone()]) {
                diffs.push(format!(
                    "V{k} element {e}: simulator {:02x?}, reference {:02x?} (before {:02x?})",
                    &got.vars[k][r.clone()],
                    &c.after.vars[k][r.clone()],
                    &c.before.vars[k][r]
                ));
            }
        }
    }
    if got.addr != c.after.addr {
        diffs.push(format!(
            "address variables: simulator {:?}, reference {:?}",
            got.addr, c.after.addr
        ));
    }
    if got.preds != c.after.preds {
        diffs.push(format!(
            "predicates: simulator {:08x?}, reference {:08x?}",
            got.preds, c.after.preds
        ));
    }
    // Nothing outside the variables and the scratch registers is written.
    let mut owned = vec![false; machine::GRF_FILE];
    for v in &c.vars.general {
        if let Placement::Grf(b) = v.placement {
            owned[b as usize..(b + v.elements * v.ty.size()) as usize].fill(true);
        }
    }
    let scratch = |r: usize| {
        r == 127
            || c.ctx.temp_grf.is_some_and(|t| usize::from(t) == r)
            || c.ctx
                .payload_grf
                .is_some_and(|t| (usize::from(t)..usize::from(t) + 5).contains(&r))
    };
    for (k, (a, b)) in start.grf.iter().zip(&m.grf).enumerate() {
        if !owned[k] && !scratch(k / 32) && a != b {
            diffs.push(format!("g{}.{} outside every variable changed", k / 32, k % 32));
            break;
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("\n"))
    }
}

/// The lowered instructions compute, in the simulator, what the vISA
/// specification says, byte for byte, on every platform.
#[test]
fn lowered_instructions_compute_what_the_spec_says() {
    let mut cov = Coverage::default();
    let mut failures = Vec::new();
    // SIM_SEMANTIC_SEED=n runs that seed alone (and shows its failure whole).
    let only: Option<u64> = std::env::var("SIM_SEMANTIC_SEED").ok().and_then(|s| s.parse().ok());
    for seed in 0..SEEDS {
        if only.is_some_and(|o| o != seed) {
            continue;
        }
        for p in Platform::ALL {
            let Some(c) = sem_case(seed, p) else { continue };
            cov.add(&c);
            if let Err(e) = check_case(&c) {
                // One line per failure (what, and the first difference);
                // the whole case for the first.
                if failures.is_empty() {
                    eprintln!(
                        "seed {seed} on {p}: {:?}\n{:?}\nlowered: {:#?}\n{e}",
                        c.inst, c.vars, c.lowered
                    );
                }
                let first = e.lines().next().unwrap_or("");
                failures.push(format!(
                    "seed {seed} {p} {:?} ({:?} {}, pred {:?}, EM {:#x}): {first}",
                    c.inst.op,
                    c.inst.exec.size,
                    c.inst.exec.mask,
                    c.inst.pred.map(|p| (p.id, p.combine, p.inverse)),
                    c.before.em
                ));
            }
        }
    }
    cov.check();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// GATHER4_TYPED's pseudo-code: channels G and A of an 8-channel gather
/// land in two consecutive registers of dst, only for enabled channels;
/// out of bounds reads zeros with alpha one.
#[test]
fn gather4_typed_follows_the_pseudo_code() {
    use semantic_common::visa_ref::{gather4_typed, RefSurface};
    let mut vars = VarTable::new();
    let u = ud_var(&mut vars, 8, 0);
    let d = ud_var(&mut vars, 24, 32);
    vars.add_predicate(16, FlagReg { nr: 0, subnr: 0 });
    let mut st = RefState::zeroed(&vars);
    st.vars[u as usize] = ud_bytes([0, 1, 2, 3, 9, 1, 0, 2]);
    st.preds[0] = 0b1011_1111;
    let surface = RefSurface {
        width: 4,
        height: 1,
        texels: (0..4).map(|x| [x, 10 + x, 20 + x, 30 + x]).collect(),
        oob_alpha: 1,
    };
    let mut gth = VisaGather4Typed::new(
        0b1010,
        Surface::Bti(3),
        RawOperand { id: u, offset: 0 },
        RawOperand { id: d, offset: 32 },
    );
    gth.pred = Some(PredCtl::new(1));
    gather4_typed(&vars, &mut st, &gth, &surface).unwrap();
    let got = uds(&st.vars[d as usize]);
    // Register 0 of dst is untouched; G then A; channel 6 is predicated off; u = 9 is out of bounds.
    assert_eq!(&got[..8], &[0; 8]);
    assert_eq!(&got[8..16], &[10, 11, 12, 13, 0, 11, 0, 12]);
    assert_eq!(&got[16..24], &[30, 31, 32, 33, 1, 31, 0, 32]);
}

/// A random R32G32B32A32_UINT surface of a few texels a side.
fn surface(rng: &mut Rng) -> semantic_common::visa_ref::RefSurface {
    let (width, height) = (1 + rng.below(12), 1 + rng.below(6));
    semantic_common::visa_ref::RefSurface {
        width,
        height,
        texels: (0..width * height)
            .map(|_| {
                [
                    rng.next() as u32,
                    rng.next() as u32,
                    rng.next() as u32,
                    rng.next() as u32,
                ]
            })
            .collect(),
        oob_alpha: 1,
    }
}

/// GATHER4_TYPED, lowered (header, payload moves and the typed-read SEND)
/// and simulated against the messages' typed surfaces, gives what the
/// specification's pseudo-code gives on the same texels: every channel
/// combination, predicates, mask controls, in and out of bounds.
#[test]
fn gather4_typed_reads_what_the_spec_says() {
    use semantic_common::visa_ref::gather4_typed;
    let (mut cases, mut failures) = (0, Vec::new());
    for seed in 0..40_000u64 {
        for p in Platform::ALL {
            let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
            let mut data: Vec<u8> = (0..96).map(|_| rng.next() as u8).collect();
            data[0] = Platform::ALL.iter().position(|&q| q == p).unwrap() as u8;
            data[1] &= !1;
            let case = arbitrary_case(&data);
            let CaseOp::Gather(gth) = case.op else { continue };
            let Ok(lowered) = lower_gather4_typed(p, &case.vars, &case.ctx, &gth) else {
                continue;
            };
            let mut before = inputs(&mut rng, &case.vars);
            // Coordinates mostly inside the surfaces.
            for id in [Some(gth.u), gth.v].into_iter().flatten() {
                let bytes = &mut before.vars[id.id as usize];
                for e in 0..8 {
                    let at = usize::from(id.offset) + 4 * e;
                    if let Some(d) = bytes.get_mut(at..at + 4) {
                        if rng.below(4) != 0 {
                            d.copy_from_slice(&rng.below(14).to_le_bytes());
                        }
                    }
                }
            }
            let surfaces: Vec<(u8, _)> = (0..8).map(|b| (b, surface(&mut rng))).collect();
            let Surface::Bti(bti) = gth.surface else { continue };
            let Some((_, surf)) = surfaces.iter().find(|(b, _)| u32::from(*b) == bti) else {
                continue;
            };
            let mut after = before.clone();
            let Ok(written) = gather4_typed(&case.vars, &mut after, &gth, surf) else {
                continue;
            };
            cases += 1;
            let mut program = Vec::new();
            for i in &lowered {
                program.extend_from_slice(&encode(p, i).unwrap());
            }
            let mut m = Machine::new(u32::MAX);
            machine::place(&case.vars, &before, &mut m);
            let got = match machine::run_with(p, &program, &mut m, true, &surfaces) {
                Ok(()) => machine::read_back(&case.vars, &m, &after),
                Err(e) => {
                    failures.push(format!("seed {seed} {p}: {e}"));
                    continue;
                }
            };
            // The response registers' dwords of channels the pseudo-code
            // does not write (disabled channels) are not compared: whether
            // the hardware's write-back leaves them is not settled by the
            // documents at hand (vISA: "subject to predication").
            let k = gth.dst.id as usize;
            let regs = usize::from(gth.channels & 15).count_ones() as usize;
            let start = usize::from(gth.dst.offset);
            let mut got = got;
            for at in (start..start + 32 * regs).step_by(4) {
                if !written.contains(&at) {
                    if let (Some(g), Some(a)) = (got.vars[k].get_mut(at..at + 4), after.vars[k].get(at..at + 4)) {
                        g.copy_from_slice(a);
                    }
                }
            }
            if got.vars != after.vars {
                failures.push(format!(
                    "seed {seed} {p} {gth:?}: dst simulator {:08x?}, reference {:08x?}",
                    uds(&got.vars[k]).iter().take(32).collect::<Vec<_>>(),
                    uds(&after.vars[k]).iter().take(32).collect::<Vec<_>>()
                ));
            }
        }
    }
    assert!(cases >= 100, "only {cases} gathers");
    assert!(
        failures.is_empty(),
        "{} of {cases} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Ivy Bridge DF under divergent execution masks and predicates: random
/// DF operations at every size (SIMD1..SIMD32) and mask offset, past vISA
/// channel 15 too, with random execution masks, predicates (inverse,
/// any/all), compares into predicates and variables, NoMask and DF
/// immediates, lowered and run in the simulator, give the reference's
/// results. The reference knows nothing of Ivy Bridge: a vISA channel is
/// one execution-mask and predicate bit.
#[test]
fn ivy_bridge_df_follows_the_reference_under_divergent_masks() {
    let p = Platform::Gen7;
    let mut vars = VarTable::new();
    vars.add_general(VisaType::DF, 64, 10 * 32); // V0: g10-g25
    vars.add_general(VisaType::DF, 64, 30 * 32); // V1: g30-g45
    vars.add_general(VisaType::DF, 64, 50 * 32); // V2: g50-g65
    vars.add_predicate(32, FlagReg { nr: 0, subnr: 0 }); // P1: f0
    vars.add_predicate(16, FlagReg { nr: 1, subnr: 0 }); // P2: f1.0
    let ctx = LowerCtx {
        temp_grf: Some(100),
        scratch_flag: Some(FlagReg { nr: 1, subnr: 1 }),
        ..LowerCtx::default()
    };
    let ops = [
        VisaOp::Add,
        VisaOp::Mul,
        VisaOp::Mov,
        VisaOp::Min,
        VisaOp::Max,
        VisaOp::Sel,
        VisaOp::Frc,
        VisaOp::Rndd,
        VisaOp::Cmp(RelOp::Lt),
        VisaOp::Cmp(RelOp::Ge),
    ];
    let mut rng = Rng(0x1bdf_5eed);
    let (mut ran, mut high, mut partial, mut preds, mut cmps) = (0, 0, 0, 0, 0);
    let mut refused = std::collections::BTreeMap::<String, u32>::new();
    let mut failures = Vec::new();
    for _ in 0..3000 {
        let n = 1u32 << rng.below(6);
        let m = 1 + rng.below(8) as u8;
        let offset = 4 * u32::from(m - 1);
        if offset % n != 0 || offset + n > 32 {
            continue;
        }
        let nm = rng.below(6) == 0;
        let op = ops[rng.below(ops.len() as u32) as usize];
        let operand = |rng: &mut Rng, id: u32| match rng.below(8) {
            0 => VecOperand::imm(Immediate::df(f64::from(rng.below(64) as i32 - 16) * 0.75)),
            1 => src(id, rng.below(4) as u8, rng.below(4) as u8, Some(0), 1, 0),
            2 if n <= 16 => src(id, 0, rng.below(4) as u8, Some(2), 1, 0),
            _ => src(id, rng.below(2) as u8, rng.below(4) as u8, Some(1), 1, 0),
        };
        let nsrc = op.num_srcs();
        let srcs: Vec<VecOperand> = (0..nsrc).map(|k| operand(&mut rng, k as u32)).collect();
        let is_cmp = matches!(op, VisaOp::Cmp(_));
        let d = if is_cmp && rng.below(3) != 0 {
            // P2 holds 16 elements.
            VecOperand::pred(if offset + n <= 16 && rng.below(2) == 0 { 2 } else { 1 })
        } else {
            dst(2, 0, 0, 1)
        };
        let mut inst = VisaInst::new(op, exec(n, m, nm), d, &srcs);
        let pred = op == VisaOp::Sel || rng.below(2) == 0;
        if pred {
            let combine = match rng.below(8) {
                0 => PredCombine::Any,
                1 => PredCombine::All,
                _ => PredCombine::Sequential,
            };
            inst = inst.with_pred(PredCtl {
                id: 1,
                combine,
                inverse: rng.below(3) == 0,
            });
        }
        let lowered = match lower(p, &vars, &ctx, &inst) {
            Ok(l) => l,
            Err(e) => {
                *refused.entry(e.to_string()).or_default() += 1;
                continue;
            }
        };
        let mut before = inputs(&mut rng, &vars);
        if rng.below(2) == 0 {
            before.em = rng.next() as u32;
        }
        let mut after = before.clone();
        if eval(&vars, &mut after, &inst).is_err() {
            continue;
        }
        ran += 1;
        high += u32::from(offset + n > 16);
        partial += u32::from(before.em != u32::MAX && !nm);
        preds += u32::from(pred);
        cmps += u32::from(is_cmp);
        let c = SemCase {
            p,
            vars: vars.clone(),
            ctx,
            inst,
            lowered,
            before,
            after,
        };
        if let Err(e) = check_case(&c) {
            if failures.is_empty() {
                eprintln!("{:?}\nlowered: {:#?}\n{e}", c.inst, c.lowered);
            }
            failures.push(format!(
                "{:?} SIMD{n} M{m}{} pred {:?} EM {:#x}: {}",
                c.inst.op,
                if nm { "_NM" } else { "" },
                c.inst.pred.map(|p| (p.combine, p.inverse)),
                c.before.em,
                e.lines().next().unwrap_or("")
            ));
        }
    }
    eprintln!("ran {ran}, past channel 15 {high}, partial EM {partial}, predicated {preds}, compares {cmps}; refused {refused:#?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(ran >= 1000 && high >= 300 && partial >= 150 && preds >= 400 && cmps >= 150);
}
