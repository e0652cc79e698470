//! Branch offsets, filled in when the program is finished: given targets,
//! Mesa's `patch_IF_ELSE` for structured IF/ELSE/ENDIF, the loop start for
//! WHILE, and Mesa's `brw_set_uip_jip` for BREAK, CONT, ENDIF and HALT.

use alloc::vec::Vec;

use super::{BuildError, Builder, Fix, Target};
use crate::model::{Form, Instruction, OffsetField, Opcode, Platform};

/// A branch offset that does not fit the platform's JIP/UIP field: the
/// offset in the platform's units and the field's range, described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OffsetRange {
    pub(crate) offset: i64,
    pub(crate) range: &'static str,
}

impl OffsetRange {
    /// The builder's error for the branch at `index`.
    #[cold]
    const fn at(self, index: usize) -> BuildError {
        BuildError::JumpRange {
            index,
            offset: self.offset,
            range: self.range,
        }
    }
}

/// `v`, a jump offset of `op` in its units ([`Platform::jump_unit_bytes`]),
/// if the field that keeps it holds it ([`Platform::jump_offset_range`]).
/// The one check of the field's range, for the builder's offsets and the
/// text's.
#[inline]
pub(crate) const fn fits(p: Platform, op: Opcode, v: i64) -> Result<i64, OffsetRange> {
    let (lo, hi, range) = p.jump_offset_range(op);
    if v < lo || v > hi {
        return Err(OffsetRange { offset: v, range });
    }
    Ok(v)
}

/// The offset of the instruction `delta` instructions away, in the units
/// of `op`'s jumps ([`Platform::jump_unit_bytes`]), if it fits the field
/// ([`fits`]).
#[inline]
pub(crate) const fn units(p: Platform, op: Opcode, delta: i64) -> Result<i64, OffsetRange> {
    fits(p, op, delta.saturating_mul(p.jump_units_per_instruction(op)))
}

/// [`units`], as the builder's error for the branch at `index`.
fn units_at(p: Platform, op: Opcode, delta: i64, index: usize) -> Result<i64, BuildError> {
    units(p, op, delta).map_err(|e| e.at(index))
}

/// Writes JIP (`v`, checked by [`fits`]) where the platform keeps it: the
/// `jip` field of `tables/gen8_flow.tbl` or `gen7_flow.tbl` (32 bits on
/// Gen8, 16 before), at its place in the immediate payload
/// ([`Instruction::jip`]).
#[inline]
pub(crate) fn set_jip(p: Platform, i: &mut Instruction, v: i64) {
    i.set_payload_offset(p, OffsetField::Jip, v as i32);
}

/// Writes UIP (`v`, checked by [`fits`]): the flow tables' `uip` field, at
/// its place in the immediate payload ([`Instruction::uip`]).
#[inline]
pub(crate) fn set_uip(p: Platform, i: &mut Instruction, v: i64) {
    i.set_payload_offset(p, OffsetField::Uip, v as i32);
}

/// Writes the first jump offset of `i` where its opcode keeps it: the
/// distance of `jmpi` and `call` in the immediate dword
/// ([`set_imm32`]), a branch's JIP in the JIP field ([`set_jip`]).
pub(crate) fn set_first(p: Platform, i: &mut Instruction, v: i64) {
    if matches!(i.opcode.form(), Form::Jump | Form::Call) {
        set_imm32(i, v);
    } else {
        set_jip(p, i, v);
    }
}

/// A 32-bit immediate offset (JMPI's src1, CALL's JIP): the payload's
/// low 32 bits, DW3, the same on every platform.
pub(crate) fn set_imm32(i: &mut Instruction, v: i64) {
    i.set_payload_offset(Platform::Gen8, OffsetField::Imm32, v as i32);
}

/// The flow-control instructions that Mesa's block-end search looks at,
/// with each IF's matching ENDIF, so a search skips nested blocks whole.
struct Flow<'b> {
    /// Index and opcode of each IF, ELSE, ENDIF, WHILE and HALT, in order:
    /// the builder's notes (the opcodes are read here, not from the
    /// instructions: a program's instructions do not stay in the cache).
    at: &'b [(usize, Opcode)],
    /// For each position in `at`, the first position from there on that
    /// is not an IF, after skipping each IF block whole (`None` past an
    /// IF never closed, or at the end): where a block-end search from
    /// there stops or, at a WHILE, may go on.
    stop: Vec<Option<usize>>,
}

/// Whether Mesa's block-end search looks at instructions of `op`: IF,
/// ELSE, ENDIF, WHILE and HALT.
#[inline]
pub(super) const fn is_block_flow(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::If | Opcode::Else | Opcode::Endif | Opcode::While | Opcode::Halt
    )
}

