//! Pass option values, as the C++ pass declarations handed them over.

use super::ffi::bridge::PassOption;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    pass: String,
    values: BTreeMap<String, String>,
}

impl PassOptions {
    pub fn from_bridge(pass: &str, options: &[PassOption]) -> Result<Self, String> {
        let values = options.iter().map(|o| (o.name.clone(), o.value.clone())).collect();
        Ok(PassOptions { pass: pass.to_string(), values })
    }

    pub fn from_pairs(pass: &str, pairs: &[(&str, &str)]) -> Self {
        let values = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        PassOptions { pass: pass.to_string(), values }
    }

    /// The pass these options were given to (the name its diagnostics carry).
    pub fn pass(&self) -> &str {
        &self.pass
    }

    pub fn string(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    pub fn flag(&self, name: &str, default: bool) -> Result<bool, String> {
        match self.string(name) {
            None => Ok(default),
            Some("true") | Some("1") => Ok(true),
            Some("false") | Some("0") => Ok(false),
            Some(other) => Err(format!("{}: option '{name}' expects true or false, got '{other}'", self.pass)),
        }
    }
}
