//! Plain-data tensor types: what the algorithms know about a value's type.

use std::fmt;

/// Every element type StableHLO allows (quantized types are kept as `Other`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// `i1`, StableHLO's `pred`.
    Bool,
    /// Signless or signed integer of the given width (`i4`, `i8`, ... `i64`).
    Int(u32),
    /// Unsigned integer (`ui4` ... `ui64`).
    UInt(u32),
    /// Floating point, with its MLIR spelling (`f32`, `bf16`, `f8E4M3FN`, ...) and width in bits.
    Float { name: String, bits: u32 },
    /// `complex<f32>` or `complex<f64>`: width of one component in bits.
    Complex(u32),
    /// Anything else, kept as its printed text (quantized types, index).
    Other { text: String, bits: u32 },
}

impl ElementType {
    pub fn f32() -> Self {
        ElementType::Float { name: "f32".into(), bits: 32 }
    }

    /// Width of one element in bits.
    pub fn bits(&self) -> u32 {
        match self {
            ElementType::Bool => 8, // i1 is stored as a byte by XLA
            ElementType::Int(b) | ElementType::UInt(b) => *b,
            ElementType::Float { bits, .. } => *bits,
            ElementType::Complex(b) => 2 * b,
            ElementType::Other { bits, .. } => *bits,
        }
    }

    pub fn is_float(&self) -> bool {
        matches!(self, ElementType::Float { .. } | ElementType::Complex(_))
    }

    /// The whole number `value` as an element of a dense attribute of this type: `true`, `3`,
    /// `3.0`, `(3.0,0.0)` (MLIR rejects `3` for a float and `3.0` for a complex element).
    pub fn whole_number_literal(&self, value: i64) -> String {
        match self {
            ElementType::Bool => (value != 0).to_string(),
            ElementType::Int(_) | ElementType::UInt(_) | ElementType::Other { .. } => value.to_string(),
            ElementType::Float { .. } => format!("{value}.0"),
            ElementType::Complex(_) => format!("({value}.0,0.0)"),
        }
    }

    /// Parses the MLIR spelling of an element type (`f32`, `i1`, `ui8`, `complex<f32>`, ...).
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim();
        if t == "i1" {
            return Some(ElementType::Bool);
        }
        if let Some(rest) = t.strip_prefix("ui") {
            return rest.parse().ok().map(ElementType::UInt);
        }
        if let Some(rest) = t.strip_prefix("si") {
            return rest.parse().ok().map(ElementType::Int);
        }
        if let Some(rest) = t.strip_prefix('i') {
            return rest.parse().ok().map(ElementType::Int);
        }
        if let Some(inner) = t.strip_prefix("complex<").and_then(|r| r.strip_suffix('>')) {
            return match inner {
                "f32" => Some(ElementType::Complex(32)),
                "f64" => Some(ElementType::Complex(64)),
                _ => None,
            };
        }
        float_bits(t).map(|bits| ElementType::Float { name: t.to_string(), bits })
    }
}

fn float_bits(name: &str) -> Option<u32> {
    Some(match name {
        "f64" => 64,
        "f32" => 32,
        "tf32" => 19,
        "f16" | "bf16" => 16,
        "f8E4M3FN" | "f8E5M2" | "f8E4M3FNUZ" | "f8E5M2FNUZ" | "f8E4M3B11FNUZ" | "f8E4M3" | "f8E3M4" | "f8E8M0FNU" => 8,
        "f6E2M3FN" | "f6E3M2FN" => 6,
        "f4E2M1FN" => 4,
        _ => return None,
    })
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElementType::Bool => write!(f, "i1"),
            ElementType::Int(b) => write!(f, "i{b}"),
            ElementType::UInt(b) => write!(f, "ui{b}"),
            ElementType::Float { name, .. } => write!(f, "{name}"),
            ElementType::Complex(b) => write!(f, "complex<f{b}>"),
            ElementType::Other { text, .. } => write!(f, "{text}"),
        }
    }
}

/// A ranked tensor with a fully static shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TensorType {
    pub shape: Vec<i64>,
    pub element: ElementType,
}

impl TensorType {
    pub fn new(shape: Vec<i64>, element: ElementType) -> Self {
        TensorType { shape, element }
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Elements, exactly (`None` past u128).
    fn exact_elements(&self) -> Option<u128> {
        self.shape.iter().try_fold(1u128, |n, &d| n.checked_mul(d.max(0) as u128))
    }

    /// Elements; `None` when the count does not fit u64.
    pub fn checked_elements(&self) -> Option<u64> {
        self.exact_elements().and_then(|n| u64::try_from(n).ok())
    }

    /// Bytes of the whole tensor (sub-byte elements are packed); `None` when they do not fit
    /// u64. Bits are counted in u128: elements x bits may pass u64 where the bytes do not.
    pub fn checked_byte_size(&self) -> Option<u64> {
        let bits = self.exact_elements()?.checked_mul(self.element.bits() as u128)?;
        u64::try_from(bits.div_ceil(8)).ok()
    }

    /// Elements, saturating: exact for every value the graph reader accepts, as it rejects
    /// values past u64 (`ir::verify::value_fits`).
    pub fn num_elements(&self) -> u64 {
        self.checked_elements().unwrap_or(u64::MAX)
    }

    /// Bytes, saturating: exact for every value the graph reader accepts (see `num_elements`).
    pub fn byte_size(&self) -> u64 {
        self.checked_byte_size().unwrap_or(u64::MAX)
    }
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tensor<")?;
        for d in &self.shape {
            write!(f, "{d}x")?;
        }
        write!(f, "{}>", self.element)
    }
}

