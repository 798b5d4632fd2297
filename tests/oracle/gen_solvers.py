#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's solvers and factorizations (tests/test_solvers.cpp): np.linalg's solve,
inv, det, slogdet, cholesky, qr, eigh, eigvalsh, eig, eigvals, svd (also hermitian=True), svdvals,
pinv and matrix_rank (also hermitian=True), lstsq, cond, norm (ord 2, -2, 'nuc'), matrix_power with
negative exponents, tensorsolve and tensorinv.

Usage: gen_solvers.py OUTDIR. Writes OUTDIR/solvers/manifest.tsv and the .npy files it names.

manifest.tsv, one case per line, tab-separated, five columns:
  id      unique, readable: <op>/<dtype>/<shape>[/<params>]
  op      the np.linalg function name
  params  ';'-joined key=value pairs ('-' for none): mode (qr), UPLO (eigh, eigvalsh), full
          (svd full_matrices 0/1), upper (cholesky 0/1), ord (cond, norm: 2, -2, nuc, 1, inf, fro),
          n (matrix_power), tol (matrix_rank), rcond (pinv, lstsq), rtol (pinv, matrix_rank),
          hermitian (svd, pinv,
          matrix_rank: 1), uv (svd compute_uv 0/1), axes (tensorsolve: ','-joined), ind (tensorinv);
          and two that only steer the test's checks of a hermitian svd: ties (equal |eigenvalues|:
          the singular vectors' order among them is not defined), lower (a's upper triangle is not
          the mirror of its lower one, which alone is read); tile=K: the test stacks K copies of
          each input and of each expected result along axis 0 (stacks longer than one grid of the
          GPU's small-matrix kernels, whose grid-stride loops then take the rest)
  inputs  the operands' files joined by ','
  expect  NumPy's outputs joined by ',' in NumPy's order (named tuples flattened; lstsq's rank as a
          0-d int64 file); or RAISES:<ndfuse exception>[:<NumPy's exception>] where NumPy raises.

Which outputs the test compares element by element and which it checks by their defining property
(the factors NumPy does not pin down: signs and phases of singular vectors, eigenvectors, Q's columns):
see tests/test_solvers.cpp. Every matrix is built so the problem is well conditioned (the comparison
tolerance then bounds the algorithms' differences, not the conditioning).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402

DTYPES = ["float32", "float64", "complex64", "complex128"]
# Square, 1x1, odd, a batch, a batch of batches; tall and wide for the rectangular ones.
SQUARE = [(1, 1), (4, 4), (17, 17), (3, 5, 5), (2, 2, 3, 3)]
RECT = [(1, 1), (6, 6), (9, 4), (4, 9), (3, 7, 5), (2, 5, 7)]


def rng_matrix(shape, dtype, seed):
    r = np.random.default_rng(seed)
    a = r.uniform(-1, 1, shape)
    if dtype.startswith("complex"):
        a = a + 1j * r.uniform(-1, 1, shape)
    return a.astype(dtype)


def well_conditioned(shape, dtype, seed):
    """A random matrix plus n on its diagonal: invertible, condition number a few units."""
    a = rng_matrix(shape, dtype, seed)
    n = shape[-1]
    return (a + n * np.eye(n)).astype(dtype)


def hermitian_pd(shape, dtype, seed):
    a = rng_matrix(shape, dtype, seed)
    n = shape[-1]
    h = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
    return h.astype(dtype)


def hermitian_with_spectrum(w, dtype, seed):
    """Q diag(w) Q^H for a random unitary Q, one per row of w (..., n), made exactly Hermitian (a real
    diagonal) before the cast, so its eigenvalues are w to rounding."""
    r = np.random.default_rng(seed)
    w = np.asarray(w, dtype=np.float64)
    z = r.normal(size=w.shape + w.shape[-1:])
    if dtype.startswith("complex"):
        z = z + 1j * r.normal(size=z.shape)
    q, _ = np.linalg.qr(z)
    h = q @ (w[..., :, None] * np.conj(np.swapaxes(q, -1, -2)))
    return ((h + np.conj(np.swapaxes(h, -1, -2))) / 2).astype(dtype)


def separated_spectrum(shape, seed, zeros=0):
    """Eigenvalues for matrices of `shape` (..., n, n): magnitudes 1, 1.5, 2, ... (so |w| orders the
    singular vectors with a gap far above rounding) in random order with random signs, at least one
    negative; the first `zeros` of each are 0."""
    r = np.random.default_rng(seed)
    n = shape[-1]
    w = np.empty(shape[:-1])
    for idx in np.ndindex(*shape[:-2]):
        mags = r.permutation(1 + 0.5 * np.arange(n))
        signs = r.choice([-1.0, 1.0], n)
        signs[r.integers(n)] = -1.0
        w[idx] = mags * signs
        w[idx][:zeros] = 0
    return w


def complex_of(x):
    """NumPy 2.5's eig results: complex, also where an older NumPy returned a real array (all
    eigenvalues real)."""
    x = np.asarray(x)
    return x if x.dtype.kind == "c" else x.astype(np.complex64 if x.dtype == np.float32 else np.complex128)


def shape_id(s):
    return "x".join(str(d) for d in s)


def main(outdir):
    w = OracleWriter(outdir, "solvers")

    def case(op, dtype, shape, params, inputs, outputs):
        pid = "" if params == "-" else "/" + params
        w.row("%s/%s/%s%s" % (op, dtype, shape_id(shape), pid), op, params,
              ",".join(w.array(x) for x in inputs), ",".join(w.array(np.asarray(o)) for o in outputs))

    def raises(cid, op, params, inputs, kind):
        w.row(cid, op, params, ",".join(w.array(x) for x in inputs), "RAISES:" + kind)

    seed = 0
    for dt in DTYPES:
        for s in SQUARE:
            seed += 1
            a = well_conditioned(s, dt, seed)
            b_vec = rng_matrix(s[:-1], dt, seed + 1000)
            b_mat = rng_matrix(s[:-1] + (3,), dt, seed + 2000)
            if len(s) == 2:
                case("solve", dt, s, "b=vector", [a, b_vec[..., :]], [np.linalg.solve(a, b_vec)])
            case("solve", dt, s, "b=matrix", [a, b_mat], [np.linalg.solve(a, b_mat)])
            case("inv", dt, s, "-", [a], [np.linalg.inv(a)])
            case("det", dt, s, "-", [a], [np.linalg.det(a)])
            sl = np.linalg.slogdet(a)
            case("slogdet", dt, s, "-", [a], [sl.sign, sl.logabsdet])
            h = hermitian_pd(s, dt, seed + 3000)
            case("cholesky", dt, s, "upper=0", [h], [np.linalg.cholesky(h)])
            case("cholesky", dt, s, "upper=1", [h], [np.linalg.cholesky(h, upper=True)])
            for uplo in ("L", "U"):
                # Only the named triangle is read: garbage in the other one must not matter.
                g = h.copy()
                idx = np.triu_indices(s[-1], 1) if uplo == "L" else np.tril_indices(s[-1], -1)
                g[(...,) + idx] = 7.25
                e = np.linalg.eigh(g, UPLO=uplo)
                case("eigh", dt, s, "UPLO=" + uplo, [g], [e.eigenvalues, e.eigenvectors])
                case("eigvalsh", dt, s, "UPLO=" + uplo, [g], [np.linalg.eigvalsh(g, UPLO=uplo)])
            e = np.linalg.eig(a)
            case("eig", dt, s, "-", [a], [complex_of(e.eigenvalues), complex_of(e.eigenvectors)])
            case("eigvals", dt, s, "-", [a], [complex_of(np.linalg.eigvals(a))])
            case("matrix_power", dt, s, "n=-1", [a], [np.linalg.matrix_power(a, -1)])
            case("matrix_power", dt, s, "n=-3", [a], [np.linalg.matrix_power(a, -3)])
            for ord_ in ("None", "2", "-2", "1", "inf", "fro"):
                p = None if ord_ == "None" else ("fro" if ord_ == "fro" else float(ord_))
                case("cond", dt, s, "ord=" + ord_, [a], [np.linalg.cond(a, p)])
        # A real matrix with complex eigenvalues (rotations): complex results, conjugate pairs.
        if not dt.startswith("complex"):
            rot = np.array([[0.0, -2.0, 0.5], [2.0, 0.0, 0.25], [0.0, 0.0, 3.0]], dtype=dt)
            e = np.linalg.eig(rot)
            case("eig", dt, rot.shape, "pairs", [rot], [complex_of(e.eigenvalues), complex_of(e.eigenvectors)])
            case("eigvals", dt, rot.shape, "pairs", [rot], [complex_of(np.linalg.eigvals(rot))])
            # Real eigenvalues of a real matrix: still complex results (NumPy 2.5).
            tri = np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 1.0], [0.0, 0.0, -2.0]], dtype=dt)
            e = np.linalg.eig(tri)
            case("eig", dt, tri.shape, "real", [tri], [complex_of(e.eigenvalues), complex_of(e.eigenvectors)])
        # Rows reversed, so the leading pivots are small: the small-matrix stacks' inverse (one
        # batched kernel on the GPU, up to n = 32) must exchange rows as LAPACK does.
        for s in [(4, 6, 6), (2, 32, 32)]:
            seed += 1
            a = np.ascontiguousarray(well_conditioned(s, dt, seed)[..., ::-1, :])
            case("inv", dt, s, "pivoting", [a], [np.linalg.inv(a)])
        # Rows shuffled, so partial pivoting exchanges rows all the way down: on the GPU, solve and
        # inv of matrices past the batched size (or alone) apply LU's row interchanges themselves,
        # the answer's rows put in place by the transpose back into C order (32 x 32 tiles from 16
        # right-hand sides, one thread per element below that).
        for s in [(6, 6), (40, 40), (2, 40, 40), (3, 33, 33)]:
            seed += 1
            rows = np.random.default_rng(seed).permutation(s[-1])
            a = np.ascontiguousarray(well_conditioned(s, dt, seed)[..., rows, :])
            case("inv", dt, s, "shuffled", [a], [np.linalg.inv(a)])
            for k in (3, 20):
                b = rng_matrix(s[:-1] + (k,), dt, seed + 4000 + k)
                case("solve", dt, s, "b=matrix;k=%d;shuffled" % k, [a, b], [np.linalg.solve(a, b)])
            if len(s) == 2:
                b = rng_matrix(s[:-1], dt, seed + 5000)
                case("solve", dt, s, "b=vector;shuffled", [a, b], [np.linalg.solve(a, b)])
        # The GPU's small-matrix inverse packs 32 / seg matrices into a warp (seg: n rounded up to a
        # power of two): 32 1 x 1 per warp with a partly filled last warp, 16 2 x 2, 4 8 x 8 (n = 5
        # rounds up to 8), 2 16 x 16, and one 17 x 17 per warp.
        for s in [(40, 1, 1), (35, 2, 2), (9, 5, 5), (5, 16, 16), (3, 17, 17)]:
            seed += 1
            rows = np.random.default_rng(seed).permutation(s[-1])
            a = np.ascontiguousarray(well_conditioned(s, dt, seed)[..., rows, :])
            case("inv", dt, s, "packed", [a], [np.linalg.inv(a)])
        # Past one grid (8192 blocks of 8 warps of 16 2 x 2 matrices: 1048576): 40 x 26215 matrices.
        if dt in ("float64", "complex64"):
            seed += 1
            a = well_conditioned((40, 2, 2), dt, seed)
            case("inv", dt, a.shape, "packed;tile=26215", [a], [np.linalg.inv(a)])
        # Factors spanning several 32 x 32 tiles of the GPU's transposes, edges partly filled.
        for s in [(40, 40), (2, 33, 33)]:
            seed += 1
            h = hermitian_pd(s, dt, seed)
            case("cholesky", dt, s, "upper=0", [h], [np.linalg.cholesky(h)])
            case("cholesky", dt, s, "upper=1", [h], [np.linalg.cholesky(h, upper=True)])
        for s in RECT:
            seed += 1
            a = rng_matrix(s, dt, seed)
            svd_cases(case, dt, a)
            for mode in ("reduced", "complete", "r"):
                r = np.linalg.qr(a, mode=mode)
                case("qr", dt, s, "mode=" + mode, [a], [r] if mode == "r" else [r.Q, r.R])
            case("pinv", dt, s, "-", [a], [np.linalg.pinv(a)])
            case("matrix_rank", dt, s, "-", [a], [np.asarray(np.linalg.matrix_rank(a), dtype=np.int64)])
            for ord_ in ("2", "-2", "nuc"):
                p = "nuc" if ord_ == "nuc" else float(ord_)
                case("norm", dt, s, "ord=" + ord_, [a], [np.linalg.norm(a, p, axis=(-2, -1))])
            if len(s) == 2:
                b = rng_matrix((s[0], 2), dt, seed + 500)
                x, res, rank, sv = np.linalg.lstsq(a, b)
                case("lstsq", dt, s, "b=matrix", [a, b], [x, res, np.asarray(rank, np.int64), sv])
                x, res, rank, sv = np.linalg.lstsq(a, b[:, 0])
                case("lstsq", dt, s, "b=vector", [a, b[:, 0]], [x, res, np.asarray(rank, np.int64), sv])
    # Rank-deficient matrices: matrix_rank, pinv and lstsq cut the small singular values. Double
    # precision only: in float32 the rounding-level singular values straddle the cutoffs (NumPy's
    # own float32 gelsd calls such a matrix full rank), so no answer is the right one.
    for dt in ("float64", "complex128"):
        u = rng_matrix((7, 2), dt, 77)
        v = rng_matrix((2, 5), dt, 78)
        low = (u @ v).astype(dt)
        case("matrix_rank", dt, low.shape, "lowrank", [low], [np.asarray(np.linalg.matrix_rank(low), np.int64)])
        case("pinv", dt, low.shape, "lowrank", [low], [np.linalg.pinv(low)])
        b = rng_matrix((7,), dt, 79)
        x, res, rank, sv = np.linalg.lstsq(low, b)
        case("lstsq", dt, low.shape, "lowrank", [low, b], [x, res, np.asarray(rank, np.int64), sv])
    # Empty matrices have rank 0 (NumPy's max over their singular values starts from initial=0).
    for e in (np.zeros((3, 0)), np.zeros((2, 0, 4))):
        case("matrix_rank", "float64", e.shape, "empty", [e], [np.asarray(np.linalg.matrix_rank(e), np.int64)])
    # Integer inputs compute in float64.
    ai = np.array([[4, 1, 0], [1, 5, 2], [0, 2, 6]], dtype=np.int32)
    case("inv", "int32", ai.shape, "-", [ai], [np.linalg.inv(ai)])
    case("det", "int32", ai.shape, "-", [ai], [np.linalg.det(ai)])
    case("solve", "int32", ai.shape, "b=vector", [ai, np.array([1, 2, 3], np.int64)],
         [np.linalg.solve(ai, np.array([1, 2, 3], np.int64))])
    case("svdvals", "int32", ai.shape, "-", [ai], [np.linalg.svd(ai, compute_uv=False)])
    case("eigvalsh", "int32", ai.shape, "UPLO=L", [ai], [np.linalg.eigvalsh(ai)])
    # Broadcasting in solve: one matrix against a stack of right-hand sides and the reverse.
    a = well_conditioned((4, 4), "float64", 901)
    bs = rng_matrix((3, 4, 2), "float64", 902)
    case("solve", "float64", (4, 4), "b=stack", [a, bs], [np.linalg.solve(a, bs)])
    As = well_conditioned((3, 4, 4), "float64", 903)
    b1 = rng_matrix((4, 2), "float64", 904)
    case("solve", "float64", (3, 4, 4), "b=single", [As, b1], [np.linalg.solve(As, b1)])
    # Singular matrices: det is (near) zero and slogdet's sign 0 where U has an exact zero.
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    case("det", "float64", sing.shape, "singular", [sing], [np.linalg.det(sing)])
    zero = np.zeros((3, 3))
    sl = np.linalg.slogdet(zero)
    case("slogdet", "float64", zero.shape, "zero", [zero], [sl.sign, sl.logabsdet])
    case("det", "float64", zero.shape, "zero", [zero], [np.linalg.det(zero)])

    hermitian_cases(w, case, seed)
    eigh_stack_cases(w, case)
    svd_stack_cases(w, case)
    solve_stack_cases(w, case)
    range_cases(case)
    empty_cases(w, case)
    tensor_cases(w, case)
    cutoff_cases(w, case)

    # NaN flows through the factorization as it does in NumPy's LAPACK (no up-front scan): a NaN
    # after the first pivot makes the whole inverse NaN, and the NaN of b spreads through x.
    for dt in ("float64", "complex128"):
        m = np.array([[2.0, 1.0], [1.0, np.nan]], dtype=dt)
        case("inv", dt, m.shape, "nan", [m], [np.linalg.inv(m)])
        case("det", dt, m.shape, "nan", [m], [np.linalg.det(m)])
        g = well_conditioned((3, 3), dt, 91)
        bn = np.array([1.0, np.nan, 2.0], dtype=dt)
        case("solve", dt, g.shape, "b=vector;nan", [g, bn], [np.linalg.solve(g, bn)])
        sl = np.linalg.slogdet(m)
        case("slogdet", dt, m.shape, "nan", [m], [sl.sign, sl.logabsdet])
        case("solve", dt, m.shape, "b=vector;nan_a", [m, np.ones(2, dt)], [np.linalg.solve(m, np.ones(2, dt))])
    # The GPU's LU must carry a NaN, and the one an infinity makes (inf - inf, inf / inf), as LAPACK
    # does (cuSOLVER's getrf turns them into finite numbers): in the corner of a 40 x 40 matrix (past
    # the small-matrix kernel) the NaN reaches U's last pivot only, and an infinity there leaves the
    # rest finite. The 2 x 2 matrices are symmetric, so the CUDA backend's LU of A^T is A's.
    big = well_conditioned((40, 40), "float64", 95)
    for tag, bad in (("nan", np.nan), ("inf", np.inf)):
        m = big.copy()
        m[-1, -1] = bad
        sl = np.linalg.slogdet(m)
        case("det", "float64", m.shape, "corner_" + tag, [m], [np.linalg.det(m)])
        case("slogdet", "float64", m.shape, "corner_" + tag, [m], [sl.sign, sl.logabsdet])
        case("inv", "float64", m.shape, "corner_" + tag, [m], [np.linalg.inv(m)])
        b = rng_matrix((40, 3), "float64", 96)
        case("solve", "float64", m.shape, "b=3;corner_" + tag, [m, b], [np.linalg.solve(m, b)])
        st = np.stack([big, m, big])
        case("det", "float64", st.shape, "stack;corner_" + tag, [st], [np.linalg.det(st)])
    # (float64 only: complex division by an infinity rounds differently in each library.)
    for dt in ("float64",):
        for tag, m in (("inf_nan", [[np.inf, np.inf], [np.inf, 1.0]]), ("inf", [[1.0, 2.0], [2.0, np.inf]])):
            m = np.array(m, dtype=dt)
            sl = np.linalg.slogdet(m)
            case("det", dt, m.shape, tag, [m], [np.linalg.det(m)])
            case("slogdet", dt, m.shape, tag, [m], [sl.sign, sl.logabsdet])
            case("inv", dt, m.shape, tag, [m], [np.linalg.inv(m)])
            case("solve", dt, m.shape, "b=vector;" + tag, [m, np.ones(2, dt)], [np.linalg.solve(m, np.ones(2, dt))])

    # --- errors ---------------------------------------------------------------------------------------
    # A non-finite matrix: NumPy's SVD of a NaN does not converge, and eig refuses infs and NaNs.
    for dt in ("float64", "complex64"):
        for bad in (np.nan, np.inf):
            m = np.array([[2.0, 1.0, 0.0], [1.0, bad, 1.0], [0.0, 1.0, 3.0]], dtype=dt)
            tag = "nan" if np.isnan(bad) else "inf"
            if tag == "nan":
                raises_np(w, "svdvals/nan/" + dt, "svdvals", "-", [m], "linalg_error",
                          lambda: np.linalg.svd(m, compute_uv=False))
                raises_np(w, "svd/nan/" + dt, "svd", "full=1", [m], "linalg_error", lambda: np.linalg.svd(m))
                raises_np(w, "pinv/nan/" + dt, "pinv", "-", [m], "linalg_error", lambda: np.linalg.pinv(m))
            else:
                # An infinity: NaN singular values (gesdd with vectors can loop forever on it).
                worst = np.array([[np.inf, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], dtype=dt)
                case("svdvals", dt, worst.shape, "inf", [worst], [np.linalg.svd(worst, compute_uv=False)])
                tall = np.array([[np.inf, 1.0], [1.0, 2.0], [1.0, 1.0]], dtype=dt)
                raises_np(w, "lstsq/inf/" + dt, "lstsq", "-", [tall, np.ones(3, dt)], "linalg_error",
                          lambda: np.linalg.lstsq(tall, np.ones(3, dt)))
            raises_np(w, "eigvals/%s/%s" % (tag, dt), "eigvals", "-", [m], "linalg_error",
                      lambda: np.linalg.eigvals(m))
            raises_np(w, "eig/%s/%s" % (tag, dt), "eig", "-", [m], "linalg_error", lambda: np.linalg.eig(m))
    sing_stack = np.stack([np.eye(3), np.zeros((3, 3)), np.eye(3)])
    raises("inv/singular", "inv", "-", [sing], "linalg_error")
    raises("inv/singular_stack", "inv", "-", [sing_stack], "linalg_error")
    raises("solve/singular", "solve", "b=vector", [sing, np.ones(2)], "linalg_error")
    # Singular only after pivoting (row 0 is half of row 1, the largest first pivot), in each dtype;
    # and a 40 x 40 with a zero column, past the GPU's small-matrix kernel (its pivot at step 31 is
    # exactly zero however the updates round). NumPy is checked to raise for each.
    half_row = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0], [0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0]])
    for dt in DTYPES:
        m = half_row.astype(dt)
        raises_np(w, "inv/singular_pivoted/" + dt, "inv", "-", [m], "linalg_error", lambda: np.linalg.inv(m))
        st = np.stack([np.eye(4), half_row]).astype(dt)
        raises_np(w, "inv/singular_pivoted_stack/" + dt, "inv", "-", [st], "linalg_error",
                  lambda: np.linalg.inv(st))
    holed = well_conditioned((40, 40), "float64", 77)
    holed[:, 31] = 0
    raises_np(w, "inv/singular_40", "inv", "-", [holed], "linalg_error", lambda: np.linalg.inv(holed))
    raises_np(w, "solve/singular_40", "solve", "b=vector", [holed, np.ones(40)], "linalg_error",
              lambda: np.linalg.solve(holed, np.ones(40)))
    raises("cholesky/not_pd", "cholesky", "upper=0", [np.array([[1.0, 2.0], [2.0, 1.0]])], "linalg_error")
    raises("cholesky/not_pd_stack", "cholesky", "upper=0", [np.stack([np.eye(2), -np.eye(2)])], "linalg_error")
    rect = rng_matrix((3, 4), "float64", 5)
    for op in ("inv", "det", "slogdet", "cholesky", "eigh", "eig", "eigvals", "eigvalsh"):
        raises(op + "/not_square", op, "-" if op not in ("cholesky",) else "upper=0", [rect], "shape_error")
    vec = np.ones(3)
    for op in ("inv", "svd", "qr", "det", "eigh", "pinv"):
        raises(op + "/1d", op, "-" if op != "svd" else "full=1", [vec], "shape_error")
    half = np.eye(3, dtype=np.float16)
    for op in ("inv", "svd", "det", "solve"):
        raises(op + "/float16", op, "-" if op not in ("svd", "solve") else ("full=1" if op == "svd" else "b=vector"),
               [half] + ([np.ones(3, np.float16)] if op == "solve" else []), "dtype_error")
    raises("solve/mismatch", "solve", "b=vector", [np.eye(3), np.ones(4)], "shape_error")
    raises("qr/bad_mode", "qr", "mode=economic", [rect], "value_error")
    raises("eigh/bad_uplo", "eigh", "UPLO=X", [np.eye(3)], "value_error")
    w.finish()


