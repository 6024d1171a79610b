//! Numbers computed from constants: a mean's divisor written as the product of a shape (Keras'
//! `prod(shape(values))`), converted and guarded against zero (`where(n == 0, 1, n)`), or a scale
//! `1 / sqrt(d)`. They are folded where the ops on the way are arithmetic this module knows;
//! where they are not, a tensor computed from constants whose elements are one number (a scalar)
//! is still known to be such a number, which a caller must not mistake for a value independent
//! of the batch size: it may be that size.

use super::attr_text::ComparisonDirection;
use super::constant_values::constant_ops;
use super::graph::{Attr, Block, Graph, OpNode, ValueRef};
use super::op_table::{canonical_name, elementwise_info, opaque_text};
use super::types::{ElementType, ValueType};

#[derive(Clone, Debug, PartialEq)]
pub enum Folded {
    /// Every element is this number (booleans 0 and 1).
    Uniform(f64),
    /// The elements of a small tensor (a shape), row-major, not all one number.
    Listed(Vec<f64>),
    /// Every element is one number (a scalar computed from constants) not folded here.
    UniformUnfolded,
    /// The elements of a tensor whose order is not kept (a listed tensor broadcast or
    /// transposed): each of `values` `times` times. What a reduction over every dimension
    /// gives (`sum(mask)` of a position mask broadcast over the batch) needs no more.
    Repeated { values: Vec<f64>, times: f64 },
}

/// Per op of the entry body: what is known of its result when it is computed from constants
/// only; `None` when it is not, or when its elements may differ and are not listed (an iota
/// larger than `IOTA_LISTED`, a large constant), or the op has several results.
pub fn folded_constants(graph: &Graph) -> Vec<Option<Folded>> {
    let constant = constant_ops(graph);
    let mut folded: Vec<Option<Folded>> = Vec::with_capacity(graph.ops().len());
    for (index, op) in graph.ops().iter().enumerate() {
        let value = if constant[index] && op.results.len() == 1 {
            let operands: Vec<Option<&Folded>> = op
                .operands
                .iter()
                .map(|v| match *v {
                    ValueRef::Op { op, result: 0 } => folded.get(op).and_then(Option::as_ref),
                    _ => None,
                })
                .collect();
            let one_number = op.results[0].tensor().is_some_and(|t| t.checked_elements() == Some(1));
            fold(graph, op, &operands).or_else(|| one_number.then_some(Folded::UniformUnfolded))
        } else {
            None
        };
        folded.push(value);
    }
    folded
}

/// The elements of an operand for elementwise arithmetic: one number for all, or a list.
enum Elements<'a> {
    All(f64),
    Each(&'a [f64]),
}

fn fold(graph: &Graph, op: &OpNode, operands: &[Option<&Folded>]) -> Option<Folded> {
    let name = canonical_name(&op.name);
    match name.as_str() {
        "constant" => match op.attr("value")? {
            attr @ (Attr::IntScalar { .. } | Attr::FloatScalar { .. }) => attr.uniform_value().map(Folded::Uniform),
            Attr::Elements { values: Some(values), .. } => Some(from_elements(values.clone())),
            Attr::Elements { splat: true, values: None, .. } => Some(Folded::UniformUnfolded),
            _ => None,
        },
        "reshape" | "copy" => operands.first().copied().flatten().cloned(),
        "iota" => iota(op),
        "broadcast_in_dim" => broadcast(graph, op, operands.first().copied().flatten()?),
        "transpose" | "reverse" => match operands.first().copied().flatten()? {
            Folded::Listed(values) => Some(Folded::Repeated { values: values.clone(), times: 1.0 }),
            kept => Some(kept.clone()),
        },
        "slice" if matches!(operands.first(), Some(Some(Folded::Listed(_)))) => {
            let Some(Folded::Listed(values)) = operands[0] else { return None };
            sliced(graph, op, values)
        }
        // Picking elements of one number keeps that number.
        "slice" | "dynamic_slice" => match operands.first().copied().flatten()? {
            uniform @ (Folded::Uniform(_) | Folded::UniformUnfolded) => Some(uniform.clone()),
            _ => None,
        },
        "concatenate" | "pad" => {
            let first = operands.first().copied().flatten()?;
            (matches!(first, Folded::Uniform(_)) && operands.iter().all(|o| *o == Some(first))).then(|| first.clone())
        }
        "reduce" if operands.len() == 2 => reduced(graph, op, operands[0]?, operands[1]?),
        "select" => match operands.first().copied().flatten()? {
            Folded::Uniform(p) => operands.get(if *p != 0.0 { 1 } else { 2 }).copied().flatten().cloned(),
            _ => elementwise(op, &name, operands),
        },
        n if elementwise_info(n).is_some() || n == "chlo.square" => elementwise(op, n, operands),
        _ => None,
    }
}

