// The umbrella header: everything a user needs.
#pragma once
#include "ndfuse/array.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/config.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/device.hpp"
#include "ndfuse/dlpack.hpp"
#include "ndfuse/dtype.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/fft.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/io.hpp"
#include "ndfuse/jit.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/random.hpp"
#include "ndfuse/raw_kernel.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/sorting.hpp"
#include "ndfuse/user_kernel.hpp"

namespace nf = ndfuse;
