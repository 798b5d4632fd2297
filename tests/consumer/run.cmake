# ctest install_consumer: install the build tree into a fresh prefix, then configure, build and run
# tests/consumer against that prefix alone. Any failing step fails the test.
# Inputs (-D): NDFUSE_BINARY_DIR, CONSUMER_SOURCE_DIR, WORK_DIR; optional BUILD_TYPE, GENERATOR,
# MAKE_PROGRAM, CXX_COMPILER, CXX_COMPILER_LAUNCHER, NVCC.
cmake_minimum_required(VERSION 3.20)

foreach(required IN ITEMS NDFUSE_BINARY_DIR CONSUMER_SOURCE_DIR WORK_DIR)
  if(NOT ${required})
    message(FATAL_ERROR "install_consumer: -D${required}=... is required")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run_step what)
  message(STATUS "install_consumer: ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_consumer: ${what} failed (${rc}): ${ARGN}")
  endif()
endfunction()

set(config_args)
if(BUILD_TYPE)
  set(config_args --config "${BUILD_TYPE}")
endif()
run_step("install into ${prefix}" "${CMAKE_COMMAND}" --install "${NDFUSE_BINARY_DIR}" --prefix "${prefix}"
         ${config_args})

set(configure_args -S "${CONSUMER_SOURCE_DIR}" -B "${build}" "-DCMAKE_PREFIX_PATH=${prefix}"
    # Only the fresh prefix may satisfy find_package(ndfuse), never a build tree in the user registry.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(GENERATOR)
  list(APPEND configure_args -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(CXX_COMPILER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
if(CXX_COMPILER_LAUNCHER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_COMPILER_LAUNCHER}")
endif()
if(BUILD_TYPE)
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
run_step("configure tests/consumer" "${CMAKE_COMMAND}" ${configure_args})

file(STRINGS "${build}/CMakeCache.txt" found_dir REGEX "^ndfuse_DIR:")
string(FIND "${found_dir}" "${prefix}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "install_consumer: find_package(ndfuse) did not use the fresh prefix: ${found_dir}")
endif()

run_step("build tests/consumer" "${CMAKE_COMMAND}" --build "${build}" ${config_args})

foreach(candidate IN ITEMS "${build}/app" "${build}/${BUILD_TYPE}/app")
  if(EXISTS "${candidate}" AND NOT IS_DIRECTORY "${candidate}")
    set(executable "${candidate}")
    break()
  endif()
endforeach()
if(NOT executable)
  message(FATAL_ERROR "install_consumer: no app executable under ${build}")
endif()
# The consumer writes the kernel source of a chain (nf::jit::source) when ndfuse has CUDA; the user's
# step of rebuilding it needs only nvcc and the installed prelude.
set(kernel "${WORK_DIR}/kernel.cu")
run_step("run ndfuse_consumer" "${executable}" "${kernel}")
if(NOT EXISTS "${prefix}/include/ndfuse/prelude/nf_prelude.cuh")
  message(FATAL_ERROR "install_consumer: the prelude is not installed under ${prefix}/include/ndfuse/prelude")
endif()
if(EXISTS "${kernel}" AND NVCC)
  run_step("nvcc the kernel source against the installed prelude" "${NVCC}" -arch=sm_90 -cubin
           -I "${prefix}/include/ndfuse/prelude" -o "${WORK_DIR}/kernel.cubin" "${kernel}")
else()
  message(STATUS "install_consumer: no CUDA in this build (or no nvcc): the kernel source step is not run")
endif()
