//! The caller's memory: what SEND messages read and write. The simulator
//! owns none of it; the caller fills it before a run and reads it after.
//!
//! A [`Memory`] holds:
//!
//! - the **binding table**: surfaces by binding table index (0..=249 on
//!   every platform; 250..=255 are the reserved indices of
//!   [`crate::msg::ReservedBti`]). A [`Surface`] is a buffer of bytes
//!   ([`Surface::buffer`], for the untyped, scattered and block messages) or
//!   a 2D surface with a width, height, pitch and [`SurfaceFormat`]
//!   ([`Surface::image_2d`], for the typed, media block, sampler and render
//!   target messages). Surfaces are bounds-checked as the PRM describes:
//!   reads outside return zero, writes outside are dropped;
//! - the **sampler states** by sampler index ([`SamplerState`]);
//! - the **flat address space** of stateless (binding table index 255, 253
//!   ...) and A64 messages: sparse byte ranges the caller maps
//!   ([`Memory::map`]). Stateless A32 offsets are added to
//!   [`Memory::stateless_base`]. An access outside every mapped range is an
//!   error ([`crate::sim::SimError::Unmapped`]), not a silent zero: the
//!   hardware does not bounds-check stateless memory;
//! - **scratch space**, per thread (it starts as zeros and grows as the
//!   thread writes it);
//! - **shared local memory**, per thread group, [`Memory::slm_size`] bytes
//!   each (zeros at first; bounds-checked like a surface);
//! - the outputs the caller reads after a run: the **URB writes**
//!   ([`Memory::urb_writes`], and the entries they build,
//!   [`Memory::urb_entry`], which the caller may also fill for the URB
//!   read messages) and the **render target writes**
//!   ([`Memory::rt_writes`]), which also land in the bound colour buffer
//!   when the message's header, or the thread's dispatch
//!   ([`Memory::set_subspans`]), says where its pixels are.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use super::track::{Access, Region};

/// Why a [`Memory`] or a [`Surface`] cannot be set up as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MemoryError {
    /// A flat memory range overlaps one already mapped.
    #[error("range {start:#x}..{end:#x} overlaps a mapped range")]
    Overlap {
        /// First byte of the new range.
        start: u64,
        /// One past its last byte.
        end: u64,
    },
    /// A flat memory range runs past the end of the 64-bit address space.
    #[error("range at {start:#x} of {len} bytes runs past the 64-bit address space")]
    Wraps {
        /// First byte of the range.
        start: u64,
        /// Its length.
        len: u64,
    },
    /// A surface's data is shorter than its dimensions need.
    #[error("surface data: {len} bytes, its {height} rows of pitch {pitch} need {need}")]
    ShortData {
        /// Bytes given.
        len: usize,
        /// Bytes needed.
        need: u64,
        /// Rows.
        height: u32,
        /// Bytes per row.
        pitch: u32,
    },
    /// A pitch smaller than a row of texels, or a zero dimension.
    #[error("surface of {width}x{height} {format} with pitch {pitch}: {reason}")]
    BadDimensions {
        /// Width in texels.
        width: u32,
        /// Height in rows.
        height: u32,
        /// Bytes per row.
        pitch: u32,
        /// The format's name.
        format: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// A surface format name this simulator does not know.
    #[error("surface format {0:?} is not supported (supported: {list})", list = SurfaceFormat::NAMES)]
    UnsupportedFormat(alloc::string::String),
}

/// How a format's channels are stored and returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChannelKind {
    /// Unsigned normalized: returned as floats in 0.0..=1.0.
    Unorm,
    /// Unsigned integer: returned as integers.
    Uint,
    /// Signed integer: returned as (sign-extended) integers.
    Sint,
    /// IEEE float: returned as floats.
    Float,
}

macro_rules! formats {
    ($($v:ident = $name:literal, $bits:literal x $n:literal, $kind:ident;)*) => {
        /// A surface format of the 2D surfaces (the PRM's SURFACE_FORMAT
        /// names). A surface of another format cannot be built; its name
        /// is refused by [`SurfaceFormat::from_name`] with
        /// [`MemoryError::UnsupportedFormat`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum SurfaceFormat {
            $(#[doc = $name] $v,)*
        }

        impl SurfaceFormat {
            /// Every supported format.
            pub const ALL: &'static [SurfaceFormat] = &[$(SurfaceFormat::$v,)*];
            /// The supported formats' names, comma-separated.
            pub const NAMES: &'static str = concat!($($name, " ",)*);

            /// The PRM's name, such as `R32_UINT`.
            pub const fn name(self) -> &'static str {
                match self { $(SurfaceFormat::$v => $name,)* }
            }

            /// Bits per channel.
            pub const fn channel_bits(self) -> u32 {
                match self { $(SurfaceFormat::$v => $bits,)* }
            }

            /// Number of channels stored (the others read as 0, alpha as 1).
            pub const fn channels(self) -> u32 {
                match self { $(SurfaceFormat::$v => $n,)* }
            }

            /// How the channels are stored.
            pub const fn kind(self) -> ChannelKind {
                match self { $(SurfaceFormat::$v => ChannelKind::$kind,)* }
            }
        }
    };
}

