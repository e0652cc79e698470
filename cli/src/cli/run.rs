//! `geneu run`: execute a program in the simulator (`geneu::sim`).
//!
//! One thread by default, its registers given with `--grf`; or a dispatch
//! description (`--dispatch FILE.json`, documented in the README): the
//! surfaces of the binding table, flat memory ranges and the threads, with
//! the files that hold their initial bytes and those that receive them
//! after the run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use geneu::sim::{
    run_dispatch_parallel, Arf, Change, Dispatch, End, Loc, Memory, Outcome, Program, RunOptions, Surface,
    SurfaceFormat, Thread,
};
use geneu::{Platform, Type};
use serde::{Deserialize, Serialize};

use super::{emit, json, program_bytes, CliError, Input};

/// What `run` was asked to do.
pub struct RunArgs<'a> {
    /// The program file (`-` or none: stdin).
    pub path: Option<&'a str>,
    /// How the program is read.
    pub input: Input,
    /// `--grf` register settings for every thread.
    pub grf: &'a [String],
    /// `--dispatch` description.
    pub dispatch: Option<&'a str>,
    /// `--steps`: the step limit per thread.
    pub steps: u64,
    /// `--threads`: worker threads for the thread groups.
    pub threads: usize,
    /// `--trace`.
    pub trace: bool,
    /// `--json`.
    pub json: bool,
}

/// The element type a register setting names: a register type of the
/// model, by its name in either case (the vector immediates are none).
fn elem_type(ty: &str) -> Option<Type> {
    let t: Type = ty.to_ascii_uppercase().parse().ok()?;
    (!t.is_vector_imm()).then_some(t)
}

/// One value of a register setting, as the little-endian bytes of `ty`.
fn elem_bytes(v: &str, ty: Type) -> Option<Vec<u8>> {
    let int = || -> Option<i128> {
        let (neg, t) = match v.strip_prefix('-') {
            Some(t) => (true, t),
            None => (false, v),
        };
        let n = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(h) => i128::from_str_radix(h, 16).ok()?,
            None => t.parse::<i128>().ok()?,
        };
        Some(if neg { -n } else { n })
    };
    let size = ty.size() as usize;
    let bytes: Vec<u8> = match ty {
        Type::F => v.parse::<f32>().ok()?.to_le_bytes().to_vec(),
        Type::DF => v.parse::<f64>().ok()?.to_le_bytes().to_vec(),
        Type::HF => half::f16::from_f32(v.parse::<f32>().ok()?).to_le_bytes().to_vec(),
        _ => {
            let n = int()?;
            let bits = size as u32 * 8;
            let (lo, hi) = if !ty.is_signed_int() {
                (0i128, (1i128 << bits) - 1)
            } else {
                (-(1i128 << (bits - 1)), (1i128 << bits) - 1)
            };
            if n < lo || n > hi {
                return None;
            }
            (n as u128 as u64).to_le_bytes().get(..size)?.to_vec()
        }
    };
    Some(bytes)
}

/// A register setting `gN[.S]=V,V,...[:T]`: values of type `T` (default
/// `ud`) from subregister `S` (in elements of `T`) of `gN` on, running into
/// the registers after it. Returns the byte offset in the register file
/// and the bytes.
pub fn parse_grf(spec: &str) -> Result<(usize, Vec<u8>), String> {
    let bad = |why: &str| {
        format!("--grf `{spec}`: {why} (expected gN[.S]=V,V,...[:TYPE], TYPE one of ub b uw w ud d uq q hf f df)")
    };
    let (reg, vals) = spec.split_once('=').ok_or_else(|| bad("no `=`"))?;
    let (vals, ty) = match vals.rsplit_once(':') {
        Some((v, t)) => (v, elem_type(t).ok_or_else(|| bad("unknown type"))?),
        None => (vals, Type::UD),
    };
    let size = ty.size();
    let reg = reg.trim();
    let reg = reg
        .strip_prefix('g')
        .or_else(|| reg.strip_prefix('r'))
        .ok_or_else(|| bad("not a GRF"))?;
    let (nr, sub) = match reg.split_once('.') {
        Some((n, s)) => (n, s.parse::<u32>().map_err(|_| bad("bad subregister"))?),
        None => (reg, 0),
    };
    let nr: u32 = nr.parse().map_err(|_| bad("bad register number"))?;
    if nr > u32::from(geneu::isa::GRF_LAST) {
        return Err(bad("register past g127"));
    }
    let start = nr as usize * geneu::isa::GRF_BYTES as usize + (sub as usize).saturating_mul(size as usize);
    let mut bytes = Vec::new();
    for v in vals.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        bytes.extend(elem_bytes(v, ty).ok_or_else(|| bad(&format!("`{v}` is not a {ty} value")))?);
    }
    let file = geneu::isa::GRF_BYTES as usize * geneu::isa::GRF_COUNT as usize;
    if start.saturating_add(bytes.len()) > file {
        return Err(bad("runs past g127"));
    }
    Ok((start, bytes))
}

