#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's solvers and factorizations (tests/test_solvers.cpp): np.linalg's solve,
inv, det, slogdet, cholesky, qr, eigh, eigvalsh, eig, eigvals, svd, svdvals, pinv, lstsq, matrix_rank,
cond, norm (ord 2, -2, 'nuc') and matrix_power with negative exponents.

Usage: gen_solvers.py OUTDIR. Writes OUTDIR/solvers/manifest.tsv and the .npy files it names.

manifest.tsv, one case per line, tab-separated, five columns:
  id      unique, readable: <op>/<dtype>/<shape>[/<params>]
  op      the np.linalg function name
  params  ';'-joined key=value pairs ('-' for none): mode (qr), UPLO (eigh, eigvalsh), full
          (svd full_matrices 0/1), upper (cholesky 0/1), ord (cond, norm: 2, -2, nuc, 1, inf, fro),
          n (matrix_power), tol (matrix_rank), rcond (pinv, lstsq)
  inputs  the operands' files joined by ','
  expect  NumPy's outputs joined by ',' in NumPy's order (named tuples flattened; lstsq's rank as a
          0-d int64 file); or RAISES:<ndfuse exception> where NumPy raises.

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
        for s in RECT:
            seed += 1
            a = rng_matrix(s, dt, seed)
            for full in (0, 1):
                u, sv, vh = np.linalg.svd(a, full_matrices=bool(full))
                case("svd", dt, s, "full=%d" % full, [a], [u, sv, vh])
            case("svdvals", dt, s, "-", [a], [np.linalg.svd(a, compute_uv=False)])
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

    # --- errors ---------------------------------------------------------------------------------------
    sing_stack = np.stack([np.eye(3), np.zeros((3, 3)), np.eye(3)])
    raises("inv/singular", "inv", "-", [sing], "linalg_error")
    raises("inv/singular_stack", "inv", "-", [sing_stack], "linalg_error")
    raises("solve/singular", "solve", "b=vector", [sing, np.ones(2)], "linalg_error")
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


if __name__ == "__main__":
    main(sys.argv[1])
