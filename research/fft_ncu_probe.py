"""Experiment (not part of the build), session 26: which kernels PyTorch's and CuPy's fft of 2^24
complex128 run. PyTorch read 591.6-592.2 us in rounds where CuPy read 594.6-595, the direct
cufftExecZ2Z 593-595 and ndfuse 595.0-595.6 (H100, bench_cuda_fft and the peers, three rounds), and
fft_exec_calls.cu found no call pattern (PyTorch's cufftXtMakePlanMany / cufftXtExec included) that
was faster than ndfuse's. Run under Nsight Compute, one transform after three warm-up calls:
  ncu --profile-from-start off --metrics gpu__time_duration.sum,dram__bytes_read.sum,\
dram__bytes_write.sum,launch__grid_size,launch__block_size python3 fft_ncu_probe.py torch|cupy
H100 80GB HBM3, cuFFT 12000, PyTorch 2.11.0+cu130, CuPy 14.2.0: both run the same three kernels,
regular_fft_factor<256, EPT<16>, 8, 0, 14, 0, 2, 1, unsigned int, double, ...> on 8192 x 128
threads, each reading 268.5 MB and writing 245-248 MB, in 201.3, 192.5-192.9 and 192.2-193.6 us.
So the libraries' 3 us spread is not the transform they run; it is where their buffers lie."""

import math
import sys

N = 1 << 24


def main(lib):
    if lib == "torch":
        import torch

        p = torch.arange(N, dtype=torch.float64, device="cuda") * (2 * math.pi * 5 / N)
        x = torch.polar(torch.ones_like(p), p)
        for _ in range(3):
            torch.fft.fft(x)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStart()
        torch.fft.fft(x)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
    else:
        import cupy as cp

        p = cp.arange(N, dtype=cp.float64) * (2 * math.pi * 5 / N)
        x = cp.cos(p) + 1j * cp.sin(p)
        for _ in range(3):
            cp.fft.fft(x)
        cp.cuda.Device().synchronize()
        cp.cuda.runtime.profilerStart()
        cp.fft.fft(x)
        cp.cuda.Device().synchronize()
        cp.cuda.runtime.profilerStop()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "torch")