/// Writes a register setting into a thread.
fn apply_grf(t: &mut Thread, spec: &str) -> Result<(), String> {
    let (start, bytes) = parse_grf(spec)?;
    if let Some(dst) = t.grf_mut().get_mut(start..start + bytes.len()) {
        dst.copy_from_slice(&bytes);
    }
    Ok(())
}

/// The dispatch description (`--dispatch`), schema 1.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DispatchDesc {
    schema: u32,
    #[serde(default)]
    surfaces: Vec<SurfaceDesc>,
    #[serde(default)]
    memory: Vec<RangeDesc>,
    #[serde(default)]
    stateless_base: u64,
    #[serde(default)]
    slm_size: Option<u32>,
    #[serde(default)]
    threads: ThreadsDesc,
    #[serde(default)]
    urb_out: Option<String>,
    #[serde(default)]
    rt_out: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SurfaceDesc {
    bti: u8,
    /// `buffer` or `2d`.
    kind: String,
    #[serde(default)]
    size: Option<u64>,
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    height: Option<u32>,
    #[serde(default)]
    pitch: Option<u32>,
    #[serde(default)]
    init: Option<String>,
    #[serde(default)]
    out: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeDesc {
    address: u64,
    #[serde(default)]
    size: Option<u64>,
    #[serde(default)]
    init: Option<String>,
    #[serde(default)]
    out: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ThreadsDesc {
    /// A grid of thread groups (X, Y, Z), each with `threads_per_group`
    /// threads and the GPGPU r0 header.
    #[serde(default)]
    groups: Option<[u32; 3]>,
    #[serde(default)]
    threads_per_group: Option<u32>,
    #[serde(default)]
    dispatch_mask: Option<u32>,
    /// Media threads, one per `MEDIA_OBJECT` (`Dispatch::media`).
    #[serde(default)]
    media: Option<MediaDesc>,
    /// Register settings for every thread (`--grf`'s form).
    #[serde(default)]
    registers: Vec<String>,
    /// Threads listed one by one, after the grid's.
    #[serde(default)]
    list: Vec<ThreadDesc>,
}

/// Media threads: the constant (CURBE) data from r1, then each thread's
/// inline data in the registers after it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MediaDesc {
    /// A file of the constant data's bytes.
    #[serde(default)]
    curbe: Option<String>,
    /// The constant data as dwords.
    #[serde(default)]
    curbe_dwords: Vec<u32>,
    /// Per thread, its inline data as dwords (one thread each).
    #[serde(default)]
    inline_dwords: Vec<Vec<u32>>,
}

/// The little-endian bytes of `dwords`.
fn dword_bytes(dwords: &[u32]) -> Vec<u8> {
    dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThreadDesc {
    #[serde(default)]
    group: u32,
    #[serde(default)]
    dispatch_mask: Option<u32>,
    /// A file of register bytes loaded at g0 on.
    #[serde(default)]
    grf_file: Option<String>,
    #[serde(default)]
    registers: Vec<String>,
}

/// A path of the description, relative to the description's folder.
fn rel(base: &Path, p: &str) -> PathBuf {
    base.join(p)
}

fn read_file(base: &Path, p: &str) -> Result<Vec<u8>, CliError> {
    let path = rel(base, p);
    std::fs::read(&path).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

fn write_file(base: &Path, p: &str, bytes: &[u8]) -> Result<(), CliError> {
    let path = rel(base, p);
    std::fs::write(&path, bytes).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

/// Bytes of `len` from `init` (zero-padded or cut), or `len` zeros.
fn sized(base: &Path, init: Option<&str>, len: Option<u64>, what: &str) -> Result<Vec<u8>, CliError> {
    let mut bytes = match init {
        Some(f) => read_file(base, f)?,
        None => Vec::new(),
    };
    match len {
        Some(n) => {
            let n = usize::try_from(n).map_err(|_| CliError::Input(format!("{what}: size {n} is too large")))?;
            bytes.resize(n, 0);
        }
        None if init.is_none() => {
            return Err(CliError::Input(format!("{what}: give `size` or `init`")));
        }
        None => {}
    }
    Ok(bytes)
}

/// The memory and threads a description gives.
fn load(desc: &DispatchDesc, base: &Path, grf: &[String]) -> Result<(Memory, Dispatch), CliError> {
    if desc.schema != 1 {
        return Err(CliError::Input(format!("dispatch: schema {} is not 1", desc.schema)));
    }
    let mut mem = Memory::new();
    mem.stateless_base = desc.stateless_base;
    if let Some(s) = desc.slm_size {
        mem.slm_size = s;
    }
    for s in &desc.surfaces {
        let what = format!("surface {}", s.bti);
        let surface = match s.kind.as_str() {
            "buffer" => Surface::buffer(sized(base, s.init.as_deref(), s.size, &what)?),
            "2d" => {
                let need = |v: Option<u32>, k: &str| {
                    v.ok_or_else(|| CliError::Input(format!("{what}: a 2d surface needs `{k}`")))
                };
                let format: SurfaceFormat = s
                    .format
                    .as_deref()
                    .ok_or_else(|| CliError::Input(format!("{what}: a 2d surface needs `format`")))?
                    .parse()
                    .map_err(|e| CliError::Input(format!("{what}: {e}")))?;
                let (w, h) = (need(s.width, "width")?, need(s.height, "height")?);
                let pitch = s.pitch.unwrap_or(w.saturating_mul(format.bytes()));
                let len = u64::from(pitch) * u64::from(h);
                let data = sized(base, s.init.as_deref(), Some(len.max(s.size.unwrap_or(0))), &what)?;
                Surface::image_2d_with_data(format, w, h, pitch, data)
                    .map_err(|e| CliError::Input(format!("{what}: {e}")))?
            }
            k => {
                return Err(CliError::Input(format!(
                    "{what}: kind `{k}` is neither `buffer` nor `2d`"
                )))
            }
        };
        mem.bind(s.bti, surface);
    }
    for r in &desc.memory {
        let what = format!("memory at {:#x}", r.address);
        let bytes = sized(base, r.init.as_deref(), r.size, &what)?;
        mem.map(r.address, bytes)
            .map_err(|e| CliError::Input(format!("{what}: {e}")))?;
    }
    let t = &desc.threads;
    let mask = t.dispatch_mask.unwrap_or(u32::MAX);
    let mut d = match (t.groups, &t.media) {
        (Some(_), Some(_)) => {
            return Err(CliError::Input(
                "dispatch: threads has both `groups` and `media`; give one".into(),
            ))
        }
        (None, Some(m)) => {
            let curbe = match (&m.curbe, m.curbe_dwords.is_empty()) {
                (Some(_), false) => {
                    return Err(CliError::Input(
                        "dispatch: threads.media has both `curbe` and `curbe_dwords`; give one".into(),
                    ))
                }
                (Some(f), true) => read_file(base, f)?,
                (None, _) => dword_bytes(&m.curbe_dwords),
            };
            let inline: Vec<Vec<u8>> = m.inline_dwords.iter().map(|d| dword_bytes(d)).collect();
            Dispatch::media(&curbe, &inline, mask).map_err(|e| CliError::Input(format!("dispatch: {e}")))?
        }
        (Some(g), None) => Dispatch::gpgpu(g, t.threads_per_group.unwrap_or(1), mask),
        (None, None) if t.list.is_empty() => {
            let mut d = Dispatch::new();
            let mut th = Thread::new();
            th.set_dispatch_mask(mask);
            d.push(0, th);
            d
        }
        (None, None) => Dispatch::new(),
    };
    for th in d.threads_mut() {
        for spec in t.registers.iter().chain(grf) {
            apply_grf(&mut th.thread, spec).map_err(CliError::Input)?;
        }
    }
    for td in &t.list {
        let mut th = Thread::new();
        th.set_dispatch_mask(td.dispatch_mask.unwrap_or(mask));
        if let Some(f) = &td.grf_file {
            let bytes = read_file(base, f)?;
            let dst = th.grf_mut();
            let n = bytes.len().min(dst.len());
            if let (Some(d), Some(s)) = (dst.get_mut(..n), bytes.get(..n)) {
                d.copy_from_slice(s);
            }
        }
        // The settings for every thread, then the thread's own.
        for spec in t.registers.iter().chain(grf).chain(&td.registers) {
            apply_grf(&mut th, spec).map_err(CliError::Input)?;
        }
        d.push(td.group, th);
    }
    Ok((mem, d))
}

/// Writes the outputs the description names.
fn store(desc: &DispatchDesc, base: &Path, mem: &Memory) -> Result<(), CliError> {
    for s in &desc.surfaces {
        if let (Some(out), Some(surface)) = (&s.out, mem.surface(s.bti)) {
            write_file(base, out, surface.data())?;
        }
    }
    for r in &desc.memory {
        if let (Some(out), Some(bytes)) = (&r.out, mem.mapped(r.address)) {
            write_file(base, out, bytes)?;
        }
    }
    if let Some(out) = &desc.urb_out {
        let mut s = String::from("thread handle dword value\n");
        for w in mem.urb_writes() {
            let _ = writeln!(s, "{} {:#x} {} {:#010x}", w.thread, w.handle, w.dword, w.value);
        }
        write_file(base, out, s.as_bytes())?;
    }
    if let Some(out) = &desc.rt_out {
        let mut s = String::from("thread bti slot x y r g b a\n");
        for w in mem.rt_writes() {
            let (x, y) = w
                .position
                .map_or(("-".into(), "-".into()), |(x, y)| (x.to_string(), y.to_string()));
            let [r, g, b, a] = w.color;
            let _ = writeln!(
                s,
                "{} {} {} {x} {y} {r:#010x} {g:#010x} {b:#010x} {a:#010x}",
                w.thread, w.bti, w.slot
            );
        }
        write_file(base, out, s.as_bytes())?;
    }
    Ok(())
}

/// A location's name, as the text layer names registers.
fn loc_name(at: Loc) -> (String, u8) {
    match at {
        Loc::Grf { reg, byte } => (format!("g{reg}"), byte),
        Loc::Arf { reg, byte } => (reg.to_string(), byte),
        _ => ("?".into(), 0),
    }
}

/// The general registers `after` holds differently from `before`: each
/// register's number and its bytes before and after.
fn changed_grfs<'t>(before: &'t Thread, after: &'t Thread) -> impl Iterator<Item = (usize, &'t [u8], &'t [u8])> {
    let grf = geneu::isa::GRF_BYTES as usize;
    before
        .grf()
        .chunks(grf)
        .zip(after.grf().chunks(grf))
        .enumerate()
        .filter(|(_, (b, a))| b != a)
        .map(|(n, (b, a))| (n, b, a))
}

/// A little-endian dword from up to four bytes.
fn dword(d: &[u8]) -> u32 {
    let mut b = [0u8; 4];
    for (x, y) in b.iter_mut().zip(d) {
        *x = *y;
    }
    u32::from_le_bytes(b)
}

/// The changed registers of a thread, one line a register: its dwords
/// after the run, changed ones marked.
fn changed_registers(before: &Thread, after: &Thread, out: &mut String) {
    for (n, rb, ra) in changed_grfs(before, after) {
        let _ = write!(out, "  g{n:<4}");
        for (db, da) in rb.chunks(4).zip(ra.chunks(4)) {
            let v = dword(da);
            let mark = if db == da { ' ' } else { '*' };
            let _ = write!(out, " {v:08x}{mark}");
        }
        out.push('\n');
    }
    for (r, b, a) in changed_arfs(before, after) {
        let _ = write!(out, "  {:<5}", r.to_string());
        if let Some(v) = match r {
            Arf::Mme { reg, channel } => after.mme(reg, usize::from(channel)),
            _ => None,
        } {
            let _ = writeln!(out, " {v}");
            continue;
        }
        for (db, da) in b.chunks(4).zip(a.chunks(4)) {
            let mark = if db == da { ' ' } else { '*' };
            let _ = write!(out, " {:0w$x}{mark}", dword(da), w = 2 * da.len());
        }
        out.push('\n');
    }
}

/// The architecture registers `after` holds differently from `before`
/// (`ip` and `tm0` aside, which every step changes): each with its bytes
/// before (zero for a math-macro channel not yet written) and after.
fn changed_arfs(before: &Thread, after: &Thread) -> Vec<(Arf, Vec<u8>, Vec<u8>)> {
    let old = before.arfs();
    after
        .arfs()
        .into_iter()
        .filter(|(r, _)| !matches!(r, Arf::Ip | Arf::Tm0))
        .filter_map(|(r, a)| {
            let b = old
                .iter()
                .find(|(o, _)| *o == r)
                .map_or_else(|| vec![0; a.len()], |(_, b)| b.clone());
            (b != a).then_some((r, b, a))
        })
        .collect()
}

/// Groups a trace entry's byte changes into registers.
fn change_text(changes: &[Change]) -> String {
    let mut regs: Vec<String> = Vec::new();
    for c in changes {
        let (name, _) = loc_name(c.at);
        if !regs.contains(&name) {
            regs.push(name);
        }
    }
    regs.join(" ")
}

fn trace_text(p: Platform, thread: usize, o: &Outcome, out: &mut String) {
    for e in &o.trace {
        let _ = writeln!(
            out,
            "[{thread}] {:#06x} {:08x} {:<60} {}",
            e.offset,
            e.channels,
            e.instruction.display(p).to_string(),
            change_text(&e.changes)
        );
    }
}

/// The document `run --json` prints.
#[derive(Serialize)]
struct RunJson<'a> {
    platform: &'static str,
    file: &'a str,
    threads: Vec<ThreadJson>,
    /// Errors of the program as a whole (a truncated last instruction);
    /// a thread's own error is in its `error`.
    errors: Vec<json::Error>,
}

/// One thread of `run --json`.
#[derive(Serialize)]
struct ThreadJson {
    thread: usize,
    group: u32,
    /// `end_of_thread` or `program_end`; `null` when the thread did not end.
    end: Option<&'static str>,
    steps: Option<u64>,
    changed: Vec<RegJson>,
    trace: Vec<TraceJson>,
    error: Option<json::Error>,
}

/// A register the run changed: its bytes after the run.
#[derive(Serialize)]
struct RegJson {
    register: String,
    bytes: String,
}

/// One executed instruction.
#[derive(Serialize)]
struct TraceJson {
    offset: u32,
    text: String,
    channels: u32,
    changes: Vec<ChangeJson>,
}

/// One register byte an instruction changed.
#[derive(Serialize)]
struct ChangeJson {
    register: String,
    byte: u8,
    old: u8,
    new: u8,
}

/// How a thread ended, in the JSON's words.
fn end_name(e: End) -> &'static str {
    match e {
        End::EndOfThread => "end_of_thread",
        _ => "program_end",
    }
}

/// The registers `after` holds differently from `before`.
fn changed_json(before: &Thread, after: &Thread) -> Vec<RegJson> {
    changed_grfs(before, after)
        .map(|(n, _, y)| RegJson {
            register: format!("g{n}"),
            bytes: json::hex_bytes(y),
        })
        .chain(changed_arfs(before, after).into_iter().map(|(r, _, a)| RegJson {
            register: r.to_string(),
            bytes: json::hex_bytes(&a),
        }))
        .collect()
}

/// Runs `run`.
pub fn run(p: Platform, args: &RunArgs<'_>) -> Result<ExitCode, CliError> {
    let bytes = match program_bytes(p, args.path, args.input)? {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{msg}");
            return Ok(ExitCode::from(2));
        }
    };
    let prog = match Program::new(p, &bytes) {
        Ok(prog) => prog,
        Err(e) => {
            let file = super::asm::display_name(args.path);
            if args.json {
                let at = json::At::offset(e.offset() as usize).with_file(file);
                emit(&json::document(
                    "run",
                    &RunJson {
                        platform: json::platform(p),
                        file,
                        threads: Vec::new(),
                        errors: vec![json::Error::new(e.kind(), &e, at)],
                    },
                ))?;
            } else {
                eprintln!("{file}: error: {e}");
            }
            return Ok(ExitCode::from(1));
        }
    };
    let (desc, base) = match args.dispatch {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| CliError::Input(format!("{f}: {e}")))?;
            let desc: DispatchDesc = serde_json::from_str(&text).map_err(|e| CliError::Input(format!("{f}: {e}")))?;
            let base = Path::new(f).parent().map(Path::to_path_buf).unwrap_or_default();
            (desc, base)
        }
        None => (
            DispatchDesc {
                schema: 1,
                ..DispatchDesc::default()
            },
            PathBuf::new(),
        ),
    };
    let (mut mem, mut dispatch) = load(&desc, &base, args.grf)?;
    let before: Vec<Thread> = dispatch.threads().iter().map(|t| t.thread.clone()).collect();
    let mut opts = RunOptions::default();
    opts.step_limit = args.steps;
    opts.trace = args.trace;
    // A fragment without an end-of-thread SEND ends at the program's end
    // (reported as such), which is what a bring-up engineer running a
    // snippet wants; a kernel ends with its EOT.
    opts.end_at_program_end = true;
    // The same result as one group after another, on any number of workers.
    let result = run_dispatch_parallel(&prog, &mut dispatch, &mut mem, &opts, args.threads).map(|(o, _)| o);
    let mut out = String::new();
    let outcomes = match &result {
        Ok(o) => o.as_slice(),
        Err(_) => &[],
    };
    if args.json {
        let file = super::asm::display_name(args.path);
        let threads = dispatch
            .threads()
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let o = outcomes.get(k);
                let error = match &result {
                    Err(e) if e.thread as usize == k => Some(json::Error::new(
                        e.error.kind(),
                        &e.error,
                        json::At::offset(e.error.offset() as usize).with_file(file),
                    )),
                    _ => None,
                };
                ThreadJson {
                    thread: k,
                    group: t.group,
                    end: o.map(|o| end_name(o.end)),
                    steps: o.map(|o| o.steps),
                    changed: before.get(k).map_or_else(Vec::new, |b| changed_json(b, &t.thread)),
                    trace: o.map_or_else(Vec::new, |o| {
                        o.trace
                            .iter()
                            .map(|e| TraceJson {
                                offset: e.offset,
                                text: e.instruction.display(p).to_string(),
                                channels: e.channels,
                                changes: e
                                    .changes
                                    .iter()
                                    .map(|c| {
                                        let (register, byte) = loc_name(c.at);
                                        ChangeJson {
                                            register,
                                            byte,
                                            old: c.old,
                                            new: c.new,
                                        }
                                    })
                                    .collect(),
                            })
                            .collect()
                    }),
                    error,
                }
            })
            .collect();
        out = json::document(
            "run",
            &RunJson {
                platform: json::platform(p),
                file,
                threads,
                errors: Vec::new(),
            },
        );
    } else {
        for (k, t) in dispatch.threads().iter().enumerate() {
            if let Some(o) = outcomes.get(k) {
                trace_text(p, k, o, &mut out);
                let _ = writeln!(
                    out,
                    "thread {k} (group {}): {} instructions, {}",
                    t.group,
                    o.steps,
                    end_name(o.end)
                );
            } else {
                let _ = writeln!(out, "thread {k} (group {}):", t.group);
            }
            if let Some(b) = before.get(k) {
                changed_registers(b, &t.thread, &mut out);
            }
        }
    }
    emit(&out)?;
    store(&desc, &base, &mem)?;
    match result {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            if !args.json {
                eprintln!("geneu: {e}");
            }
            Ok(ExitCode::from(1))
        }
    }
}
