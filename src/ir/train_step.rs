//! The structure of a training step, recovered from data flow (paper §5.1): plain StableHLO has
//! no pipeline markers, so
//! - forward ops are what the loss depends on;
//! - weight-update ops reach a donated output without feeding any heavy op (the optimizer's
//!   elementwise math, and gradient reductions that only the update reads);
//! - backward ops are the rest.
//!
//! Every backward op is co-located with the forward op it is the transpose of (the first forward
//! consumer of the activation or parameter it reads), and every update op with the forward use of
//! the parameter whose new value it computes (its first heavy use, else its first use), so that
//! clustering forward ops into layers places the whole step. A backward op is never placed in an
//! earlier layer than a backward op that reads it (the stages' backward functions run last stage
//! first).

use crate::ir::batch_inputs::{batch_dependent, batch_input_dims};
use crate::ir::constant_values::constant_ops;
use crate::ir::graph::{Attr, Graph, ValueRef};
use crate::ir::op_table::{is_heavy, is_layout_only};
use crate::ir::types::ValueType;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Forward,
    Backward,
    Update,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TrainStep {
    /// The function result that is the loss.
    pub loss: usize,
    pub phase: Vec<Phase>,
    /// For every op, the forward op it is placed with (a forward op: itself); `None` only for
    /// dead ops (nothing reads their results).
    pub anchor: Vec<Option<usize>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainStepError {
    /// No result is a floating-point scalar that is not aliased to an argument.
    NoLoss,
}

impl std::fmt::Display for TrainStepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainStepError::NoLoss => write!(
                f,
                "no loss found: a train step returns the loss as a floating-point scalar not aliased to an argument"
            ),
        }
    }
}

/// The loss among the step's results: a float scalar that is not the new value of an argument.
/// Where there are several (metrics beside the loss), one named `loss` in JAX's result paths
/// (`jax.result_info`) is it. Otherwise data flow tells first (`LossRoles`): not a metric of
/// the gradients (a returned gradient norm), then, by the result paths, one returned directly
/// rather than inside a container of metrics (`result[2]`, not `result[3]['summed_loss']`),
/// then the one whose backward pass reaches the most weight gradients (over an accuracy beside
/// it), then one whose name says `loss`, else the last.
fn find_loss(graph: &Graph) -> Option<usize> {
    let candidates = loss_candidates(graph);
    let roles = LossRoles::of(graph, &candidates);
    candidates
        .iter()
        .copied()
        .zip(roles)
        .max_by_key(|&(r, role)| {
            let path = graph.results[r].attrs.get("jax.result_info").and_then(Attr::as_str).unwrap_or("");
            let last_key = path.rsplit('[').next().unwrap_or("");
            let name = last_key.trim_end_matches(']').trim_matches('\'').to_ascii_lowercase();
            let keyed = path.contains('\'');
            let direct = !path.is_empty() && path.matches('[').count() <= 1;
            (
                keyed && name == "loss",
                !role.of_gradients,
                direct,
                role.backward_reach,
                keyed && name.contains("loss"),
                r,
            )
        })
        .map(|(r, _)| r)
}

/// What data flow says of a loss candidate.
/// - A metric of the gradients (a norm of them) computes a heavy op over the batch (a weight
///   gradient's matmul, or its transpose) that an update op (`update_ops`) outside the
///   candidate reads over the batch too. A loss's matmuls feed the backward pass, and a state
///   the forward updates without the batch (a spectral norm's power iteration) is not over
///   the batch.
/// - A loss's backward pass starts from what only the loss computes (`after_last_heavy`: its
///   logits and log-softmax, a squared error's residual), and reaches the weight gradients'
///   matmuls through ops no other candidate computes but such metrics. `backward_reach` counts
///   them: an accuracy's path from the logits runs through the loss it sits beside, and an
///   activation's statistic reaches only the gradients that read that activation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct LossRoles {
    of_gradients: bool,
    backward_reach: usize,
}

