//! Prints a transfer's per-partition programs (src/resharding/lowering.rs) as StableHLO
//! functions in shard_map style: the argument stacks one block per partition
//! (`tensor<N x tile>`, block sharding), the body runs on one partition's block between
//! `SPMDFullToShardShape` and `SPMDShardToFullShape` (manual sharding), and moves data only
//! with `collective_permute` and `all_gather`, each with its own channel. This form compiles and
//! runs with XLA's GSPMD partitioner on any backend (python/tests/test_transfer_programs.py).

use super::mlir::i64_array_text;
use crate::ir::types::{ElementType, TensorType};
use crate::resharding::lowering::{GatherProgram, SendProgram};
use std::fmt::Write;

/// SSA names and lines of one function body.
struct Body {
    lines: Vec<String>,
    next: usize,
}

impl Body {
    fn new() -> Self {
        Body { lines: Vec::new(), next: 0 }
    }

    /// Appends `%k = <text>` and returns `%k`.
    fn op(&mut self, text: String) -> String {
        let name = format!("%{}", self.next);
        self.next += 1;
        self.lines.push(format!("    {name} = {text}"));
        name
    }
}

fn tensor(shape: &[i64], element: &ElementType) -> String {
    TensorType::new(shape.to_vec(), element.clone()).to_string()
}

fn dense_matrix(rows: &[Vec<i64>]) -> String {
    let rows: Vec<String> =
        rows.iter().map(|r| format!("[{}]", r.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))).collect();
    format!("[{}]", rows.join(", "))
}

/// The block sharding of a stacked `tensor<N x tile>`: dimension 0 over the N partitions.
fn block_sharding(n: usize, tile_rank: usize) -> String {
    let ones = ",1".repeat(tile_rank);
    format!("{{devices=[{n}{ones}]<=[{n}]}}")
}

fn custom_call(body: &mut Body, target: &str, operand: &str, sharding: &str, from: &str, to: &str) -> String {
    body.op(format!(
        "\"stablehlo.custom_call\"({operand}) <{{api_version = 1 : i32, backend_config = \"\", call_target_name = \"{target}\", called_computations = [], has_side_effect = false}}> {{mhlo.sharding = \"{sharding}\"}} : ({from}) -> {to}"
    ))
}

/// Enters manual sharding: the partition's block of `%arg0`, as `tile` (rank >= 1).
fn enter(body: &mut Body, n: usize, tile: &[i64], element: &ElementType, rank: usize) -> String {
    let stacked = tensor(&stacked_shape(n, tile, rank), element);
    let block = tensor(&stacked_shape(1, tile, rank), element);
    let sharding = block_sharding(n, rank);
    let pinned = custom_call(body, "Sharding", "%arg0", &sharding, &stacked, &stacked);
    let local = custom_call(body, "SPMDFullToShardShape", &pinned, "{manual}", &stacked, &block);
    reshape(body, &local, &block, &tensor(tile, element))
}

/// Leaves manual sharding: `value` of shape `tile` becomes the partition's block of the result.
fn leave(body: &mut Body, value: &str, n: usize, tile: &[i64], element: &ElementType, rank: usize) -> String {
    let stacked = tensor(&stacked_shape(n, tile, rank), element);
    let block = tensor(&stacked_shape(1, tile, rank), element);
    let as_block = reshape(body, value, &tensor(tile, element), &block);
    let manual = custom_call(body, "Sharding", &as_block, "{manual}", &block, &block);
    custom_call(body, "SPMDShardToFullShape", &manual, &block_sharding(n, rank), &block, &stacked)
}

fn reshape(body: &mut Body, value: &str, from: &str, to: &str) -> String {
    if from == to {
        return value.to_string();
    }
    body.op(format!("\"stablehlo.reshape\"({value}) : ({from}) -> {to}"))
}

/// `[n] ++ tile`, where a scalar's internal tile `[1]` stacks as `[n]`.
fn stacked_shape(n: usize, tile: &[i64], rank: usize) -> Vec<i64> {
    let mut shape = vec![n as i64];
    if rank > 0 {
        shape.extend_from_slice(tile);
    }
    shape
}

/// A scalar tile is handled as `[1]` inside the program.
fn internal(shape: &[i64]) -> Vec<i64> {
    if shape.is_empty() {
        vec![1]
    } else {
        shape.to_vec()
    }
}

