//! Exhaustive stage planning for small instances (the reference the DP is tested against):
//! every cut into contiguous stages, every assignment of submesh shapes using exactly all
//! devices, every option of every stage, under the same memory rule.

use super::memory::fits;
use super::plan::{pipeline_time, StageDpOptions, StagePlan};
use super::submesh::SubmeshShape;
use super::table::CostTable;
use std::ops::Range;

/// Largest number of layers the brute force accepts.
pub const BRUTE_FORCE_MAX_LAYERS: usize = 8;

/// The optimal plan by enumeration (`None` when no plan exists or L is too large).
pub fn brute_force_stage_plan(
    table: &CostTable,
    opts: &StageDpOptions,
    allow: &dyn Fn(Range<usize>, SubmeshShape) -> bool,
) -> Option<StagePlan> {
    let l = table.num_layers();
    if l > BRUTE_FORCE_MAX_LAYERS {
        return None;
    }
    let shapes = table.shapes();
    let devices = table.cluster().devices();
    let mut best: Option<(f64, Vec<(Range<usize>, SubmeshShape, usize)>)> = None;
    for mask in 0u32..(1u32 << (l - 1)) {
        let mut ranges = Vec::new();
        let mut start = 0;
        for b in 0..l - 1 {
            if mask & (1 << b) != 0 {
                ranges.push(start..b + 1);
                start = b + 1;
            }
        }
        ranges.push(start..l);
        let s = ranges.len();
        let mut shape_of = vec![0usize; s];
        loop {
            let used: usize = shape_of.iter().map(|&x| shapes[x].devices()).sum();
            let allowed = ranges.iter().zip(&shape_of).all(|(r, &x)| allow(r.clone(), shapes[x]));
            if used == devices && allowed {
                enumerate_options(table, opts, &ranges, &shape_of, &mut best);
            }
            // next assignment (odometer)
            let mut p = 0;
            while p < s {
                shape_of[p] += 1;
                if shape_of[p] < shapes.len() {
                    break;
                }
                shape_of[p] = 0;
                p += 1;
            }
            if p == s {
                break;
            }
        }
    }
    let (_, stages) = best?;
    let choices = stages
        .into_iter()
        .map(|(r, shape, o)| {
            let idx = table.shape_index(shape).unwrap_or(0);
            let opt = table.options(r.clone(), idx)[o];
            (r, shape, opt)
        })
        .collect();
    Some(StagePlan::from_choices(choices, opts))
}

fn enumerate_options(
    table: &CostTable,
    opts: &StageDpOptions,
    ranges: &[Range<usize>],
    shape_of: &[usize],
    best: &mut Option<(f64, Vec<(Range<usize>, SubmeshShape, usize)>)>,
) {
    let s = ranges.len();
    let lists: Vec<Vec<usize>> = ranges
        .iter()
        .zip(shape_of)
        .enumerate()
        .map(|(j, (r, &x))| {
            table
                .options(r.clone(), x)
                .iter()
                .enumerate()
                .filter(|(_, o)| fits(o, s - j, opts.microbatches, opts.schedule, opts.mem_device))
                .map(|(n, _)| n)
                .collect()
        })
        .collect();
    if lists.iter().any(|l| l.is_empty()) {
        return;
    }
    let mut pick = vec![0usize; s];
    loop {
        let lats: Vec<f64> =
            (0..s).map(|j| table.options(ranges[j].clone(), shape_of[j])[lists[j][pick[j]]].latency).collect();
        let t = pipeline_time(lats.iter().sum(), lats.iter().copied().fold(0.0, f64::max), opts.microbatches);
        if best.as_ref().is_none_or(|b| t < b.0) {
            let stages = (0..s).map(|j| (ranges[j].clone(), table.shapes()[shape_of[j]], lists[j][pick[j]])).collect();
            *best = Some((t, stages));
        }
        let mut p = 0;
        while p < s {
            pick[p] += 1;
            if pick[p] < lists[p].len() {
                break;
            }
            pick[p] = 0;
            p += 1;
        }
        if p == s {
            break;
        }
    }
}
