mod baselines;
mod cache;
mod clustering;
mod pipeline;
mod placement;
mod report;
mod stage_dp;
mod util;