impl LossRoles {
    fn of(graph: &Graph, candidates: &[usize]) -> Vec<LossRoles> {
        if candidates.len() < 2 {
            return vec![LossRoles::default(); candidates.len()];
        }
        let ops = graph.ops();
        let dims = batch_input_dims(graph).unwrap_or_else(|_| vec![None; graph.args.len()]);
        let dependent = batch_dependent(graph, &dims);
        let updates = updates_state(graph);
        let heavy: Vec<bool> = ops.iter().map(is_heavy).collect();
        let heavy_moved = moved_from(graph, &heavy);
        let update_op = update_ops(graph);
        let computes: Vec<Vec<bool>> = candidates.iter().map(|&r| ancestors(graph, [graph.returned[r]])).collect();
        let of_gradients: Vec<bool> = computes
            .iter()
            .map(|computes| {
                ops.iter().enumerate().any(|(reader, op)| {
                    !computes[reader]
                        && update_op[reader]
                        && dependent[reader]
                        && op
                            .operands
                            .iter()
                            .filter_map(|v| producer(*v))
                            .any(|p| computes[p] && heavy_moved[p] && dependent[p])
                })
            })
            .collect();
        let mut forward = vec![false; ops.len()];
        for (computes, _) in computes.iter().zip(&of_gradients).filter(|(_, of)| !**of) {
            for (f, c) in forward.iter_mut().zip(computes) {
                *f |= c;
            }
        }
        computes
            .iter()
            .zip(of_gradients)
            .map(|(computes, of_gradients)| {
                let own = after_last_heavy(graph, computes, &dependent);
                let reached = reached_through(graph, &own, &|i| !forward[i]);
                let backward_reach = (0..ops.len()).filter(|&i| reached[i] && heavy[i] && updates[i]).count();
                LossRoles { of_gradients, backward_reach }
            })
            .collect()
    }
}

/// Per op: whether it is one of `sources`, or only re-views or re-types one
/// (`is_layout_only`: a weight gradient's transpose into the weight's layout).
fn moved_from(graph: &Graph, sources: &[bool]) -> Vec<bool> {
    let mut moved = sources.to_vec();
    for (index, op) in graph.ops().iter().enumerate() {
        moved[index] |= is_layout_only(op) && op.operands.first().and_then(|v| producer(*v)).is_some_and(|p| moved[p]);
    }
    moved
}

/// Per op: whether a heavy op that `within` admits reads its results, directly or through
/// other such ops.
fn feeds_heavy(graph: &Graph, within: &dyn Fn(usize) -> bool) -> Vec<bool> {
    let ops = graph.ops();
    let mut feeds = vec![false; ops.len()];
    for index in (0..ops.len()).rev() {
        if within(index) && (feeds[index] || is_heavy(&ops[index])) {
            for p in ops[index].operands.iter().filter_map(|v| producer(*v)) {
                feeds[p] = true;
            }
        }
    }
    feeds
}

/// Per op: whether it is a weight-update op: it leads to the new state and neither is heavy
/// nor feeds a heavy op (the optimizer's elementwise math).
fn update_ops(graph: &Graph) -> Vec<bool> {
    let reaches_state = updates_state(graph);
    let feeds = feeds_heavy(graph, &|_| true);
    graph.ops().iter().enumerate().map(|(i, op)| reaches_state[i] && !feeds[i] && !is_heavy(op)).collect()
}

/// Per op: whether it is one of `computes`, depends on the batch and feeds no heavy op of
/// `computes` (a heavy op itself may be one: the logits' matmul).
fn after_last_heavy(graph: &Graph, computes: &[bool], dependent: &[bool]) -> Vec<bool> {
    let feeds = feeds_heavy(graph, &|i| computes[i]);
    (0..graph.ops().len()).map(|i| computes[i] && dependent[i] && !feeds[i]).collect()
}

/// Per op: whether it is one `through` admits that reads one of `sources` or of the ops so
/// reached.
fn reached_through(graph: &Graph, sources: &[bool], through: &dyn Fn(usize) -> bool) -> Vec<bool> {
    let mut reached = vec![false; graph.ops().len()];
    for (index, op) in graph.ops().iter().enumerate() {
        reached[index] =
            through(index) && op.operands.iter().filter_map(|v| producer(*v)).any(|p| sources[p] || reached[p]);
    }
    reached
}

