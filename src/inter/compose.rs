//! Stage costs of long layer ranges composed from short ones (`compose-stages=N`): an
//! approximation that replaces the intra-op ILP of a range of many layers by the ILPs of its
//! N-layer windows, for models too large to plan every range exactly.
//!
//! For a range k..i longer than N layers, with a = k..k+N, b = k+N-1..i and c = the layer
//! k+N-1 they share:
//!
//!   cost(k..i) = cost(a) + cost(b) - cost(c)        (per logical mesh, for latency, mem_param
//!                                                     and mem_act alike)
//!
//! applied recursively to b. With N = 2 this is the sum of the layers' own costs plus, at each
//! inner boundary, the "glue" cost(l-1..l+1) - cost(l-1) - cost(l): what planning two
//! neighbours together adds to planning them apart (resharding between them, a collective
//! their plans share). It is exact when layers interact only with their neighbours, as a chain
//! of transformer blocks does; it is an approximation otherwise. On the GPT pipeline fixture
//! (4 blocks, 2 and 4 devices, every logical mesh, ranges of 3 and 4 layers) the composed
//! latency is within 0.5% of the exact plan's (`tests/graph_oracle.rs`,
//! `composed_stage_costs_track_the_exact_ilp`, prints each deviation). Memory is a property of
//! the plan the ILP picks among equally fast ones, so it can agree less. N = 1 is the plain sum (no glue),
//! which also counts each layer's program dispatch (a cluster file's measured XLA overheads) once
//! per layer, where N >= 2 counts it once per range. A logical mesh is offered for the
//! range only when every part has it; composed numbers are clamped at 0.

use super::stage_cost::StageCostResult;

/// The `n`-th option of `list` on logical mesh `mesh`: an oracle may offer several plans per
/// mesh (graph_oracle.rs: replicated and sharded parameters), always in the same order, and
/// composition combines like with like.
fn nth(list: &[StageCostResult], mesh: [usize; 2], n: usize) -> Option<&StageCostResult> {
    list.iter().filter(|o| o.logical_mesh == mesh).nth(n)
}

/// For each option of `a`: its position among `a`'s options on the same logical mesh.
fn occurrences(a: &[StageCostResult]) -> impl Iterator<Item = (&StageCostResult, usize)> {
    a.iter().enumerate().map(move |(i, x)| (x, a[..i].iter().filter(|o| o.logical_mesh == x.logical_mesh).count()))
}

/// cost(a) + cost(b) - cost(c) per logical mesh (and plan of that mesh) present in all three,
/// in `a`'s order.
pub(crate) fn compose(a: &[StageCostResult], b: &[StageCostResult], c: &[StageCostResult]) -> Vec<StageCostResult> {
    occurrences(a)
        .filter_map(|(x, n)| {
            let y = nth(b, x.logical_mesh, n)?;
            let z = nth(c, x.logical_mesh, n)?;
            let glue = |f: fn(&StageCostResult) -> f64| (f(x) + f(y) - f(z)).max(0.0);
            Some(StageCostResult {
                latency: glue(|o| o.latency),
                mem_param: glue(|o| o.mem_param),
                mem_act: glue(|o| o.mem_act),
                logical_mesh: x.logical_mesh,
            })
        })
        .collect()
}

/// Plain sum per logical mesh present in both (composition with one-layer windows).
pub(crate) fn add(a: &[StageCostResult], b: &[StageCostResult]) -> Vec<StageCostResult> {
    occurrences(a)
        .filter_map(|(x, n)| {
            let y = nth(b, x.logical_mesh, n)?;
            Some(StageCostResult {
                latency: x.latency + y.latency,
                mem_param: x.mem_param + y.mem_param,
                mem_act: x.mem_act + y.mem_act,
                logical_mesh: x.logical_mesh,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(mesh: [usize; 2], latency: f64, mem: f64) -> StageCostResult {
        StageCostResult { latency, mem_param: mem, mem_act: mem / 2.0, logical_mesh: mesh }
    }

    #[test]
    fn overlapping_windows_count_the_shared_layer_once() {
        let a = [o([1, 4], 3.0, 8.0), o([2, 2], 2.0, 6.0)];
        let b = [o([2, 2], 5.0, 4.0), o([1, 4], 4.0, 2.0)];
        let c = [o([1, 4], 1.0, 1.0), o([2, 2], 1.5, 2.0)];
        let r = compose(&a, &b, &c);
        assert_eq!(r, vec![o([1, 4], 6.0, 9.0), o([2, 2], 5.5, 8.0)]);
        // A mesh missing from any part is not offered.
        assert_eq!(compose(&a, &b, &c[..1]).len(), 1);
        // Clamped at zero.
        assert_eq!(compose(&[o([1, 1], 1.0, 1.0)], &[o([1, 1], 1.0, 1.0)], &[o([1, 1], 5.0, 5.0)])[0].latency, 0.0);
        assert_eq!(add(&a, &b), vec![o([1, 4], 7.0, 10.0), o([2, 2], 7.0, 10.0)]);
        // Two plans of one mesh pair up in order.
        let two = [o([1, 4], 1.0, 8.0), o([1, 4], 2.0, 1.0)];
        assert_eq!(add(&two, &two), vec![o([1, 4], 2.0, 16.0), o([1, 4], 4.0, 2.0)]);
        assert_eq!(add(&two, &two[..1]), vec![o([1, 4], 2.0, 16.0)]);
    }
}
