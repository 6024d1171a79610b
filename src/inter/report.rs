//! The inter-op plan report (the paper's Fig. 12 in spirit): the cluster, the search options,
//! every stage of the chosen plan with its devices, latency and memory, the modeled iteration
//! time, the search statistics and the baselines computed from the same cost table. Serialized
//! as JSON ([`InterReport::to_json_pretty`]) or drawn as a self-contained HTML page
//! ([`super::render_html`]).
//!
//! Building a report never fails and never panics: inconsistencies between the plan and the
//! cluster (device ids outside the cluster, a device owned twice, a stage without devices,
//! per-layer figures of the wrong length) become `notes`.

use super::baselines::{best_megatron, equal_layer, inter_op_only, intra_op_only, megatron_grid};
use super::cache::QueryStats;
use super::clustering::Clustering;
use super::layer_assignment::LayerId;
use super::memory::Schedule;
use super::microbatches::MicrobatchTrial;
use super::pipeline::PipelinePlan;
use super::plan::{StageDpOptions, StageId, StagePlan};
use super::stage_dp::DpStats;
use super::submesh::{ClusterShape, SubmeshShape};
use super::table::CostTable;
use crate::cluster::spec::Cluster;
use serde::Serialize;

/// Clusters with more devices than this are reported without a per-device owner map (and the
/// HTML page leaves out the device grid).
pub const MAX_GRID_DEVICES: usize = 65536;

/// The cluster as the report shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportCluster {
    pub name: String,
    pub hosts: usize,
    pub devices_per_host: usize,
    pub device_name: Option<String>,
    pub device_memory_bytes: Option<u64>,
}

impl ReportCluster {
    pub fn from_cluster(c: &Cluster) -> Self {
        ReportCluster {
            name: c.name.clone(),
            hosts: c.hosts,
            devices_per_host: c.devices_per_host,
            device_name: Some(c.device.name.clone()),
            device_memory_bytes: Some(c.device.memory_bytes),
        }
    }

    /// A cluster known only by its shape (tests, synthetic oracles).
    pub fn from_shape(name: &str, shape: ClusterShape) -> Self {
        ReportCluster {
            name: name.to_string(),
            hosts: shape.hosts,
            devices_per_host: shape.devices_per_host,
            device_name: None,
            device_memory_bytes: None,
        }
    }

    /// hosts x devices_per_host, `None` on overflow.
    pub fn devices(&self) -> Option<usize> {
        self.hosts.checked_mul(self.devices_per_host)
    }
}

/// The search setting the plan was made under.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportOptions {
    pub microbatches: usize,
    /// "1F1B" or "GPipe".
    pub schedule: String,
    pub epsilon: f64,
    /// Memory per device the DP enforced, bytes; `None` when unlimited.
    pub mem_device_bytes: Option<f64>,
    pub time_limit_seconds: Option<f64>,
    /// L, the number of layers of the cost table.
    pub layers: usize,
    /// The submesh shapes the DP could choose from.
    pub submesh_shapes: Vec<SubmeshShape>,
    /// Whether stage latencies include the cross-stage transfers (stage_transfers.rs).
    pub cross_stage_cost: bool,
}

/// Per-layer work, to report the operators and FLOPs of each stage.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LayerWork {
    /// Operators in layer l.
    pub ops: Vec<usize>,
    /// FLOPs of layer l.
    pub flops: Vec<f64>,
}

impl LayerWork {
    pub fn from_clustering(c: &Clustering) -> Self {
        LayerWork {
            ops: c.boundaries.windows(2).map(|w| w[1].saturating_sub(w[0])).collect(),
            flops: c.layer_flops.clone(),
        }
    }
}

