//! Integration tests of cspace-onion: agreement with the exact backend on generated worlds and the
//! corpus maps, Golodetz's examples (Figure 1, the low tunnel, Figure 4), seams, save/load,
//! errors, verification against the world, and the edit fuzz of saved trees.

mod agreement;
mod common;
mod contact_band;
mod corpus;
mod edits;
mod errors;
mod examples;
mod fill;
mod io;
mod lone_brush;
mod seams;
mod slivers;
mod space_trees;
mod touching;
mod verify;
