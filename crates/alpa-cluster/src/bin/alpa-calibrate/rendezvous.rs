//! Handing NCCL's unique id from rank 0 to the other processes of an inter-host run over TCP:
//! rank 0 listens on `--coordinator`, the others connect and read the id's 128 bytes.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use cudarc::nccl::Id;

use crate::args::InterHost;
use crate::gpu::progress;

const ID_BYTES: usize = 128;
/// How long the other ranks keep trying to reach rank 0.
const CONNECT_FOR: Duration = Duration::from_secs(120);

pub fn nccl_id(inter: &InterHost) -> Result<Id, String> {
    if inter.rank == 0 {
        let id = Id::new().map_err(|e| format!("ncclGetUniqueId: {e:?}"))?;
        let bytes: Vec<u8> = id.internal().iter().map(|&c| c as u8).collect();
        let listener = TcpListener::bind(&inter.coordinator)
            .map_err(|e| format!("cannot listen on {}: {e}", inter.coordinator))?;
        progress(&format!("rank 0 waits for {} rank(s) on {}", inter.world - 1, inter.coordinator));
        for _ in 1..inter.world {
            let (mut peer, addr) = listener.accept().map_err(|e| format!("accept: {e}"))?;
            peer.write_all(&bytes).map_err(|e| format!("sending the NCCL id to {addr}: {e}"))?;
        }
        return Ok(id);
    }
    let started = Instant::now();
    let mut stream = loop {
        match TcpStream::connect(&inter.coordinator) {
            Ok(s) => break s,
            Err(e) if started.elapsed() > CONNECT_FOR => {
                return Err(format!("cannot reach rank 0 at {}: {e}", inter.coordinator))
            }
            Err(_) => std::thread::sleep(Duration::from_millis(500)),
        }
    };
    let mut bytes = [0u8; ID_BYTES];
    stream.read_exact(&mut bytes).map_err(|e| format!("reading the NCCL id: {e}"))?;
    Ok(Id::uninit(bytes.map(|b| b as std::ffi::c_char)))
}