def cutoff_cases(w, case):
    """pinv's rcond and rtol, matrix_rank's tol and rtol (NumPy 2's keyword), on matrices whose
    singular values are spread over decades (1 ... 1e-9), so each cut-off falls well between two."""
    for dt in ("float64", "complex128"):
        for s, seed in (((5, 5), 81), ((2, 5, 4), 82)):
            k = min(s[-2:])
            spectrum = np.broadcast_to(np.array([1.0, 1e-2, 1e-4, 1e-6, 1e-9])[:k], s[:-2] + (k,))
            u = np.linalg.qr(rng_matrix(s[:-1] + (s[-2],), dt, seed))[0][..., :k]
            v = np.linalg.qr(rng_matrix(s[:-2] + (s[-1], s[-1]), dt, seed + 1))[0][..., :k]
            m = ((u * spectrum[..., None, :]) @ np.swapaxes(v, -1, -2).conj()).astype(dt)
            for rcond in (1e-3, 1e-7):
                case("pinv", dt, s, "rcond=%r" % rcond, [m], [np.linalg.pinv(m, rcond=rcond)])
            case("pinv", dt, s, "rtol=1e-05", [m], [np.linalg.pinv(m, rtol=1e-5)])
            for tol in (1e-5, 1e-8):
                case("matrix_rank", dt, s, "tol=%r" % tol, [m],
                     [np.asarray(np.linalg.matrix_rank(m, tol=tol), np.int64)])
            for rtol in (1e-3, 1e-7):
                case("matrix_rank", dt, s, "rtol=%r" % rtol, [m],
                     [np.asarray(np.linalg.matrix_rank(m, rtol=rtol), np.int64)])
    m = np.eye(3)
    raises_np(w, "pinv/rcond_and_rtol", "pinv", "rcond=0.001;rtol=0.001", [m], "value_error",
              lambda: np.linalg.pinv(m, rcond=1e-3, rtol=1e-3))
    raises_np(w, "matrix_rank/tol_and_rtol", "matrix_rank", "tol=0.001;rtol=0.001", [m], "value_error",
              lambda: np.linalg.matrix_rank(m, tol=1e-3, rtol=1e-3))


