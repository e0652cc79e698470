//! The architectural state of one thread: the general register file and
//! the architecture registers the simulator models.

use crate::isa::{arf, GRF_BYTES, GRF_COUNT};

/// Bytes in the general register file (g0-g127).
pub(crate) const GRF_FILE_BYTES: usize = (GRF_BYTES * GRF_COUNT) as usize;

/// Per-channel slots of the accumulators (acc0 and acc1 together hold 32
/// elements of a 16-bit type, 16 of a 32-bit type).
pub(crate) const ACC_SLOTS: usize = 32;

/// An architecture register the trace names, with the bytes it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Arf {
    /// `a0`: 16 word subregisters on Gen8, 8 on Gen7/7.5 (the model keeps
    /// 16 everywhere; Gen7 instructions name only the first 8).
    A0,
    /// An accumulator slot: the wide value of one channel (see
    /// [`Thread::acc`]), 8 bytes.
    Acc(u8),
    /// `f0` (0) or `f1` (1): 32 bits, two 16-bit subregisters.
    Flag(u8),
    /// `sr0`, four dwords.
    Sr0,
    /// `cr0`, four dwords.
    Cr0,
    /// `ce`/`mask0`: the dispatch channel enables, a dword.
    Ce,
    /// `tdr0`, eight words.
    Tdr,
    /// `n0`, two dwords.
    Notify,
    /// `ip`: the byte offset of the instruction, a dword.
    Ip,
    /// `tm0`: the simulator's step counter, deterministic (two dwords).
    Tm0,
    /// Channel `channel` of math-macro register `mme<reg>` (acc2-acc9 on
    /// Gen8), 16 bytes as the model keeps it (see
    /// [`super::MmeValue`]): bytes 0-7 the significand and 8-11 the
    /// exponent (little-endian; zero unless finite), 12 the class (0
    /// zero, 1 finite, 2 infinity, 3 NaN), 13 the sign, 14 one once
    /// written, 15 zero.
    Mme {
        /// The register, 0 to 7.
        reg: u8,
        /// The channel, 0 to 31.
        channel: u8,
    },
}

/// The register's name as a trace prints it: the text layer's names
/// (`a0`, `f0`, `sr0`, `cr0`, `ce0`, `tdr0`, `n0`, `ip`, `tm0`); an
/// accumulator slot and a math-macro channel with the channel in
/// brackets (`acc[3]`, `mme1[3]`).
impl core::fmt::Display for Arf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Arf::A0 => f.write_str("a0"),
            Arf::Acc(k) => write!(f, "acc[{k}]"),
            Arf::Flag(n) => write!(f, "f{n}"),
            Arf::Sr0 => f.write_str("sr0"),
            Arf::Cr0 => f.write_str("cr0"),
            Arf::Ce => f.write_str("ce0"),
            Arf::Tdr => f.write_str("tdr0"),
            Arf::Notify => f.write_str("n0"),
            Arf::Ip => f.write_str("ip"),
            Arf::Tm0 => f.write_str("tm0"),
            Arf::Mme { reg, channel } => write!(f, "mme{reg}[{channel}]"),
        }
    }
}

