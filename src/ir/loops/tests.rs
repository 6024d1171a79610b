use super::unroll::{unroll_plan, Copy, UnrollError};
use super::*;
use crate::ir::graph::{Attr, Region};
use crate::ir::op_table::test_util::{f32t, ints, op, opaque, typed};
use crate::ir::types::{TensorType, ValueType};

fn i32s() -> TensorType {
    typed(&[], "i32")
}

fn constant(value: i64) -> OpNode {
    op("stablehlo.constant", &[i32s()], &[("value", Attr::IntScalar { ty: i32s(), value })])
}

fn with(node: OpNode, operands: &[ValueRef]) -> OpNode {
    OpNode { operands: operands.to_vec(), ..node }
}

fn compare(direction: &str, a: ValueRef, b: ValueRef) -> OpNode {
    let dir = opaque(&format!("<comparison_direction {direction}>"));
    with(op("stablehlo.compare", &[typed(&[], "i1")], &[("comparison_direction", dir)]), &[a, b])
}

fn r(op: usize) -> ValueRef {
    ValueRef::Op { op, result: 0 }
}

fn block(args: &[TensorType], ops: Vec<OpNode>, returned: Vec<ValueRef>) -> Block {
    Block {
        args: args.iter().cloned().map(ValueType::Tensor).collect(),
        ops,
        terminator: Some(with(op("stablehlo.return", &[], &[]), &returned)),
    }
}

/// `outer`: %0 = 0, %1 = while(%0, arg0 [stacked 3x4], arg1 [4]) with the condition `cond` and
/// a body that reads row `index(i)` of the stack and adds it to the carry (JAX's scan).
pub(crate) fn scan(cond: Vec<OpNode>, init: i64, index: Vec<OpNode>) -> Block {
    let carried = [i32s(), f32t(&[3, 4]), f32t(&[4])];
    let cond = block(&carried, cond, vec![r(1)]);
    let mut body = vec![constant(1), with(op("stablehlo.add", &[i32s()], &[]), &[ValueRef::Arg(0), r(0)])];
    body.extend(index);
    let idx = r(body.len() - 1);
    body.push(constant(0));
    let zero = r(body.len() - 1);
    let slice_sizes = ("slice_sizes", ints(&[1, 4]));
    body.push(with(op("stablehlo.dynamic_slice", &[f32t(&[1, 4])], &[slice_sizes]), &[ValueRef::Arg(1), idx, zero]));
    body.push(with(op("stablehlo.reshape", &[f32t(&[4])], &[]), &[r(body.len() - 1)]));
    body.push(with(op("stablehlo.add", &[f32t(&[4])], &[]), &[ValueRef::Arg(2), r(body.len() - 1)]));
    let body = block(&carried, body.clone(), vec![r(1), ValueRef::Arg(1), r(body.len() - 1)]);
    let mut w = with(op("stablehlo.while", &carried, &[]), &[r(0), ValueRef::Arg(0), ValueRef::Arg(1)]);
    w.regions = vec![Region { blocks: vec![cond] }, Region { blocks: vec![body] }];
    block(&[f32t(&[3, 4]), f32t(&[4])], vec![constant(init), w], vec![ValueRef::Op { op: 1, result: 2 }])
}

pub(crate) fn lt_three() -> Vec<OpNode> {
    vec![constant(3), compare("LT", ValueRef::Arg(0), r(0))]
}

/// JAX's index normalisation: `i < 0 ? i + 3 : i` (ends at index 5 of the body).
fn normalised() -> Vec<OpNode> {
    vec![
        constant(0),
        compare("LT", ValueRef::Arg(0), r(2)),
        constant(3),
        with(op("stablehlo.add", &[i32s()], &[]), &[ValueRef::Arg(0), r(4)]),
        with(op("stablehlo.select", &[i32s()], &[]), &[r(3), r(5), ValueRef::Arg(0)]),
    ]
}