def hermitian_cases(w, case, seed):
    """svd, pinv and matrix_rank with hermitian=True (NumPy's eigh-based SVD)."""
    for dt in DTYPES:
        for s in SQUARE:
            seed += 1
            h = hermitian_with_spectrum(separated_spectrum(s, seed), dt, seed + 100)
            u, sv, vh = np.linalg.svd(h, hermitian=True)
            case("svd", dt, s, "hermitian=1;uv=1", [h], [u, sv, vh])
            case("svd", dt, s, "hermitian=1;uv=0", [h], [np.linalg.svd(h, compute_uv=False, hermitian=True)])
            case("pinv", dt, s, "hermitian=1", [h], [np.linalg.pinv(h, hermitian=True)])
            case("matrix_rank", dt, s, "hermitian=1", [h],
                 [np.asarray(np.linalg.matrix_rank(h, hermitian=True), np.int64)])
        # Only the lower triangle is read (eigh's UPLO 'L'): garbage above the diagonal changes nothing.
        g = hermitian_with_spectrum(separated_spectrum((5, 5), 61), dt, 62)
        g[np.triu_indices(5, 1)] = 7.25
        u, sv, vh = np.linalg.svd(g, hermitian=True)
        case("svd", dt, g.shape, "hermitian=1;uv=1;lower=1", [g], [u, sv, vh])
        case("pinv", dt, g.shape, "hermitian=1;lower=1", [g], [np.linalg.pinv(g, hermitian=True)])
        # Equal magnitudes (2 and -2): the singular values are defined, their vectors' order is not.
        t = hermitian_with_spectrum([[2.0, -2.0, 1.0, -0.5]], dt, 63)[0]
        u, sv, vh = np.linalg.svd(t, hermitian=True)
        case("svd", dt, t.shape, "hermitian=1;uv=1;ties=1", [t], [u, sv, vh])
        # Empty stacks: NumPy's eigh gives empty factors.
        e = np.zeros((2, 0, 0), dt)
        u, sv, vh = np.linalg.svd(e, hermitian=True)
        case("svd", dt, e.shape, "hermitian=1;uv=1", [e], [u, sv, vh])
        case("svd", dt, e.shape, "hermitian=1;uv=0", [e], [np.linalg.svd(e, compute_uv=False, hermitian=True)])
        case("matrix_rank", dt, e.shape, "hermitian=1", [e],
             [np.asarray(np.linalg.matrix_rank(e, hermitian=True), np.int64)])
    # A negative 1x1 matrix, and -0.0, whose copysign NumPy moves into Vh as -1.
    for v in (-3.0, -0.0):
        m = np.array([[v]])
        u, sv, vh = np.linalg.svd(m, hermitian=True)
        case("svd", "float64", m.shape, "hermitian=1;uv=1;value=%r" % v, [m], [u, sv, vh])
    # Integers compute in float64 (eigh's rule).
    ai = np.array([[2, -1, 0], [-1, -3, 1], [0, 1, 1]], dtype=np.int32)
    u, sv, vh = np.linalg.svd(ai, hermitian=True)
    case("svd", "int32", ai.shape, "hermitian=1;uv=1", [ai], [u, sv, vh])
    # Rank-deficient Hermitian matrices, dominated by a negative eigenvalue: the zero eigenvalues fall
    # below the cut-offs. Double precision only (see the non-hermitian rank-deficient cases).
    for dt in ("float64", "complex128"):
        for s, zeros in (((6, 6), 2), ((3, 4, 4), 1)):
            spectrum = separated_spectrum(s, 71, zeros)
            spectrum[..., -1] = -9.0
            low = hermitian_with_spectrum(spectrum, dt, 72)
            case("matrix_rank", dt, s, "hermitian=1;lowrank", [low],
                 [np.asarray(np.linalg.matrix_rank(low, hermitian=True), np.int64)])
            case("pinv", dt, s, "hermitian=1;lowrank", [low], [np.linalg.pinv(low, hermitian=True)])
    # pinv returns empty matrices before the hermitian SVD would ask for square ones.
    e = np.zeros((0, 3))
    case("pinv", "float64", e.shape, "hermitian=1", [e], [np.linalg.pinv(e, hermitian=True)])
    rect = rng_matrix((3, 4), "float64", 73)
    for op, params, f in (("svd", "hermitian=1;uv=1", lambda: np.linalg.svd(rect, hermitian=True)),
                          ("svd", "hermitian=1;uv=0", lambda: np.linalg.svd(rect, False, False, True)),
                          ("pinv", "hermitian=1", lambda: np.linalg.pinv(rect, hermitian=True)),
                          ("matrix_rank", "hermitian=1", lambda: np.linalg.matrix_rank(rect, hermitian=True))):
        raises_np(w, "%s/not_square/%s" % (op, params), op, params, [rect], "shape_error", f)
    half = np.eye(3, dtype=np.float16)
    raises_np(w, "svd/float16/hermitian", "svd", "hermitian=1;uv=1", [half], "dtype_error",
              lambda: np.linalg.svd(half, hermitian=True))


