//! The `geneu` command line: `asm`, `disasm`, `fields`, `diff`, `check`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use geneu::Platform;

mod cli;

#[derive(Parser)]
#[command(name = "geneu", version, about = "Intel Gen7/Gen7.5/Gen8 EU instruction tool")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Print every field of instruction words: name, bits, raw value, meaning.
    Fields {
        /// Platform: ivb|hsw|bdw|chv or 7|7.5|8.
        #[arg(long = "gen")]
        platform: Platform,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Words: 16 hex bytes each (the .expected form), or four 0x-prefixed
        /// 32-bit dwords each (DW0 first).
        #[arg(required = true, num_args = 1..)]
        hex: Vec<String>,
    },
    /// Disassemble a program to Mesa's assembly syntax.
    ///
    /// Exit status 0 if every word decodes (and passes --check), 1 if some
    /// word does not decode or breaks a rule, 2 on bad or truncated input.
    Disasm {
        /// Platform: ivb|hsw|bdw|chv or 7|7.5|8.
        #[arg(long = "gen")]
        platform: Platform,
        /// Input is hex text, one word per line (the .expected form: 16
        /// bytes in memory order; or four 0x-prefixed dwords).
        #[arg(long)]
        hex: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Report validation violations as comments after each instruction.
        #[arg(long)]
        check: bool,
        /// Input file; `-` or none reads stdin. Raw binary unless --hex.
        file: Option<String>,
    },
    /// Assemble Mesa-syntax text (labels included) into instruction words.
    ///
    /// Every error is reported on stderr as `FILE:LINE:COL: error: ...`
    /// with the source line; nothing is written unless all of the input
    /// assembled.
    ///
    /// Exit status: 0 on success; 1 if the text is well-formed but an
    /// instruction breaks a hardware rule (see --unchecked); 2 for
    /// malformed text, unreadable input or unwritable output.
    Asm {
        /// Platform: ivb|hsw|bdw|chv or 7|7.5|8.
        #[arg(long = "gen")]
        platform: Platform,
        /// Output format: `hex` (one word per line, 16 bytes in memory
        /// order, the .expected form), `bin` (raw bytes) or `c` (a C array
        /// of uint32_t, four dwords per instruction).
        #[arg(long = "type", value_enum, default_value = "hex")]
        ty: cli::asm::OutType,
        /// Encode without checking the hardware rules (bring-up experiments).
        #[arg(long)]
        unchecked: bool,
        /// Output file; `-` or none writes stdout.
        #[arg(short = 'o', long = "output")]
        output: Option<String>,
        /// Input file; `-` or none reads stdin.
        file: Option<String>,
    },
    /// Validate every instruction against the hardware rules.
    ///
    /// Input is assembly text, hex words (the .expected form, detected
    /// automatically, or forced with --hex) or raw binary (non-text input,
    /// or --bin). Each violation is printed with its place (FILE:LINE:COL
    /// for assembly, the line and word index for hex, the word index and
    /// byte offset for binary) and the rule's stable identifier.
    ///
    /// Each violation names its basis: `documented` (the platform's
    /// documentation states it) or `conservative` (stricter than the
    /// documentation, or borrowed from another platform's).
    ///
    /// Exit status: 0 if no instruction breaks a documented rule (nor, with
    /// --strict, a conservative one); 1 if one does (or a word does not
    /// decode); 2 for unreadable or malformed input (assembly syntax
    /// errors, bad hex, truncated binary).
    Check {
        /// Platform: ivb|hsw|bdw|chv or 7|7.5|8.
        #[arg(long = "gen")]
        platform: Platform,
        /// Input is hex text, one word per line.
        #[arg(long, conflicts_with = "bin")]
        hex: bool,
        /// Input is raw binary.
        #[arg(long)]
        bin: bool,
        /// Fail on conservative violations too.
        #[arg(long)]
        strict: bool,
        /// Input file; `-` or none reads stdin.
        file: Option<String>,
    },
    /// Print the fields that differ between two words, with their bits.
    Diff {
        /// Platform: ivb|hsw|bdw|chv or 7|7.5|8.
        #[arg(long = "gen")]
        platform: Platform,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Two words, in either hex form (quote each one if it has spaces).
        #[arg(required = true, num_args = 2..)]
        hex: Vec<String>,
    },
    /// List the bit-range tables and their fields, or print the Rust
    /// source generated from them.
    Tables {
        /// Only this table (e.g. gen8_native, desc_urb_gen8).
        name: Option<String>,
        /// Print the generated accessor source instead.
        #[arg(long)]
        source: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Fields { platform, json, hex } => cli::fields::fields(platform, &hex, json),
        Cmd::Disasm {
            platform,
            hex,
            json,
            check,
            file,
        } => cli::disasm::disasm(platform, file.as_deref(), hex, json, check),
        Cmd::Asm {
            platform,
            ty,
            unchecked,
            output,
            file,
        } => cli::asm::asm(platform, file.as_deref(), ty, unchecked, output.as_deref()),
        Cmd::Check {
            platform,
            hex,
            bin,
            strict,
            file,
        } => {
            let input = match (hex, bin) {
                (true, _) => cli::check::Input::Hex,
                (_, true) => cli::check::Input::Bin,
                _ => cli::check::Input::Auto,
            };
            cli::check::check(platform, file.as_deref(), input, strict)
        }
        Cmd::Diff { platform, json, hex } => cli::fields::diff(platform, &hex, json),
        Cmd::Tables { name, source } => cli::fields::tables(name.as_deref(), source),
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("geneu: {e}");
            ExitCode::from(2)
        }
    }
}
