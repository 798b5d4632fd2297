#!/usr/bin/env python3
"""NumPy 2 oracle for nf::fft (tests/test_fft.cpp): fft, ifft, rfft, irfft, hfft, ihfft, fftn, ifftn,
rfftn, irfftn, fft2, ifft2, rfft2, irfft2, fftfreq, rfftfreq, fftshift and ifftshift.

Usage: gen_fft.py OUTDIR. Writes OUTDIR/fft/manifest.tsv and the .npy files it names, and
OUTDIR/fft_large/manifest.tsv (large_cases says what it holds).

manifest.tsv, one case per line, tab-separated, five columns:
  id      unique, readable: <op>/<dtype>/<shape>/<params>
  op      the numpy.fft function name
  input   arrays/xxx.npy, the operand as stored; '-' for fftfreq and rfftfreq (no operand)
  params  ';'-joined k=v, each absent key meaning the NumPy default:
            n=INT            the 1-d functions' n; fftfreq's and rfftfreq's n
            d=FLOAT          fftfreq's and rfftfreq's d
            axis=INT         the 1-d functions' axis
            s=INT,INT,...    the n-d functions' s (-1: the input's length along that axis)
            axes=INT,...     the n-d functions' and the shifts' axes; 'axes=' (empty) is an empty list
            norm=NAME        backward | ortho | forward (or a bad name, for the error case)
            view=V           what the C++ side applies to the loaded (evaluated) operand first:
                               T     swapaxes(-2, -1): the transform reads a transposed buffer
                               lazy  an unevaluated identity node over it (frontend::lazy_copy)
                             (the file holds what makes the viewed operand the intended one)
          or '-' for none.
  expect  arrays/xxx.npy: NumPy's result; or RAISES:<ndfuse exception>:<NumPy exception type>.

Tolerance (the C++ side): dtype and shape exactly; values within rtol * max|expected| (a transform's
rounding error scales with the largest value, not with each element), rtol 1e-12 for float64 and
complex128, 1e-5 for float32 and complex64, 2e-3 for float16; fftshift of integers exactly.

Errors: an invalid n or s entry, a bad norm, s and axes of different lengths: ValueError ->
value_error. rfft of complex input: TypeError -> dtype_error. An axis out of range: AxisError (or the
IndexError np.take raises for fftn's axes without s) -> shape_error, as everywhere in ndfuse.
fftfreq(0): ZeroDivisionError -> value_error.
"""
import os
import shutil
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402

INEXACT = ("float32", "float64", "complex64", "complex128")
REAL = ("float32", "float64")
ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_D = ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2")
REAL_INPUT = ("rfft", "ihfft", "rfftn", "rfft2")


def sample(shape, dtype, seed):
    """Values in [-1, 1] (complex: both parts), ints in [-5, 5], bools about half true."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-5, 6, size=shape).astype(dtype)
    v = rng.uniform(-1, 1, size=shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.uniform(-1, 1, size=shape)
    return v.astype(dtype)


def ints(s):
    return [int(p) for p in s.split(",") if p != ""]


def call(op, x, p):
    """NumPy's result for op on x with the params dict p (strings)."""
    norm = p.get("norm", "backward")
    if op in ONE_D:
        kw = {"norm": norm}
        if "n" in p:
            kw["n"] = int(p["n"])
        if "axis" in p:
            kw["axis"] = int(p["axis"])
        return getattr(np.fft, op)(x, **kw)
    if op in N_D:
        kw = {"norm": norm}
        if "s" in p:
            kw["s"] = ints(p["s"])
        if "axes" in p:
            kw["axes"] = ints(p["axes"])
        return getattr(np.fft, op)(x, **kw)
    if op in ("fftfreq", "rfftfreq"):
        return getattr(np.fft, op)(int(p["n"]), float(p.get("d", "1.0")))
    if op in ("fftshift", "ifftshift"):
        axes = p.get("axes")
        return getattr(np.fft, op)(x, axes=None if axes is None else ints(axes))
    raise ValueError(op)


