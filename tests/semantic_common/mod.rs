//! Support for the simulator's semantic tests: references written from the
//! specifications, independent of the simulator (and of the lowering and
//! the builder whose output the simulator runs).
#![allow(dead_code)]

pub mod flow_ref;
pub mod machine;
pub mod visa_ref;

use geneu::build::{g, null, BuildError, Builder};
use geneu::msg::{Message, ThreadSpawner};
use geneu::ExecSize;

/// A small xorshift generator: programs are reproducible from their seed.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0.max(1);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    /// A number below `n`.
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n.max(1))) as u32
    }
}

/// The end of the thread: `mov(8) g127 g0` and the thread spawner's
/// end-of-thread message from g127, both NoMask (every test program ends
/// so; g127 is never compared).
pub fn end_of_thread(b: &mut Builder) -> Result<(), BuildError> {
    let p = b.platform();
    b.push_state();
    b.state_mut().no_mask = true;
    b.state_mut().exec_size = ExecSize::S8;
    b.state_mut().predicate = None;
    b.state_mut().qtr_control = 0;
    b.state_mut().nib_control = false;
    b.mov(g(127).ud(), g(0).ud())?;
    b.send(
        null().ud(),
        g(127).ud(),
        &Message::ThreadSpawner(ThreadSpawner::end_of_thread(p)),
    )?;
    b.pop_state()
}

/// The end of thread alone, as bytes for `p`.
pub fn end_of_thread_bytes(p: geneu::Platform) -> Vec<u8> {
    let mut b = Builder::new(p);
    end_of_thread(&mut b).expect("the end of thread builds");
    b.finish().expect("the end of thread validates").into_bytes()
}