formats! {
    R32G32B32A32Float = "R32G32B32A32_FLOAT", 32 x 4, Float;
    R32G32B32A32Uint = "R32G32B32A32_UINT", 32 x 4, Uint;
    R32G32B32A32Sint = "R32G32B32A32_SINT", 32 x 4, Sint;
    R32G32Float = "R32G32_FLOAT", 32 x 2, Float;
    R32G32Uint = "R32G32_UINT", 32 x 2, Uint;
    R32Float = "R32_FLOAT", 32 x 1, Float;
    R32Uint = "R32_UINT", 32 x 1, Uint;
    R32Sint = "R32_SINT", 32 x 1, Sint;
    R16G16B16A16Uint = "R16G16B16A16_UINT", 16 x 4, Uint;
    R16G16Uint = "R16G16_UINT", 16 x 2, Uint;
    R16Uint = "R16_UINT", 16 x 1, Uint;
    R16Sint = "R16_SINT", 16 x 1, Sint;
    R16Unorm = "R16_UNORM", 16 x 1, Unorm;
    R32G32B32Float = "R32G32B32_FLOAT", 32 x 3, Float;
    R16G16B16A16Float = "R16G16B16A16_FLOAT", 16 x 4, Float;
    R16G16Float = "R16G16_FLOAT", 16 x 2, Float;
    R16Float = "R16_FLOAT", 16 x 1, Float;
    R8G8B8A8Unorm = "R8G8B8A8_UNORM", 8 x 4, Unorm;
    B8G8R8A8Unorm = "B8G8R8A8_UNORM", 8 x 4, Unorm;
    R8G8Unorm = "R8G8_UNORM", 8 x 2, Unorm;
    R8G8B8A8Uint = "R8G8B8A8_UINT", 8 x 4, Uint;
    R8Unorm = "R8_UNORM", 8 x 1, Unorm;
    R8Uint = "R8_UINT", 8 x 1, Uint;
}

impl SurfaceFormat {
    /// Bytes per texel.
    pub const fn bytes(self) -> u32 {
        self.channel_bits() / 8 * self.channels()
    }

    /// The format named `name` (the PRM's spelling, such as `R8G8B8A8_UNORM`).
    pub fn from_name(name: &str) -> Result<SurfaceFormat, MemoryError> {
        SurfaceFormat::ALL
            .iter()
            .copied()
            .find(|f| f.name() == name)
            .ok_or_else(|| MemoryError::UnsupportedFormat(name.into()))
    }

    /// Decodes the texel at the start of `bytes` into four channels: raw
    /// integers for integer formats, `f32` bits for float and normalized
    /// formats; a channel the format lacks reads as 0, alpha as 1 (1.0 for
    /// float and normalized formats). `None` if `bytes` is too short.
    pub fn decode(self, bytes: &[u8]) -> Option<[u32; 4]> {
        let size = (self.channel_bits() / 8) as usize;
        let int = matches!(self.kind(), ChannelKind::Uint | ChannelKind::Sint);
        let mut out = [0, 0, 0, if int { 1 } else { 1.0f32.to_bits() }];
        for (c, slot) in out.iter_mut().enumerate().take(self.channels() as usize) {
            let b = bytes.get(c * size..(c + 1) * size)?;
            let mut raw = [0u8; 4];
            raw.get_mut(..size)?.copy_from_slice(b);
            let v = u32::from_le_bytes(raw);
            *slot = match self.kind() {
                ChannelKind::Float if size == 2 => half::f16::from_bits(v as u16).to_f32().to_bits(),
                ChannelKind::Float | ChannelKind::Uint => v,
                ChannelKind::Sint => match size {
                    1 => v as u8 as i8 as i32 as u32,
                    2 => v as u16 as i16 as i32 as u32,
                    _ => v,
                },
                ChannelKind::Unorm => {
                    let max = ((1u64 << (8 * size)) - 1) as f32;
                    (v as f32 / max).to_bits()
                }
            };
        }
        if self.stores_bgr() {
            out.swap(0, 2);
        }
        Some(out)
    }

    /// Whether the format stores blue first (`B8G8R8A8_UNORM`).
    const fn stores_bgr(self) -> bool {
        matches!(self, SurfaceFormat::B8G8R8A8Unorm)
    }

    /// Encodes four channels (as [`SurfaceFormat::decode`] returns them)
    /// into a texel of [`SurfaceFormat::bytes`] bytes: integers are
    /// truncated to the channel width; normalized channels take the float,
    /// clamped to 0.0..=1.0 (NaN as 0) and rounded to nearest; 16-bit
    /// floats are rounded to nearest even.
    pub fn encode(self, mut texel: [u32; 4]) -> Vec<u8> {
        if self.stores_bgr() {
            texel.swap(0, 2);
        }
        let size = (self.channel_bits() / 8) as usize;
        let mut out = Vec::with_capacity(self.bytes() as usize);
        for &v in texel.iter().take(self.channels() as usize) {
            let raw = match self.kind() {
                ChannelKind::Unorm => {
                    let f = f32::from_bits(v);
                    let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                    let max = ((1u64 << (8 * size)) - 1) as f32;
                    // Round half up on a non-negative value: floor(x + 0.5),
                    // computed without std's round (no_std).
                    (f * max + 0.5) as u32
                }
                ChannelKind::Float if size == 2 => u32::from(half::f16::from_f32(f32::from_bits(v)).to_bits()),
                _ => v,
            };
            out.extend_from_slice(raw.to_le_bytes().get(..size).unwrap_or(&[]));
        }
        out
    }
}

