//! FLOPs and bytes per op: what the cost model's compute term and the memory estimates use.
//!
//! - `dot_general` / `dot`: exactly `2 * batch * M * N * K`, the product of all factor sizes of
//!   the op's rule, times two (one multiply and one add per term).
//! - `convolution`: exactly `2 * output batch * output features * input features per group *`
//!   the (output position, kernel position) pairs that read an input element, per spatial dim
//!   (src/ir/conv_taps.rs: taps on padding or on the holes of lhs dilation are not computed,
//!   as XLA counts and runs them); the kernel's input-feature dim is already
//!   `C_in / feature_group_count`, and with `batch_group_count` the output batch `N / BG`.
//! - Elementwise ops: per result element, the count in [`ElementwiseInfo`] (1 for arithmetic,
//!   logic, compare, select, convert; 2 for clamp; 0 for real/imag/bitcast). Transcendental ops
//!   (exp, log, tanh, logistic, sqrt, rsqrt, erf, lgamma, ...) count 1 FLOP and 1 transcendental.
//! - `reduce`: input elements * ops in the body; `reduce_window`: output elements * window
//!   elements * body ops; `select_and_scatter`: source elements * (window elements * select body
//!   ops + scatter body ops); `scatter`: update elements * body ops; `map`: result elements *
//!   body ops; `sort`: elements * ceil(log2 n) * comparator ops for a sorted dim of size n;
//!   `chlo.top_k`: input elements * max(1, ceil(log2 k)).
//! - `batch_norm_training` 7, `batch_norm_inference` 4, `batch_norm_grad` 10 FLOPs per element
//!   of the operand, plus one transcendental (rsqrt) per feature.
//! - `cholesky` n^3/3, `triangular_solve` m^2 * n, `fft` 5 N log2 N per matrix/transform;
//!   `rng_bit_generator` and `rng` one per generated element.
//! - `while`: with a static trip count n (src/ir/loops.rs: JAX's scan / fori_loop pattern, read
//!   by [`op_cost_in_block`], which sees the loop's initial values) the body n times and the
//!   condition n + 1 times; otherwise both once (alpa-annotate-costs says so in a remark);
//!   `case` / `if`: the branch with the most FLOPs. Their bytes add the regions' bytes.
//! - Data movement (reshape, transpose, broadcast, slice, pad, concatenate, gather, copy of
//!   constants, iota, tuples, ...) is 0 FLOPs.
//! - Unknown ops (and custom calls the table does not know): one FLOP per result element,
//!   `known: false`.
//!
//! Bytes read are the sum of the operands' sizes (0 for operands whose type is not given),
//! bytes written the sum of the results' sizes.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §3.

use crate::ir::attr_text::ConvDimensionNumbers;
use crate::ir::conv_taps::{valid_taps, WindowDim};
use crate::ir::graph::{Attr, Block, OpNode, Region};
use crate::ir::loops::counted_loop;
use crate::ir::op_table::{canonical_name, elementwise_info, ints_attr, op_rule, opaque_text, shape_err, OpTableError};
use crate::ir::types::{TensorType, ValueType};

/// What one op (or a block of ops) costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCost {
    pub flops: u64,
    /// Transcendental evaluations (also counted once each in `flops`).
    pub transcendentals: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// False when some op involved is unknown to the op table and its count is a guess.
    pub known: bool,
}

impl OpCost {
    /// This cost plus `o`; `None` when a total passes u64.
    pub fn checked_add(self, o: OpCost) -> Option<OpCost> {
        Some(OpCost {
            flops: self.flops.checked_add(o.flops)?,
            transcendentals: self.transcendentals.checked_add(o.transcendentals)?,
            bytes_read: self.bytes_read.checked_add(o.bytes_read)?,
            bytes_written: self.bytes_written.checked_add(o.bytes_written)?,
            known: self.known && o.known,
        })
    }

    /// `n` times this cost; `None` when a total passes u64.
    pub fn checked_times(self, n: u64) -> Option<OpCost> {
        Some(OpCost {
            flops: self.flops.checked_mul(n)?,
            transcendentals: self.transcendentals.checked_mul(n)?,
            bytes_read: self.bytes_read.checked_mul(n)?,
            bytes_written: self.bytes_written.checked_mul(n)?,
            known: self.known,
        })
    }
}

/// The error for a count that does not fit u64: it cannot be costed, and a saturated count
/// would cost 2^96 as 2^64.
pub fn past_u64(op: &OpNode, what: &str) -> OpTableError {
    shape_err(op, format!("{what} pass 2^64: sizes past u64 cannot be costed"))
}

/// Summed bytes of values given by their sizes (`None` for one past u64); `None` past u64.
fn sum_bytes(mut sizes: impl Iterator<Item = Option<u64>>) -> Option<u64> {
    sizes.try_fold(0u64, |acc, b| acc.checked_add(b?))
}

