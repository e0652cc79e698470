//! `geneu cfg`: a program's control-flow graph in Graphviz DOT
//! ([`geneu::cfg::Cfg::to_dot`]).
//!
//! The input is read as `check` reads it: raw binary, hex words, or
//! assembly text (assembled unchecked: the graph needs only the words),
//! native and compacted instructions mixed. Exit status: 0 with the graph
//! on stdout; 1 if a word does not decode or a jump lands outside the
//! program or between instructions (the offset named on stderr); 2 for
//! unreadable or malformed input.

use std::process::ExitCode;

use geneu::cfg::Cfg;
use geneu::compact::decode_stream;
use geneu::{DecodeError, Platform};

use super::display_name;
use super::{emit, program_bytes, CliError, Input};

/// Runs `cfg`.
pub fn cfg(p: Platform, path: Option<&str>, input: Input) -> Result<ExitCode, CliError> {
    let bytes = match program_bytes(p, path, input)? {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{msg}");
            return Ok(ExitCode::from(2));
        }
    };
    let file = display_name(path);
    let mut insts = Vec::new();
    for (offset, r) in decode_stream(p, &bytes) {
        match r {
            Ok(i) => insts.push((offset, i)),
            Err(e @ DecodeError::Truncated { .. }) => {
                eprintln!("{file}: error: offset {offset:#x}: {e}");
                return Ok(ExitCode::from(2));
            }
            Err(e) => {
                eprintln!("{file}: error: offset {offset:#x}: does not decode: {e}");
                return Ok(ExitCode::from(1));
            }
        }
    }
    let graph = match Cfg::new(p, &insts, bytes.len()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{file}: error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let dot = graph.to_dot(|k| insts.get(k).map(|(_, i)| i.display(p).to_string()).unwrap_or_default());
    emit(&dot)?;
    Ok(ExitCode::SUCCESS)
}
