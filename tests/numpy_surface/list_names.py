#!/usr/bin/env python3
"""Writes names.txt: the public names NumPy and CuPy share, in three groups, for numpy_surface.py.

Usage: list_names.py > tests/numpy_surface/names.txt, with NumPy 2 and CuPy importable (CuPy imports
without a GPU: `pip install numpy cupy-cuda13x` in a scratch venv). The list is committed, so that
the coverage check needs neither library.
  top     callables of both top-level namespaces that are neither types nor modules (functions,
          ufuncs, array-function dispatchers)
  member  public attributes of both numpy.ndarray and cupy.ndarray
  linalg  public names of both numpy.linalg and cupy.linalg
"""
import inspect

import cupy as cp
import numpy as np


def public(m):
    return {n for n in dir(m) if not n.startswith("_")}


def main():
    print(f"# NumPy {np.__version__} and CuPy {cp.__version__}: tests/numpy_surface/list_names.py")
    for n in sorted(public(np) & public(cp)):
        v = getattr(np, n)
        if callable(v) and not isinstance(v, type) and not inspect.ismodule(v):
            print("top", n)
    for n in sorted(public(np.ndarray) & public(cp.ndarray)):
        print("member", n)
    for n in sorted(public(np.linalg) & public(cp.linalg)):
        print("linalg", n)


if __name__ == "__main__":
    main()