/// One stage of the plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportStage {
    pub index: StageId,
    /// Layer indices [lo, hi).
    pub layers: [LayerId; 2],
    /// Operators and FLOPs of the stage's layers, when [`LayerWork`] was supplied.
    pub ops: Option<usize>,
    pub flops: Option<f64>,
    pub submesh: SubmeshShape,
    pub logical_mesh: [usize; 2],
    /// Device ids (host-major).
    pub devices: Vec<usize>,
    /// Pipeline depth: stages from this one to the last, itself included.
    pub depth: usize,
    /// Per-microbatch latency, seconds (cross-stage transfer included).
    pub latency: f64,
    /// Cross-stage transfer seconds in `latency` (0 unless `cross_stage_cost`).
    pub transfer: f64,
    pub mem_param: f64,
    pub mem_act: f64,
    /// Memory per device at this stage's depth under the schedule, bytes.
    pub memory: f64,
    /// B x latency / iteration time: the fraction of the iteration the stage is computing.
    pub busy_share: Option<f64>,
}

/// A stage of a baseline plan (layer indices in that plan's own layering).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BaselineStage {
    pub layers: [LayerId; 2],
    pub submesh: SubmeshShape,
    pub logical_mesh: [usize; 2],
    pub latency: f64,
    pub memory: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BaselineStatus {
    /// A plan exists.
    Ok,
    /// No plan of this kind fits the cluster and memory.
    Infeasible,
    /// The caller did not compute it (equal-operator needs its own clustering).
    NotComputed,
}

/// The (data, tensor, pipeline) degrees of a Megatron grid point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MegatronDegrees {
    pub data: usize,
    pub tensor: usize,
    pub pipeline: usize,
}

/// One baseline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportBaseline {
    pub name: String,
    pub status: BaselineStatus,
    /// Modeled iteration time, seconds; `None` unless the status is `ok`.
    pub iteration_time: Option<f64>,
    /// Baseline iteration time / plan iteration time (> 1: the plan is faster).
    pub speedup: Option<f64>,
    /// The grid point, for the Megatron baseline.
    pub megatron: Option<MegatronDegrees>,
    pub stages: Vec<BaselineStage>,
    pub note: Option<String>,
}

/// Extra inputs of a report, all optional.
#[derive(Clone, Debug, Default)]
pub struct ReportExtras {
    /// Per-layer operators and FLOPs of the clustering the plan was made on.
    pub layer_work: Option<LayerWork>,
    /// The plan on equal-operator layers (its own clustering and cost table); `None` when not
    /// computed.
    pub equal_operator: Option<StagePlan>,
    /// Why `equal_operator` is `None`, when there is more to say than "not computed".
    pub equal_operator_note: Option<String>,
    /// How B was chosen: the microbatch search's trials (`microbatches=auto`), if any.
    pub microbatch_search: Option<MicrobatchSearch>,
    /// The user fixed the stages (`stages=`, as written): the table holds only theirs, so no
    /// baselines are computed from it.
    pub fixed_stages: Option<String>,
}

/// The search over B the plan came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MicrobatchSearch {
    /// The global batch that was split into B microbatches.
    pub global_batch: usize,
    pub trials: Vec<MicrobatchTrial>,
}

/// The whole report. Field order is the JSON order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InterReport {
    pub cluster: ReportCluster,
    pub options: ReportOptions,
    pub stages: Vec<ReportStage>,
    /// Modeled iteration time T = sum + (B - 1) x max, seconds.
    pub iteration_time: f64,
    pub sum_latency: f64,
    pub max_latency: f64,
    pub dp: DpStats,
    pub queries: QueryStats,
    pub baselines: Vec<ReportBaseline>,
    /// The search over B (`microbatches=auto`); `None` when B was given.
    pub microbatch_search: Option<MicrobatchSearch>,
    /// Inconsistencies found while building the report (empty for a normal plan).
    pub notes: Vec<String>,
}

/// Baseline names, in report order.
pub const BASELINE_NAMES: [&str; 5] =
    ["equal-operator", "equal-layer", "intra-op only", "inter-op only", "best Megatron"];

