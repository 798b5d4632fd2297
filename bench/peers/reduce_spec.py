"""The reductions of bench/bench_cuda_reduce.cpp (and cupy_reduce.py), for the PyTorch and JAX peers:
sizes, workload names, inputs and their closed-form sums (plain Python, never the library measured).

  norm/float64_2GB, sum/float64_2GB          a[i] = (i % 1000) / 1000 + 1, 2.5e8 float64
  sum_a_times_b/float64_2x2GB                sum(a * b), b[i] = 2 - (i % 1000) / 1000
  sum_axis{1,0}/float32_<rows>x<cols>        x[i, j] = row(j) + col(i), 1 GiB float32 in three shapes
  sum_axis{1,0}/float64_16384x8192           the same values in 1 GiB of float64
  sum_axis0/float16_16384x32768              and in 1 GiB of float16
  sum_axis0/complex64_16384x8192             and, times 1 + 2j, in 1 GiB of complex64
  mean_axis1_lazy/float32_16384x16384        mean(x * 2 + 1, axis=1)
bytes = inputs read + result written; x_read_limit = time over the time to move those bytes at the
bandwidth of a device-to-device copy of the input bytes measured in the same process."""

import math

FULL_ELEMENTS = 250_000_000  # 2 GB of float64
SQUARE = 16384  # 16384 x 16384 float32: 1 GiB
LONG = 1 << 26  # 2^26 x 4 float32: 1 GiB
SHORT = 4
WIDE = 8192  # 16384 x 8192 float64: 1 GiB
HALF_WIDE = 32768  # 16384 x 32768 float16: 1 GiB
FULL_RUNS = 20
MATRIX_RUNS = 30


def shapes():
    """The three 1 GiB float32 shapes: square, inner extent 4, outer extent 4."""
    return ((SQUARE, SQUARE), (LONG, SHORT), (SHORT, LONG))


def float64_shape():
    """The 1 GiB float64 shape: the float32 matrix's values (exact in float64), half as many columns."""
    return (SQUARE, WIDE)


def column_cases():
    """(rows, cols, dtype) of the column sums of the same values in 1 GiB of float16 (a column sums to at
    most 16384 x 2.75, inside float16's range) and of complex64 (x times 1 + 2j, exact): the column
    kernel at 2- and 8-byte elements."""
    return ((SQUARE, HALF_WIDE, "float16"), (SQUARE, WIDE, "complex64"))


def shape_name(rows, cols, dtype="float32"):
    return f"{dtype}_{rows}x{cols}"


def periodic_sum(n, period, term):
    """sum over k < n of term(k % period)."""
    full = partial = 0.0
    for k in range(period):
        t = term(k)
        full += t
        if k < n % period:
            partial += t
    return (n // period) * full + partial


def a_value(k):
    return k / 1000.0 + 1.0


def b_value(k):
    return 2.0 - k / 1000.0


def full_expected():
    """Closed forms of norm(a), sum(a) and sum(a * b) over FULL_ELEMENTS."""
    n = FULL_ELEMENTS
    return dict(norm=math.sqrt(periodic_sum(n, 1000, lambda k: a_value(k) * a_value(k))),
                sum=periodic_sum(n, 1000, a_value), dot=periodic_sum(n, 1000, lambda k: a_value(k) * b_value(k)))


def copy_rows():
    """(label, bytes) of the copies the limits come from, as the C++ benchmark names them."""
    return (("2GB", FULL_ELEMENTS * 8), ("4GB", 2 * FULL_ELEMENTS * 8), ("1GiB", SQUARE * SQUARE * 4))


class Matrix:
    """x[i, j] = row(j) + col(i) in float32, row(j) = float32((j % 1000) / 1000 + 1), col(i) = (i % 7) / 8,
    and the expected entries of its sums (float32 values, summed in float64)."""

    def __init__(self, np, rows, cols, dtype="float32"):
        self.np, self.rows, self.cols, self.dtype = np, rows, cols, dtype

    def value(self, i, j):
        """The entry as the given dtype holds it: float16 rounds it, complex64 multiplies it by 1 + 2j."""
        np = self.np
        v = np.float32(j % 1000 / 1000.0 + 1.0) + np.float32(i % 7) * np.float32(0.125)
        if self.dtype == "float16":
            return float(np.float16(v))
        return complex(v) * (1 + 2j) if self.dtype == "complex64" else v

    def row_sum(self, i):
        return periodic_sum(self.cols, 1000, lambda k: float(self.value(i, k)))

    def col_sum(self, j):
        return periodic_sum(self.rows, 7, lambda k: complex(self.value(k, j)))

    def lazy_mean(self, i):
        two, one = self.np.float32(2), self.np.float32(1)
        return periodic_sum(self.cols, 1000, lambda k: float(self.value(i, k) * two + one)) / self.cols


def check_scalar(got, expected, tolerance=1e-8):
    return None if abs(got - expected) <= tolerance * abs(expected) else f"got {got!r}, expected {expected!r}"


def check_vector(host, n, expected):
    """Entries 0, n/2, n-1 of a result (a host array, real or complex) against expected(index), loosely."""
    if host.shape != (n,):
        return f"shape {host.shape}, expected ({n},)"
    for i in (0, n // 2, n - 1):
        want, got = expected(i), complex(host[i])
        if abs(got - want) > 1e-3 * abs(want):
            return f"entry {i}: got {got!r}, expected {want!r}"
    return None