/// The most elements of an iota listed: the positions a counted loop's iterations index by
/// (`lax.scan` over `jnp.arange(k)`), not a table of positions the size of the data.
const IOTA_LISTED: i64 = 4096;

/// A small iota's elements, row-major: each its position along the iota's dimension.
fn iota(op: &OpNode) -> Option<Folded> {
    let shape = &op.results.first()?.tensor()?.shape;
    let dim = usize::try_from(op.attr("iota_dimension")?.as_int()?).ok()?;
    let count: i64 = shape.iter().product();
    if !(0..=IOTA_LISTED).contains(&count) || dim >= shape.len() {
        return None;
    }
    let (size, inner): (i64, i64) = (shape[dim], shape[dim + 1..].iter().product());
    Some(from_elements((0..count).map(|i| ((i / inner) % size) as f64).collect()))
}

/// A slice of listed elements (strides included), row-major.
fn sliced(graph: &Graph, op: &OpNode, values: &[f64]) -> Option<Folded> {
    let shape = &graph.value_type(*op.operands.first()?)?.tensor()?.shape;
    let (start, limit, strides) = op.slice_indices()?;
    if [start.len(), limit.len(), strides.len()].iter().any(|&n| n != shape.len())
        || values.len() as i64 != shape.iter().product::<i64>()
        || strides.iter().any(|&s| s < 1)
        || start.iter().any(|&s| s < 0)
    {
        return None;
    }
    let mut index: Vec<Vec<i64>> = vec![vec![]];
    for d in 0..shape.len() {
        let along: Vec<i64> = (start[d]..limit[d].min(shape[d])).step_by(strides[d] as usize).collect();
        index = index
            .into_iter()
            .flat_map(|prefix| along.iter().map(move |&i| [prefix.clone(), vec![i]].concat()))
            .collect();
    }
    let flat = |at: &[i64]| at.iter().zip(shape).fold(0i64, |acc, (&i, &n)| acc * n + i) as usize;
    Some(from_elements(index.iter().map(|at| values[flat(at)]).collect()))
}

/// A broadcast keeps one number; it keeps listed elements in their order where it only adds
/// dimensions of size 1 in order, and repeats them otherwise.
fn broadcast(graph: &Graph, op: &OpNode, operand: &Folded) -> Option<Folded> {
    let count = |t: Option<&ValueType>| t.and_then(ValueType::tensor).and_then(|t| t.checked_elements());
    let (from, to) = (count(graph.value_type(*op.operands.first()?))?, count(op.results.first())?);
    let in_order = op.attr("broadcast_dimensions").and_then(|a| a.as_i64_array()).is_some_and(|d| d.is_sorted());
    let times = |n: f64| n * to as f64 / from as f64;
    match operand {
        Folded::Uniform(_) | Folded::UniformUnfolded => Some(operand.clone()),
        _ if from == 0 || to % from != 0 => None,
        Folded::Listed(values) if from == to && in_order => Some(Folded::Listed(values.clone())),
        Folded::Listed(values) => Some(Folded::Repeated { values: values.clone(), times: times(1.0) }),
        Folded::Repeated { values, times: n } => Some(Folded::Repeated { values: values.clone(), times: times(*n) }),
    }
}