fn function(
    name: &str,
    n: usize,
    rank: usize,
    input: &[i64],
    output: &[i64],
    element: &ElementType,
    devices: &[usize],
    body: Body,
    result: &str,
) -> String {
    let arg = tensor(&stacked_shape(n, input, rank), element);
    let res = tensor(&stacked_shape(n, output, rank), element);
    let sharding = block_sharding(n, rank);
    let mut text = format!(
        "func.func private @{name}(%arg0: {arg} {{mhlo.sharding = \"{sharding}\"}}) -> ({res} {{mhlo.sharding = \"{sharding}\"}}) attributes {{alpa.devices = {}}} {{\n",
        i64_array_text(devices.iter().map(|&d| d as i64))
    );
    for line in body.lines {
        let _ = writeln!(text, "{line}");
    }
    let _ = writeln!(text, "    \"func.return\"({result}) : ({res}) -> ()\n}}");
    text
}

/// The send program of a transfer of a rank-`rank` tensor of `element`s.
pub fn send_program(
    name: &str,
    program: &SendProgram,
    rank: usize,
    element: &ElementType,
    first_channel: i64,
) -> String {
    let n = program.devices.len();
    let src_tile = internal(&program.src_tile);
    let dst_tile = internal(&program.dst_buffer);
    let mut body = Body::new();
    let source = enter(&mut body, n, &src_tile, element, rank);
    let scalar = tensor(&[], element);
    let zero_scalar = body.op(format!(
        "\"stablehlo.constant\"() <{{value = dense<{}> : {scalar}}}> : () -> {scalar}",
        element.whole_number_literal(0)
    ));
    let dst_type = tensor(&dst_tile, element);
    let mut dst = body.op(format!("\"stablehlo.broadcast_in_dim\"({zero_scalar}) <{{broadcast_dimensions = array<i64>}}> : ({scalar}) -> {dst_type}"));
    if !program.rounds.is_empty() {
        let pid = body.op("\"stablehlo.partition_id\"() : () -> tensor<ui32>".into());
        let pid = body.op(format!("\"stablehlo.convert\"({pid}) : (tensor<ui32>) -> tensor<i32>"));
        let zero_index =
            body.op("\"stablehlo.constant\"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>".into());
        let r = src_tile.len();
        let width = 2 * r + 3;
        for (index, round) in program.rounds.iter().enumerate() {
            // One row per partition: source offset, destination offset, receives, local copy,
            // relay (sends out of its destination buffer).
            let rows: Vec<Vec<i64>> = round
                .rows
                .iter()
                .map(|row| {
                    let mut cells = internal_offsets(&row.src_offset);
                    cells.extend(internal_offsets(&row.dst_offset));
                    cells.push(row.receives as i64);
                    cells.push(row.local as i64);
                    cells.push(row.relay as i64);
                    cells
                })
                .collect();
            let table_type = format!("tensor<{n}x{width}xi32>");
            let table = body.op(format!(
                "\"stablehlo.constant\"() <{{value = dense<{}> : {table_type}}}> : () -> {table_type}",
                dense_matrix(&rows)
            ));
            let row_type = format!("tensor<1x{width}xi32>");
            let row = body.op(format!(
                "\"stablehlo.dynamic_slice\"({table}, {pid}, {zero_index}) <{{slice_sizes = array<i64: 1, {width}>}}> : ({table_type}, tensor<i32>, tensor<i32>) -> {row_type}"
            ));
            let mut cell = |column: usize| {
                let one = body.op(format!(
                    "\"stablehlo.slice\"({row}) <{{limit_indices = array<i64: 1, {}>, start_indices = array<i64: 0, {column}>, strides = array<i64: 1, 1>}}> : ({row_type}) -> tensor<1x1xi32>",
                    column + 1
                ));
                body.op(format!("\"stablehlo.reshape\"({one}) : (tensor<1x1xi32>) -> tensor<i32>"))
            };
            let src_offsets: Vec<String> = (0..r).map(&mut cell).collect();
            let dst_offsets: Vec<String> = (r..2 * r).map(&mut cell).collect();
            let receives = cell(2 * r);
            let local = cell(2 * r + 1);
            let relay = round.rows.iter().any(|row| row.relay).then(|| cell(2 * r + 2));
            let piece_shape = internal(&round.piece_shape);
            let piece_type = tensor(&piece_shape, element);
            let index_types = vec!["tensor<i32>"; r].join(", ");
            let mut piece = body.op(format!(
                "\"stablehlo.dynamic_slice\"({source}, {}) <{{slice_sizes = {}}}> : ({}, {index_types}) -> {piece_type}",
                src_offsets.join(", "),
                i64_array_text(piece_shape.iter().copied()),
                tensor(&src_tile, element)
            ));
            if let Some(relay) = relay {
                let received = body.op(format!(
                    "\"stablehlo.dynamic_slice\"({dst}, {}) <{{slice_sizes = {}}}> : ({dst_type}, {index_types}) -> {piece_type}",
                    src_offsets.join(", "),
                    i64_array_text(piece_shape.iter().copied())
                ));
                let relays = body.op(format!(
                    "\"stablehlo.compare\"({relay}, {zero_index}) <{{comparison_direction = #stablehlo<comparison_direction NE>}}> : (tensor<i32>, tensor<i32>) -> tensor<i1>"
                ));
                piece = body.op(format!("\"stablehlo.select\"({relays}, {received}, {piece}) : (tensor<i1>, {piece_type}, {piece_type}) -> {piece_type}"));
            }
            let arriving = if round.pairs.is_empty() {
                piece.clone()
            } else {
                let pairs: Vec<Vec<i64>> = round.pairs.iter().map(|&(a, b)| vec![a as i64, b as i64]).collect();
                let moved = body.op(format!(
                    "\"stablehlo.collective_permute\"({piece}) <{{channel_handle = #stablehlo.channel_handle<handle = {}, type = 1>, source_target_pairs = dense<{}> : tensor<{}x2xi64>}}> : ({piece_type}) -> {piece_type}",
                    first_channel + index as i64,
                    dense_matrix(&pairs),
                    pairs.len()
                ));
                let is_local = body.op(format!(
                    "\"stablehlo.compare\"({local}, {zero_index}) <{{comparison_direction = #stablehlo<comparison_direction NE>}}> : (tensor<i32>, tensor<i32>) -> tensor<i1>"
                ));
                body.op(format!("\"stablehlo.select\"({is_local}, {piece}, {moved}) : (tensor<i1>, {piece_type}, {piece_type}) -> {piece_type}"))
            };
            let updated = body.op(format!(
                "\"stablehlo.dynamic_update_slice\"({dst}, {arriving}, {}) : ({dst_type}, {piece_type}, {index_types}) -> {dst_type}",
                dst_offsets.join(", ")
            ));
            let does_receive = body.op(format!(
                "\"stablehlo.compare\"({receives}, {zero_index}) <{{comparison_direction = #stablehlo<comparison_direction NE>}}> : (tensor<i32>, tensor<i32>) -> tensor<i1>"
            ));
            dst = body.op(format!("\"stablehlo.select\"({does_receive}, {updated}, {dst}) : (tensor<i1>, {dst_type}, {dst_type}) -> {dst_type}"));
        }
    }
    let result = leave(&mut body, &dst, n, &dst_tile, element, rank);
    function(name, n, rank, &src_tile, &dst_tile, element, &program.devices, body, &result)
}

