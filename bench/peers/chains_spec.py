"""The elementwise chains of bench/bench_cuda_chains.cpp, for its peers: sizes, lengths, the step
cycle (y * 1.5, y + 0.25, sin(y), y - 0.5), the input x[i] = (i % 1000) / 1000 + 1 in the dtype, the
number of runs per size, and the chain computed with NumPy on the host for the checks. Workload
names are the C++ ones without the fused/eager part: chain/<dtype>/len<L>/n<N>."""

SIZES = (1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 250_000_000)
LENGTHS = (1, 2, 4, 8, 16)
DTYPES = ("float32", "float64")
STEPS = ("y * 1.5", "y + 0.25", "sin(y)", "y - 0.5")
CUDA_STEPS = ("y = y * (T)1.5;", "y = y + (T)0.25;", "y = sin(y);", "y = y - (T)0.5;")
CHECK_TOLERANCE = {"float32": 2e-5, "float64": 1e-12}


def workload(dtype, length, n):
    return f"chain/{dtype}/len{length}/n{n}"


def copy_workload(dtype, n):
    return f"d2d_copy/{dtype}/n{n}"


def runs_for(n):
    """Many runs where a run is microseconds, few where it is tens of milliseconds."""
    return 30 if n <= 1_000_000 else 15 if n <= 10_000_000 else 6


def busy_copies(length):
    """As in the C++ benchmark: one busy copy plus one per four steps, so an eager chain's host work
    is enqueued before the GPU reaches it."""
    return 1 + length // 4


def chain_function(length, sin):
    """A Python function chain_len<L>(y) applying the first L steps, with `sin` the library's sine.
    Each length gets its own function and code object (compilers cache per function; cupy.fuse names
    its kernel after it)."""
    name = f"chain_len{length}"
    body = "".join(f"    y = {STEPS[k % 4]}\n" for k in range(length))
    namespace = {"sin": sin}
    exec(f"def {name}(y):\n{body}    return y\n", namespace)  # noqa: S102 - our own fixed source
    return namespace[name]


def cuda_body(length):
    """The chain as the body of an elementwise kernel with input x and output out, of type T."""
    return "T y = x;\n" + "\n".join(CUDA_STEPS[k % 4] for k in range(length)) + "\nout = y;"


def check_indices(n):
    return (0, 7, n // 2 + 3, n - 1)


def expected(np, dtype, length, indices):
    """The chain at these indices, computed by NumPy in the dtype (NEP 50: Python floats keep it)."""
    i = np.asarray(indices, dtype=np.int64)
    x = ((i % 1000) / 1000.0 + 1.0).astype(dtype)
    return chain_function(length, np.sin)(x)


def check(np, dtype, length, indices, got):
    """None when got (host values at indices) matches the host chain, else what differs."""
    want = expected(np, dtype, length, indices)
    got = np.asarray(got, dtype=np.float64)
    tol = CHECK_TOLERANCE[dtype]
    for k, (g, w) in enumerate(zip(got, want.astype(np.float64))):
        if not abs(g - w) <= tol * (1.0 + abs(w)):
            return f"at {indices[k]}: got {float(g)!r}, expected {float(w)!r}"
    return None
