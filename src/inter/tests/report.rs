use crate::cluster::preset;
use crate::inter::html::{compact_ids, si};
use crate::inter::{
    logical_meshes, plan_pipeline, render_html, submesh_shapes, BaselineStatus, CachedCost, ClusterShape, CostTable,
    DpStats, FnCost, InterReport, LayerWork, PipelinePlan, PlannedStage, QueryStats, ReportCluster, ReportExtras,
    StageCostResult, StageDpOptions, StagePlan, SubmeshShape, SubmeshSpace, TableOptions, BASELINE_NAMES, PALETTE,
};
use std::ops::Range;

const GIB: f64 = (1u64 << 30) as f64;

/// One option per logical mesh: compute splits over devices, tensor parallelism costs
/// communication (more across hosts), parameters are split by the tensor degree.
fn oracle(r: Range<usize>, s: SubmeshShape) -> Vec<StageCostResult> {
    let w: f64 = r.clone().map(|l| 1.0 + (l % 3) as f64).sum();
    let d = s.devices() as f64;
    let cross = if s.hosts > 1 { 3.0 } else { 1.0 };
    logical_meshes(s)
        .into_iter()
        .map(|[dp, tp]| StageCostResult {
            latency: 0.01 * w / d + 0.0005 * w * (tp as f64 - 1.0) * cross + 0.0002 * (dp as f64 - 1.0) * cross,
            mem_param: 2.0 * GIB * w / tp as f64,
            mem_act: 0.25 * GIB * w / d,
            logical_mesh: [dp, tp],
        })
        .collect()
}

fn dp_opts() -> StageDpOptions {
    StageDpOptions { microbatches: 8, mem_device: 16.0 * GIB, epsilon: 0.0, ..StageDpOptions::default() }
}

/// A plan on 2 hosts x 4 devices, 8 layers.
fn sample() -> (PipelinePlan, CostTable) {
    let oracle = CachedCost::new(FnCost(oracle));
    plan_pipeline(&oracle, 8, ClusterShape::new(2, 4), &TableOptions::default(), &dp_opts()).unwrap()
}

fn cluster_2x4() -> ReportCluster {
    let mut c = ReportCluster::from_cluster(&preset("h100-x2").unwrap());
    c.devices_per_host = 4;
    c
}

/// (class, data-device) of every device cell, in document order.
fn cells(html: &str) -> Vec<(String, usize)> {
    html.split("<td class=\"dev ")
        .skip(1)
        .map(|rest| {
            let class = rest[..rest.find('"').unwrap()].to_string();
            let d = &rest[rest.find("data-device=\"").unwrap() + 13..];
            (class, d[..d.find('"').unwrap()].parse().unwrap())
        })
        .collect()
}

