//! Checks of the entry function's argument and result attributes, before any planning:
//! `tf.aliasing_output` (an integer naming a result of the argument's type, each result aliased
//! at most once), `alpa.batch_dim` (a dim of its argument, or -1), and a `mhlo.sharding` left
//! next to an `sdy.sharding` (Shardy reads the latter; the former is stale).

use crate::ir::batch_inputs::{batch_input_dims, BadBatchDim, BATCH_DIM_ATTR};
use crate::ir::graph::{Attr, Graph, Param};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IssueSeverity {
    Error,
    Remark,
}

/// One finding; `message` names the argument or result it is about, `argument` the argument
/// whose location it belongs at (`None`: the function's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamIssue {
    pub severity: IssueSeverity,
    pub argument: Option<usize>,
    pub message: String,
}

fn error(argument: usize, message: String) -> ParamIssue {
    ParamIssue { severity: IssueSeverity::Error, argument: Some(argument), message }
}

pub fn verify_params(graph: &Graph) -> Vec<ParamIssue> {
    let mut issues = aliasing(graph);
    issues.extend(batch_dim(graph));
    for (what, params) in [("argument", &graph.args), ("result", &graph.results)] {
        issues.extend(params.iter().enumerate().filter(|(_, p)| both_shardings(p)).map(|(i, _)| ParamIssue {
            severity: IssueSeverity::Remark,
            argument: (what == "argument").then_some(i),
            message: format!(
                "{what} #{i} has both mhlo.sharding and sdy.sharding: the sdy.sharding is read, the mhlo.sharding is a stale leftover"
            ),
        }));
    }
    issues
}

fn both_shardings(p: &Param) -> bool {
    p.attrs.contains_key("mhlo.sharding") && p.attrs.contains_key("sdy.sharding")
}

fn aliasing(graph: &Graph) -> Vec<ParamIssue> {
    let mut issues = Vec::new();
    let mut aliased_by: Vec<Option<usize>> = vec![None; graph.results.len()];
    for (a, arg) in graph.args.iter().enumerate() {
        let Some(attr) = arg.attrs.get("tf.aliasing_output") else { continue };
        let Some(r) = attr.as_int() else {
            issues.push(error(a, format!("argument #{a}: tf.aliasing_output must be an integer result index")));
            continue;
        };
        let Some(result) = usize::try_from(r).ok().and_then(|r| graph.results.get(r)) else {
            issues.push(error(
                a,
                format!(
                    "argument #{a}: tf.aliasing_output = {r}, but the function has {} results",
                    graph.results.len()
                ),
            ));
            continue;
        };
        let r = r as usize;
        if let Some(first) = aliased_by[r] {
            issues.push(error(a, format!("arguments #{first} and #{a} both alias result #{r} (tf.aliasing_output)")));
        } else {
            aliased_by[r] = Some(a);
        }
        if result.ty != arg.ty {
            issues.push(error(
                a,
                format!(
                    "argument #{a} ({}) is aliased to result #{r} of another type ({}) (tf.aliasing_output)",
                    arg.ty, result.ty
                ),
            ));
        }
    }
    issues
}

