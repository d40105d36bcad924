//! The workspace-hack of cspace (ARCHITECTURE.md, "Builds"): no code; its `Cargo.toml`, written
//! by `cargo hakari generate`, enables in one place the union of the features the whole
//! workspace's build gives each dependency, so that building one package after the workspace
//! reuses every artifact.