def raises_token(e):
    if isinstance(e, TypeError):
        return "RAISES:dtype_error:TypeError"
    if isinstance(e, (np.exceptions.AxisError, IndexError)):
        return "RAISES:shape_error:" + type(e).__name__
    if isinstance(e, (ValueError, ZeroDivisionError)):
        return "RAISES:value_error:" + type(e).__name__
    raise e  # anything else: the generator asked for something NumPy leaves undefined


def view_store(x, v):
    """The array to store so that applying view v on the C++ side gives x."""
    if v in ("-", "lazy"):
        return x
    if v == "T":
        return np.ascontiguousarray(np.swapaxes(x, -2, -1))
    raise ValueError(v)


class Cases:
    def __init__(self, w):
        self.w = w
        self.seed = 0

    def add(self, op, shape=None, dtype=None, x=None, **params):
        p = {k: str(v) for k, v in params.items() if v is not None}
        view = p.get("view", "-")
        if x is None and shape is not None:
            self.seed += 1
            x = sample(shape, dtype, self.seed)
        pstr = ";".join("%s=%s" % kv for kv in sorted(p.items())) or "-"
        shape_name = ("x".join(map(str, x.shape)) or "0d") if x is not None else "none"
        case_id = "%s/%s/%s/%s" % (op, x.dtype.name if x is not None else "none", shape_name, pstr)
        if case_id in self.w.ids:
            return
        inputs = self.w.array(view_store(x, view)) if x is not None else "-"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # s without axes (still runs)
                r = np.asarray(call(op, x, p))
        except Exception as e:  # noqa: BLE001 - the exception type is the expectation
            assert view == "-", (case_id, e)
            self.w.row(case_id, op, inputs, pstr, raises_token(e))
            return
        self.w.row(case_id, op, inputs, pstr, self.w.array(r))