fn from_elements(values: Vec<f64>) -> Folded {
    match values.split_first() {
        Some((&first, rest)) if rest.iter().all(|&v| v == first) => Folded::Uniform(first),
        _ => Folded::Listed(values),
    }
}

/// An elementwise op on folded operands, element by element; operands of one number that is
/// not folded make one such number, other unfolded operands nothing.
fn elementwise(op: &OpNode, name: &str, operands: &[Option<&Folded>]) -> Option<Folded> {
    let mut elements = Vec::with_capacity(operands.len());
    let mut length = None;
    // How many times the elements repeat, their order lost (`Folded::Repeated`).
    let mut repeats = None;
    for operand in operands {
        let (values, operand_repeats) = match operand {
            Some(Folded::Uniform(v)) => {
                elements.push(Elements::All(*v));
                continue;
            }
            Some(Folded::Listed(values)) => (values, None),
            Some(Folded::Repeated { values, times }) => (values, Some(*times)),
            Some(Folded::UniformUnfolded)
                if operands.iter().all(|o| matches!(o, Some(Folded::Uniform(_) | Folded::UniformUnfolded))) =>
            {
                return Some(Folded::UniformUnfolded);
            }
            _ => return None,
        };
        // Repeated elements, in an order not known, pair with no other operand of several numbers.
        if length.is_some() && (length != Some(values.len()) || repeats.is_some() || operand_repeats.is_some()) {
            return None;
        }
        repeats = operand_repeats;
        length = Some(values.len());
        elements.push(Elements::Each(values));
    }
    let result = op.results.first().and_then(ValueType::tensor).map(|t| &t.element);
    let direction =
        op.attr("comparison_direction").and_then(opaque_text).and_then(|t| ComparisonDirection::parse(t).ok());
    let at = |i: usize| -> Option<f64> {
        let numbers: Vec<f64> = elements
            .iter()
            .map(|e| match e {
                Elements::All(v) => *v,
                Elements::Each(values) => values[i],
            })
            .collect();
        number_of(name, &numbers, result, direction).filter(|v| v.is_finite())
    };
    match (0..length.unwrap_or(1)).map(at).collect::<Option<Vec<f64>>>() {
        Some(values) if length.is_none() => values.first().copied().map(Folded::Uniform),
        Some(values) => Some(match repeats {
            None => from_elements(values),
            Some(times) => repeated(values, times),
        }),
        // Numbers this module does not compute: one number still when every operand is one.
        None => length.is_none().then_some(Folded::UniformUnfolded),
    }
}

fn repeated(values: Vec<f64>, times: f64) -> Folded {
    match from_elements(values) {
        Folded::Listed(values) => Folded::Repeated { values, times },
        uniform => uniform,
    }
}

fn is_integer(element: &ElementType) -> bool {
    matches!(element, ElementType::Int(_) | ElementType::UInt(_) | ElementType::Bool)
}

fn converted(v: f64, to: Option<&ElementType>) -> f64 {
    match to {
        Some(ElementType::Bool) => (v != 0.0) as u8 as f64,
        Some(e) if is_integer(e) => v.trunc(),
        _ => v,
    }
}

/// An elementwise op on numbers (integer division truncates, as StableHLO's does; booleans are
/// 0 and 1).
fn number_of(
    name: &str,
    numbers: &[f64],
    result: Option<&ElementType>,
    direction: Option<ComparisonDirection>,
) -> Option<f64> {
    let a = *numbers.first()?;
    let b = || numbers.get(1).copied();
    let integer = result.is_some_and(is_integer);
    Some(match name {
        "convert" => converted(a, result),
        "compare" => direction?.holds(a, b()?) as u8 as f64,
        "select" => *numbers.get(if a != 0.0 { 1 } else { 2 })?,
        "negate" => -a,
        "abs" => a.abs(),
        "sign" => a.signum() * (a != 0.0) as u8 as f64,
        "floor" => a.floor(),
        "ceil" => a.ceil(),
        "sqrt" => a.sqrt(),
        "rsqrt" => 1.0 / a.sqrt(),
        "exponential" => a.exp(),
        "log" => a.ln(),
        "chlo.square" => a * a,
        "add" => a + b()?,
        "subtract" => a - b()?,
        "multiply" => a * b()?,
        "divide" if integer => {
            let b = b()?;
            if b == 0.0 {
                return None;
            }
            (a / b).trunc()
        }
        "divide" => a / b()?,
        "maximum" => a.max(b()?),
        "minimum" => a.min(b()?),
        "power" => a.powf(b()?),
        _ => return None,
    })
}

