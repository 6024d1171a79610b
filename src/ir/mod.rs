pub mod attr_text;
pub mod batch_split;
pub mod cost;
pub mod graph;
pub mod op_table;
pub mod state_aliases;
pub mod summary;
pub mod types;
