# The Debian package of distwar, made by CPack's DEB generator from the
# install rules of DistwarInstall.cmake, under /usr:
#   bin/distwar-rewrite, include/distwar/ (the runtime headers),
#   lib/libdistwar_runtime.a, lib/cmake/distwar/ (find_package(distwar)),
#   share/distwar/python/ (the Python helper).
#
#   cmake --build build --target package   # build/distwar_<version>_<arch>.deb
#   cpack --config build/CPackConfig.cmake -G DEB -B <dir>
#   sudo apt install ./build/distwar_<version>_<arch>.deb
#
# Only where the tool is built: a package without it is not what someone
# installing it expects.
include_guard(GLOBAL)
if(NOT TARGET distwar-rewrite)
  return()
endif()

set(DISTWAR_PACKAGE_MAINTAINER
    "distwar maintainers <maintainers@users.noreply.a-seed-ac0dd48d.example>"
    CACHE STRING "Maintainer field of the Debian package (name <email>)")
set(DISTWAR_PACKAGE_HOMEPAGE "" CACHE STRING
    "Homepage field of the Debian package (left out when empty)")

# The architecture dpkg installs for; CPack would ask dpkg too, but the file
# name needs it now.
find_program(DISTWAR_DPKG dpkg)
mark_as_advanced(DISTWAR_DPKG)
set(_distwar_deb_arch "")
if(DISTWAR_DPKG)
  execute_process(COMMAND "${DISTWAR_DPKG}" --print-architecture
                  OUTPUT_VARIABLE _distwar_deb_arch
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(NOT _distwar_deb_arch)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(_distwar_deb_arch amd64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(_distwar_deb_arch arm64)
  else()
    string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _distwar_deb_arch)
  endif()
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME distwar)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${DISTWAR_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "CUDA rewriter batching atomicAdd groups into warp-level reductions")
# The Debian description: the summary above, then these lines.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "distwar-rewrite, a Clang ${LLVM_VERSION_MAJOR} source-to-source pass for CUDA, rewrites"
  "the groups of atomicAdd calls that a differentiable-rendering backward"
  "kernel issues for the fields of one primitive into one batched warp-level"
  "reduction (DISTWAR). With it: the header-only runtime that rewritten code"
  "includes, the CMake package (find_package(distwar): distwar::runtime,"
  "distwar::rewrite, distwar_rewrite_target()) and the Python helper in"
  "/usr/share/distwar/python. Parsing CUDA needs a CUDA 13 toolkit"
  "(/usr/local/cuda or CUDA_PATH), which no Debian package provides.")

set(CPACK_DEBIAN_PACKAGE_NAME distwar)
set(CPACK_DEBIAN_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE "${_distwar_deb_arch}")
set(CPACK_DEBIAN_FILE_NAME "distwar_${PROJECT_VERSION}_${_distwar_deb_arch}.deb")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${DISTWAR_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
if(DISTWAR_PACKAGE_HOMEPAGE)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${DISTWAR_PACKAGE_HOMEPAGE}")
endif()

# What the tool needs at run time: the shared libclang-cpp and libLLVM it
# links, and Clang's builtin CUDA headers (DISTWAR_CLANG_RESOURCE_DIR), which
# libclang-common-NN-dev holds and no shared library reveals. Named here
# rather than found by dpkg-shlibdeps, which spends 15 s reading libLLVM's
# symbols and silently drops a library whose package it cannot tell; the
# package.deb test checks this list against the libraries the packaged tool
# needs.
set(_distwar_llvm "${LLVM_VERSION_MAJOR}")
string(JOIN ", " CPACK_DEBIAN_PACKAGE_DEPENDS
  "libclang-cpp${_distwar_llvm}" "libllvm${_distwar_llvm}"
  "libclang-common-${_distwar_llvm}-dev" libstdc++6 libgcc-s1 libc6)
# The CMake package and the Python helper are used from these.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake (>= 3.20), python3")

include(CPack)
