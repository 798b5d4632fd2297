#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's matrix products (tests/test_linalg.cpp): matmul, dot, a.dot(b), vdot,
inner, outer, tensordot, einsum, kron, linalg.matrix_power and linalg.multi_dot.

Usage: gen_linalg.py OUTDIR. Writes OUTDIR/linalg/manifest.tsv and the .npy files it names.

manifest.tsv, one case per line, tab-separated, six columns:
  id      unique, readable: <op>/<dtypes>/<shapes>/<views> (shapes as 3x4, 0d for a 0-d operand)
  op      matmul | dot | member_dot (a.dot(b)) | vdot | inner | outer | kron | multi_dot
          | tensordot:N (axes=N) | tensordot:<a axes>;<b axes> (axis lists, ',' inside: 0,2;1,0)
          | einsum:<subscripts> (np.einsum spelling, implicit output allowed) | matrix_power:N
          | epilogue:<form>: an expression around P = matmul(a, b) and a third operand c, one of the keys
            of EPILOGUES below, spelled the same in C++ (ndfuse folds scalars and c into GEMM's alpha
            and beta where it can; the result must not change)
  inputs  the operands' files (arrays/xxx.npy) joined by ',', in call order; '-' for no operand at all
          (multi_dot of an empty list)
  views   one transform per operand, joined by ','. The C++ side applies it to the loaded (evaluated)
          array before the call; the file holds whatever makes the transformed operand the intended one:
            -      the loaded array itself
            T      swapaxes(-2, -1) of it: the product reads a transposed buffer in place
            conjT  conj(swapaxes(-2, -1)) of it: the conjugate transpose (float and complex only)
            lazy   an unevaluated identity node over it (same dtype: frontend::lazy_copy)
            lazyT  swapaxes(-2, -1) of that unevaluated node
  scale   for float and complex results: max over the result of the same op applied to |operands|
          (in float64), an upper bound on the magnitude of the terms each result element sums. The test
          accepts |got - expected| <= rtol(dtype) * scale. '-' for integer and bool results (exact) and
          for errors.
  expect  arrays/xxx.npy: NumPy's result on the transformed operands; or RAISES:<ndfuse exception>:<NumPy
          exception type> where NumPy raises (the ndfuse call must throw it when the node is built).

NumPy semantics worth knowing: integer products wrap in the result dtype; bool products are or-of-ands;
float16 products accumulate in float32 and round once; 1-d operands of matmul are promoted and the added
axis removed; einsum keeps the operands' result dtype even where it only sums (np.einsum('ii', int32) is
int32, unlike np.trace or np.sum, which widen to int64); multi_dot of exactly two arrays is plain np.dot
(any ndim), of more it requires 2-d operands but for a 1-d first or last one.

