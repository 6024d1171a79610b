//! From an assignment of mesh axes to factors to a [`Strategy`]: the specs it implies, whether
//! it is valid, the collectives it needs, its name.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §4.

use crate::cluster::{Collective, DeviceMesh, MeshAxes};
use crate::ir::op_table::{FactorKind, OpRule};
use crate::ir::types::TensorType;
use crate::sharding::reshard::{tile_bytes, CollectiveUse};
use crate::sharding::spec::{DimSharding, ShardingSpec};

use super::Strategy;

/// One op as the strategy code sees it.
#[derive(Clone, Copy)]
pub(super) struct OpView<'a> {
    pub rule: &'a OpRule,
    pub operands: &'a [Option<&'a TensorType>],
    pub results: &'a [Option<&'a TensorType>],
    pub mesh: &'a DeviceMesh,
}

impl<'a> OpView<'a> {
    /// Whether the rule describes these tensors (same counts, ranks and sizes); strategies are
    /// only derived from rules that do.
    pub fn consistent(&self) -> bool {
        self.rule.check(self.operands, self.results).is_ok()
    }

    /// The strategy of `factor_axes` (per factor, mesh axes major first), or `None` when the
    /// assignment is not valid (see the module docs of `strategy`).
    pub fn strategy(&self, factor_axes: Vec<Vec<usize>>) -> Option<Strategy> {
        let rule = self.rule;
        if factor_axes.len() != rule.factors.len() {
            return None;
        }
        for (factor, axes) in rule.factors.iter().zip(&factor_axes) {
            if axes.is_empty() {
                continue;
            }
            if factor.kind.needs_whole_dimension() {
                return None;
            }
            let parts = self.parts(axes)?;
            if parts < 1 || factor.size % parts as i64 != 0 {
                return None;
            }
        }
        let specs = |dims: &[Vec<Vec<usize>>], types: &[Option<&TensorType>]| {
            types
                .iter()
                .enumerate()
                .map(|(t, ty)| match ty {
                    None => Some(None),
                    Some(ty) => self.spec(dims.get(t)?, ty, &factor_axes).map(Some),
                })
                .collect::<Option<Vec<_>>>()
        };
        let operand_specs = specs(&rule.operand_dims, self.operands)?;
        let result_specs = specs(&rule.result_dims, self.results)?;

        // Every result must have each sharded factor that is not a reduction.
        for (f, axes) in factor_axes.iter().enumerate() {
            if axes.is_empty() || rule.factors[f].kind == FactorKind::Reduction {
                continue;
            }
            for (r, ty) in self.results.iter().enumerate() {
                if ty.is_some() && !rule.result_dims.get(r).is_some_and(|dims| has_factor(dims, f)) {
                    return None;
                }
            }
        }

        let mut collectives = Vec::new();
        let mut result_bytes = 0u64;
        for (r, (ty, spec)) in self.results.iter().zip(&result_specs).enumerate() {
            let (Some(ty), Some(spec)) = (ty, spec) else {
                continue;
            };
            let bytes = tile_bytes(&ty.shape, ty.element.bits(), spec, self.mesh.shape);
            result_bytes = result_bytes.saturating_add(bytes);
            let dims: &[Vec<usize>] = rule.result_dims.get(r).map_or(&[], Vec::as_slice);
            let axes_where = |kind: FactorKind, present: bool| -> Vec<usize> {
                let mut axes: Vec<usize> = (0..rule.factors.len())
                    .filter(|&f| rule.factors[f].kind == kind && has_factor(dims, f) == present)
                    .flat_map(|f| factor_axes[f].iter().copied())
                    .collect();
                axes.sort_unstable();
                axes.dedup();
                axes
            };
            // A partial sum over the axes of each sharded reduction this result lacks: one
            // all-reduce per reduced factor, as XLA's partitioner runs them (a reduce over a
            // dim on axis 0 and a dim on axis 1 is two all-reduces, not one over the mesh).
            for f in (0..rule.factors.len())
                .filter(|&f| rule.factors[f].kind == FactorKind::Reduction && !has_factor(dims, f))
            {
                if let Some(axes) = mesh_axes(&factor_axes[f]) {
                    collectives.push(CollectiveUse { kind: Collective::AllReduce, axes, bytes });
                }
            }
            // Reversed dims: each tile comes from the mirrored device.
            if let Some(axes) = mesh_axes(&axes_where(FactorKind::Permutation, true)) {
                collectives.push(CollectiveUse { kind: Collective::PointToPoint, axes, bytes });
            }
        }
        let communication_cost = collectives.iter().map(|c| c.cost(self.mesh)).sum();
        Some(Strategy {
            name: strategy_name(&operand_specs, &result_specs, &collectives),
            factor_axes,
            operand_specs,
            result_specs,
            collectives,
            communication_cost,
            result_bytes_per_device: result_bytes,
        })
    }

