//! Dispatches of many thread groups: the parallel run gives exactly the
//! sequential run's result (every thread's registers and outcome, every
//! byte of memory, the URB and render target logs), with groups that touch
//! disjoint bytes, groups that read what earlier groups wrote, and atomics;
//! and threads of a group meet at barriers over shared local memory.

use geneu::sim::{
    run_dispatch, run_dispatch_parallel, Dispatch, Memory, Program, RunOptions, Surface, SurfaceFormat, Thread,
};
use geneu::Platform;
use proptest::prelude::*;

fn program(text: &str) -> Program {
    let words = geneu::text::assemble_words(Platform::Gen8, text).unwrap().concat();
    Program::new(Platform::Gen8, &words).unwrap()
}

/// Channel n of g13 is n; the thread ends with Mesa's CS terminate.
const PROLOGUE: &str = "
mov(8)          g10<1>UW        0x76543210V                     { align1 1Q };
mov(8)          g13<1>UD        g10<8,8,1>UW                    { align1 1Q };
";
const EOT: &str = "
mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };
send(8)         null<1>UW       g127<8,8,1>UD   0x82000010      thread_spawner { align1 WE_all 1Q EOT };
";

/// Per thread, from g1: reads the 8 dwords at slot g1.0 of the buffer
/// (BTI `bti`), writes them plus g1.3 at slot g1.1, then adds 1 to the
/// dword at slot g1.2 with an atomic that returns the old values (g21).
fn read_write_atomic(bti: u8) -> Program {
    let text = format!(
        "{PROLOGUE}
add(8)          g2<1>UD         g13<8,8,1>UD    g1<0,1,0>UD     {{ align1 1Q }};
shl(8)          g2<1>UD         g2<8,8,1>UD     0x00000002UD    {{ align1 1Q }};
send(8)         g20<1>UD        g2<8,8,1>UD     {read:#010x}    dp data 1 {{ align1 1Q }};
add(8)          g4<1>UD         g13<8,8,1>UD    g1.1<0,1,0>UD   {{ align1 1Q }};
shl(8)          g4<1>UD         g4<8,8,1>UD     0x00000002UD    {{ align1 1Q }};
add(8)          g5<1>UD         g20<8,8,1>UD    g1.3<0,1,0>UD   {{ align1 1Q }};
send(8)         null<1>UW       g4<8,8,1>UD     {write:#010x}   dp data 1 {{ align1 1Q }};
shl(8)          g6<1>UD         g1.2<0,1,0>UD   0x00000002UD    {{ align1 1Q }};
mov(8)          g7<1>UD         0x00000001UD                    {{ align1 1Q }};
send(8)         g21<1>UD        g6<8,8,1>UD     {atomic:#010x}  dp data 1 {{ align1 1Q }};
{EOT}",
        // Untyped surface read and write (SIMD8, red only) and an untyped
        // atomic add with return (SIMD8); `geneu desc` decodes them.
        read = 0x0210_6e00u32 | u32::from(bti),
        write = 0x0402_6e00u32 | u32::from(bti),
        atomic = 0x0410_b700u32 | u32::from(bti),
    );
    program(&text)
}

/// The same through typed surface messages on the 64x1 R32_UINT image at
/// BTI 1 (texel x for slot x): reads the texels at x = g1.0 + n, writes
/// them plus g1.3 at x = g1.1 + n. A typed message counts as reaching the
/// whole surface. Slot group 1 (descriptor bits 13:12) is the low eight
/// slots.
fn typed_read_write() -> Program {
    program(&format!(
        "{PROLOGUE}
mov(8)          g2<1>UD         0x00000000UD                    {{ align1 1Q }};
mov(1)          g2.7<1>UD       0x000000ffUD                    {{ align1 WE_all 1N }};
add(8)          g3<1>UD         g13<8,8,1>UD    g1<0,1,0>UD     {{ align1 1Q }};
send(8)         g20<1>UD        g2<8,8,1>UD     0x04195e01      dp data 1 {{ align1 1Q }};
mov(8)          g4<1>UD         0x00000000UD                    {{ align1 1Q }};
mov(1)          g4.7<1>UD       0x000000ffUD                    {{ align1 WE_all 1N }};
add(8)          g5<1>UD         g13<8,8,1>UD    g1.1<0,1,0>UD   {{ align1 1Q }};
add(8)          g6<1>UD         g20<8,8,1>UD    g1.3<0,1,0>UD   {{ align1 1Q }};
send(8)         null<1>UW       g4<8,8,1>UD     0x060b5e01      dp data 1 {{ align1 1Q }};
{EOT}"
    ))
}

/// Dwords of the test buffer.
const SLOTS: u32 = 64;
/// Where the stateless buffer lives.
const BASE: u64 = 0x10_0000;

fn memory() -> Memory {
    let mut m = Memory::new();
    let init: Vec<u8> = (0..SLOTS * 4).map(|b| (b * 7 + 3) as u8).collect();
    m.bind(0, Surface::buffer(init.clone()));
    m.stateless_base = BASE;
    m.map(BASE, init.clone()).unwrap();
    // The image's data runs on past its one row to 128 KiB, so that a
    // group's view keeps its byte-addressed writes to it in pages (the
    // views copy smaller surfaces whole, as the 256-byte buffer at 0).
    let image = SurfaceFormat::from_name("R32_UINT").unwrap();
    let mut data = init;
    data.resize(128 * 1024, 0);
    m.bind(
        1,
        Surface::image_2d_with_data(image, SLOTS, 1, SLOTS * 4, data).unwrap(),
    );
    m
}

/// A thread's parameters: read slot, write slot, atomic slot, addend.
type Params = [u32; 4];

fn dispatch(groups: &[Vec<Params>]) -> Dispatch {
    let mut d = Dispatch::new();
    for (g, threads) in groups.iter().enumerate() {
        for p in threads {
            let mut t = Thread::new();
            t.set_dispatch_mask(0xff);
            t.write_ud8(1, [p[0], p[1], p[2], p[3], 0, 0, 0, 0]);
            d.push(g as u32, t);
        }
    }
    d
}

/// Runs `d` sequentially and in parallel on each worker count; every result
/// must be the sequential one. Returns the groups run again or one after
/// another by the parallel runs.
fn same_as_sequential(prog: &Program, d: &Dispatch, mem: &Memory) -> usize {
    let opts = RunOptions::default();
    let (mut d0, mut m0) = (d.clone(), mem.clone());
    let r0 = run_dispatch(prog, &mut d0, &mut m0, &opts);
    let mut sequential = 0;
    for workers in [2, 3, 5] {
        let (mut d1, mut m1) = (d.clone(), mem.clone());
        let r1 = run_dispatch_parallel(prog, &mut d1, &mut m1, &opts, workers);
        match (&r0, r1) {
            (Ok(o0), Ok((o1, stats))) => {
                assert_eq!(o0, &o1);
                assert_eq!(stats.groups, stats.parallel + stats.sequential);
                sequential += stats.sequential;
            }
            (Err(e0), Err(e1)) => assert_eq!(e0, &e1),
            (a, b) => panic!("sequential {a:?}, parallel {b:?}"),
        }
        assert_eq!(d0, d1, "registers, {workers} workers");
        assert!(m0 == m1, "memory, {workers} workers");
    }
    sequential
}

#[test]
fn disjoint_groups_run_in_parallel() {
    // Each group reads and writes its own slots and has its own counter.
    let groups: Vec<Vec<Params>> = (0..6).map(|g| vec![[g * 8, g * 8, 48 + g, g]]).collect();
    for bti in [0, 1, 255] {
        let n = same_as_sequential(&read_write_atomic(bti), &dispatch(&groups), &memory());
        assert_eq!(n, 0, "no group read another's writes (bti {bti})");
    }
}

#[test]
fn chained_groups_and_one_counter_give_the_sequential_result() {
    // Group g reads what group g-1 wrote (slot 8(g-1)+1 onwards) and every
    // group adds to counter 63 (which no group writes otherwise): the
    // result depends on the order.
    let groups: Vec<Vec<Params>> = (0..7u32)
        .map(|g| vec![[(g * 8).saturating_sub(7), g * 8, 63, 100 + g]])
        .collect();
    for bti in [0, 1, 255] {
        let prog = read_write_atomic(bti);
        let d = dispatch(&groups);
        let n = same_as_sequential(&prog, &d, &memory());
        assert!(n > 0, "groups reran (bti {bti})");
        // The counter's old values are 0x..,+1,+2: thread k saw the
        // initial dword plus k (sequential order), in every channel.
        let mut m = memory();
        let mut d1 = d.clone();
        run_dispatch_parallel(&prog, &mut d1, &mut m, &RunOptions::default(), 4).unwrap();
        let init = u32::from_le_bytes(core::array::from_fn(|b| ((63 * 4 + b as u32) * 7 + 3) as u8));
        for (k, t) in d1.threads().iter().enumerate() {
            let old = t.thread.read_ud8(21).unwrap();
            let first = init.wrapping_add(8 * k as u32);
            assert_eq!(old, core::array::from_fn(|c| first + c as u32), "thread {k}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn parallel_equals_sequential(
        groups in prop::collection::vec(
            prop::collection::vec((0..SLOTS - 8, 0..SLOTS - 8, 0..SLOTS, 0..1000u32), 1..4), 1..10),
        bti in prop::sample::select(vec![0u8, 1, 255]),
    ) {
        let groups: Vec<Vec<Params>> =
            groups.iter().map(|g| g.iter().map(|&(r, w, a, v)| [r, w, a, v]).collect()).collect();
        let prog = read_write_atomic(bti);
        same_as_sequential(&prog, &dispatch(&groups), &memory());
    }

    #[test]
    fn parallel_equals_sequential_typed(
        groups in prop::collection::vec(
            prop::collection::vec((0..SLOTS - 8, 0..SLOTS - 8, 0..1000u32), 1..3), 1..8),
    ) {
        let groups: Vec<Vec<Params>> =
            groups.iter().map(|g| g.iter().map(|&(r, w, v)| [r, w, 0, v]).collect()).collect();
        same_as_sequential(&typed_read_write(), &dispatch(&groups), &memory());
    }
}

#[test]
fn typed_groups_see_earlier_groups_writes() {
    // Group g reads texels 8(g-1).. (what group g-1 wrote) and adds 1.
    let groups: Vec<Vec<Params>> = (0..5u32)
        .map(|g| vec![[(g * 8).saturating_sub(8), g * 8, 0, 1]])
        .collect();
    let d = dispatch(&groups);
    assert!(same_as_sequential(&typed_read_write(), &d, &memory()) > 0);
    let mut m = memory();
    let mut d1 = d.clone();
    run_dispatch_parallel(&typed_read_write(), &mut d1, &mut m, &RunOptions::default(), 2).unwrap();
    let img = m.surface(1).unwrap();
    for x in 0..8 {
        // Texel x started as its bytes 4x..4x+3 (byte b is 7b + 3); group 0
        // read it and wrote it plus 1 in place, and each group after it
        // added 1 to what the one before wrote.
        let init = u32::from_le_bytes(core::array::from_fn(|b| ((4 * x + b as u32) * 7 + 3) as u8));
        for g in 0..5 {
            let want = init.wrapping_add(g + 1);
            assert_eq!(img.texel(i64::from(8 * g + x), 0).unwrap()[0], want, "x {x} group {g}");
        }
    }
}

/// Thread t of a group (g1.0 = t, 4 threads) writes 100t + n to dword 8t + n
/// of the group's shared local memory, meets the others at the barrier
/// (with `barrier`), then reads the dwords of thread (t + 1) mod 4 into g20.
fn slm_neighbour(barrier: bool) -> Program {
    let wait = if barrier {
        "
mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };
send(8)         null<1>UW       g127<8,8,1>UD   0x02000004      gateway { align1 WE_all 1Q };"
    } else {
        ""
    };
    program(&format!(
        "{PROLOGUE}
shl(1)          g11<1>UD        g1<0,1,0>UD     0x00000003UD    {{ align1 WE_all 1N }};
add(8)          g2<1>UD         g13<8,8,1>UD    g11<0,1,0>UD    {{ align1 1Q }};
shl(8)          g2<1>UD         g2<8,8,1>UD     0x00000002UD    {{ align1 1Q }};
mul(8)          g3<1>UD         g1<0,1,0>UD     0x00000064UD    {{ align1 1Q }};
add(8)          g3<1>UD         g3<8,8,1>UD     g13<8,8,1>UD    {{ align1 1Q }};
send(8)         null<1>UW       g2<8,8,1>UD     0x04026efe      dp data 1 {{ align1 1Q }};
{wait}
add(1)          g12<1>UD        g1<0,1,0>UD     0x00000001UD    {{ align1 WE_all 1N }};
and(1)          g12<1>UD        g12<0,1,0>UD    0x00000003UD    {{ align1 WE_all 1N }};
shl(1)          g12<1>UD        g12<0,1,0>UD    0x00000003UD    {{ align1 WE_all 1N }};
add(8)          g4<1>UD         g13<8,8,1>UD    g12<0,1,0>UD    {{ align1 1Q }};
shl(8)          g4<1>UD         g4<8,8,1>UD     0x00000002UD    {{ align1 1Q }};
send(8)         g20<1>UD        g4<8,8,1>UD     0x02106efe      dp data 1 {{ align1 1Q }};
{EOT}"
    ))
}

#[test]
fn threads_of_a_group_meet_at_the_barrier_over_slm() {
    for barrier in [true, false] {
        let prog = slm_neighbour(barrier);
        let mut d = Dispatch::gpgpu([3, 1, 1], 4, 0xff);
        for (k, t) in d.threads_mut().iter_mut().enumerate() {
            t.thread.write_ud(1, 0, k as u32 % 4);
        }
        let n = same_as_sequential(&prog, &d, &Memory::new());
        assert_eq!(n, 0, "SLM is the group's own");
        run_dispatch(&prog, &mut d, &mut Memory::new(), &RunOptions::default()).unwrap();
        for (k, t) in d.threads().iter().enumerate() {
            let next = (k as u32 + 1) % 4;
            // Without the barrier, threads run one after another: only the
            // last one finds its neighbour's (thread 0's) dwords written.
            let want: [u32; 8] = if barrier || next == 0 {
                core::array::from_fn(|c| 100 * next + c as u32)
            } else {
                [0; 8]
            };
            assert_eq!(t.thread.read_ud8(20), Some(want), "thread {k}, barrier {barrier}");
        }
    }
}

/// Writes n + g1.3 to dword g1.1 + n of the image at BTI 1 with an untyped
/// write, then reads texels g1.0 + n with a typed read into g20: a group
/// that reaches a surface byte by byte, then as a whole, sees its own
/// writes.
fn untyped_then_typed() -> Program {
    program(&format!(
        "{PROLOGUE}
add(8)          g4<1>UD         g13<8,8,1>UD    g1.1<0,1,0>UD   {{ align1 1Q }};
shl(8)          g4<1>UD         g4<8,8,1>UD     0x00000002UD    {{ align1 1Q }};
add(8)          g5<1>UD         g13<8,8,1>UD    g1.3<0,1,0>UD   {{ align1 1Q }};
send(8)         null<1>UW       g4<8,8,1>UD     0x04026e01      dp data 1 {{ align1 1Q }};
mov(8)          g2<1>UD         0x00000000UD                    {{ align1 1Q }};
mov(1)          g2.7<1>UD       0x000000ffUD                    {{ align1 WE_all 1N }};
add(8)          g3<1>UD         g13<8,8,1>UD    g1<0,1,0>UD     {{ align1 1Q }};
send(8)         g20<1>UD        g2<8,8,1>UD     0x04195e01      dp data 1 {{ align1 1Q }};
{EOT}"
    ))
}

#[test]
fn a_group_sees_its_own_writes_across_message_kinds() {
    // Group g writes slots 8g.. and reads them back; then reads 8(g-1)..
    // written by the group before it.
    for back in [0u32, 8] {
        let groups: Vec<Vec<Params>> = (0..6u32)
            .map(|g| vec![[(8 * g).saturating_sub(back), 8 * g, 0, 1000 * (g + 1)]])
            .collect();
        let d = dispatch(&groups);
        same_as_sequential(&untyped_then_typed(), &d, &memory());
        let mut d1 = d.clone();
        run_dispatch_parallel(&untyped_then_typed(), &mut d1, &mut memory(), &RunOptions::default(), 3).unwrap();
        for (g, t) in d1.threads().iter().enumerate() {
            let from = if back == 0 || g == 0 { g } else { g - 1 };
            let want: [u32; 8] = core::array::from_fn(|c| 1000 * (from as u32 + 1) + c as u32);
            assert_eq!(t.thread.read_ud8(20), Some(want), "group {g}, back {back}");
        }
    }
}

/// A media fill in the shape of IGT's Gen8 `media_fill`: each media thread
/// takes the fill value from its constant data (g1.0) and its block's X
/// (bytes) and Y (rows) from its inline data (g2.0, g2.1), and writes a
/// block of 16 bytes by 4 rows with a media block write. The expectation
/// is computed here from the block positions alone.
#[test]
fn media_dispatch_puts_constant_data_in_r1_and_inline_data_after_it() {
    use geneu::msg::{Common, Message, Render, RenderOp};
    let write = Message::Render(Render::new(
        Platform::Gen8,
        Common::new(3, 0, true),
        3,
        RenderOp::MediaBlockWrite { control: 0 },
    ))
    .desc()
    .unwrap();
    let prog = program(&format!(
        "
mov(8)          g4<1>UD         g0<8,8,1>UD                     {{ align1 WE_all 1Q }};
mov(2)          g4<1>UD         g2<2,2,1>UD                     {{ align1 WE_all 1Q }};
mov(1)          g4.2<1>UD       0x0003000fUD                    {{ align1 WE_all }};
mov(8)          g5<1>UD         g1<0,1,0>UD                     {{ align1 WE_all 1Q }};
mov(8)          g6<1>UD         g1<0,1,0>UD                     {{ align1 WE_all 1Q }};
send(8)         null<1>UW       g4<8,8,1>UD     {write:#010x}   render {{ align1 WE_all 1Q }};
{EOT}"
    ));
    // A 48 x 8 byte image: six blocks of 16 x 4.
    let (w, h) = (48u32, 8u32);
    let fill = 0xa5a5_a5a5u32;
    let blocks: Vec<(u32, u32)> = (0..2).flat_map(|y| (0..3).map(move |x| (16 * x, 4 * y))).collect();
    // Only four of the six blocks get a thread; the inline data is two dwords.
    let inline: Vec<Vec<u8>> = blocks[..4]
        .iter()
        .map(|&(x, y)| [x.to_le_bytes(), y.to_le_bytes()].concat())
        .collect();
    let mut d = Dispatch::media(&fill.to_le_bytes(), &inline, 0xff).unwrap();
    assert_eq!(d.threads().len(), 4);
    // The payload as the module documentation lays it out.
    for (k, t) in d.threads().iter().enumerate() {
        assert_eq!(t.group, k as u32, "each media thread is its own group");
        let g = t.thread.grf();
        assert_eq!(g[..32], [0; 32]);
        assert_eq!(g[32..36], fill.to_le_bytes());
        assert_eq!(g[64..72], inline[k][..]);
    }
    let mut mem = Memory::new();
    mem.bind(3, Surface::image_2d(SurfaceFormat::R8Uint, w, h).unwrap());
    run_dispatch(&prog, &mut d, &mut mem, &RunOptions::default()).unwrap();
    let data = mem.surface(3).unwrap().data();
    for y in 0..h {
        for x in 0..w {
            let covered = blocks[..4]
                .iter()
                .any(|&(bx, by)| (bx..bx + 16).contains(&x) && (by..by + 4).contains(&y));
            let want = if covered { 0xa5 } else { 0 };
            assert_eq!(data[(y * w + x) as usize], want, "byte ({x}, {y})");
        }
    }
}

#[test]
fn media_payload_past_the_register_file_is_an_error() {
    // 100 registers of constant data plus 28 of inline data and r0: 129.
    let curbe = vec![0u8; 100 * 32];
    let ok = vec![0u8; 27 * 32];
    let big = vec![0u8; 27 * 32 + 1];
    assert!(Dispatch::media(&curbe, &[&ok[..]], 0xff).is_ok());
    let e = Dispatch::media(&curbe, &[&ok[..], &big[..]], 0xff).unwrap_err();
    assert_eq!((e.thread, e.registers, e.available), (1, 129, 128));
    assert!(e.to_string().contains("media thread 1"), "{e}");
}