def eigh_stack_cases(w, case):
    """eigh and eigvalsh of stacks of small matrices: on the GPU, one Jacobi kernel (every complex n
    <= 32, real n <= 16 in float32 or 20 in float64) that packs 32 / seg matrices into a warp
    (seg: n rounded up to a power of two), so 16 2 x 2, 4 7 x 7 (one padding index: an odd n has a
    rotation-free index each step), 4 8 x 8, 2 16 x 16, and one 17 x 17, 29 x 29 or 32 x 32 per warp,
    with partly filled last warps; real n from 21 (float64) or 17 (float32) to 32 take the register
    kernel (register_eigh.cu: one warp a matrix, padded to 32). Then spectra Jacobi finds hard or easy: repeated eigenvalues, a zero matrix, a diagonal one (nothing to rotate, only the sort), eigenvalues
    over twenty decades, 2 x 2 blocks whose off-diagonal entry is tiny against the diagonal's gap."""
    seed = 900
    for dt in DTYPES:
        for s in [(35, 2, 2), (6, 7, 7), (9, 8, 8), (3, 16, 16), (2, 17, 17), (2, 21, 21), (2, 24, 24),
                  (2, 29, 29), (3, 31, 31), (3, 32, 32)]:
            seed += 1
            h = hermitian_with_spectrum(separated_spectrum(s, seed), dt, seed + 100)
            for uplo in ("L", "U"):
                g = h.copy()
                idx = np.triu_indices(s[-1], 1) if uplo == "L" else np.tril_indices(s[-1], -1)
                g[(...,) + idx] = -3.5  # the other triangle is never read
                e = np.linalg.eigh(g, UPLO=uplo)
                case("eigh", dt, s, "UPLO=%s;stack" % uplo, [g], [e.eigenvalues, e.eigenvectors])
            case("eigvalsh", dt, s, "UPLO=L;stack", [h], [np.linalg.eigvalsh(h)])
        # Past one grid (8192 blocks of 4 warps of 16 2 x 2 matrices: 524288): 35 x 15000 matrices.
        if dt in ("float64", "complex64"):
            seed += 1
            h = hermitian_with_spectrum(separated_spectrum((35, 2, 2), seed), dt, seed + 100)
            e = np.linalg.eigh(h)
            case("eigh", dt, h.shape, "UPLO=L;stack;tile=15000", [h], [e.eigenvalues, e.eigenvectors])
        special = {
            "repeated": hermitian_with_spectrum(
                [[2.0, 2.0, 2.0, -1.0, -1.0, 5.0, 0.0, 2.0], [1.0] * 8, [3.0, -3.0] * 4], dt, seed + 200),
            "zero": np.zeros((3, 4, 4), dt),
            "diagonal": np.stack([np.diag(d).astype(dt) for d in ([3.0, -1.0, 2.0, -0.0, 7.5], [0.0] * 5)]),
            "tiny_gap": np.array([[[1.0, 1e-9], [1e-9, 1.0 + 1e-6]], [[5.0, 1e-30], [1e-30, -5.0]]], dt),
        }
        if dt in ("float64", "complex128"):
            decades = np.array([[1e10, -1e5, 1.0, 1e-5, -1e-10, 3e3]])
            special["decades"] = np.concatenate([hermitian_with_spectrum(decades, dt, seed + 300)] * 2)
        # The same kinds at 32 x 32 (real: the register kernel; its zero entries never rotate).
        special["repeated32"] = hermitian_with_spectrum(
            [[2.0] * 10 + [-1.0] * 10 + [5.0] * 12, [3.0, -3.0] * 16], dt, seed + 400)
        special["zero32"] = np.zeros((2, 32, 32), dt)
        special["diagonal32"] = np.stack([np.diag(np.linspace(4.0, -3.0, 32)).astype(dt)] * 2)
        if dt in ("float64", "complex128"):
            decades32 = np.array([np.tile([1e10, -1e5, 1.0, 1e-5, -1e-10, 3e3, 7.0, -2e-3], 4)])
            special["decades32"] = hermitian_with_spectrum(decades32, dt, seed + 500)
        for tag, g in special.items():
            e = np.linalg.eigh(g)
            case("eigh", dt, g.shape, "UPLO=L;" + tag, [g], [e.eigenvalues, e.eigenvectors])
            case("eigvalsh", dt, g.shape, "UPLO=L;" + tag, [g], [np.linalg.eigvalsh(g)])


