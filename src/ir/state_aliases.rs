//! The state a train step carries from one iteration to the next: which argument each updated
//! result replaces. JAX records it as donation (`tf.aliasing_output`, `jax.buffer_donor`) only
//! when the step was jitted with `donate_argnums`; users export without it all the time, and then
//! the planners would treat parameters as free inputs and let their output layout drift from
//! their input layout. This module recovers the pairs from the step itself, or takes them from
//! the user, so that the planners see the same step either way.
//!
//! Recognition: result r updates argument a when
//! - both have the same type,
//! - a reaches r through ops that are not heavy (the optimizer's update is elementwise: a new
//!   parameter is `w - lr * f(g)`, a new moment `b * m + (1 - b) * g`, a counter `c + 1`), and
//! - among such arguments, a has the same tree path (`params['dense_0']['kernel']` for the
//!   argument, `result[0]['dense_0']['kernel']` for the result; names come from `jax.arg_info`
//!   or the argument's location and from `jax.result_info`), or else the shortest such path.
//!
//! Pairs are chosen greedily in that order of preference, one result per argument.

use crate::ir::graph::{Attr, Graph, ValueRef};
use crate::ir::op_table::is_heavy;
use crate::ir::types::ValueType;
use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

/// How the planners learn the step's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DonationPolicy {
    /// The module's donation if it has any, else the recognised pairs.
    #[default]
    Auto,
    /// Only what the module says.
    Module,
    /// The user's `ARG:RESULT` pairs, replacing the module's.
    Explicit(Vec<(usize, usize)>),
}

impl FromStr for DonationPolicy {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim() {
            "" | "auto" => Ok(DonationPolicy::Auto),
            "module" => Ok(DonationPolicy::Module),
            pairs => pairs
                .split(',')
                .map(|pair| {
                    let (arg, result) = pair.split_once(':').ok_or_else(|| format!("'{pair}' is not ARG:RESULT"))?;
                    let index = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("'{pair}' is not ARG:RESULT"));
                    Ok((index(arg)?, index(result)?))
                })
                .collect::<Result<Vec<_>, String>>()
                .map(DonationPolicy::Explicit)
                .map_err(|e| format!("donation must be auto, module or ARG:RESULT pairs separated by commas: {e}")),
        }
    }
}

/// Where the pairs came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AliasSource {
    Module,
    Recognised,
    Option,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateAliases {
    /// (argument, result) pairs, by argument.
    pub pairs: Vec<(usize, usize)>,
    pub source: AliasSource,
}

impl fmt::Display for StateAliases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<String> = self.pairs.iter().map(|(a, r)| format!("{a}:{r}")).collect();
        write!(f, "{}", pairs.join(","))
    }
}

/// The pairs the module declares.
pub fn declared(graph: &Graph) -> Vec<(usize, usize)> {
    graph.args.iter().enumerate().filter_map(|(a, p)| p.aliased_output().map(|r| (a, r))).collect()
}

/// The tree path of a name with its first component removed: `params['a'][0]` and
/// `result[1]['a'][0]` (a result of a tuple-returning step) both become `['a'][0]`.
fn tree_path(name: &str, is_result: bool) -> Option<&str> {
    let name = name.trim();
    let rest = if is_result {
        let rest = name.strip_prefix("result")?;
        // The tuple index of the step's results.
        match rest.strip_prefix('[') {
            Some(inner) if inner.chars().next().is_some_and(|c| c.is_ascii_digit()) => &inner[inner.find(']')? + 1..],
            _ => rest,
        }
    } else {
        &name[name.find('[')?..]
    };
    (!rest.is_empty()).then_some(rest)
}