impl core::fmt::Display for SurfaceFormat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for SurfaceFormat {
    type Err = MemoryError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SurfaceFormat::from_name(s)
    }
}

/// A surface of the binding table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Surface {
    format: Option<SurfaceFormat>,
    width: u32,
    height: u32,
    pitch: u32,
    data: Vec<u8>,
}

impl Surface {
    /// A buffer (the PRM's SURFTYPE_BUFFER of format RAW): the untyped,
    /// scattered, OWord block and atomic messages address its bytes; its
    /// size is the length of `data`.
    pub fn buffer(data: Vec<u8>) -> Surface {
        let width = u32::try_from(data.len()).unwrap_or(u32::MAX);
        Surface {
            format: None,
            width,
            height: 1,
            pitch: width,
            data,
        }
    }

    /// A 2D surface of `width` x `height` texels of `format`, rows packed
    /// (the pitch is `width` texels), every texel zero.
    pub fn image_2d(format: SurfaceFormat, width: u32, height: u32) -> Result<Surface, MemoryError> {
        let pitch = width.checked_mul(format.bytes()).ok_or(MemoryError::BadDimensions {
            width,
            height,
            pitch: 0,
            format: format.name(),
            reason: "a row does not fit 32 bits",
        })?;
        let len = u64::from(pitch) * u64::from(height);
        let too_large = MemoryError::BadDimensions {
            width,
            height,
            pitch,
            format: format.name(),
            reason: "the surface does not fit memory",
        };
        let len = usize::try_from(len).map_err(|_| too_large.clone())?;
        let mut data = Vec::new();
        data.try_reserve_exact(len).map_err(|_| too_large)?;
        data.resize(len, 0);
        Surface::image_2d_with_data(format, width, height, pitch, data)
    }

    /// A 2D surface of `width` x `height` texels of `format`, `pitch` bytes
    /// from one row to the next, with its bytes (at least `pitch` x
    /// `height`; more are kept and also reachable by the untyped messages).
    pub fn image_2d_with_data(
        format: SurfaceFormat,
        width: u32,
        height: u32,
        pitch: u32,
        data: Vec<u8>,
    ) -> Result<Surface, MemoryError> {
        let bad = |reason| MemoryError::BadDimensions {
            width,
            height,
            pitch,
            format: format.name(),
            reason,
        };
        if width == 0 || height == 0 {
            return Err(bad("a dimension is zero"));
        }
        if u64::from(pitch) < u64::from(width) * u64::from(format.bytes()) {
            return Err(bad("the pitch is smaller than a row"));
        }
        let need = u64::from(pitch) * u64::from(height);
        if (data.len() as u64) < need {
            return Err(MemoryError::ShortData {
                len: data.len(),
                need,
                height,
                pitch,
            });
        }
        Ok(Surface {
            format: Some(format),
            width,
            height,
            pitch,
            data,
        })
    }

    /// The format of a 2D surface (`None` for a buffer).
    pub fn format(&self) -> Option<SurfaceFormat> {
        self.format
    }

    /// Width in texels (in bytes for a buffer).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in rows (1 for a buffer).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Bytes from one row to the next.
    pub fn pitch(&self) -> u32 {
        self.pitch
    }

    /// The surface's bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The surface's bytes, to fill before a run.
    pub fn data_mut(&mut self) -> &mut [u8] {
        &mut self.data
    }

    /// The byte offset of texel (`x`, `y`), if it is inside the surface.
    pub(crate) fn texel_offset(&self, x: i64, y: i64) -> Option<usize> {
        let f = self.format?;
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return None;
        }
        let off = y as u64 * u64::from(self.pitch) + x as u64 * u64::from(f.bytes());
        usize::try_from(off).ok()
    }

    /// The four channels of texel (`x`, `y`) of a 2D surface (see
    /// [`SurfaceFormat::decode`]); `None` outside the surface or for a buffer.
    pub fn texel(&self, x: i64, y: i64) -> Option<[u32; 4]> {
        let f = self.format?;
        let off = self.texel_offset(x, y)?;
        f.decode(self.data.get(off..)?)
    }

    /// Writes texel (`x`, `y`) of a 2D surface; `false` (nothing written)
    /// outside the surface or for a buffer.
    pub fn set_texel(&mut self, x: i64, y: i64, texel: [u32; 4]) -> bool {
        let (Some(f), Some(off)) = (self.format, self.texel_offset(x, y)) else {
            return false;
        };
        let bytes = f.encode(texel);
        match self.data.get_mut(off..off + bytes.len()) {
            Some(d) => {
                d.copy_from_slice(&bytes);
                true
            }
            None => false,
        }
    }
}

/// How a sampler addresses texels outside the surface (per axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum AddressMode {
    /// Clamp to the edge texel (TEXCOORDMODE_CLAMP).
    #[default]
    Clamp,
    /// Repeat the surface (TEXCOORDMODE_WRAP).
    Wrap,
    /// Outside texels read as the border colour, modelled as zero in every
    /// channel (TEXCOORDMODE_CLAMP_BORDER with a transparent black border).
    Border,
}

