//! The vISA bad-input property: arbitrary operand bytes and arbitrary
//! typed operands against arbitrary variable tables give `Ok` or a typed
//! error, never a panic, and every lowered instruction validates and
//! round-trips through the codec. Same check as the fuzz target.
#![cfg(feature = "check")] // the shared property checks (`geneu::check`)

use crate::text_common;

/// The check the `visa_cases` fuzz target runs, on arbitrary bytes, for
/// the time budget.
#[test]
fn arbitrary_vars_and_operands_lower_to_valid_words_or_errors() {
    text_common::check(|u| {
        let data: Vec<u8> = u.arbitrary()?;
        geneu::check::visa::check(&data);
        Ok(())
    });
}

/// Enough cases lower successfully for the property to mean something.
#[test]
fn the_generator_reaches_successful_lowerings() {
    use geneu::check::visa::{arbitrary_case, CaseOp};
    use geneu::visa::{lower, lower_gather4_typed};
    let (mut ok, mut gathers_ok) = (0, 0);
    let mut state = 0x1234_5678_9abc_def0_u64;
    for _ in 0..4000 {
        let data: Vec<u8> = (0..96)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        let case = arbitrary_case(&data);
        match &case.op {
            CaseOp::Inst(i) => ok += lower(case.platform, &case.vars, &case.ctx, i).is_ok() as u32,
            CaseOp::Gather(g) => {
                gathers_ok += lower_gather4_typed(case.platform, &case.vars, &case.ctx, g).is_ok() as u32
            }
            _ => {}
        }
        geneu::check::visa::check(&data);
    }
    assert!(ok >= 40, "only {ok} instructions lowered");
    assert!(gathers_ok >= 1, "no gather lowered");
    eprintln!("lowered: {ok} instructions, {gathers_ok} gathers");
}
