//! `#stablehlo.dot<...>`, `#stablehlo.gather<...>` and `#stablehlo.scatter<...>`.

use super::lexer::{check_dims, check_distinct, write_struct, Fields, Parser};
use super::AttrError;
use std::fmt;

/// `#stablehlo.dot<...>`: the dimension numbers of `dot_general`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DotDimensionNumbers {
    pub lhs_batching_dimensions: Vec<i64>,
    pub rhs_batching_dimensions: Vec<i64>,
    pub lhs_contracting_dimensions: Vec<i64>,
    pub rhs_contracting_dimensions: Vec<i64>,
}

impl DotDimensionNumbers {
    /// Parses `dot<lhs_batching_dimensions = [0], ...>` (fields may be left out when empty).
    pub fn parse(text: &str) -> Result<Self, AttrError> {
        let mut p = Parser::new("dot", text)?;
        let raw = p.fields("dot")?;
        let f = Fields::new(
            &p,
            raw,
            &[
                "lhs_batching_dimensions",
                "rhs_batching_dimensions",
                "lhs_contracting_dimensions",
                "rhs_contracting_dimensions",
            ],
        )?;
        let d = DotDimensionNumbers {
            lhs_batching_dimensions: f.list(&["lhs_batching_dimensions"])?,
            rhs_batching_dimensions: f.list(&["rhs_batching_dimensions"])?,
            lhs_contracting_dimensions: f.list(&["lhs_contracting_dimensions"])?,
            rhs_contracting_dimensions: f.list(&["rhs_contracting_dimensions"])?,
        };
        for (name, v) in [
            ("lhs_batching_dimensions", &d.lhs_batching_dimensions),
            ("rhs_batching_dimensions", &d.rhs_batching_dimensions),
            ("lhs_contracting_dimensions", &d.lhs_contracting_dimensions),
            ("rhs_contracting_dimensions", &d.rhs_contracting_dimensions),
        ] {
            check_dims(&p, name, v)?;
        }
        if d.lhs_batching_dimensions.len() != d.rhs_batching_dimensions.len() {
            return Err(p.err("lhs and rhs batching dimensions differ in number"));
        }
        if d.lhs_contracting_dimensions.len() != d.rhs_contracting_dimensions.len() {
            return Err(p.err("lhs and rhs contracting dimensions differ in number"));
        }
        check_distinct(&p, "the lhs dimensions", &[&d.lhs_batching_dimensions, &d.lhs_contracting_dimensions])?;
        check_distinct(&p, "the rhs dimensions", &[&d.rhs_batching_dimensions, &d.rhs_contracting_dimensions])?;
        Ok(d)
    }
}

impl fmt::Display for DotDimensionNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_struct(
            f,
            "dot",
            &[
                ("lhs_batching_dimensions", &self.lhs_batching_dimensions),
                ("rhs_batching_dimensions", &self.rhs_batching_dimensions),
                ("lhs_contracting_dimensions", &self.lhs_contracting_dimensions),
                ("rhs_contracting_dimensions", &self.rhs_contracting_dimensions),
            ],
            &[],
        )
    }
}

/// `#stablehlo.gather<...>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GatherDimensionNumbers {
    pub offset_dims: Vec<i64>,
    pub collapsed_slice_dims: Vec<i64>,
    pub operand_batching_dims: Vec<i64>,
    pub start_indices_batching_dims: Vec<i64>,
    pub start_index_map: Vec<i64>,
    pub index_vector_dim: i64,
}

impl GatherDimensionNumbers {
    pub fn parse(text: &str) -> Result<Self, AttrError> {
        let mut p = Parser::new("gather", text)?;
        let raw = p.fields("gather")?;
        let f = Fields::new(
            &p,
            raw,
            &[
                "offset_dims",
                "collapsed_slice_dims",
                "operand_batching_dims",
                "start_indices_batching_dims",
                "start_index_map",
                "index_vector_dim",
            ],
        )?;
        let d = GatherDimensionNumbers {
            offset_dims: f.list(&["offset_dims"])?,
            collapsed_slice_dims: f.list(&["collapsed_slice_dims"])?,
            operand_batching_dims: f.list(&["operand_batching_dims"])?,
            start_indices_batching_dims: f.list(&["start_indices_batching_dims"])?,
            start_index_map: f.list(&["start_index_map"])?,
            index_vector_dim: f.int(&["index_vector_dim"])?,
        };
        for (name, v) in [
            ("offset_dims", &d.offset_dims),
            ("collapsed_slice_dims", &d.collapsed_slice_dims),
            ("operand_batching_dims", &d.operand_batching_dims),
            ("start_indices_batching_dims", &d.start_indices_batching_dims),
            ("start_index_map", &d.start_index_map),
        ] {
            check_dims(&p, name, v)?;
        }
        check_dims(&p, "index_vector_dim", &[d.index_vector_dim])?;
        check_distinct(&p, "offset_dims", &[&d.offset_dims])?;
        check_distinct(&p, "start_index_map", &[&d.start_index_map])?;
        check_distinct(
            &p,
            "collapsed_slice_dims and operand_batching_dims",
            &[&d.collapsed_slice_dims, &d.operand_batching_dims],
        )?;
        check_distinct(&p, "start_indices_batching_dims", &[&d.start_indices_batching_dims])?;
        if d.operand_batching_dims.len() != d.start_indices_batching_dims.len() {
            return Err(p.err("operand_batching_dims and start_indices_batching_dims differ in number"));
        }
        if d.start_indices_batching_dims.contains(&d.index_vector_dim) {
            return Err(p.err("index_vector_dim is also a start_indices batching dimension"));
        }
        Ok(d)
    }
}