/// The results that could be the loss: float scalars that are not the new value of an argument.
pub fn loss_candidates(graph: &Graph) -> Vec<usize> {
    let aliased: Vec<usize> = graph.args.iter().filter_map(|a| a.aliased_output()).collect();
    (0..graph.results.len())
        .filter(|&r| {
            let scalar_float =
                matches!(&graph.results[r].ty, ValueType::Tensor(t) if t.rank() == 0 && t.element.is_float());
            scalar_float && !aliased.contains(&r) && r < graph.returned.len()
        })
        .collect()
}

/// The op computing `value`, if an op does.
pub fn producer(value: ValueRef) -> Option<usize> {
    match value {
        ValueRef::Op { op, .. } => Some(op),
        _ => None,
    }
}

/// Per op: whether one of `roots` depends on its results (the roots' own producers included).
pub fn ancestors(graph: &Graph, roots: impl IntoIterator<Item = ValueRef>) -> Vec<bool> {
    let mut marked = vec![false; graph.ops().len()];
    for op in roots.into_iter().filter_map(producer) {
        marked[op] = true;
    }
    // Operands come before their readers in program order: one pass from the end suffices.
    for index in (0..graph.ops().len()).rev() {
        if marked[index] {
            for operand in graph.ops()[index].operands.iter().filter_map(|v| producer(*v)) {
                marked[operand] = true;
            }
        }
    }
    marked
}

/// Per op: whether the new value of a donated argument (the state the step updates) depends on it.
pub fn updates_state(graph: &Graph) -> Vec<bool> {
    ancestors(
        graph,
        graph.args.iter().filter_map(|a| a.aliased_output()).filter_map(|r| graph.returned.get(r).copied()),
    )
}

/// Ops whose results reach a function result (JAX leaves a few dead ops in its exports).
pub fn live_ops(graph: &Graph) -> Vec<bool> {
    ancestors(graph, graph.returned.iter().copied())
}