/// For one result, the arguments reachable through non-heavy ops, with their distance.
fn update_distances(graph: &Graph, result: usize) -> Vec<Option<usize>> {
    let mut distance = vec![None; graph.args.len()];
    let mut seen = vec![false; graph.ops().len()];
    let mut queue = VecDeque::new();
    queue.push_back((graph.returned[result], 0usize));
    while let Some((value, d)) = queue.pop_front() {
        match value {
            ValueRef::Arg(a) => {
                if let Some(slot) = distance.get_mut(a) {
                    if slot.is_none() {
                        *slot = Some(d);
                    }
                }
            }
            ValueRef::Op { op, .. } => {
                if std::mem::replace(&mut seen[op], true) || is_heavy(&graph.ops()[op]) {
                    continue;
                }
                for operand in &graph.ops()[op].operands {
                    queue.push_back((*operand, d + 1));
                }
            }
            ValueRef::Outer => {}
        }
    }
    distance
}

/// The (argument, result) pairs recognised as state that feeds back. `arg_names[a]` is the
/// argument's tree path name when the export kept one.
pub fn recognise(graph: &Graph, arg_names: &[Option<String>]) -> Vec<(usize, usize)> {
    let result_name = |r: usize| match graph.results[r].attrs.get("jax.result_info") {
        Some(Attr::Str(s)) => tree_path(s, true),
        _ => None,
    };
    // (names differ, distance, result, argument): the preference order.
    let mut candidates: Vec<(bool, usize, usize, usize)> = Vec::new();
    for r in 0..graph.results.len().min(graph.returned.len()) {
        let distances = update_distances(graph, r);
        for (a, d) in distances.iter().enumerate() {
            let Some(d) = *d else { continue };
            if graph.args[a].ty != graph.results[r].ty {
                continue;
            }
            let arg_name = arg_names.get(a).and_then(|n| n.as_deref()).and_then(|n| tree_path(n, false));
            let same_name = matches!((arg_name, result_name(r)), (Some(x), Some(y)) if x == y);
            candidates.push((!same_name, d, r, a));
        }
    }
    candidates.sort();
    let mut arg_taken = vec![false; graph.args.len()];
    let mut result_taken = vec![false; graph.results.len()];
    let mut pairs = Vec::new();
    for (_, _, r, a) in candidates {
        if !arg_taken[a] && !result_taken[r] {
            arg_taken[a] = true;
            result_taken[r] = true;
            pairs.push((a, r));
        }
    }
    leave_a_loss(graph, &mut pairs);
    pairs.sort();
    pairs
}

/// A train step returns its loss, a float scalar that updates no argument. Pairing can take
/// every such result: torch_xla passes Python scalars (a learning rate, label smoothing's
/// weights) as f32 scalar arguments, and one that scales the loss reaches it through
/// elementwise ops as a state reaches its update. When no float scalar result is left unpaired,
/// the last paired one computed from the examples (an unpaired argument of rank >= 1) is left
/// as the loss (a step that carries a scalar state, a loss scale, returns its loss beside it).
fn leave_a_loss(graph: &Graph, pairs: &mut Vec<(usize, usize)>) {
    let float_scalar =
        |r: usize| matches!(&graph.results[r].ty, ValueType::Tensor(t) if t.rank() == 0 && t.element.is_float());
    let paired = |pairs: &[(usize, usize)], r: usize| pairs.iter().any(|&(_, pr)| pr == r);
    if (0..graph.results.len()).any(|r| float_scalar(r) && !paired(pairs, r)) {
        return;
    }
    let state: Vec<usize> = pairs.iter().map(|&(a, _)| a).collect();
    let is_example = |a: usize| !state.contains(&a) && graph.args[a].ty.tensor().is_some_and(|t| t.rank() >= 1);
    let mut reads_examples = vec![false; graph.ops().len()];
    for (index, op) in graph.ops().iter().enumerate() {
        reads_examples[index] = op.operands.iter().any(|v| match *v {
            ValueRef::Arg(a) => is_example(a),
            ValueRef::Op { op, .. } => reads_examples[op],
            ValueRef::Outer => false,
        });
    }
    let computed_from_examples = |r: usize| match graph.returned.get(r) {
        Some(ValueRef::Op { op, .. }) => reads_examples[*op],
        _ => false,
    };
    let loss = (0..graph.results.len().min(graph.returned.len()))
        .rev()
        .find(|&r| float_scalar(r) && paired(pairs, r) && computed_from_examples(r));
    if let Some(loss) = loss {
        pairs.retain(|&(_, r)| r != loss);
    }
}

