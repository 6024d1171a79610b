//! Thin helpers over MLIR's C API (mlir-sys) for reading IR into plain data.

use crate::ir::graph::Attr;
use crate::ir::types::{ElementType, TensorType, ValueType};
use mlir_sys::*;
use std::collections::BTreeMap;
use std::ffi::c_void;

pub fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

pub fn to_string(text: MlirStringRef) -> String {
    if text.data.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

unsafe extern "C" fn append_to_string(text: MlirStringRef, user_data: *mut c_void) {
    let out = unsafe { &mut *user_data.cast::<String>() };
    out.push_str(&to_string(text));
}

/// Collects what an `mlir*Print(x, callback, user_data)` function prints.
pub fn printed(print: impl FnOnce(MlirStringCallback, *mut c_void)) -> String {
    let mut out = String::new();
    print(Some(append_to_string), (&mut out as *mut String).cast());
    out
}

pub fn op_name(op: MlirOperation) -> String {
    unsafe { to_string(mlirIdentifierStr(mlirOperationGetName(op))) }
}

pub fn op_location(op: MlirOperation) -> String {
    printed(|cb, ud| unsafe { mlirLocationPrint(mlirOperationGetLocation(op), cb, ud) })
}

pub fn regions(op: MlirOperation) -> Vec<MlirRegion> {
    unsafe { (0..mlirOperationGetNumRegions(op)).map(|i| mlirOperationGetRegion(op, i)).collect() }
}

pub fn blocks(region: MlirRegion) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    let mut block = unsafe { mlirRegionGetFirstBlock(region) };
    while !block.ptr.is_null() {
        out.push(block);
        block = unsafe { mlirBlockGetNextInRegion(block) };
    }
    out
}

pub fn block_ops(block: MlirBlock) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    let mut op = unsafe { mlirBlockGetFirstOperation(block) };
    while !op.ptr.is_null() {
        out.push(op);
        op = unsafe { mlirOperationGetNextInBlock(op) };
    }
    out
}

pub fn block_args(block: MlirBlock) -> Vec<MlirValue> {
    unsafe { (0..mlirBlockGetNumArguments(block)).map(|i| mlirBlockGetArgument(block, i)).collect() }
}

pub fn operands(op: MlirOperation) -> Vec<MlirValue> {
    unsafe { (0..mlirOperationGetNumOperands(op)).map(|i| mlirOperationGetOperand(op, i)).collect() }
}

pub fn results(op: MlirOperation) -> Vec<MlirValue> {
    unsafe { (0..mlirOperationGetNumResults(op)).map(|i| mlirOperationGetResult(op, i)).collect() }
}

/// The first block of the op's first region (the body of a function), if any.
pub fn body_block(op: MlirOperation) -> Option<MlirBlock> {
    let region = *regions(op).first()?;
    blocks(region).first().copied()
}

/// Every op nested in `op` (not `op` itself), parents before children.
pub fn nested_ops(op: MlirOperation) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    let mut stack = vec![op];
    while let Some(current) = stack.pop() {
        for region in regions(current).into_iter().rev() {
            for block in blocks(region).into_iter().rev() {
                for child in block_ops(block).into_iter().rev() {
                    stack.push(child);
                }
            }
        }
        if current.ptr != op.ptr {
            out.push(current);
        }
    }
    out
}

/// The values `op`'s regions define: the results of its nested ops and its blocks' arguments.
pub fn values_defined_inside(op: MlirOperation) -> std::collections::HashSet<*const c_void> {
    let mut inside = std::collections::HashSet::new();
    for inner in std::iter::once(op).chain(nested_ops(op)) {
        if inner.ptr != op.ptr {
            inside.extend(results(inner).into_iter().map(|v| v.ptr));
        }
        for region in regions(inner) {
            for block in blocks(region) {
                inside.extend(block_args(block).into_iter().map(|v| v.ptr));
            }
        }
    }
    inside
}

