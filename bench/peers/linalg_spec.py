"""The matrix products of bench/bench_cuda_linalg.cpp (and cupy_linalg.py), for the PyTorch and JAX
peers: sizes, inputs and the entries checked. a[i] = ((i % 7) - 3) / 4 and b[i] = ((i % 5) - 2) / 4
over the flat index: every product entry is exact in float32 and float64."""

N = 10000
PRODUCTS = (("float64", False), ("float64", True), ("float32", False))  # (dtype, a transposed)
CHECKED = ((0, 0), (1, 7), (4321, 9876), (N - 1, N - 1))
TALL, WIDTH = 1 << 20, 64  # scaled_matmul: x (2^20 x 64), w (64 x 64), y (2^20 x 64)
SCALED_CHECKED = ((0, 0), (12345, WIDTH - 1), (TALL - 1, 0))


def product_name(dtype, transposed):
    return ("matmul_at_b/" if transposed else "matmul/") + dtype + f"_{N}"


def tflops(ms):
    return 2.0 * N**3 / (ms / 1e3) / 1e12


def product_entry(np, i, j, transposed):
    """Entry (i, j) of a @ b (or a.T @ b), from the closed-form inputs."""
    k = np.arange(N)
    av = ((k * N + i) % 7 - 3) / 4 if transposed else ((i * N + k) % 7 - 3) / 4
    return float(np.sum(av * (((k * N + j) % 5 - 2) / 4)))


def scaled_entry(np, i, j):
    """Entry (i, j) of 2.5 x @ w + 0.5 y, x = ((f % 7) - 3) / 4, w = ((f % 5) - 2) / 4, y = (f % 3) - 1."""
    k = np.arange(WIDTH)
    s = float(np.sum(((i * WIDTH + k) % 7 - 3) / 4 * (((k * WIDTH + j) % 5 - 2) / 4)))
    return 2.5 * s + 0.5 * ((i * WIDTH + j) % 3 - 1)


def check_entries(np, get, expected, entries):
    """None when get(i, j) == expected(i, j) at every entry (exact), else what differs."""
    for i, j in entries:
        got, want = get(i, j), expected(i, j)
        if got != want:
            return f"at ({i}, {j}): {got} vs {want}"
    return None
