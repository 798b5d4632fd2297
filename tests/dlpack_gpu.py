#!/usr/bin/env python3
"""DLPack between ndfuse and PyTorch and CuPy on the GPU, both ways, in one process (CTest: dlpack_gpu).

Usage: dlpack_gpu.py LIBRARY [NAMES]. LIBRARY is tests/dlpack_probe.cpp built as a shared library
(see dlpack_numpy.py for how its pointers travel through PyCapsules); NAMES, comma-separated, picks
the libraries among cupy and torch (default: both). For each library that this
python3 has, with a GPU, and for each GPU (two at most):
  ndfuse -> library: L.from_dlpack of an object whose __dlpack__ exports ndfuse's arange(n) in each
    dtype, made for the stream the library names; the values must equal NumPy's
    arange(n).astype(dtype), the tensor must be on the same GPU at the same address (no copy), and
    the library must call the deleter once when its tensor goes;
  library -> ndfuse: a strided view's __dlpack__(max_version=(1, 0)) capsule handed to
    nf::from_dlpack; ndfuse's sum must equal the library's, the array must be on the lender's GPU,
    and ndfuse must read the lender's own memory.
Exits 77 (CTest's skip) when no library named has a GPU here, 0 when every check passes, else 1.
"""
import ctypes
import gc
import importlib
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
import dlpack_capsules  # noqa: E402

N = 1 << 20
# The dtypes both libraries take in from_dlpack and hand back to NumPy.
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64",
          "complex64", "complex128"]



class Exported:
    """ndfuse's arange(N).astype(dtype) on GPU `device`, exported when the consumer asks."""

    def __init__(self, lib, dtype, device):
        self.lib, self.dtype, self.device = lib, dtype, device

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        # The protocol's stream: None or -1 (no synchronization asked) become 0, "wait on the host".
        s = 0 if stream is None or stream == -1 else stream
        pointer = self.lib.probe_export_cuda(self.dtype.encode(), self.device, N, s)
        return dlpack_capsules.wrap(pointer)

    def __dlpack_device__(self):
        return (2, self.device)  # kDLCUDA


def torch_library():
    torch = importlib.import_module("torch")
    if not torch.cuda.is_available():
        return None
    torch.arange(3, device="cuda").sum().item()  # its CUDA libraries loaded before the probe's
    return {
        "name": "torch",
        "gpus": torch.cuda.device_count(),
        "from_dlpack": torch.from_dlpack,
        "to_numpy": lambda t: t.cpu().numpy(),
        "device_of": lambda t: t.device.index,
        "address": lambda t: t.data_ptr(),
        "view": lambda d: (torch.arange(24, dtype=torch.float64, device=f"cuda:{d}").reshape(4, 6) * 0.5)[1:, ::2],
        "sum": lambda t: float(t.sum()),
        "synchronize": torch.cuda.synchronize,
        "on": torch.cuda.device,  # PyTorch exports a tensor only from its own device
    }


def cupy_library():
    cp = importlib.import_module("cupy")
    if cp.cuda.runtime.getDeviceCount() == 0:
        return None
    int(cp.arange(3).sum())  # its CUDA libraries loaded before the probe's

    def view(d):
        with cp.cuda.Device(d):
            return (cp.arange(24, dtype=cp.float64).reshape(4, 6) * 0.5)[1:, ::2]

    return {
        "name": "cupy",
        "gpus": cp.cuda.runtime.getDeviceCount(),
        "from_dlpack": cp.from_dlpack,
        "to_numpy": cp.asnumpy,
        "device_of": lambda t: t.device.id,
        "address": lambda t: t.data.ptr,
        "view": view,
        "sum": lambda t: float(t.sum()),
        "synchronize": lambda: cp.cuda.runtime.deviceSynchronize(),
        "on": cp.cuda.Device,
    }


