//! The transitions of the stage DP: for every (layer range, submesh) and pipeline depth class,
//! the fastest option that fits in memory. A transition's latency includes the range's
//! cross-stage transfer when it is modeled (transfer.rs).

use super::memory::max_fitting_depth;
use super::plan::StageDpOptions;
use super::submesh::SubmeshShape;
use super::table::CostTable;
use super::table_prune::usable;
use std::ops::Range;

/// One transition: a stage `k..i` on shape `shape` using option `option`, in depth class `class`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Move {
    pub(crate) lat: f64,
    pub(crate) i: usize,
    pub(crate) devs: usize,
    pub(crate) class: usize,
    pub(crate) shape: usize,
    pub(crate) option: usize,
}

/// The transitions, per starting layer k sorted by latency, and the deep class index: depths
/// 1..deep are exact classes, class `deep` stands for every depth >= deep (see stage_dp.rs).
pub(crate) struct Moves {
    pub(crate) rows: Vec<Vec<Move>>,
    pub(crate) deep: usize,
}

pub(crate) fn build_moves(
    table: &CostTable,
    opts: &StageDpOptions,
    allow: &dyn Fn(Range<usize>, SubmeshShape) -> bool,
) -> Moves {
    let layers = table.num_layers();
    let devices = table.cluster().devices();
    let s_max = layers.min(devices);
    // Per (k, i, shape): options as (latency, cap, index), Pareto-filtered.
    let mut fronts: Vec<(usize, usize, usize, Vec<(f64, usize, usize)>)> = Vec::new();
    let mut s_c = 0;
    for k in 0..layers {
        for i in k + 1..=layers {
            for (s, &shape) in table.shapes().iter().enumerate() {
                // Pairs no plan can use stay out, so that the t_max candidates do not depend on
                // whether the table builder planned them (table_prune.rs).
                if shape.devices() > devices
                    || !allow(k..i, shape)
                    || !usable(&(k..i), shape.devices(), layers, devices)
                {
                    continue;
                }
                let mut o: Vec<(f64, usize, usize)> = table
                    .options(k..i, s)
                    .iter()
                    .enumerate()
                    .map(|(n, o)| {
                        let cap = max_fitting_depth(o, s_max, opts.microbatches, opts.schedule, opts.mem_device);
                        (o.latency, cap, n)
                    })
                    .filter(|&(_, cap, _)| cap > 0)
                    .collect();
                o.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
                let mut front = Vec::new();
                for x in o {
                    if front.last().is_none_or(|l: &(f64, usize, usize)| x.1 > l.1) {
                        front.push(x);
                    }
                }
                for x in &front {
                    if x.1 < s_max {
                        s_c = s_c.max(x.1);
                    }
                }
                if !front.is_empty() {
                    fronts.push((k, i, s, front));
                }
            }
        }
    }
    let deep = s_c + 1;
    let mut moves = vec![Vec::new(); layers];
    for (k, i, s, front) in fronts {
        let devs = table.shapes()[s].devices();
        for class in 1..=deep {
            // The class-1 (or more) stages after this one need a layer and a device each; a
            // stage before the last is at depth 2 or more (table_prune.rs skips on this too).
            if class - 1 > layers - i || class - 1 > devices - devs || (class == 1 && class < deep && i < layers) {
                continue;
            }
            let need = if class == deep { s_max } else { class };
            if let Some(&(lat, _, option)) = front.iter().find(|x| x.1 >= need) {
                moves[k].push(Move { lat, i, devs, class, shape: s, option });
            }
        }
    }
    for m in &mut moves {
        m.sort_by(|a, b| a.lat.total_cmp(&b.lat));
    }
    Moves { rows: moves, deep }
}
