//! cuBLAS matmul throughput per element type: over square sizes (the plateau) and over a grid
//! of GEMM shapes (the rate by shape).

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::Arc;

use cudarc::cublas::sys::{cublasComputeType_t, cublasGemmAlgo_t, cublasOperation_t, cudaDataType};
use cudarc::cublas::CudaBlas;
use cudarc::driver::{CudaContext, CudaSlice, CudaStream, DevicePtr, DevicePtrMut};

use alpa_cluster::calibrate::sizes::{matmul_shape_dims, matmul_sizes};
use alpa_cluster::cluster::MatmulRate;

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

/// The square plateau points and the GEMM shape grid of every element type.
#[derive(Default)]
pub struct MatmulTimings {
    pub square: BTreeMap<String, Vec<(u64, f64)>>,
    pub shapes: BTreeMap<String, Vec<MatmulRate>>,
}

/// Device buffers of `ty` large enough for every GEMM up to `largest` in each dimension.
struct Operands {
    a: CudaSlice<u8>,
    b: CudaSlice<u8>,
    c: CudaSlice<u8>,
}

/// Seconds per `(m x k) * (k x n)` product in `ty` (column-major, no transposes).
fn time_gemm(
    stream: &Arc<CudaStream>,
    blas: &CudaBlas,
    ty: &ElementType,
    ops: &mut Operands,
    (m, n, k): (u64, u64, u64),
    target_s: f64,
) -> Result<f64, String> {
    let (alpha, beta) = (1.0f32, 0.0f32);
    let to_i32 = |d: u64| i32::try_from(d).map_err(|_| format!("matmul dimension {d} past i32"));
    let (m32, n32, k32) = (to_i32(m)?, to_i32(n)?, to_i32(k)?);
    time_on_stream(stream, target_s, || {
        let (pa, _ra) = ops.a.device_ptr(stream);
        let (pb, _rb) = ops.b.device_ptr(stream);
        let (pc, _rc) = ops.c.device_ptr_mut(stream);
        // SAFETY: a and b hold at least m*k and k*n elements of ty, c at least m*n (the buffers
        // are sized for the largest dimension squared); alpha and beta are f32 as the f32
        // compute types require; the handle's stream is `stream`.
        unsafe {
            cudarc::cublas::result::gemm_ex(
                *blas.handle(),
                cublasOperation_t::CUBLAS_OP_N,
                cublasOperation_t::CUBLAS_OP_N,
                m32,
                n32,
                k32,
                (&alpha as *const f32).cast::<c_void>(),
                pa as *const c_void,
                ty.data,
                m32,
                pb as *const c_void,
                ty.data,
                k32,
                (&beta as *const f32).cast::<c_void>(),
                pc as *mut c_void,
                ty.data,
                m32,
                ty.compute,
                cublasGemmAlgo_t::CUBLAS_GEMM_DFALT,
            )
        }
        .map_err(|e| format!("cublasGemmEx {} {m}x{n}x{k}: {e}", ty.name))
    })
}

/// Per element type: square products from small to large (the plateau), then the grid of GEMM
/// shapes of `matmul_shape_dims` on the same buffers.
pub fn measure(ctx: &Arc<CudaContext>, memory_bytes: u64, quick: bool) -> Result<MatmulTimings, String> {
    let mut out = MatmulTimings::default();
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
        let host = fill(ty, (largest * largest) as usize);
        let mut ops = Operands {
            a: stream.clone_htod(&host).map_err(err("copy to GPU"))?,
            b: stream.clone_htod(&host).map_err(err("copy to GPU"))?,
            c: stream.alloc_zeros(host.len()).map_err(err("alloc"))?,
        };
        let mut points = Vec::new();
        for &n in &sizes {
            let seconds = time_gemm(&stream, &blas, ty, &mut ops, (n, n, n), 0.05)?;
            let flops = 2.0 * (n as f64).powi(3) / seconds;
            progress(&format!("matmul {:<4} n={n:<5} {:>8.1} TFLOP/s", ty.name, flops / 1e12));
            points.push((n, flops));
        }
        out.square.insert(ty.name.to_string(), points);
        let dims = matmul_shape_dims(largest);
        let mut grid = Vec::new();
        for &m in &dims {
            for &n in &dims {
                for &k in &dims {
                    let seconds = time_gemm(&stream, &blas, ty, &mut ops, (m, n, k), 0.01)?;
                    let flops = 2.0 * (m * n * k) as f64 / seconds;
                    progress(&format!("matmul {:<4} {m}x{n}x{k} {:>8.1} TFLOP/s", ty.name, flops / 1e12));
                    grid.push(MatmulRate { m, n, k, flops });
                }
            }
        }
        out.shapes.insert(ty.name.to_string(), grid);
    }
    Ok(out)
}
