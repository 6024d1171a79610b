//! The intra-op pass's options, parsed from their text and checked.

use crate::cluster::mesh::{parse_mesh_shape, DeviceMesh, PhysicalSubmesh};
use crate::cluster::spec::Cluster;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    Sdy,
    Gspmd,
}

/// Where the mesh's per-axis alpha/beta come from.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkModel {
    Cluster(Box<Cluster>),
    Abstract { alpha: [f64; 2], beta: [f64; 2] },
}

#[derive(Clone, Debug, PartialEq)]
pub struct MeshConfig {
    pub shape: [usize; 2],
    pub links: LinkModel,
    /// Try every logical shape with the same number of devices (paper §5.2).
    pub logical_auto: bool,
}

pub fn parse_output_format(text: &str) -> Result<OutputFormat, String> {
    match text.trim() {
        "sdy" | "" => Ok(OutputFormat::Sdy),
        "gspmd" => Ok(OutputFormat::Gspmd),
        other => Err(format!("format must be sdy or gspmd, got '{other}'")),
    }
}

/// `1,0.1` -> [1.0, 0.1]; one value applies to both axes.
pub fn parse_axis_pair(name: &str, text: &str) -> Result<[f64; 2], String> {
    let values: Result<Vec<f64>, _> = text.split(',').map(|v| v.trim().parse::<f64>()).collect();
    match values.as_deref() {
        Ok([v]) if v.is_finite() && *v >= 0.0 => Ok([*v, *v]),
        Ok([a, b]) if a.is_finite() && b.is_finite() && *a >= 0.0 && *b >= 0.0 => Ok([*a, *b]),
        _ => Err(format!("{name} expects one or two non-negative numbers like '1,0.1', got '{text}'")),
    }
}

/// `16GiB`, `1.5GB`, `512MiB`, `1000000` (bytes).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale: f64 = match unit.trim() {
        "" | "B" => 1.0,
        "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        "TiB" => 1024.0f64.powi(4),
        other => {
            return Err(format!("unknown byte unit '{other}' in '{text}' (use B, KB, MB, GB, KiB, MiB, GiB, ...)"))
        }
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 => Ok((n * scale).round() as u64),
        _ => Err(format!("a memory size must be a positive number with an optional unit, got '{text}'")),
    }
}

/// Every logical shape `n x m` with `n * m = devices`, `n` ascending.
pub fn logical_shapes(devices: usize) -> Vec<[usize; 2]> {
    (1..=devices).filter(|n| devices.is_multiple_of(*n)).map(|n| [n, devices / n]).collect()
}

impl MeshConfig {
    /// The meshes to plan on: the given shape, or every logical shape of its devices.
    pub fn meshes(&self) -> Result<Vec<DeviceMesh>, String> {
        let devices = self.shape[0] * self.shape[1];
        let shapes = if self.logical_auto { logical_shapes(devices) } else { vec![self.shape] };
        shapes.into_iter().map(|shape| self.mesh(shape)).collect()
    }

    fn mesh(&self, shape: [usize; 2]) -> Result<DeviceMesh, String> {
        match &self.links {
            LinkModel::Abstract { alpha, beta } => {
                DeviceMesh::abstract_units(shape, *alpha, *beta).map_err(|e| e.to_string())
            }
            LinkModel::Cluster(cluster) => {
                // On a cluster, the mesh option names a physical submesh (paper §5.2): rows are
                // hosts, columns are devices of each host; `shape` is its logical view.
                let [hosts, per_host] = self.shape;
                if hosts > cluster.hosts || per_host > cluster.devices_per_host {
                    return Err(format!(
                        "mesh {hosts}x{per_host} needs {hosts} hosts of {per_host} devices: the cluster '{}' has {} hosts of {}",
                        cluster.name, cluster.hosts, cluster.devices_per_host
                    ));
                }
                let submesh = PhysicalSubmesh::new(hosts, per_host);
                DeviceMesh::from_submesh(cluster, &submesh, shape).map_err(|e| e.to_string())
            }
        }
    }
}

