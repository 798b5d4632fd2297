#!/usr/bin/env python3
"""nf::random oracle (tests/test_random.cpp): sequences of draws from
numpy.random.Generator(numpy.random.Philox(seed)), which nf::random::Generator(nf::random::Philox(seed))
must reproduce bit for bit.

Usage: gen_random.py OUTDIR. Writes OUTDIR/random/manifest.tsv and the .npy files it names.

manifest.tsv, tab-separated, one step per line, in the order a sequence runs them:
  id      <sequence>/<step number>
  seq     the sequence: steps with the same seq run in order on one generator
  op      seed:<s> (a fresh Generator(Philox(s))), key:<k0>:<k1>:<c0> (Philox(key=, counter=)),
          random:<n>:<dtype>, uniform:<low>:<high>:<n>, raw:<n> (bit_generator.random_raw),
          bytes:<n>, choice:<n>:<size> with p in the step's input file, state (the state after the
          steps so far), set_state (the state in the input file), advance:<blocks>
          (bit_generator.advance)
  input   a file the op reads (choice's p, set_state's state) or -
  expect  the result's file, or - (state: uint64 [counter0..3, key0..1, buffer_pos, has_uint32, uinteger])
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402


def state_array(bg):
    s = bg.state
    c = np.asarray(s["state"]["counter"], dtype=np.uint64)
    k = np.asarray(s["state"]["key"], dtype=np.uint64)
    return np.concatenate([c, k, np.array([s["buffer_pos"], s["has_uint32"], s["uinteger"]], dtype=np.uint64)])


def main():
    w = OracleWriter(sys.argv[1], "random")
    steps = {}

    def step(seq, op, expect, inp=None):
        n = steps.get(seq, 0)
        steps[seq] = n + 1
        w.row("%s/%d" % (seq, n), seq, op, w.array(inp) if inp is not None else "-",
              w.array(expect) if expect is not None else "-")

    # Odd sizes, the two float widths interleaved, so NumPy's buffered words and its kept 32-bit half
    # carry between draws; several seeds.
    for seed in [0, 12345, 2**40 + 7]:
        seq = "mixed%d" % seed
        g = np.random.Generator(np.random.Philox(seed))
        step(seq, "seed:%d" % seed, None)
        for n, d in [(1, "float64"), (3, "float32"), (5, "float64"), (1, "float32"), (1000003, "float64"),
                     (5, "float32"), (7, "float32"), (2, "float64"), (1000003, "float32"), (3, "float64")]:
            step(seq, "random:%d:%s" % (n, d), g.random(n, dtype=d))
        step(seq, "uniform:-2.5:3:7", g.uniform(-2.5, 3, 7))
        step(seq, "raw:5", g.bit_generator.random_raw(5))
        step(seq, "random:3:float32", g.random(3, dtype="float32"))
        step(seq, "state", state_array(g.bit_generator))
        step(seq, "bytes:13", np.frombuffer(g.bytes(13), dtype=np.uint8))
        step(seq, "uniform:0:1:1", g.uniform(0, 1, 1))
        step(seq, "bytes:2", np.frombuffer(g.bytes(2), dtype=np.uint8))
        step(seq, "state", state_array(g.bit_generator))
        p = np.array([0.1, 0.2, 0.3, 0.25, 0.15])
        step(seq, "choice:5:11", g.choice(5, size=11, p=p), p)
        step(seq, "random:4:float64", g.random(4))

    # A state taken mid-stream (a kept half waiting) and set on a fresh generator, then advance.
    g = np.random.Generator(np.random.Philox(99))
    g.random(3, dtype="float32")
    g.random(2)
    seq = "set_state"
    step(seq, "seed:1", None)
    step(seq, "set_state", None, state_array(g.bit_generator))
    step(seq, "random:4:float32", g.random(4, dtype="float32"))
    step(seq, "random:2:float64", g.random(2))
    g.bit_generator.advance(2**63 + 3)
    step(seq, "advance:9223372036854775811", None)
    step(seq, "random:3:float64", g.random(3))
    step(seq, "state", state_array(g.bit_generator))

    # Philox(key=..., counter=...) with the counter about to carry into its second word.
    key, ctr = np.array([1, 2], np.uint64), np.array([2**64 - 2, 0, 0, 0], np.uint64)
    g = np.random.Generator(np.random.Philox(key=key, counter=ctr))
    seq = "carry"
    step(seq, "key:1:2:18446744073709551614", None)
    step(seq, "random:11:float64", g.random(11))
    step(seq, "random:9:float32", g.random(9, dtype="float32"))
    step(seq, "state", state_array(g.bit_generator))
    w.finish()


if __name__ == "__main__":
    main()
