pub mod attr_text;
pub mod batch_inputs;
pub mod batch_split;
pub mod compute_type;
pub mod constant_values;
pub mod conv_taps;
pub mod cost;
pub mod fused_traffic;
pub mod graph;
pub mod loops;
pub mod op_table;
pub mod state_aliases;
pub mod summary;
#[cfg(test)]
pub(crate) mod test_graphs;
pub mod train_step;
pub mod types;
pub mod verify;