#[test]
fn json_has_every_stage_and_baseline() {
    let (plan, table) = sample();
    assert!(plan.plan.stages.len() > 1, "the sample should pipeline: {:?}", plan.plan.stages);
    let work =
        LayerWork { ops: (0..8).map(|l| 10 + l).collect(), flops: (0..8).map(|l| 1e9 * (l + 1) as f64).collect() };
    let eq_op = crate::inter::intra_op_only(&table, &dp_opts()).unwrap();
    let extras = ReportExtras {
        layer_work: Some(work.clone()),
        equal_operator: Some(eq_op.clone()),
        equal_operator_note: None,
        microbatch_search: None,
        fixed_stages: None,
    };
    let report = InterReport::new(&plan, &table, &dp_opts(), cluster_2x4(), &extras);
    assert!(report.notes.is_empty(), "{:?}", report.notes);
    let v: serde_json::Value = serde_json::from_str(&report.to_json_pretty()).unwrap();
    assert_eq!(v["cluster"]["hosts"], 2);
    assert_eq!(v["cluster"]["devices_per_host"], 4);
    assert_eq!(v["options"]["microbatches"], 8);
    assert_eq!(v["options"]["schedule"], "1F1B");
    assert_eq!(v["iteration_time"].as_f64().unwrap(), plan.plan.iteration_time);
    let stages = v["stages"].as_array().unwrap();
    assert_eq!(stages.len(), plan.plan.stages.len());
    for (i, (js, s)) in stages.iter().zip(&plan.plan.stages).enumerate() {
        assert_eq!(js["index"], i);
        assert_eq!(js["layers"], serde_json::json!([s.layers.start, s.layers.end]));
        assert_eq!(js["devices"], serde_json::json!(plan.devices[i]));
        assert_eq!(js["latency"].as_f64().unwrap(), s.latency);
        assert_eq!(js["memory"].as_f64().unwrap(), s.memory);
        assert_eq!(js["ops"].as_u64().unwrap() as usize, work.ops[s.layers.clone()].iter().sum::<usize>());
        assert_eq!(js["flops"].as_f64().unwrap(), work.flops[s.layers.clone()].iter().sum::<f64>());
        assert_eq!(js["depth"], plan.plan.stages.len() - i);
    }
    let baselines = v["baselines"].as_array().unwrap();
    let names: Vec<&str> = baselines.iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(names, BASELINE_NAMES);
    for (b, rb) in baselines.iter().zip(&report.baselines) {
        assert_eq!(rb.status, BaselineStatus::Ok, "{rb:?}");
        let t = b["iteration_time"].as_f64().unwrap();
        // The DP is never worse than a baseline on its own table.
        assert!(plan.plan.iteration_time <= t * (1.0 + 1e-12), "{}: {t}", rb.name);
        assert!((b["speedup"].as_f64().unwrap() - t / plan.plan.iteration_time).abs() < 1e-12);
        assert!(!b["stages"].as_array().unwrap().is_empty());
    }
    assert_eq!(baselines[0]["iteration_time"].as_f64().unwrap(), eq_op.iteration_time);
    let meg = &baselines[4]["megatron"];
    let dtp = meg["data"].as_u64().unwrap() * meg["tensor"].as_u64().unwrap() * meg["pipeline"].as_u64().unwrap();
    assert_eq!(dtp, 8);
    // Inter-op only needs one layer per device: 8 layers on 8 devices is just enough.
    assert_eq!(baselines[3]["stages"].as_array().unwrap().len(), 8);
}

#[test]
fn missing_inputs_are_null_not_errors() {
    let (plan, table) = sample();
    let report = InterReport::new(&plan, &table, &dp_opts(), cluster_2x4(), &ReportExtras::default());
    let v: serde_json::Value = serde_json::from_str(&report.to_json_pretty()).unwrap();
    assert_eq!(v["baselines"][0]["status"], "not_computed");
    assert!(v["baselines"][0]["iteration_time"].is_null());
    assert!(v["stages"][0]["ops"].is_null() && v["stages"][0]["flops"].is_null());
    // Unlimited memory is null, not a non-JSON infinity.
    let unlimited = StageDpOptions { mem_device: f64::INFINITY, ..dp_opts() };
    let r = InterReport::new(&plan, &table, &unlimited, cluster_2x4(), &ReportExtras::default());
    assert!(r.options.mem_device_bytes.is_none());
    assert!(serde_json::from_str::<serde_json::Value>(&r.to_json_pretty()).is_ok());
    // Layer work of the wrong length is left out with a note.
    let bad =
        ReportExtras { layer_work: Some(LayerWork { ops: vec![1; 3], flops: vec![1.0; 3] }), ..Default::default() };
    let r = InterReport::new(&plan, &table, &dp_opts(), cluster_2x4(), &bad);
    assert!(r.stages.iter().all(|s| s.ops.is_none()));
    assert!(r.notes.iter().any(|n| n.contains("layer work")), "{:?}", r.notes);
}

#[test]
fn an_equal_operator_baseline_left_out_says_why() {
    let (plan, table) = sample();
    let r = InterReport::new(&plan, &table, &dp_opts(), cluster_2x4(), &ReportExtras::default());
    assert_eq!(r.baselines[0].status, BaselineStatus::NotComputed);
    assert_eq!(r.baselines[0].note.as_deref(), Some("not computed (needs its own clustering and cost table)"));
    let cut = ReportExtras {
        equal_operator_note: Some("not computed: its own cost table passed baseline-time-limit=2 s".into()),
        ..Default::default()
    };
    let r = InterReport::new(&plan, &table, &dp_opts(), cluster_2x4(), &cut);
    assert_eq!(r.baselines[0].status, BaselineStatus::NotComputed);
    assert_eq!(r.baselines[0].note.as_deref(), cut.equal_operator_note.as_deref());
    assert!(r.baselines[0].stages.is_empty() && r.baselines[0].iteration_time.is_none());
}

