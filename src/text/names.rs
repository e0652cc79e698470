//! Spellings of Mesa's assembly syntax that the disassembler prints and the
//! assembler parses: architecture register names, predicate and region
//! texts, write masks and instruction options.
//!
//! Opcode, type, conditional-modifier and math-function names live on the
//! model types ([`crate::Opcode::name`], [`crate::Type::name`],
//! [`crate::CondMod::name`], [`crate::MathFunction::name`]).

use crate::model::AccessMode;

/// An architecture register file (ARF) class, picked by the high nibble
/// of the ARF register number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArfClass {
    /// The register number with the low nibble clear (`0x10` for `a`).
    pub base: u8,
    /// The name Mesa prints (`a`, `acc`, `null`, `tdr0`).
    pub name: &'static str,
    /// Whether the low nibble follows the name as a number (`acc1`).
    pub numbered: bool,
    /// Whether the operand text stops after the name: no subregister,
    /// region or type (`ip`, `tdr0`).
    pub bare: bool,
}

const fn arf(base: u8, name: &'static str, numbered: bool, bare: bool) -> ArfClass {
    ArfClass {
        base,
        name,
        numbered,
        bare,
    }
}

/// Every named ARF class, in register-number order. Numbers whose high
/// nibble is not listed print as `ARF<nr>`.
pub const ARF_CLASSES: [ArfClass; 13] = [
    arf(0x00, "null", false, false),
    arf(0x10, "a", true, false),
    arf(0x20, "acc", true, false),
    arf(0x30, "f", true, false),
    arf(0x40, "mask", true, false),
    arf(0x50, "ms", true, false),
    arf(0x60, "msd", true, false),
    arf(0x70, "sr", true, false),
    arf(0x80, "cr", true, false),
    arf(0x90, "n", true, false),
    arf(0xa0, "ip", false, true),
    arf(0xb0, "tdr0", false, true),
    arf(0xc0, "tm", true, false),
];

/// Prefix Mesa prints for an ARF number outside [`ARF_CLASSES`].
pub const ARF_UNKNOWN: &str = "ARF";

/// The ARF class of a register number, if it has a name.
#[inline]
pub fn arf_class(nr: u8) -> Option<&'static ArfClass> {
    ARF_CLASSES.get(usize::from(nr >> 4)).filter(|c| c.base == nr & 0xf0)
}

/// The ARF class with this name (`acc`, `null`, `ip`, ...).
pub fn arf_class_by_name(name: &str) -> Option<&'static ArfClass> {
    ARF_CLASSES.iter().find(|c| c.name == name)
}

/// Name of the general register file prefix (`g12`).
pub const GRF_PREFIX: &str = "g";

/// Predicate-control suffixes in align1, indexed by the raw
/// `pred_control` field (0 means no predicate and is never printed).
pub const PRED_CTRL_ALIGN1: [&str; 14] = [
    "", "", ".anyv", ".allv", ".any2h", ".all2h", ".any4h", ".all4h", ".any8h", ".all8h", ".any16h", ".all16h",
    ".any32h", ".all32h",
];

/// Predicate-control suffixes in align16, indexed by the raw
/// `pred_control` field.
pub const PRED_CTRL_ALIGN16: [&str; 8] = ["", "", ".x", ".y", ".z", ".w", ".any4h", ".all4h"];

/// The predicate suffix for a raw predicate control in an access mode, or
/// `None` if the value is not defined there.
#[inline]
pub fn pred_ctrl_suffix(mode: AccessMode, v: u8) -> Option<&'static str> {
    let table: &[&str] = match mode {
        AccessMode::Align16 => &PRED_CTRL_ALIGN16,
        _ => &PRED_CTRL_ALIGN1,
    };
    table.get(usize::from(v)).copied()
}

/// The raw predicate control of a suffix (`""` → 1, `.anyv` → 2, `.x` → 2
/// in align16, ...).
pub fn pred_ctrl_from_suffix(mode: AccessMode, suffix: &str) -> Option<u8> {
    let table: &[&str] = match mode {
        AccessMode::Align16 => &PRED_CTRL_ALIGN16,
        _ => &PRED_CTRL_ALIGN1,
    };
    table
        .iter()
        .skip(1)
        .position(|s| *s == suffix)
        .and_then(|i| u8::try_from(i + 1).ok())
}

/// Destination write masks, indexed by the 4-bit mask (x = bit 0). The
/// full mask `xyzw` prints nothing; the empty mask prints a bare `.`.
pub const WRITEMASK: [&str; 16] = [
    ".", ".x", ".y", ".xy", ".z", ".xz", ".yz", ".xyz", ".w", ".xw", ".yw", ".xyw", ".zw", ".xzw", ".yzw", "",
];

/// Swizzle channel letters, indexed by the 2-bit selector.
pub const CHANNELS: [u8; 4] = *b"xyzw";

/// Vertical stride texts, indexed by the 4-bit encoding (`None` where
/// reserved; 15 is `VxH`).
pub const VSTRIDE: [Option<&str>; 16] = [
    Some("0"),
    Some("1"),
    Some("2"),
    Some("4"),
    Some("8"),
    Some("16"),
    Some("32"),
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    Some("VxH"),
];

/// Width texts, indexed by the 3-bit encoding (`None` where reserved).
pub const WIDTH: [Option<&str>; 8] = [Some("1"), Some("2"), Some("4"), Some("8"), Some("16"), None, None, None];

/// Horizontal stride texts, indexed by the 2-bit encoding.
pub const HSTRIDE: [&str; 4] = ["0", "1", "2", "4"];

/// Access-mode option names, indexed by the encoding.
pub const ACCESS_MODE: [&str; 2] = ["align1", "align16"];

/// Thread-control option names, indexed by the encoding (`""` = normal).
pub const THREAD_CONTROL: [&str; 3] = ["", "atomic", "switch"];

/// Dependency-control option texts, indexed by `NoDDChk << 1 | NoDDClr`.
pub const DEP_CONTROL: [&str; 4] = ["", "NoDDClr", "NoDDChk", "NoDDClr,NoDDChk"];

/// Option: mask control set (execute on all channels).
pub const OPT_WE_ALL: &str = "WE_all";
/// Option: accumulator write enable (bit 28).
pub const OPT_ACC_WR: &str = "AccWrEnable";
/// Option: branch control, the Gen8 meaning of bit 28 on `if` and `else`.
pub const OPT_BRANCH_CTRL: &str = "BranchCtrl";
/// Option: end of thread (SEND/SENDC).
pub const OPT_EOT: &str = "EOT";
/// Option: compacted instruction.
pub const OPT_COMPACTED: &str = "compacted";
/// Opcode suffix: saturate.
pub const SUFFIX_SAT: &str = ".sat";
/// Opcode suffix: debug control (breakpoint).
pub const SUFFIX_BREAKPOINT: &str = ".breakpoint";
/// Source-modifier text for absolute value.
pub const MOD_ABS: &str = "(abs)";

/// The `sincos` math function (encoding 8), which has no
/// [`crate::MathFunction`] value on Gen7+ but is still named by Mesa.
pub const MATH_SINCOS: &str = "sincos";
