//! Support for the simulator's semantic tests: references written from the
//! specifications, independent of the simulator (and of the lowering and
//! the builder whose output the simulator runs).
#![allow(dead_code)]

pub mod flow_ref;
pub mod visa_ref;
