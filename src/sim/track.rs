//! What a thread group read and wrote of the memory that groups share
//! (surfaces, flat memory, the URB entries): the record that lets
//! [`super::dispatch`] run groups at once and still give the result of
//! running them one after another.
//!
//! Accesses are byte ranges per [`Region`]. The data port's untyped,
//! scattered, block and atomic messages record the bytes they touch; the
//! messages that reach a surface as a whole (typed, media block, sampler,
//! render target) record the whole surface as read and written
//! ([`Access::whole`]); the URB entries are one region.
// Only the parallel dispatch (std) reads the records.
#![cfg_attr(not(feature = "std"), allow(dead_code))]

use alloc::collections::{BTreeMap, BTreeSet};

/// A part of the shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Region {
    /// The surface bound at a binding table index.
    Surface(u8),
    /// The flat address space.
    Flat,
    /// The URB entries (one region: offsets are not recorded).
    Urb,
}

/// Disjoint byte ranges per region, merged as they are added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ranges {
    /// Start → end (exclusive), per region.
    map: BTreeMap<(Region, u64), u64>,
}

impl Ranges {
    /// Adds `start..end` of `region`.
    pub(crate) fn add(&mut self, region: Region, mut start: u64, mut end: u64) {
        if end <= start {
            return;
        }
        // Absorb every range that overlaps or touches the new one.
        while let Some((&(r, s), &e)) = self.map.range(..=(region, end)).next_back() {
            if r != region || e < start {
                break;
            }
            self.map.remove(&(r, s));
            start = start.min(s);
            end = end.max(e);
        }
        self.map.insert((region, start), end);
    }

    /// Whether any byte of `start..end` of `region` is in the set.
    pub(crate) fn meets(&self, region: Region, start: u64, end: u64) -> bool {
        if end <= start {
            return false;
        }
        // The ranges are disjoint: only the last one that starts before
        // `end` can reach past `start`.
        self.map
            .range(..(region, end))
            .next_back()
            .is_some_and(|(&(r, _), &e)| r == region && e > start)
    }

    /// Whether any byte of `other` is in the set.
    pub(crate) fn meets_any(&self, other: &Ranges) -> bool {
        other.iter().any(|(r, s, e)| self.meets(r, s, e))
    }

    /// Adds every range of `other`.
    pub(crate) fn add_all(&mut self, other: &Ranges) {
        for (r, s, e) in other.iter() {
            self.add(r, s, e);
        }
    }

    /// The ranges: region, start, end.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Region, u64, u64)> + '_ {
        self.map.iter().map(|(&(r, s), &e)| (r, s, e))
    }
}

/// What a group read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Access {
    /// Bytes read (a write that depends on the old value, an atomic,
    /// counts as a read too).
    pub reads: Ranges,
    /// Bytes written.
    pub writes: Ranges,
    /// Surfaces reached as a whole (also in `reads` and `writes`, every
    /// byte): committed by copying the whole surface.
    pub whole: BTreeSet<u8>,
    /// The last range read and written, merged with the next one when it
    /// follows on (the common case of consecutive slots) before going
    /// into the sets.
    last_read: Option<(Region, u64, u64)>,
    last_write: Option<(Region, u64, u64)>,
}

impl Access {
    pub(crate) fn read(&mut self, region: Region, start: u64, len: u64) {
        note(&mut self.last_read, &mut self.reads, region, start, len);
    }

    pub(crate) fn write(&mut self, region: Region, start: u64, len: u64) {
        note(&mut self.last_write, &mut self.writes, region, start, len);
    }

    /// A surface read and written as a whole.
    pub(crate) fn whole(&mut self, bti: u8) {
        if self.whole.insert(bti) {
            self.reads.add(Region::Surface(bti), 0, u64::MAX);
            self.writes.add(Region::Surface(bti), 0, u64::MAX);
        }
    }

    /// Moves the pending ranges into the sets.
    pub(crate) fn finish(&mut self) {
        if let Some((r, s, e)) = self.last_read.take() {
            self.reads.add(r, s, e);
        }
        if let Some((r, s, e)) = self.last_write.take() {
            self.writes.add(r, s, e);
        }
    }
}

fn note(last: &mut Option<(Region, u64, u64)>, set: &mut Ranges, region: Region, start: u64, len: u64) {
    let end = start.saturating_add(len);
    if let Some((r, s, e)) = last {
        if *r == region && start >= *s && start <= *e {
            *e = (*e).max(end);
            return;
        }
        set.add(*r, *s, *e);
    }
    *last = Some((region, start, end));
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The set against a plain list of bytes.
    #[test]
    fn ranges_merge_and_meet_as_byte_sets() {
        let mut r = Ranges::default();
        let mut bytes = BTreeSet::new();
        let adds = [(10u64, 12u64), (20, 25), (12, 14), (0, 2), (24, 30), (5, 21), (40, 41)];
        for (k, &(s, e)) in adds.iter().enumerate() {
            r.add(Region::Flat, s, e);
            bytes.extend(s..e);
            for qs in 0..45u64 {
                for qe in qs..46 {
                    let want = (qs..qe).any(|b| bytes.contains(&b));
                    assert_eq!(r.meets(Region::Flat, qs, qe), want, "after {k} adds, {qs}..{qe}");
                    assert!(!r.meets(Region::Urb, qs, qe));
                }
            }
        }
        assert_eq!(
            r.iter().collect::<Vec<_>>(),
            [(Region::Flat, 0, 2), (Region::Flat, 5, 30), (Region::Flat, 40, 41)]
        );
        let mut a = Access::default();
        a.write(Region::Surface(1), 0, 4);
        a.write(Region::Surface(1), 4, 4);
        a.write(Region::Surface(2), 4, 4);
        a.finish();
        assert!(a.writes.meets(Region::Surface(1), 7, 8) && !a.writes.meets(Region::Surface(2), 0, 4));
    }
}