pub fn attribute(op: MlirOperation, name: &str) -> Option<MlirAttribute> {
    let attr = unsafe { mlirOperationGetAttributeByName(op, string_ref(name)) };
    (!attr.ptr.is_null()).then_some(attr)
}

/// All attributes of an op, inherent (the `<{...}>` properties) and discardable, by name.
pub fn attributes(op: MlirOperation) -> Vec<(String, MlirAttribute)> {
    let dictionary = super::ffi::bridge::op_attribute_dictionary(op.ptr as usize);
    let dictionary = MlirAttribute { ptr: dictionary as *const c_void };
    unsafe {
        (0..mlirDictionaryAttrGetNumElements(dictionary))
            .map(|i| {
                let named = mlirDictionaryAttrGetElement(dictionary, i);
                (to_string(mlirIdentifierStr(named.name)), named.attribute)
            })
            .collect()
    }
}

pub fn string_attr(op: MlirOperation, name: &str) -> Option<String> {
    let attr = attribute(op, name)?;
    unsafe {
        if mlirAttributeIsAString(attr) {
            Some(to_string(mlirStringAttrGetValue(attr)))
        } else if mlirAttributeIsAFlatSymbolRef(attr) {
            Some(to_string(mlirFlatSymbolRefAttrGetValue(attr)))
        } else {
            None
        }
    }
}

pub fn print_type(ty: MlirType) -> String {
    printed(|cb, ud| unsafe { mlirTypePrint(ty, cb, ud) })
}

pub fn print_attr(attr: MlirAttribute) -> String {
    printed(|cb, ud| unsafe { mlirAttributePrint(attr, cb, ud) })
}

/// Converts a type; a tensor with a dynamic or unranked shape is an error (its printed type).
pub fn value_type(ty: MlirType) -> Result<ValueType, String> {
    unsafe {
        if mlirTypeIsAShaped(ty) && mlirTypeIsATensor(ty) {
            if !mlirTypeIsARankedTensor(ty) || !mlirShapedTypeHasStaticShape(ty) {
                return Err(print_type(ty));
            }
            let rank = mlirShapedTypeGetRank(ty);
            let shape = (0..rank).map(|d| mlirShapedTypeGetDimSize(ty, d as isize)).collect();
            let element = element_type(mlirShapedTypeGetElementType(ty));
            return Ok(ValueType::Tensor(TensorType { shape, element }));
        }
        if mlirTypeIsATuple(ty) {
            let items = (0..mlirTupleTypeGetNumTypes(ty))
                .map(|i| value_type(mlirTupleTypeGetType(ty, i)))
                .collect::<Result<_, _>>()?;
            return Ok(ValueType::Tuple(items));
        }
    }
    let text = print_type(ty);
    if text == "!stablehlo.token" {
        return Ok(ValueType::Token);
    }
    // A scalar element type used directly as a value type (rare in StableHLO).
    Ok(ValueType::Other(text))
}

fn element_type(ty: MlirType) -> ElementType {
    let text = print_type(ty);
    ElementType::parse(&text).unwrap_or_else(|| {
        let bits = unsafe {
            if mlirTypeIsAInteger(ty) {
                mlirIntegerTypeGetWidth(ty)
            } else {
                0
            }
        };
        ElementType::Other { text, bits }
    })
}