def check(lib, L, device, failures):
    name = L["name"]
    print(f"dlpack_gpu: ndfuse -> {name} on cuda:{device}:", end="")
    for dtype in DTYPES:
        print(f" {dtype}", end="")
        before = lib.probe_deleted()
        try:
            got = L["from_dlpack"](Exported(lib, dtype, device))
        except Exception as e:  # noqa: BLE001 - each refusal is a failure to report
            failures.append(f"ndfuse -> {name} cuda:{device} {dtype}: {type(e).__name__}: {e}")
            continue
        expected = np.arange(N).astype(dtype)
        values = L["to_numpy"](got)
        if values.dtype != expected.dtype or not np.array_equal(values, expected):
            failures.append(f"ndfuse -> {name} cuda:{device} {dtype}: values differ from NumPy's")
        if L["device_of"](got) != device:
            failures.append(f"ndfuse -> {name} cuda:{device} {dtype}: tensor on GPU {L['device_of'](got)}")
        if L["address"](got) != lib.probe_exported_data():
            failures.append(f"ndfuse -> {name} cuda:{device} {dtype}: copied, not shared")
        del got, values
        gc.collect()
        L["synchronize"]()
        if lib.probe_deleted() != before + 1:
            failures.append(f"ndfuse -> {name} cuda:{device} {dtype}: the deleter ran "
                            f"{lib.probe_deleted() - before} times, expected once")

    print(f"\ndlpack_gpu: {name} -> ndfuse on cuda:{device}")
    view = L["view"](device)
    expected = L["sum"](view)
    for probe, what in ((lib.probe_sum, "sum"), (lib.probe_import_address, "address")):
        try:
            with L["on"](device):
                capsule = view.__dlpack__(max_version=(1, 0))
        except Exception as e:  # noqa: BLE001
            failures.append(f"{name} -> ndfuse cuda:{device}: __dlpack__ refused: {type(e).__name__}: {e}")
            return
        pointer = dlpack_capsules.take(capsule)  # ndfuse takes it over
        got = probe(pointer)
        if what == "sum":
            if got != expected:
                failures.append(f"{name} -> ndfuse cuda:{device}: sum {got}, {name}'s {expected}")
            if lib.probe_imported_device() != device:
                failures.append(f"{name} -> ndfuse cuda:{device}: array on {lib.probe_imported_device()}")
        elif got != L["address"](view):
            failures.append(f"{name} -> ndfuse cuda:{device}: read at {got:#x}, not at the lender's "
                            f"{L['address'](view):#x}")


def main():
    # The libraries first, then the probe, as a user's extension module would come after them.
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else ["cupy", "torch"]
    makers = {"torch": torch_library, "cupy": cupy_library}
    libraries = []
    for make in (makers[n] for n in names):
        try:
            L = make()
        except Exception as e:  # noqa: BLE001 - absent or without a GPU: not this run's subject
            print(f"dlpack_gpu: {make.__name__[:-8]} not available ({type(e).__name__}: {e})")
            continue
        if L:
            libraries.append(L)
    if not libraries:
        print(f"dlpack_gpu: SKIPPED, none of {', '.join(names)} with a GPU here")
        return 77

    lib = ctypes.CDLL(sys.argv[1])
    lib.probe_export_cuda.restype = ctypes.c_void_p
    lib.probe_export_cuda.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_longlong, ctypes.c_size_t]
    lib.probe_exported_data.restype = ctypes.c_size_t
    lib.probe_deleted.restype = ctypes.c_int
    lib.probe_sum.restype = ctypes.c_double
    lib.probe_sum.argtypes = [ctypes.c_void_p]
    lib.probe_imported_device.restype = ctypes.c_int
    lib.probe_import_address.restype = ctypes.c_size_t
    lib.probe_import_address.argtypes = [ctypes.c_void_p]

    failures = []
    checks = 0
    for L in libraries:
        for device in range(min(L["gpus"], 2)):
            check(lib, L, device, failures)
            checks += len(DTYPES) + 1
            print(f"dlpack_gpu: {L['name']} on cuda:{device} done")
    for f in failures:
        print("FAIL:", f)
    print(f"dlpack_gpu: {checks} exchanges, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