fn describe(ty: &ValueType) -> String {
    ty.tensor().map_or_else(|| format!("{ty:?}"), ToString::to_string)
}

/// Why the user's donation pairs do not fit the step; `argument` is the argument at fault, when
/// one is (diagnostics go at its location).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DonationError {
    pub argument: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for DonationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Checks user-given pairs against the step.
fn check_explicit(graph: &Graph, pairs: &[(usize, usize)]) -> Result<(), DonationError> {
    let at = |argument: Option<usize>, message: String| DonationError { argument, message };
    let mut args_seen = vec![false; graph.args.len()];
    let mut results_seen = vec![false; graph.results.len()];
    for &(a, r) in pairs {
        let (Some(arg), Some(result)) = (graph.args.get(a), graph.results.get(r)) else {
            return Err(at(
                None,
                format!(
                    "donation pair {a}:{r} is out of range: the entry has {} arguments and {} results",
                    graph.args.len(),
                    graph.results.len()
                ),
            ));
        };
        if arg.ty != result.ty {
            let message = format!(
                "donation pair {a}:{r}: argument type {} differs from result type {}",
                describe(&arg.ty),
                describe(&result.ty)
            );
            return Err(at(Some(a), message));
        }
        if std::mem::replace(&mut args_seen[a], true) || std::mem::replace(&mut results_seen[r], true) {
            return Err(at(Some(a), format!("donation pair {a}:{r} repeats an argument or a result")));
        }
    }
    Ok(())
}

/// The step's state under `policy`: the module's donation, the recognised pairs or the user's.
pub fn resolve(
    graph: &Graph,
    arg_names: &[Option<String>],
    policy: &DonationPolicy,
) -> Result<StateAliases, DonationError> {
    let module = declared(graph);
    let donated_without_alias = graph.args.iter().any(|p| p.is_donated() && p.aliased_output().is_none());
    Ok(match policy {
        DonationPolicy::Explicit(pairs) => {
            check_explicit(graph, pairs)?;
            let mut pairs = pairs.clone();
            pairs.sort();
            StateAliases { pairs, source: AliasSource::Option }
        }
        DonationPolicy::Module => StateAliases { pairs: module, source: AliasSource::Module },
        DonationPolicy::Auto if !module.is_empty() || donated_without_alias => {
            StateAliases { pairs: module, source: AliasSource::Module }
        }
        DonationPolicy::Auto => StateAliases { pairs: recognise(graph, arg_names), source: AliasSource::Recognised },
    })
}

/// Makes the graph say what `aliases` says: each paired argument aliased to its result, no
/// other argument aliased.
pub fn apply(graph: &mut Graph, aliases: &StateAliases) {
    for arg in &mut graph.args {
        arg.attrs.remove("tf.aliasing_output");
    }
    for &(a, r) in &aliases.pairs {
        graph.args[a].attrs.insert("tf.aliasing_output".into(), Attr::Int(r as i64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_paths_drop_the_first_component() {
        assert_eq!(tree_path("params['params']['dense_0']['bias']", false), Some("['params']['dense_0']['bias']"));
        assert_eq!(tree_path("result[0]['params']['dense_0']['bias']", true), Some("['params']['dense_0']['bias']"));
        assert_eq!(tree_path("result['w']", true), Some("['w']"));
        assert_eq!(tree_path("result[2]", true), None);
        assert_eq!(tree_path("x", false), None);
    }

    #[test]
    fn policies_parse() {
        assert_eq!("auto".parse::<DonationPolicy>(), Ok(DonationPolicy::Auto));
        assert_eq!("module".parse::<DonationPolicy>(), Ok(DonationPolicy::Module));
        assert_eq!("0:1, 2:0".parse::<DonationPolicy>(), Ok(DonationPolicy::Explicit(vec![(0, 1), (2, 0)])));
        assert!("0-1".parse::<DonationPolicy>().is_err());
        assert!("a:b".parse::<DonationPolicy>().is_err());
    }
}