/// Converts an attribute to plain data. Elements attributes keep only their type (and the
/// numbers of a splat or of a constant of at most [`LISTED_ELEMENTS`]): a tensor constant's
/// payload is never read or copied.
pub fn attr_value(attr: MlirAttribute) -> Attr {
    unsafe {
        if mlirAttributeIsAElements(attr) {
            let splat = mlirAttributeIsADenseElements(attr) && mlirDenseElementsAttrIsSplat(attr);
            if let Some(scalar) = int_scalar(attr).or_else(|| float_scalar(attr)) {
                return scalar;
            }
            let values = dense_numbers(attr, splat);
            return match value_type(mlirAttributeGetType(attr)) {
                Ok(ValueType::Tensor(ty)) => Attr::Elements { ty, splat, values },
                _ => Attr::Other("elements".into()),
            };
        }
        if mlirAttributeIsAOpaque(attr) {
            return Attr::Opaque {
                dialect: to_string(mlirOpaqueAttrGetDialectNamespace(attr)),
                data: to_string(mlirOpaqueAttrGetData(attr)),
            };
        }
        if mlirAttributeIsABool(attr) {
            return Attr::Bool(mlirBoolAttrGetValue(attr));
        }
        if mlirAttributeIsAInteger(attr) {
            let ty = mlirAttributeGetType(attr);
            let value = if mlirTypeIsAInteger(ty) && mlirIntegerTypeIsUnsigned(ty) {
                mlirIntegerAttrGetValueUInt(attr) as i64
            } else if mlirTypeIsAInteger(ty) && mlirIntegerTypeIsSigned(ty) {
                mlirIntegerAttrGetValueSInt(attr)
            } else {
                mlirIntegerAttrGetValueInt(attr)
            };
            return Attr::Int(value);
        }
        if mlirAttributeIsAFloat(attr) {
            return Attr::Float(mlirFloatAttrGetValueDouble(attr));
        }
        if mlirAttributeIsAString(attr) {
            return Attr::Str(to_string(mlirStringAttrGetValue(attr)));
        }
        if mlirAttributeIsAUnit(attr) {
            return Attr::Unit;
        }
        if mlirAttributeIsADenseI64Array(attr) {
            let n = mlirDenseArrayGetNumElements(attr);
            return Attr::I64Array((0..n).map(|i| mlirDenseI64ArrayGetElement(attr, i)).collect());
        }
        if mlirAttributeIsADenseI32Array(attr) {
            let n = mlirDenseArrayGetNumElements(attr);
            return Attr::I64Array((0..n).map(|i| mlirDenseI32ArrayGetElement(attr, i) as i64).collect());
        }
        if mlirAttributeIsADenseBoolArray(attr) {
            let n = mlirDenseArrayGetNumElements(attr);
            return Attr::BoolArray((0..n).map(|i| mlirDenseBoolArrayGetElement(attr, i)).collect());
        }
        if mlirAttributeIsAArray(attr) {
            let n = mlirArrayAttrGetNumElements(attr);
            return Attr::Array((0..n).map(|i| attr_value(mlirArrayAttrGetElement(attr, i))).collect());
        }
        if mlirAttributeIsADictionary(attr) {
            let n = mlirDictionaryAttrGetNumElements(attr);
            let entries: BTreeMap<String, Attr> = (0..n)
                .map(|i| {
                    let named = mlirDictionaryAttrGetElement(attr, i);
                    (to_string(mlirIdentifierStr(named.name)), attr_value(named.attribute))
                })
                .collect();
            return Attr::Dict(entries);
        }
        if mlirAttributeIsAFlatSymbolRef(attr) {
            return Attr::SymbolRef(to_string(mlirFlatSymbolRefAttrGetValue(attr)));
        }
        if mlirAttributeIsAType(attr) {
            return match value_type(mlirTypeAttrGetValue(attr)) {
                Ok(ty) => Attr::Type(ty),
                Err(text) => Attr::Other(text),
            };
        }
    }
    Attr::Other(print_attr(attr))
}

/// A dense rank-0 integer attribute as [`Attr::IntScalar`] (its one value read by width).
unsafe fn int_scalar(attr: MlirAttribute) -> Option<Attr> {
    let Ok(ValueType::Tensor(ty)) = value_type(mlirAttributeGetType(attr)) else { return None };
    if !ty.shape.is_empty() || !mlirAttributeIsADenseIntElements(attr) {
        return None;
    }
    let value = dense_int_at(attr, mlirShapedTypeGetElementType(mlirAttributeGetType(attr)), 0)?;
    Some(Attr::IntScalar { ty, value })
}