def svd_cases(case, dt, a, tag=None):
    """svd of a with full and reduced factors, and svdvals; `tag` goes into the cases' params."""
    for full in (0, 1):
        u, sv, vh = np.linalg.svd(a, full_matrices=bool(full))
        case("svd", dt, a.shape, "full=%d" % full + (";" + tag if tag else ""), [a], [u, sv, vh])
    case("svdvals", dt, a.shape, tag or "-", [a], [np.linalg.svd(a, compute_uv=False)])


def svd_stack_cases(w, case):
    """svd and svdvals of stacks of small matrices: on the GPU, one one-sided Jacobi kernel for m, n <=
    32 that packs 32 / seg matrices into a warp (seg: min(m, n) rounded up to a power of two) and works
    on the tall one of A and A^H. So: every packing (32 1 x 1 per warp, 16 2 x 2, 4 7 x 7 with a
    padding column, 2 16 x 16, one 17 x 17 and one 32 x 32), tall and wide shapes with their full and
    reduced factors (full ones complete U, or Vh, from min(m, n) columns to max(m, n)), then the
    matrices Jacobi finds hard or easy: rank-deficient and zero ones (their null columns are rebuilt),
    equal singular values, singular values over twenty decades, and entries near the ends of the
    exponent range (each matrix is scaled by a power of two first). matrix_rank and pinv of a
    rank-deficient stack read its small singular values."""
    seed = 1300
    shapes = [(40, 1, 1), (35, 2, 2), (6, 7, 7), (9, 8, 8), (3, 16, 16), (2, 17, 17), (2, 31, 31), (3, 32, 32),
              (10, 8, 3), (10, 3, 8), (4, 32, 5), (4, 5, 32), (6, 32, 1), (6, 1, 32), (3, 20, 32)]
    for dt in DTYPES:
        for s in shapes:
            seed += 1
            svd_cases(case, dt, rng_matrix(s, dt, seed), "stack")
        # Past one grid (8192 blocks of 4 warps of 16 2 x 2 matrices: 524288): 35 x 15000 matrices.
        if dt in ("float64", "complex64"):
            seed += 1
            a = rng_matrix((35, 2, 2), dt, seed)
            u, sv, vh = np.linalg.svd(a)
            case("svd", dt, a.shape, "full=1;stack;tile=15000", [a], [u, sv, vh])
        seed += 1
        x, y = rng_matrix((6, 9, 1), dt, seed), rng_matrix((6, 1, 5), dt, seed + 1)
        rank_one = x @ y
        rank_one[2] = 0
        rank_one[4, :, 1:] = 0  # rank one with four zero columns
        q = np.linalg.qr(rng_matrix((3, 8, 8), dt, seed + 2)).Q
        special = {
            "rank_one": rank_one,
            "rank_one_wide": np.ascontiguousarray(np.swapaxes(rank_one, -1, -2).conj()),
            "zero": np.zeros((3, 4, 6), dt),
            "equal": (q * np.array([3.0, 3.0, 0.5])[:, None, None]).astype(dt),
        }
        if dt in ("float64", "complex128"):
            grade = np.array([1e10, 1e5, 1.0, 1e-5, 1e-10, 3e3])
            u6 = np.linalg.qr(rng_matrix((2, 6, 6), dt, seed + 3)).Q
            v6 = np.linalg.qr(rng_matrix((2, 6, 6), dt, seed + 4)).Q
            special["decades"] = ((u6 * grade) @ v6).astype(dt)
            small = rng_matrix((3, 5, 4), dt, seed + 5)
            special["huge"] = small * 1e300
            special["tiny"] = small * 1e-300
            special["subnormal"] = small * 1e-310
        for tag, g in special.items():
            svd_cases(case, dt, g, tag)
        if dt in ("float64", "complex128"):
            low = rank_one[:4]
            case("matrix_rank", dt, low.shape, "stack", [low], [np.asarray(np.linalg.matrix_rank(low), np.int64)])
            case("pinv", dt, low.shape, "stack", [low], [np.linalg.pinv(low)])
    # A NaN in one matrix of a stack: NumPy's "SVD did not converge"; an infinity: NaN singular values
    # for that matrix alone.
    for dt in ("float64", "complex64"):
        st = rng_matrix((4, 3, 3), dt, 1390)
        st[2, 1, 1] = np.nan
        raises_np(w, "svd/nan_stack/" + dt, "svd", "full=1", [st], "linalg_error", lambda: np.linalg.svd(st))
        raises_np(w, "svdvals/nan_stack/" + dt, "svdvals", "-", [st], "linalg_error",
                  lambda: np.linalg.svd(st, compute_uv=False))
        st = st.copy()
        st[2, 1, 1] = np.inf
        case("svdvals", dt, st.shape, "inf_stack", [st], [np.linalg.svd(st, compute_uv=False)])


