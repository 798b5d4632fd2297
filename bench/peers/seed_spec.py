"""The seed workloads of bench/bench_cuda_seed.cpp, for its peers: sizes, names, the input
x[i] = (i % 1000) / 1000 + 1 and the value the chain x *= 5; x *= x; x += x gives at one index,
computed by NumPy in the dtype."""

SEED_ELEMENTS = 250_000_000  # 2 GB of float64, 1 GB of float32
CASES = (("float64", "float64_2GB"), ("float32", "float32_1GB"))
SMALL_ELEMENTS = 1000
HOST_STEPS = 2000  # steps per timed loop of host_step_1000
HOST_BATCH = 100  # steps per timed batch of host_us_per_step
TRANSFER_BYTES = 2_000_000_000
CHECK_INDEX = 7


def seed_chain(x):
    """The chain, out of place: 2 (5 x)^2, written as the three in-place steps are."""
    y = x * 5
    y = y * y
    return y + y


def expected(np, dtype, index=CHECK_INDEX):
    x = np.asarray([(index % 1000) / 1000.0 + 1.0]).astype(dtype)
    return float(seed_chain(x)[0])


def wrong(got, want, dtype):
    """None when right, else what differs (float32: a relative 1e-6)."""
    tol = 1e-6 if dtype == "float32" else 1e-12
    return None if abs(got - want) <= tol * abs(want) else f"got {got!r}, expected {want!r}"


def transfer_pattern(np):
    """TRANSFER_BYTES host bytes, byte i = (7 i + 1) mod 256 as in the C++ benchmark."""
    pattern = (np.arange(256, dtype=np.uint8) * np.uint8(7) + np.uint8(1)).astype(np.uint8)
    return np.tile(pattern, TRANSFER_BYTES // 256)


def host_us_per_step(step, sync, runs=5):
    """The host's own time per step, in microseconds (median over runs), as bench_cuda_seed.cpp's
    host_us_per_step counts it: HOST_STEPS steps in batches of HOST_BATCH, each batch timed until its
    last step returned, with sync() between batches outside the timing, so that a full launch queue
    never makes the host wait for the device."""
    import time

    times = []
    for _ in range(runs):
        total = 0.0
        for _ in range(HOST_STEPS // HOST_BATCH):
            t0 = time.perf_counter()
            for _ in range(HOST_BATCH):
                step()
            total += time.perf_counter() - t0
            sync()
        times.append(total * 1e6 / HOST_STEPS)
    times.sort()
    return times[len(times) // 2]