Errors: ValueError and LinAlgError (non-square matrix_power, non-2-d multi_dot operands) are shape
problems: shape_error. multi_dot of fewer than two arrays and an einsum whose subscripts name a different
number of operands than given are value_error.
"""
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402

FLOATC = ["float32", "float64", "complex64", "complex128"]
ERROR_DTYPES = ("float64", "complex64", "int32")
EXACT = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


# --- inputs ---------------------------------------------------------------------------------------------
def sample(shape, dtype, seed):
    """Small deterministic values: integers -4..4 halved plus thirds (so float32 products round, but stay
    accurate), complex with an independent imaginary part; ints -4..4; bools about 2/3 true."""
    n = int(np.prod(shape)) if shape else 1
    i = np.arange(n)
    base = (i * 7 + seed * 5 + 3) % 9 - 4
    if dtype == "bool":
        v = (i * 5 + seed) % 3 != 0
    elif dtype in EXACT:
        v = base if not dtype.startswith("uint") else base + 4
    else:
        v = base * 0.5 + ((i * 11 + seed * 3) % 5) / 3.0
        if dtype.startswith("complex"):
            v = v + 1j * (((i * 5 + seed * 3 + 1) % 7 - 3) / 4.0 + ((i + seed) % 3) / 3.0)
    return np.asarray(v).astype(dtype).reshape(shape)


def wrap_sample(shape, dtype, seed):
    """int32 values whose products overflow: NumPy wraps modulo 2**32."""
    n = int(np.prod(shape)) if shape else 1
    i = np.arange(n, dtype=np.int64)
    v = (i * 7919 + seed * 104729) % 200003 + 70001
    v = np.where(i % 2 == 0, v, -v) * (40009 if dtype == "int64" else 1)
    return v.astype(dtype).reshape(shape)


def swap(x):
    return np.swapaxes(x, -2, -1)


def view_apply(s, v):
    """What the C++ side computes from the stored array s."""
    if v in ("-", "lazy"):
        return s
    if v in ("T", "lazyT"):
        return swap(s)
    if v == "conjT":
        return np.conj(swap(s))
    raise ValueError(v)


def view_store(x, v):
    """The array to store so that view_apply(stored, v) is x."""
    if v in ("-", "lazy"):
        return x
    if v in ("T", "lazyT"):
        return np.ascontiguousarray(swap(x))
    if v == "conjT":
        return np.ascontiguousarray(np.conj(swap(x)))
    raise ValueError(v)


# --- the ops --------------------------------------------------------------------------------------------
def ints(s):
    return [int(p) for p in s.split(",") if p != ""]


def compute(op, xs):
    name, _, arg = op.partition(":")
    if name == "matmul":
        return np.matmul(*xs)
    if name in ("dot", "member_dot"):
        return np.dot(*xs)
    if name in ("vdot", "inner", "outer", "kron"):
        return getattr(np, name)(*xs)
    if name == "tensordot":
        if ";" in arg:
            a, b = arg.split(";")
            return np.tensordot(xs[0], xs[1], axes=(ints(a), ints(b)))
        return np.tensordot(xs[0], xs[1], axes=int(arg))
    if name == "einsum":
        return np.einsum(arg, *xs)
    if name == "matrix_power":
        return np.linalg.matrix_power(xs[0], int(arg))
    if name == "multi_dot":
        return np.linalg.multi_dot(xs)
    if name == "epilogue":
        return EPILOGUES[arg][0](np.matmul(xs[0], xs[1]), xs[2] if len(xs) > 2 else None)
    raise ValueError(op)


def magnitude(op, xs):
    """An upper bound on the magnitude of the terms each result element sums: the op on |operands|, with
    subtractions as additions and scalars as their absolute values."""
    mags = [np.abs(x).astype(np.float64) for x in xs]
    name, _, arg = op.partition(":")
    if name == "epilogue":
        return EPILOGUES[arg][1](np.matmul(mags[0], mags[1]), mags[2] if len(mags) > 2 else None)
    return compute(op, mags)


def raises_token(op, e):
    if isinstance(e, np.linalg.LinAlgError):  # non-square or non-2-d operands: a shape problem
        return "RAISES:shape_error:LinAlgError"
    if isinstance(e, ValueError):
        if op == "multi_dot" and "at least two" in str(e):
            return "RAISES:value_error:ValueError"
        if op.startswith("einsum:") and "operands provided to einstein sum" in str(e):
            return "RAISES:value_error:ValueError"  # subscripts and operands disagree in number
        return "RAISES:shape_error:ValueError"
    raise e  # anything else: the generator asked for something NumPy leaves undefined


def shape_name(shape):
    return "x".join(map(str, shape)) if shape else "0d"


class Cases:
    def __init__(self, w):
        self.w = w

    def add(self, op, specs, tag=""):
        """specs: list of (shape, dtype, view) or (array, view); the arrays are the operands the op sees."""
        xs, views = [], []
        for k, spec in enumerate(specs):
            if isinstance(spec[0], np.ndarray):
                x, v = spec
            else:
                shape, dt, v = spec
                x = sample(shape, dt, k + 1)
            if v != "-" and v != "lazy":
                assert x.ndim >= 2, (op, specs)
            if v == "conjT":
                assert x.dtype.kind in "fc", (op, specs)
            xs.append(x)
            views.append(v)
        stored = [view_store(x, v) for x, v in zip(xs, views)]
        seen = [view_apply(s, v) for s, v in zip(stored, views)]
        for a, b in zip(seen, xs):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        case_id = "%s/%s/%s/%s%s" % (op, "-".join(x.dtype.name for x in xs) or "none",
                                     "@".join(shape_name(x.shape) for x in xs) or "none",
                                     ",".join(views) or "none", tag)
        inputs = ",".join(self.w.array(s) for s in stored) or "-"
        try:
            r = np.asarray(compute(op, seen))
        except Exception as e:  # noqa: BLE001 - the exception type is the expectation
            assert all(v == "-" for v in views), ("views are for valid products", case_id, e)
            self.w.row(case_id, op, inputs, ",".join(views) or "-", "-", raises_token(op, e))
            return
        if r.dtype.name in EXACT:
            scale = "-"
        else:
            m = np.asarray(magnitude(op, seen))
            scale = repr(float(m.max())) if m.size else "0.0"
        self.w.row(case_id, op, inputs, ",".join(views), scale, self.w.array(r))

    def grid(self, op, shapes, dtypes, exact_dtypes=(), some=None):
        """One case per dtype (all operands alike). exact_dtypes run on the first `some` shape lists only;
        a shape list NumPy refuses runs on ERROR_DTYPES only (the error does not depend on the dtype)."""
        for k, shape_list in enumerate(shapes):
            try:
                compute(op, [sample(sh, "float64", 1) for sh in shape_list])
                dts = list(dtypes) + list(exact_dtypes if some is None or k < some else ())
            except ValueError:
                dts = ERROR_DTYPES
            for dt in dts:
                self.add(op, [(sh, dt, "-") for sh in shape_list])


# --- case tables ----------------------------------------------------------------------------------------
# epilogue:<form>: (the value from P = a @ b and c, its magnitude bound from |P| and |c|). Python scalars
# are weak (NEP 50), as C++ scalars in ndfuse.
EPILOGUES = {
    "2.5*ab": (lambda p, c: 2.5 * p, lambda p, c: 2.5 * p),
    "ab*-3": (lambda p, c: p * -3, lambda p, c: 3 * p),
    "-ab": (lambda p, c: -p, lambda p, c: p),
    "ab/4": (lambda p, c: p / 4, lambda p, c: p / 4),
    "ab/3": (lambda p, c: p / 3, lambda p, c: p / 3),
    "(1+2j)*ab": (lambda p, c: (1 + 2j) * p, lambda p, c: 3 * p),
    "ab+c": (lambda p, c: p + c, lambda p, c: p + c),
    "c+ab": (lambda p, c: c + p, lambda p, c: p + c),
    "ab-c": (lambda p, c: p - c, lambda p, c: p + c),
    "c-ab": (lambda p, c: c - p, lambda p, c: p + c),
    "2*ab+c": (lambda p, c: 2 * p + c, lambda p, c: 2 * p + c),
    "ab+3*c": (lambda p, c: p + 3 * c, lambda p, c: p + 3 * c),
    "0.5*(ab+c)": (lambda p, c: 0.5 * (p + c), lambda p, c: 0.5 * (p + c)),
    "3*(ab+c)": (lambda p, c: 3 * (p + c), lambda p, c: 3 * (p + c)),
    "-(ab-c)*2": (lambda p, c: -(p - c) * 2, lambda p, c: (p + c) * 2),
}
EPILOGUE_SCALAR_FORMS = ["2.5*ab", "ab*-3", "-ab", "ab/4", "ab/3"]
EPILOGUE_C_FORMS = ["ab+c", "c+ab", "ab-c", "c-ab", "2*ab+c", "ab+3*c", "0.5*(ab+c)", "3*(ab+c)", "-(ab-c)*2"]
# (a, b, c): c of the product's shape, broadcast against it, or (float) of another dtype
EPILOGUE_SHAPES = [((5, 4), (4, 3), (5, 3)), ((2, 3, 4), (2, 4, 5), (2, 3, 5)), ((2, 1, 3, 4), (5, 4, 2), (2, 5, 3, 2)),
                   ((4,), (4, 3), (3,)), ((17, 9), (9, 13), (17, 13)), ((5, 4), (4, 3), (3,)), ((5, 4), (4, 3), (5, 1)),
                   ((2, 3, 4), (2, 4, 5), (3, 5))]

MATMUL_SHAPES = [((3, 3), (3, 3)), ((5, 2), (2, 4)), ((2, 5), (5, 3)), ((6, 3), (3, 2)), ((1, 1), (1, 1)),
                 ((1, 5), (5, 1)), ((5, 1), (1, 5)), ((4,), (4, 3)), ((3, 4), (4,)), ((4,), (4,)),
                 ((2, 1, 3, 4), (5, 4, 2)), ((2, 3, 4), (2, 4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (4,)),
                 ((4,), (2, 4, 3)), ((1, 3, 4), (2, 4, 1)), ((17, 9), (9, 13)), ((2, 0), (0, 3)),
                 ((0, 3), (3, 2)), ((2, 3), (3, 0)), ((0,), (0,)), ((0, 2, 3), (3, 4)), ((2, 2, 0), (0, 3))]
MATMUL_ERRORS = [((), (3,)), ((3,), ()), ((), ()), ((2, 3), (4, 2)), ((3,), (4,)), ((2, 3, 4), (3, 5, 2)),
                 ((2, 3), (2, 3)), ((3, 4), (3,)), ((4,), (3, 4))]
# (shapes the view combinations run on; both operands at least 2-d)
VIEW_SHAPES = [((3, 3), (3, 3)), ((5, 2), (2, 4)), ((1, 4), (4, 1)), ((2, 1, 3, 4), (5, 4, 2)), ((17, 9), (9, 13)),
               ((2, 0), (0, 3)), ((0, 3), (3, 2))]
VIEW_PAIRS_ALL = [("T", "-"), ("-", "T"), ("T", "T"), ("conjT", "-"), ("-", "conjT"), ("conjT", "T"),
                  ("lazy", "-"), ("lazyT", "lazy"), ("lazy", "lazyT"), ("conjT", "lazy")]
VIEW_PAIRS_SOME = [("T", "-"), ("-", "T"), ("conjT", "conjT"), ("lazyT", "lazy")]
VIEW_PAIRS_EXACT = [("T", "-"), ("T", "T"), ("lazy", "lazyT")]
ONE_D_VIEWS = [((4,), (4, 3), [("lazy", "T"), ("-", "conjT"), ("lazy", "lazyT")]),
               ((3, 4), (4,), [("T", "lazy"), ("conjT", "-"), ("lazyT", "lazy")]),
               ((4,), (2, 4, 3), [("-", "T"), ("lazy", "conjT")]), ((2, 3, 4), (4,), [("T", "-"), ("lazyT", "-")])]
MIXED = [("float32", "float64"), ("float64", "float32"), ("int32", "float32"), ("float32", "int32"),
         ("int64", "float64"), ("int32", "float64"), ("int16", "float32"), ("bool", "int32"), ("bool", "float32"),
         ("int8", "uint8"), ("int8", "int32"), ("float16", "float32"), ("float16", "int8"), ("complex64", "float64"),
         ("float32", "complex128"), ("int64", "complex64"), ("complex64", "complex128"), ("float16", "complex64")]
MIXED_SHAPES = [((3, 4), (4, 2)), ((4,), (4, 3)), ((2, 1, 3, 4), (5, 4, 2))]

DOT_SHAPES = [((3, 4), (4, 2)), ((3, 3), (3, 3)), ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 3)), ((1, 1), (1, 1)),
              ((2, 3, 4), (5, 4, 2)), ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((3, 4), (2, 4, 5)), ((), (3, 4)),
              ((3, 4), ()), ((), ()), ((2, 3, 4), ()), ((2, 0), (0, 3)), ((0,), (0,)), ((0, 3), (3,)),
              ((17, 9), (9, 13))]
DOT_ERRORS = [((3, 4), (3, 4)), ((4,), (5,)), ((2, 3, 4), (5, 3, 2)), ((3,), (4, 3))]
DOT_VIEWS = [((3, 4), (4, 2), [("T", "-"), ("-", "T"), ("conjT", "lazy"), ("lazyT", "T")]),
             ((2, 3, 4), (5, 4, 2), [("T", "-"), ("-", "T"), ("lazyT", "conjT")]),
             ((4,), (4, 3), [("lazy", "T"), ("-", "conjT")])]

VDOT_SHAPES = [((6,), (6,)), ((2, 3), (3, 2)), ((2, 3), (6,)), ((1,), (1,)), ((0,), (0,)), ((2, 2, 2), (8,)),
               ((), ()), ((17,), (17,))]
VDOT_ERRORS = [((3,), (4,)), ((2, 3), (2, 2))]
INNER_SHAPES = [((3, 4), (2, 4)), ((4,), (4,)), ((2, 3, 4), (5, 4)), ((3, 4), (4,)), ((4,), (2, 4)), ((), (3, 4)),
                ((3,), ()), ((0,), (0,)), ((2, 0), (3, 0)), ((1, 1), (1, 1))]
INNER_ERRORS = [((3, 4), (4, 3)), ((4,), (5,))]
OUTER_SHAPES = [((3,), (4,)), ((2, 3), (4,)), ((), (3,)), ((3,), (2, 2)), ((0,), (3,)), ((1,), (1,)), ((2, 2), (3, 2))]
KRON_SHAPES = [((2, 2), (3, 3)), ((2, 3), (3, 2)), ((3,), (2,)), ((2, 3), (3,)), ((2,), (2, 3)), ((2, 1, 3), (3, 2)),
               ((), (2, 2)), ((1, 1), (1, 1)), ((0, 2), (2, 2)), ((2, 2), ())]
TENSORDOT = [("tensordot:2", (2, 3, 4), (3, 4, 5)), ("tensordot:1", (2, 3), (3, 4)), ("tensordot:0", (2, 3), (4,)),
             ("tensordot:3", (2, 3, 4), (2, 3, 4)), ("tensordot:0,2;1,0", (3, 2, 4), (4, 3, 5)),
             ("tensordot:-1;0", (2, 3), (3, 4)), ("tensordot:1,0;0,1", (3, 4), (4, 3)), ("tensordot:2", (2, 3), (2, 3)),
             ("tensordot:1", (2, 0), (0, 3)), ("tensordot:2;0", (2, 3, 4), (4, 5)), ("tensordot:1", (4,), (4, 2)),
             ("tensordot:0;1", (3, 2), (4, 3)), ("tensordot:2,0;1,2", (4, 2, 3), (5, 3, 4)),
             ("tensordot:1", (2, 3), (4, 5)), ("tensordot:0,1;0,1", (2, 3), (3, 2))]
EINSUM = [("ij,jk->ik", [(3, 4), (4, 2)]), ("ij,jk", [(3, 4), (4, 2)]), ("ij,kj->ik", [(3, 4), (2, 4)]),
          ("ji,jk->ik", [(4, 3), (4, 2)]), ("ba,bc", [(4, 3), (4, 2)]), ("ij,ij->ij", [(2, 3), (2, 3)]),
          ("ij,ij->", [(2, 3), (2, 3)]), ("i,i->", [(5,), (5,)]), ("i,i", [(5,), (5,)]), ("i,i->i", [(4,), (4,)]),
          ("i,j->ij", [(3,), (4,)]), ("ij,j->i", [(3, 4), (4,)]), ("i,ij->j", [(3,), (3, 4)]),
          ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
          ("bij,bkj->bki", [(2, 3, 4), (2, 5, 4)]),
          ("ii->i", [(4, 4)]), ("ii", [(4, 4)]), ("ii->", [(4, 4)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]),
          ("ij->i", [(3, 4)]), ("ij->j", [(3, 4)]), ("ij", [(3, 4)]), ("ji", [(3, 4)]), ("...ii->...i", [(2, 3, 3)]),
          ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("i,ij,j->", [(3,), (3, 4), (4,)]),
          ("ij,jk->ik", [(2, 0), (0, 3)]), ("ij,jk->ik", [(0, 3), (3, 2)]), ("ij,jk->ik", [(17, 9), (9, 13)]),
          ("ij,jk->ik", [(2, 3), (2, 3)]), ("ii->i", [(2, 3)]), ("ij,jk->ik", [(2, 3), (3, 4), (4, 2)])]
EINSUM_VIEWS = [("ij,jk->ik", [(3, 4), (4, 2)], [("T", "-"), ("-", "T"), ("conjT", "lazy"), ("lazyT", "lazyT")]),
                ("ij,kj->ik", [(3, 4), (2, 4)], [("T", "T"), ("lazy", "conjT")]),
                ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], [("T", "lazyT")]),
                ("ii->i", [(4, 4)], [("T",), ("lazyT",)]), ("ij->", [(3, 4)], [("conjT",)])]
MATRIX_POWER = [((3, 3), [0, 1, 2, 3, 5]), ((2, 3, 3), [0, 2, 3]), ((1, 1), [4]), ((0, 0), [0, 2]), ((4, 4), [6]),
                ((2, 3), [2, 0]), ((3,), [2])]
MATRIX_POWER_VIEWS = [((3, 3), 3, ["T", "conjT", "lazy", "lazyT"]), ((2, 3, 3), 2, ["T", "lazyT"])]
MULTI_DOT = [[(4, 2), (2, 5), (5, 3)], [(10, 2), (2, 10), (10, 3), (3, 1)], [(5,), (5, 3), (3, 2)],
             [(3, 5), (5, 2), (2,)], [(4,), (4, 3), (3,)], [(3, 4), (4, 2)], [(4,), (4,)], [(2, 3), (3, 0), (0, 4)],
             [(1, 6), (6, 6), (6, 1)], [(2, 3, 4), (4, 2)], [(3, 3)], [], [(2, 3), (4, 2), (2, 2)],
             [(2, 2), (2, 2, 2), (2, 2)], [(2, 2, 2), (2, 2), (2, 2)], [(4,)]]
MULTI_DOT_VIEWS = [([(4, 2), (2, 5), (5, 3)], [("T", "lazy", "conjT"), ("lazyT", "T", "-")]),
                   ([(10, 2), (2, 10), (10, 3), (3, 1)], [("T", "-", "lazy", "T")]),
                   ([(5,), (5, 3), (3, 2)], [("lazy", "T", "conjT")])]


def main():
    outdir = sys.argv[1]
    w = OracleWriter(outdir, "linalg")
    c = Cases(w)
    try:
        # matmul: every shape on every dtype; views on the float and complex ones, some on the exact ones
        for op in ("matmul",):
            c.grid(op, MATMUL_SHAPES, FLOATC + ["float16", "int32", "int64", "bool"], ["int8", "uint8"], 12)
            for sa, sb in MATMUL_ERRORS:
                for dt in ("float64", "float32", "complex64", "int32", "bool"):
                    c.add(op, [(sa, dt, "-"), (sb, dt, "-")])
            for sa, sb in VIEW_SHAPES:
                for dt in FLOATC:
                    pairs = VIEW_PAIRS_ALL if dt in ("float64", "complex128") else VIEW_PAIRS_SOME
                    for va, vb in pairs:
                        c.add(op, [(sa, dt, va), (sb, dt, vb)])
                for dt in ("float16", "int32", "bool") if (sa, sb) in VIEW_SHAPES[:4] else ():
                    for va, vb in VIEW_PAIRS_EXACT:
                        c.add(op, [(sa, dt, va), (sb, dt, vb)])
            for sa, sb, pairs in ONE_D_VIEWS:
                for dt in ("float64", "complex64"):
                    for va, vb in pairs:
                        c.add(op, [(sa, dt, va), (sb, dt, vb)])
            for da, db in MIXED:
                for sa, sb in MIXED_SHAPES:
                    c.add(op, [(sa, da, "-"), (sb, db, "-")])
                views = ("conjT", "T") if np.dtype(da).kind in "fc" else ("T", "lazy")
                c.add(op, [((3, 4), da, views[0]), ((4, 2), db, views[1])])
            for dt in ("int32", "int64", "uint8"):  # NumPy wraps in the result dtype
                c.add(op, [(wrap_sample((3, 4), dt, 1), "-"), (wrap_sample((4, 2), dt, 2), "-")], "/wrap")
                c.add(op, [(wrap_sample((4,), dt, 3), "-"), (wrap_sample((4,), dt, 4), "-")], "/wrap")
            c.add(op, [(wrap_sample((3, 4), "int32", 5), "T"), (wrap_sample((4, 2), "int32", 6), "lazy")], "/wrap")

        # scalars and an added matrix around a product (folded into GEMM's alpha and beta)
        for dt in FLOATC + ["float16"]:
            for sa, sb, sc in EPILOGUE_SHAPES[:3]:
                for form in EPILOGUE_SCALAR_FORMS + (["(1+2j)*ab"] if dt.startswith("complex") else []):
                    c.add("epilogue:" + form, [(sa, dt, "-"), (sb, dt, "-")])
                    c.add("epilogue:" + form, [(sa, dt, "lazy"), (sb, dt, "T")])
            for sa, sb, sc in EPILOGUE_SHAPES:
                for form in EPILOGUE_C_FORMS:
                    c.add("epilogue:" + form, [(sa, dt, "-"), (sb, dt, "-"), (sc, dt, "-")])
            for form in ("ab+c", "c-ab", "2*ab+c"):
                for vc in ("lazy", "T"):
                    c.add("epilogue:" + form, [((5, 4), dt, "-"), ((4, 3), dt, "lazy"), ((5, 3), dt, vc)])
        for da, dc in [("float32", "float64"), ("float64", "float32"), ("complex64", "float32"), ("float32", "int32"),
                       ("float64", "complex64"), ("float16", "float32")]:
            for form in ("ab+c", "c-ab", "2*ab+c"):
                c.add("epilogue:" + form, [((5, 4), da, "-"), ((4, 3), da, "-"), ((5, 3), dc, "-")])

        # dot and a.dot(b)
        c.grid("dot", DOT_SHAPES + DOT_ERRORS, FLOATC, ["float16", "int32", "int64", "bool"], 14)
        for sa, sb, pairs in DOT_VIEWS:
            for dt in FLOATC:
                for va, vb in pairs:
                    c.add("dot", [(sa, dt, va), (sb, dt, vb)])
        for da, db in MIXED[:8]:
            c.add("dot", [((3, 4), da, "-"), ((4,), db, "-")])
            c.add("dot", [((2, 3, 4), da, "-"), ((5, 4, 2), db, "-")])
        c.add("dot", [(wrap_sample((3, 4), "int32", 1), "-"), (wrap_sample((4, 2), "int32", 2), "-")], "/wrap")
        for sa, sb in [((3, 4), (4, 2)), ((4,), (4,)), ((2, 3, 4), (4,)), ((), (3,)), ((3, 4), (3, 2))]:
            for dt in ("float64", "float32", "complex128", "int64"):
                c.add("member_dot", [(sa, dt, "-"), (sb, dt, "-")])
        c.add("member_dot", [((3, 4), "float64", "T"), ((4, 2), "float64", "lazy")])

        # vdot, inner, outer, kron
        c.grid("vdot", VDOT_SHAPES + VDOT_ERRORS, FLOATC + ["float16", "int32", "int64", "bool"])
        for dt in FLOATC:
            c.add("vdot", [((2, 3), dt, "T"), ((3, 2), dt, "-")])
            c.add("vdot", [((2, 3), dt, "conjT"), ((6,), dt, "lazy")])
            c.add("vdot", [((2, 3), dt, "lazyT"), ((2, 3), dt, "conjT")])
        c.grid("inner", INNER_SHAPES + INNER_ERRORS, FLOATC + ["float16", "int32", "bool"])
        for dt in FLOATC:
            c.add("inner", [((3, 4), dt, "T"), ((2, 4), dt, "-")])
            c.add("inner", [((3, 4), dt, "lazy"), ((2, 4), dt, "conjT")])
            c.add("inner", [((2, 3, 4), dt, "lazyT"), ((5, 4), dt, "T")])
        c.grid("outer", OUTER_SHAPES, FLOATC + ["float16", "int32", "bool"])
        for dt in FLOATC:
            c.add("outer", [((2, 3), dt, "T"), ((4,), dt, "lazy")])
            c.add("outer", [((3,), dt, "lazy"), ((2, 2), dt, "conjT")])
        c.grid("kron", KRON_SHAPES, FLOATC + ["int32", "bool"])
        for dt in FLOATC:
            c.add("kron", [((2, 3), dt, "T"), ((3, 2), dt, "lazy")])
            c.add("kron", [((2, 2), dt, "conjT"), ((2, 3), dt, "lazyT")])
        for da, db in [("float32", "float64"), ("int32", "float32"), ("bool", "int64"), ("complex64", "float64")]:
            for op in ("vdot", "inner", "outer", "kron"):
                c.add(op, [((2, 3), da, "-"), ((2, 3) if op != "inner" else (4, 3), db, "-")])

        # tensordot and einsum
        for spec, sa, sb in TENSORDOT:
            c.grid(spec, [(sa, sb)], FLOATC + ["int32"])
        for dt in FLOATC:
            c.add("tensordot:1", [((2, 3), dt, "T"), ((3, 4), dt, "lazy")])
            c.add("tensordot:2", [((2, 3, 4), dt, "lazyT"), ((3, 4, 5), dt, "conjT")])
            c.add("tensordot:0,1;1,0", [((3, 4), dt, "conjT"), ((4, 3), dt, "T")])
        c.add("tensordot:1", [((2, 3), "float32", "-"), ((3, 4), "float64", "-")])
        c.add("tensordot:1", [((2, 3), "int64", "-"), ((3, 4), "complex64", "-")])
        for sub, shapes in EINSUM:
            c.grid("einsum:" + sub, [shapes], FLOATC + ["int32"])
        for sub, shapes, vlist in EINSUM_VIEWS:
            for dt in FLOATC:
                for vs in vlist:
                    c.add("einsum:" + sub, [(s, dt, v) for s, v in zip(shapes, vs)])
        c.add("einsum:ij,jk->ik", [((3, 4), "float32", "-"), ((4, 2), "float64", "-")])
        c.add("einsum:ij,jk->ik", [((3, 4), "int32", "-"), ((4, 2), "complex64", "-")])
        c.add("einsum:ij,jk->ik", [(wrap_sample((3, 4), "int32", 1), "-"), (wrap_sample((4, 2), "int32", 2), "-")],
              "/wrap")

        # matrix_power and multi_dot
        for shape, ns in MATRIX_POWER:
            for n in ns:
                c.grid("matrix_power:%d" % n, [[shape]], FLOATC + ["int64"])
        for shape, n, vs in MATRIX_POWER_VIEWS:
            for dt in FLOATC:
                for v in vs:
                    c.add("matrix_power:%d" % n, [(shape, dt, v)])
        c.add("matrix_power:2", [((2, 2), "bool", "-")])
        c.add("matrix_power:3", [(wrap_sample((3, 3), "int32", 1), "-")], "/wrap")
        c.grid("multi_dot", [s for s in MULTI_DOT if s], FLOATC + ["int64"])
        c.add("multi_dot", [])  # (the empty list has no dtype)
        for shapes, vlist in MULTI_DOT_VIEWS:
            for dt in FLOATC:
                for vs in vlist:
                    c.add("multi_dot", [(s, dt, v) for s, v in zip(shapes, vs)])
        c.add("multi_dot", [((4, 2), "float32", "-"), ((2, 5), "float64", "-"), ((5, 3), "float32", "-")])
        c.add("multi_dot", [((4, 2), "int32", "-"), ((2, 5), "float32", "-"), ((5, 3), "complex64", "-")])
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


if __name__ == "__main__":
    main()