#[test]
fn a_scan_counts_its_trips() {
    let outer = scan(lt_three(), 0, vec![]);
    let counted = counted_loop(&outer.ops[1], &outer).unwrap();
    assert_eq!(counted, CountedLoop { counter: 0, init: 0, step: 1, trips: 3 });
    // from 1: two trips; from 5: none
    assert_eq!(counted_loop(&scan(lt_three(), 1, vec![]).ops[1], &scan(lt_three(), 1, vec![])).unwrap().trips, 2);
    let late = scan(lt_three(), 5, vec![]);
    assert_eq!(counted_loop(&late.ops[1], &late).unwrap().trips, 0);
    // `3 > i` is the same loop, `i <= 3` one trip more
    let mirrored = scan(vec![constant(3), compare("GT", r(0), ValueRef::Arg(0))], 0, vec![]);
    assert_eq!(counted_loop(&mirrored.ops[1], &mirrored).unwrap().trips, 3);
    let le = scan(vec![constant(3), compare("LE", ValueRef::Arg(0), r(0))], 0, vec![]);
    assert_eq!(counted_loop(&le.ops[1], &le).unwrap().trips, 4);
}

#[test]
fn a_bound_that_is_not_constant_is_dynamic() {
    // compared against a value captured from outside the loop
    let outer = scan(vec![constant(3), compare("LT", ValueRef::Arg(0), ValueRef::Outer)], 0, vec![]);
    let e = counted_loop(&outer.ops[1], &outer).unwrap_err();
    assert!(matches!(e, LoopError::Dynamic(_)), "{e}");
    // a counter that never reaches its bound
    let outer = scan(vec![constant(3), compare("GT", ValueRef::Arg(0), r(0))], 5, vec![]);
    let e = counted_loop(&outer.ops[1], &outer).unwrap_err();
    assert!(e.to_string().contains("never ends"), "{e}");
    // compared against a carried value the body changes
    let outer = scan(vec![constant(3), compare("LT", ValueRef::Arg(0), ValueRef::Arg(2))], 0, vec![]);
    assert!(matches!(counted_loop(&outer.ops[1], &outer), Err(LoopError::Dynamic(_))));
}

#[test]
fn a_body_of_two_blocks_is_a_structure_error() {
    let mut outer = scan(lt_three(), 0, vec![]);
    let extra = outer.ops[1].regions[1].blocks[0].clone();
    outer.ops[1].regions[1].blocks.push(extra);
    assert!(matches!(counted_loop(&outer.ops[1], &outer), Err(LoopError::Structure(_))));
}

#[test]
fn unrolling_folds_the_counter_and_makes_the_slices_static() {
    let outer = scan(lt_three(), 0, normalised());
    let plan = unroll_plan(&outer, 1, 1000).unwrap();
    assert_eq!(plan.counter_values, vec![0, 1, 2]);
    for (t, copy) in plan.copies.iter().enumerate() {
        let t = t as i64;
        // the counter's increment and the index arithmetic fold; constants stay
        assert_eq!(copy[0], Copy::Clone);
        assert_eq!(copy[1], Copy::Constant(t + 1));
        assert_eq!(copy[3], Copy::Constant(0));
        assert_eq!(copy[5], Copy::Constant(t + 3));
        assert_eq!(copy[6], Copy::Constant(t));
        assert_eq!(copy[8], Copy::Slice { start: vec![t, 0], limit: vec![t + 1, 4] });
        assert_eq!(copy[9..], [Copy::Clone, Copy::Clone]);
    }
    assert_eq!(plan.ops, 3 * 11);
}

#[test]
fn a_slice_start_past_the_end_is_clamped_like_dynamic_slice() {
    // index i + 3 (the `add` of `normalised`, unselected): 3, 4, 5 clamp to row 2
    let mut index = normalised();
    index.pop();
    let outer = scan(lt_three(), 0, index);
    let plan = unroll_plan(&outer, 1, 1000).unwrap();
    assert!(plan.copies.iter().all(|c| c[7] == Copy::Slice { start: vec![2, 0], limit: vec![3, 4] }));
}

#[test]
fn the_size_guard_refuses_large_unrollings() {
    let outer = scan(lt_three(), 0, vec![]);
    let e = unroll_plan(&outer, 1, 10).unwrap_err();
    assert_eq!(e, UnrollError::TooLarge { trips: 3, body_ops: 6, max_ops: 10 });
    assert!(e.to_string().contains("18 ops (3 trips x 6 body ops), over max-ops=10"), "{e}");
}
