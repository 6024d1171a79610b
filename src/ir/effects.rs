//! Which ops may do more than compute their results: those must stay in a program even when
//! nothing reads what they return.

use super::op_table::canonical_name;

/// Whether an op named `name` (with its dialect) may have effects beyond its results:
/// communication, host transfers, custom calls, calls of other functions, and any op outside
/// the StableHLO and CHLO dialects (unknown to us, so assumed to).
pub fn may_have_effects(name: &str) -> bool {
    let known_dialect = name.starts_with("stablehlo.") || name.starts_with("chlo.") || name.starts_with("mhlo.");
    if !known_dialect {
        return true;
    }
    matches!(
        canonical_name(name).as_str(),
        "custom_call"
            | "send"
            | "recv"
            | "infeed"
            | "outfeed"
            | "all_reduce"
            | "all_gather"
            | "all_to_all"
            | "reduce_scatter"
            | "collective_permute"
            | "collective_broadcast"
            | "composite"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computations_are_pure_communication_calls_and_unknown_ops_are_not() {
        for pure in ["stablehlo.convert", "stablehlo.reduce", "stablehlo.while", "chlo.erf", "mhlo.add"] {
            assert!(!may_have_effects(pure), "{pure}");
        }
        for effect in [
            "stablehlo.custom_call",
            "stablehlo.all_reduce",
            "stablehlo.outfeed",
            "func.call",
            "sdy.sharding_constraint",
        ] {
            assert!(may_have_effects(effect), "{effect}");
        }
    }
}
