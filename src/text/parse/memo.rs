//! Pieces recognized by their bytes: most statements repeat a piece of a
//! recent one byte for byte (the options block `{ align1 1Q }`, the
//! region `<8,8,1>`), and a piece that is the same bytes reads the same
//! (its position aside). A [`Memo`] keeps the last pieces one reader read
//! without error, each with what it read them as, so that the reader's
//! caller can take a piece it meets again from it instead of reading it
//! again. It never reads a piece itself: it only compares bytes.

/// The last `SLOTS` different pieces of at most `16 × H` bytes that a
/// reader read, and what it read each as (`V`), looked at from the most
/// recently used; a new piece replaces the least recently used.
#[derive(Clone, Copy)]
pub(super) struct Memo<V, const H: usize, const SLOTS: usize> {
    slots: [Slot<V, H>; SLOTS],
    /// The slots' indices from the most recently used (low byte) to the
    /// least: each index once.
    order: u64,
}

/// One piece kept.
#[derive(Clone, Copy)]
struct Slot<V, const H: usize> {
    /// The piece's bytes, in little-endian 16-byte halves, zero past its
    /// end.
    key: [u128; H],
    /// Ones over the piece's bytes.
    mask: [u128; H],
    /// The piece's length in bytes.
    len: usize,
    val: V,
}

impl<V: Copy, const H: usize, const SLOTS: usize> Memo<V, H, SLOTS> {
    /// At most eight slots (one byte each in `order`), at least one, and
    /// pieces of at least one half.
    const FITS: () = assert!(SLOTS >= 1 && SLOTS <= 8 && H >= 1);

    /// The most bytes of a piece kept.
    pub(super) const BYTES: usize = 16 * H;

    /// No piece kept; `none` fills the slots' values. An empty slot's key
    /// is zero bytes under a mask of all its bytes: no piece is looked for
    /// where a zero byte starts (pieces start with `{`, `<`, ...).
    pub(super) const fn new(none: V) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::FITS;
        let slot = Slot {
            key: [0; H],
            mask: [u128::MAX; H],
            len: 0,
            val: none,
        };
        let mut order = 0u64;
        let mut k = 0;
        while k < SLOTS {
            order |= (k as u64) << (8 * k);
            k += 1;
        }
        Memo {
            slots: [slot; SLOTS],
            order,
        }
    }

    /// The first [`Memo::BYTES`] bytes of `w` in halves; `None` if `w` is
    /// shorter.
    #[inline(always)]
    fn halves(w: &[u8]) -> Option<[u128; H]> {
        let w = w.get(..Self::BYTES)?;
        Some(core::array::from_fn(|k| {
            w.get(16 * k..)
                .and_then(|h| h.first_chunk::<16>())
                .map_or(0, |a| u128::from_le_bytes(*a))
        }))
    }

    /// What the kept piece at the start of `w` read as, and its length;
    /// it becomes the most recently used. `None` if no piece kept is
    /// there, or if fewer than [`Memo::BYTES`] bytes are left.
    #[inline(always)]
    pub(super) fn find(&mut self, w: &[u8]) -> Option<(V, usize)> {
        let h = Self::halves(w)?;
        // Wider than the order, so that the masks below do not overflow
        // at the last rank.
        let order = u128::from(self.order);
        for rank in 0..SLOTS as u32 {
            let k = (order >> (8 * rank)) & 0xff;
            let Some(s) = self.slots.get(k as usize) else {
                continue;
            };
            let differ = h
                .iter()
                .zip(&s.key)
                .zip(&s.mask)
                .fold(0, |d, ((w, key), mask)| d | ((w ^ key) & mask));
            if differ == 0 {
                // Slot `k` to the front, those before it one place on.
                let before = order & ((1 << (8 * rank)) - 1);
                let after = order & !((1 << (8 * rank + 8)) - 1);
                self.order = (after | before << 8 | k) as u64;
                return Some((s.val, s.len));
            }
        }
        None
    }

    /// Keeps the piece of `len` bytes at the start of `w`, read as `val`,
    /// in place of the least recently used; a piece longer than
    /// [`Memo::BYTES`], or with fewer than that many bytes left in `w`, is
    /// not kept.
    pub(super) fn keep(&mut self, w: &[u8], len: usize, val: V) {
        let Some(h) = Self::halves(w) else {
            return;
        };
        if len == 0 || len > Self::BYTES {
            return;
        }
        let last = (self.order >> (8 * (SLOTS - 1))) & 0xff;
        let Some(s) = self.slots.get_mut(last as usize) else {
            return;
        };
        let bits = len * 8;
        for (k, ((key, mask), h)) in s.key.iter_mut().zip(&mut s.mask).zip(h).enumerate() {
            let b = bits.saturating_sub(128 * k);
            *mask = if b >= 128 { u128::MAX } else { (1u128 << b) - 1 };
            *key = h & *mask;
        }
        s.len = len;
        s.val = val;
        // The order keeps `SLOTS` bytes.
        let all = if SLOTS == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * SLOTS)) - 1
        };
        self.order = (self.order << 8 | last) & all;
    }
}
