//! The IOPDDL contest format (ASPLOS/EuroSys 2025): read an instance (`.json` or `.json.gz`)
//! into a `StrategyProblem`, write a solution the contest's evaluator accepts.

use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use super::error::IntraError;
use super::problem::{Edge, Node, StrategyProblem};

#[derive(Deserialize)]
struct File {
    problem: RawProblem,
}

#[derive(Deserialize)]
struct RawProblem {
    #[serde(default)]
    name: Option<String>,
    nodes: RawNodes,
    edges: RawEdges,
    #[serde(default)]
    usage_limit: Option<f64>,
}

#[derive(Deserialize)]
struct RawNodes {
    intervals: Vec<(u64, u64)>,
    costs: Vec<Vec<f64>>,
    usages: Vec<Vec<f64>>,
}

#[derive(Deserialize)]
struct RawEdges {
    nodes: Vec<(usize, usize)>,
    costs: Vec<Vec<f64>>,
}

/// An IOPDDL instance.
#[derive(Debug, Clone)]
pub struct IopddlInstance {
    pub name: Option<String>,
    pub problem: StrategyProblem,
}

/// Parses the contest JSON text.
pub fn parse_iopddl(text: &str) -> Result<IopddlInstance, IntraError> {
    let f: File = serde_json::from_str(text).map_err(|e| IntraError::Io(format!("bad IOPDDL JSON: {e}")))?;
    let p = f.problem;
    let n = p.nodes.costs.len();
    if p.nodes.usages.len() != n || p.nodes.intervals.len() != n {
        return Err(IntraError::Io(format!(
            "{} costs, {} usages, {} intervals: the node lists must have the same length",
            n,
            p.nodes.usages.len(),
            p.nodes.intervals.len()
        )));
    }
    check_intervals(&p.nodes.intervals)?;
    if p.edges.nodes.len() != p.edges.costs.len() {
        return Err(IntraError::Io("edges.nodes and edges.costs differ in length".into()));
    }
    let nodes = p
        .nodes
        .costs
        .into_iter()
        .zip(p.nodes.usages)
        .zip(p.nodes.intervals)
        .map(|((costs, usages), interval)| Node { costs, usages: Some(usages), interval: Some(interval) })
        .collect();
    let edges = p.edges.nodes.into_iter().zip(p.edges.costs).map(|((u, v), costs)| Edge { u, v, costs }).collect();
    let problem = StrategyProblem { nodes, edges, aliases: Vec::new(), usage_limit: p.usage_limit };
    problem.validate()?;
    Ok(IopddlInstance { name: p.name, problem })
}

/// Live intervals run from their start to their end: a reversed one is malformed input.
fn check_intervals(intervals: &[(u64, u64)]) -> Result<(), IntraError> {
    match intervals.iter().position(|(start, end)| start > end) {
        Some(i) => Err(IntraError::Io(format!("node {i}: live interval {:?} ends before it starts", intervals[i]))),
        None => Ok(()),
    }
}

/// Reads an instance file; `.gz` files are decompressed.
pub fn read_iopddl(path: &Path) -> Result<IopddlInstance, IntraError> {
    let io = |e: std::io::Error| IntraError::Io(format!("{}: {e}", path.display()));
    let raw = std::fs::read(path).map_err(io)?;
    let mut text = String::new();
    if path.extension().is_some_and(|e| e == "gz") {
        flate2::read::GzDecoder::new(&raw[..]).read_to_string(&mut text).map_err(io)?;
    } else {
        text = String::from_utf8(raw).map_err(|e| IntraError::Io(format!("{}: {e}", path.display())))?;
    }
    parse_iopddl(&text)
}

/// The contest's output: the strategy vector `[i, j, ...]` on one line.
pub fn format_iopddl_solution(choice: &[usize]) -> String {
    let items: Vec<String> = choice.iter().map(|s| s.to_string()).collect();
    format!("[{}]\n", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_mismatched_lists() {
        let text = r#"{"problem":{"nodes":{"intervals":[[0,1]],"costs":[[1],[2]],"usages":[[1]]},
            "edges":{"nodes":[],"costs":[]}}}"#;
        assert!(matches!(parse_iopddl(text), Err(IntraError::Io(_))));
    }

    #[test]
    fn rejects_wrong_edge_matrix() {
        let text = r#"{"problem":{"nodes":{"intervals":[[0,1],[0,1]],"costs":[[1,2],[2]],"usages":[[1,1],[1]]},
            "edges":{"nodes":[[0,1]],"costs":[[1]]}}}"#;
        assert!(matches!(parse_iopddl(text), Err(IntraError::InvalidProblem(_))));
    }

    #[test]
    fn rejects_reversed_intervals() {
        let text = r#"{"problem":{"nodes":{"intervals":[[0,1],[5,2]],"costs":[[1],[2]],"usages":[[1],[1]]},
            "edges":{"nodes":[],"costs":[]}}}"#;
        let err = parse_iopddl(text).unwrap_err().to_string();
        assert!(err.contains("node 1: live interval (5, 2) ends before it starts"), "{err}");
        let empty = r#"{"problem":{"nodes":{"intervals":[[3,3]],"costs":[[1]],"usages":[[1]]},
            "edges":{"nodes":[],"costs":[]}}}"#;
        assert!(parse_iopddl(empty).is_ok());
    }

    #[test]
    fn formats_like_the_contest() {
        assert_eq!(format_iopddl_solution(&[0, 1, 2]), "[0, 1, 2]\n");
    }
}