def solve_stack_cases(w, case):
    """solve of stacks of small matrices: on the GPU one kernel (solver_kernels.cu's solve_small) that
    packs 32 / seg matrices into a warp with their right-hand sides, or cuBLAS's batched LU where a
    matrix and its right-hand sides outgrow the kernel's shared memory (n = 32, k = 200). Rows
    shuffled, so partial pivoting exchanges them all the way down; 1, 3 and 20 right-hand sides; a NaN
    in one right-hand side (its column of X is NaN, the rest exact); a stack past one grid (8192 blocks
    of 8 warps of 16 2 x 2 systems: 40 x 26215 of them); and a singular matrix in a stack, which
    raises."""
    seed = 1700
    for dt in DTYPES:
        for s in [(40, 1, 1), (35, 2, 2), (9, 5, 5), (5, 8, 8), (3, 17, 17), (2, 32, 32)]:
            seed += 1
            rows = np.random.default_rng(seed).permutation(s[-1])
            a = np.ascontiguousarray(well_conditioned(s, dt, seed)[..., rows, :])
            for k in (1, 3, 20):
                b = rng_matrix(s[:-1] + (k,), dt, seed + 100 + k)
                case("solve", dt, s, "b=matrix;k=%d;stack" % k, [a, b], [np.linalg.solve(a, b)])
        seed += 1
        a = well_conditioned((3, 6, 6), dt, seed)
        b = rng_matrix((3, 6, 2), dt, seed + 1)
        b[1, 4, 1] = np.nan
        case("solve", dt, a.shape, "b=matrix;k=2;stack;nan_b", [a, b], [np.linalg.solve(a, b)])
    for dt in ("float64", "complex128"):
        seed += 1
        a = well_conditioned((2, 32, 32), dt, seed)
        b = rng_matrix((2, 32, 200), dt, seed + 1)
        case("solve", dt, a.shape, "b=matrix;k=200;stack", [a, b], [np.linalg.solve(a, b)])
    a = well_conditioned((40, 2, 2), "float64", seed + 2)
    b = rng_matrix((40, 2, 1), "float64", seed + 3)
    case("solve", "float64", a.shape, "b=matrix;k=1;stack;tile=26215", [a, b], [np.linalg.solve(a, b)])
    sing = well_conditioned((3, 4, 4), "float64", seed + 4)
    sing[1, 2] = sing[1, 0]
    raises_np(w, "solve/float64/3x4x4/singular_stack", "solve", "-", [sing, np.ones((3, 4, 1))], "linalg_error",
              lambda: np.linalg.solve(sing, np.ones((3, 4, 1))))


def range_cases(case):
    """eigh, eigvalsh, svd and svdvals of matrices whose entries sit near the ends of the exponent
    range. LAPACK scales such a matrix into range before it iterates (dsyevd, dgesdd), so NumPy's
    answers are as accurate as at unit scale; a Jacobi sweep that does not would overflow (a_qq - a_pp
    of two diagonal entries of opposite sign near the largest number) or lose digits to subnormals
    (its threshold eps sqrt|a_pp a_qq| underflows to zero). "edge" spectra reach 1.9 times 2^1023 (2^127
    in single precision). Sizes for each GPU path: 8 x 8 (the shared-memory Jacobi kernels), 24 x 24
    (the register kernel for real matrices; complex ones stay in shared memory) and 40 x 40 (cuSOLVER);
    the SVDs are of tall matrices (n + 2) x n. No single-precision SVD at the subnormal scale: its
    singular values are themselves subnormal, stored to 2^-149, so not even NumPy's factors
    reconstruct the matrix to 1e-5. What reads singular values follows in svd_family_cases, and solve,
    inv, slogdet, cholesky, qr, eig and eigvals in general_range_cases."""
    scales = {4: {"edge": 2.0**127, "huge": 2.0**100, "tiny": 2.0**-120, "subnormal": 2.0**-135},
              8: {"edge": 2.0**1023, "huge": 2.0**997, "tiny": 2.0**-1000, "subnormal": 2.0**-1026}}
    seed = 1500
    for dt in DTYPES:
        for n in (8, 24, 40):
            seed += 1
            r = np.random.default_rng(seed)
            # Alternating signs, magnitudes in [0.3, 1.9]: diagonal entries of both signs.
            lam = r.uniform(0.3, 1.9, (2, n)) * np.where(np.arange(n) % 2, -1.0, 1.0)
            h = hermitian_with_spectrum(lam, dt, seed)
            sv = r.uniform(0.3, 1.9, (2, n))
            q1 = np.linalg.qr(rng_matrix((2, n + 2, n), dt, seed + 50)).Q
            q2 = np.linalg.qr(rng_matrix((2, n, n), dt, seed + 60)).Q
            a = ((q1 * sv[:, None, :]) @ q2).astype(dt)
            real_size = np.dtype(dt).itemsize // (2 if dt.startswith("complex") else 1)
            for tag, scale in scales[real_size].items():
                g = h * scale  # a power of two: exact but for subnormals (NumPy sees the rounded ones too)
                e = np.linalg.eigh(g)
                case("eigh", dt, g.shape, "UPLO=L;" + tag, [g], [e.eigenvalues, e.eigenvectors])
                case("eigvalsh", dt, g.shape, "UPLO=L;" + tag, [g], [np.linalg.eigvalsh(g)])
                if real_size == 8 or tag != "subnormal":
                    svd_cases(case, dt, a * scale, tag)
                    svd_family_cases(case, dt, a * scale, tag)
                if n != 24 and tag != "subnormal":
                    general_range_cases(case, dt, n, seed, tag, scale)


