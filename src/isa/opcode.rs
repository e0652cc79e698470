//! The opcode table: one row per opcode with its mnemonic, hardware number,
//! platforms, form and flags, as IGA's `OpSpec` tables do (IGA's
//! `Models/bxml/ModelGen7p5.hpp`, `ModelGen8.hpp`; Mesa's `opcode_descs` in
//! `brw_eu.c`, later `elk_eu.c`, gives numbers, source counts and
//! platforms).
//!
//! Every other attribute of an opcode ([`Opcode::num_srcs`],
//! [`Opcode::is_three_src`], [`Opcode::is_branch`], [`Opcode::has_uip`],
//! [`Opcode::is_send`], [`Opcode::is_logic`], ...) reads the row's
//! [`Form`] or flags; no layer lists opcodes by hand.
//!
//! Where the sources disagree:
//! - `smov` (Gen8): IGA's Gen8 model gives it two sources
//!   (`BASIC_BINARY_REG_REGIMM`); Mesa's table gives it neither sources nor
//!   a destination and Mesa never emits it. The crate follows Mesa: its
//!   operands are not modelled, so its form is [`Form::Nullary`].
//! - `movi`: IGA's Gen7.5 and Gen8 models give it one source
//!   (`BASIC_UNARY_REGIMM`), and IGC's finalizer makes it from a one-source
//!   `mov`; Mesa's table counts two. The crate follows Mesa
//!   ([`Form::Binary`]); the simulator executes `movi` only with a null
//!   src1 (`sim::exec::movi`).
//! - "logic": IGA's `IS_BITWISE` also marks `shl`, `shr` and `asr`; the
//!   rules about a logic operation's source modifiers (negate is a bitwise
//!   not) name `not`, `and`, `or` and `xor` only, as Mesa's validator
//!   (`inst_is_logic`) and the PRM's logic-instruction pages do, so the
//!   [`Opcode::is_logic`] flag is on those four.
//! - `else`: IGA's Gen8 model has JIP and UIP; Mesa (`elk_has_uip`) uses the
//!   UIP only from Gen8 on. The field is there on every platform, so the
//!   form is [`Form::JipUip`], and [`Opcode::uses_uip`] says where the
//!   UIP is used.
//! - `jmpi`, `call`, `calla`, `ret`, `wait`: IGA counts their register or
//!   immediate operand as a source; the crate's model (as Mesa's table)
//!   counts no source, and their forms name their operands instead.

use core::fmt;

use super::Platform;

/// What an opcode's operands are: the shape of its instruction, as IGA's
/// `OpSpec::Format` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Form {
    /// No operands the model reads: `illegal`, `nop` (and `smov`, see the
    /// module documentation).
    Nullary,
    /// An ALU operation with a destination and one source (IGA's
    /// `BASIC_UNARY_*`).
    Unary,
    /// An ALU operation with a destination and two sources (IGA's
    /// `BASIC_BINARY_*`).
    Binary,
    /// An ALU operation with a destination and three sources, in the
    /// three-source word layout (align16 only on these platforms; IGA's
    /// `TERNARY_*`).
    Ternary,
    /// Extended math: one or two sources by function; the function sits in
    /// the conditional modifier field (IGA's `MATH_BINARY_*`).
    Math,
    /// A message: a payload source and a descriptor; the shared-function ID
    /// sits in the conditional modifier field (IGA's `SEND_UNARY`).
    Send,
    /// A structured branch with a JIP only: `endif`, `while`, `join`
    /// (IGA's `JUMP_UNARY_IMM`).
    Jip,
    /// A structured branch with a JIP and a UIP: `if`, `else`, `break`,
    /// `cont`, `halt`, `goto` (IGA's `JUMP_BINARY_IMM_IMM`).
    JipUip,
    /// `brd`: a JIP, immediate or from a register (IGA's
    /// `JUMP_UNARY_REGIMM`).
    BranchDiverging,
    /// `brc`: a JIP and a UIP, immediate or from a register (IGA's
    /// `JUMP_BINARY_BRC`).
    BranchConverging,
    /// `jmpi`: an indexed jump by its source (IGA's `JUMP_UNARY_REGIMM`).
    Jump,
    /// `call`, `calla`: the return IP and mask written to the destination,
    /// the target in the source (IGA's `JUMP_UNARY_CALL_REGIMM`).
    Call,
    /// `ret`: the return IP read from the source (IGA's `JUMP_UNARY_REG`).
    Return,
    /// `wait`: on a notification register (IGA's `SYNC_UNARY`).
    Wait,
}

