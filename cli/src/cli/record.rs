//! The records `asm` writes, one per native instruction: hex, raw bytes or
//! C. Shared by the one-thread and the parallel assembler (below both).

/// Output format of `asm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutType {
    /// One word per line, 16 two-digit hex bytes in memory order (the
    /// corpus's `.expected` form).
    Hex,
    /// The words' raw bytes.
    Bin,
    /// A C array of 32-bit words (`uint32_t`), four per instruction.
    C,
}

/// Bytes of one native instruction's record in each output form (the C
/// form's body).
fn record_len(ty: OutType) -> usize {
    match ty {
        OutType::Hex => 48,
        OutType::Bin => 16,
        OutType::C => 52,
    }
}

/// The record of one instruction of 16 or 8 (compacted) bytes in the
/// output form `ty`, and its length: hex bytes and a line end, the raw
/// bytes, or a C line of dwords (four, or two).
pub(crate) fn format_record(ty: OutType, w: &[u8]) -> ([u8; 52], usize) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    /// Each byte's two hex digits and a space.
    const HEX: [[u8; 4]; 256] = {
        let mut t = [[b' '; 4]; 256];
        let mut i = 0;
        while i < 256 {
            t[i][0] = DIGITS[i >> 4];
            t[i][1] = DIGITS[i & 15];
            i += 1;
        }
        t
    };
    let w = w.get(..16).unwrap_or(w);
    let mut rec = [b' '; 52];
    let len = match ty {
        OutType::Hex => {
            // `xx xx ... xx\n`: each byte's digits and a space, the last
            // space a line end.
            for (o, &b) in rec.chunks_exact_mut(3).zip(w) {
                o.copy_from_slice(&HEX[usize::from(b)][..3]);
            }
            let len = 3 * w.len();
            if let Some(end) = rec.get_mut(len.saturating_sub(1)) {
                *end = b'\n';
            }
            len
        }
        OutType::Bin => {
            rec[..w.len()].copy_from_slice(w);
            w.len()
        }
        OutType::C => {
            // `    0x%08x, 0x%08x, 0x%08x, 0x%08x,\n`, DW0 first.
            for (o, d) in rec[3..51].chunks_exact_mut(12).zip(w.chunks_exact(4)) {
                o[1] = b'0';
                o[2] = b'x';
                for (i, b) in d.iter().rev().enumerate() {
                    o[3 + 2 * i] = DIGITS[usize::from(b >> 4)];
                    o[4 + 2 * i] = DIGITS[usize::from(b & 15)];
                }
                o[11] = b',';
            }
            let len = 3 + 12 * (w.len() / 4) + 1;
            if let Some(end) = rec.get_mut(len - 1) {
                *end = b'\n';
            }
            len
        }
    };
    (rec, len)
}

/// Writes instruction `k`'s record of the output form `ty` into `out`,
/// appending it or, for a flow-control instruction given again once its
/// jumps are resolved, replacing its placeholder. Every record of a form
/// has the same length, so record `k` starts at `k` times that length.
pub(crate) fn put_record(out: &mut Vec<u8>, ty: OutType, k: usize, w: &[u8; 16]) {
    let (rec, len) = format_record(ty, w);
    debug_assert_eq!(len, record_len(ty));
    let rec = &rec[..len];
    let at = k * len;
    match out.get_mut(at..at + len) {
        Some(slot) => slot.copy_from_slice(rec),
        None => out.extend_from_slice(rec),
    }
}
