//! A complete vISA-level kernel becomes a program through the builder:
//! operands, ALU, GATHER4_TYPED, labels with JMP, subroutine CALL/RET and
//! the EOT send, on every platform; GOTO on Gen8 only.

use geneu::msg::{Common, Message, Urb, UrbOpcode};
use geneu::visa::*;
use geneu::{ExecSize, FlagReg, Opcode, Platform};

fn vars() -> VarTable {
    let mut v = VarTable::new();
    v.add_general(VisaType::F, 16, 2 * 32); // V0
    v.add_general(VisaType::F, 16, 4 * 32); // V1
    v.add_general(VisaType::F, 16, 6 * 32); // V2
    v.add_general(VisaType::UD, 8, 24 * 32); // V3: U
    v.add_general(VisaType::F, 32, 26 * 32); // V4: RGBA
    v.add_predicate(16, FlagReg { nr: 0, subnr: 0 }); // P1
    v
}

fn kernel(p: Platform) -> Result<geneu::build::Program, Box<dyn std::error::Error>> {
    let ctx = LowerCtx {
        temp_grf: Some(120),
        scratch_flag: Some(FlagReg { nr: 1, subnr: 0 }),
        payload_grf: Some(100),
    };
    let mut k = Kernel::new(p, vars(), ctx).with_return_register(119);
    let x16 = ExecCtl::new(ExecSize::S16);
    let row = |id| VecOperand::general(id, 0, 0, VisaRegion::new(Some(8), 8, 1).unwrap());
    let dst = |id| VecOperand::general_dst(id, 0, 0, 1).unwrap();
    let sub = k.label();
    let skip = k.label();
    let end = k.label();
    k.inst(&VisaInst::new(VisaOp::Add, x16, dst(2), &[row(0), row(1)]))?;
    k.inst(&VisaInst::new(
        VisaOp::Cmp(RelOp::Lt),
        x16,
        VecOperand::pred(1),
        &[row(2), row(1)],
    ))?;
    k.jmp(Some(PredCtl::new(1)), skip)?;
    k.inst(&VisaInst::new(
        VisaOp::Mul,
        x16,
        dst(2),
        &[row(2), VecOperand::imm(Immediate::f(0.5))],
    ))?;
    k.bind(skip)?;
    k.call(sub)?;
    let g = VisaGather4Typed::new(
        0xf,
        Surface::Bti(1),
        RawOperand { id: 3, offset: 0 },
        RawOperand { id: 4, offset: 0 },
    );
    k.gather4_typed(&g)?;
    let urb = Urb::new(p, Common::new(1, 0, true).with_eot(), UrbOpcode::WriteHWord);
    k.eot(ExecCtl::new(ExecSize::S8), 127, &Message::Urb(urb))?;
    k.bind(sub)?;
    k.inst(&VisaInst::new(VisaOp::Mov, x16, dst(0), &[row(2)]))?;
    k.ret()?;
    k.bind(end)?;
    Ok(k.finish()?)
}

#[test]
fn a_complete_visa_kernel_becomes_a_program_on_every_platform() {
    for p in Platform::ALL {
        let prog = kernel(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        let insts: Vec<_> = prog.instructions().map(|(_, i)| *i).collect();
        let ops: Vec<_> = insts.iter().map(|i| i.opcode).collect();
        let at = |op| ops.iter().position(|&o| o == op).unwrap();
        // The predicated JMP skips the MUL: jmpi counts from the next instruction.
        let j = at(Opcode::Jmpi);
        // jmpi and call jump in bytes on Gen8 and Haswell (IGA's
        // `Encoder::arePcsInQWords`, Beignet's Haswell jmpi), in 8-byte
        // units on Ivy Bridge.
        let unit = if p == Platform::Gen7 { 2 } else { 16 };
        assert_eq!(insts[j].imm as u32 as i32, unit, "{p}");
        assert_ne!(insts[j].pred_control, 0);
        // CALL jumps to the subroutine after the EOT send.
        let c = at(Opcode::Call);
        let send_eot = insts.iter().position(|i| i.eot()).unwrap();
        assert_eq!(
            insts[c].imm as u32 as i32,
            (send_eot as i32 + 1 - c as i32) * unit,
            "{p}"
        );
        assert_eq!(*ops.last().unwrap(), Opcode::Ret);
        // Every word decodes to the instruction.
        for (k, w) in prog.bytes().chunks(16).enumerate() {
            assert_eq!(geneu::decode_slice(p, w).unwrap(), insts[k], "{p} instruction {k}");
        }
    }
}

#[test]
fn goto_is_lowered_on_gen8_only() {
    let x8 = ExecCtl::new(ExecSize::S8);
    let mut k = Kernel::new(Platform::Gen8, vars(), LowerCtx::default());
    let l = k.label();
    k.goto(x8, Some(PredCtl::new(1)), l).unwrap();
    k.builder().nop().unwrap();
    k.bind_join(x8, l).unwrap();
    k.builder().nop().unwrap();
    let prog = k.finish().unwrap();
    let insts: Vec<_> = prog.instructions().map(|(_, i)| *i).collect();
    assert_eq!(insts[0].opcode, Opcode::Goto);
    assert_eq!(
        (insts[0].jip(Platform::Gen8), insts[0].uip(Platform::Gen8)),
        (Some(32), Some(32))
    );
    assert_eq!(insts[2].opcode, Opcode::Join);
    assert_eq!(insts[2].jip(Platform::Gen8), Some(16));
    for p in [Platform::Gen7, Platform::Gen75] {
        let mut k = Kernel::new(p, vars(), LowerCtx::default());
        let l = k.label();
        assert!(matches!(
            k.goto(x8, None, l),
            Err(VisaError::Unsupported { what: "goto", .. })
        ));
    }
}

#[test]
fn call_needs_a_return_register() {
    let mut k = Kernel::new(Platform::Gen8, vars(), LowerCtx::default());
    let l = k.label();
    assert!(matches!(k.call(l), Err(VisaError::Unsupported { what: "call", .. })));
    assert!(matches!(k.ret(), Err(VisaError::Unsupported { what: "ret", .. })));
}