/// A sampler state (the parts the simulator models). Filtering is always
/// point (nearest texel) and only the first mip level exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct SamplerState {
    /// Address mode of U (x).
    pub address_u: AddressMode,
    /// Address mode of V (y).
    pub address_v: AddressMode,
    /// Coordinates are in texels rather than 0.0..1.0 across the surface.
    pub unnormalized: bool,
}

impl SamplerState {
    /// Normalized coordinates, both axes in `mode`.
    pub const fn new(mode: AddressMode) -> SamplerState {
        SamplerState {
            address_u: mode,
            address_v: mode,
            unnormalized: false,
        }
    }

    /// The same state with unnormalized (texel) coordinates.
    pub const fn unnormalized(mut self) -> SamplerState {
        self.unnormalized = true;
        self
    }
}

/// One dword a URB write message wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct UrbWrite {
    /// The thread that wrote it.
    pub thread: u32,
    /// The URB handle the message's header gives for the slot, as is.
    pub handle: u32,
    /// Dword offset within the URB entry.
    pub dword: u32,
    /// The value.
    pub value: u32,
}

/// One pixel a render target write message wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RtWrite {
    /// The thread that wrote it.
    pub thread: u32,
    /// The binding table index of the render target.
    pub bti: u8,
    /// The slot (pixel) of the message.
    pub slot: u32,
    /// The pixel's position, when the message has a header (its second
    /// register gives the subspans' positions); `None` without one.
    pub position: Option<(u32, u32)>,
    /// The colour, R G B A, as the payload holds it (f32 bits for float
    /// and normalized targets).
    pub color: [u32; 4],
}

/// Everything outside the register file that messages reach.
///
/// ```
/// use geneu::sim::{AddressMode, Memory, SamplerState, Surface, SurfaceFormat};
///
/// let mut mem = Memory::new();
/// // Binding table entry 0: a 64-byte buffer; entry 1: a 4x4 RGBA8 image.
/// mem.bind(0, Surface::buffer(vec![0; 64]));
/// let mut img = Surface::image_2d(SurfaceFormat::from_name("R8G8B8A8_UNORM")?, 4, 4)?;
/// img.data_mut()[..4].copy_from_slice(&[255, 0, 0, 255]);
/// mem.bind(1, img);
/// mem.set_sampler(0, SamplerState::new(AddressMode::Wrap));
/// // Stateless (BTI 255) offsets land at 0x1000 + offset.
/// mem.stateless_base = 0x1000;
/// mem.map(0x1000, vec![0; 256])?;
/// // ... run a program, then read what it wrote:
/// assert_eq!(mem.surface(1).and_then(|s| s.texel(0, 0)), Some([1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]));
/// assert_eq!(mem.read_flat(0x1000, 4), Some(&[0u8; 4][..]));
/// assert!(mem.urb_writes().is_empty() && mem.rt_writes().is_empty());
/// # Ok::<(), geneu::sim::MemoryError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Memory {
    // Surfaces, flat ranges, URB entries and subspans are shared (copied on
    // the first write) between a memory and its group views.
    surfaces: BTreeMap<u8, Arc<Surface>>,
    samplers: BTreeMap<u8, SamplerState>,
    flat: BTreeMap<u64, Arc<Vec<u8>>>,
    /// Added to every stateless (A32) offset to give the flat address (the
    /// General State Base Address).
    pub stateless_base: u64,
    scratch: BTreeMap<u32, Vec<u8>>,
    /// Bytes of shared local memory per thread group (default and at most
    /// [`SLM_SIZE_MAX`], the Gen7-Gen8 maximum; a larger value counts as it).
    pub slm_size: u32,
    slm: BTreeMap<u32, Vec<u8>>,
    urb: Vec<UrbWrite>,
    urb_entries: Arc<BTreeMap<u32, Vec<u32>>>,
    rt: Vec<RtWrite>,
    subspans: Arc<BTreeMap<u32, [(u32, u32); 4]>>,
    /// What the messages read and wrote, while recorded (a group's view).
    track: Option<Box<Access>>,
    /// A view's own copies of the pages of surfaces and flat memory its
    /// byte-addressed messages wrote (the shared bytes stay untouched, so a
    /// view of a large buffer costs what the group writes, not the buffer).
    pages: BTreeMap<(Region, u64), Box<[u8; PAGE]>>,
    /// Whether this is a group's view (which writes into `pages`).
    is_view: bool,
}

/// Bytes of a page of a view's own copies.
const PAGE: usize = 256;
/// A view writes surfaces larger than this into pages, smaller ones into
/// its own copy of the whole surface (cheaper while it is small).
const PAGED_ABOVE: usize = 64 * 1024;

impl Default for Memory {
    fn default() -> Memory {
        Memory::new()
    }
}

/// The largest URB entry, in dwords: the 11-bit global offset in HWords
/// plus a per-slot offset, bounded here at 64 KiB.
pub const URB_ENTRY_DWORDS_MAX: u32 = 16 * 1024;

/// Default (and Gen7-Gen8 maximum) shared local memory per thread group.
pub const SLM_SIZE_MAX: u32 = 64 * 1024;