impl InterReport {
    /// The report of `plan`, with the baselines recomputed from `table` under `opts` (the
    /// table and options the plan was made with).
    pub fn new(
        plan: &PipelinePlan,
        table: &CostTable,
        opts: &StageDpOptions,
        cluster: ReportCluster,
        extras: &ReportExtras,
    ) -> InterReport {
        let mut notes = Vec::new();
        let p = &plan.plan;
        let t = p.iteration_time;
        if p.stages.is_empty() {
            notes.push("the plan has no stages".to_string());
        }
        let shape = table.cluster();
        if (shape.hosts, shape.devices_per_host) != (cluster.hosts, cluster.devices_per_host) {
            notes.push(format!(
                "the cost table is for a {}x{} cluster, the report's cluster is {}x{}",
                shape.hosts, shape.devices_per_host, cluster.hosts, cluster.devices_per_host
            ));
        }
        if plan.devices.len() != p.stages.len() {
            notes.push(format!("{} stages but device ids for {}", p.stages.len(), plan.devices.len()));
        }
        let work = extras.layer_work.as_ref().filter(|w| {
            let ok = w.ops.len() == table.num_layers() && w.flops.len() == table.num_layers();
            if !ok {
                notes.push(format!(
                    "layer work given for {} / {} layers (ops / FLOPs), the table has {}; not shown",
                    w.ops.len(),
                    w.flops.len(),
                    table.num_layers()
                ));
            }
            ok
        });
        if let Some(fixed) = &extras.fixed_stages {
            notes.push(format!("stages={fixed}: the stages are fixed (no stage DP, no baselines)"));
        }
        let n = p.stages.len();
        let stages = p
            .stages
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let r = s.layers.start.min(s.layers.end)..s.layers.end;
                let devices = plan.devices.get(i).cloned().unwrap_or_default();
                if devices.len() != s.submesh.devices() {
                    notes.push(format!(
                        "stage {i} has submesh {} ({} devices) but {} device ids",
                        s.submesh,
                        s.submesh.devices(),
                        devices.len()
                    ));
                }
                ReportStage {
                    index: StageId::new(i),
                    layers: [s.layers.start, s.layers.end].map(LayerId::new),
                    ops: work.and_then(|w| w.ops.get(r.clone()).map(|x| x.iter().sum())),
                    flops: work.and_then(|w| w.flops.get(r.clone()).map(|x| x.iter().sum())),
                    submesh: s.submesh,
                    logical_mesh: s.logical_mesh,
                    devices,
                    depth: n - i,
                    latency: s.latency,
                    transfer: s.transfer,
                    mem_param: s.mem_param,
                    mem_act: s.mem_act,
                    memory: s.memory,
                    busy_share: ratio(p.microbatches as f64 * s.latency, t),
                }
            })
            .collect();
        let mut report = InterReport {
            options: ReportOptions {
                microbatches: opts.microbatches,
                schedule: match opts.schedule {
                    Schedule::OneFOneB => "1F1B",
                    Schedule::GPipe => "GPipe",
                }
                .to_string(),
                epsilon: opts.epsilon,
                mem_device_bytes: Some(opts.mem_device).filter(|m| m.is_finite()),
                time_limit_seconds: opts.time_limit.map(|d| d.as_secs_f64()),
                layers: table.num_layers(),
                submesh_shapes: table.shapes().to_vec(),
                cross_stage_cost: false,
            },
            cluster,
            stages,
            iteration_time: t,
            sum_latency: p.sum_latency,
            max_latency: p.max_latency,
            dp: plan.dp.clone(),
            queries: plan.queries.clone(),
            baselines: match extras.fixed_stages {
                Some(_) => Vec::new(),
                None => {
                    baselines(table, opts, extras.equal_operator.as_ref(), extras.equal_operator_note.as_deref(), t)
                }
            },
            microbatch_search: extras.microbatch_search.clone(),
            notes,
        };
        report.check_owners();
        report
    }

    /// Serde cannot fail on this plain data; non-finite numbers become `null`.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The stage owning each device id of the cluster (first stage when a device is listed
    /// twice), `None` for unused devices; `None` altogether when the cluster has more than
    /// [`MAX_GRID_DEVICES`] devices.
    pub fn device_owners(&self) -> Option<Vec<Option<StageId>>> {
        let d = self.cluster.devices().filter(|d| *d <= MAX_GRID_DEVICES)?;
        let mut owners = vec![None; d];
        for s in &self.stages {
            for &id in &s.devices {
                if let Some(o @ None) = owners.get_mut(id) {
                    *o = Some(s.index);
                }
            }
        }
        Some(owners)
    }

    fn check_owners(&mut self) {
        let Some(d) = self.cluster.devices() else {
            self.notes.push("the cluster's device count overflows".to_string());
            return;
        };
        if d > MAX_GRID_DEVICES {
            self.notes.push(format!("{d} devices: too many to draw"));
        }
        let mut seen = std::collections::BTreeMap::new();
        let mut notes = Vec::new();
        for s in &self.stages {
            for &id in &s.devices {
                if id >= d {
                    notes.push(format!("stage {} lists device {id}, outside the cluster's {d} devices", s.index));
                } else if let Some(first) = seen.insert(id, s.index) {
                    notes.push(format!("device {id} is listed by stage {first} and stage {}", s.index));
                }
            }
        }
        if !self.stages.is_empty() && seen.len() < d.min(MAX_GRID_DEVICES) && notes.is_empty() {
            notes.push(format!("{} of {d} devices are not used by any stage", d - seen.len()));
        }
        self.notes.extend(notes);
    }
}