/// A reduction by the body's one binary op: of a tensor of one number (each result element
/// combines the reduced elements with `init`), or of every element of a listed one.
fn reduced(graph: &Graph, op: &OpNode, input: &Folded, init: &Folded) -> Option<Folded> {
    let Folded::Uniform(init) = *init else { return None };
    let combiner = single_binary_op(op.regions.first()?.blocks.first()?)?;
    let combine = |a: f64, b: f64| -> Option<f64> {
        Some(match combiner.as_str() {
            "add" => a + b,
            "multiply" => a * b,
            "maximum" => a.max(b),
            "minimum" => a.min(b),
            _ => return None,
        })
    };
    let value = match input {
        Folded::Uniform(value) => {
            let count = reduced_count(graph, op)?;
            match combiner.as_str() {
                "add" => init + value * count,
                "multiply" => init * value.powf(count),
                _ if count > 0.0 => combine(init, *value)?,
                _ => init,
            }
        }
        Folded::Listed(values) if reduces_every_dimension(graph, op) => {
            values.iter().try_fold(init, |acc, &v| combine(acc, v))?
        }
        Folded::Repeated { values, times } if reduces_every_dimension(graph, op) => match combiner.as_str() {
            "add" => init + times * values.iter().sum::<f64>(),
            "multiply" => init * values.iter().product::<f64>().powf(*times),
            _ => values.iter().try_fold(init, |acc, &v| combine(acc, v))?,
        },
        _ => return None,
    };
    value.is_finite().then_some(Folded::Uniform(value))
}

fn reduces_every_dimension(graph: &Graph, op: &OpNode) -> bool {
    let rank =
        op.operands.first().and_then(|v| graph.value_type(*v)).and_then(ValueType::tensor).map(|t| t.shape.len());
    let dims = op.attr("dimensions").and_then(|a| a.as_i64_array());
    matches!((rank, dims), (Some(rank), Some(dims)) if dims.len() == rank)
}

/// How many elements of its input a reduction combines into each result element.
fn reduced_count(graph: &Graph, op: &OpNode) -> Option<f64> {
    let input = graph.value_type(*op.operands.first()?)?.tensor()?;
    let dims = op.attr("dimensions")?.as_i64_array()?;
    dims.iter().map(|&d| usize::try_from(d).ok().and_then(|d| input.shape.get(d)).map(|&n| n as f64)).product()
}

/// The name of a body's one op when it combines the block's two arguments and is returned.
fn single_binary_op(block: &Block) -> Option<String> {
    let [op] = block.ops.as_slice() else { return None };
    let reads_args =
        matches!(op.operands.as_slice(), [ValueRef::Arg(0), ValueRef::Arg(1)] | [ValueRef::Arg(1), ValueRef::Arg(0)]);
    let returned = block.terminator.as_ref().is_none_or(|t| t.operands == [ValueRef::Op { op: 0, result: 0 }]);
    (reads_args && returned).then(|| canonical_name(&op.name))
}

#[cfg(test)]
mod tests {
    use super::Folded::*;
    use super::*;
    use crate::ir::graph::{Attrs, Param, Region};
    use crate::ir::test_graphs::{attrs, t, Builder};
    use crate::ir::types::TensorType;