def empty_cases(w, case):
    """Every np.linalg function on matrices with no elements and on empty stacks, in float64 and
    complex64: NumPy's empty (or identity, or unit, or zero) results, and its errors where it raises
    (cond of an empty matrix, norm ord -2 of one)."""
    square = [(0, 0), (2, 0, 0), (0, 3, 3), (0, 0, 0)]
    rect = [(3, 0), (0, 3), (2, 3, 0), (2, 0, 3), (0, 2, 3), (0, 0), (2, 0, 0)]
    for dt in ("float64", "complex64"):
        for s in square:
            a = np.zeros(s, dt)
            results = [("inv", "-", lambda: [np.linalg.inv(a)]), ("det", "-", lambda: [np.linalg.det(a)]),
                       ("slogdet", "-", lambda: list(np.linalg.slogdet(a))),
                       ("cholesky", "upper=0", lambda: [np.linalg.cholesky(a)]),
                       ("eigh", "UPLO=L", lambda: list(np.linalg.eigh(a))),
                       ("eigvalsh", "UPLO=L", lambda: [np.linalg.eigvalsh(a)]),
                       ("eig", "-", lambda: [complex_of(x) for x in np.linalg.eig(a)]),
                       ("eigvals", "-", lambda: [complex_of(np.linalg.eigvals(a))]),
                       ("matrix_power", "n=-1", lambda: [np.linalg.matrix_power(a, -1)]),
                       ("matrix_power", "n=3", lambda: [np.linalg.matrix_power(a, 3)]),
                       ("cond", "ord=None", lambda: [np.linalg.cond(a)])]
            for op, params, f in results:
                empty_case(w, case, op, dt, s, params, [a], f)
            b = np.zeros(s[:-1] + (2,), dt)
            empty_case(w, case, "solve", dt, s, "b=matrix", [a, b], lambda: [np.linalg.solve(a, b)])
        for s in rect:
            a = np.zeros(s, dt)
            for full in (0, 1):
                empty_case(w, case, "svd", dt, s, "full=%d" % full, [a], lambda: list(np.linalg.svd(a, bool(full))))
            empty_case(w, case, "svdvals", dt, s, "-", [a], lambda: [np.linalg.svd(a, compute_uv=False)])
            for mode in ("reduced", "complete", "r"):
                empty_case(w, case, "qr", dt, s, "mode=" + mode, [a],
                           lambda: [np.linalg.qr(a, mode)] if mode == "r" else list(np.linalg.qr(a, mode)))
            empty_case(w, case, "pinv", dt, s, "-", [a], lambda: [np.linalg.pinv(a)])
            empty_case(w, case, "matrix_rank", dt, s, "-", [a],
                       lambda: [np.asarray(np.linalg.matrix_rank(a), dtype=np.int64)])
            for ord_ in ("2", "-2", "nuc", "fro", "1", "inf"):
                p = ord_ if ord_ in ("nuc", "fro") else float(ord_)
                empty_case(w, case, "norm", dt, s, "ord=" + ord_, [a],
                           lambda: [np.linalg.norm(a, p, axis=(-2, -1))])
            if len(s) == 2:
                b = np.zeros((s[0], 2), dt)
                empty_case(w, case, "lstsq", dt, s, "b=matrix", [a, b],
                           lambda: [x if k != 2 else np.asarray(x, np.int64) for k, x in enumerate(np.linalg.lstsq(a, b))])


def empty_case(w, case, op, dt, shape, params, inputs, results):
    """NumPy's results of one empty case, or the error it raises (LinAlgError: linalg_error; ValueError,
    a reduction with no identity: shape_error, as ndfuse's reductions raise it)."""
    try:
        out = results()
    except ValueError as e:  # LinAlgError is a ValueError too
        kind = "linalg_error" if isinstance(e, np.linalg.LinAlgError) else "shape_error"
        raises_np(w, "%s/%s/%s/%s;empty" % (op, dt, shape_id(shape), params), op, params, inputs, kind, results)
        return
    case(op, dt, shape, params + ";empty", inputs, out)


def svd_family_cases(case, dt, a, tag):
    """What reads singular values, of range_cases' tall stack a: pinv, matrix_rank, norm ord 2, -2 and
    nuc, cond, and lstsq of its first matrix (a right-hand side of its scale; lstsq takes one matrix)."""
    case("pinv", dt, a.shape, tag, [a], [np.linalg.pinv(a)])
    case("matrix_rank", dt, a.shape, tag, [a], [np.asarray(np.linalg.matrix_rank(a), dtype=np.int64)])
    for ord_ in ("2", "-2", "nuc"):
        p = "nuc" if ord_ == "nuc" else float(ord_)
        case("norm", dt, a.shape, "ord=%s;%s" % (ord_, tag), [a], [np.linalg.norm(a, p, axis=(-2, -1))])
    case("cond", dt, a.shape, tag, [a], [np.linalg.cond(a)])
    b = (a[0][:, :2] + a[0][:, -2:]).astype(dt)  # of a's scale, not in its column space
    x, res, rank, sv = np.linalg.lstsq(a[0], b)
    case("lstsq", dt, a[0].shape, "b=matrix;" + tag, [a[0], b], [x, res, np.asarray(rank, np.int64), sv])


def general_range_cases(case, dt, n, seed, tag, scale):
    """range_cases' other factorizations (LU, QR and the nonsymmetric eigenproblem) of a 2-stack of n x n
    well-conditioned matrices whose largest entry is `scale`: n = 8 takes the GPU's batched kernels
    (solve's batched LU, inv's Gauss-Jordan kernel) and n = 40 cuSOLVER. solve's right-hand side has
    the matrix's scale, so the answer stays near 1; the inverses stay in range (the subnormal scale is
    left out)."""
    g = well_conditioned((2, n, n), dt, seed + 70)
    g = (g / np.abs(g).max() * scale).astype(dt)
    b = (rng_matrix((2, n, 3), dt, seed + 80) * scale).astype(dt)
    case("solve", dt, g.shape, "b=matrix;" + tag, [g, b], [np.linalg.solve(g, b)])
    case("inv", dt, g.shape, tag, [g], [np.linalg.inv(g)])
    sl = np.linalg.slogdet(g)
    case("slogdet", dt, g.shape, tag, [g], [sl.sign, sl.logabsdet])
    h = hermitian_pd((2, n, n), dt, seed + 90)
    h = (h / np.abs(h).max() * scale).astype(dt)
    case("cholesky", dt, h.shape, "upper=0;" + tag, [h], [np.linalg.cholesky(h)])
    # NumPy's OpenBLAS squares without scaling in geqrf's norms (inf and NaN in R at 2^1023 in float64):
    # the expected factors are NumPy's of g 2^-e (exact: a power of two), with R scaled back by 2^e.
    e = int(np.frexp(np.abs(g.view(g.real.dtype)).max())[1])
    r = np.linalg.qr(times_power_of_two(g, -e))
    case("qr", dt, g.shape, "mode=reduced;" + tag, [g], [r.Q, times_power_of_two(r.R, e)])
    e = np.linalg.eig(g)
    case("eig", dt, g.shape, tag, [g], [complex_of(e.eigenvalues), complex_of(e.eigenvectors)])
    case("eigvals", dt, g.shape, tag, [g], [complex_of(np.linalg.eigvals(g))])


def times_power_of_two(x, e):
    """x 2^e, real and imaginary parts alike, in x's dtype."""
    if np.iscomplexobj(x):
        return (np.ldexp(x.real, e) + 1j * np.ldexp(x.imag, e)).astype(x.dtype)
    return np.ldexp(x, e).astype(x.dtype)


