# Configures, builds and runs examples/consumer against a distwar package:
# DISTWAR_MODE=build-tree uses DISTWAR_BUILD_DIR itself; DISTWAR_MODE=installed
# first installs DISTWAR_BUILD_DIR into a fresh prefix under DISTWAR_WORK_DIR.
cmake_minimum_required(VERSION 3.20)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(JOIN " " shown ${ARGN})
    message(FATAL_ERROR "failed (${rc}): ${shown}")
  endif()
endfunction()

file(REMOVE_RECURSE "${DISTWAR_WORK_DIR}")
if(DISTWAR_MODE STREQUAL "installed")
  set(prefix "${DISTWAR_WORK_DIR}/prefix")
  set(config_args "")
  if(DISTWAR_CONFIG)
    set(config_args --config "${DISTWAR_CONFIG}")
  endif()
  run("${CMAKE_COMMAND}" --install "${DISTWAR_BUILD_DIR}" --prefix "${prefix}" ${config_args})
  file(GLOB_RECURSE configs "${prefix}/*/distwarConfig.cmake")
  list(LENGTH configs found)
  if(NOT found EQUAL 1)
    message(FATAL_ERROR "expected one installed distwarConfig.cmake, found: ${configs}")
  endif()
  get_filename_component(package_dir "${configs}" DIRECTORY)
  # The Python package is installed with its runtime.
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    run("${CMAKE_COMMAND}" -E env "PYTHONPATH=${prefix}/share/distwar/python"
        "${Python3_EXECUTABLE}" -c
        "import distwar, os; d = distwar.include_dir(); assert d.startswith(r'${prefix}'), d; assert os.path.isfile(os.path.join(d, 'distwar', 'launch.h')); assert len(distwar.runtime_sources()) == 2")
  endif()
elseif(DISTWAR_MODE STREQUAL "build-tree")
  set(package_dir "${DISTWAR_BUILD_DIR}")
else()
  message(FATAL_ERROR "DISTWAR_MODE must be build-tree or installed")
endif()

set(build "${DISTWAR_WORK_DIR}/build")
set(configure_args
  -S "${DISTWAR_SOURCE_DIR}" -B "${build}" -G "${DISTWAR_GENERATOR}"
  "-Ddistwar_DIR=${package_dir}"
  "-DCMAKE_CUDA_COMPILER=${DISTWAR_CUDA_COMPILER}"
  "-DCMAKE_CUDA_ARCHITECTURES=${DISTWAR_CUDA_ARCHITECTURES}")
if(DISTWAR_CONFIG)
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${DISTWAR_CONFIG}")
endif()
if(DISTWAR_PREGENERATED_DIR)
  list(APPEND configure_args "-DDISTWAR_PREGENERATED_DIR=${DISTWAR_PREGENERATED_DIR}")
endif()
run("${CMAKE_COMMAND}" ${configure_args})
run("${CMAKE_COMMAND}" --build "${build}")
file(GLOB_RECURSE exe "${build}/distwar_consumer" "${build}/*/distwar_consumer")
list(GET exe 0 exe)
run("${exe}")