fn batch_dim(graph: &Graph) -> Vec<ParamIssue> {
    let mut issues: Vec<ParamIssue> = graph
        .args
        .iter()
        .enumerate()
        .filter(|(_, p)| p.attrs.get(BATCH_DIM_ATTR).is_some_and(|v| !matches!(v, Attr::Int(_))))
        .map(|(a, _)| error(a, format!("argument #{a}: {BATCH_DIM_ATTR} must be an integer (a dim, or -1)")))
        .collect();
    if let Err(BadBatchDim { arg, dim }) = batch_input_dims(graph) {
        let rank = graph.args[arg].ty.tensor().map_or(0, |t| t.rank());
        issues.push(error(
            arg,
            format!("argument #{arg}: {BATCH_DIM_ATTR} = {dim} is not a dim of a rank-{rank} argument (nor -1)"),
        ));
    }
    issues
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::Block;
    use crate::ir::op_table::test_util::f32t;
    use crate::ir::types::ValueType;

    fn param(shape: &[i64], attrs: &[(&str, Attr)]) -> Param {
        Param {
            ty: ValueType::Tensor(f32t(shape)),
            attrs: attrs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        }
    }

    fn graph(args: Vec<Param>, results: Vec<Param>) -> Graph {
        Graph { func_name: "main".into(), args, results, body: Block::default(), returned: Vec::new() }
    }

    fn messages(g: &Graph) -> Vec<String> {
        verify_params(g).into_iter().map(|i| i.message).collect()
    }

    #[test]
    fn aliasing_must_name_one_result_of_the_same_type() {
        let alias = |r: i64| ("tf.aliasing_output", Attr::Int(r));
        let ok =
            graph(vec![param(&[4], &[alias(0)]), param(&[8], &[alias(1)])], vec![param(&[4], &[]), param(&[8], &[])]);
        assert!(verify_params(&ok).is_empty());
        let out_of_range = graph(vec![param(&[4], &[alias(2)]), param(&[4], &[alias(-1)])], vec![param(&[4], &[])]);
        assert_eq!(
            messages(&out_of_range),
            [
                "argument #0: tf.aliasing_output = 2, but the function has 1 results",
                "argument #1: tf.aliasing_output = -1, but the function has 1 results"
            ]
        );
        let twice = graph(vec![param(&[4], &[alias(0)]), param(&[4], &[alias(0)])], vec![param(&[4], &[])]);
        assert_eq!(messages(&twice), ["arguments #0 and #1 both alias result #0 (tf.aliasing_output)"]);
        assert_eq!(verify_params(&twice)[0].argument, Some(1));
        let other_type = graph(vec![param(&[4], &[alias(0)])], vec![param(&[5], &[])]);
        assert_eq!(
            messages(&other_type),
            ["argument #0 (tensor<4xf32>) is aliased to result #0 of another type (tensor<5xf32>) (tf.aliasing_output)"]
        );
        let not_int =
            graph(vec![param(&[4], &[("tf.aliasing_output", Attr::Str("0".into()))])], vec![param(&[4], &[])]);
        assert_eq!(messages(&not_int), ["argument #0: tf.aliasing_output must be an integer result index"]);
    }

    #[test]
    fn batch_dim_must_be_a_dim_or_minus_one() {
        let dim = |d: i64| ("alpa.batch_dim", Attr::Int(d));
        assert!(verify_params(&graph(vec![param(&[4, 8], &[dim(1)]), param(&[4], &[dim(-1)])], vec![])).is_empty());
        assert_eq!(
            messages(&graph(vec![param(&[4, 8], &[dim(2)])], vec![])),
            ["argument #0: alpa.batch_dim = 2 is not a dim of a rank-2 argument (nor -1)"]
        );
        assert_eq!(
            messages(&graph(vec![param(&[4], &[("alpa.batch_dim", Attr::Str("x".into()))])], vec![])),
            ["argument #0: alpa.batch_dim must be an integer (a dim, or -1)"]
        );
    }

    #[test]
    fn a_stale_mhlo_sharding_beside_sdy_is_a_remark() {
        let both = [("mhlo.sharding", Attr::Str("{replicated}".into())), ("sdy.sharding", Attr::Other("#sdy".into()))];
        let issues = verify_params(&graph(vec![param(&[4], &both)], vec![param(&[4], &[]), param(&[4], &both)]));
        assert_eq!(issues.len(), 2);
        assert!(issues.iter().all(|i| i.severity == IssueSeverity::Remark));
        assert_eq!((issues[0].argument, issues[1].argument), (Some(0), None));
        assert!(issues[0].message.starts_with("argument #0 has both"));
        assert!(issues[1].message.starts_with("result #1 has both"));
    }
}
