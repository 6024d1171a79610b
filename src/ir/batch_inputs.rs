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

/// The dim each argument is split on (`None`: shared by every microbatch). Of the arguments
/// the rule picks, one whose dim 0 is not the batch size (the size most batch inputs have,
/// the larger on a tie) is shared: a PRNG key, a table of a few rows beside the batch.
pub fn batch_input_dims(graph: &Graph) -> Result<Vec<Option<usize>>, BadBatchDim> {
    let mut by_rule = vec![false; graph.args.len()];
    let dims = graph
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
                None => {
                    by_rule[arg] = !param.is_donated() && rank >= 1;
                    Ok(by_rule[arg].then_some(0))
                }
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let size = |arg: usize| match (&graph.args[arg].ty, dims[arg]) {
        (ValueType::Tensor(t), Some(d)) => t.shape.get(d).copied(),
        _ => None,
    };
    let sizes: Vec<i64> = (0..dims.len()).filter_map(size).collect();
    let count = |s: i64| sizes.iter().filter(|&&x| x == s).count();
    let Some(batch) = sizes.iter().copied().max_by_key(|&s| (count(s), s)) else { return Ok(dims) };
    Ok((0..dims.len()).map(|arg| if by_rule[arg] && size(arg) != Some(batch) { None } else { dims[arg] }).collect())
}

/// Arguments the rule shares although a dim other than dim 0 has the batch size: time-major
/// inputs (`[T, B, F]`) look like that, and so can a frozen table whose width happens to be the
/// batch size. `(argument, that dim, the batch size)`; the caller says which with a warning.
pub fn shared_with_a_batch_sized_dim(graph: &Graph, dims: &[Option<usize>]) -> Vec<(usize, usize, i64)> {
    let batch = graph.args.iter().zip(dims).find_map(|(param, dim)| match (&param.ty, dim) {
        (ValueType::Tensor(t), Some(d)) => t.shape.get(*d).copied(),
        _ => None,
    });
    let Some(batch) = batch else { return Vec::new() };
    graph
        .args
        .iter()
        .enumerate()
        .filter(|(a, param)| dims[*a].is_none() && !param.is_donated() && !param.attrs.contains_key(BATCH_DIM_ATTR))
        .filter_map(|(a, param)| match &param.ty {
            ValueType::Tensor(t) if t.rank() >= 2 && t.shape[0] != batch => {
                t.shape.iter().position(|&s| s == batch).map(|d| (a, d, batch))
            }
            _ => None,
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

    #[test]
    fn an_argument_of_another_leading_size_than_the_batch_is_shared() {
        use crate::ir::graph::{Attrs, Param};
        use crate::ir::types::{ElementType, TensorType};
        let mut g = tanh_mlp_step(2, 4, 8);
        let arg = |shape: &[i64], e: ElementType| Param {
            ty: ValueType::Tensor(TensorType::new(shape.to_vec(), e)),
            attrs: Attrs::new(),
        };
        // Labels of the 4 examples, and a PRNG key: two u32 words.
        g.args.push(arg(&[4], ElementType::Int(32)));
        g.args.push(arg(&[2], ElementType::Int(32)));
        assert_eq!(batch_input_dims(&g).unwrap(), vec![None, None, Some(0), Some(0), None]);
        // Named explicitly, it is split all the same.
        g.args[4].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(0));
        assert_eq!(batch_input_dims(&g).unwrap()[4], Some(0));
    }

    #[test]
    fn a_shared_argument_with_a_dim_of_the_batch_size_is_reported() {
        use crate::ir::graph::{Attrs, Param};
        use crate::ir::types::{ElementType, TensorType};
        let mut g = tanh_mlp_step(2, 4, 8);
        let arg = |shape: &[i64]| Param {
            ty: ValueType::Tensor(TensorType::new(shape.to_vec(), ElementType::f32())),
            attrs: Attrs::new(),
        };
        // Labels of the 4 examples, time-major [T=3, B=4, F=8], a key of 2 words, a table with
        // no dim of 4.
        g.args.push(arg(&[4]));
        g.args.push(arg(&[3, 4, 8]));
        g.args.push(arg(&[2]));
        g.args.push(arg(&[6, 5]));
        let dims = batch_input_dims(&g).unwrap();
        assert_eq!(dims, vec![None, None, Some(0), Some(0), None, None, None]);
        assert_eq!(shared_with_a_batch_sized_dim(&g, &dims), vec![(4, 1, 4)]);
        // Said explicitly, it is split there and not reported.
        g.args[4].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(1));
        let dims = batch_input_dims(&g).unwrap();
        assert_eq!(dims[4], Some(1));
        assert!(shared_with_a_batch_sized_dim(&g, &dims).is_empty());
    }
}
