mod baselines;
mod cache;
mod clustering;
mod pipeline;
mod placement;
mod stage_dp;
mod util;