/// a / b when both are finite and b > 0.
pub(crate) fn ratio(a: f64, b: f64) -> Option<f64> {
    (a.is_finite() && b.is_finite() && b > 0.0).then(|| a / b)
}

fn baselines(
    table: &CostTable,
    opts: &StageDpOptions,
    equal_operator: Option<&StagePlan>,
    equal_operator_note: Option<&str>,
    t: f64,
) -> Vec<ReportBaseline> {
    let mut out = Vec::with_capacity(BASELINE_NAMES.len());
    let mut eq_op = baseline(BASELINE_NAMES[0], equal_operator, t);
    if equal_operator.is_none() {
        eq_op.status = BaselineStatus::NotComputed;
        eq_op.note =
            Some(equal_operator_note.unwrap_or("not computed (needs its own clustering and cost table)").to_string());
    } else {
        eq_op.note = Some("layer indices are those of the equal-operator clustering".to_string());
    }
    out.push(eq_op);
    out.push(baseline(BASELINE_NAMES[1], equal_layer(table, opts).as_ref(), t));
    out.push(baseline(BASELINE_NAMES[2], intra_op_only(table, opts).as_ref(), t));
    let mut inter = baseline(BASELINE_NAMES[3], inter_op_only(table, opts).as_ref(), t);
    if inter.status == BaselineStatus::Infeasible && table.num_layers() < table.cluster().devices() {
        inter.note = Some(format!(
            "needs at least one layer per device ({} layers, {} devices)",
            table.num_layers(),
            table.cluster().devices()
        ));
    }
    out.push(inter);
    let grid = megatron_grid(table, opts);
    let best = best_megatron(&grid);
    let mut meg = baseline(BASELINE_NAMES[4], best.and_then(|p| p.plan.as_ref()), t);
    match best {
        Some(p) => meg.megatron = Some(MegatronDegrees { data: p.data, tensor: p.tensor, pipeline: p.pipeline }),
        None => {
            meg.note = Some(match grid.iter().find_map(|p| p.note.clone()) {
                Some(n) => format!("none of {} grid points is feasible (e.g. {n})", grid.len()),
                None => "no (data, tensor, pipeline) grid point for this cluster and layer count".to_string(),
            })
        }
    }
    out.push(meg);
    out
}

fn baseline(name: &str, plan: Option<&StagePlan>, t: f64) -> ReportBaseline {
    ReportBaseline {
        name: name.to_string(),
        status: if plan.is_some() { BaselineStatus::Ok } else { BaselineStatus::Infeasible },
        iteration_time: plan.map(|p| p.iteration_time),
        speedup: plan.and_then(|p| ratio(p.iteration_time, t)),
        megatron: None,
        stages: plan
            .map(|p| {
                p.stages
                    .iter()
                    .map(|s| BaselineStage {
                        layers: [s.layers.start, s.layers.end].map(LayerId::new),
                        submesh: s.submesh,
                        logical_mesh: s.logical_mesh,
                        latency: s.latency,
                        memory: s.memory,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        note: None,
    }
}