#[test]
fn html_cells_follow_the_plans_device_ids() {
    let (plan, table) = sample();
    let report = InterReport::new(&plan, &table, &dp_opts(), cluster_2x4(), &ReportExtras::default());
    let html = render_html(&report);
    let cells = cells(&html);
    assert_eq!(cells.len(), 2 * 4);
    assert_eq!(html.matches("<tr class=\"host\"").count(), 2);
    for (k, (class, id)) in cells.iter().enumerate() {
        assert_eq!(*id, k, "host-major order");
        let owner = plan.devices.iter().position(|d| d.contains(id)).unwrap();
        let classes: Vec<&str> = class.split(' ').collect();
        assert!(classes.contains(&format!("stage-{owner}").as_str()), "device {id}: {class}");
        assert!(classes.contains(&format!("c{}", owner % PALETTE.len()).as_str()), "device {id}: {class}");
    }
    assert_eq!(html.matches("<tr class=\"stage-row\"").count(), plan.plan.stages.len());
    for (i, s) in plan.plan.stages.iter().enumerate() {
        let row = format!("<tr class=\"stage-row\" data-stage=\"{i}\">");
        let at = html.find(&row).unwrap_or_else(|| panic!("no row for stage {i}"));
        let end = at + html[at..].find("</tr>").unwrap();
        assert!(html[at..end].contains(&format!("<td>{}</td>", s.submesh)), "{}", &html[at..end]);
        // Legend entry too.
        assert!(html.contains(&format!("stage {i}: layers [{}, {})", s.layers.start, s.layers.end)));
    }
    assert_eq!(html.matches("<tr class=\"baseline\"").count(), BASELINE_NAMES.len());
    assert!(html.contains("Modeled iteration time"));
    // Self-contained and deterministic.
    assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
    assert_eq!(html, render_html(&report));
}

#[test]
fn html_escapes_text() {
    let (plan, table) = sample();
    let mut cluster = cluster_2x4();
    cluster.name = "<script>alert('x')</script> & \"co\"".to_string();
    cluster.device_name = Some("<i>gpu</i>".to_string());
    let report = InterReport::new(&plan, &table, &dp_opts(), cluster, &ReportExtras::default());
    let html = render_html(&report);
    assert!(!html.contains("<script") && !html.contains("<i>"), "unescaped text");
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;"));
    assert!(html.contains("&lt;i&gt;gpu&lt;/i&gt;"));
}

fn stage(layers: Range<usize>, submesh: SubmeshShape) -> PlannedStage {
    PlannedStage {
        layers,
        submesh,
        logical_mesh: [1, submesh.devices()],
        latency: 0.01,
        transfer: 0.0,
        mem_param: GIB,
        mem_act: GIB,
        memory: 2.0 * GIB,
    }
}

fn manual(stages: Vec<PlannedStage>, devices: Vec<Vec<usize>>) -> PipelinePlan {
    let sum: f64 = stages.iter().map(|s| s.latency).sum();
    let max = stages.iter().map(|s| s.latency).fold(0.0, f64::max);
    PipelinePlan {
        plan: StagePlan {
            iteration_time: sum + 3.0 * max,
            sum_latency: sum,
            max_latency: max,
            microbatches: 4,
            stages,
        },
        devices,
        dp: DpStats::default(),
        queries: QueryStats::default(),
    }
}

fn small_table(layers: usize, cluster: ClusterShape) -> CostTable {
    CostTable::from_fn(layers, cluster, submesh_shapes(cluster, SubmeshSpace::PowerOfTwo), oracle).unwrap()
}

#[test]
fn empty_plan_renders_with_a_note() {
    let table = small_table(4, ClusterShape::new(2, 4));
    let report = InterReport::new(&manual(vec![], vec![]), &table, &dp_opts(), cluster_2x4(), &ReportExtras::default());
    assert!(report.stages.is_empty());
    assert!(report.notes.iter().any(|n| n.contains("no stages")));
    let html = render_html(&report);
    assert!(html.contains("No stages: the plan is empty."));
    assert!(html.contains("the plan has no stages"));
    let cells = cells(&html);
    assert_eq!(cells.len(), 8);
    assert!(cells.iter().all(|(c, _)| c == "idle"));
    assert_eq!(report.baselines.len(), BASELINE_NAMES.len());
    assert!(report.baselines.iter().all(|b| b.speedup.is_none()));
}

