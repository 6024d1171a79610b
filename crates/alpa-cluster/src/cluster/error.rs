//! Errors of the cluster description, presets and device meshes.

/// Every failure in `crate::cluster` is one of these values; nothing here panics on user input.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClusterError {
    #[error("cannot read cluster file `{path}`: {message}")]
    Io { path: String, message: String },
    #[error("invalid cluster JSON in {origin}: {message}")]
    Json { origin: String, message: String },
    #[error("invalid cluster description `{name}`: {}", problems.join("; "))]
    Invalid { name: String, problems: Vec<String> },
    #[error("unknown cluster `{name}`: not a file and not a preset (presets: {presets})")]
    Unknown { name: String, presets: String },
    #[error("invalid device mesh: {0}")]
    Mesh(String),
}
