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