#[test]
fn colours_cycle_past_the_palette() {
    let n = PALETTE.len() + 2;
    let cluster = ClusterShape::new(n, 1);
    let stages = (0..n).map(|i| stage(i..i + 1, SubmeshShape::new(1, 1))).collect();
    let devices = (0..n).map(|i| vec![i]).collect();
    let table = small_table(n, cluster);
    let report = InterReport::new(
        &manual(stages, devices),
        &table,
        &dp_opts(),
        ReportCluster::from_shape("tall", cluster),
        &ReportExtras::default(),
    );
    assert!(report.notes.is_empty(), "{:?}", report.notes);
    let html = render_html(&report);
    let cells = cells(&html);
    assert_eq!(cells.len(), n);
    for (class, id) in cells {
        assert_eq!(class, format!("stage-{id} c{}", id % PALETTE.len()));
    }
}

#[test]
fn odd_plans_do_not_panic() {
    let shape = ClusterShape::new(2, 4);
    let table = small_table(4, shape);
    let cluster = ReportCluster::from_shape("odd", shape);
    // A device outside the cluster, a device listed twice, a stage without devices.
    let plan = manual(
        vec![
            stage(0..2, SubmeshShape::new(1, 4)),
            stage(2..3, SubmeshShape::new(1, 2)),
            stage(3..9, SubmeshShape::new(1, 2)),
        ],
        vec![vec![0, 1, 2, 99], vec![2, 3]],
    );
    let extras =
        ReportExtras { layer_work: Some(LayerWork { ops: vec![1; 4], flops: vec![1.0; 4] }), ..Default::default() };
    let report = InterReport::new(&plan, &table, &dp_opts(), cluster.clone(), &extras);
    let notes = report.notes.join("\n");
    assert!(notes.contains("device 99"), "{notes}");
    assert!(notes.contains("device 2 is listed by stage 0 and stage 1"), "{notes}");
    assert!(notes.contains("3 stages but device ids for 2"), "{notes}");
    // Layers 3..9 run past the table: no ops for that stage, no panic.
    assert!(report.stages[2].ops.is_none());
    let cells = cells(&render_html(&report));
    assert_eq!(cells.len(), 8);
    assert_eq!(cells[2].0, "stage-0 c0", "first owner wins");
    assert_eq!(cells[5].0, "idle");

    // Zero and huge clusters, zero microbatches, NaN latency.
    for (hosts, m) in [(0, 4), (3, 0), (usize::MAX, 2), (1_000_000, 8)] {
        let mut plan = manual(vec![stage(0..4, SubmeshShape::new(1, 1))], vec![vec![0]]);
        plan.plan.stages[0].latency = f64::NAN;
        plan.plan.microbatches = 0;
        let c = ReportCluster { hosts, devices_per_host: m, ..cluster.clone() };
        let r = InterReport::new(&plan, &table, &dp_opts(), c, &ReportExtras::default());
        let html = render_html(&r);
        assert!(html.ends_with("</html>\n"));
        assert!(serde_json::from_str::<serde_json::Value>(&r.to_json_pretty()).is_ok());
        assert!(!r.notes.is_empty());
    }
}

#[test]
fn device_lists_are_compacted() {
    assert_eq!(compact_ids(&[]), "none");
    assert_eq!(compact_ids(&[5]), "5");
    assert_eq!(compact_ids(&[0, 1, 2, 3, 8, 10, 11]), "0-3, 8, 10-11");
    assert_eq!(compact_ids(&[usize::MAX - 1, usize::MAX]), format!("{}-{}", usize::MAX - 1, usize::MAX));
}

#[test]
fn flops_use_si_prefixes() {
    assert_eq!(si(14_375e9), "14.4 T");
    assert_eq!(si(512e6), "512 M");
    assert_eq!(si(3.0), "3.00");
    assert_eq!(si(0.0), "0.00");
    assert_eq!(si(f64::NAN), "\u{2014}");
}