    /// Number of parts `axes` split a factor into; `None` for an axis that is not a mesh axis
    /// of size > 1 or that repeats.
    fn parts(&self, axes: &[usize]) -> Option<usize> {
        let mut seen = [false; 2];
        let mut parts = 1usize;
        for &a in axes {
            if a > 1 || seen[a] || self.mesh.shape[a] <= 1 {
                return None;
            }
            seen[a] = true;
            parts = parts.checked_mul(self.mesh.shape[a])?;
        }
        Some(parts)
    }

    /// The spec of one tensor (per dim, its factors) under `factor_axes`, if every dim's tile
    /// is contiguous and divides evenly.
    fn spec(&self, dims: &[Vec<usize>], ty: &TensorType, factor_axes: &[Vec<usize>]) -> Option<ShardingSpec> {
        if dims.len() != ty.rank() {
            return None;
        }
        let mut out = Vec::with_capacity(dims.len());
        for factors in dims {
            let axes = self.dim_axes(factors, factor_axes)?;
            out.push(DimSharding::from_mesh_axes(&axes)?);
        }
        let spec = ShardingSpec::new(out).ok()?;
        spec.check_shape(&ty.shape, self.mesh.shape).ok()?;
        Some(spec)
    }

    /// The mesh axes of a dim made of `factors` (major first): those of its factors in order,
    /// provided every sharded factor but the most minor sharded one is split completely (else
    /// a device's elements would not be one contiguous block of the dim).
    fn dim_axes(&self, factors: &[usize], factor_axes: &[Vec<usize>]) -> Option<Vec<usize>> {
        let axes_of = |f: usize| factor_axes.get(f).map(Vec::as_slice).unwrap_or(&[]);
        let Some(last) = factors.iter().rposition(|&f| !axes_of(f).is_empty()) else {
            return Some(Vec::new());
        };
        let mut axes = Vec::new();
        for (pos, &f) in factors[..=last].iter().enumerate() {
            let size = self.rule.factors.get(f)?.size;
            if pos < last && self.parts(axes_of(f))? as i64 != size {
                return None;
            }
            axes.extend_from_slice(axes_of(f));
        }
        Some(axes)
    }
}

fn has_factor(dims: &[Vec<usize>], f: usize) -> bool {
    dims.iter().flatten().any(|&g| g == f)
}

/// The collective group of a set of mesh axes (sorted, distinct); `None` when empty.
pub(super) fn mesh_axes(axes: &[usize]) -> Option<MeshAxes> {
    match axes {
        [] => None,
        [0] => Some(MeshAxes::Axis0),
        [1] => Some(MeshAxes::Axis1),
        _ => Some(MeshAxes::Both),
    }
}

/// `"RS0R = RS0S1 x RS1R @ allreduce{1}"`.
pub(super) fn strategy_name(
    operands: &[Option<ShardingSpec>],
    results: &[Option<ShardingSpec>],
    collectives: &[CollectiveUse],
) -> String {
    let show = |specs: &[Option<ShardingSpec>], sep: &str| {
        specs.iter().map(|s| s.as_ref().map_or("-".to_string(), |s| s.to_string())).collect::<Vec<_>>().join(sep)
    };
    let mut name = show(results, ", ");
    if !operands.is_empty() {
        name = format!("{name} = {}", show(operands, " x "));
    }
    let mut seen: Vec<(Collective, MeshAxes)> = Vec::new();
    for c in collectives {
        if !seen.contains(&(c.kind, c.axes)) {
            seen.push((c.kind, c.axes));
        }
    }
    for (i, (kind, axes)) in seen.iter().enumerate() {
        let kind = match kind {
            Collective::AllGather => "allgather",
            Collective::AllReduce => "allreduce",
            Collective::ReduceScatter => "reducescatter",
            Collective::AllToAll => "alltoall",
            Collective::PointToPoint => "permute",
        };
        let axes = match axes {
            MeshAxes::Axis0 => "{0}",
            MeshAxes::Axis1 => "{1}",
            MeshAxes::Both => "{0,1}",
        };
        name.push_str(if i == 0 { " @ " } else { ", " });
        name.push_str(kind);
        name.push_str(axes);
    }
    name
}