impl Memory {
    /// Empty memory: no surfaces, no mapped ranges, 64 KiB of shared local
    /// memory per group, the default sampler state for every index.
    pub fn new() -> Memory {
        Memory {
            surfaces: BTreeMap::new(),
            samplers: BTreeMap::new(),
            flat: BTreeMap::new(),
            stateless_base: 0,
            scratch: BTreeMap::new(),
            slm_size: SLM_SIZE_MAX,
            slm: BTreeMap::new(),
            urb: Vec::new(),
            urb_entries: Arc::new(BTreeMap::new()),
            rt: Vec::new(),
            subspans: Arc::new(BTreeMap::new()),
            track: None,
            pages: BTreeMap::new(),
            is_view: false,
        }
    }

    /// Binds `surface` at binding table index `bti`, returning what was
    /// bound there. Binding one of the reserved indices (SLM, stateless)
    /// has no effect on the messages, which address those spaces instead.
    pub fn bind(&mut self, bti: u8, surface: Surface) -> Option<Surface> {
        self.surfaces
            .insert(bti, Arc::new(surface))
            .map(|s| Arc::try_unwrap(s).unwrap_or_else(|s| (*s).clone()))
    }

    /// The surface bound at `bti`.
    pub fn surface(&self, bti: u8) -> Option<&Surface> {
        self.surfaces.get(&bti).map(|s| &**s)
    }

    /// The surface bound at `bti`, to change (while a group's accesses are
    /// recorded, the whole surface counts as read and written).
    pub fn surface_mut(&mut self, bti: u8) -> Option<&mut Surface> {
        self.note_whole(bti);
        self.surfaces.get_mut(&bti).map(Arc::make_mut)
    }

    /// The bytes of the surface at `bti`, to change, without recording
    /// (the caller records the bytes it writes).
    pub(crate) fn surface_bytes_mut(&mut self, bti: u8) -> Option<&mut [u8]> {
        self.surfaces.get_mut(&bti).map(|s| Arc::make_mut(s).data_mut())
    }

    /// Records a read of `len` bytes at `start` of `region` (while recorded).
    #[inline]
    pub(crate) fn note_read(&mut self, region: Region, start: u64, len: usize) {
        if let Some(t) = self.track.as_mut() {
            t.read(region, start, len as u64);
        }
    }

    /// Records a write of `len` bytes at `start` of `region` (while recorded).
    #[inline]
    pub(crate) fn note_write(&mut self, region: Region, start: u64, len: usize) {
        if let Some(t) = self.track.as_mut() {
            t.write(region, start, len as u64);
        }
    }

    /// Records that a message reaches the surface at `bti` as a whole.
    #[inline]
    pub(crate) fn note_whole(&mut self, bti: u8) {
        let Some(t) = self.track.as_mut() else { return };
        t.whole(bti);
        // From now on the view writes this surface in place: its pages go
        // into its own copy of the surface.
        let region = Region::Surface(bti);
        let keys: Vec<(Region, u64)> = self
            .pages
            .range((region, 0)..=(region, u64::MAX))
            .map(|(k, _)| *k)
            .collect();
        if keys.is_empty() {
            return;
        }
        let Some(data) = self.surfaces.get_mut(&bti).map(|s| Arc::make_mut(s).data_mut()) else {
            return;
        };
        for k in keys {
            if let Some(page) = self.pages.remove(&k) {
                copy_span(data, 0, k.1, page.as_slice());
            }
        }
    }

    /// Whether writes to `region` go to this view's pages.
    pub(crate) fn paged(&self, region: Region) -> bool {
        match (&self.track, region) {
            _ if !self.is_view => false,
            // A small surface is cheaper to copy whole on the first write.
            (Some(t), Region::Surface(bti)) => {
                !t.whole.contains(&bti) && self.surface(bti).is_some_and(|s| s.data().len() > PAGED_ABOVE)
            }
            (Some(_), Region::Flat) => true,
            _ => false,
        }
    }

    /// Lays this view's own bytes over `out`, the shared bytes at `at` of
    /// `region`.
    pub(crate) fn patch_read(&self, region: Region, at: u64, out: &mut [u8]) {
        if self.pages.is_empty() {
            return;
        }
        let end = at.saturating_add(out.len() as u64);
        let mut p = at - at % PAGE as u64;
        while p < end {
            if let Some(page) = self.pages.get(&(region, p)) {
                copy_span(out, at, p, page.as_slice());
            }
            p = p.saturating_add(PAGE as u64);
            if p == u64::MAX {
                break;
            }
        }
    }

    /// Writes `data` at `at` of `region` into this view's pages (the
    /// caller has checked that the shared bytes hold it all).
    pub(crate) fn write_paged(&mut self, region: Region, at: u64, data: &[u8]) {
        let end = at.saturating_add(data.len() as u64);
        let mut p = at - at % PAGE as u64;
        let (surfaces, flat, pages) = (&self.surfaces, &self.flat, &mut self.pages);
        while p < end {
            let page = pages.entry((region, p)).or_insert_with(|| {
                // The page as the shared bytes have it.
                let mut page = Box::new([0u8; PAGE]);
                match region {
                    Region::Surface(bti) => {
                        if let Some(s) = surfaces.get(&bti) {
                            copy_span(page.as_mut_slice(), p, 0, s.data());
                        }
                    }
                    Region::Flat => {
                        for (&start, b) in flat.range(..p.saturating_add(PAGE as u64)) {
                            copy_span(page.as_mut_slice(), p, start, b);
                        }
                    }
                    Region::Urb => {}
                }
                page
            });
            copy_span(page.as_mut_slice(), p, at, data);
            p = p.saturating_add(PAGE as u64);
            if p == u64::MAX {
                break;
            }
        }
    }