/// The type of any SSA value the graph sees.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    Tensor(TensorType),
    /// `!stablehlo.token`
    Token,
    Tuple(Vec<ValueType>),
    /// Any other type, by its printed text.
    Other(String),
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueType::Tensor(t) => write!(f, "{t}"),
            ValueType::Token => write!(f, "!stablehlo.token"),
            ValueType::Tuple(items) => {
                let items: Vec<String> = items.iter().map(ToString::to_string).collect();
                write!(f, "tuple<{}>", items.join(", "))
            }
            ValueType::Other(text) => write!(f, "{text}"),
        }
    }
}

impl ValueType {
    pub fn tensor(&self) -> Option<&TensorType> {
        match self {
            ValueType::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// Bytes of the value: a tuple's are its elements' sum, a token has none by definition, and
    /// other types (memref, ...) are not costed. `None` when they do not fit u64.
    pub fn checked_byte_size(&self) -> Option<u64> {
        match self {
            ValueType::Tensor(t) => t.checked_byte_size(),
            ValueType::Tuple(items) => items.iter().try_fold(0u64, |acc, v| acc.checked_add(v.checked_byte_size()?)),
            ValueType::Token | ValueType::Other(_) => Some(0),
        }
    }

    /// Bytes, saturating: exact for every value the graph reader accepts (see `num_elements`).
    pub fn byte_size(&self) -> u64 {
        self.checked_byte_size().unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_number_is_written_as_each_element_type_spells_it() {
        let literal = |ty: &str, value| ElementType::parse(ty).unwrap().whole_number_literal(value);
        assert_eq!(literal("i1", 0), "false");
        assert_eq!(literal("i32", -3), "-3");
        assert_eq!(literal("ui8", 2), "2");
        assert_eq!(literal("bf16", 2), "2.0");
        assert_eq!(literal("complex<f32>", 0), "(0.0,0.0)");
    }

    #[test]
    fn parses_every_element_type_spelling() {
        assert_eq!(ElementType::parse("i1"), Some(ElementType::Bool));
        assert_eq!(ElementType::parse("i32"), Some(ElementType::Int(32)));
        assert_eq!(ElementType::parse("ui8"), Some(ElementType::UInt(8)));
        assert_eq!(ElementType::parse("complex<f64>"), Some(ElementType::Complex(64)));
        assert_eq!(ElementType::parse("bf16").unwrap().bits(), 16);
        assert_eq!(ElementType::parse("f8E4M3FN").unwrap().bits(), 8);
        assert_eq!(ElementType::parse("f4E2M1FN").unwrap().bits(), 4);
        assert_eq!(ElementType::parse("vector<4xf32>"), None);
    }

    #[test]
    fn byte_sizes_pack_sub_byte_types() {
        let t = TensorType::new(vec![3, 5], ElementType::parse("i4").unwrap());
        assert_eq!(t.byte_size(), 8);
        let t = TensorType::new(vec![2, 3], ElementType::Complex(32));
        assert_eq!(t.byte_size(), 48);
        let t = TensorType::new(vec![], ElementType::f32());
        assert_eq!(t.byte_size(), 4);
        // 2^62 bytes of i8: elements x bits is 2^65, past u64, the bytes are not.
        let t = TensorType::new(vec![1 << 62], ElementType::Int(8));
        assert_eq!(t.byte_size(), 1 << 62);
        let tuple = ValueType::Tuple(vec![ValueType::Tensor(t.clone()); 3]);
        assert_eq!(tuple.checked_byte_size(), Some(3 << 62));
        assert_eq!(ValueType::Tuple(vec![ValueType::Tensor(t); 5]).checked_byte_size(), None);
    }

    #[test]
    fn sizes_past_u64_are_none() {
        // 2^61 f32 elements are 2^63 bytes; 2^62 are 2^64 bytes, one past u64.
        let f32s = |n: i64| TensorType::new(vec![n], ElementType::f32());
        assert_eq!(f32s(1 << 61).checked_byte_size(), Some(1 << 63));
        assert_eq!(f32s(1 << 62).checked_byte_size(), None);
        assert_eq!(f32s(1 << 62).checked_elements(), Some(1 << 62));
        // 2^96 elements: the count itself is past u64 (it was saturated to 2^64 - 1).
        let huge = TensorType::new(vec![1 << 48, 1 << 48], ElementType::Int(8));
        assert_eq!(huge.checked_elements(), None);
        assert_eq!(huge.checked_byte_size(), None);
        // 2^63 i4 elements are 2^62 bytes: the elements fit, the bits do not.
        let nibbles = TensorType::new(vec![1 << 62, 2], ElementType::Int(4));
        assert_eq!(nibbles.checked_byte_size(), Some(1 << 62));
        // 2^190 elements are past u128 as well.
        let beyond = TensorType::new(vec![1 << 62, 1 << 62, 1 << 62], ElementType::Int(8));
        assert_eq!(beyond.checked_byte_size(), None);
        assert_eq!(ValueType::Token.checked_byte_size(), Some(0));
    }
}
