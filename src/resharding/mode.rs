//! How a cross-mesh transfer moves its data; text form `send-recv`, `local-all-gather`,
//! `broadcast`, `auto`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every destination device receives its whole tile point-to-point (Alpa §6, first pass).
    SendRecv,
    /// One copy per destination replica group crosses, an all-gather in the group rebuilds the
    /// tile (Alpa §6, Fig. 6).
    LocalAllGather,
    /// One pipelined broadcast per piece to all devices that need it (Zhuang et al., MLSys'23).
    Broadcast,
    /// The cheapest of the three under the cost model.
    Auto,
}

impl Mode {
    /// The concrete modes in the order `Auto` breaks ties.
    pub const CONCRETE: [Mode; 3] = [Mode::SendRecv, Mode::LocalAllGather, Mode::Broadcast];

    pub fn name(self) -> &'static str {
        match self {
            Mode::SendRecv => "send-recv",
            Mode::LocalAllGather => "local-all-gather",
            Mode::Broadcast => "broadcast",
            Mode::Auto => "auto",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text is not one of the four mode names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown resharding mode `{0}` (expected send-recv, local-all-gather, broadcast or auto)")]
pub struct UnknownMode(pub String);

impl FromStr for Mode {
    type Err = UnknownMode;

    fn from_str(text: &str) -> Result<Mode, UnknownMode> {
        [Mode::SendRecv, Mode::LocalAllGather, Mode::Broadcast, Mode::Auto]
            .into_iter()
            .find(|m| m.name() == text.trim())
            .ok_or_else(|| UnknownMode(text.to_string()))
    }
}
