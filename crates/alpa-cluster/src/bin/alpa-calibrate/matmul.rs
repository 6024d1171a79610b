//! cuBLAS matmul throughput per element type over square sizes.

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::Arc;

use cudarc::cublas::sys::{cublasComputeType_t, cublasGemmAlgo_t, cublasOperation_t, cudaDataType};
use cudarc::cublas::CudaBlas;
use cudarc::driver::{CudaContext, CudaSlice, DevicePtr, DevicePtrMut};

use alpa_cluster::calibrate::sizes::matmul_sizes;

use crate::gpu::{err, missing_library, progress, time_on_stream};

struct ElementType {
    name: &'static str,
    bytes: u64,
    data: cudaDataType,
    compute: cublasComputeType_t,
}

/// f32 on the CUDA cores, f32 data on tensor cores (tf32), and the 16-bit types; all accumulate
/// in f32 like XLA's dots.
const TYPES: [ElementType; 4] = [
    ElementType {
        name: "f32",
        bytes: 4,
        data: cudaDataType::CUDA_R_32F,
        compute: cublasComputeType_t::CUBLAS_COMPUTE_32F,
    },
    ElementType {
        name: "tf32",
        bytes: 4,
        data: cudaDataType::CUDA_R_32F,
        compute: cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32,
    },
    ElementType {
        name: "bf16",
        bytes: 2,
        data: cudaDataType::CUDA_R_16BF,
        compute: cublasComputeType_t::CUBLAS_COMPUTE_32F,
    },
    ElementType {
        name: "f16",
        bytes: 2,
        data: cudaDataType::CUDA_R_16F,
        compute: cublasComputeType_t::CUBLAS_COMPUTE_32F,
    },
];

/// Values in [0.5, 1) as raw bits, so that the tensor cores see ordinary numbers rather than
/// zeros (which draw less power and would flatter the clocks).
fn fill(ty: &ElementType, elements: usize) -> Vec<u8> {
    let mut state = 0x2545_f491_u32;
    let mut out = Vec::with_capacity(elements * ty.bytes as usize);
    for _ in 0..elements {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        match ty.bytes {
            4 => out.extend_from_slice(&(0x3f00_0000 | (state & 0x7f_ffff)).to_le_bytes()),
            _ if ty.name == "bf16" => out.extend_from_slice(&(0x3f00 | (state & 0x7f) as u16).to_le_bytes()),
            _ => out.extend_from_slice(&(0x3800 | (state & 0x3ff) as u16).to_le_bytes()),
        }
    }
    out
}

pub fn measure(
    ctx: &Arc<CudaContext>,
    memory_bytes: u64,
    quick: bool,
) -> Result<BTreeMap<String, Vec<(u64, f64)>>, String> {
    let mut out = BTreeMap::new();
    // SAFETY: only tries to dlopen cuBLAS.
    if !unsafe { cudarc::cublas::sys::is_culib_present() } {
        progress(&format!("no matmul measurements: {}", missing_library("cublas")));
        return Ok(out);
    }
    let stream = ctx.new_stream().map_err(err("stream"))?;
    let blas = CudaBlas::new(stream.clone()).map_err(|e| format!("cuBLAS: {e}"))?;
    for ty in &TYPES {
        let mut sizes = matmul_sizes(memory_bytes, ty.bytes);
        if quick {
            sizes.truncate(4);
        }
        let Some(&largest) = sizes.last() else {
            continue;
        };
        let elements = (largest * largest) as usize;
        let host = fill(ty, elements);
        let a: CudaSlice<u8> = stream.clone_htod(&host).map_err(err("copy to GPU"))?;
        let b: CudaSlice<u8> = stream.clone_htod(&host).map_err(err("copy to GPU"))?;
        let mut c: CudaSlice<u8> = stream.alloc_zeros(host.len()).map_err(err("alloc"))?;
        let mut points = Vec::new();
        for &n in &sizes {
            let (alpha, beta) = (1.0f32, 0.0f32);
            let dim = n as i32;
            let seconds = time_on_stream(&stream, 0.05, || {
                let (pa, _ra) = a.device_ptr(&stream);
                let (pb, _rb) = b.device_ptr(&stream);
                let (pc, _rc) = c.device_ptr_mut(&stream);
                // SAFETY: a, b, c hold at least n*n elements of ty; alpha and beta are f32 as
                // the f32 compute types require; the handle's stream is `stream`.
                unsafe {
                    cudarc::cublas::result::gemm_ex(
                        *blas.handle(),
                        cublasOperation_t::CUBLAS_OP_N,
                        cublasOperation_t::CUBLAS_OP_N,
                        dim,
                        dim,
                        dim,
                        (&alpha as *const f32).cast::<c_void>(),
                        pa as *const c_void,
                        ty.data,
                        dim,
                        pb as *const c_void,
                        ty.data,
                        dim,
                        (&beta as *const f32).cast::<c_void>(),
                        pc as *mut c_void,
                        ty.data,
                        dim,
                        ty.compute,
                        cublasGemmAlgo_t::CUBLAS_GEMM_DFALT,
                    )
                }
                .map_err(|e| format!("cublasGemmEx {} n={n}: {e}", ty.name))
            })?;
            let flops = 2.0 * (n as f64).powi(3) / seconds;
            progress(&format!("matmul {:<4} n={n:<5} {:>8.1} TFLOP/s", ty.name, flops / 1e12));
            points.push((n, flops));
        }
        out.insert(ty.name.to_string(), points);
    }
    Ok(out)
}