    /// Sets the sampler state of sampler index `index`.
    pub fn set_sampler(&mut self, index: u8, state: SamplerState) {
        self.samplers.insert(index, state);
    }

    /// The sampler state of `index` (the default one if never set).
    pub fn sampler(&self, index: u8) -> SamplerState {
        self.samplers.get(&index).copied().unwrap_or_default()
    }

    /// Maps `bytes` at flat address `address`.
    pub fn map(&mut self, address: u64, bytes: Vec<u8>) -> Result<(), MemoryError> {
        let len = bytes.len() as u64;
        let end = address
            .checked_add(len)
            .ok_or(MemoryError::Wraps { start: address, len })?;
        let overlaps = self
            .flat
            .range(..end)
            .next_back()
            .is_some_and(|(&s, b)| s.saturating_add(b.len() as u64) > address);
        if overlaps && len > 0 {
            return Err(MemoryError::Overlap { start: address, end });
        }
        self.flat.insert(address, Arc::new(bytes));
        Ok(())
    }

    /// The mapped range that starts at `address`.
    pub fn mapped(&self, address: u64) -> Option<&[u8]> {
        self.flat.get(&address).map(|b| b.as_slice())
    }

    /// Every mapped range: its start and bytes, by address.
    pub fn mapped_ranges(&self) -> impl Iterator<Item = (u64, &[u8])> {
        self.flat.iter().map(|(&a, b)| (a, b.as_slice()))
    }

    /// `len` bytes at flat `address`, if one mapped range holds them all.
    pub fn read_flat(&self, address: u64, len: usize) -> Option<&[u8]> {
        let (&start, b) = self.flat.range(..=address).next_back()?;
        let off = usize::try_from(address - start).ok()?;
        b.get(off..off.checked_add(len)?)
    }

    /// The same bytes, to change.
    pub(crate) fn flat_mut(&mut self, address: u64, len: usize) -> Option<&mut [u8]> {
        let (&start, b) = self.flat.range_mut(..=address).next_back()?;
        let off = usize::try_from(address - start).ok()?;
        let end = off.checked_add(len)?;
        if end > b.len() {
            return None;
        }
        Arc::make_mut(b).get_mut(off..end)
    }

    /// The scratch space thread `thread` has written (zeros where it has
    /// not); `None` if it wrote none.
    pub fn scratch(&self, thread: u32) -> Option<&[u8]> {
        self.scratch.get(&thread).map(Vec::as_slice)
    }

    pub(crate) fn scratch_mut(&mut self, thread: u32) -> &mut Vec<u8> {
        self.scratch.entry(thread).or_default()
    }

    /// The shared local memory of thread group `group`; `None` if no
    /// message of the group touched it.
    pub fn slm(&self, group: u32) -> Option<&[u8]> {
        self.slm.get(&group).map(Vec::as_slice)
    }

    /// The shared local memory of `group`, created as zeros if needed (to
    /// fill before a run).
    pub fn slm_mut(&mut self, group: u32) -> &mut [u8] {
        let size = self.slm_size.min(SLM_SIZE_MAX) as usize;
        self.slm.entry(group).or_insert_with(|| vec![0; size])
    }

    /// Every dword the URB write messages wrote, in order.
    pub fn urb_writes(&self) -> &[UrbWrite] {
        &self.urb
    }

    pub(crate) fn push_urb(&mut self, w: UrbWrite) {
        self.note_write(Region::Urb, 0, 1);
        self.urb.push(w);
        self.set_urb(w.handle, w.dword, w.value);
    }

    /// The URB entry of `handle` as dwords: what the caller set
    /// ([`Memory::set_urb`]) and the URB writes wrote, zeros in between;
    /// `None` if nothing was.
    pub fn urb_entry(&self, handle: u32) -> Option<&[u32]> {
        self.urb_entries.get(&handle).map(Vec::as_slice)
    }

    /// The same, for a URB read message (recorded).
    pub(crate) fn urb_entry_read(&mut self, handle: u32) -> Option<&[u32]> {
        self.note_read(Region::Urb, 0, 1);
        self.urb_entry(handle)
    }

    /// Sets dword `dword` of the URB entry of `handle` (the inputs URB
    /// read messages read). Entries are at most [`URB_ENTRY_DWORDS_MAX`]
    /// dwords; a dword past that is dropped.
    pub fn set_urb(&mut self, handle: u32, dword: u32, value: u32) {
        let Ok(i) = usize::try_from(dword) else { return };
        if dword >= URB_ENTRY_DWORDS_MAX {
            return;
        }
        let e = Arc::make_mut(&mut self.urb_entries).entry(handle).or_default();
        if e.len() <= i {
            e.resize(i + 1, 0);
        }
        if let Some(d) = e.get_mut(i) {
            *d = value;
        }
    }