def one_d_cases(c):
    shapes = [(1,), (2,), (7,), (8,), (13,), (16,), (17,), (30,), (97,), (128,), (3, 5), (4, 6, 10)]
    for op in ONE_D:
        dts = REAL if op in REAL_INPUT else INEXACT
        for shape in shapes:
            for dt in dts:
                for norm in ("backward", "ortho", "forward"):
                    m = shape[-1]
                    if op in ("irfft", "hfft") and m == 1:
                        c.add(op, shape, dt, norm=norm)  # n = 0: ValueError
                        continue
                    c.add(op, shape, dt, norm=norm)
                # n: crop and pad (irfft and hfft: odd and even n)
                for n in sorted({1, max(1, m // 2), m + 3, 2 * m, 2 * m - 1}):
                    c.add(op, shape, dt, n=n, norm="ortho" if n % 2 else "backward")
        # other axes, negative axes, batched
        for dt in dts:
            for shape, axis in (((6, 5), 0), ((6, 5), -2), ((3, 4, 5), 1), ((3, 4, 5), 0), ((3, 4, 5), -3),
                                ((2, 9, 3), -2), ((5, 1), 1), ((1, 5), 0)):
                c.add(op, shape, dt, axis=axis)
                c.add(op, shape, dt, axis=axis, n=7, norm="forward")
            for view in ("T", "lazy"):
                c.add(op, (4, 6), dt, view=view)
                c.add(op, (3, 4, 6), dt, view=view, axis=1, norm="ortho")
        # other input dtypes: integers, bool, float16 (single precision; irfft/hfft return float16)
        for dt in ("int32", "int64", "bool", "float16", "uint8"):
            c.add(op, (10,), dt)
            c.add(op, (3, 8), dt, axis=0, norm="ortho")
        # more batch rows than a CUDA grid's y dimension (cuFFT's batching, the c2r input copy)
        c.add(op, (70000, 3), "complex128" if op not in REAL_INPUT else "float64", n=4)
        # errors
        c.add(op, (8,), "float64", n=0)
        c.add(op, (8,), "float64", n=-3)
        c.add(op, (8,), "float64", axis=1)
        c.add(op, (3, 8), "float64", axis=-3)
        c.add(op, (8,), "float64", norm="sideways")
        c.add(op, (0,), "float64")
        if op not in ("irfft", "hfft"):  # NumPy's irfft of no values reads uninitialized memory
            c.add(op, (0,), "float64", n=4)
        c.add(op, (0, 6), "float64")
        if op in REAL_INPUT:
            c.add(op, (8,), "complex128")
            c.add(op, (8,), "complex64")


def n_d_cases(c):
    plain = [((4, 6), None, None), ((5, 7), None, None), ((1, 1), None, None), ((3, 4, 5), None, None),
             ((2, 3, 4, 5), None, None), ((6, 8, 3), None, (0,)), ((6, 8, 3), None, (0, 2)),
             ((6, 8, 3), None, (2, 0)), ((6, 8, 3), None, (-1, -3)), ((6, 8, 3), None, (1, 1)),
             ((6, 8, 3), None, (0, 1, 2)), ((6, 8, 3), None, (2, 1, 0)), ((6, 8, 3), None, (1, 0)),
             ((4, 6), (4, 4), (0, 1)), ((4, 6), (8, 3), (0, 1)), ((4, 6), (-1, 9), (0, 1)), ((4, 6), (5, 5), None),
             ((3, 4, 5), (2, 6), (0, 2)), ((3, 4, 5), (6, 3, 4), None), ((3, 4, 5), (4, 6), (-1, 0)),
             ((6, 8, 3), (5, 7), (1, 1)), ((2, 3, 4, 5), (3, 3, 3, 3), (0, 1, 2, 3)), ((7,), None, None),
             ((5, 6), None, ())]
    for op in ("fftn", "ifftn", "rfftn", "irfftn"):
        dts = REAL if op in REAL_INPUT else INEXACT
        for shape, s, axes in plain:
            if op in ("rfftn", "irfftn") and axes == ():
                continue  # NumPy: an IndexError from s[-1]
            for dt in dts:
                for norm in ("backward", "ortho", "forward"):
                    c.add(op, shape, dt, s=None if s is None else ",".join(map(str, s)),
                          axes=None if axes is None else ",".join(map(str, axes)), norm=norm)
    twod = [((4, 6), None, None), ((5, 7), None, None), ((3, 4, 6), None, None), ((4, 6, 5), None, (0, 2)),
            ((4, 6), (3, 8), None), ((6, 4), None, (1, 0)), ((2, 3, 5), (4, 4), (-3, -1))]
    for op in ("fft2", "ifft2", "rfft2", "irfft2"):
        dts = REAL if op in REAL_INPUT else INEXACT
        for shape, s, axes in twod:
            for dt in dts:
                for norm in ("backward", "ortho"):
                    c.add(op, shape, dt, s=None if s is None else ",".join(map(str, s)),
                          axes=None if axes is None else ",".join(map(str, axes)), norm=norm)
    for op in N_D:
        dts = REAL if op in REAL_INPUT else INEXACT
        for dt in dts:
            c.add(op, (4, 6), dt, view="T")
            c.add(op, (3, 4, 6), dt, view="lazy", axes="0,2", norm="ortho")
        for dt in ("int32", "float16", "bool"):
            c.add(op, (4, 6), dt)
        c.add(op, (4, 6), "float64", s="4,0", axes="0,1")
        c.add(op, (4, 6), "float64", s="4", axes="0,1")
        c.add(op, (4, 6), "float64", axes="0,2")
        c.add(op, (4, 6), "float64", axes="-3,1")
        c.add(op, (4, 6), "float64", s="3,3,3")
        c.add(op, (4, 6), "float64", norm="Ortho")
        if op in REAL_INPUT:
            c.add(op, (4, 6), "complex128")


def helper_cases(c):
    for op in ("fftfreq", "rfftfreq"):
        for n in (1, 2, 5, 8, 9, 16, 101):
            for d in (1.0, 0.1, 2.5, -0.5):
                c.add(op, n=n, d=d)
        c.add(op, n=0)
        c.add(op, n=4, d=0.0)
    for op in ("fftshift", "ifftshift"):
        for shape in ((1,), (5,), (6,), (3, 4), (2, 3, 5), ()):
            for dt in ("float64", "int32", "complex64"):
                c.add(op, shape, dt)
        for shape, axes in (((3, 4), "0"), ((3, 4), "-1"), ((2, 3, 5), "0,2"), ((2, 3, 5), "1,1"),
                            ((2, 3, 5), "2,0,1"), ((4, 5), "")):
            c.add(op, shape, "float64", axes=axes)
        c.add(op, (3, 4), "float64", axes="2")
        c.add(op, (4, 5), "float32", view="T", axes="0")


def hashed_operand(shape):
    """The operand of the large cases, which the C++ side rebuilds from the same formula rather than
    reading 256 MiB. Point j of the flattened array, from h = mix(j) (64-bit arithmetic modulo 2^64):
        h = j * 0x9E3779B97F4A7C15; h ^= h >> 29; h *= 0xBF58476D1CE4E5B9; h ^= h >> 32
        x[j] = (h >> 11) / 2^52 - 1  +  i ((h mod 2^32) / 2^31 - 1)
    exact in float64 on both sides, and mixed enough that the transform has no peaks (its largest
    magnitude is a few times sqrt(n), so the tolerance rtol * max|result| stays tight)."""
    h = np.arange(int(np.prod(shape)), dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(32)
    re = (h >> np.uint64(11)).astype(np.float64) / 2.0**52 - 1
    im = (h & np.uint64(0xFFFFFFFF)).astype(np.float64) / 2.0**31 - 1
    return (re + 1j * im).reshape(shape)


def large_cases(outdir):
    """fft_large/manifest.tsv: transforms of 2^23 and 2^24 complex128 points, the sizes the CUDA
    backend's two-pass kernel takes (src/backend/cuda/kernels/four_step_fft.cu), batched and along axis 0,
    and of 2^22 points, which goes to cuFFT. Storing whole results would
    take gigabytes, so each row keeps NumPy's result at 4112 flattened indices (the first and last 8,
    and 4096 drawn at random) and its largest magnitude. Columns, tab-separated:
      id  op  shape (comma-separated)  params (as in fft/manifest.tsv)  indices.npy (int64)
      expect.npy (complex128, NumPy's result at those indices)  largest (repr of max |result|)"""
    w = OracleWriter(outdir, "fft_large")
    rng = np.random.default_rng(2026)
    try:
        for op, shape, params in (("fft", (1 << 24,), {}), ("ifft", (1 << 24,), {}),
                                  ("fft", (1 << 23,), {}), ("ifft", (1 << 23,), {"norm": "ortho"}),
                                  ("fft", (2, 1 << 23), {"norm": "forward"}), ("ifft", (3, 1 << 23), {}),
                                  ("fft", (1 << 23, 2), {"axis": "0"}),
                                  ("fft", (1 << 22,), {})):
            x = hashed_operand(shape)
            r = call(op, x, params)
            size = r.size
            idx = np.unique(np.concatenate([np.arange(8), np.arange(size - 8, size),
                                            rng.integers(0, size, 4096)])).astype(np.int64)
            pstr = ";".join("%s=%s" % kv for kv in sorted(params.items())) or "-"
            shape_s = ",".join(map(str, shape))
            w.row("%s/complex128/%s/%s" % (op, "x".join(map(str, shape)), pstr), op, shape_s, pstr,
                  w.array(idx), w.array(r.ravel()[idx]), repr(float(np.abs(r).max())))
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


def main():
    outdir = sys.argv[1]
    w = OracleWriter(outdir, "fft")
    c = Cases(w)
    try:
        one_d_cases(c)
        n_d_cases(c)
        helper_cases(c)
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)
    large_cases(outdir)


if __name__ == "__main__":
    main()
