//! The tests' view of one thread's registers, and the one place that runs
//! a program in `geneu::sim`: everything else in the semantic tests is
//! written without the simulator.
#![allow(dead_code)]

use geneu::visa::{Placement, VarTable};
use geneu::Platform;

use super::visa_ref::{RefState, RefSurface};

/// Bytes of the register file.
pub const GRF_FILE: usize = 128 * 32;

/// The registers a test sets before a run and reads after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// g0-g127.
    pub grf: Vec<u8>,
    /// `a0`'s 16 words.
    pub a0: [u16; 16],
    /// `f0` and `f1`.
    pub flags: [u32; 2],
    /// The dispatch channel enables (bit n is channel n).
    pub dispatch: u32,
}

impl Machine {
    /// Every register zero, the channels of `dispatch` enabled.
    pub fn new(dispatch: u32) -> Self {
        Machine {
            grf: vec![0; GRF_FILE],
            a0: [0; 16],
            flags: [0; 2],
            dispatch,
        }
    }

    /// The UD at byte `byte` of the register file.
    pub fn ud(&self, byte: usize) -> u32 {
        u32::from_le_bytes(self.grf[byte..byte + 4].try_into().unwrap())
    }

    /// Writes the UD at byte `byte`.
    pub fn set_ud(&mut self, byte: usize, v: u32) {
        self.grf[byte..byte + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// Places vISA state in registers as the caller's variable table says:
/// each general variable's bytes at its GRF byte, address variable
/// elements in `a0` words from their subregister, predicate element `j`
/// at bit `16·subnr + j` of its flag register.
pub fn place(vars: &VarTable, st: &RefState, m: &mut Machine) {
    for (v, bytes) in vars.general.iter().zip(&st.vars) {
        if let Placement::Grf(b) = v.placement {
            let b = b as usize;
            m.grf[b..b + bytes.len()].copy_from_slice(bytes);
        }
    }
    for (a, elems) in vars.address.iter().zip(&st.addr) {
        for (j, &e) in elems.iter().enumerate() {
            m.a0[usize::from(a.subreg) + j] = e;
        }
    }
    for (p, &bits) in vars.predicate.iter().zip(&st.preds) {
        let shift = 16 * u32::from(p.flag.subnr);
        let mask = elems_mask(p.elements) << shift;
        let f = &mut m.flags[usize::from(p.flag.nr)];
        *f = (*f & !mask) | (bits << shift & mask);
    }
    m.dispatch = st.em;
}

/// Reads vISA state back from registers (the inverse of [`place`]).
pub fn read_back(vars: &VarTable, m: &Machine, like: &RefState) -> RefState {
    let mut st = like.clone();
    for (k, v) in vars.general.iter().enumerate() {
        if let Placement::Grf(b) = v.placement {
            let b = b as usize;
            let n = st.vars[k].len();
            st.vars[k].copy_from_slice(&m.grf[b..b + n]);
        }
    }
    for (k, a) in vars.address.iter().enumerate() {
        for j in 0..st.addr[k].len() {
            st.addr[k][j] = m.a0[usize::from(a.subreg) + j];
        }
    }
    for (k, p) in vars.predicate.iter().enumerate() {
        let shift = 16 * u32::from(p.flag.subnr);
        st.preds[k] = (m.flags[usize::from(p.flag.nr)] >> shift) & elems_mask(p.elements);
    }
    st
}

fn elems_mask(n: u8) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Runs `program` (bytes, ending with an end-of-thread message or, with
/// `to_end`, simply at its end) in the simulator from the registers of
/// `m`, with `surfaces` bound at their binding table indices (as
/// R32G32B32A32_UINT 2D surfaces), and writes the registers back.
/// Denormals are kept (`cr0`), as the references' IEEE arithmetic keeps
/// them.
///
/// This is the only function of the tests that calls `geneu::sim`.
pub fn run_with(
    p: Platform,
    program: &[u8],
    m: &mut Machine,
    to_end: bool,
    surfaces: &[(u8, RefSurface)],
) -> Result<(), String> {
    use geneu::isa::cr0;
    use geneu::sim::{Memory, Program, RunOptions, Surface, SurfaceFormat, Thread};
    let prog = Program::new(p, program).map_err(|e| e.to_string())?;
    let mut t = Thread::new();
    t.grf_mut().copy_from_slice(&m.grf);
    for (k, &w) in m.a0.iter().enumerate() {
        t.set_a0(k as u8, w);
    }
    for (k, &f) in m.flags.iter().enumerate() {
        t.set_flag(k as u8, f);
    }
    t.set_dispatch_mask(m.dispatch);
    t.set_cr0(cr0::SP_DENORM_RETAIN | cr0::DP_DENORM_RETAIN | cr0::HF_DENORM_RETAIN);
    let mut mem = Memory::default();
    for (bti, s) in surfaces {
        let mut img =
            Surface::image_2d(SurfaceFormat::R32G32B32A32Uint, s.width, s.height).map_err(|e| e.to_string())?;
        for y in 0..s.height {
            for x in 0..s.width {
                img.set_texel(i64::from(x), i64::from(y), s.texels[(y * s.width + x) as usize]);
            }
        }
        mem.bind(*bti, img);
    }
    let mut opts = RunOptions::default();
    opts.end_at_program_end = to_end;
    opts.step_limit = 100_000;
    let r = geneu::sim::run(&prog, &mut t, &mut mem, &opts);
    m.grf.copy_from_slice(t.grf());
    for (k, w) in m.a0.iter_mut().enumerate() {
        *w = t.a0(k as u8);
    }
    for (k, f) in m.flags.iter_mut().enumerate() {
        *f = t.flag(k as u8);
    }
    r.map(|_| ()).map_err(|e| e.to_string())
}

/// [`run_with`], ending with an end of thread, without surfaces.
pub fn run(p: Platform, program: &[u8], m: &mut Machine) -> Result<(), String> {
    run_with(p, program, m, false, &[])
}
