//! Which arguments of a train step carry the batch, and on which dim: non-donated tensor
//! arguments of rank >= 1, on dim 0, unless the argument's `alpa.batch_dim` attribute says
//! otherwise (a dim, or -1 for an argument every microbatch shares).

use super::graph::Graph;
use super::types::ValueType;

/// The argument attribute that overrides the batch-input rule: the dim to split, or -1 for an
/// argument every microbatch shares.
pub const BATCH_DIM_ATTR: &str = "alpa.batch_dim";

/// An explicit `alpa.batch_dim` that is not a dim of its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadBatchDim {
    pub arg: usize,
    pub dim: i64,
}

/// The dim each argument is split on (`None`: shared by every microbatch).
pub fn batch_input_dims(graph: &Graph) -> Result<Vec<Option<usize>>, BadBatchDim> {
    graph
        .args
        .iter()
        .enumerate()
        .map(|(arg, param)| {
            let rank = match &param.ty {
                ValueType::Tensor(t) => t.rank(),
                _ => return Ok(None),
            };
            match param.attrs.get(BATCH_DIM_ATTR).and_then(|a| a.as_int()) {
                Some(-1) => Ok(None),
                Some(d) if d >= 0 && (d as usize) < rank => Ok(Some(d as usize)),
                Some(d) => Err(BadBatchDim { arg, dim: d }),
                None => Ok((!param.is_donated() && rank >= 1).then_some(0)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::Attr;
    use crate::ir::test_graphs::tanh_mlp_step;

    #[test]
    fn the_attribute_overrides_the_rule() {
        let mut g = tanh_mlp_step(2, 4, 8);
        let x = g.args.len() - 1;
        assert_eq!(
            batch_input_dims(&g).unwrap(),
            vec![None, None, Some(0)],
            "weights are donated, x is split on dim 0"
        );
        g.args[x].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(1));
        assert_eq!(batch_input_dims(&g).unwrap()[x], Some(1));
        g.args[x].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(-1));
        assert_eq!(batch_input_dims(&g).unwrap()[x], None);
        g.args[x].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(5));
        assert_eq!(batch_input_dims(&g), Err(BadBatchDim { arg: x, dim: 5 }));
    }
}