impl<'b> Flow<'b> {
    /// The flow structure of a program whose instructions of
    /// [`is_block_flow`] opcodes are `at` (index and opcode, in order).
    fn new(at: &'b [(usize, Opcode)]) -> Flow<'b> {
        let mut skip = alloc::vec![None; at.len()];
        let mut stack = Vec::new();
        for (f, &(_, o)) in at.iter().enumerate() {
            match o {
                Opcode::If => stack.push(f),
                Opcode::Endif => {
                    if let Some(s) = stack.pop() {
                        if let Some(x) = skip.get_mut(s) {
                            *x = Some(f);
                        }
                    }
                }
                _ => {}
            }
        }
        // Backwards, so the position after each IF's ENDIF is known.
        let mut stop = alloc::vec![None; at.len()];
        for f in (0..at.len()).rev() {
            let is_if = at.get(f).is_some_and(|&(_, o)| o == Opcode::If);
            let v = if is_if {
                skip.get(f)
                    .copied()
                    .flatten()
                    .and_then(|e| stop.get(e + 1).copied().flatten())
            } else {
                Some(f)
            };
            if let Some(x) = stop.get_mut(f) {
                *x = v;
            }
        }
        Flow { at, stop }
    }

    /// Whether the WHILE at `w` jumps back to `start` or before it.
    fn while_jumps_before(p: Platform, insts: &[Instruction], w: usize, start: usize) -> bool {
        let jip = insts.get(w).and_then(|i| i.jip(p)).unwrap_or(0);
        let unit = p.jump_units_per_instruction(Opcode::While);
        (w as i64) * unit + i64::from(jip) <= (start as i64) * unit
    }

    /// The position in `at` of the first flow instruction after `start`.
    /// `hint` is the position found for the search before: the searches
    /// come in instruction order, so it is usually there or a few steps on.
    fn after(&self, start: usize, hint: &mut usize) -> usize {
        let below = |f: usize| f == 0 || self.at.get(f - 1).is_some_and(|&(k, _)| k <= start);
        let mut f = *hint;
        if below(f) {
            for _ in 0..8 {
                match self.at.get(f) {
                    Some(&(k, _)) if k <= start => f += 1,
                    _ => {
                        *hint = f;
                        return f;
                    }
                }
            }
        }
        f = self.at.partition_point(|&(k, _)| k <= start);
        *hint = f;
        f
    }

    /// Mesa's `brw_find_next_block_end`: the first ELSE, ENDIF or HALT
    /// after `start` (whose position [`Flow::after`] gives as `f`) outside
    /// nested IF blocks, or WHILE of a loop that encloses `start`.
    fn next_block_end(&self, p: Platform, insts: &[Instruction], start: usize, mut f: usize) -> Option<usize> {
        loop {
            // Nested IF blocks are skipped whole (their ELSE, ENDIF and
            // HALT are not at depth 0); an IF never closed ends the search.
            let s = self.stop.get(f).copied().flatten()?;
            let (k, op) = *self.at.get(s)?;
            if op == Opcode::While && !Self::while_jumps_before(p, insts, k, start) {
                // The end of a sibling loop: go on after it.
                f = s + 1;
                continue;
            }
            return Some(k);
        }
    }

    /// Mesa's `brw_find_loop_end`: the WHILE of the innermost loop
    /// enclosing `start` (whose position [`Flow::after`] gives as `f`).
    fn loop_end(&self, p: Platform, insts: &[Instruction], start: usize, f: usize) -> Option<usize> {
        self.at
            .get(f..)
            .unwrap_or(&[])
            .iter()
            .find(|&&(k, o)| o == Opcode::While && Self::while_jumps_before(p, insts, k, start))
            .map(|&(k, _)| k)
    }
}

/// JIP, UIP and a 32-bit immediate offset (JMPI, CALL) to write, in the
/// platform's units.
type Offsets = (Option<i64>, Option<i64>, Option<i64>);

/// Fills in every branch offset of `b`, collecting errors.
pub(super) fn resolve(b: &mut Builder, errors: &mut Vec<BuildError>) {
    let p = b.p;
    let jumps = core::mem::take(&mut b.jumps);
    // Given targets and structured blocks first: the rules below read
    // WHILE's JIP.
    for j in &jumps {
        let (index, op) = (j.index, j.op);
        let r = (|| -> Result<Offsets, BuildError> {
            let rel =
                |t: Target| -> Result<i64, BuildError> { Ok(b.resolve_target(t, index, op)? as i64 - index as i64) };
            // The offsets first, then written in place.
            let mut jip = None;
            let mut uip = None;
            let mut imm32 = None;
            match j.fix {
                Fix::Explicit { jip: j, uip: u } => {
                    jip = Some(units_at(p, op, rel(j)?, index)?);
                    if let Some(u) = u {
                        uip = Some(units_at(p, op, rel(u)?, index)?);
                    }
                }
                // `jmpi` counts from the instruction after it, `call` from
                // itself (`Opcode::counts_from_next`).
                Fix::Jmpi(t) | Fix::Call(t) => {
                    let from = i64::from(op.counts_from_next());
                    imm32 = Some((rel(t)? - from).saturating_mul(p.jump_units_per_instruction(op)));
                }
                Fix::If { else_, endif } => {
                    let to_end = units_at(p, op, endif as i64 - index as i64, index)?;
                    jip = Some(match else_ {
                        Some(e) => units_at(p, op, e as i64 + 1 - index as i64, index)?,
                        None => to_end,
                    });
                    uip = Some(to_end);
                }
                Fix::Else { endif } => {
                    let to_end = units_at(p, op, endif as i64 - index as i64, index)?;
                    jip = Some(to_end);
                    if p.is_gen8() {
                        uip = Some(to_end);
                    }
                }
                Fix::While { start } => jip = Some(units_at(p, op, start as i64 - index as i64, index)?),
                Fix::Halt { uip: u } => uip = Some(units_at(p, op, rel(u)?, index)?),
                Fix::Rule => {}
            }
            Ok((jip, uip, imm32))
        })();
        match (r, b.insts.get_mut(index)) {
            (Ok((jip, uip, imm32)), Some(i)) => {
                if let Some(v) = jip {
                    set_jip(p, i, v);
                }
                if let Some(v) = uip {
                    set_uip(p, i, v);
                }
                if let Some(v) = imm32 {
                    set_imm32(i, v);
                }
            }
            (Ok(_), None) => {}
            (Err(e), _) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return;
    }
    // Mesa's brw_set_uip_jip. The offsets are worked out from the notes
    // and written in place (the instruction is read only for HALT's UIP).
    let flow = Flow::new(&b.flow);
    let mut hint = 0;
    for j in &jumps {
        if !matches!(j.fix, Fix::Rule | Fix::Halt { .. }) {
            continue;
        }
        let (index, op) = (j.index, j.op);
        let f = flow.after(index, &mut hint);
        let end = flow.next_block_end(p, &b.insts, index, f);
        let r = (|| -> Result<(Option<i64>, Option<i64>), BuildError> {
            let no_end = || BuildError::NoBlockEnd { index, opcode: op };
            Ok(match op {
                Opcode::Break | Opcode::Cont => {
                    let end = end.ok_or_else(no_end)?;
                    let loop_end = flow.loop_end(p, &b.insts, index, f).ok_or_else(no_end)?;
                    (
                        Some(units_at(p, op, end as i64 - index as i64, index)?),
                        Some(units_at(p, op, loop_end as i64 - index as i64, index)?),
                    )
                }
                Opcode::Endif => (
                    Some(match end {
                        Some(e) => units_at(p, op, e as i64 - index as i64, index)?,
                        None => p.jump_units_per_instruction(op),
                    }),
                    None,
                ),
                Opcode::Halt => (
                    Some(match end {
                        Some(e) => units_at(p, op, e as i64 - index as i64, index)?,
                        None => i64::from(b.insts.get(index).and_then(|i| i.uip(p)).unwrap_or(0)),
                    }),
                    None,
                ),
                _ => (None, None),
            })
        })();
        match (r, b.insts.get_mut(index)) {
            (Ok((jip, uip)), Some(i)) => {
                if let Some(v) = jip {
                    set_jip(p, i, v);
                }
                if let Some(v) = uip {
                    set_uip(p, i, v);
                }
            }
            (Ok(_), None) => {}
            (Err(e), _) => errors.push(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{g, Predicate};
    use crate::model::ExecSize;

    /// The builder notes every instruction the block-end search looks at
    /// as it appends it, hand-built ones included, as a scan of the
    /// program would find them.
    #[test]
    fn noted_flow_is_the_scan_of_the_program() {
        let mut b = Builder::new(Platform::Gen8);
        let end = b.label();
        b.state_mut().predicate = Some(Predicate::normal(0, 0));
        b.if_().unwrap();
        b.do_();
        b.add(g(2), g(3), g(4)).unwrap();
        b.break_().unwrap();
        b.halt(end).unwrap();
        b.while_().unwrap();
        b.else_().unwrap();
        b.emit(Instruction::new(Opcode::Endif, ExecSize::S8)).unwrap();
        b.emit(Instruction::new(Opcode::Nop, ExecSize::S1)).unwrap();
        b.endif().unwrap();
        b.bind(end).unwrap();
        let scan: Vec<(usize, Opcode)> = b
            .insts
            .iter()
            .enumerate()
            .filter(|(_, i)| is_block_flow(i.opcode))
            .map(|(k, i)| (k, i.opcode))
            .collect();
        assert_eq!(scan.len(), 6); // if, halt, while, else and both endifs
        assert_eq!(b.flow, scan);
    }
}
