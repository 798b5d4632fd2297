#!/usr/bin/env python3
"""NumPy 2 oracle for nf::load_npz (tests/test_npz.cpp): .npz archives that NumPy (and zipfile) write.

Usage: gen_npz.py OUTDIR. Writes OUTDIR/npz/<archive>.npz and OUTDIR/npz/manifest.txt, one line each:
  "<archive> files <key>,<key>,..."   the keys in archive order ("-" for none);
  "<archive> <key> ok <case>"         the member loads to the array in <case>.expected (gen_npy.py's
                                      text format: dtype, shape, one element a line);
  "<archive> <key> value_error"       reading the member must throw nf::value_error.
"""
import io
import os
import shutil
import sys
import zipfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_npy import DTYPES, expected_text, sample  # noqa: E402


def main():
    out = os.path.join(sys.argv[1], "npz")
    tmp = out + ".tmp-%d" % os.getpid()
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    rng = np.random.default_rng(11)
    manifest = []

    def archive(name, writer, arrays, failing=()):
        """writer(path) writes the archive; arrays maps each readable key to its array."""
        path = os.path.join(tmp, name + ".npz")
        writer(path)
        with np.load(path, allow_pickle=False) as npz:  # NumPy itself must read it back
            keys = list(npz.files)
            for key, a in arrays.items():
                back = npz[key]
                assert back.dtype == a.dtype and back.shape == a.shape, (name, key)
        manifest.append(f"{name} files " + (",".join(keys) if keys else "-"))
        for i, (key, a) in enumerate(arrays.items()):
            case = f"{name}.{i}"
            with open(os.path.join(tmp, case + ".expected"), "w") as f:
                f.write(expected_text(a))
            manifest.append(f"{name} {key} ok {case}")
        for key in failing:
            manifest.append(f"{name} {key} value_error")

    every = {}
    for d in DTYPES:
        every[f"c_{d}"] = sample(d, (2, 3, 4), rng)
        every[f"f_{d}"] = np.asfortranarray(sample(d, (3, 5), rng))
        if np.dtype(d).itemsize > 1:
            every[f"be_{d}"] = sample(d, (7,), rng).astype(np.dtype(d).newbyteorder(">"))
        every[f"scalar_{d}"] = sample(d, (), rng)
        every[f"empty_{d}"] = sample(d, (0, 2), rng)
    archive("savez_named", lambda p: np.savez(p, **every), every)
    archive("savez_compressed_named", lambda p: np.savez_compressed(p, **every), every)

    pos = [np.arange(10, dtype=np.int16), np.array(-1.25), np.ones((2, 2), dtype=np.complex64)]
    archive("savez_positional", lambda p: np.savez(p, *pos), {f"arr_{i}": a for i, a in enumerate(pos)})
    archive("savez_compressed_mixed", lambda p: np.savez_compressed(p, *pos[:2], w=pos[2]),
            {"arr_0": pos[0], "arr_1": pos[1], "w": pos[2]})
    archive("savez_empty", lambda p: np.savez(p), {})

    # Large enough that both the compressed and the inflated data span many read buffers.
    big = (np.arange(3_000_000, dtype=np.float32) * 0.25).reshape(1000, 3000)
    big[:, ::5] = rng.standard_normal((1000, 600)).astype(np.float32)
    archive("savez_compressed_big", lambda p: np.savez_compressed(p, big=big), {"big": big})

    uni = {"größe": np.array([1.5, -2.0]), "a/b": np.array([3], dtype=np.int16)}
    archive("savez_unicode", lambda p: np.savez(p, **uni), uni)

    # Archives that zipfile writes but NumPy's savez never does: a member that is not a .npy file, a
    # member under its full name, a compression method ndfuse does not read, a comment.
    x = np.array([[1, 2], [3, 4]], dtype=np.uint16)

    def with_extras(p):
        with zipfile.ZipFile(p, "w") as z:
            buf = io.BytesIO()
            np.save(buf, x)
            z.writestr("x.npy", buf.getvalue())
            z.writestr("notes.txt", b"not an array")
            z.writestr("raw", buf.getvalue())
            z.comment = b"written by gen_npz.py"
    archive("zip_extras", with_extras, {"x": x, "x.npy": x, "raw": x}, failing=["notes.txt"])

    def with_bzip2(p):
        with zipfile.ZipFile(p, "w") as z:
            buf = io.BytesIO()
            np.save(buf, x)
            z.writestr("ok.npy", buf.getvalue(), compress_type=zipfile.ZIP_DEFLATED)
            z.writestr("b.npy", buf.getvalue(), compress_type=zipfile.ZIP_BZIP2)
    archive("zip_bzip2", with_bzip2, {"ok": x}, failing=["b"])

    with open(os.path.join(tmp, "manifest.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(manifest) + "\n")
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)


if __name__ == "__main__":
    main()
