//! Integration tests of cspace-geom: the exact backend checked by independent means.

mod gjk;
mod module_cycles;
mod overlap;
mod resting_cylinders;
mod seams;
mod shared_context;
mod source;
mod sweeps;
mod tolerance_literals;
mod touching;