impl Form {
    /// Number of register or immediate sources the model reads (MATH
    /// reports 2; its function decides whether src1 is used).
    pub const fn num_srcs(self) -> u8 {
        match self {
            Form::Unary | Form::Send => 1,
            Form::Binary | Form::Math => 2,
            Form::Ternary => 3,
            _ => 0,
        }
    }

    /// An ALU operation: [`Form::Unary`], [`Form::Binary`] or
    /// [`Form::Ternary`].
    pub const fn is_alu(self) -> bool {
        matches!(self, Form::Unary | Form::Binary | Form::Ternary)
    }

    /// A branch whose offsets are JIP (and UIP) immediates in the
    /// instruction: the structured branches, `brd` and `brc`.
    pub const fn is_branch(self) -> bool {
        matches!(
            self,
            Form::Jip | Form::JipUip | Form::BranchDiverging | Form::BranchConverging
        )
    }

    /// A branch with a UIP as well as a JIP.
    pub const fn has_uip(self) -> bool {
        matches!(self, Form::JipUip | Form::BranchConverging)
    }

    /// Whether bits 27:24 hold a conditional modifier (MATH puts its
    /// function there, SEND its shared-function ID).
    pub const fn has_cond_modifier_field(self) -> bool {
        !matches!(self, Form::Math | Form::Send)
    }
}

/// The flags of a row.
mod flag {
    /// A logic operation: negate on a source is a bitwise not.
    pub const LOGIC: u8 = 1;
    /// A comparison: the conditional modifier is the comparison.
    pub const COMPARE: u8 = 2;
    /// The conditional modifier selects (`sel`, `csel`) or is the branch's
    /// condition (`if`, `while`): no flag register is written.
    pub const CMOD_NO_FLAG: u8 = 4;
    /// Reads the accumulator as an implicit source (`mac`, `mach`,
    /// `sada2`).
    pub const ACC_SRC: u8 = 8;
    /// The UIP is used from Gen8 on only (`else`: Mesa's `elk_has_uip`).
    pub const UIP_FROM_GEN8: u8 = 16;
    /// The jump target is an absolute instruction pointer, not an offset
    /// (`calla`: IGA's and the Haswell PRM's "call absolute").
    pub const ABSOLUTE: u8 = 32;
}