def tensor_cases(w, case):
    """tensorsolve and tensorinv: NumPy's reshapes around solve and inv, and their edge cases."""
    for i, dt in enumerate(DTYPES):
        # NumPy's docstring shapes, with a well-conditioned matrix in place of the identity.
        m24 = well_conditioned((24, 24), dt, 801 + i)
        a = m24.reshape(6, 4, 2, 3, 4)
        b = rng_matrix((6, 4), dt, 811 + i)
        case("tensorsolve", dt, a.shape, "-", [a, b], [np.linalg.tensorsolve(a, b)])
        m6 = well_conditioned((6, 6), dt, 821 + i)
        a = m6.reshape(2, 3, 6)
        b = rng_matrix((2, 3), dt, 831 + i)
        case("tensorsolve", dt, a.shape, "-", [a, b], [np.linalg.tensorsolve(a, b)])
        # axes move to the end in the order listed.
        a = np.moveaxis(m6.reshape(6, 2, 3), 0, 1)
        b = rng_matrix((6,), dt, 841 + i)
        for axes in ((0, 2), (2, 0)):
            case("tensorsolve", dt, a.shape, "axes=%d,%d" % axes, [a, b], [np.linalg.tensorsolve(a, b, axes)])
        case("tensorinv", dt, (4, 6, 8, 3), "ind=2", [m24.reshape(4, 6, 8, 3)],
             [np.linalg.tensorinv(m24.reshape(4, 6, 8, 3), ind=2)])
        case("tensorinv", dt, (24, 8, 3), "ind=1", [m24.reshape(24, 8, 3)],
             [np.linalg.tensorinv(m24.reshape(24, 8, 3), ind=1)])
        case("tensorinv", dt, (6, 6), "ind=1", [m6], [np.linalg.tensorinv(m6, ind=1)])
    m6 = well_conditioned((6, 6), "float64", 851)
    # The edges of NumPy's rules (Python slicing): b's shape need only have prod(x.shape) elements;
    # equal ranks make x's shape all of a's; a repeated axis moves twice; ind past a.ndim.
    a = m6.reshape(2, 3, 2, 3)
    b = rng_matrix((3, 2), "float64", 852)
    case("tensorsolve", "float64", a.shape, "b=3x2", [a, b], [np.linalg.tensorsolve(a, b)])
    for a, b in ((np.array([[4.0]]), np.array([[2.0]])), (np.array([4.0]), np.array(2.0)),
                 (np.array([[4.0]]), np.array([[[2.0]]]))):
        case("tensorsolve", "float64", a.shape, "b=" + (shape_id(b.shape) or "0d"), [a, b], [np.linalg.tensorsolve(a, b)])
    a = np.moveaxis(m6.reshape(6, 2, 3), 0, 2)
    b = rng_matrix((6,), "float64", 853)
    case("tensorsolve", "float64", a.shape, "axes=0,1,1", [a, b], [np.linalg.tensorsolve(a, b, (0, 1, 1))])
    case("tensorsolve", "float64", (0, 0), "empty", [np.zeros((0, 0)), np.zeros(0)],
         [np.linalg.tensorsolve(np.zeros((0, 0)), np.zeros(0))])
    m24 = well_conditioned((24, 24), "float64", 854)
    case("tensorinv", "float64", (2, 3, 4, 24), "ind=3", [m24.reshape(2, 3, 4, 24)],
         [np.linalg.tensorinv(m24.reshape(2, 3, 4, 24), ind=3)])
    case("tensorinv", "float64", (1,), "ind=5", [np.array([4.0])], [np.linalg.tensorinv(np.array([4.0]), ind=5)])
    # Mixed and integer dtypes compute as solve and inv do.
    a32 = well_conditioned((4, 4), "float32", 855).reshape(2, 2, 4)
    bi = np.arange(1, 5, dtype=np.int64).reshape(2, 2)
    case("tensorsolve", "float32", a32.shape, "b=int64", [a32, bi], [np.linalg.tensorsolve(a32, bi)])
    ai = np.array([[4, 1, 0, 0], [1, 5, 2, 0], [0, 2, 6, 1], [0, 0, 1, 3]], dtype=np.int32).reshape(2, 2, 2, 2)
    case("tensorinv", "int32", ai.shape, "ind=2", [ai], [np.linalg.tensorinv(ai)])

    sq = m6.reshape(2, 3, 6)
    bad = (
        ("tensorsolve/not_square", "tensorsolve", "-", [rng_matrix((2, 3, 4), "float64", 861), np.ones((2, 3))],
         "shape_error", lambda i: np.linalg.tensorsolve(*i)),
        ("tensorsolve/b_size", "tensorsolve", "-", [m6.reshape(2, 3, 2, 3), np.ones((7, 1))], "shape_error",
         lambda i: np.linalg.tensorsolve(*i)),
        ("tensorsolve/axis_out_of_range", "tensorsolve", "axes=3", [sq, np.ones(6)], "shape_error",
         lambda i: np.linalg.tensorsolve(*i, axes=(3,))),
        ("tensorsolve/negative_axis", "tensorsolve", "axes=-1", [sq, np.ones(6)], "shape_error",
         lambda i: np.linalg.tensorsolve(*i, axes=(-1,))),
        ("tensorsolve/singular", "tensorsolve", "-", [np.zeros((2, 2, 2, 2)), np.ones((2, 2))], "linalg_error",
         lambda i: np.linalg.tensorsolve(*i)),
        ("tensorsolve/float16", "tensorsolve", "-", [np.eye(4, dtype=np.float16), np.ones(4, np.float16)],
         "dtype_error", lambda i: np.linalg.tensorsolve(*i)),
        ("tensorinv/ind=0", "tensorinv", "ind=0", [m6], "value_error", lambda i: np.linalg.tensorinv(i[0], 0)),
        ("tensorinv/ind=-1", "tensorinv", "ind=-1", [m6], "value_error", lambda i: np.linalg.tensorinv(i[0], -1)),
        ("tensorinv/not_square", "tensorinv", "ind=2", [np.ones((4, 6, 8, 4))], "shape_error",
         lambda i: np.linalg.tensorinv(i[0], 2)),
        ("tensorinv/not_divisible", "tensorinv", "ind=1", [np.ones((4, 6))], "shape_error",
         lambda i: np.linalg.tensorinv(i[0], 1)),
        ("tensorinv/empty", "tensorinv", "ind=1", [np.zeros((3, 0))], "shape_error",
         lambda i: np.linalg.tensorinv(i[0], 1)),
        ("tensorinv/0d", "tensorinv", "ind=1", [np.array(2.0)], "shape_error", lambda i: np.linalg.tensorinv(i[0], 1)),
        ("tensorinv/singular", "tensorinv", "ind=2", [np.zeros((2, 2, 2, 2))], "linalg_error",
         lambda i: np.linalg.tensorinv(i[0])),
        ("tensorinv/float16", "tensorinv", "ind=1", [np.eye(4, dtype=np.float16)], "dtype_error",
         lambda i: np.linalg.tensorinv(i[0], 1)),
    )
    for cid, op, params, inputs, kind, f in bad:
        raises_np(w, cid, op, params, inputs, kind, lambda: f(inputs))


def raises_np(w, cid, op, params, inputs, kind, call):
    """A case where NumPy raises (checked here): ndfuse must throw nf::<kind>."""
    try:
        call()
    except Exception as e:  # noqa: BLE001 -- any NumPy exception; its name goes into the manifest
        w.row(cid, op, params, ",".join(w.array(x) for x in inputs), "RAISES:%s:%s" % (kind, type(e).__name__))
        return
    raise AssertionError("NumPy does not raise for " + cid)


if __name__ == "__main__":
    main(sys.argv[1])