impl fmt::Display for GatherDimensionNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_struct(
            f,
            "gather",
            &[
                ("offset_dims", &self.offset_dims),
                ("collapsed_slice_dims", &self.collapsed_slice_dims),
                ("operand_batching_dims", &self.operand_batching_dims),
                ("start_indices_batching_dims", &self.start_indices_batching_dims),
                ("start_index_map", &self.start_index_map),
            ],
            &[("index_vector_dim", self.index_vector_dim)],
        )
    }
}

/// `#stablehlo.scatter<...>`. The batching fields are also accepted under gather's names
/// (`operand_batching_dims`, `start_indices_batching_dims`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScatterDimensionNumbers {
    pub update_window_dims: Vec<i64>,
    pub inserted_window_dims: Vec<i64>,
    pub input_batching_dims: Vec<i64>,
    pub scatter_indices_batching_dims: Vec<i64>,
    pub scatter_dims_to_operand_dims: Vec<i64>,
    pub index_vector_dim: i64,
}

impl ScatterDimensionNumbers {
    pub fn parse(text: &str) -> Result<Self, AttrError> {
        let mut p = Parser::new("scatter", text)?;
        let raw = p.fields("scatter")?;
        let f = Fields::new(
            &p,
            raw,
            &[
                "update_window_dims",
                "inserted_window_dims",
                "input_batching_dims",
                "operand_batching_dims",
                "scatter_indices_batching_dims",
                "start_indices_batching_dims",
                "scatter_dims_to_operand_dims",
                "index_vector_dim",
            ],
        )?;
        let d = ScatterDimensionNumbers {
            update_window_dims: f.list(&["update_window_dims"])?,
            inserted_window_dims: f.list(&["inserted_window_dims"])?,
            input_batching_dims: f.list(&["input_batching_dims", "operand_batching_dims"])?,
            scatter_indices_batching_dims: f.list(&["scatter_indices_batching_dims", "start_indices_batching_dims"])?,
            scatter_dims_to_operand_dims: f.list(&["scatter_dims_to_operand_dims"])?,
            index_vector_dim: f.int(&["index_vector_dim"])?,
        };
        for (name, v) in [
            ("update_window_dims", &d.update_window_dims),
            ("inserted_window_dims", &d.inserted_window_dims),
            ("input_batching_dims", &d.input_batching_dims),
            ("scatter_indices_batching_dims", &d.scatter_indices_batching_dims),
            ("scatter_dims_to_operand_dims", &d.scatter_dims_to_operand_dims),
        ] {
            check_dims(&p, name, v)?;
        }
        check_dims(&p, "index_vector_dim", &[d.index_vector_dim])?;
        check_distinct(&p, "update_window_dims", &[&d.update_window_dims])?;
        check_distinct(&p, "scatter_dims_to_operand_dims", &[&d.scatter_dims_to_operand_dims])?;
        check_distinct(
            &p,
            "inserted_window_dims and input_batching_dims",
            &[&d.inserted_window_dims, &d.input_batching_dims],
        )?;
        check_distinct(&p, "scatter_indices_batching_dims", &[&d.scatter_indices_batching_dims])?;
        if d.input_batching_dims.len() != d.scatter_indices_batching_dims.len() {
            return Err(p.err("input_batching_dims and scatter_indices_batching_dims differ in number"));
        }
        if d.scatter_indices_batching_dims.contains(&d.index_vector_dim) {
            return Err(p.err("index_vector_dim is also a scatter_indices batching dimension"));
        }
        Ok(d)
    }
}

impl fmt::Display for ScatterDimensionNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_struct(
            f,
            "scatter",
            &[
                ("update_window_dims", &self.update_window_dims),
                ("inserted_window_dims", &self.inserted_window_dims),
                ("input_batching_dims", &self.input_batching_dims),
                ("scatter_indices_batching_dims", &self.scatter_indices_batching_dims),
                ("scatter_dims_to_operand_dims", &self.scatter_dims_to_operand_dims),
            ],
            &[("index_vector_dim", self.index_vector_dim)],
        )
    }
}