/// Element `i` of dense integer elements of type `element`, read by its width and signedness.
unsafe fn dense_int_at(attr: MlirAttribute, element: MlirType, i: isize) -> Option<i64> {
    if !mlirTypeIsAInteger(element) {
        return None;
    }
    Some(match (mlirIntegerTypeGetWidth(element), mlirIntegerTypeIsUnsigned(element)) {
        (1, _) => mlirDenseElementsAttrGetBoolValue(attr, i) as i64,
        (8, false) => mlirDenseElementsAttrGetInt8Value(attr, i) as i64,
        (8, true) => mlirDenseElementsAttrGetUInt8Value(attr, i) as i64,
        (16, false) => mlirDenseElementsAttrGetInt16Value(attr, i) as i64,
        (16, true) => mlirDenseElementsAttrGetUInt16Value(attr, i) as i64,
        (32, false) => mlirDenseElementsAttrGetInt32Value(attr, i) as i64,
        (32, true) => mlirDenseElementsAttrGetUInt32Value(attr, i) as i64,
        (64, false) => mlirDenseElementsAttrGetInt64Value(attr, i),
        // a u64 above i64::MAX is no counter, index or count we can fold
        (64, true) => i64::try_from(mlirDenseElementsAttrGetUInt64Value(attr, i)).ok()?,
        _ => return None,
    })
}

/// Element `i` of dense f32 or f64 elements of type `element`.
unsafe fn dense_float_at(attr: MlirAttribute, element: MlirType, i: isize) -> Option<f64> {
    if mlirTypeIsAF32(element) {
        Some(mlirDenseElementsAttrGetFloatValue(attr, i) as f64)
    } else if mlirTypeIsAF64(element) {
        Some(mlirDenseElementsAttrGetDoubleValue(attr, i))
    } else {
        None
    }
}

/// Most elements of a constant whose numbers are kept (a shape, a few counts).
const LISTED_ELEMENTS: i64 = 16;

/// The numbers of dense elements: a splat's one number, or every number of a small constant of
/// f32, f64 or integers (row-major); `None` when one is not finite or cannot be read.
unsafe fn dense_numbers(attr: MlirAttribute, splat: bool) -> Option<Vec<f64>> {
    if splat {
        return splat_number(mlirDenseElementsAttrGetSplatValue(attr)).map(|v| vec![v]);
    }
    if !mlirAttributeIsADenseElements(attr) {
        return None;
    }
    let count = mlirElementsAttrGetNumElements(attr);
    if !(1..=LISTED_ELEMENTS).contains(&count) {
        return None;
    }
    let element = mlirShapedTypeGetElementType(mlirAttributeGetType(attr));
    let read = |i: isize| -> Option<f64> {
        let value = dense_float_at(attr, element, i).or_else(|| dense_int_at(attr, element, i).map(|v| v as f64))?;
        value.is_finite().then_some(value)
    };
    (0..count as isize).map(read).collect()
}

/// The number a splat's element attribute holds (any float or integer type; booleans 0 and 1),
/// when finite: read as [`attr_value`] reads a scalar attribute.
fn splat_number(element: MlirAttribute) -> Option<f64> {
    let value = match attr_value(element) {
        Attr::Int(v) => v as f64,
        Attr::Float(v) => v,
        Attr::Bool(b) => b as u8 as f64,
        _ => return None,
    };
    value.is_finite().then_some(value)
}

/// A dense rank-0 f32 or f64 attribute as [`Attr::FloatScalar`] (a mean's divisor, a scale).
unsafe fn float_scalar(attr: MlirAttribute) -> Option<Attr> {
    let Ok(ValueType::Tensor(ty)) = value_type(mlirAttributeGetType(attr)) else { return None };
    if !ty.shape.is_empty() || !mlirAttributeIsADenseFPElements(attr) {
        return None;
    }
    let value = dense_float_at(attr, mlirShapedTypeGetElementType(mlirAttributeGetType(attr)), 0)?;
    // NaN would make the attribute unequal to itself; infinities are no divisor or scale.
    value.is_finite().then_some(Attr::FloatScalar { ty, value })
}

