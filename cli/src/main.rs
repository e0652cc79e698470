//! The `geneu` command line: `asm`, `disasm`, `fields`, `diff`, `desc`,
//! `check`, `cfg`, `tables`.

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use geneu::text::program::TextOptions;
use geneu::{Platform, Strictness};

mod cli;

#[derive(Parser)]
#[command(name = "geneu", version, about = "Intel Gen7/Gen7.5/Gen8 EU instruction tool")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// The platform option every command but `tables` takes.
#[derive(Args)]
struct Gen {
    /// Platform, by Mesa's name or number: ivb, byt (Bay Trail: Ivy
    /// Bridge's encoding), hsw, bdw, chv, bsw (Braswell: Cherryview's), or
    /// 7, 7.5, 8.
    #[arg(long = "gen", value_name = "G")]
    platform: Platform,
}

/// How the input is read (`disasm`, `check`).
#[derive(Args)]
struct InputKind {
    /// Input is hex text, one or more words per line (16 bytes in memory
    /// order, the .expected form, or four 0x-prefixed dwords). Detected
    /// without this flag.
    #[arg(long, conflicts_with = "bin")]
    hex: bool,
    /// Input is raw binary, even if it looks like text.
    #[arg(long)]
    bin: bool,
}

impl InputKind {
    fn input(&self) -> cli::Input {
        match (self.hex, self.bin) {
            (true, _) => cli::Input::Hex,
            (_, true) => cli::Input::Bin,
            _ => cli::Input::Auto,
        }
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Print every field of instruction words: name, bits, raw value,
    /// meaning; a SEND's immediate descriptor is decoded into its fields,
    /// numbered in descriptor bits.
    ///
    /// A compacted instruction (8 bytes, or 2 dwords; CmptCtrl, bit 29,
    /// set) shows its own fields first, each table index with the entry it
    /// selects and the native fields that entry fills, then the fields of
    /// its native form. Several instructions of either size may follow
    /// each other.
    #[command(
        after_help = "Examples:\n  geneu fields --gen bdw 31 00 60 06 e0 3a 00 20 60 0f 8d 06 17 00 08 8a\n  \
                            geneu fields --gen bdw 01 03 00 20 02 0c 11 00    (a compacted mov)"
    )]
    Fields {
        #[command(flatten)]
        gen: Gen,
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
    /// Input is raw binary, or hex text (detected, or forced with --hex).
    /// Exit status 0 if every word decodes (and passes --check), 1 if some
    /// word does not decode or breaks a rule, 2 on bad or truncated input.
    ///
    /// The input may mix 16-byte native and 8-byte compacted instructions
    /// (each one's CmptCtrl bit, bit 29, gives its size); a compacted one
    /// is printed with the `compacted` option, as Mesa prints it.
    #[command(
        after_help = "Examples:\n  geneu disasm --gen bdw --print-offset examples/kernel.hex\n  \
                            geneu disasm --gen bdw --uncompact --print-bytes kernel.bin"
    )]
    Disasm {
        #[command(flatten)]
        gen: Gen,
        #[command(flatten)]
        input: InputKind,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Report validation violations as comments after each instruction.
        #[arg(long)]
        check: bool,
        /// Start each instruction with its byte offset, as a comment
        /// (`/* 0010 */`; iga64's -Xprint-pc).
        #[arg(long)]
        print_offset: bool,
        /// Start each instruction with its bytes (16, or 8 when
        /// compacted), as a comment (iga64's -Xprint-bits).
        #[arg(long)]
        print_bytes: bool,
        /// Uncompact the program first: every instruction is shown as its
        /// 16-byte native word, branch offsets moved to match.
        #[arg(long)]
        uncompact: bool,
        /// The assembly syntax: Mesa's (default) or Intel's IGA (as
        /// `iga64 -d` prints it; --check, --print-offset and
        /// --print-bytes apply to Mesa's).
        #[arg(long, value_enum, default_value_t = cli::disasm::Syntax::Mesa)]
        syntax: cli::disasm::Syntax,
        /// Input file; `-` or none reads stdin.
        file: Option<String>,
    },
    /// Assemble Mesa-syntax text (labels included) into instruction words.
    ///
    /// Every error is reported on stderr as `FILE:LINE:COL: error: ...`
    /// with the source line (with --json, as JSON on stdout); nothing is
    /// written unless all of the input assembled.
    ///
    /// Exit status: 0 on success; 1 if the text is well-formed but an
    /// instruction breaks a hardware rule (see --lenient, --unchecked); 2
    /// for malformed text, unreadable input or unwritable output.
    ///
    /// Without --compact every instruction is a 16-byte native word.
    #[command(
        after_help = "Examples:\n  geneu asm --gen bdw --type c -o kernel.c examples/kernel.asm\n  \
                            geneu asm --gen bdw --compact --type bin -o kernel.bin examples/kernel.asm\n  \
                            geneu disasm --gen bdw --bin kernel.bin | geneu asm --gen bdw --compact=marked --type bin"
    )]
    Asm {
        #[command(flatten)]
        gen: Gen,
        /// Output format: `hex` (one word per line, 16 bytes in memory
        /// order, the .expected form), `bin` (raw bytes) or `c` (a C array
        /// of uint32_t, four dwords per instruction).
        #[arg(long = "type", value_enum, default_value = "hex", conflicts_with = "json")]
        ty: cli::asm::OutType,
        /// Machine-readable output: each instruction with its line, column,
        /// offset and bytes, or every error.
        #[arg(long)]
        json: bool,
        /// Refuse only documented rule violations: an instruction that
        /// breaks only conservative rules (stricter than its platform's
        /// documentation, or borrowed from another platform's) is
        /// assembled, with a warning on stderr naming each rule (with
        /// --json, in the instruction's `warnings`).
        #[arg(long, conflicts_with = "unchecked")]
        lenient: bool,
        /// Encode without checking the hardware rules (bring-up experiments).
        #[arg(long)]
        unchecked: bool,
        /// Compact every instruction the platform can express in 8 bytes
        /// (`--compact` or `--compact=all`), or exactly those the text
        /// marks `compacted` (`--compact=marked`: a disassembled program
        /// that mixes both sizes assembles back to its bytes; a marked
        /// instruction with no 8-byte form is an error; IGA's syntax gets
        /// this by default, as from `iga64 -a`). Branch offsets are
        /// moved to match; the number compacted and the bytes saved are
        /// reported on stderr (and, with --json, in the document's
        /// `compaction`).
        #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "all")]
        compact: Option<cli::asm::Compaction>,
        /// The text's syntax: Mesa's or Intel's IGA (`iga64 -a`'s input,
        /// `disasm --syntax iga`'s output). Without it, a file whose start
        /// shows IGA's forms (`(8|M0)`, `<1>:f`) is read as IGA's;
        /// standard input and pipes as Mesa's (with --json, whose text is
        /// read whole, they are detected too).
        #[arg(long, value_enum)]
        syntax: Option<cli::disasm::Syntax>,
        /// Output file; `-` or none writes stdout.
        #[arg(short = 'o', long = "output")]
        output: Option<String>,
        /// Input file; `-` or none reads stdin.
        file: Option<String>,
    },
    /// Convert assembly text from one syntax to the other (Mesa's ⇄
    /// IGA's), instruction by instruction, keeping the bytes: the text
    /// (either syntax, detected) is assembled without checking the rules
    /// and its words printed in the syntax asked for, with the field
    /// annotation where that syntax does not show a field.
    Convert {
        #[command(flatten)]
        gen: Gen,
        /// The syntax to write.
        #[arg(long, value_enum)]
        to: cli::disasm::Syntax,
        /// Output file; `-` or none writes stdout.
        #[arg(short = 'o', long = "output")]
        output: Option<String>,
        /// Input file; `-` or none reads stdin.
        file: Option<String>,
    },
    /// Print a program's control-flow graph in Graphviz DOT.
    ///
    /// Input is read as `check` reads it: assembly text, hex words (the
    /// .expected form, detected, or forced with --hex) or raw binary,
    /// native and compacted instructions mixed. Each basic block is a box
    /// with its byte range and instructions; edges are labelled with their
    /// kind and styled by it: fall-through (black), JIP (blue), UIP
    /// (green, dashed), jmpi (red, bold), call (purple, dotted). Each
    /// `if` … `endif` and each loop (a backward `while`) is a dashed
    /// cluster, nested as in the program.
    ///
    /// Exit status: 0 with the graph; 1 if a word does not decode or a
    /// jump lands outside the program or between instructions; 2 for
    /// unreadable or malformed input.
    #[command(
        after_help = "Examples:\n  geneu cfg --gen bdw examples/kernel.asm | dot -Tsvg -o kernel.svg\n  \
                            geneu cfg --gen hsw --bin kernel.bin"
    )]
    Cfg {
        #[command(flatten)]
        gen: Gen,
        #[command(flatten)]
        input: InputKind,
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
    /// Binary and hex input may mix 16-byte native and 8-byte compacted
    /// instructions: a compacted one is validated through its native form
    /// and reported at its own byte offset, marked `compacted`.
    ///
    /// Each violation names its basis: `documented` (the platform's
    /// documentation states it) or `conservative` (stricter than the
    /// documentation, or borrowed from another platform's).
    ///
    /// Exit status: 0 if no instruction breaks a documented rule (nor, with
    /// --strict, a conservative one); 1 if one does (or a word does not
    /// decode); 2 for unreadable or malformed input (assembly syntax
    /// errors, bad hex, truncated binary).
    #[command(after_help = "Examples:\n  geneu check --gen hsw kernel.asm\n  \
                            geneu check --gen bdw --bin compacted-kernel.bin\n  \
                            geneu check --gen bdw --skip dst_stride_exec_type --json kernel.hex\n  \
                            geneu check --list-rules")]
    Check {
        /// Platform (see --gen of the other commands); not needed with
        /// --list-rules.
        #[arg(long = "gen", value_name = "G", required_unless_present = "list_rules")]
        platform: Option<Platform>,
        #[command(flatten)]
        input: InputKind,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Report only this rule (repeatable); ids as --list-rules prints.
        #[arg(long = "rule", value_name = "ID")]
        rules: Vec<String>,
        /// Do not report this rule (repeatable).
        #[arg(long = "skip", value_name = "ID")]
        skips: Vec<String>,
        /// Fail on conservative violations too.
        #[arg(long)]
        strict: bool,
        /// Print every rule: id, basis, phase, family and citation.
        #[arg(long)]
        list_rules: bool,
        /// The syntax of assembly text: Mesa's or Intel's IGA; without
        /// it, detected (IGA's `(8|M0)`, `<1>:f` forms).
        #[arg(long, value_enum)]
        syntax: Option<cli::disasm::Syntax>,
        /// Input file; `-` or none reads stdin.
        file: Option<String>,
    },
    /// Print the fields that differ between two words, with their bits;
    /// for SENDs also the differing fields of the message descriptors.
    ///
    /// Either may be a compacted instruction (8 bytes): two compacted ones
    /// first show their own differing fields (table indices with the
    /// entries they select), then both are compared as native forms.
    #[command(after_help = "Example:\n  geneu diff --gen bdw \
                            '31 00 60 06 e0 3a 00 20 60 0f 8d 06 17 00 08 8a' \
                            '31 00 60 06 e0 3a 00 20 60 0f 8d 06 27 00 08 8a'")]
    Diff {
        #[command(flatten)]
        gen: Gen,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Two words, in either hex form (quote each one if it has spaces).
        #[arg(required = true, num_args = 2..)]
        hex: Vec<String>,
    },
    /// Decode a bare SEND message descriptor into its fields (iga64's
    /// -Xdsd).
    ///
    /// On Gen7 and Gen8 the extended descriptor holds only the SFID (bits
    /// 3:0) and EOT (bit 5); it can stand in for --sfid.
    #[command(after_help = "Examples:\n  geneu desc --gen bdw --sfid urb 0x8a080017\n  \
                            geneu desc --gen bdw 0x0a080017 0x26")]
    Desc {
        #[command(flatten)]
        gen: Gen,
        /// Shared function: its number (0..15) or Mesa's name (sampler,
        /// gateway, dp_sampler, render, urb, thread_spawner, const, data,
        /// pixel interp, dp data 1).
        #[arg(long)]
        sfid: Option<String>,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// The 32-bit descriptor, 0x-prefixed hex or decimal.
        desc: String,
        /// The extended descriptor (SFID and EOT).
        exdesc: Option<String>,
    },
    /// Run a program in the simulator (geneu::sim) and print the registers
    /// each thread changed.
    ///
    /// The program is raw binary, hex words or assembly text, native and
    /// compacted instructions mixed. Without --dispatch one thread runs,
    /// all 32 channels enabled, every register zero but those --grf sets.
    /// A dispatch description (JSON, see the README) gives the surfaces of
    /// the binding table, flat memory, the threads (a grid of thread groups
    /// with their r0 headers, or a list) and the files that receive the
    /// surfaces, memory, URB and render target writes after the run. Exit
    /// status: 0 when every thread ended; 1 when a thread met an error (a
    /// step limit, a jump between instructions, a message that is not
    /// modelled: printed with its offset); 2 for unreadable input.
    #[command(
        after_help = "Examples:\n  geneu run --gen bdw examples/fill.asm --dispatch examples/fill.json\n  \
                            geneu run --gen hsw kernel.hex --grf g2=1,2,3,4,5,6,7,8 --grf 'g3=0.5,1.5:f' --trace"
    )]
    Run {
        #[command(flatten)]
        gen: Gen,
        #[command(flatten)]
        input: InputKind,
        /// Set registers of every thread before the run: gN[.S]=V,V,...[:TYPE]
        /// (TYPE ub b uw w ud d uq q hf f df, default ud; S counts elements
        /// of TYPE; values run on into the next registers). Repeatable.
        #[arg(long = "grf", value_name = "SETTING")]
        grf: Vec<String>,
        /// A dispatch description (JSON).
        #[arg(long, value_name = "FILE")]
        dispatch: Option<String>,
        /// The most instructions a thread may execute.
        #[arg(long, default_value_t = 1_000_000)]
        steps: u64,
        /// Worker threads for the thread groups (default: one per core); the
        /// result is the same as one after another, in the order of the
        /// groups' first threads.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Print every executed instruction: offset, channels, text and the
        /// registers it changed.
        #[arg(long)]
        trace: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Program file; `-` or none reads stdin.
        file: Option<String>,
    },
    /// List the bit-range tables and their fields, or print the Rust
    /// source generated from them.
    #[command(after_help = "Example:\n  geneu tables desc_urb_gen8")]
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
        Cmd::Fields { gen, json, hex } => cli::fields::fields(gen.platform, &hex, json),
        Cmd::Disasm {
            gen,
            input,
            json,
            check,
            print_offset,
            print_bytes,
            uncompact,
            syntax,
            file,
        } => {
            let opts = TextOptions::with_check(check)
                .with_offset(print_offset)
                .with_bytes(print_bytes);
            cli::disasm::disasm(
                gen.platform,
                file.as_deref(),
                input.input(),
                json,
                uncompact,
                opts,
                syntax,
            )
        }
        Cmd::Asm {
            gen,
            ty,
            json,
            lenient,
            unchecked,
            compact,
            syntax,
            output,
            file,
        } => {
            let strictness = match (lenient, unchecked) {
                (_, true) => Strictness::Unchecked,
                (true, _) => Strictness::Lenient,
                _ => Strictness::Strict,
            };
            if json {
                cli::asm::asm_json(
                    gen.platform,
                    file.as_deref(),
                    strictness,
                    compact,
                    output.as_deref(),
                    syntax,
                )
            } else {
                cli::asm::asm(
                    gen.platform,
                    file.as_deref(),
                    ty,
                    strictness,
                    compact,
                    output.as_deref(),
                    syntax,
                )
            }
        }
        Cmd::Check {
            platform,
            input,
            json,
            rules,
            skips,
            strict,
            list_rules,
            syntax,
            file,
        } => match (list_rules, platform) {
            (true, _) => cli::check::list_rules(json),
            (false, Some(p)) => cli::check::RuleFilter::new(rules, skips).and_then(|filter| {
                cli::check::check(
                    p,
                    file.as_deref(),
                    input.input(),
                    &cli::check::CheckOptions {
                        json,
                        strict,
                        filter,
                        syntax,
                    },
                )
            }),
            (false, None) => Err(cli::CliError::Usage("check needs --gen G".into())),
        },
        Cmd::Convert { gen, to, output, file } => {
            cli::asm::convert(gen.platform, file.as_deref(), to, output.as_deref())
        }
        Cmd::Cfg { gen, input, file } => cli::cfg::cfg(gen.platform, file.as_deref(), input.input()),
        Cmd::Diff { gen, json, hex } => cli::fields::diff(gen.platform, &hex, json),
        Cmd::Desc {
            gen,
            sfid,
            json,
            desc,
            exdesc,
        } => cli::desc::desc(gen.platform, sfid.as_deref(), &desc, exdesc.as_deref(), json),
        Cmd::Tables { name, source } => cli::fields::tables(name.as_deref(), source),
        Cmd::Run {
            gen,
            input,
            grf,
            dispatch,
            steps,
            threads,
            trace,
            json,
            file,
        } => cli::run::run(
            gen.platform,
            &cli::run::RunArgs {
                path: file.as_deref(),
                input: input.input(),
                grf: &grf,
                dispatch: dispatch.as_deref(),
                steps,
                threads: threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                trace,
                json,
            },
        ),
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("geneu: {e}");
            ExitCode::from(2)
        }
    }
}