/// The cost of `op` given its operands' types (`None` where not a ranked tensor or unknown).
/// A while loop's trip count is not visible from here (its initial values are in the enclosing
/// block): its body counts once; [`op_cost_in_block`] multiplies it by a static trip count.
/// Errors are the op table's: malformed attributes or shapes that contradict the op, and
/// counts past u64.
pub fn op_cost(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<OpCost, OpTableError> {
    let bytes_read = sum_bytes(operands.iter().flatten().map(|t| t.checked_byte_size()));
    cost_with_trips(op, operands, bytes_read, None)
}

/// The cost of op `index` of `block`, a while loop's body times its static trip count. Its
/// bytes read include tuple operands (their elements' sum) and tokens (none).
pub fn op_cost_in_block(block: &Block, index: usize) -> Result<OpCost, OpTableError> {
    let op = &block.ops[index];
    let values: Vec<Option<&ValueType>> = op.operands.iter().map(|v| block.value_type(*v)).collect();
    let operands: Vec<Option<&TensorType>> = values.iter().map(|v| v.and_then(ValueType::tensor)).collect();
    let bytes_read = sum_bytes(values.iter().flatten().map(|v| v.checked_byte_size()));
    let trips = (op.name == "stablehlo.while").then(|| counted_loop(op, block).ok().map(|c| c.trips)).flatten();
    cost_with_trips(op, &operands, bytes_read, trips)
}

fn cost_with_trips(
    op: &OpNode,
    operands: &[Option<&TensorType>],
    bytes_read: Option<u64>,
    trips: Option<u64>,
) -> Result<OpCost, OpTableError> {
    let rule = op_rule(op, operands)?;
    let name = canonical_name(&op.name);
    let elements = |t: &TensorType| t.checked_elements().ok_or_else(|| past_u64(op, &format!("the elements of {t}")));
    let result = op.results.first().and_then(ValueType::tensor);
    let out = result.map_or(Ok(0), elements)?;
    let input = operands.first().copied().flatten();
    let inp = input.map_or(Ok(0), elements)?;
    let body = |i: usize| body_ops(op.regions.get(i));
    let flops_past = || past_u64(op, "its FLOPs");
    let mul = |a: u64, b: u64| a.checked_mul(b).ok_or_else(flops_past);

    let mut cost = OpCost {
        bytes_read: bytes_read.ok_or_else(|| past_u64(op, "its operands' bytes"))?,
        bytes_written: sum_bytes(op.results.iter().map(ValueType::checked_byte_size))
            .ok_or_else(|| past_u64(op, "its results' bytes"))?,
        known: rule.known,
        ..OpCost::default()
    };
    let all_operands = operands.iter().all(Option::is_some);

    if let Some(info) = elementwise_info(&name) {
        cost.flops = mul(info.flops, out)?;
        if info.transcendental {
            cost.transcendentals = out;
        }
        return Ok(cost);
    }
    let mut inner = OpCost { known: true, ..OpCost::default() };
    cost.flops = match name.as_str() {
        "dot_general" | "dot" if all_operands => {
            let space = u64::try_from(rule.iteration_space()).map_err(|_| flops_past())?;
            mul(2, space)?
        }
        "convolution" if all_operands && operands.len() == 2 => match (operands[0], operands[1], result) {
            (Some(input), Some(kernel), Some(result)) => conv_flops(op, input, kernel, result)?,
            _ => out,
        },
        "dot_general" | "dot" | "convolution" => {
            cost.known = false;
            out
        }
        "map" => mul(out, body(0))?,
        "reduce" => mul(inp, body(0))?,
        "reduce_window" => {
            let window = match window_elements(op) {
                Some(w) => w.ok_or_else(flops_past)?,
                None => (inp / out.max(1)).max(1),
            };
            mul(mul(out, window)?, body(0))?
        }
        "select_and_scatter" => {
            let source = operands.get(1).copied().flatten().map_or(Ok(0), elements)?;
            let window = window_elements(op).unwrap_or(Some(1)).ok_or_else(flops_past)?;
            let per = mul(window, body(0))?.checked_add(body(1)).ok_or_else(flops_past)?;
            mul(source, per)?
        }
        "scatter" => {
            let n = (operands.len().saturating_sub(1)) / 2;
            let updates = operands.get(n + 1).copied().flatten().map_or(Ok(0), elements)?;
            mul(updates, body(0))?
        }
        "sort" => {
            let rank = input.map_or(0, TensorType::rank) as i64;
            let raw = op.attr("dimension").and_then(|a| a.as_int()).unwrap_or(-1);
            let dim = if raw < 0 { raw + rank } else { raw };
            let n = input.and_then(|t| t.shape.get(dim.max(0) as usize)).copied().unwrap_or(1);
            mul(mul(inp, ceil_log2(n as u64))?, body(0))?
        }
        "chlo.top_k" => {
            let k = op.attr("k").and_then(|a| a.as_int()).unwrap_or(1).max(1) as u64;
            mul(inp, ceil_log2(k).max(1))?
        }
        "batch_norm_training" | "batch_norm_inference" | "batch_norm_grad" => {
            let per = match name.as_str() {
                "batch_norm_training" => 7,
                "batch_norm_inference" => 4,
                _ => 10,
            };
            cost.transcendentals = operands.get(1).copied().flatten().map_or(Ok(0), elements)?;
            mul(inp, per)?.checked_add(cost.transcendentals).ok_or_else(flops_past)?
        }
        "cholesky" => matrix_flops(input, |n, _| u64::try_from((n as u128).pow(3) / 3).ok()).ok_or_else(flops_past)?,
        "triangular_solve" => {
            let b = operands.get(1).copied().flatten();
            let left = matches!(op.attr("left_side"), Some(Attr::Bool(true)));
            let flops = matrix_flops(b, |rows, cols| {
                let (solved, free) = if left { (rows, cols) } else { (cols, rows) };
                solved.checked_mul(solved)?.checked_mul(free)
            });
            flops.ok_or_else(flops_past)?
        }
        "fft" => {
            let lengths = op.attr("fft_length").and_then(|a| a.as_i64_array()).unwrap_or(&[]);
            let n = lengths.iter().try_fold(1u64, |acc, &l| acc.checked_mul(l.max(1) as u64)).ok_or_else(flops_past)?;
            let transforms = inp / n.max(1);
            mul(transforms, mul(mul(5, n)?, ceil_log2(n))?)?
        }
        "rng_bit_generator" => op.results.get(1).and_then(ValueType::tensor).map_or(Ok(0), elements)?,
        "rng" => out,
        "while" => {
            // Without a static trip count: condition and body once.
            let (cond, body) = (region_cost(op, op.regions.first())?, region_cost(op, op.regions.get(1))?);
            let counted = match trips {
                Some(n) => n
                    .checked_add(1)
                    .and_then(|tests| cond.checked_times(tests))
                    .zip(body.checked_times(n))
                    .and_then(|(c, b)| c.checked_add(b)),
                None => cond.checked_add(body),
            };
            inner = counted.ok_or_else(|| past_u64(op, "its body's costs times its trips"))?;
            0
        }
        "case" | "if" => {
            // The most expensive branch.
            let mut worst: Option<OpCost> = None;
            let mut known = true;
            for r in &op.regions {
                let c = region_cost(op, Some(r))?;
                known &= c.known;
                if worst.is_none_or(|w| c.flops > w.flops) {
                    worst = Some(c);
                }
            }
            inner = OpCost { known, ..worst.unwrap_or_default() };
            0
        }
        _ if !rule.known => out,
        _ => 0,
    };
    cost.checked_add(inner).ok_or_else(|| past_u64(op, "its costs with its regions'"))
}

/// The summed cost of every op in a block (operand types resolved inside the block).
pub fn block_cost(block: &Block) -> Result<OpCost, OpTableError> {
    let mut total = OpCost { known: true, ..OpCost::default() };
    for index in 0..block.ops.len() {
        let cost = op_cost_in_block(block, index)?;
        total = total.checked_add(cost).ok_or_else(|| past_u64(&block.ops[index], "the block's costs up to here"))?;
    }
    Ok(total)
}

/// The summed cost of `op`'s region; a sum past u64 is an error at `op`.
fn region_cost(op: &OpNode, region: Option<&Region>) -> Result<OpCost, OpTableError> {
    let mut total = OpCost { known: true, ..OpCost::default() };
    for block in region.map_or(&[][..], |r| &r.blocks[..]) {
        total = total.checked_add(block_cost(block)?).ok_or_else(|| past_u64(op, "its region's costs"))?;
    }
    Ok(total)
}

/// `2 x` the multiply-adds that read an input element ([`valid_taps`] per spatial dim): per
/// output batch and feature, the kernel's input features (per group) times the valid
/// (output position, kernel position) pairs of every spatial dim. Where a window attribute
/// cannot be read, every tap counts. A count past u64 is an error at the op.
fn conv_flops(op: &OpNode, input: &TensorType, kernel: &TensorType, result: &TensorType) -> Result<u64, OpTableError> {
    let text = op.attr("dimension_numbers").and_then(opaque_text).unwrap_or_default();
    let dn = ConvDimensionNumbers::parse(text).map_err(|source| OpTableError::Attr {
        op: op.name.clone(),
        attr: "dimension_numbers".into(),
        source,
    })?;
    let size =
        |t: &TensorType, d: i64| usize::try_from(d).ok().and_then(|d| t.shape.get(d)).map_or(1, |&s| s.max(0) as u128);
    let dense = || -> Option<u128> {
        let out: Option<u128> =
            dn.output_spatial_dimensions.iter().try_fold(1u128, |a, &d| a.checked_mul(size(result, d)));
        let window: Option<u128> =
            dn.kernel_spatial_dimensions.iter().try_fold(1u128, |a, &d| a.checked_mul(size(kernel, d)));
        out?.checked_mul(window?)
    };
    let taps = match window_dims(op, &dn, input, kernel, result) {
        Some(dims) => dims.into_iter().try_fold(1u128, |a, d| a.checked_mul(valid_taps(d))),
        None => dense(),
    };
    // Per output (batch, feature) row, the kernel's input features (per group) at every tap.
    [
        size(result, dn.output_batch_dimension),
        size(result, dn.output_feature_dimension),
        size(kernel, dn.kernel_input_feature_dimension),
        2,
    ]
    .into_iter()
    .try_fold(taps.unwrap_or(u128::MAX), |a, n| a.checked_mul(n))
    .and_then(|flops| u64::try_from(flops).ok())
    .ok_or_else(|| past_u64(op, "its FLOPs"))
}

/// Each spatial dim's window; `None` where an attribute is unreadable or its length is off
/// (the verifier reports those).
fn window_dims(
    op: &OpNode,
    dn: &ConvDimensionNumbers,
    input: &TensorType,
    kernel: &TensorType,
    result: &TensorType,
) -> Option<Vec<WindowDim>> {
    let ns = dn.input_spatial_dimensions.len();
    let read = |name: &str, default: i64| -> Option<Vec<i64>> {
        ints_attr(op, name).ok()?.or_fill(ns, default).filter(|v| v.len() == ns)
    };
    let (strides, lhs, rhs) = (read("window_strides", 1)?, read("lhs_dilation", 1)?, read("rhs_dilation", 1)?);
    let padding = ints_attr(op, "padding").ok()?.or_fill(2 * ns, 0).filter(|v| v.len() == 2 * ns)?;
    if dn.kernel_spatial_dimensions.len() != ns || dn.output_spatial_dimensions.len() != ns {
        return None;
    }
    let at = |t: &TensorType, d: i64| t.shape.get(d as usize).copied();
    (0..ns)
        .map(|k| {
            Some(WindowDim {
                input: at(input, dn.input_spatial_dimensions[k])?,
                window: at(kernel, dn.kernel_spatial_dimensions[k])?,
                output: at(result, dn.output_spatial_dimensions[k])?,
                stride: strides[k],
                padding_low: padding[2 * k],
                lhs_dilation: lhs[k],
                rhs_dilation: rhs[k],
            })
        })
        .collect()
}

/// Ops in a reduction body (at least one: an empty body still combines).
fn body_ops(region: Option<&Region>) -> u64 {
    let n: usize = region.map_or(0, |r| r.blocks.iter().map(|b| b.ops.len()).sum());
    n.max(1) as u64
}

/// Elements of the window: `None` without `window_dimensions`, `Some(None)` past u64.
fn window_elements(op: &OpNode) -> Option<Option<u64>> {
    let w = op.attr("window_dimensions")?.as_i64_array()?;
    Some(w.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d.max(0) as u64)))
}