    fn typed(shape: &[i64], element: ElementType) -> ValueType {
        ValueType::Tensor(TensorType::new(shape.to_vec(), element))
    }

    fn splat(b: &mut Builder, value: f64, ty: ValueType) -> ValueRef {
        let tensor = ty.tensor().cloned().expect("a tensor type");
        let value = Attr::Elements { ty: tensor, splat: true, values: Some(vec![value]) };
        b.op("stablehlo.constant", vec![], ty, attrs(&[("value", value)]))
    }

    fn reduce(b: &mut Builder, combiner: &str, x: ValueRef, init: ValueRef, dims: &[i64], ty: ValueType) -> ValueRef {
        let out = b.op(
            "stablehlo.reduce",
            vec![x, init],
            ty.clone(),
            attrs(&[("dimensions", Attr::I64Array(dims.to_vec()))]),
        );
        let scalar = typed(&[], ty.tensor().expect("a tensor type").element.clone());
        let body = OpNode {
            name: combiner.into(),
            location: String::new(),
            operands: vec![ValueRef::Arg(0), ValueRef::Arg(1)],
            results: vec![scalar.clone()],
            attrs: Attrs::new(),
            regions: vec![],
        };
        b.ops.last_mut().expect("the reduce").regions.push(Region {
            blocks: vec![Block { args: vec![scalar.clone(), scalar], ops: vec![body], terminator: None }],
        });
        out
    }

    fn compare(b: &mut Builder, lhs: ValueRef, rhs: ValueRef, direction: &str) -> ValueRef {
        let direction =
            Attr::Opaque { dialect: "stablehlo".into(), data: format!("<comparison_direction {direction}>") };
        b.op(
            "stablehlo.compare",
            vec![lhs, rhs],
            typed(&[], ElementType::Bool),
            attrs(&[("comparison_direction", direction)]),
        )
    }