pub fn analyze(graph: &Graph) -> Result<TrainStep, TrainStepError> {
    let loss = find_loss(graph).ok_or(TrainStepError::NoLoss)?;
    let ops = graph.ops();
    let n = ops.len();

    let forward = ancestors(graph, [graph.returned[loss]]);
    let update = update_ops(graph);
    let phase: Vec<Phase> = (0..n)
        .map(|i| match (forward[i], update[i]) {
            (true, _) => Phase::Forward,
            (false, true) => Phase::Update,
            (false, false) => Phase::Backward,
        })
        .collect();

    // Anchors: forward ops anchor themselves. A backward op is the transpose of a forward op:
    // the first forward consumer of an activation or parameter it reads directly (the latest of
    // those). Reading none, it follows the earliest of its backward operands: a gradient
    // arriving from later layers meets a value of this layer, not the other way round.
    let users = graph.body.users();
    // A value of constants (a loop-invariant mask every copy of an unrolled scan reads) is no
    // layer's activation: the first layer that reads it says nothing about a backward op.
    let constant = constant_ops(graph);
    let first_forward_consumer = |value_op: usize| {
        users[value_op].iter().flatten().map(|&(user, _)| user).filter(|&u| forward[u]).min().unwrap_or(value_op)
    };
    // A parameter belongs to the layer whose heavy op reads it (an L2 penalty computed before
    // the layers also reads every weight, elementwise); one read by several heavy ops (a weight
    // shared by layers, a tied embedding) belongs to no single layer, so a backward op reading it
    // is placed by its other operands.
    let mut forward_users_of_arg: Vec<Vec<usize>> = vec![Vec::new(); graph.args.len()];
    for (index, op) in ops.iter().enumerate().filter(|&(i, _)| forward[i]) {
        for operand in &op.operands {
            if let ValueRef::Arg(a) = *operand {
                if forward_users_of_arg[a].last() != Some(&index) {
                    forward_users_of_arg[a].push(index);
                }
            }
        }
    }
    let heavy_forward_users_of_arg =
        |arg: usize| forward_users_of_arg[arg].iter().copied().filter(|&i| is_heavy(&ops[i]));
    let first_forward_use =
        |arg: usize| heavy_forward_users_of_arg(arg).next().or_else(|| forward_users_of_arg[arg].first().copied());
    let shared_by_layers = |arg: usize| match heavy_forward_users_of_arg(arg).count() {
        0 => forward_users_of_arg[arg].len() > 1,
        heavy => heavy > 1,
    };
    let mut anchor: Vec<Option<usize>> = vec![None; n];
    for index in 0..n {
        anchor[index] = match phase[index] {
            Phase::Forward => Some(index),
            Phase::Backward => {
                let direct = ops[index]
                    .operands
                    .iter()
                    .filter_map(|v| match *v {
                        ValueRef::Op { op, .. } if forward[op] && !constant[op] => Some(first_forward_consumer(op)),
                        ValueRef::Arg(a) if !shared_by_layers(a) => first_forward_use(a),
                        _ => None,
                    })
                    .max();
                direct
                    .or_else(|| ops[index].operands.iter().filter_map(|v| producer(*v)).filter_map(|p| anchor[p]).min())
                    .or_else(|| {
                        ops[index]
                            .operands
                            .iter()
                            .filter_map(|v| match *v {
                                ValueRef::Arg(a) => first_forward_use(a),
                                _ => None,
                            })
                            .max()
                    })
            }
            Phase::Update => None,
        };
    }
    // The backward functions of the stages run from the last stage to the first, so a backward
    // op whose result a backward op of a later layer reads must be placed no earlier than that
    // reader. Backpropagation through layers already is; the transpose of a gradient taken inside
    // the loss (a gradient penalty, double backward) runs forward through the layers and is
    // raised here (readers come after what they read, so one pass from the end suffices).
    for index in (0..n).rev() {
        let Some(at) = anchor[index].filter(|_| phase[index] == Phase::Backward) else { continue };
        for operand in ops[index].operands.iter().filter_map(|v| producer(*v)) {
            if phase[operand] == Phase::Backward && anchor[operand].is_some_and(|a| a < at) {
                anchor[operand] = Some(at);
            }
        }
    }
    // An update op goes with the parameter whose new value it computes: from each donated
    // output back through the update ops, to the first forward op that reads the parameter.
    for (arg, param) in graph.args.iter().enumerate() {
        let Some(op) = param.aliased_output().and_then(|r| graph.returned.get(r)).and_then(|v| producer(*v)) else {
            continue;
        };
        if phase[op] == Phase::Update && anchor[op].is_none() {
            anchor[op] = first_forward_use(arg);
        }
    }
    for index in (0..n).rev() {
        let Some(target) = anchor[index].filter(|_| phase[index] == Phase::Update) else { continue };
        for operand in ops[index].operands.iter().filter_map(|v| producer(*v)) {
            if phase[operand] == Phase::Update {
                anchor[operand] = Some(anchor[operand].map_or(target, |a| a.min(target)));
            }
        }
    }
    // Update ops of parameters the forward pass never reads go with what they read.
    for index in 0..n {
        if phase[index] == Phase::Update && anchor[index].is_none() {
            anchor[index] = ops[index].operands.iter().filter_map(|v| producer(*v)).filter_map(|p| anchor[p]).max();
        }
    }
    // Ops that read nothing placed yet (a gradient seed such as broadcast(1.0), a step counter)
    // go with the earliest op that consumes them.
    for index in (0..n).rev() {
        if anchor[index].is_none() {
            anchor[index] = users[index].iter().flatten().filter_map(|&(user, _)| anchor[user]).min();
        }
    }
    Ok(TrainStep { loss, phase, anchor })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::{Attr, Attrs, Block, OpNode, Param};
    use crate::ir::types::{ElementType, TensorType};

    fn t(shape: &[i64]) -> ValueType {
        ValueType::Tensor(TensorType::new(shape.to_vec(), ElementType::f32()))
    }

    fn op(name: &str, operands: Vec<ValueRef>, result: ValueType) -> OpNode {
        OpNode {
            name: name.into(),
            location: String::new(),
            operands,
            results: vec![result],
            attrs: Attrs::new(),
            regions: vec![],
        }
    }

    fn v(op: usize) -> ValueRef {
        ValueRef::Op { op, result: 0 }
    }

    /// loss = sum(tanh(x @ w)); dw = x^T @ dtanh; w' = w - lr * dw.
    fn sgd_step() -> Graph {
        let ops = vec![
            op("stablehlo.dot_general", vec![ValueRef::Arg(1), ValueRef::Arg(0)], t(&[4, 4])), // 0 fwd
            op("stablehlo.tanh", vec![v(0)], t(&[4, 4])),                                      // 1 fwd
            op("stablehlo.reduce", vec![v(1)], t(&[])),                                        // 2 fwd (loss)
            op("stablehlo.multiply", vec![v(1), v(1)], t(&[4, 4])),                            // 3 bwd
            op("stablehlo.subtract", vec![v(3)], t(&[4, 4])),                                  // 4 bwd
            op("stablehlo.dot_general", vec![ValueRef::Arg(1), v(4)], t(&[4, 4])),             // 5 bwd (dw, heavy)
            op("stablehlo.multiply", vec![v(5)], t(&[4, 4])),                                  // 6 update (lr * dw)
            op("stablehlo.subtract", vec![ValueRef::Arg(0), v(6)], t(&[4, 4])),                // 7 update
        ];
        let mut donated = Attrs::new();
        donated.insert("tf.aliasing_output".into(), Attr::Int(0));
        Graph {
            func_name: "main".into(),
            args: vec![Param { ty: t(&[4, 4]), attrs: donated }, Param { ty: t(&[4, 4]), attrs: Attrs::new() }],
            results: vec![Param { ty: t(&[4, 4]), attrs: Attrs::new() }, Param { ty: t(&[]), attrs: Attrs::new() }],
            body: Block { args: vec![t(&[4, 4]), t(&[4, 4])], ops, terminator: None },
            returned: vec![v(7), v(2)],
        }
    }

    #[test]
    fn the_loss_is_told_from_metrics_by_jaxs_result_paths() {
        let named = |g: &mut Graph, r: usize, path: &str| {
            g.results[r].attrs.insert("jax.result_info".into(), Attr::Str(path.into()));
        };
        let with_metric = |path_of_loss: &str, path_of_metric: &str| {
            let mut g = sgd_step();
            g.body.ops.push(op("stablehlo.sqrt", vec![v(2)], t(&[])));
            g.returned.push(v(8));
            g.results.push(Param { ty: t(&[]), attrs: Attrs::new() });
            named(&mut g, 1, path_of_loss);
            named(&mut g, 2, path_of_metric);
            find_loss(&g)
        };
        // Returned directly, not inside the metrics' dictionary.
        assert_eq!(with_metric("result[1]", "result[2]['norm']"), Some(1));
        // Both in a dictionary: the one named as a loss.
        assert_eq!(with_metric("result[1]['loss']", "result[1]['norm']"), Some(1));
        assert_eq!(with_metric("result[1]['norm']", "result[1]['train_loss']"), Some(2));
        // A loss returned directly over a metric whose name mentions a loss (a summed loss
        // beside the mean the gradients are of); one named exactly `loss` over both.
        assert_eq!(with_metric("result[1]", "result[2]['summed_loss']"), Some(1));
        assert_eq!(with_metric("result[1]['loss']", "result[2]"), Some(1));
        // Nothing to tell them apart: the last.
        assert_eq!(with_metric("result[1]", "result[2]"), Some(2));
    }

    /// `ops` of a step with the donated arguments `donated` (argument, result), the others
    /// batch inputs, every value [4, 4] except the results `scalars`.
    fn graph_returning(
        ops: Vec<OpNode>,
        args: usize,
        donated: &[(usize, usize)],
        returned: Vec<ValueRef>,
        scalars: &[usize],
    ) -> Graph {
        let mut graph = step_graph(ops, args, donated, returned);
        for (r, result) in graph.results.iter_mut().enumerate() {
            result.ty = if scalars.contains(&r) { t(&[]) } else { t(&[4, 4]) };
        }
        graph
    }

    #[test]
    fn a_metric_of_the_gradients_or_an_accuracy_returned_after_the_loss_is_not_taken_for_it() {
        let (w, x) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let with_metric = |metric: &[(&str, ValueRef)]| {
            let mut ops = vec![
                op("stablehlo.dot_general", vec![x, w], t(&[4, 4])),    // 0 logits
                op("stablehlo.exponential", vec![v(0)], t(&[4, 4])),    // 1
                op("stablehlo.reduce", vec![v(1)], t(&[])),             // 2 loss
                op("stablehlo.multiply", vec![v(1), v(1)], t(&[4, 4])), // 3 its cotangent
                op("stablehlo.dot_general", vec![x, v(3)], t(&[4, 4])), // 4 dw
                op("stablehlo.transpose", vec![v(4)], t(&[4, 4])),      // 5 in w's layout
                op("stablehlo.subtract", vec![w, v(5)], t(&[4, 4])),    // 6 update
            ];
            for (index, &(name, operand)) in metric.iter().enumerate() {
                let ty = if index + 1 == metric.len() { t(&[]) } else { t(&[4, 4]) };
                ops.push(op(name, vec![operand], ty));
            }
            let last = v(ops.len() - 1);
            find_loss(&graph_returning(ops, 2, &[(0, 0)], vec![v(6), v(2), last], &[1, 2]))
        };
        // A norm of the gradient (as the update reads it, or before its transpose), an
        // accuracy of the logits, a value of the state alone: none is differentiated.
        assert_eq!(with_metric(&[("stablehlo.abs", v(5)), ("stablehlo.reduce", v(7))]), Some(1));
        assert_eq!(with_metric(&[("stablehlo.abs", v(4)), ("stablehlo.reduce", v(7))]), Some(1));
        assert_eq!(with_metric(&[("stablehlo.sign", v(0)), ("stablehlo.reduce", v(7))]), Some(1));
        assert_eq!(with_metric(&[("stablehlo.reduce", w)]), Some(1));
        // The loss returned last stays the loss.
        let ops = vec![
            op("stablehlo.dot_general", vec![x, w], t(&[4, 4])),
            op("stablehlo.exponential", vec![v(0)], t(&[4, 4])),
            op("stablehlo.reduce", vec![v(1)], t(&[])),
            op("stablehlo.multiply", vec![v(1), v(1)], t(&[4, 4])),
            op("stablehlo.dot_general", vec![x, v(3)], t(&[4, 4])),
            op("stablehlo.subtract", vec![w, v(4)], t(&[4, 4])),
            op("stablehlo.abs", vec![v(4)], t(&[4, 4])),
            op("stablehlo.reduce", vec![v(6)], t(&[])),
        ];
        assert_eq!(find_loss(&graph_returning(ops, 2, &[(0, 0)], vec![v(5), v(7), v(2)], &[1, 2])), Some(2));
    }

    #[test]
    fn a_statistic_of_a_hidden_activation_returned_after_the_loss_is_not_taken_for_it() {
        let (w0, w1, x) = (ValueRef::Arg(0), ValueRef::Arg(1), ValueRef::Arg(2));
        let ops = vec![
            op("stablehlo.dot_general", vec![x, w0], t(&[4, 4])),      // 0
            op("stablehlo.tanh", vec![v(0)], t(&[4, 4])),              // 1 hidden activation
            op("stablehlo.dot_general", vec![v(1), w1], t(&[4, 4])),   // 2 logits
            op("stablehlo.exponential", vec![v(2)], t(&[4, 4])),       // 3
            op("stablehlo.reduce", vec![v(3)], t(&[])),                // 4 loss
            op("stablehlo.multiply", vec![v(3), v(3)], t(&[4, 4])),    // 5 cotangent of the logits
            op("stablehlo.dot_general", vec![v(1), v(5)], t(&[4, 4])), // 6 dw1
            op("stablehlo.dot_general", vec![v(5), w1], t(&[4, 4])),   // 7 cotangent of the activation
            op("stablehlo.multiply", vec![v(7), v(1)], t(&[4, 4])),    // 8
            op("stablehlo.dot_general", vec![x, v(8)], t(&[4, 4])),    // 9 dw0
            op("stablehlo.subtract", vec![w1, v(6)], t(&[4, 4])),      // 10
            op("stablehlo.subtract", vec![w0, v(9)], t(&[4, 4])),      // 11
            op("stablehlo.reduce", vec![v(1)], t(&[])),                // 12 the activation's mean
        ];
        let graph = graph_returning(ops, 3, &[(0, 0), (1, 1)], vec![v(11), v(10), v(4), v(12)], &[2, 3]);
        assert_eq!(find_loss(&graph), Some(2));
    }

    #[test]
    fn phases_come_from_data_flow() {
        let step = analyze(&sgd_step()).unwrap();
        assert_eq!(step.loss, 1);
        use Phase::*;
        assert_eq!(step.phase, vec![Forward, Forward, Forward, Backward, Backward, Backward, Update, Update]);
    }

    #[test]
    fn backward_and_update_ops_are_placed_with_their_forward_counterparts() {
        let step = analyze(&sgd_step()).unwrap();
        // The backward multiply reads tanh's output, whose first forward consumer is the loss's
        // reduce (op 2), and the subtract follows it; dw reads x, first used by the forward
        // matmul (op 0). The update of w goes with the first forward use of w (op 0).
        assert_eq!(step.anchor, vec![Some(0), Some(1), Some(2), Some(2), Some(2), Some(0), Some(0), Some(0)]);
    }

    fn step_graph(ops: Vec<OpNode>, args: usize, donated: &[(usize, usize)], returned: Vec<ValueRef>) -> Graph {
        let params = (0..args)
            .map(|a| {
                let mut attrs = Attrs::new();
                if let Some(&(_, out)) = donated.iter().find(|&&(arg, _)| arg == a) {
                    attrs.insert("tf.aliasing_output".into(), Attr::Int(out as i64));
                }
                Param { ty: t(&[4, 4]), attrs }
            })
            .collect();
        let results = returned.iter().map(|_| Param { ty: t(&[4, 4]), attrs: Attrs::new() }).collect::<Vec<_>>();
        let mut graph = Graph {
            func_name: "main".into(),
            args: params,
            results,
            body: Block { args: vec![t(&[4, 4]); args], ops, terminator: None },
            returned,
        };
        graph.results.last_mut().unwrap().ty = t(&[]);
        graph
    }

    #[test]
    fn the_backward_of_a_later_layer_is_not_placed_with_the_first_reader_of_a_shared_weight() {
        let (w, x) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let ops = vec![
            op("stablehlo.dot_general", vec![x, w], t(&[4, 4])), // 0 fwd layer 1
            op("stablehlo.tanh", vec![v(0)], t(&[4, 4])),        // 1 fwd
            op("stablehlo.dot_general", vec![v(1), w], t(&[4, 4])), // 2 fwd layer 2, same w
            op("stablehlo.tanh", vec![v(2)], t(&[4, 4])),        // 3 fwd
            op("stablehlo.reduce", vec![v(3)], t(&[])),          // 4 fwd loss
            op("stablehlo.multiply", vec![v(3), v(3)], t(&[4, 4])), // 5 bwd of tanh 3
            op("stablehlo.dot_general", vec![v(5), w], t(&[4, 4])), // 6 bwd dx of layer 2
            op("stablehlo.dot_general", vec![v(1), v(5)], t(&[4, 4])), // 7 bwd dw of layer 2
            op("stablehlo.multiply", vec![v(6), v(1)], t(&[4, 4])), // 8 bwd of tanh 1
            op("stablehlo.dot_general", vec![x, v(8)], t(&[4, 4])), // 9 bwd dw of layer 1
            op("stablehlo.add", vec![v(7), v(9)], t(&[4, 4])),   // 10 bwd: dw summed
            op("stablehlo.subtract", vec![w, v(10)], t(&[4, 4])), // 11 update
        ];
        let step = analyze(&step_graph(ops, 2, &[(0, 0)], vec![v(11), v(4)])).unwrap();
        // dx of layer 2 follows its incoming gradient (placed with the loss), not layer 1's
        // matmul, the first reader of w; the rest is placed by the activations it reads.
        assert_eq!(step.anchor[6], Some(4));
        assert_eq!(step.anchor[7], Some(2));
        assert_eq!(step.anchor[9], Some(0));
        assert_eq!(step.anchor[11], Some(0));
    }

    #[test]
    fn a_parameter_belongs_to_its_heavy_reader_not_an_earlier_elementwise_one() {
        let (w0, w1, x) = (ValueRef::Arg(0), ValueRef::Arg(1), ValueRef::Arg(2));
        let ops = vec![
            op("stablehlo.multiply", vec![w0, w0], t(&[4, 4])), // 0 fwd: L2 of w0
            op("stablehlo.multiply", vec![w1, w1], t(&[4, 4])), // 1 fwd: L2 of w1
            op("stablehlo.add", vec![v(0), v(1)], t(&[4, 4])),  // 2 fwd
            op("stablehlo.dot_general", vec![x, w0], t(&[4, 4])), // 3 fwd layer 0
            op("stablehlo.dot_general", vec![v(3), w1], t(&[4, 4])), // 4 fwd layer 1
            op("stablehlo.add", vec![v(4), v(2)], t(&[])),      // 5 fwd loss
            op("stablehlo.negate", vec![v(5)], t(&[])),         // 6 bwd: gradient seed
            op("stablehlo.dot_general", vec![v(3), v(6)], t(&[4, 4])), // 7 bwd dw1
            op("stablehlo.multiply", vec![w1, v(6)], t(&[4, 4])), // 8 L2 gradient of w1
            op("stablehlo.add", vec![v(7), v(8)], t(&[4, 4])),  // 9
            op("stablehlo.subtract", vec![w1, v(9)], t(&[4, 4])), // 10 update of w1
        ];
        let step = analyze(&step_graph(ops, 3, &[(1, 0)], vec![v(10), v(5)])).unwrap();
        // w1 goes with layer 1's matmul (op 4), not the L2 term's square (op 1).
        assert_eq!(step.anchor[7], Some(4));
        assert_eq!(step.anchor[8], Some(4));
        assert_eq!(step.anchor[10], Some(4));
    }

    /// Double backward in miniature: the loss reads a forward-direction chain (the transpose of
    /// an inner gradient) that meets the activation of layer 0 first and of layer 2 last.
    fn double_backward_step() -> Graph {
        let (w, x) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let ops = vec![
            op("stablehlo.dot_general", vec![x, w], t(&[4, 4])), // 0 fwd layer 0
            op("stablehlo.tanh", vec![v(0)], t(&[4, 4])),        // 1 fwd (a0)
            op("stablehlo.dot_general", vec![v(1), w], t(&[4, 4])), // 2 fwd layer 1
            op("stablehlo.tanh", vec![v(2)], t(&[4, 4])),        // 3 fwd (a1)
            op("stablehlo.multiply", vec![v(3), v(1)], t(&[4, 4])), // 4 fwd: inner backward
            op("stablehlo.reduce", vec![v(4)], t(&[])),          // 5 fwd loss
            op("stablehlo.negate", vec![v(5)], t(&[])),          // 6 bwd seed
            op("stablehlo.multiply", vec![v(6), v(1)], t(&[4, 4])), // 7 bwd reads a0 (first read by 2)
            op("stablehlo.multiply", vec![v(7), v(4)], t(&[4, 4])), // 8 bwd reads op 4's value
            op("stablehlo.dot_general", vec![v(8), x], t(&[4, 4])), // 9 bwd
            op("stablehlo.subtract", vec![w, v(9)], t(&[4, 4])), // 10 update
        ];
        step_graph(ops, 2, &[(0, 0)], vec![v(10), v(5)])
    }

    #[test]
    fn a_backward_op_is_placed_no_earlier_than_the_backward_ops_reading_it() {
        let step = analyze(&double_backward_step()).unwrap();
        // Op 8 reads op 4's value (first read by the loss, op 5); op 7, which it reads, would go
        // with a0's first reader (op 2), earlier than its reader, and is raised to op 5.
        assert_eq!(step.anchor[8], Some(5));
        assert_eq!(step.anchor[7], Some(5));
    }

    #[test]
    fn every_backward_op_is_placed_no_later_than_what_it_reads_from_the_backward() {
        // Backpropagation meets this by construction; the double backward only with the raise.
        for graph in [sgd_step(), crate::ir::test_graphs::tanh_mlp_step(4, 4, 8), double_backward_step()] {
            let step = analyze(&graph).unwrap();
            for (index, op) in graph.ops().iter().enumerate().filter(|&(i, _)| step.phase[i] == Phase::Backward) {
                for operand in op.operands.iter().filter_map(|v| producer(*v)) {
                    if step.phase[operand] == Phase::Backward {
                        assert!(step.anchor[operand] >= step.anchor[index], "op {index} reads op {operand}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_step_without_a_scalar_loss_is_an_error() {
        let mut graph = sgd_step();
        graph.results.pop();
        graph.returned.pop();
        assert_eq!(analyze(&graph), Err(TrainStepError::NoLoss));
    }
}
