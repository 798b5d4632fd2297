"""The transforms of bench/bench_cuda_fft.cpp (and cupy_fft.py), for the PyTorch and JAX peers: sizes,
bytes and the checks. Inputs are pure tones exp(2 pi i k j / n) (the real part for rfft; the outer
product of two tones, in complex64, for fft2), whose transform is n at k and 0 elsewhere."""

import math

N1 = 1 << 24
SIDE = 4096
K0, K1 = 5, 3
WORKLOADS = ("fft/complex128_2^24", "rfft/float64_2^24", "fft2/complex64_4096")


def phase(xp, n, k, float64):
    return xp.arange(n, dtype=float64) * (2 * math.pi * k / n)


def expectations(name):
    """(bytes moved: input read + output written, peak index, peak value, indices that must be 0, tolerance)."""
    if name.startswith("fft/"):
        return 2 * 16 * N1, (K0,), N1, [(0,), (K0 + 1,), (12345,)], 1e-9 * N1
    if name.startswith("rfft/"):
        return 8 * N1 + 16 * (N1 // 2 + 1), (K0,), N1 / 2, [(0,), (K0 + 1,), (12345,)], 1e-9 * N1
    return 2 * 8 * SIDE * SIDE, (K0, K1), SIDE * SIDE, [(0, 0), (K0, K1 + 1), (SIDE - 1, 17)], 1e-4 * SIDE**2


def wrong(name, entry):
    """None when the transform is right, else what differs; entry(index) gives a complex entry."""
    _, peak_at, peak, zeros_at, tol = expectations(name)
    got = entry(peak_at)
    if abs(got - peak) > tol:
        return f"peak {got} vs {peak}"
    for z in zeros_at:
        if abs(entry(z)) > tol:
            return f"entry {z} is {entry(z)}, expected 0"
    return None