/// The registers of one thread, before, during and after a run.
///
/// Registers start at zero; the caller sets the dispatch payload (g0,
/// g1, ...), the dispatch channel enables ([`Thread::set_dispatch_mask`])
/// and, if it wants them, `cr0`'s rounding mode and denormal controls
/// ([`Thread::set_cr0`]).
///
/// ```
/// use geneu::sim::Thread;
/// let mut t = Thread::new();
/// t.write_ud(3, 4, 0xdead_beef);
/// assert_eq!(t.read_ud(3, 4), Some(0xdead_beef));
/// assert_eq!(t.reg(3).map(|r| r[4]), Some(0xef));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Thread {
    pub(crate) grf: alloc::boxed::Box<[u8; GRF_FILE_BYTES]>,
    /// `a0`, 16 words, little-endian.
    pub(crate) a0: [u8; 32],
    /// The accumulator slots: per channel, the wide value written (an
    /// integer sign-extended to 64 bits, keeping the 33-bit and 64-bit
    /// results of `addc`, `subb`, `mul` and `mach`; a float's bits: `F`
    /// in the low 32 bits, `DF` in all 64).
    pub(crate) acc: [u64; ACC_SLOTS],
    /// `f0` and `f1`, little-endian: f0 in bytes 0-3, f1 in 4-7.
    pub(crate) flags: [u8; 8],
    pub(crate) sr0: [u8; 16],
    pub(crate) cr0: [u8; 16],
    pub(crate) ce: [u8; 4],
    pub(crate) tdr: [u8; 16],
    pub(crate) notify: [u8; 8],
    pub(crate) ip: [u8; 4],
    pub(crate) tm0: [u8; 8],
    /// The thread's index in its dispatch (for scratch messages).
    pub(crate) thread_id: u32,
    /// The index of the thread's group (for shared local memory).
    pub(crate) group_id: u32,
    /// The math-macro registers `mme0`-`mme7` (acc2-acc9), per channel:
    /// the extended values of `madm`, `invm` and `rsqrtm` (see
    /// `sim::mme`).
    pub(crate) mme: alloc::boxed::Box<super::mme::MmeFile>,
}

impl Default for Thread {
    fn default() -> Self {
        Thread::new()
    }
}

impl Thread {
    /// A thread with every register zero and all 32 channels enabled.
    pub fn new() -> Thread {
        Thread {
            grf: alloc::boxed::Box::new([0; GRF_FILE_BYTES]),
            a0: [0; 32],
            acc: [0; ACC_SLOTS],
            flags: [0; 8],
            sr0: [0; 16],
            cr0: [0; 16],
            ce: u32::MAX.to_le_bytes(),
            tdr: [0; 16],
            notify: [0; 8],
            ip: [0; 4],
            tm0: [0; 8],
            thread_id: 0,
            group_id: 0,
            mme: alloc::boxed::Box::default(),
        }
    }

    /// The whole register file, g0 first (32 bytes a register).
    pub fn grf(&self) -> &[u8] {
        &self.grf[..]
    }

    /// The whole register file, to write.
    pub fn grf_mut(&mut self) -> &mut [u8] {
        &mut self.grf[..]
    }

    /// Register g`n`, if `n` is below 128.
    pub fn reg(&self, n: u8) -> Option<&[u8; 32]> {
        let s = usize::from(n) * GRF_BYTES as usize;
        self.grf.get(s..s + GRF_BYTES as usize)?.try_into().ok()
    }

    /// Register g`n`, to write.
    pub fn reg_mut(&mut self, n: u8) -> Option<&mut [u8; 32]> {
        let s = usize::from(n) * GRF_BYTES as usize;
        self.grf.get_mut(s..s + GRF_BYTES as usize)?.try_into().ok()
    }

    /// The dword at byte `byte` of g`reg` (little-endian), if inside the file.
    pub fn read_ud(&self, reg: u8, byte: u32) -> Option<u32> {
        let s = usize::from(reg) * GRF_BYTES as usize + byte as usize;
        Some(u32::from_le_bytes(self.grf.get(s..s + 4)?.try_into().ok()?))
    }

    /// Writes the dword at byte `byte` of g`reg`; `false` outside the file.
    pub fn write_ud(&mut self, reg: u8, byte: u32, v: u32) -> bool {
        let s = usize::from(reg) * GRF_BYTES as usize + byte as usize;
        match self.grf.get_mut(s..s + 4) {
            Some(d) => {
                d.copy_from_slice(&v.to_le_bytes());
                true
            }
            None => false,
        }
    }

    /// Writes eight dwords, one per channel, from byte 0 of g`reg`.
    pub fn write_ud8(&mut self, reg: u8, v: [u32; 8]) -> bool {
        v.iter().enumerate().all(|(k, &x)| self.write_ud(reg, k as u32 * 4, x))
    }

