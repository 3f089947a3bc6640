# Installation and the CMake package: find_package(distwar CONFIG) gives
# distwar::runtime, distwar::rewrite (where the tool was built) and
# distwar_rewrite_target(), from this build tree (distwar_DIR=<build>) and
# from an install prefix (distwar_DIR=<prefix>/lib/cmake/distwar).
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(DISTWAR_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/distwar"
    CACHE STRING "Where the distwar package config is installed, relative to the prefix")

set(_distwar_exported "")

if(TARGET distwar_runtime)
  set_target_properties(distwar_runtime PROPERTIES EXPORT_NAME runtime)
  install(TARGETS distwar_runtime EXPORT distwarTargets
          ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
          LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
          RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
          INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/distwar"
          DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  list(APPEND _distwar_exported distwar_runtime)
endif()

if(TARGET distwar-rewrite)
  # The tool links the shared Clang/LLVM libraries of DISTWAR_LLVM_DIR.
  set_target_properties(distwar-rewrite PROPERTIES
    EXPORT_NAME rewrite
    INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS distwar-rewrite EXPORT distwarTargets
          RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  list(APPEND _distwar_exported distwar-rewrite)
endif()

if(_distwar_exported)
  install(EXPORT distwarTargets NAMESPACE distwar::
          DESTINATION "${DISTWAR_INSTALL_CMAKEDIR}")
  export(EXPORT distwarTargets NAMESPACE distwar::
         FILE "${PROJECT_BINARY_DIR}/distwarTargets.cmake")
endif()

# The Python package (python/), ready for `pip install
# <prefix>/share/distwar/python` (or PYTHONPATH=<prefix>/share/distwar/python):
# its setup.py and include_dir() take the runtime from distwar/runtime in it.
set(_distwar_python "${CMAKE_INSTALL_DATADIR}/distwar/python")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/python/" DESTINATION "${_distwar_python}"
        PATTERN "build" EXCLUDE PATTERN "*.egg-info" EXCLUDE
        PATTERN "__pycache__" EXCLUDE PATTERN ".gitignore" EXCLUDE)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/distwar"
        DESTINATION "${_distwar_python}/distwar/runtime/include")
file(GLOB _distwar_host_sources "${PROJECT_SOURCE_DIR}/runtime/src/*.cpp")
install(FILES ${_distwar_host_sources}
        DESTINATION "${_distwar_python}/distwar/runtime/src")

# The runtime's host side is plain C++ over the CUDA runtime; a consumer
# needs CUDAToolkit when the exported runtime names CUDA:: targets.
set(DISTWAR_PACKAGE_NEEDS_CUDATOOLKIT OFF)
if(TARGET distwar_runtime)
  get_target_property(_distwar_links distwar_runtime INTERFACE_LINK_LIBRARIES)
  if(_distwar_links MATCHES "CUDA::")
    set(DISTWAR_PACKAGE_NEEDS_CUDATOOLKIT ON)
  endif()
endif()

# Build tree: the modules are used from the source tree.
set(DISTWAR_PACKAGE_MODULE_DIR "${PROJECT_SOURCE_DIR}/cmake")
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/distwarConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/distwarConfig.cmake"
  INSTALL_DESTINATION "${PROJECT_BINARY_DIR}"
  PATH_VARS DISTWAR_PACKAGE_MODULE_DIR
  INSTALL_PREFIX "${PROJECT_BINARY_DIR}")
# Install tree: the modules are installed beside the config.
set(DISTWAR_PACKAGE_MODULE_DIR "${DISTWAR_INSTALL_CMAKEDIR}")
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/distwarConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/install-config/distwarConfig.cmake"
  INSTALL_DESTINATION "${DISTWAR_INSTALL_CMAKEDIR}"
  PATH_VARS DISTWAR_PACKAGE_MODULE_DIR)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/distwarConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/install-config/distwarConfig.cmake"
  "${PROJECT_BINARY_DIR}/distwarConfigVersion.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/DistwarRewrite.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/DistwarRewriteHelper.cmake"
  DESTINATION "${DISTWAR_INSTALL_CMAKEDIR}")