    fn folded_of(b: Builder, values: &[ValueRef]) -> Vec<Option<Folded>> {
        let graph = b.graph(vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }], vec![]);
        let all = folded_constants(&graph);
        values.iter().map(|v| if let ValueRef::Op { op, .. } = v { all[*op].clone() } else { None }).collect()
    }

    #[test]
    fn a_count_computed_from_a_shape_and_guarded_against_zero_folds() {
        // Keras' divide_no_nan divisor: cast(prod(shape(values))), where(n == 0, 1, n).
        let i32 = ElementType::Int(32);
        let mut b = Builder::new();
        let shape = splat(&mut b, 8.0, typed(&[1], i32.clone()));
        let one_i = splat(&mut b, 1.0, typed(&[], i32.clone()));
        let product = reduce(&mut b, "stablehlo.multiply", shape, one_i, &[0], typed(&[], i32.clone()));
        let n = b.unary("stablehlo.convert", product, t(&[]));
        let zero = splat(&mut b, 0.0, t(&[]));
        let one = splat(&mut b, 1.0, t(&[]));
        let empty = compare(&mut b, n, zero, "EQ");
        let divisor = b.op("stablehlo.select", vec![empty, one, n], t(&[]), Attrs::new());
        let inverse = b.binary("stablehlo.divide", one, divisor, t(&[]));
        let sixty_four = splat(&mut b, 64.0, t(&[]));
        let root = b.unary("stablehlo.sqrt", sixty_four, t(&[]));
        let seven = splat(&mut b, 7.0, typed(&[], i32.clone()));
        let two = splat(&mut b, 2.0, typed(&[], i32.clone()));
        let halved = b.binary("stablehlo.divide", seven, two, typed(&[], i32));
        let twos = splat(&mut b, 2.0, t(&[3, 4]));
        let total = reduce(&mut b, "stablehlo.add", twos, one, &[0, 1], t(&[]));
        let row_max = reduce(&mut b, "stablehlo.maximum", twos, zero, &[1], t(&[3]));
        let got = folded_of(b, &[product, n, empty, divisor, inverse, root, halved, total, row_max]);
        let want = [8.0, 8.0, 0.0, 8.0, 0.125, 8.0, 3.0, 25.0, 2.0].map(|v| Some(Uniform(v)));
        assert_eq!(got, want);
    }

    #[test]
    fn values_of_arguments_or_of_differing_elements_are_not_folded_and_unknown_ops_one_unfolded_number() {
        let mut b = Builder::new();
        let big = IOTA_LISTED + 4;
        let iota = b.op("stablehlo.iota", vec![], t(&[big]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let dense = Attr::Elements { ty: TensorType::new(vec![4], ElementType::f32()), splat: false, values: None };
        let table = b.op("stablehlo.constant", vec![], t(&[4]), attrs(&[("value", dense)]));
        let one = splat(&mut b, 1.0, t(&[2]));
        let two = splat(&mut b, 2.0, t(&[2]));
        let concat = |b: &mut Builder, parts| {
            b.op("stablehlo.concatenate", parts, t(&[4]), attrs(&[("dimension", Attr::Int(0))]))
        };
        let one_two = concat(&mut b, vec![one, two]);
        let two_two = concat(&mut b, vec![two, two]);
        let shifted = b.binary("stablehlo.add", table, one_two, t(&[4]));
        let read = b.unary("stablehlo.negate", ValueRef::Arg(0), t(&[8, 4]));
        let cosine = b.unary("stablehlo.cosine", two, t(&[2]));
        let scaled = b.binary("stablehlo.multiply", cosine, two, t(&[2]));
        let zero = splat(&mut b, 0.0, t(&[]));
        let iota_total = reduce(&mut b, "stablehlo.add", iota, zero, &[0], t(&[]));
        let random = b.op("stablehlo.rng", vec![zero, two], t(&[]), Attrs::new());
        let got = folded_of(b, &[iota, table, one_two, two_two, shifted, read, cosine, scaled, iota_total, random]);
        let want = [
            None,
            None,
            None,
            Some(Uniform(2.0)),
            None,
            None,
            Some(UniformUnfolded),
            Some(UniformUnfolded),
            // A scalar computed from constants is one number, folded or not; a random one is not.
            Some(UniformUnfolded),
            None,
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn a_small_iota_lists_its_positions_and_a_slice_of_listed_elements_keeps_the_ones_it_picks() {
        // jnp.arange(4) under lax.scan, and a [2, 3] iota along its last dimension, sliced.
        let mut b = Builder::new();
        let positions = b.op("stablehlo.iota", vec![], t(&[4]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let grid = b.op("stablehlo.iota", vec![], t(&[2, 3]), attrs(&[("iota_dimension", Attr::Int(1))]));
        let rows = b.op("stablehlo.iota", vec![], t(&[2, 3]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let third = b.slice(positions, &[2], &[3], &[1]);
        let every_other = b.slice(positions, &[0], &[4], &[2]);
        let corner = b.slice(grid, &[1, 1], &[2, 3], &[1, 1]);
        let column = b.slice(grid, &[0, 2], &[2, 3], &[1, 1]);
        let zero = splat(&mut b, 0.0, t(&[]));
        let total = reduce(&mut b, "stablehlo.add", positions, zero, &[0], t(&[]));
        let got = folded_of(b, &[positions, grid, rows, third, every_other, corner, column, total]);
        let want = [
            Some(Listed(vec![0.0, 1.0, 2.0, 3.0])),
            Some(Listed(vec![0.0, 1.0, 2.0, 0.0, 1.0, 2.0])),
            Some(Listed(vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0])),
            Some(Uniform(2.0)),
            Some(Listed(vec![0.0, 2.0])),
            Some(Listed(vec![1.0, 2.0])),
            Some(Uniform(2.0)),
            Some(Uniform(6.0)),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn a_shape_listed_in_full_folds_to_its_product_and_its_elements_map_one_by_one() {
        // jnp.prod(jnp.asarray(values.shape)) for values of shape [8, 16].
        let i32 = ElementType::Int(32);
        let mut b = Builder::new();
        let listed =
            Attr::Elements { ty: TensorType::new(vec![2], i32.clone()), splat: false, values: Some(vec![8.0, 16.0]) };
        let shape = b.op("stablehlo.constant", vec![], typed(&[2], i32.clone()), attrs(&[("value", listed)]));
        let one = splat(&mut b, 1.0, typed(&[], i32.clone()));
        let product = reduce(&mut b, "stablehlo.multiply", shape, one, &[0], typed(&[], i32.clone()));
        let two = splat(&mut b, 2.0, typed(&[], i32.clone()));
        let halves = b.binary("stablehlo.divide", shape, two, typed(&[2], i32.clone()));
        let largest = reduce(&mut b, "stablehlo.maximum", halves, one, &[0], typed(&[], i32.clone()));
        let spread = b.unary("stablehlo.broadcast_in_dim", shape, typed(&[2, 2], i32));
        let got = folded_of(b, &[shape, product, halves, largest, spread]);
        assert_eq!(
            got,
            [
                Some(Listed(vec![8.0, 16.0])),
                Some(Uniform(128.0)),
                Some(Listed(vec![4.0, 8.0])),
                Some(Uniform(8.0)),
                Some(Repeated { values: vec![8.0, 16.0], times: 2.0 })
            ]
        );
    }

    #[test]
    fn a_listed_mask_broadcast_over_the_batch_repeats_its_elements_and_its_total_folds() {
        // m = broadcast_to((jnp.arange(8) < 7).astype(f32), (4, 8)); sum(m), max(m), sum(m, 0).
        let mut b = Builder::new();
        let positions = b.op("stablehlo.iota", vec![], t(&[8]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let seven = splat(&mut b, 7.0, t(&[8]));
        let kept = compare(&mut b, positions, seven, "LT");
        let mask = b.unary("stablehlo.convert", kept, t(&[8]));
        let spread = |b: &mut Builder, x, dims: &[i64], shape: &[i64]| {
            b.op(
                "stablehlo.broadcast_in_dim",
                vec![x],
                t(shape),
                attrs(&[("broadcast_dimensions", Attr::I64Array(dims.to_vec()))]),
            )
        };
        let row = spread(&mut b, mask, &[1], &[1, 8]);
        let over_batch = spread(&mut b, mask, &[1], &[4, 8]);
        let sevens = splat(&mut b, 7.0, t(&[4, 8]));
        let doubled = b.binary("stablehlo.multiply", over_batch, sevens, t(&[4, 8]));
        let zero = splat(&mut b, 0.0, t(&[]));
        let count = reduce(&mut b, "stablehlo.add", doubled, zero, &[0, 1], t(&[]));
        let largest = reduce(&mut b, "stablehlo.maximum", over_batch, zero, &[0, 1], t(&[]));
        let per_position = reduce(&mut b, "stablehlo.add", over_batch, zero, &[0], t(&[8]));
        let flipped =
            b.op("stablehlo.transpose", vec![row], t(&[8, 1]), attrs(&[("permutation", Attr::I64Array(vec![1, 0]))]));
        let listed_again = b.unary("stablehlo.reshape", over_batch, t(&[32]));
        let iota32 = b.op("stablehlo.iota", vec![], t(&[32]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let unordered_sum = b.binary("stablehlo.add", listed_again, iota32, t(&[32]));
        let picked = b.slice(listed_again, &[0], &[4], &[1]);
        let got = folded_of(b, &[row, over_batch, count, largest, per_position, flipped, unordered_sum, picked]);
        let mask = vec![1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0];
        assert_eq!(
            got,
            [
                Some(Listed(mask.clone())),
                Some(Repeated { values: mask.clone(), times: 4.0 }),
                Some(Uniform(7.0 * 28.0)),
                Some(Uniform(1.0)),
                // Which elements a partial reduction adds is not known once they repeat.
                None,
                Some(Repeated { values: mask, times: 1.0 }),
                None,
                None,
            ]
        );
    }
}
