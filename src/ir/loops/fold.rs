//! Folding of scalar integer ops whose operands are known: what turns a loop copy's counter
//! arithmetic (JAX's `i < 0 ? i + n : i`, `n - 1 - i`, converts) into constants.

use crate::ir::attr_text::ComparisonDirection;
use crate::ir::graph::OpNode;
use crate::ir::op_table::opaque_text;
use crate::ir::types::{ElementType, ValueType};

/// The element type of a rank-0 integer (or i1) value type.
pub fn scalar_int_element(ty: &ValueType) -> Option<&ElementType> {
    let t = ty.tensor()?;
    let integer = matches!(t.element, ElementType::Int(_) | ElementType::UInt(_) | ElementType::Bool);
    (t.shape.is_empty() && integer).then_some(&t.element)
}

/// `value` as the element type holds it: two's complement wrap to its width, sign-extended for
/// signed types, zero-extended for unsigned ones and i1.
pub fn wrap(value: i128, element: &ElementType) -> Option<i64> {
    let (bits, signed) = match element {
        ElementType::Bool => (1, false),
        ElementType::Int(b) => (*b, true),
        ElementType::UInt(b) => (*b, false),
        _ => return None,
    };
    if bits == 0 || bits > 64 {
        return None;
    }
    let mask: u128 = (1u128 << bits) - 1;
    let low = (value as u128) & mask;
    let wrapped = if signed && (low >> (bits - 1)) & 1 == 1 { (low | !mask) as i128 } else { low as i128 };
    // a ui64 above i64::MAX is out of what the graph view keeps
    i64::try_from(wrapped).ok()
}

/// The value of `op` (rank-0 integer result) from its operands' values, when it is one of the
/// pure integer ops below and defined on them (no division by zero); `None` otherwise.
pub fn fold(op: &OpNode, operands: &[i64]) -> Option<i64> {
    let element = scalar_int_element(op.results.first()?)?;
    if op.results.len() != 1 || !op.regions.is_empty() {
        return None;
    }
    let v: Vec<i128> = operands.iter().map(|&x| x as i128).collect();
    let value: i128 = match (op.name.as_str(), v.as_slice()) {
        ("stablehlo.constant", []) => return op.attr("value")?.as_int_scalar(),
        ("stablehlo.add", [a, b]) => a + b,
        ("stablehlo.subtract", [a, b]) => a - b,
        ("stablehlo.multiply", [a, b]) => a * b,
        ("stablehlo.divide", [a, b]) if *b != 0 => a / b,
        ("stablehlo.remainder", [a, b]) if *b != 0 => a % b,
        ("stablehlo.maximum", [a, b]) => *a.max(b),
        ("stablehlo.minimum", [a, b]) => *a.min(b),
        ("stablehlo.negate", [a]) => -a,
        ("stablehlo.abs", [a]) => a.abs(),
        ("stablehlo.sign", [a]) => a.signum(),
        ("stablehlo.and", [a, b]) => a & b,
        ("stablehlo.or", [a, b]) => a | b,
        ("stablehlo.xor", [a, b]) => a ^ b,
        ("stablehlo.not", [a]) if matches!(element, ElementType::Bool) => 1 - (a & 1),
        ("stablehlo.not", [a]) => !a,
        ("stablehlo.convert", [a]) => *a,
        ("stablehlo.clamp", [lo, x, hi]) => *x.max(lo).min(hi),
        ("stablehlo.select", [p, a, b]) => {
            if *p != 0 {
                *a
            } else {
                *b
            }
        }
        ("stablehlo.compare", [a, b]) => {
            let text = opaque_text(op.attr("comparison_direction")?)?;
            let holds = ComparisonDirection::parse(text).ok()?.holds(a, b);
            holds as i128
        }
        _ => return None,
    };
    // operands of unsigned types are non-negative (see `wrap`), so signed arithmetic is exact
    wrap(value, element)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::Attr;
    use crate::ir::op_table::test_util::{op, opaque, typed};

    fn i32s() -> crate::ir::types::TensorType {
        typed(&[], "i32")
    }

    #[test]
    fn jax_index_arithmetic_folds() {
        // JAX's `i < 0 ? i + n : i` on i = 1, n = 4
        let lt = op(
            "stablehlo.compare",
            &[typed(&[], "i1")],
            &[("comparison_direction", opaque("<comparison_direction LT>"))],
        );
        assert_eq!(fold(&lt, &[1, 0]), Some(0));
        assert_eq!(fold(&op("stablehlo.add", &[i32s()], &[]), &[1, 4]), Some(5));
        assert_eq!(fold(&op("stablehlo.select", &[i32s()], &[]), &[0, 5, 1]), Some(1));
        assert_eq!(fold(&op("stablehlo.subtract", &[i32s()], &[]), &[2, 1]), Some(1));
        let c = op("stablehlo.constant", &[i32s()], &[("value", Attr::IntScalar { ty: i32s(), value: 7 })]);
        assert_eq!(fold(&c, &[]), Some(7));
    }

    #[test]
    fn results_wrap_to_the_element_type() {
        assert_eq!(fold(&op("stablehlo.add", &[i32s()], &[]), &[i32::MAX as i64, 1]), Some(i32::MIN as i64));
        assert_eq!(fold(&op("stablehlo.convert", &[typed(&[], "ui8")], &[]), &[-1]), Some(255));
        assert_eq!(fold(&op("stablehlo.convert", &[typed(&[], "i8")], &[]), &[200]), Some(-56));
        assert_eq!(fold(&op("stablehlo.not", &[typed(&[], "i1")], &[]), &[1]), Some(0));
    }

    #[test]
    fn what_does_not_fold() {
        assert_eq!(fold(&op("stablehlo.divide", &[i32s()], &[]), &[1, 0]), None);
        assert_eq!(fold(&op("stablehlo.add", &[typed(&[2], "i32")], &[]), &[1, 2]), None);
        assert_eq!(fold(&op("stablehlo.add", &[typed(&[], "f32")], &[]), &[1, 2]), None);
        assert_eq!(fold(&op("stablehlo.rng", &[i32s()], &[]), &[1, 2]), None);
    }
}