    /// Eight dwords from byte 0 of g`reg`.
    pub fn read_ud8(&self, reg: u8) -> Option<[u32; 8]> {
        let mut out = [0; 8];
        for (k, o) in out.iter_mut().enumerate() {
            *o = self.read_ud(reg, k as u32 * 4)?;
        }
        Some(out)
    }

    /// Flag register `f<n>` (0 or 1) as 32 bits: `f<n>.0` in the low half.
    pub fn flag(&self, n: u8) -> u32 {
        let s = usize::from(n & 1) * 4;
        self.flags
            .get(s..s + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u32::from_le_bytes)
    }

    /// Sets flag register `f<n>` (0 or 1).
    pub fn set_flag(&mut self, n: u8, v: u32) {
        let s = usize::from(n & 1) * 4;
        if let Some(d) = self.flags.get_mut(s..s + 4) {
            d.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Both flag registers as one value, f1 in the high half: the bit of
    /// channel bit `ch` of a flag subregister is
    /// [`super::exec::flag_bit_index`].
    #[inline]
    pub(crate) fn flag_bits(&self) -> u64 {
        u64::from(self.flag(0)) | u64::from(self.flag(1)) << 32
    }

    /// Sets both flag registers from one value ([`Self::flag_bits`]).
    #[inline]
    pub(crate) fn set_flag_bits(&mut self, all: u64) {
        self.set_flag(0, all as u32);
        self.set_flag(1, (all >> 32) as u32);
    }

    /// Address subregister `a0.<k>` (a word).
    pub fn a0(&self, k: u8) -> u16 {
        let s = usize::from(k) * 2;
        self.a0
            .get(s..s + 2)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u16::from_le_bytes)
    }

    /// Sets `a0.<k>` (k below 16).
    pub fn set_a0(&mut self, k: u8, v: u16) {
        let s = usize::from(k) * 2;
        if let Some(d) = self.a0.get_mut(s..s + 2) {
            d.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Accumulator slot `k` (0..32), the wide value of channel `k`: an
    /// integer result sign-extended to 64 bits (`addc`'s carry, `subb`'s
    /// borrow, `mul`'s whole product), or a float's bits.
    pub fn acc(&self, k: usize) -> u64 {
        self.acc.get(k).copied().unwrap_or(0)
    }

    /// Sets accumulator slot `k`.
    pub fn set_acc(&mut self, k: usize, v: u64) {
        if let Some(a) = self.acc.get_mut(k) {
            *a = v;
        }
    }

    /// `cr0.0`: rounding mode in bits 5:4 and the denormal controls
    /// ([`crate::isa::cr0`]).
    pub fn cr0(&self) -> u32 {
        dword(&self.cr0, 0)
    }

    /// Sets `cr0.0`.
    pub fn set_cr0(&mut self, v: u32) {
        set_dword(&mut self.cr0, 0, v);
    }

    /// `sr0.<k>` (k below 4).
    pub fn sr0(&self, k: usize) -> u32 {
        dword(&self.sr0, k)
    }

    /// Sets `sr0.<k>`.
    pub fn set_sr0(&mut self, k: usize, v: u32) {
        set_dword(&mut self.sr0, k, v);
    }

    /// The dispatch channel enables (`ce`): bit n enables channel n.
    pub fn dispatch_mask(&self) -> u32 {
        dword(&self.ce, 0)
    }

    /// Sets the dispatch channel enables: a SIMD8 dispatch is `0xff`.
    pub fn set_dispatch_mask(&mut self, m: u32) {
        set_dword(&mut self.ce, 0, m);
    }

    /// `ip`: the byte offset of the instruction executing (after a run,
    /// of the last one executed).
    pub fn ip(&self) -> u32 {
        dword(&self.ip, 0)
    }

    /// `tm0`: the number of instructions this thread has executed (the
    /// simulator's deterministic timestamp).
    pub fn tm0(&self) -> u64 {
        u64::from_le_bytes(self.tm0)
    }

    /// Sets the thread's index in its dispatch and its group's index,
    /// which messages use (scratch space is per thread, shared local
    /// memory per group).
    pub fn set_ids(&mut self, thread: u32, group: u32) {
        self.thread_id = thread;
        self.group_id = group;
    }

    /// The bytes of an architecture register by its ARF number
    /// (`None` for the null register, the accumulators and unknown ones).
    pub(crate) fn arf_bytes_mut(&mut self, nr: u8) -> Option<&mut [u8]> {
        let n = usize::from(nr & arf::NUMBER_MAX);
        Some(match arf::class(nr) {
            arf::ADDRESS if n == 0 => &mut self.a0[..],
            arf::FLAG if n <= 1 => self.flags.get_mut(n * 4..n * 4 + 4)?,
            arf::STATE if n == 0 => &mut self.sr0[..],
            arf::CONTROL if n == 0 => &mut self.cr0[..],
            arf::MASK if n == 0 => &mut self.ce[..],
            arf::TDR if n == 0 => &mut self.tdr[..],
            arf::NOTIFICATION if n == 0 => &mut self.notify[..],
            arf::IP if n == 0 => &mut self.ip[..],
            arf::TIMESTAMP if n == 0 => &mut self.tm0[..],
            _ => return None,
        })
    }

    /// Channel `channel` of math-macro register `mme<reg>` (Gen8's
    /// `madm`, `invm` and `rsqrtm`), once an instruction has written it.
    pub fn mme(&self, reg: u8, channel: usize) -> Option<super::MmeValue> {
        let slot = self.mme.get(usize::from(reg))?.get(channel)?;
        slot.valid.then_some(slot.value)
    }

    /// Every architecture register the simulator models with its bytes
    /// ([`Arf`] numbers them), `ip` and `tm0` included, the math-macro
    /// channels only once written.
    pub fn arfs(&self) -> alloc::vec::Vec<(Arf, alloc::vec::Vec<u8>)> {
        let mut out = alloc::vec::Vec::new();
        self.each_fixed_arf(&mut |r, b| out.push((r, b.to_vec())));
        for (reg, slots) in self.mme.iter().enumerate() {
            for (channel, slot) in slots.iter().enumerate().filter(|(_, s)| s.valid) {
                let r = Arf::Mme {
                    reg: reg as u8,
                    channel: channel as u8,
                };
                out.push((r, slot.image().to_vec()));
            }
        }
        out
    }

    /// Every architecture register's bytes, in [`Arf`] order (the
    /// trace's "before" and "after"; the math-macro channels, which the
    /// trace compares apart, aside).
    pub(crate) fn arf_image(&self, out: &mut alloc::vec::Vec<(Arf, u8, u8)>) {
        out.clear();
        self.each_fixed_arf(&mut |r, b| {
            for (k, &v) in b.iter().enumerate() {
                out.push((r, k as u8, v));
            }
        });
    }

    /// Calls `put` with every architecture register but the math-macro
    /// channels, and its bytes.
    fn each_fixed_arf(&self, put: &mut dyn FnMut(Arf, &[u8])) {
        put(Arf::A0, &self.a0);
        for (k, a) in self.acc.iter().enumerate() {
            put(Arf::Acc(k as u8), &a.to_le_bytes());
        }
        put(Arf::Flag(0), self.flags.get(0..4).unwrap_or(&[]));
        put(Arf::Flag(1), self.flags.get(4..8).unwrap_or(&[]));
        put(Arf::Sr0, &self.sr0);
        put(Arf::Cr0, &self.cr0);
        put(Arf::Ce, &self.ce);
        put(Arf::Tdr, &self.tdr);
        put(Arf::Notify, &self.notify);
        put(Arf::Ip, &self.ip);
        put(Arf::Tm0, &self.tm0);
    }
}

fn dword(b: &[u8], k: usize) -> u32 {
    b.get(k * 4..k * 4 + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

fn set_dword(b: &mut [u8], k: usize, v: u32) {
    if let Some(d) = b.get_mut(k * 4..k * 4 + 4) {
        d.copy_from_slice(&v.to_le_bytes());
    }
}