pub fn set_i64_attr(op: MlirOperation, name: &str, value: i64) {
    unsafe {
        let ctx = mlirOperationGetContext(op);
        let attr = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), value);
        mlirOperationSetDiscardableAttributeByName(op, string_ref(name), attr);
    }
}

pub fn context(op: MlirOperation) -> MlirContext {
    unsafe { mlirOperationGetContext(op) }
}

/// The function type `(inputs) -> outputs`.
pub fn function_type(context: MlirContext, inputs: &[MlirType], outputs: &[MlirType]) -> MlirType {
    unsafe {
        mlirFunctionTypeGet(context, inputs.len() as isize, inputs.as_ptr(), outputs.len() as isize, outputs.as_ptr())
    }
}

/// Parses an attribute from its text (e.g. an unregistered `#sdy.sharding<...>`).
pub fn parse_attr(context: MlirContext, text: &str) -> Result<MlirAttribute, String> {
    let attr = unsafe { mlirAttributeParseGet(context, string_ref(text)) };
    if attr.ptr.is_null() {
        Err(format!("cannot parse attribute {text}"))
    } else {
        Ok(attr)
    }
}

pub fn parse_type(context: MlirContext, text: &str) -> Result<MlirType, String> {
    let ty = unsafe { mlirTypeParseGet(context, string_ref(text)) };
    if ty.ptr.is_null() {
        Err(format!("cannot parse type {text}"))
    } else {
        Ok(ty)
    }
}

/// Creates `name(operands) {attrs} : result_types` at `reference`'s location, inserts it
/// before `reference`, and returns its first result.
pub fn create_op(
    reference: MlirOperation,
    name: &str,
    operands: &[MlirValue],
    attrs: &[(&str, MlirAttribute)],
    result_types: &[MlirType],
) -> MlirValue {
    unsafe {
        let op = new_op(mlirOperationGetLocation(reference), name, operands, result_types, attrs);
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(reference), reference, op);
        mlirOperationGetResult(op, 0)
    }
}

/// `name(operands) {attrs} : results` at `location`, not yet in a block: every pass builds its
/// ops here.
pub fn new_op(
    location: MlirLocation,
    name: &str,
    operands: &[MlirValue],
    results: &[MlirType],
    attrs: &[(&str, MlirAttribute)],
) -> MlirOperation {
    unsafe {
        let context = mlirLocationGetContext(location);
        let mut state = mlirOperationStateGet(string_ref(name), location);
        mlirOperationStateAddOperands(&mut state, operands.len() as isize, operands.as_ptr());
        mlirOperationStateAddResults(&mut state, results.len() as isize, results.as_ptr());
        let named: Vec<MlirNamedAttribute> =
            attrs.iter().map(|(k, v)| mlirNamedAttributeGet(mlirIdentifierGet(context, string_ref(k)), *v)).collect();
        mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
        mlirOperationCreate(&mut state)
    }
}

/// The `value` attribute of a `stablehlo.constant` of tensor type `ty` whose every element is
/// the whole number `value`, written for the type's elements (`ElementType::whole_number_literal`).
pub fn whole_number_attr(context: MlirContext, value: i64, ty: MlirType) -> Result<MlirAttribute, String> {
    let element = match value_type(ty)? {
        ValueType::Tensor(t) => t.element,
        other => return Err(format!("a constant of type {other} is not a tensor")),
    };
    parse_attr(context, &format!("dense<{}> : {}", element.whole_number_literal(value), print_type(ty)))
}

pub fn string_attr_value(context: MlirContext, text: &str) -> MlirAttribute {
    unsafe { mlirStringAttrGet(context, string_ref(text)) }
}

pub fn set_attr(op: MlirOperation, name: &str, attr: MlirAttribute) {
    unsafe { mlirOperationSetDiscardableAttributeByName(op, string_ref(name), attr) }
}

pub fn set_i32_attr(op: MlirOperation, name: &str, value: i32) {
    unsafe {
        let ctx = mlirOperationGetContext(op);
        let attr = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), value as i64);
        mlirOperationSetDiscardableAttributeByName(op, string_ref(name), attr);
    }
}