    /// Every pixel the render target writes wrote, in order.
    pub fn rt_writes(&self) -> &[RtWrite] {
        &self.rt
    }

    pub(crate) fn push_rt(&mut self, w: RtWrite) {
        self.rt.push(w);
    }

    /// Records where the pixel shader thread `thread` was dispatched: the
    /// upper-left pixel (x, y) of each of its subspans (2x2 pixels; slots
    /// 4n..4n+3 are subspan n's pixels, left to right, top to bottom), as
    /// the thread's r1.2-r1.5 give them. A render target write without a
    /// header writes its pixels there.
    pub fn set_subspans(&mut self, thread: u32, subspans: [(u32, u32); 4]) {
        Arc::make_mut(&mut self.subspans).insert(thread, subspans);
    }

    /// The subspans recorded for `thread`.
    pub fn subspans(&self, thread: u32) -> Option<&[(u32, u32); 4]> {
        self.subspans.get(&thread)
    }

    /// A view of this memory for running thread group `group` (threads
    /// `threads`) on its own: it shares the surfaces, flat ranges and URB
    /// entries (copied on its first write), holds the group's shared local
    /// memory and its threads' scratch space, starts with no URB or render
    /// target writes, and records what the group reads and writes.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn view(&self, group: u32, threads: &[u32]) -> Memory {
        let slm = self.slm.get(&group).map(|m| (group, m.clone())).into_iter().collect();
        let scratch = threads
            .iter()
            .filter_map(|&t| self.scratch.get(&t).map(|s| (t, s.clone())))
            .collect();
        Memory {
            surfaces: self.surfaces.clone(),
            samplers: self.samplers.clone(),
            flat: self.flat.clone(),
            stateless_base: self.stateless_base,
            scratch,
            slm_size: self.slm_size,
            slm,
            urb: Vec::new(),
            urb_entries: Arc::clone(&self.urb_entries),
            rt: Vec::new(),
            subspans: Arc::clone(&self.subspans),
            track: Some(Box::default()),
            pages: BTreeMap::new(),
            is_view: true,
        }
    }

    /// Calls `f` with the address and bytes of this view's own copies of
    /// `start..end` of `region`, page by page.
    fn pages_into(&self, region: Region, start: u64, end: u64, mut f: impl FnMut(u64, &[u8])) {
        for (&(_, p), page) in self.pages.range((region, start - start % PAGE as u64)..(region, end)) {
            let s = start.max(p);
            let e = end.min(p.saturating_add(PAGE as u64));
            let (Ok(a), Ok(b)) = (usize::try_from(s - p), usize::try_from(e - p)) else {
                continue;
            };
            if let Some(bytes) = page.get(a..b) {
                f(s, bytes);
            }
        }
    }

    /// Starts recording accesses (for a group run on this memory itself).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn start_tracking(&mut self) {
        self.track = Some(Box::default());
    }

    /// Stops recording and returns what was recorded.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn take_access(&mut self) -> Access {
        let mut a = self.track.take().map(|b| *b).unwrap_or_default();
        a.finish();
        a
    }

    /// Makes the writes of a group that ran on `view` (made by
    /// [`Memory::view`] for `group` and `threads`, with the recorded
    /// `access`) as if it had run on this memory. Sound when this memory
    /// holds, of every byte the group read, what the view started with.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn commit(&mut self, mut view: Memory, access: &Access, group: u32, threads: &[u32]) {
        for (region, start, end) in access.writes.iter() {
            match region {
                Region::Surface(bti) if access.whole.contains(&bti) => {
                    if let Some(s) = view.surfaces.get(&bti) {
                        self.surfaces.insert(bti, Arc::clone(s));
                    }
                }
                Region::Surface(bti) => {
                    let Some(dst) = self.surfaces.get_mut(&bti) else {
                        continue;
                    };
                    let dst = Arc::make_mut(dst).data_mut();
                    match view.surfaces.get(&bti) {
                        // A small surface: the view's own copy.
                        Some(src) if src.data().len() <= PAGED_ABOVE => {
                            let src = src.data();
                            let s = usize::try_from(start).unwrap_or(usize::MAX).min(src.len());
                            let e = usize::try_from(end).unwrap_or(usize::MAX).min(src.len());
                            copy_span(dst, 0, s as u64, src.get(s..e).unwrap_or(&[]));
                        }
                        _ => view.pages_into(Region::Surface(bti), start, end, |at, bytes| {
                            copy_span(dst, 0, at, bytes)
                        }),
                    }
                }
                Region::Flat => {
                    let flat = &mut self.flat;
                    view.pages_into(Region::Flat, start, end, |at, bytes| {
                        // Mapped range by mapped range (a span may cross
                        // from one to the next).
                        let to = at.saturating_add(bytes.len() as u64);
                        for (&start, b) in flat.range_mut(..to) {
                            if start.saturating_add(b.len() as u64) > at {
                                copy_span(Arc::make_mut(b).as_mut_slice(), start, at, bytes);
                            }
                        }
                    });
                }
                // Replayed below, in order.
                Region::Urb => {}
            }
        }
        for w in core::mem::take(&mut view.urb) {
            self.push_urb(w);
        }
        self.rt.append(&mut view.rt);
        if let Some(m) = view.slm.remove(&group) {
            self.slm.insert(group, m);
        }
        for t in threads {
            if let Some(s) = view.scratch.remove(t) {
                self.scratch.insert(*t, s);
            }
        }
    }
}

