//! The inter-op report as one self-contained HTML page: inline CSS, no script, no network.
//! Left: the cluster as a grid of devices (a row per host, a cell per device showing its id,
//! coloured by the owning stage) with a legend. Right: the stage table, the modeled iteration
//! time, the baselines with the plan's speedup over each, and the search statistics.
//!
//! Device cells carry `class="dev stage-<i> c<k>"` (`k = i mod PALETTE.len()`, the colour) or
//! `class="dev idle"`, and `data-device` / `data-stage`; stage rows `class="stage-row"`.

use super::plan::StageId;
use super::report::{BaselineStatus, InterReport, ReportStage};
use std::fmt::Write;

/// Stage colours (ColorBrewer Set3: light enough for dark text), cycled when there are more
/// stages than colours.
pub const PALETTE: [&str; 12] = [
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#bc80bd", "#ccebc5",
    "#ffed6f", "#9ecae1",
];

const GIB: f64 = (1u64 << 30) as f64;

const CSS: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:20px;margin:0 0 4px}
h2{font-size:15px;margin:18px 0 8px}
p.summary{margin:0 0 12px;color:#444}
.layout{display:flex;flex-wrap:nowrap;gap:32px;align-items:flex-start}
.cluster{flex:0 0 auto}
.tables{flex:1 1 auto;min-width:0}
table{border-collapse:collapse;font-size:13px}
table.grid{border-spacing:4px;border-collapse:separate}
table.grid th{font-weight:normal;color:#555;text-align:right;padding-right:6px;white-space:nowrap}
td.dev{width:34px;height:34px;text-align:center;vertical-align:middle;border:1px solid #555;border-radius:4px;font-weight:600;font-variant-numeric:tabular-nums}
td.dev.idle{background:#fff;border:1px dashed #999;color:#999}
ul.legend{list-style:none;padding:0;margin:12px 0 0;font-size:13px}
ul.legend li{margin:3px 0;white-space:nowrap}
.swatch{display:inline-block;width:12px;height:12px;border:1px solid #555;border-radius:2px;margin-right:6px;vertical-align:-1px}
.swatch.idle{background:#fff;border-style:dashed}
table.data th,table.data td{border-bottom:1px solid #ddd;padding:4px 8px;text-align:right;white-space:nowrap}
table.data th{background:#f3f3f3;border-bottom:1px solid #bbb}
table.data td.l,table.data th.l{text-align:left}
table.data tr.best td{font-weight:600}
.iteration{font-size:15px;margin:10px 0}
ul.notes{background:#fff6d6;border:1px solid #e0c060;padding:8px 8px 8px 28px;font-size:13px}
.muted{color:#777}
";

/// The page of `report`. Deterministic: the same report gives the same bytes.
pub fn render_html(report: &InterReport) -> String {
    let mut h = String::with_capacity(16 * 1024);
    let c = &report.cluster;
    let title = format!("Inter-op plan: {}", if c.name.is_empty() { "cluster" } else { &c.name });
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(h, "<title>{}</title>", esc(&title));
    h.push_str("<style>\n");
    h.push_str(CSS);
    for (k, colour) in PALETTE.iter().enumerate() {
        let _ = writeln!(h, ".c{k}{{background:{colour}}}");
    }
    h.push_str("</style>\n</head>\n<body>\n");
    let _ = writeln!(h, "<h1>{}</h1>", esc(&title));
    let device = match (&c.device_name, c.device_memory_bytes) {
        (Some(n), Some(m)) => format!(", {} ({} GiB)", n, gib(m as f64)),
        (Some(n), None) => format!(", {n}"),
        (None, Some(m)) => format!(", {} GiB per device", gib(m as f64)),
        (None, None) => String::new(),
    };
    let o = &report.options;
    let mem = o.mem_device_bytes.map_or("unlimited".to_string(), |m| format!("{} GiB", gib(m)));
    let mut summary = format!(
        "{} hosts \u{d7} {} devices{device}; {} layers, {} microbatches, {} schedule, memory limit {mem}",
        c.hosts, c.devices_per_host, o.layers, o.microbatches, o.schedule
    );
    if o.cross_stage_cost {
        summary.push_str("; cross-stage transfers in the stage latencies");
    }
    let _ = writeln!(h, "<p class=\"summary\">{}</p>", esc(&summary));
    if !report.notes.is_empty() {
        h.push_str("<ul class=\"notes\">\n");
        for n in &report.notes {
            let _ = writeln!(h, "<li>{}</li>", esc(n));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("<div class=\"layout\">\n");
    device_grid(&mut h, report);
    h.push_str("<section class=\"tables\">\n");
    stage_table(&mut h, report);
    baseline_table(&mut h, report);
    microbatch_table(&mut h, report);
    search_table(&mut h, report);
    h.push_str("</section>\n</div>\n</body>\n</html>\n");
    h
}

/// HTML text escaping (also for attribute values).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

fn colour_class(stage: StageId) -> String {
    format!("stage-{stage} c{}", stage.index() % PALETTE.len())
}

fn device_grid(h: &mut String, r: &InterReport) {
    h.push_str("<section class=\"cluster\">\n<h2>Devices</h2>\n");
    let Some(owners) = r.device_owners() else {
        h.push_str("<p class=\"muted\">The cluster is too large to draw.</p>\n</section>\n");
        return;
    };
    let m = r.cluster.devices_per_host;
    if owners.is_empty() {
        h.push_str("<p class=\"muted\">The cluster has no devices.</p>\n");
    } else {
        h.push_str("<table class=\"grid\">\n");
        for (host, row) in owners.chunks(m).enumerate() {
            let _ = write!(h, "<tr class=\"host\" data-host=\"{host}\"><th>host {host}</th>");
            for (j, owner) in row.iter().enumerate() {
                let id = host * m + j;
                match owner {
                    Some(s) => {
                        let _ = write!(
                            h,
                            "<td class=\"dev {}\" data-device=\"{id}\" data-stage=\"{s}\" title=\"device {id}: stage {s}\">{id}</td>",
                            colour_class(*s)
                        );
                    }
                    None => {
                        let _ = write!(
                            h,
                            "<td class=\"dev idle\" data-device=\"{id}\" title=\"device {id}: unused\">{id}</td>"
                        );
                    }
                }
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</table>\n");
    }
    h.push_str("<ul class=\"legend\">\n");
    for s in &r.stages {
        let _ = writeln!(
            h,
            "<li><span class=\"swatch {}\"></span>stage {}: layers [{}, {}), submesh {}</li>",
            colour_class(s.index),
            s.index,
            s.layers[0],
            s.layers[1],
            s.submesh
        );
    }
    if owners.iter().any(Option::is_none) {
        h.push_str("<li><span class=\"swatch idle\"></span>unused</li>\n");
    }
    h.push_str("</ul>\n</section>\n");
}

fn stage_table(h: &mut String, r: &InterReport) {
    h.push_str("<h2>Stages</h2>\n");
    if r.stages.is_empty() {
        h.push_str("<p class=\"muted empty\">No stages: the plan is empty.</p>\n");
    } else {
        let work = r.stages.iter().any(|s| s.ops.is_some() || s.flops.is_some());
        h.push_str("<table class=\"data stage-table\">\n<thead><tr><th class=\"l\">stage</th><th>layers</th>");
        if work {
            h.push_str("<th>ops</th><th>FLOPs</th>");
        }
        h.push_str(
            "<th>submesh</th><th>logical mesh</th><th class=\"l\">devices</th><th>latency (ms)</th>\
             <th>memory (GiB)</th><th title=\"B \u{d7} latency / iteration time\">share of T</th></tr></thead>\n<tbody>\n",
        );
        for s in &r.stages {
            stage_row(h, s, work);
        }
        h.push_str("</tbody>\n</table>\n");
    }
    let _ = writeln!(
        h,
        "<p class=\"iteration\">Modeled iteration time: <b>{} ms</b> <span class=\"muted\">(sum of latencies {} ms + ({} \u{2212} 1) \u{d7} max {} ms)</span></p>",
        ms(r.iteration_time),
        ms(r.sum_latency),
        r.options.microbatches,
        ms(r.max_latency)
    );
}

fn stage_row(h: &mut String, s: &ReportStage, work: bool) {
    let _ = write!(
        h,
        "<tr class=\"stage-row\" data-stage=\"{i}\"><td class=\"l\"><span class=\"swatch {}\"></span>{i}</td><td>[{}, {})</td>",
        colour_class(s.index),
        s.layers[0],
        s.layers[1],
        i = s.index
    );
    if work {
        let ops = s.ops.map_or("\u{2014}".to_string(), |o| o.to_string());
        let flops = s.flops.map_or("\u{2014}".to_string(), si);
        let _ = write!(h, "<td>{ops}</td><td>{flops}</td>");
    }
    let _ = writeln!(
        h,
        "<td>{}</td><td>{}\u{d7}{}</td><td class=\"l\">{}</td><td>{}</td><td title=\"params {} + {} \u{d7} activations {}\">{}</td><td>{}</td></tr>",
        s.submesh,
        s.logical_mesh[0],
        s.logical_mesh[1],
        esc(&compact_ids(&s.devices)),
        ms(s.latency),
        gib(s.mem_param),
        s.depth,
        gib(s.mem_act),
        gib(s.memory),
        s.busy_share.map_or("\u{2014}".to_string(), |x| format!("{}%", num(100.0 * x, 1)))
    );
}

fn baseline_table(h: &mut String, r: &InterReport) {
    if r.baselines.is_empty() {
        // Fixed stages (`stages=`): the table holds only theirs; the notes say so.
        h.push_str("<h2>Baselines</h2>\n<p class=\"muted no-baselines\">None computed (see the notes).</p>\n");
        return;
    }
    h.push_str("<h2>Baselines</h2>\n<table class=\"data baselines\">\n<thead><tr><th class=\"l\">baseline</th>\
                <th>iteration time (ms)</th><th>speedup of the plan</th><th>stages</th><th class=\"l\">note</th></tr></thead>\n<tbody>\n");
    for b in &r.baselines {
        let mut name = b.name.clone();
        if let Some(m) = b.megatron {
            name.push_str(&format!(" (d={}, t={}, p={})", m.data, m.tensor, m.pipeline));
        }
        let time = match (b.status, b.iteration_time) {
            (BaselineStatus::Ok, Some(t)) => ms(t),
            (BaselineStatus::NotComputed, _) => "not computed".to_string(),
            _ => "infeasible".to_string(),
        };
        let speedup = b.speedup.map_or("\u{2014}".to_string(), |x| format!("{}\u{d7}", num(x, 2)));
        let stages = if b.stages.is_empty() { "\u{2014}".to_string() } else { b.stages.len().to_string() };
        let _ = writeln!(
            h,
            "<tr class=\"baseline\"><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"l muted\">{}</td></tr>",
            esc(&name),
            esc(&time),
            esc(&speedup),
            stages,
            esc(b.note.as_deref().unwrap_or(""))
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

/// The trials of `microbatches=auto`, the chosen B in bold.
fn microbatch_table(h: &mut String, r: &InterReport) {
    let Some(m) = &r.microbatch_search else { return };
    let _ = writeln!(
        h,
        "<h2>Microbatches</h2>\n<p class=\"muted\">Global batch {} split into B microbatches; each B planned on its own.</p>",
        m.global_batch
    );
    h.push_str("<table class=\"data microbatches\">\n<thead><tr><th>B</th><th>iteration time (ms)</th><th>stages</th><th class=\"l\">note</th></tr></thead>\n<tbody>\n");
    for t in &m.trials {
        let class = if t.microbatches == r.options.microbatches { " class=\"best\"" } else { "" };
        let _ = writeln!(
            h,
            "<tr{class}><td>{}</td><td>{}</td><td>{}</td><td class=\"l muted\">{}</td></tr>",
            t.microbatches,
            t.iteration_time.map_or("infeasible".to_string(), ms),
            t.stages.map_or("\u{2014}".to_string(), |s| s.to_string()),
            esc(t.note.as_deref().unwrap_or(""))
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

fn search_table(h: &mut String, r: &InterReport) {
    let d = &r.dp;
    let q = &r.queries;
    let rows: [(&str, String); 9] = [
        ("t_max candidates", d.candidates.to_string()),
        ("DP passes (enumeration + bisection)", format!("{} + {}", d.evaluated, d.feasibility_probes)),
        ("skipped within epsilon", d.skipped_epsilon.to_string()),
        ("best t_max (ms)", ms(d.best_t_max)),
        ("DP seconds", num(d.seconds, 3)),
        ("oracle queries / composed / cache hits", format!("{} / {} / {}", q.queries, q.composed, q.cache_hits)),
        ("pruned (range, submesh) pairs", q.pruned.to_string()),
        ("oracle seconds / table wall seconds", format!("{} / {}", num(q.oracle_seconds, 3), num(q.wall_seconds, 3))),
        (
            "stopped early / timed out",
            format!("{} / {}", if d.stopped_early { "yes" } else { "no" }, if d.timed_out { "yes" } else { "no" }),
        ),
    ];
    h.push_str("<h2>Search</h2>\n<table class=\"data search\">\n<tbody>\n");
    for (k, v) in rows {
        let _ = writeln!(h, "<tr><td class=\"l\">{}</td><td>{}</td></tr>", esc(k), esc(&v));
    }
    h.push_str("</tbody>\n</table>\n");
}

/// "0-3, 8, 10-11".
pub(crate) fn compact_ids(ids: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j].checked_add(1) == Some(ids[j + 1]) {
            j += 1;
        }
        parts.push(if j == i { ids[i].to_string() } else { format!("{}-{}", ids[i], ids[j]) });
        i = j + 1;
    }
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    }
}

fn num(x: f64, prec: usize) -> String {
    if x.is_finite() {
        format!("{x:.prec$}")
    } else if x.is_nan() {
        "\u{2014}".to_string()
    } else if x > 0.0 {
        "\u{221e}".to_string()
    } else {
        "\u{2212}\u{221e}".to_string()
    }
}

/// "14.4 T", "512 M", "3.00": three significant digits with an SI prefix.
pub(crate) fn si(x: f64) -> String {
    const PREFIXES: [(f64, &str); 5] = [(1e15, " P"), (1e12, " T"), (1e9, " G"), (1e6, " M"), (1e3, " k")];
    if !x.is_finite() {
        return num(x, 0);
    }
    let (scale, prefix) = PREFIXES.iter().copied().find(|(p, _)| x.abs() >= *p).unwrap_or((1.0, ""));
    let v = x / scale;
    let prec = if v.abs() >= 100.0 {
        0
    } else if v.abs() >= 10.0 {
        1
    } else {
        2
    };
    format!("{}{prefix}", num(v, prec))
}

fn ms(seconds: f64) -> String {
    num(seconds * 1e3, 3)
}

fn gib(bytes: f64) -> String {
    num(bytes / GIB, 2)
}