/// Parses one op from generic-form text and inserts it at the start of `block`.
pub fn insert_parsed_op_at_start(block: MlirBlock, context: MlirContext, text: &str) -> Result<MlirOperation, String> {
    unsafe {
        let op = mlirOperationCreateParse(context, string_ref(text), string_ref("alpa"));
        if op.ptr.is_null() {
            return Err(format!("cannot parse op {text}"));
        }
        mlirBlockInsertOwnedOperation(block, 0, op);
        Ok(op)
    }
}

/// Creates `name(operand) {attrs} : (T) -> T` at `reference`'s location and inserts it before
/// or after `reference` in its block.
pub fn insert_unary_op(
    name: &str,
    operand: MlirValue,
    attrs: &[(&str, MlirAttribute)],
    reference: MlirOperation,
    after: bool,
) -> MlirOperation {
    unsafe {
        let ty = mlirValueGetType(operand);
        let op = new_op(mlirOperationGetLocation(reference), name, &[operand], &[ty], attrs);
        let block = mlirOperationGetBlock(reference);
        if after {
            mlirBlockInsertOwnedOperationAfter(block, reference, op);
        } else {
            mlirBlockInsertOwnedOperationBefore(block, reference, op);
        }
        op
    }
}

/// Replaces every use of `value` but the one by `except` with `with`.
pub fn replace_uses_except(value: MlirValue, with: MlirValue, except: MlirOperation) {
    let mut exceptions = [except];
    unsafe { mlirValueReplaceAllUsesExcept(value, with, 1, exceptions.as_mut_ptr()) }
}

/// The text of an f64 attribute that MLIR parses back to the same value: its float literal
/// needs a '.' ("0e0" and "1e-3" are rejected), and infinities and NaNs are written by bits.
pub fn f64_attr_text(value: f64) -> String {
    if !value.is_finite() {
        return format!("0x{:016X} : f64", value.to_bits());
    }
    let text = format!("{value:e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let point = if mantissa.contains('.') { "" } else { ".0" };
    format!("{mantissa}{point}e{exponent} : f64")
}

/// `array<i64: 1, 2>` (or `array<i64>`), the text of a dense i64 array attribute.
pub fn i64_array_text(values: impl IntoIterator<Item = i64>) -> String {
    let items: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    if items.is_empty() {
        "array<i64>".into()
    } else {
        format!("array<i64: {}>", items.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Parses `text` with MLIR and returns the f64 it holds.
    fn parse_f64(text: &str) -> Option<f64> {
        unsafe {
            let context = mlirContextCreate();
            let attr = mlirAttributeParseGet(context, string_ref(text));
            let value = (!attr.ptr.is_null() && mlirAttributeIsAFloat(attr)).then(|| mlirFloatAttrGetValueDouble(attr));
            mlirContextDestroy(context);
            value
        }
    }

    #[test]
    fn special_f64_values_round_trip_through_mlir() {
        for value in
            [0.0, -0.0, 1.0, 1e-3, 5e300, f64::MIN_POSITIVE, 4.9e-324, f64::MAX, f64::INFINITY, f64::NEG_INFINITY]
        {
            let text = f64_attr_text(value);
            assert_eq!(parse_f64(&text).map(f64::to_bits), Some(value.to_bits()), "{text}");
        }
        assert!(parse_f64(&f64_attr_text(f64::NAN)).is_some_and(f64::is_nan));
    }

    proptest! {
        #[test]
        fn every_f64_round_trips_through_mlir(bits in any::<u64>()) {
            let value = f64::from_bits(bits);
            let text = f64_attr_text(value);
            let back = parse_f64(&text);
            prop_assert!(back.is_some(), "{} does not parse", text);
            prop_assert!(back.unwrap().to_bits() == bits || (value.is_nan() && back.unwrap().is_nan()), "{}", text);
        }
    }
}