macro_rules! opcodes {
    ($vv:ident; $( $(#[$m:meta])* $v:ident = $n:literal, $s:literal, $form:ident, $avail:expr $(, $flag:ident)*; )*) => {
        /// An instruction opcode. Its hardware number is [`Opcode::hw`]
        /// (`dim` on Haswell and `smov` on Gen8 share number 10), its
        /// operands' shape [`Opcode::form`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[non_exhaustive]
        pub enum Opcode { $( $(#[$m])* $v, )* }

        impl Opcode {
            /// Every opcode of any supported platform.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$v,)*];

            /// The hardware opcode number.
            #[inline(always)]
            pub const fn hw(self) -> u8 {
                match self { $( Opcode::$v => $n, )* }
            }

            /// Mesa's mnemonic.
            pub const fn name(self) -> &'static str {
                match self { $( Opcode::$v => $s, )* }
            }

            /// The row's form (read through [`ROWS`]).
            const fn row_form(self) -> Form {
                match self { $( Opcode::$v => Form::$form, )* }
            }

            /// The row's flags (read through [`ROWS`]).
            const fn row_flags(self) -> u8 {
                match self { $( Opcode::$v => 0 $( | flag::$flag )*, )* }
            }

            /// Whether `p` has this opcode, by the table's own rule (see
            /// [`Opcode::exists_on`], which looks it up).
            const fn exists_on_by_rule(self, p: Platform) -> bool {
                #[allow(unused_variables)]
                let $vv = p.verx10();
                match self { $( Opcode::$v => $avail, )* }
            }
        }
    };
}

// One row per opcode: hardware number, mnemonic, form, platforms (v is the
// platform's version times ten) and flags. Numbers and platforms agree in
// Mesa's table and IGA's models.
opcodes! { v;
    /// Illegal instruction.
    Illegal = 0, "illegal", Nullary, true;
    /// Move.
    Mov = 1, "mov", Unary, true;
    /// Select.
    Sel = 2, "sel", Binary, true, CMOD_NO_FLAG;
    /// Indexed move.
    Movi = 3, "movi", Binary, true;
    /// Logical not.
    Not = 4, "not", Unary, true, LOGIC;
    /// Logical and.
    And = 5, "and", Binary, true, LOGIC;
    /// Logical or.
    Or = 6, "or", Binary, true, LOGIC;
    /// Logical exclusive or.
    Xor = 7, "xor", Binary, true, LOGIC;
    /// Logical shift right.
    Shr = 8, "shr", Binary, true;
    /// Logical shift left.
    Shl = 9, "shl", Binary, true;
    /// Double-precision immediate move (Haswell).
    Dim = 10, "dim", Unary, v == 75;
    /// Scattered move (Gen8).
    Smov = 10, "smov", Nullary, v >= 80;
    /// Arithmetic shift right.
    Asr = 12, "asr", Binary, true;
    /// Compare.
    Cmp = 16, "cmp", Binary, true, COMPARE;
    /// Compare, NaN-aware.
    Cmpn = 17, "cmpn", Binary, true, COMPARE;
    /// Conditional select (three sources).
    Csel = 18, "csel", Ternary, v >= 80, CMOD_NO_FLAG;
    /// Float to half-float conversion.
    F32to16 = 19, "f32to16", Unary, v < 80;
    /// Half-float to float conversion.
    F16to32 = 20, "f16to32", Unary, v < 80;
    /// Bit reverse.
    Bfrev = 23, "bfrev", Unary, true;
    /// Bit field extract.
    Bfe = 24, "bfe", Ternary, true;
    /// Bit field insert mask.
    Bfi1 = 25, "bfi1", Binary, true;
    /// Bit field insert.
    Bfi2 = 26, "bfi2", Ternary, true;
    /// Indexed jump.
    Jmpi = 32, "jmpi", Jump, true;
    /// Branch diverging.
    Brd = 33, "brd", BranchDiverging, true;
    /// If.
    If = 34, "if", JipUip, true, CMOD_NO_FLAG;
    /// Branch converging.
    Brc = 35, "brc", BranchConverging, true;
    /// Else.
    Else = 36, "else", JipUip, true, UIP_FROM_GEN8;
    /// End if.
    Endif = 37, "endif", Jip, true;
    /// While.
    While = 39, "while", Jip, true, CMOD_NO_FLAG;
    /// Break.
    Break = 40, "break", JipUip, true;
    /// Continue.
    Cont = 41, "cont", JipUip, true;
    /// Halt.
    Halt = 42, "halt", JipUip, true;
    /// Call absolute.
    Calla = 43, "calla", Call, v >= 75, ABSOLUTE;
    /// Call.
    Call = 44, "call", Call, true;
    /// Return.
    Ret = 45, "ret", Return, true;
    /// Goto.
    Goto = 46, "goto", JipUip, v >= 80;
    /// Join.
    Join = 47, "join", Jip, v >= 80;
    /// Wait on a notification register.
    Wait = 48, "wait", Wait, true;
    /// Send a message.
    Send = 49, "send", Send, true;
    /// Send a message, conditionally.
    Sendc = 50, "sendc", Send, true;
    /// Extended math.
    Math = 56, "math", Math, true;
    /// Add.
    Add = 64, "add", Binary, true;
    /// Multiply.
    Mul = 65, "mul", Binary, true;
    /// Average.
    Avg = 66, "avg", Binary, true;
    /// Fraction.
    Frc = 67, "frc", Unary, true;
    /// Round up.
    Rndu = 68, "rndu", Unary, true;
    /// Round down.
    Rndd = 69, "rndd", Unary, true;
    /// Round to nearest even.
    Rnde = 70, "rnde", Unary, true;
    /// Round to zero.
    Rndz = 71, "rndz", Unary, true;
    /// Multiply accumulate.
    Mac = 72, "mac", Binary, true, ACC_SRC;
    /// Multiply accumulate high.
    Mach = 73, "mach", Binary, true, ACC_SRC;
    /// Leading zero detection.
    Lzd = 74, "lzd", Unary, true;
    /// First bit high.
    Fbh = 75, "fbh", Unary, true;
    /// First bit low.
    Fbl = 76, "fbl", Unary, true;
    /// Count bits set.
    Cbit = 77, "cbit", Unary, true;
    /// Add with carry.
    Addc = 78, "addc", Binary, true;
    /// Subtract with borrow.
    Subb = 79, "subb", Binary, true;
    /// Sum of absolute differences, two-wide.
    Sad2 = 80, "sad2", Binary, true;
    /// Sum of absolute differences, accumulate.
    Sada2 = 81, "sada2", Binary, true, ACC_SRC;
    /// Four-component dot product.
    Dp4 = 84, "dp4", Binary, true;
    /// Homogeneous dot product.
    Dph = 85, "dph", Binary, true;
    /// Three-component dot product.
    Dp3 = 86, "dp3", Binary, true;
    /// Two-component dot product.
    Dp2 = 87, "dp2", Binary, true;
    /// Line.
    Line = 89, "line", Binary, true;
    /// Plane.
    Pln = 90, "pln", Binary, true;
    /// Multiply add.
    Mad = 91, "mad", Ternary, true;
    /// Linear interpolation.
    Lrp = 92, "lrp", Ternary, true;
    /// Multiply add, for IEEE macros (Gen8).
    Madm = 93, "madm", Ternary, v >= 80;
    /// No operation.
    Nop = 126, "nop", Nullary, true;
}

/// A row of the table as the attribute methods read it: the form, the
/// flags, and the platforms that have the opcode (bit `p as u8`).
#[derive(Clone, Copy)]
struct Row {
    form: Form,
    /// The form's source count (a load, where a match on the form is a
    /// jump table).
    srcs: u8,
    flags: u8,
    platforms: u8,
}

impl Row {
    /// No operands, no flags, no platform.
    const NONE: Row = Row {
        form: Form::Nullary,
        srcs: 0,
        flags: 0,
        platforms: 0,
    };
}

/// The rows by `op as usize`, evaluated at compile time (one load per
/// attribute instead of a match). `Opcode::ALL` lists the opcodes in
/// declaration order, so `ALL[k] as usize == k`.
#[allow(clippy::indexing_slicing)] // k < len by the loops
const ROWS: [Row; Opcode::ALL.len()] = {
    let mut t = [Row::NONE; Opcode::ALL.len()];
    let mut k = 0;
    while k < Opcode::ALL.len() {
        let op = Opcode::ALL[k];
        let mut platforms = 0;
        let mut j = 0;
        while j < Platform::ALL.len() {
            let p = Platform::ALL[j];
            if op.exists_on_by_rule(p) {
                platforms |= 1 << p as u8;
            }
            j += 1;
        }
        t[op as usize] = Row {
            form: op.row_form(),
            srcs: op.row_form().num_srcs(),
            flags: op.row_flags(),
            platforms,
        };
        k += 1;
    }
    t
};

/// Opcode lookup by hardware number for one platform, built at compile time.
#[allow(clippy::indexing_slicing)] // k < len by the loop; hw numbers are masked to 0..127
const fn opcode_table(p: Platform) -> [Option<Opcode>; 128] {
    let mut t = [None; 128];
    let mut k = 0;
    while k < Opcode::ALL.len() {
        let op = Opcode::ALL[k];
        if op.exists_on(p) {
            t[op.hw() as usize & 127] = Some(op);
        }
        k += 1;
    }
    t
}

const OPCODES_GEN7: [Option<Opcode>; 128] = opcode_table(Platform::Gen7);
const OPCODES_GEN75: [Option<Opcode>; 128] = opcode_table(Platform::Gen75);
const OPCODES_GEN8: [Option<Opcode>; 128] = opcode_table(Platform::Gen8);

impl Opcode {
    /// The opcode's row.
    #[inline(always)]
    const fn row(self) -> Row {
        // Read through a reference (one global table): indexing the
        // constant array itself copied all of it to the stack first, a
        // `memcpy` of the whole table per lookup where the compiler
        // did not fold it.
        const TABLE: &[Row; Opcode::ALL.len()] = &ROWS;
        let k = self as usize;
        // Every opcode has its row: `k` is below the table's length.
        #[allow(clippy::indexing_slicing)]
        if k < TABLE.len() {
            TABLE[k]
        } else {
            Row::NONE
        }
    }

    /// Whether `p` has this opcode.
    #[inline]
    pub const fn exists_on(self, p: Platform) -> bool {
        self.row().platforms >> p as u8 & 1 != 0
    }

    /// The shape of the instruction: its sources, branch offsets, or
    /// message.
    #[inline]
    pub const fn form(self) -> Form {
        self.row().form
    }

    #[inline(always)]
    const fn flags(self) -> u8 {
        self.row().flags
    }

    /// The opcode with this hardware number on `p`, if it exists there.
    #[inline]
    #[allow(clippy::indexing_slicing)] // masked to 0..127, the table's length
    pub const fn from_hw(p: Platform, n: u8) -> Option<Opcode> {
        let t = match p {
            Platform::Gen7 => &OPCODES_GEN7,
            Platform::Gen75 => &OPCODES_GEN75,
            Platform::Gen8 | Platform::Chv => &OPCODES_GEN8,
        };
        t[(n & 127) as usize]
    }

    /// Number of register or immediate sources the opcode reads (MATH
    /// reports 2; its function decides whether src1 is used): its form's.
    #[inline]
    pub const fn num_srcs(self) -> u8 {
        self.row().srcs
    }

    /// Three-source opcodes use the 3-source layout ([`Form::Ternary`]).
    #[inline]
    pub const fn is_three_src(self) -> bool {
        matches!(self.form(), Form::Ternary)
    }

    /// SEND and SENDC ([`Form::Send`]).
    #[inline]
    pub const fn is_send(self) -> bool {
        matches!(self.form(), Form::Send)
    }

    /// Flow-control opcodes whose offsets are JIP/UIP ([`Form::is_branch`]).
    #[inline]
    pub const fn is_branch(self) -> bool {
        self.form().is_branch()
    }

    /// `brd` and `brc`, whose jump offsets come from a register when src0
    /// is not an immediate ([`Form::BranchDiverging`],
    /// [`Form::BranchConverging`]).
    #[inline]
    pub const fn offsets_may_be_register(self) -> bool {
        matches!(self.form(), Form::BranchDiverging | Form::BranchConverging)
    }

    /// Whether a branch keeps its JIP (and UIP) in the word's immediate
    /// payload, given whether src0's register file is the immediate one:
    /// every branch, except a `brd` or `brc` whose src0 is a register,
    /// which holds the offsets (IGA's decoder: src0's file decides, on
    /// Ivy Bridge, Haswell and Broadwell alike).
    #[inline]
    pub const fn offsets_in_payload(self, src0_imm: bool) -> bool {
        self.is_branch() && (src0_imm || !self.offsets_may_be_register())
    }

    /// Branches that carry a UIP as well as a JIP ([`Form::has_uip`]).
    #[inline]
    pub const fn has_uip(self) -> bool {
        self.form().has_uip()
    }

    /// Branches whose UIP the hardware uses on `p`: [`Opcode::has_uip`],
    /// except `else` before Gen8 (its UIP field is there, and unused).
    #[inline]
    pub const fn uses_uip(self, p: Platform) -> bool {
        self.has_uip() && (p.is_gen8() || self.flags() & flag::UIP_FROM_GEN8 == 0)
    }

    /// Logic opcodes, whose negate modifier means bitwise not.
    #[inline]
    pub const fn is_logic(self) -> bool {
        self.flags() & flag::LOGIC != 0
    }

    /// CMP and CMPN: the conditional modifier is the comparison.
    #[inline]
    pub const fn is_compare(self) -> bool {
        self.flags() & flag::COMPARE != 0
    }

    /// Whether a conditional modifier writes the flag register: not on
    /// `sel` and `csel` (it selects) nor `if` and `while` (it is the
    /// condition), nor where the field holds something else (MATH, SEND).
    #[inline]
    pub const fn cond_modifier_writes_flag(self) -> bool {
        self.form().has_cond_modifier_field() && self.flags() & flag::CMOD_NO_FLAG == 0
    }

    /// Whether the jump distance counts from the next instruction (the IP
    /// has advanced past it) rather than from the instruction itself:
    /// `jmpi` ([`Form::Jump`]; PRM Vol 2a, JMPI). Branch JIP/UIP and
    /// `call` count from the instruction.
    #[inline]
    pub const fn counts_from_next(self) -> bool {
        matches!(self.form(), Form::Jump)
    }

    /// Whether the jump target is an absolute instruction pointer rather
    /// than an offset (`calla`).
    #[inline]
    pub const fn jumps_absolute(self) -> bool {
        self.flags() & flag::ABSOLUTE != 0
    }

    /// MAC, MACH and SADA2 read the accumulator as an implicit source.
    #[inline]
    pub const fn reads_acc_implicitly(self) -> bool {
        self.flags() & flag::ACC_SRC != 0
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_availability_table_follows_the_rule() {
        for &op in Opcode::ALL {
            for p in Platform::ALL {
                assert_eq!(op.exists_on(p), op.exists_on_by_rule(p), "{op:?} on {p}");
                assert_eq!(op.form(), op.row_form(), "{op:?}");
                assert_eq!(op.flags(), op.row_flags(), "{op:?}");
            }
        }
        // Spot checks from the PRMs: dim is Haswell only, csel Gen8 only.
        assert!(Opcode::Dim.exists_on(Platform::Gen75) && !Opcode::Dim.exists_on(Platform::Gen8));
        assert!(Opcode::Csel.exists_on(Platform::Gen8) && !Opcode::Csel.exists_on(Platform::Gen7));
    }
}