fn internal_offsets(offsets: &[i64]) -> Vec<i64> {
    if offsets.is_empty() {
        vec![0]
    } else {
        offsets.to_vec()
    }
}

/// The gather program of a local all-gather: one `all_gather` inside every replica group.
pub fn gather_program(name: &str, program: &GatherProgram, rank: usize, element: &ElementType, channel: i64) -> String {
    let n = program.devices.len();
    let mut body = Body::new();
    let part = enter(&mut body, n, &program.part, element, rank);
    let groups: Vec<Vec<i64>> = program.groups.iter().map(|g| g.iter().map(|&p| p as i64).collect()).collect();
    let gathered = body.op(format!(
        "\"stablehlo.all_gather\"({part}) <{{all_gather_dim = {} : i64, channel_handle = #stablehlo.channel_handle<handle = {channel}, type = 1>, replica_groups = dense<{}> : tensor<{}x{}xi64>, use_global_device_ids}}> : ({}) -> {}",
        program.dim,
        dense_matrix(&groups),
        groups.len(),
        groups.first().map_or(0, Vec::len),
        tensor(&program.part, element),
        tensor(&program.tile, element)
    ));
    let result = leave(&mut body, &gathered, n, &program.tile, element, rank);
    function(name, n, rank, &program.part, &program.tile, element, &program.devices, body, &result)
}
