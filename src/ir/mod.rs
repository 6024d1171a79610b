pub mod graph;
pub mod types;
