//! Turning a strategy's all-reduce into a reduce-scatter (paper §4.2, the post-ILP rewrite behind
//! weight-update sharding).
//!
//! A strategy that splits a reduction factor over mesh axes `A` leaves its result a partial sum,
//! all-reduced over `A`. Instead, the partial sums can be reduce-scattered over `A` onto a tensor
//! dim the result does not split yet: every device then holds the fully reduced sum of its tile.
//! The op's computation (its `factor_axes` and operand specs) is the same; only the result's
//! layout and the collective change. The reduce-scatter's bytes are the all-reduce's (the buffer
//! before the scatter, `cluster::collective`'s convention), so with the alpha-beta model it costs
//! half the all-reduce's bandwidth term, and an all-gather of the same bytes restores the old
//! layout for the other half.

use crate::cluster::{Collective, DeviceMesh};
use crate::ir::types::TensorType;
use crate::sharding::reshard::{tile_bytes, CollectiveUse};
use crate::sharding::spec::{DimSharding, ShardingSpec};

use super::assign::strategy_name;
use super::Strategy;

impl Strategy {
    /// This strategy with its all-reduce turned into a reduce-scatter of its result (of type
    /// `ty`) onto tensor dim `dim`, split over the all-reduce's mesh axes (major first).
    ///
    /// `None` unless the strategy has exactly one result, exactly one collective and that is an
    /// all-reduce, `dim` is not split yet (ignoring mesh axes of size 1), none of the axes is
    /// used by another dim, and the split divides the dim.
    pub fn with_reduce_scatter(&self, ty: &TensorType, dim: usize, mesh: &DeviceMesh) -> Option<Strategy> {
        let [Some(spec)] = self.result_specs.as_slice() else { return None };
        let [all_reduce] = self.collectives.as_slice() else { return None };
        if all_reduce.kind != Collective::AllReduce || spec.rank() != ty.rank() {
            return None;
        }
        let normalized = spec.normalized(mesh.shape);
        if *normalized.dims().get(dim)? != DimSharding::R {
            return None;
        }
        let axes: Vec<usize> = all_reduce.axes.indices().iter().copied().filter(|&a| mesh.shape[a] > 1).collect();
        if axes.is_empty() || axes.iter().any(|&a| normalized.dim_of_axis(a).is_some()) {
            return None;
        }
        let mut dims = normalized.dims().to_vec();
        dims[dim] = DimSharding::from_mesh_axes(&axes)?;
        let scattered = ShardingSpec::new(dims).ok()?;
        scattered.check_shape(&ty.shape, mesh.shape).ok()?;

        let collectives = vec![CollectiveUse { kind: Collective::ReduceScatter, ..*all_reduce }];
        let result_specs = vec![Some(scattered.clone())];
        Some(Strategy {
            name: strategy_name(&self.operand_specs, &result_specs, &collectives),
            factor_axes: self.factor_axes.clone(),
            operand_specs: self.operand_specs.clone(),
            communication_cost: collectives.iter().map(|c| c.cost(mesh)).sum(),
            result_bytes_per_device: tile_bytes(&ty.shape, ty.element.bits(), &scattered, mesh.shape),
            result_specs,
            collectives,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use crate::cluster::MeshAxes;

    /// The weight gradient of a data-parallel matmul: `x^T @ dy` contracting the batch.
    fn weight_gradient() -> Case {
        Case::new(
            dot("dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>", &[32, 16]),
            &[f32t(&[64, 32]), f32t(&[64, 16])],
        )
    }

    #[test]
    fn a_data_parallel_gradient_is_reduce_scattered() {
        let m = mesh([4, 1]);
        let grad = weight_gradient();
        let dp = grad.follow(0, "S0R", &m);
        assert_eq!(dp.name, "RR = S0R x S0R @ allreduce{0}");
        let rs = dp.with_reduce_scatter(&f32t(&[32, 16]), 0, &m).unwrap();
        assert_eq!(rs.name, "S0R = S0R x S0R @ reducescatter{0}");
        assert_eq!(rs.collectives[0].kind, crate::cluster::Collective::ReduceScatter);
        // Same bytes (the buffer before the scatter), half the all-reduce's bandwidth term.
        assert_eq!(rs.collectives[0].bytes, dp.collectives[0].bytes);
        assert!(close(rs.communication_cost, 1.0 + 0.75 * 2048.0));
        assert!(close(dp.communication_cost, 1.0 + 1.5 * 2048.0));
        assert_eq!(rs.result_bytes_per_device, 2048 / 4);
        assert_eq!(rs.factor_axes, dp.factor_axes);
        // Dim 1 works too; the dim must divide.
        assert_eq!(dp.with_reduce_scatter(&f32t(&[32, 16]), 1, &m).unwrap().name, "RS0 = S0R x S0R @ reducescatter{0}");
        let odd = Case::new(
            dot("dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>", &[6, 5]),
            &[f32t(&[64, 6]), f32t(&[64, 5])],
        );
        let dp = odd.follow(0, "S0R", &m);
        assert!(dp.with_reduce_scatter(&f32t(&[6, 5]), 0, &m).is_none());
        assert!(dp.with_reduce_scatter(&f32t(&[6, 5]), 7, &m).is_none());
    }

    #[test]
    fn both_axes_and_already_split_dims() {
        let m = mesh([2, 4]);
        let grad = weight_gradient();
        // Batch over both axes: the scatter splits the dim over both.
        let dp = grad.follow(0, "S01R", &m);
        assert_eq!(dp.collectives[0].axes, MeshAxes::Both);
        assert_eq!(
            dp.with_reduce_scatter(&f32t(&[32, 16]), 0, &m).unwrap().name,
            "S01R = S01R x S01R @ reducescatter{0,1}"
        );
        // Batch over axis 0, the weight's columns over axis 1: only dim 0 is free.
        let mixed = grad.follow(1, "S0S1", &m);
        assert_eq!(mixed.name, "RS1 = S0R x S0S1 @ allreduce{0}");
        assert!(mixed.with_reduce_scatter(&f32t(&[32, 16]), 1, &m).is_none());
        assert_eq!(
            mixed.with_reduce_scatter(&f32t(&[32, 16]), 0, &m).unwrap().name,
            "S0S1 = S0R x S0S1 @ reducescatter{0}"
        );
        // Nothing to scatter without an all-reduce.
        let local = grad.follow(0, "RS0", &m);
        assert!(local.collectives.is_empty());
        assert!(local.with_reduce_scatter(&f32t(&[32, 16]), 0, &m).is_none());
    }
}
