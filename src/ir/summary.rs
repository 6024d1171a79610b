//! Whole-function cost totals: what `alpa-annotate-costs` reports.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §3.

use super::cost::OpCost;
use super::graph::Graph;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CostSummary {
    pub ops_by_kind: BTreeMap<String, usize>,
    pub unknown_ops: BTreeMap<String, usize>,
    pub flops: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// FLOPs per compute type (src/ir/compute_type.rs), for compute time at each type's peak.
    pub flops_by_element: BTreeMap<String, u64>,
}

impl CostSummary {
    /// Adds one op's cost; an error, changing nothing, when a total would pass u64 (a
    /// saturated total would be reported as if it were the count).
    pub fn add(&mut self, op_name: &str, element: Option<String>, cost: &OpCost) -> Result<(), String> {
        let (Some(flops), Some(bytes_read), Some(bytes_written)) = (
            self.flops.checked_add(cost.flops),
            self.bytes_read.checked_add(cost.bytes_read),
            self.bytes_written.checked_add(cost.bytes_written),
        ) else {
            return Err("the function's FLOPs or bytes up to this op pass 2^64: sizes past u64 cannot be costed".into());
        };
        (self.flops, self.bytes_read, self.bytes_written) = (flops, bytes_read, bytes_written);
        *self.ops_by_kind.entry(op_name.to_string()).or_default() += 1;
        if !cost.known {
            *self.unknown_ops.entry(op_name.to_string()).or_default() += 1;
        }
        // Each element type's FLOPs are part of `flops`, which fits.
        if cost.flops > 0 {
            let key = element.unwrap_or_else(|| "other".into());
            *self.flops_by_element.entry(key).or_default() += cost.flops;
        }
        Ok(())
    }

    pub fn op_count(&self) -> usize {
        self.ops_by_kind.values().sum()
    }

    /// Seconds to run all FLOPs on one device with the given peak per element type.
    pub fn compute_seconds(&self, peak_flops: impl Fn(&str) -> f64) -> f64 {
        self.flops_by_element.iter().map(|(element, flops)| *flops as f64 / peak_flops(element)).sum()
    }

    /// One line per fact, deterministic: ops by kind (most frequent first), FLOPs, bytes.
    pub fn describe(&self, graph: &Graph) -> String {
        let mut kinds: Vec<(&String, &usize)> = self.ops_by_kind.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let donated: Vec<_> = graph.args.iter().filter(|a| a.is_donated()).collect();
        let donated_bytes = donated.iter().map(|a| a.ty.byte_size()).fold(0u64, u64::saturating_add);
        let mut text = format!(
            "@{}: {} ops ({}); {} FLOPs; arguments: {} ({}), donated: {} ({}); bytes read {}, written {}",
            graph.func_name,
            self.op_count(),
            kinds.join(", "),
            self.flops,
            graph.args.len(),
            human_bytes(graph.argument_bytes()),
            donated.len(),
            human_bytes(donated_bytes),
            human_bytes(self.bytes_read),
            human_bytes(self.bytes_written),
        );
        if !self.unknown_ops.is_empty() {
            let unknown: Vec<String> = self.unknown_ops.iter().map(|(k, n)| format!("{k} {n}")).collect();
            text += &format!("; not in the op table: {}", unknown.join(", "));
        }
        text
    }
}

pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

pub fn human_seconds(seconds: f64) -> String {
    if seconds < 1e-3 {
        format!("{:.3} us", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.3} ms", seconds * 1e3)
    } else {
        format!("{seconds:.3} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_seconds_picks_the_unit() {
        assert_eq!(human_seconds(2.15e-7), "0.215 us");
        assert_eq!(human_seconds(0.0125), "12.500 ms");
        assert_eq!(human_seconds(3.0), "3.000 s");
    }

    #[test]
    fn human_bytes_picks_the_unit() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.50 KiB");
        assert_eq!(human_bytes(3 << 30), "3.00 GiB");
    }

    #[test]
    fn compute_time_uses_each_element_types_peak() {
        let mut summary = CostSummary::default();
        let cost = OpCost { flops: 100, transcendentals: 0, bytes_read: 8, bytes_written: 4, known: true };
        summary.add("stablehlo.dot_general", Some("f32".into()), &cost).unwrap();
        summary.add("stablehlo.dot_general", Some("bf16".into()), &cost).unwrap();
        let seconds = summary.compute_seconds(|e| if e == "f32" { 10.0 } else { 100.0 });
        assert!((seconds - 11.0).abs() < 1e-12);
        assert_eq!(summary.op_count(), 2);
        assert_eq!(summary.bytes_read, 16);
    }

    #[test]
    fn totals_past_u64_are_errors_not_saturated() {
        let mut summary = CostSummary::default();
        let half = OpCost { flops: 1 << 63, transcendentals: 0, bytes_read: 0, bytes_written: 0, known: true };
        summary.add("a", None, &half).unwrap();
        assert!(summary.add("b", None, &half).unwrap_err().contains("pass 2^64"));
        assert_eq!((summary.flops, summary.op_count()), (1 << 63, 1));
    }
}