/// The largest device mesh the pass plans for.
pub const MAX_MESH_DEVICES: usize = 1 << 16;

/// Builds the mesh configuration from the pass options' text.
pub fn mesh_config(mesh: &str, cluster: &str, alpha: &str, beta: &str, logical: &str) -> Result<MeshConfig, String> {
    if mesh.trim().is_empty() {
        return Err("the mesh option is required, e.g. mesh=2x4 (a 1-D mesh is 8x1)".into());
    }
    let shape = parse_mesh_shape(mesh).map_err(|e| e.to_string())?;
    // Checked before anything is sized by it: a mesh lists its device ids, and logical-mesh=auto
    // enumerates the divisors of its device count.
    match shape[0].checked_mul(shape[1]) {
        Some(devices) if devices <= MAX_MESH_DEVICES => {}
        _ => return Err(format!("mesh {mesh} has more than {MAX_MESH_DEVICES} devices")),
    }
    let logical_auto = match logical.trim() {
        "" | "fixed" => false,
        "auto" => true,
        other => return Err(format!("logical-mesh must be auto or empty, got '{other}'")),
    };
    let links = if cluster.trim().is_empty() {
        LinkModel::Abstract { alpha: parse_axis_pair("alpha", alpha)?, beta: parse_axis_pair("beta", beta)? }
    } else {
        LinkModel::Cluster(Box::new(Cluster::load(cluster).map_err(|e| e.to_string())?))
    };
    let config = MeshConfig { shape, links, logical_auto };
    config.meshes()?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_with_units() {
        assert_eq!(parse_bytes("16GiB"), Ok(16 << 30));
        assert_eq!(parse_bytes("1.5 GB"), Ok(1_500_000_000));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("-3GiB").is_err());
        assert!(parse_bytes("3 parsecs").is_err());
    }

    #[test]
    fn axis_pairs() {
        assert_eq!(parse_axis_pair("beta", "1,0.1"), Ok([1.0, 0.1]));
        assert_eq!(parse_axis_pair("alpha", "2"), Ok([2.0, 2.0]));
        assert!(parse_axis_pair("alpha", "1,x").is_err());
        assert!(parse_axis_pair("alpha", "1,2,3").is_err());
    }

    #[test]
    fn logical_shapes_of_eight() {
        assert_eq!(logical_shapes(8), vec![[1, 8], [2, 4], [4, 2], [8, 1]]);
    }

    #[test]
    fn meshes_from_options() {
        let config = mesh_config("2x4", "", "1,1", "1,0.1", "").unwrap();
        assert_eq!(config.meshes().unwrap().len(), 1);
        let auto = mesh_config("2x4", "", "1,1", "1,0.1", "auto").unwrap();
        assert_eq!(auto.meshes().unwrap().len(), 4);
        let cluster = mesh_config("2x8", "p3.16xlarge-x8", "", "", "").unwrap();
        let mesh = &cluster.meshes().unwrap()[0];
        assert!(mesh.beta[0] > mesh.beta[1], "axis 0 crosses hosts, axis 1 stays on NVLink");
        let hosts = mesh_config("8x1", "p3.16xlarge-x8", "", "", "").unwrap().meshes().unwrap();
        let one_host = mesh_config("1x8", "p3.16xlarge-x8", "", "", "").unwrap().meshes().unwrap();
        assert!(hosts[0].beta[0] > one_host[0].beta[1], "8 hosts x 1 device talk over the network");
        assert!(mesh_config("", "", "1", "1", "").is_err());
        assert!(mesh_config("16x2", "p3.16xlarge-x8", "", "", "").is_err());
        assert!(mesh_config("1x16", "p3.16xlarge-x8", "", "", "").is_err());
        assert!(mesh_config("2x4", "nope-cluster", "", "", "").is_err());
        assert!(mesh_config("2x4", "", "1", "1", "sometimes").is_err());
        assert!(mesh_config("100000x100000", "", "1", "1", "").unwrap_err().contains("more than 65536 devices"));
        assert!(mesh_config("65536x65536", "", "1", "1", "auto").is_err());
    }
}
