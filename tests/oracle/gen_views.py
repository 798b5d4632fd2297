#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's basic indexing and shape manipulation (tests/test_views.cpp).

Usage: gen_views.py OUTDIR. Writes OUTDIR/views/manifest.tsv and the .npy files it names.

manifest.tsv, one case per line, tab-separated:
  id       unique, readable: <spec>/<dtype>/<shape>
  spec     ops applied left to right, joined by ' | ' (a view of a view of ...). Each op is name or
           name:args, args separated by ';'. index:<items> takes NumPy's index syntax with ','
           between items (1, -2, 1:3, ::-1, :, ..., None).
  input    arrays/xxx.npy: the array the spec applies to
  input_t  arrays/xxx.npy holding input.T (C order), or '-' below 2-d: the test rebuilds the input
           as a transposed (non-contiguous) view of it
  expect   arrays/xxx.npy, or RAISES:<ndfuse exception>:<NumPy exception type>

Every result is an exact copy of input elements, so comparisons are exact for every dtype.
"""
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402


def mask_for(shape):
    """The bool mask the spec item mK stands for: over `shape` (the K dims it indexes)."""
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(n) % 3 != 1).reshape(shape)


def parse_items(text, shape):
    """An index expression; [a b c] is an int64 index array ([...]@2x2 reshaped), mK a bool mask
    over the next K dims of `shape`."""
    items, dim = [], 0
    for t in text.split(","):
        if t.startswith("["):
            body, _, sh = t[1:].partition("]")
            v = np.array([int(p) for p in body.split()], dtype=np.int64)
            items.append(v.reshape([int(d) for d in sh[1:].split("x")]) if sh else v)
            dim += 1
        elif t.startswith("m") and t[1:].isdigit():
            k = int(t[1:])
            items.append(mask_for(shape[dim:dim + k]))
            dim += k
        else:
            it = parse_item(t)
            items.append(it)
            dim += 0 if it is None or it is Ellipsis else 1
    return tuple(items)


def parse_item(t):
    if t == "...":
        return Ellipsis
    if t == "None":
        return None
    if ":" in t:
        return slice(*[int(p) if p else None for p in t.split(":")])
    return int(t)


def ints(s):
    return [int(p) for p in s.split(",") if p != ""]


def apply_op(x, op):
    name, _, arg = op.partition(":")
    a = arg.split(";") if arg else []
    if name == "index":
        return x[parse_items(arg, x.shape)] if arg else x[()]
    if name == "reshape":
        return np.reshape(x, ints(a[0]))
    if name == "T":
        return x.T
    if name == "transpose":
        return np.transpose(x, ints(a[0])) if a else np.transpose(x)
    if name == "swapaxes":
        return np.swapaxes(x, int(a[0]), int(a[1]))
    if name == "moveaxis":
        return np.moveaxis(x, ints(a[0]), ints(a[1]))
    if name == "squeeze":
        return np.squeeze(x, tuple(ints(a[0]))) if a else np.squeeze(x)
    if name == "expand_dims":
        return np.expand_dims(x, tuple(ints(a[0])))
    if name == "broadcast_to":
        return np.broadcast_to(x, ints(a[0]))
    if name == "flip":
        return np.flip(x, tuple(ints(a[0]))) if a else np.flip(x)
    if name in ("fliplr", "flipud", "ravel", "copy", "ascontiguousarray", "atleast_1d", "atleast_2d", "atleast_3d"):
        return getattr(np, name)(x)
    if name == "flatten":
        return x.flatten()
    if name == "rot90":
        return np.rot90(x, int(a[0]), ints(a[1]))
    if name == "diagonal":
        return np.diagonal(x, int(a[0]), int(a[1]), int(a[2]))
    if name == "trace":
        return np.trace(x, int(a[0]))
    if name in ("tril", "triu"):
        return getattr(np, name)(x, int(a[0]))
    if name == "tile":
        return np.tile(x, ints(a[0]))
    if name == "repeat":
        return np.repeat(x, int(a[0]), None if a[1] == "none" else int(a[1]))
    if name in ("split", "array_split"):
        kind, _, val = a[0].partition("=")
        arg0 = int(val) if kind == "s" else ints(val)
        return getattr(np, name)(x, arg0, int(a[1]))[int(a[2])]
    if name == "concatenate":
        ax = int(a[0])
        return np.concatenate([x, np.flip(x, ax), x[tuple(slice(0, 1) if d == ax % max(x.ndim, 1) else slice(None)
                                                           for d in range(x.ndim))]], ax)
    if name == "stack":
        return np.stack([x, -x if x.dtype != bool else ~x], int(a[0]))
    if name in ("hstack", "vstack", "dstack", "column_stack"):
        return getattr(np, name)([x, np.flip(x)])
    if name == "pad":
        w = ints(a[0])
        pw = [(w[i], w[i + 1]) for i in range(0, len(w), 2)]
        if a[1] == "constant":
            return np.pad(x, pw, mode="constant", constant_values=7)
        return np.pad(x, pw, mode=a[1])
    if name == "roll":
        return np.roll(x, int(a[0]), None if a[1] == "none" else int(a[1]))
    if name == "diag":
        return np.diag(x, int(a[0]))
    if name == "set":
        # x[idx] = value: s = the scalar 9, a = an array of the view's shape, b = its last dim only
        idx = parse_items(a[0], x.shape) if a[0] else ()
        y = x.copy()
        view_shape = y[idx].shape
        if a[1] == "s":
            y[idx] = 9
        else:
            vshape = view_shape if a[1] == "a" else view_shape[-1:]
            n = int(np.prod(vshape)) if vshape else 1
            y[idx] = (np.arange(n) % 7 + 1).astype(x.dtype).reshape(vshape)
        return y
    return apply_advanced(x, name, a)


def axis_arg(t):
    return None if t == "none" else int(t)


def apply_advanced(x, name, a):
    """Advanced indexing functions, sorting and searching."""
    if name == "take":
        return np.take(x, np.array(ints_sp(a[0]), dtype=np.int64), axis=axis_arg(a[1]))
    if name == "take_along_axis":
        ax = axis_arg(a[0])
        length = x.size if ax is None else x.shape[ax]
        n = x.size
        idx = (np.arange(n, dtype=np.int64) * 5 + 1) % max(length, 1)
        return np.take_along_axis(x, idx if ax is None else idx.reshape(x.shape), ax)
    if name == "put":
        y = x.copy()
        np.put(y, np.array(ints_sp(a[0]), dtype=np.int64), (np.arange(int(a[1])) % 7 + 1).astype(x.dtype))
        return y
    if name == "compress":
        return np.compress(np.array([c == "1" for c in a[0]]), x, axis=axis_arg(a[1]))
    if name == "nonzero":
        return np.nonzero(x)[int(a[0])]
    if name in ("flatnonzero", "argwhere", "unique"):
        return getattr(np, name)(x)
    if name in ("sort", "argsort"):
        return getattr(np, name)(x, axis=axis_arg(a[0]), kind="stable")
    if name == "partition":  # ndfuse partitions by sorting: the full sort is what it returns
        np.partition(x, int(a[0]), axis=int(a[1]))  # raises where NumPy raises
        return np.sort(x, axis=int(a[1]), kind="stable")
    if name == "argpartition":
        np.argpartition(x, int(a[0]), axis=int(a[1]))
        return np.argsort(x, axis=int(a[1]), kind="stable")
    if name == "searchsorted":
        return np.searchsorted(np.sort(x.ravel()), x, side=a[0])
    if name in ("unique_all", "unique_counts", "unique_inverse"):
        return getattr(np, name)(x)[int(a[0])]
    if name == "bincount":
        xi = np.abs(x).astype(np.int64).ravel()
        w = (np.arange(xi.size) % 5) * 0.5 if a[1] == "1" else None
        return np.bincount(xi, w, minlength=int(a[0]))
    raise ValueError("unknown op " + name)


def ints_sp(s):
    return [int(p) for p in s.split()]


def expected_of(x, spec):
    try:
        y = x
        for op in spec.split(" | "):
            y = apply_op(y, op)
        return np.asarray(y), None
    except Exception as e:  # noqa: BLE001 - the exception type is the expectation
        name = op.partition(":")[0]
        if isinstance(e, np.exceptions.AxisError):
            nf = "shape_error"
        elif name == "index" or isinstance(e, IndexError):
            nf = "index_error"
        elif name in ("partition", "argpartition", "bincount") and isinstance(e, ValueError):
            nf = "value_error"
        elif isinstance(e, (ValueError, IndexError)):
            nf = "shape_error"
        else:
            raise
        return None, "RAISES:%s:%s" % (nf, type(e).__name__)


def sample(shape, dtype):
    n = int(np.prod(shape)) if shape else 1
    base = (np.arange(n) * 7 + 3) % 23 - 5
    if dtype == "bool":
        v = base % 3 == 0
    elif dtype.startswith("complex"):
        v = base + 1j * (base % 5)
    else:
        v = base
    return np.asarray(v).astype(dtype).reshape(shape)


# (spec, shapes it applies to). Errors are cases too: NumPy raising defines the expectation.
SPECS = {
    (5,): ["index:2", "index:-1", "index:5", "index:-6", "index:1:4", "index:::-1", "index:3:0:-1",
           "index:-2:", "index:::2", "index:4:1", "index:10:", "index:None", "index:...,None",
           "index:None,1:", "index:...", "index:1,2", "index:::0", "index:...,...", "reshape:5,1",
           "reshape:-1,5", "reshape:2,-1", "reshape:-1,-1", "expand_dims:0", "expand_dims:1",
           "expand_dims:0,2", "broadcast_to:3,5", "broadcast_to:4", "flip", "flipud", "fliplr",
           "atleast_2d", "atleast_3d", "tile:3", "tile:2,2", "repeat:3;0", "repeat:2;none",
           "split:s=5;0;1", "split:s=2;0;0", "array_split:s=2;0;1", "array_split:p=1,3;0;1",
           "array_split:p=-2;0;1", "index:::-1 | index:1:", "index:1: | index:::-2",
           "broadcast_to:3,5 | index:1:,::-1", "broadcast_to:3,5 | T", "broadcast_to:3,5 | ravel",
           "index:::-1 | reshape:5,1 | broadcast_to:5,3", "index:0:0", "index:0:0 | reshape:0,3",
           "copy", "index:::-1 | ascontiguousarray"],
    (3, 4): ["index:1", "index:-1,2", "index:1:,::-1", "index::,1", "index:...,1", "index:1,...",
             "index:None,:,None", "index:3", "index:0,4", "index:0,0,0", "index:2:0:-1,1:3",
             "index::,::-3", "index:1:2,1:2", "T", "transpose", "transpose:1,0", "transpose:0,0",
             "transpose:0", "swapaxes:0;1", "swapaxes:0;2", "moveaxis:0;1", "moveaxis:-1;0",
             "reshape:4,3", "reshape:2,6", "reshape:-1", "reshape:12,1,1", "reshape:5,-1",
             "ravel", "flatten", "flip", "flip:0", "flip:-1", "flip:0,1", "flip:2", "fliplr", "flipud",
             "rot90:1;0,1", "rot90:2;0,1", "rot90:3;0,1", "rot90:-1;1,0", "rot90:1;0,0",
             "diagonal:0;0;1", "diagonal:1;0;1", "diagonal:-1;0;1", "diagonal:2;1;0",
             "diagonal:5;0;1", "diagonal:0;0;0", "trace:0", "trace:1", "trace:-2", "tril:0", "tril:1",
             "tril:-1", "triu:0", "triu:2", "triu:-1", "squeeze", "squeeze:0", "expand_dims:1",
             "expand_dims:-1", "expand_dims:0,0", "broadcast_to:2,3,4", "broadcast_to:3,5",
             "tile:2", "tile:2,1", "tile:1,2,2", "repeat:2;0", "repeat:3;1", "repeat:2;-1",
             "repeat:2;none", "repeat:0;1", "split:s=2;1;1", "split:s=3;0;2", "split:s=3;1;0",
             "array_split:s=3;1;2", "split:p=1,3;1;1", "atleast_1d", "atleast_3d",
             "T | reshape:-1", "T | index:1:,::-1 | reshape:-1", "T | flip | T", "index:::-1,1:3 | T | ravel",
             "index:::2,::-1 | ravel", "transpose | ascontiguousarray", "T | copy", "T | flatten",
             "T | reshape:2,6", "T | reshape:4,3 | T", "index:1:,1: | diagonal:0;0;1",
             "index:None | broadcast_to:2,3,4 | index:1,::-1", "diagonal:0;0;1 | flip",
             "tile:2,2 | index:1:5,::-1", "repeat:2;1 | T"],
    (2, 3, 4): ["index:1", "index:...,-1", "index:0,...,1:3", "index:1,None,::2,2", "index::,1,:",
                "index:-3", "index:0,1,2,3", "transpose", "transpose:2,0,1", "transpose:1,0",
                "moveaxis:0;-1", "moveaxis:0,1;-1,-2", "swapaxes:0;2", "reshape:4,6", "reshape:-1,4",
                "reshape:3,8", "reshape:2,12", "flip:0,2", "flip", "rot90:1;1,2", "rot90:3;0,2",
                "diagonal:0;1;2", "diagonal:1;0;2", "diagonal:-1;2;1", "tril:0", "triu:1",
                "squeeze", "expand_dims:1,3", "tile:2,1,1,1", "repeat:2;1",
                "transpose:2,0,1 | reshape:4,6", "transpose:1,0,2 | reshape:3,8",
                "transpose:1,0,2 | reshape:-1", "index::,::-1 | transpose:2,1,0 | reshape:8,3",
                "index:...,1:3 | reshape:-1", "index:...,::2 | reshape:2,6 | index:::-1",
                "swapaxes:1;2 | flip:1 | diagonal:0;0;2"],
    # Big enough for the CUDA backend's tiled transpose (tiles of 32 with ragged edges).
    (40, 37): ["T | copy", "transpose | ascontiguousarray", "index:::-1,1: | T | copy", "T | index:3:,::-2 | copy",
               "T | flip:1 | copy", "rot90:1;0,1 | copy"],
    (3, 20, 33): ["transpose:0,2,1 | copy", "transpose:1,2,0 | copy", "transpose:2,1,0 | copy",
                  "swapaxes:1;2 | index:::-1 | copy", "transpose:2,0,1 | reshape:33,60"],
    (4, 1, 3): ["squeeze", "squeeze:1", "squeeze:0", "squeeze:-2", "broadcast_to:2,4,5,3",
                "broadcast_to:4,2,3", "broadcast_to:4,1,3", "index::,0", "reshape:12",
                "transpose | squeeze", "broadcast_to:4,6,3 | reshape:4,18", "broadcast_to:4,6,3 | T | reshape:-1"],
    (0, 3): ["index:0", "index::,1", "index:::-1", "T", "reshape:3,0", "reshape:-1", "reshape:0,-1",
             "flip", "diagonal:0;0;1", "tile:2,2", "repeat:2;1", "broadcast_to:2,0,3", "transpose | reshape:-1"],
    (): ["index:", "index:...", "index:None", "index:0", "index:...,None", "reshape:1,1", "reshape:-1",
         "expand_dims:0", "broadcast_to:2,3", "atleast_1d", "atleast_2d", "atleast_3d", "flip", "ravel",
         "transpose", "squeeze", "tile:3", "repeat:3;none"],
}

JOINS = {
    (5,): ["concatenate:0", "stack:0", "stack:1", "stack:-1", "stack:2", "hstack", "vstack", "dstack", "column_stack",
           "pad:2,3;constant", "pad:0,0;constant", "pad:2,1;edge", "pad:2,1;reflect", "pad:4,4;reflect",
           "pad:7,9;reflect", "pad:1,2,3,4;constant", "roll:2;0", "roll:-7;0", "roll:0;none", "roll:13;none",
           "diag:0", "diag:2", "diag:-1", "set:1;s", "set:1:4;a", "set:::-1;a", "set:::2;a", "set:4:0:-2;a",
           "set:::-3;a", "set:-1;s", "set:;s", "set:...;a", "set:7;s", "set:1:3;b", "set:None,1:;a", "set:2:2;a",
           "index:::-1 | concatenate:0", "concatenate:0 | index:3:8", "pad:2,2;constant | index:::-1",
           "index:1:4 | pad:1,1;edge", "roll:2;0 | set:0;s"],
    (3, 4): ["concatenate:0", "concatenate:1", "concatenate:-1", "concatenate:2", "stack:0", "stack:2", "hstack",
             "vstack", "dstack", "column_stack", "pad:1,2;constant", "pad:1,0,0,2;constant", "pad:1,2;edge",
             "pad:2,1,0,3;edge", "pad:2,1,3,3;reflect", "pad:3,0,0,5;reflect", "roll:1;0", "roll:-1;1",
             "roll:5;none", "diag:0", "diag:1", "diag:-2", "set:1;s", "set:1;a", "set:1;b", "set::,2;a",
             "set:1:,::-1;a", "set:::2,1::2;a", "set:::-2,::-3;b", "set:...,0;s", "set:0,0;a", "set:5;s",
             "set:1,:,None;a", "T | concatenate:1", "T | set:1:3;a", "index:::-1,1: | pad:1,1;reflect",
             "concatenate:0 | T | index:2:5", "set:1:3,1:3;s | T"],
    (2, 3, 4): ["concatenate:1", "stack:1", "dstack", "pad:1,1,0,0,2,1;constant", "pad:1,1,1,1,1,1;edge",
                "roll:3;2", "roll:-2;1", "set:1,::2,1:3;a", "set:...,::-1;b", "set::,1;s",
                "transpose:2,0,1 | set:1:3,:,0;a"],
    (4, 1, 3): ["pad:0,0,2,1,0,0;reflect", "pad:1,2,3,1,0,1;reflect", "concatenate:1", "set::,0,::-1;a"],
    (0, 3): ["concatenate:0", "concatenate:1", "stack:0", "pad:1,1,0,0;constant", "pad:0,0,1,1;edge",
             "roll:1;0", "set:...;s"],
    (): ["concatenate:0", "stack:0", "hstack", "vstack", "pad:1,1;constant", "diag:0", "set:;s", "set:...;a"],
}

# Advanced indexing, sorting and searching. Sorts come first: they run on every dtype.
ADVANCED = {
    (7,): ["sort:0", "argsort:0", "unique", "searchsorted:left", "searchsorted:right", "argsort:none",
           "partition:3;0", "argpartition:-1;0", "partition:7;0", "unique_counts:1", "unique_inverse:1",
           "unique_all:1", "unique_all:2", "bincount:0;0", "bincount:30;1", "flatnonzero", "argwhere",
           "nonzero:0", "index:[2 0 -1]", "index:[6 6]", "index:[7]", "index:[-8]", "index:[]",
           "index:[0 1 2 3]@2x2", "index:m1", "index:[1 2] | index:::-1", "index:::-1 | index:[0 3]",
           "index:None,[1 2]", "take:0 -7 6;0", "take:3;none", "take:9;0", "take_along_axis:0",
           "put:1 -1;2", "put:0 0 3;3", "put:9;1", "compress:0110;0", "compress:0000000011;0",
           "compress:1;none", "set:[1 3];s", "set:[1 3];a", "set:[4 4];a", "set:m1;s", "set:m1;a",
           "set:[-1 0 9];s", "sort:0 | index:[0 -1]"],
    (3, 4): ["sort:1", "sort:0", "argsort:0", "sort:none", "argsort:-1", "unique", "unique_all:3",
             "searchsorted:left", "partition:2;1", "argpartition:1;0", "nonzero:1", "argwhere", "flatnonzero",
             "index:[2 0]", "index:[2 0],1:", "index::,[3 0 3]", "index:[0 2],[1 3]", "index:[0 2],[1 3]@2x1",
             "index:[0 1 2 0]@2x2,[3 2 1 0]@2x2", "index:1,[0 3]", "index:[1],None,[2]", "index:[1 2],::-1",
             "index::,m1", "index:m1", "index:m2", "index:m2,None", "index:[0 1 2 3 4 5]@3x2",
             "index:[3]", "index:[0],[4]", "index:[0 1],[0 1 2]", "index:m1,m1", "index:m0", "index:1,m0",
             "index:m0,[2 0]", "index:...,m0", "set:m0;s", "set:m0,1;a",
             "take:0 5 11;none", "take:1 -1;1", "take:3;0", "take_along_axis:1", "take_along_axis:0",
             "take_along_axis:none", "put:0 11 5;2", "compress:101;0", "compress:0101;1", "compress:11111;0",
             "set:[0 2];s", "set:[0 2];a", "set:[0 2];b", "set::,[1 3];a", "set:[2 0],[3 1];s", "set:m2;s",
             "set:m2;a", "set:m1;b", "set:1,[0 0 2];s", "set:[5];s", "T | index:[1 0]", "T | set:[0 2];a",
             "index:[2 0] | T | index:[1]", "T | sort:1", "T | argsort:0"],
    (2, 3, 4): ["sort:1", "argsort:2", "index:[1 0],:,[3 0]", "index::,[2 0],[1 3]", "index:...,[1 0]",
                "index:m1,[0 3]", "index:m3", "index:m2", "take:1 2;2", "take_along_axis:1",
                "set::,[2 0],[1 3];a", "set:m3;s", "unique_counts:0"],
    (0, 3): ["sort:0", "argsort:1", "unique", "index:[],:", "index::,[0 2]", "take:;0", "index:m2",
             "argwhere", "nonzero:0", "set:m2;s", "bincount:3;0", "bincount:0;1"],
    (): ["argwhere", "nonzero:0", "sort:0", "unique", "flatnonzero"],
}

# Sorting with NaN, infinities and ties (inexact dtypes only; no -0.0, whose order NumPy leaves open).
SPECIAL = ["sort:0", "argsort:0", "unique", "unique_counts:1", "unique_inverse:1", "searchsorted:left",
           "searchsorted:right", "partition:2;0", "argpartition:4;0"]


def special(dt):
    v = np.array([3.0, np.nan, -np.inf, 1.5, np.inf, 1.5, -2.0, np.nan, 0.0, -np.nan, 3.0])
    if dt.startswith("complex"):
        v = v + 1j * np.array([1.0, 0.0, 2.0, -1.0, 0.0, -1.0, np.nan, 0.0, 1.0, 0.0, 0.5])
    return v.astype(dt)


def special_long(dt, kind):
    """Long rows for the CUDA backend's sort of one float32 or float64 row, which sorts by CUB's own
    float order (NaNs with the sign bit set first) and then moves that run of NaNs to the end:
    "mixed" holds runs of both NaN signs, infinities and ties in 300,000 values (a run longer than
    one round of the 1024-way search for its end), "negative_nan" is 5,000 sign-set NaNs."""
    n = 300_000 if kind == "mixed" else 5_000
    if kind == "negative_nan":
        return np.full(n, -np.nan).astype(dt)
    i = np.arange(n)
    v = ((i * 2654435761) % 4096 - 2048) / 64.0
    v[i % 97 == 5] = np.nan
    v[i % 89 == 7] = -np.nan
    v[i % 1013 == 3] = np.inf
    v[i % 1019 == 4] = -np.inf
    return v.astype(dt)


DTYPES_ALL = ["float64", "int32", "bool", "complex64", "float16", "uint8", "int64", "complex128", "float32"]


def main():
    outdir = sys.argv[1]
    w = OracleWriter(outdir, "views")
    try:
        for dt in ["float64", "float32", "float16", "complex128"]:
            x = special(dt)
            for spec in SPECIAL:
                exp, raises = expected_of(x, spec)
                w.row("special/%s/%s" % (spec, dt), spec, w.array(x), "-", raises if raises else w.array(exp))
        for dt in ["float32", "float64"]:
            for kind in ["mixed", "negative_nan"]:
                x = special_long(dt, kind)
                for spec in ["sort:0", "argsort:0"]:
                    exp, _ = expected_of(x, spec)
                    w.row("special_long/%s/%s/%s" % (kind, spec, dt), spec, w.array(x), "-", w.array(exp))
        for shape, specs in list(SPECS.items()) + list(JOINS.items()) + list(ADVANCED.items()):
            for spec in specs:
                # Views move elements: every dtype behaves alike, so most specs run on three dtypes
                # and the first few on all of them.
                dts = DTYPES_ALL if spec in specs[:4] else ["float64", "int16", "complex128"]
                for dt in dts:
                    x = sample(shape, dt)
                    exp, raises = expected_of(x, spec)
                    xt = w.array(np.ascontiguousarray(x.T)) if x.ndim >= 2 else "-"
                    w.row("%s/%s/%s" % (spec.replace(" ", ""), dt, "x".join(map(str, shape)) or "0d"), spec,
                          w.array(x), xt, raises if raises else w.array(exp))
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


if __name__ == "__main__":
    main()
