//! Integration tests of cspace-melax: exact bevels against the exact backend for boxes, the
//! paper's cases (Figure 1, Section 8's ridge, a sharp wedge), point and ray invariance under
//! bevelling, the measured error of the paper's bevels on the corpus, and `M()` against `F()`.

mod common;
mod corpus;
mod exactness;
mod free_index;
mod hull;
mod invariance;
mod overlap;
mod paper;
mod split_planes;
mod touching;