fn ceil_log2(n: u64) -> u64 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros() as u64
    }
}

/// Batch count times `per(rows, cols)` for the trailing matrix of `t`; `None` past u64.
fn matrix_flops(t: Option<&TensorType>, per: impl Fn(u64, u64) -> Option<u64>) -> Option<u64> {
    let Some(t) = t else { return Some(0) };
    if t.rank() < 2 {
        return Some(0);
    }
    let rows = t.shape[t.rank() - 2].max(0) as u64;
    let cols = t.shape[t.rank() - 1].max(0) as u64;
    let batch = t.checked_elements()? / rows.checked_mul(cols)?.max(1);
    batch.checked_mul(per(rows, cols)?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::cloned_ref_to_slice_refs)]
    use super::*;
    use crate::ir::graph::ValueRef;
    use crate::ir::op_table::test_util::*;
    use crate::ir::types::ValueType;

    fn cost(op: &OpNode, operands: &[&TensorType]) -> OpCost {
        let operands: Vec<Option<&TensorType>> = operands.iter().map(|t| Some(*t)).collect();
        op_cost(op, &operands).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn matmul_flops_and_bytes() {
        let o = dot_general("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[32, 512]);
        let c = cost(&o, &[&f32t(&[32, 256]), &f32t(&[256, 512])]);
        assert_eq!(c.flops, 2 * 32 * 256 * 512);
        assert_eq!(c.flops, 8_388_608);
        assert_eq!(c.bytes_read, (32 * 256 + 256 * 512) * 4);
        assert_eq!(c.bytes_written, 32 * 512 * 4);
        assert_eq!(c.transcendentals, 0);
        assert!(c.known);
    }

    #[test]
    fn batched_dot_flops() {
        // [4, 8, 16] x [4, 16, 32] -> [4, 8, 32]: 2 * 4 * 8 * 32 * 16.
        let o = dot_general(
            "dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
             lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>",
            &[4, 8, 32],
        );
        assert_eq!(cost(&o, &[&f32t(&[4, 8, 16]), &f32t(&[4, 16, 32])]).flops, 32_768);
        // Two contracting dims: [6, 3, 5] x [5, 3, 7] -> [6, 7]: 2 * 6 * 7 * 15.
        let o = dot_general("dot<lhs_contracting_dimensions = [1, 2], rhs_contracting_dimensions = [1, 0]>", &[6, 7]);
        assert_eq!(cost(&o, &[&f32t(&[6, 3, 5]), &f32t(&[5, 3, 7])]).flops, 1260);
        // Legacy dot, matrix x vector.
        let o = op("stablehlo.dot", &[f32t(&[8])], &[]);
        assert_eq!(cost(&o, &[&f32t(&[8, 4]), &f32t(&[4])]).flops, 64);
    }

    #[test]
    fn conv_flops_by_hand() {
        // 3x3, 16 -> 64 channels, SAME (padding 1), batch 8 at 32x32: per dim 32 * 3 taps of
        // which 2 read padding, so 94 * 94 of the 32*32 * 3*3 position pairs, times 16 input
        // features, for each of 8 * 64 output rows.
        let same = [("padding", ints(&[1, 1, 1, 1]))];
        let c = cost(&conv_nhwc(&[8, 32, 32, 64], &same), &[&f32t(&[8, 32, 32, 16]), &f32t(&[3, 3, 16, 64])]);
        assert_eq!(c.flops, 2 * 8 * 64 * 16 * 94 * 94);
        // Without readable padding every tap counts: 524288 output elements, 3*3*16 MACs each.
        let unreadable = [("padding", crate::ir::graph::Attr::Other("dense<...>".into()))];
        let c = cost(&conv_nhwc(&[8, 32, 32, 64], &unreadable), &[&f32t(&[8, 32, 32, 16]), &f32t(&[3, 3, 16, 64])]);
        assert_eq!(c.flops, 2 * 524_288 * 144);
        // Stride 2, VALID 7x7 from 3 channels: out [2, 13, 13, 8] = 2704 elements, 7*7*3 = 147 MACs each.
        let o = conv_nhwc(&[2, 13, 13, 8], &[("window_strides", ints(&[2, 2]))]);
        assert_eq!(cost(&o, &[&f32t(&[2, 32, 32, 3]), &f32t(&[7, 7, 3, 8])]).flops, 2 * 2704 * 147);
    }

    #[test]
    fn conv_input_gradient_costs_what_the_forward_convolution_does() {
        // Forward: 16x16 -> 8x8, 3x3 window, stride 2, SAME padding (0, 1), 32 -> 64 features.
        // Per dim 23 of the 8 * 3 taps read the input (the last output's last tap is padding).
        let forward = conv_nhwc(&[4, 8, 8, 64], &[("window_strides", ints(&[2, 2])), ("padding", ints(&[0, 1, 0, 1]))]);
        let forward = cost(&forward, &[&f32t(&[4, 16, 16, 32]), &f32t(&[3, 3, 32, 64])]).flops;
        assert_eq!(forward, 2 * 4 * 64 * 32 * 23 * 23);
        // Its input gradient as JAX writes it: the 8x8 output gradient dilated by the stride,
        // padded (window - 1 - low, 1) = (2, 1), a 3x3 window, 64 -> 32 features, 16x16 results.
        // 3 of 4 dense taps fall on dilation holes; the ones left are the forward's.
        let gradient =
            conv_nhwc(&[4, 16, 16, 32], &[("lhs_dilation", ints(&[2, 2])), ("padding", ints(&[2, 1, 2, 1]))]);
        let gradient = cost(&gradient, &[&f32t(&[4, 8, 8, 64]), &f32t(&[3, 3, 64, 32])]).flops;
        assert_eq!(gradient, forward);
        let dense = 2 * 4 * 16 * 16 * 32 * 9 * 64;
        assert!(gradient * 4 < dense + dense / 10 && gradient * 4 > dense - dense / 10);
    }

    #[test]
    fn grouped_conv_flops() {
        // Depthwise (16 groups, multiplier 2): out [8, 32, 32, 32] = 262144 elements, 3*3*1 MACs.
        // SAME padding: per dim 94 of the 32 * 3 taps read the input.
        let attrs = [("feature_group_count", crate::ir::graph::Attr::Int(16)), ("padding", ints(&[1, 1, 1, 1]))];
        let c = cost(&conv_nhwc(&[8, 32, 32, 32], &attrs), &[&f32t(&[8, 32, 32, 16]), &f32t(&[3, 3, 1, 32])]);
        assert_eq!(c.flops, 2 * 8 * 32 * 94 * 94);
        // Batch-grouped (a depthwise filter gradient): out [3, 3, 1, 16] = 144 elements, each a
        // sum over 8 images x 30 x 30 positions = 7200 MACs.
        let o = op(
            "stablehlo.convolution",
            &[f32t(&[3, 3, 1, 16])],
            &[
                ("dimension_numbers", opaque("conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>")),
                ("batch_group_count", crate::ir::graph::Attr::Int(16)),
            ],
        );
        assert_eq!(cost(&o, &[&f32t(&[8, 32, 32, 16]), &f32t(&[8, 30, 30, 16])]).flops, 2 * 144 * 7200);
    }

    #[test]
    fn elementwise_and_transcendental_counts() {
        let t = f32t(&[8, 16]);
        let c = cost(&op("stablehlo.add", &[t.clone()], &[]), &[&t, &t]);
        assert_eq!((c.flops, c.transcendentals), (128, 0));
        assert_eq!(c.bytes_read, 2 * 128 * 4);
        let c = cost(&op("stablehlo.exponential", &[t.clone()], &[]), &[&t]);
        assert_eq!((c.flops, c.transcendentals), (128, 128));
        let c = cost(&op("chlo.erf", &[t.clone()], &[]), &[&t]);
        assert_eq!(c.transcendentals, 128);
        let s = f32t(&[]);
        assert_eq!(cost(&op("stablehlo.clamp", &[t.clone()], &[]), &[&s, &t, &s]).flops, 256);
        let h = typed(&[8, 16], "bf16");
        let c = cost(&op("stablehlo.convert", &[h.clone()], &[]), &[&t]);
        assert_eq!((c.bytes_read, c.bytes_written), (512, 256));
        let b = typed(&[8, 16], "i1");
        let c = cost(
            &op("stablehlo.compare", &[b], &[("comparison_direction", opaque("<comparison_direction GT>"))]),
            &[&t, &t],
        );
        assert_eq!((c.flops, c.bytes_written), (128, 128));
    }

    #[test]
    fn reductions_count_body_ops() {
        let mut o = op("stablehlo.reduce", &[f32t(&[4, 16])], &[("dimensions", ints(&[1]))]);
        o.regions.push(add_body());
        assert_eq!(cost(&o, &[&f32t(&[4, 8, 16]), &f32t(&[])]).flops, 512);
        // Max pool 3x3 stride 2: 8*16*16*64 = 131072 outputs, 9 elements each.
        let mut o = op(
            "stablehlo.reduce_window",
            &[f32t(&[8, 16, 16, 64])],
            &[("window_dimensions", ints(&[1, 3, 3, 1])), ("window_strides", ints(&[1, 2, 2, 1]))],
        );
        o.regions.push(add_body());
        assert_eq!(cost(&o, &[&f32t(&[8, 32, 32, 64]), &f32t(&[])]).flops, 131_072 * 9);
        // Sort of 4 rows of 10 with a one-op comparator: 40 * ceil(log2 10) = 160.
        let mut o = op("stablehlo.sort", &[f32t(&[4, 10])], &[("dimension", crate::ir::graph::Attr::Int(1))]);
        o.regions.push(add_body());
        assert_eq!(cost(&o, &[&f32t(&[4, 10])]).flops, 160);
        // Embedding-gradient scatter-add: one add per update element.
        let mut o = op(
            "stablehlo.scatter",
            &[f32t(&[100, 8])],
            &[(
                "scatter_dimension_numbers",
                opaque("scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>"),
            )],
        );
        o.regions.push(add_body());
        assert_eq!(cost(&o, &[&f32t(&[100, 8]), &typed(&[5, 1], "i32"), &f32t(&[5, 8])]).flops, 40);
    }

    #[test]
    fn batch_norm_and_data_movement() {
        let x = f32t(&[8, 64]);
        let v = f32t(&[64]);
        let o = op(
            "stablehlo.batch_norm_training",
            &[x.clone(), v.clone(), v.clone()],
            &[("epsilon", crate::ir::graph::Attr::Float(1e-5)), ("feature_index", crate::ir::graph::Attr::Int(1))],
        );
        let c = cost(&o, &[&x, &v, &v]);
        assert_eq!((c.flops, c.transcendentals), (7 * 512 + 64, 64));
        assert_eq!(c.bytes_written, (512 + 64 + 64) * 4);
        let c = cost(&op("stablehlo.reshape", &[f32t(&[512])], &[]), &[&x]);
        assert_eq!((c.flops, c.bytes_read, c.bytes_written), (0, 2048, 2048));
        let c = cost(&op("stablehlo.transpose", &[f32t(&[64, 8])], &[("permutation", ints(&[1, 0]))]), &[&x]);
        assert_eq!(c.flops, 0);
        let c = cost(&op("stablehlo.constant", &[x.clone()], &[]), &[]);
        assert_eq!((c.flops, c.bytes_read, c.bytes_written), (0, 0, 2048));
    }

    #[test]
    fn while_counts_condition_and_body_once() {
        let i = typed(&[], "i32");
        let x = f32t(&[4, 8]);
        let b = typed(&[], "i1");
        let cond_op = OpNode {
            operands: vec![ValueRef::Arg(0), ValueRef::Arg(0)],
            ..op("stablehlo.compare", &[b], &[("comparison_direction", opaque("<comparison_direction LT>"))])
        };
        let body_op = OpNode {
            operands: vec![ValueRef::Arg(1), ValueRef::Arg(1)],
            ..op("stablehlo.multiply", &[x.clone()], &[])
        };
        let args = vec![ValueType::Tensor(i.clone()), ValueType::Tensor(x.clone())];
        let region = |ops| Region { blocks: vec![Block { args: args.clone(), ops, terminator: None }] };
        let mut w = op("stablehlo.while", &[i.clone(), x.clone()], &[]);
        w.regions = vec![region(vec![cond_op]), region(vec![body_op])];
        let c = cost(&w, &[&i, &x]);
        assert_eq!(c.flops, 1 + 32);
        assert!(c.known);
        assert_eq!(c.bytes_read, (4 + 128) + 8 + 2 * 128);
        // An unknown op inside makes the whole count a guess.
        w.regions[1].blocks[0].ops.push(op("foo.bar", &[x.clone()], &[]));
        assert!(!cost(&w, &[&i, &x]).known);
    }

    #[test]
    fn a_counted_while_costs_its_body_times_its_trips() {
        // for (i = 0; i < 5; i += 1) x = x * x
        let i = typed(&[], "i32");
        let x = f32t(&[4, 8]);
        let int = |value| Attr::IntScalar { ty: i.clone(), value };
        let scalar = |value| op("stablehlo.constant", &[i.clone()], &[("value", int(value))]);
        let r = |op| ValueRef::Op { op, result: 0 };
        let cond_ops = vec![
            scalar(5),
            OpNode {
                operands: vec![ValueRef::Arg(0), r(0)],
                ..op(
                    "stablehlo.compare",
                    &[typed(&[], "i1")],
                    &[("comparison_direction", opaque("<comparison_direction LT>"))],
                )
            },
        ];
        let body_ops = vec![
            scalar(1),
            OpNode { operands: vec![ValueRef::Arg(0), r(0)], ..op("stablehlo.add", &[i.clone()], &[]) },
            OpNode {
                operands: vec![ValueRef::Arg(1), ValueRef::Arg(1)],
                ..op("stablehlo.multiply", &[x.clone()], &[])
            },
        ];
        let args = vec![ValueType::Tensor(i.clone()), ValueType::Tensor(x.clone())];
        let ret = |operands| Some(OpNode { operands, ..op("stablehlo.return", &[], &[]) });
        let cond = Block { args: args.clone(), ops: cond_ops, terminator: ret(vec![r(1)]) };
        let body = Block { args: args.clone(), ops: body_ops, terminator: ret(vec![r(1), r(2)]) };
        let mut w =
            OpNode { operands: vec![r(0), ValueRef::Arg(0)], ..op("stablehlo.while", &[i.clone(), x.clone()], &[]) };
        w.regions = vec![Region { blocks: vec![cond] }, Region { blocks: vec![body] }];
        let outer = Block { args: vec![ValueType::Tensor(x.clone())], ops: vec![scalar(0), w], terminator: None };
        let counted = op_cost_in_block(&outer, 1).unwrap();
        // body: 1 (add) + 32 (multiply) per trip; condition: 1 (compare) per test
        assert_eq!(counted.flops, 5 * 33 + 6);
        // without the initial value the body counts once
        let once = op_cost(&outer.ops[1], &[Some(&i), Some(&x)]).unwrap();
        assert_eq!(once.flops, 33 + 1);
        // a block sums its loops' trips
        assert_eq!(block_cost(&outer).unwrap().flops, counted.flops);
    }

    #[test]
    fn case_counts_the_most_expensive_branch() {
        let x = f32t(&[4, 8]);
        let branch = |name: &str| Region {
            blocks: vec![Block {
                args: vec![],
                ops: vec![OpNode { operands: vec![ValueRef::Outer], ..op(name, &[x.clone()], &[]) }],
                terminator: None,
            }],
        };
        let mut c = op("stablehlo.case", &[x.clone()], &[]);
        c.regions = vec![branch("stablehlo.negate"), branch("stablehlo.clamp")];
        assert_eq!(cost(&c, &[&typed(&[], "i32")]).flops, 64);
    }

    #[test]
    fn unknown_ops_are_costed_per_result_element() {
        let x = f32t(&[4, 8]);
        let c = cost(
            &op(
                "stablehlo.custom_call",
                &[x.clone()],
                &[("call_target_name", crate::ir::graph::Attr::Str("lapack_sgetrf".into()))],
            ),
            &[&x],
        );
        assert_eq!((c.flops, c.known), (32, false));
        let c = cost(&op("mystery.op", &[x.clone()], &[]), &[&x]);
        assert!(!c.known);
    }

    #[test]
    fn malformed_attributes_are_errors_not_panics() {
        let o = dot_general("dot<lhs_contracting_dimensions = [1]", &[32, 512]);
        let e = op_cost(&o, &[Some(&f32t(&[32, 256])), Some(&f32t(&[256, 512]))]).unwrap_err();
        assert!(e.to_string().contains("dot_dimension_numbers"), "{e}");
        // A missing operand type is not an error: the count is then a guess.
        let o = dot_general("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[32, 512]);
        let c = op_cost(&o, &[None, Some(&f32t(&[256, 512]))]).unwrap();
        assert!(!c.known);
    }

    #[test]
    fn counts_past_u64_are_errors_not_saturated() {
        let past = |o: &OpNode, operands: &[&TensorType]| {
            let operands: Vec<Option<&TensorType>> = operands.iter().map(|t| Some(*t)).collect();
            op_cost(o, &operands).unwrap_err().to_string()
        };
        // 2 * 2^63 FLOPs.
        let big = f32t(&[1 << 21, 1 << 21]);
        let o =
            dot_general("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[1 << 21, 1 << 21]);
        assert!(past(&o, &[&big, &big]).contains("its FLOPs pass 2^64"));
        // 2^61 f32 elements are 2^63 bytes, exactly (their bits, 2^66, pass u64).
        let t = f32t(&[1 << 61]);
        let c = cost(&op("stablehlo.negate", &[t.clone()], &[]), &[&t]);
        assert_eq!((c.bytes_read, c.bytes_written, c.flops), (1 << 63, 1 << 63, 1 << 61));
        // Two such operands read 2^64 bytes.
        assert!(past(&op("stablehlo.add", &[t.clone()], &[]), &[&t, &t]).contains("its operands' bytes pass 2^64"));
        // A reduce_window whose window has 2^64 elements.
        let mut o = op(
            "stablehlo.reduce_window",
            &[f32t(&[1, 1])],
            &[
                ("window_dimensions", ints(&[1 << 32, 1 << 32])),
                ("padding", ints(&[0, (1 << 32) - 1, 0, (1 << 32) - 1])),
            ],
        );
        o.regions.push(add_body());
        assert!(past(&o, &[&f32t(&[1, 1]), &f32t(&[])]).contains("its FLOPs pass 2^64"));
        // Sums and multiples are checked.
        let half = OpCost { flops: 1 << 63, known: true, ..OpCost::default() };
        assert_eq!(half.checked_add(half), None);
        assert_eq!(half.checked_times(2), None);
        assert_eq!(half.checked_times(1), Some(half));
    }

    #[test]
    fn tuple_operands_cost_their_elements_bytes_and_tokens_none() {
        let x = f32t(&[4, 8]);
        let tuple = ValueType::Tuple(vec![ValueType::Tensor(x.clone()), ValueType::Tensor(f32t(&[2]))]);
        let get =
            OpNode { operands: vec![ValueRef::Arg(0), ValueRef::Arg(1)], ..op("test.consume", &[x.clone()], &[]) };
        let block = Block { args: vec![tuple, ValueType::Token], ops: vec![get], terminator: None };
        let c = op_cost_in_block(&block, 0).unwrap();
        assert_eq!((c.bytes_read, c.bytes_written), (128 + 8, 128));
    }

    #[test]
    fn block_cost_sums_ops() {
        let x = f32t(&[4, 8]);
        let a = OpNode { operands: vec![ValueRef::Arg(0), ValueRef::Arg(0)], ..op("stablehlo.add", &[x.clone()], &[]) };
        let t = OpNode { operands: vec![ValueRef::Op { op: 0, result: 0 }], ..op("stablehlo.tanh", &[x.clone()], &[]) };
        let block = Block { args: vec![ValueType::Tensor(x.clone())], ops: vec![a, t], terminator: None };
        let c = block_cost(&block).unwrap();
        assert_eq!((c.flops, c.transcendentals, c.bytes_read), (64, 32, 3 * 128));
    }
}
