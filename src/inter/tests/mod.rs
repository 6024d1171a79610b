mod baselines;
mod cache;
mod clustering;
pub(crate) mod graphs;
mod pipeline;
mod placement;
mod report;
mod stage_dp;
mod util;
