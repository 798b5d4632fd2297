"""The dense solvers of bench/bench_cuda_solvers.cpp (and cupy_solvers.py), for the PyTorch and JAX
peers: workload names in the C++ order, sizes and the calls. Inputs (made by each peer with its
library): a = ((i * 7919 + 13) % 10007) / 10007 - 0.5 over the flat index, plus 4 on the diagonal
(n = 1000); spd = a a^T + n I; stack = 10000 8 x 8 matrices made the same way; spd_stack = s s^T + 8 I;
spd_stack32 the same for 10000 32 x 32 ones (s s^T + 32 I); b1 = ones(n), bn = ones((n, n)),
stack_b = ones((10000, 8, 1))."""

N = 1000
STACK = 10000
SIDE = 8
SIDE_LARGE = 32
ERROR_BOUND = 1e-8  # a sanity bound on relative residuals (the C++ benchmark holds its own to 1e-10)


def calls(la, svdvals):
    """Workload name -> f(inputs) for the library's linalg module `la`; `inputs` is a dict with a, spd,
    b1, bn, stack, stack_b, spd_stack and spd_stack32, `svdvals(a)` the library's singular values
    alone."""
    return {
        "svd/float64_1000": lambda m: la.svd(m["a"]),
        "svdvals/float64_1000": lambda m: svdvals(m["a"]),
        "inv/float64_1000": lambda m: la.inv(m["a"]),
        "solve/float64_1000": lambda m: la.solve(m["a"], m["b1"]),
        "solve/float64_1000x1000": lambda m: la.solve(m["a"], m["bn"]),
        "inv/float64_10000x8x8": lambda m: la.inv(m["stack"]),
        "solve/float64_10000x8x8": lambda m: la.solve(m["stack"], m["stack_b"]),
        "eigh/float64_10000x8x8": lambda m: la.eigh(m["spd_stack"]),
        "eigvalsh/float64_10000x8x8": lambda m: la.eigvalsh(m["spd_stack"]),
        "eigh/float64_10000x32x32": lambda m: la.eigh(m["spd_stack32"]),
        "cholesky/float64_10000x8x8": lambda m: la.cholesky(m["spd_stack"]),
        "svd/float64_10000x8x8": lambda m: la.svd(m["stack"]),
        "eigh/float64_1000": lambda m: la.eigh(m["spd"]),
        "cholesky/float64_1000": lambda m: la.cholesky(m["spd"]),
        "qr/float64_1000": lambda m: la.qr(m["a"]),
        "det/float64_1000": lambda m: la.det(m["a"]),
    }


def residual_check(err):
    """A peer's check of one result (peer_output.timed_row): (problem or None, extra row fields) for
    the relative residual err, or None when the workload has no residual check."""
    if err is None:
        return None, {}
    problem = None if err <= ERROR_BOUND else f"residual {err:.3e} above {ERROR_BOUND}"
    return problem, {"rel_error": err}