/// Copies the bytes of `src` (at address `src_at`) that fall inside `dst`
/// (at address `dst_at`) there.
fn copy_span(dst: &mut [u8], dst_at: u64, src_at: u64, src: &[u8]) {
    let s = dst_at.max(src_at);
    let e = dst_at
        .saturating_add(dst.len() as u64)
        .min(src_at.saturating_add(src.len() as u64));
    if e <= s {
        return;
    }
    let (Ok(d), Ok(x), Ok(n)) = (
        usize::try_from(s - dst_at),
        usize::try_from(s - src_at),
        usize::try_from(e - s),
    ) else {
        return;
    };
    if let (Some(to), Some(from)) = (dst.get_mut(d..d + n), src.get(x..x + n)) {
        to.copy_from_slice(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_round_trip_and_default_channels() {
        let f = SurfaceFormat::R8G8B8A8Unorm;
        assert_eq!(
            f.decode(&[255, 0, 51, 128]).unwrap()[..3],
            [1.0f32.to_bits(), 0, 0.2f32.to_bits()]
        );
        assert_eq!(
            f.encode([0.5f32.to_bits(), 2.0f32.to_bits(), f32::NAN.to_bits(), 0]),
            [128, 255, 0, 0]
        );
        assert_eq!(SurfaceFormat::R32Uint.decode(&7u32.to_le_bytes()), Some([7, 0, 0, 1]));
        assert_eq!(SurfaceFormat::R16Sint.decode(&[0xff, 0xff]), Some([u32::MAX, 0, 0, 1]));
        assert_eq!(SurfaceFormat::R32Float.decode(&[0; 4]).unwrap()[3], 1.0f32.to_bits());
        assert_eq!(SurfaceFormat::R8Unorm.decode(&[]), None);
        // B8G8R8A8 stores blue first; half floats: 0x3c00 is 1.0, 0xc000 is -2.0.
        let bgra = SurfaceFormat::B8G8R8A8Unorm;
        assert_eq!(bgra.decode(&[0, 0, 255, 255]).unwrap()[0], 1.0f32.to_bits());
        assert_eq!(bgra.encode([1.0f32.to_bits(), 0, 0, 0]), [0, 0, 255, 0]);
        let h = SurfaceFormat::R16G16Float;
        assert_eq!(
            h.decode(&[0x00, 0x3c, 0x00, 0xc0]),
            Some([1.0f32.to_bits(), (-2.0f32).to_bits(), 0, 1.0f32.to_bits()])
        );
        assert_eq!(
            h.encode([0.5f32.to_bits(), 65504.0f32.to_bits(), 0, 0]),
            [0x00, 0x38, 0xff, 0x7b]
        );
        assert_eq!(SurfaceFormat::R32G32B32Float.bytes(), 12);
        for f in SurfaceFormat::ALL {
            assert_eq!(f.name().parse::<SurfaceFormat>(), Ok(*f));
        }
        assert!(
            matches!(SurfaceFormat::from_name("BC1_UNORM"), Err(MemoryError::UnsupportedFormat(n)) if n == "BC1_UNORM")
        );
    }

    #[test]
    fn flat_ranges_refuse_overlap() {
        let mut m = Memory::new();
        m.map(0x1000, vec![1; 16]).unwrap();
        assert!(m.map(0x100f, vec![0; 1]).is_err());
        assert!(m.map(0x0ff8, vec![0; 9]).is_err());
        m.map(0x1010, vec![2; 4]).unwrap();
        m.map(0x0ff8, vec![3; 8]).unwrap();
        assert!(m.map(u64::MAX, vec![0; 2]).is_err());
        assert_eq!(m.read_flat(0x100e, 2), Some(&[1, 1][..]));
        assert_eq!(m.read_flat(0x100f, 2), None, "spans two ranges");
        assert_eq!(m.read_flat(0x1010, 4), Some(&[2; 4][..]));
    }

    #[test]
    fn surfaces_check_dimensions() {
        assert!(Surface::image_2d(SurfaceFormat::R32Uint, 0, 1).is_err());
        assert!(Surface::image_2d_with_data(SurfaceFormat::R32Uint, 4, 2, 12, vec![0; 32]).is_err());
        assert!(Surface::image_2d_with_data(SurfaceFormat::R32Uint, 4, 2, 16, vec![0; 31]).is_err());
        let mut s = Surface::image_2d(SurfaceFormat::R16Uint, 3, 2).unwrap();
        assert!(s.set_texel(2, 1, [0x1234, 0, 0, 0]));
        assert!(!s.set_texel(3, 1, [1, 0, 0, 0]));
        assert_eq!(s.data()[10..12], [0x34, 0x12]);
        assert_eq!(s.texel(2, 1), Some([0x1234, 0, 0, 1]));
        assert_eq!(s.texel(-1, 0), None);
    }
}
