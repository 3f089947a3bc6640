# distwar_rewrite_target(): compile a CUDA target from copies of its .cu
# sources rewritten by distwar-rewrite.
#
#   distwar_rewrite_target(<target>
#     [VARIANT auto|serial|butterfly|floor]   default: auto
#     [GPU_ARCH sm_NN]          default: first entry of CUDA_ARCHITECTURES
#     [REPORT <file>]           JSON report of every rewritten source
#     [EXTRA_ARGS <clang flag>...]   appended after the target's own flags
#     [TOOL_ARGS <tool option>...]   passed to distwar-rewrite before "--"
#     [EDIT_HEADERS <dir|file>...])  headers whose device functions may be
#                                    edited (relative to the target's source
#                                    dir); other headers are reported only
#
# Call it in the directory that created <target>, after its sources, include
# directories, definitions, CUDA_ARCHITECTURES and CUDA_STANDARD are set
# (the arch is read at this call; includes, definitions and the standard are
# read at generate time).
#
# Each .cu source <src> (relative path <rel> to the target's source dir) is
# rewritten at build time into
#   ${CMAKE_CURRENT_BINARY_DIR}/distwar/<target>/<rel>         (single-config)
#   ${CMAKE_CURRENT_BINARY_DIR}/distwar/<target>/<CONFIG>/<rel> (multi-config)
# and the target compiles that copy instead, with the original's directory
# on the quote-include path, and links distwar::runtime. The tool sees the
# target's include directories and compile definitions (also those guarded by
# $<COMPILE_LANGUAGE:CUDA>) through a response file; a depfile re-runs the
# rewrite when an included header changes.
#
# With EDIT_HEADERS, the edited headers (and the other allowed headers the
# rewrite read, unchanged) are written to
#   ${CMAKE_CURRENT_BINARY_DIR}/distwar/<target>-headers[/<CONFIG>]/<path>
# with <path> relative to the EDIT_HEADERS entry that allows them, never into
# the source tree; that directory comes first on the target's include path
# (and on the rewritten sources' quote-include path, before the originals'
# directories). Name the directory your #include lines are relative to (the
# -I directory, or the sources' own for `#include "x.h"` next to them): the
# tool refuses a header whose #include would not find its copy. The depfile
# names the originals, so changing a header re-runs the rewrites that read it
# (and they rewrite its copy; an unchanged copy keeps its time stamp).
#
# Where the tool cannot run (a GPU machine without Clang 22), set
# DISTWAR_PREGENERATED_DIR: the target then compiles
# ${DISTWAR_PREGENERATED_DIR}/<target>/<rel>, made elsewhere by the
# `distwar-pregenerate` target, which copies every rewritten source into
# ${CMAKE_BINARY_DIR}/pregenerated/<target>/<rel> together with a hash of its
# original (checked at configure time, so stale copies are refused).

include_guard(GLOBAL)
cmake_policy(PUSH)
cmake_policy(VERSION 3.20...3.31)

set(_DISTWAR_REWRITE_HELPER "${CMAKE_CURRENT_LIST_DIR}/DistwarRewriteHelper.cmake")
option(DISTWAR_REWRITE_DEPFILE
       "distwar-rewrite writes --depfile: re-run rewrites when included headers change" ON)
option(DISTWAR_REWRITE_RESPONSE_FILES
       "distwar-rewrite expands @file among the clang flags after --" ON)

# The path of a source relative to `base`, with leading "../" made safe so
# that every output stays inside its own folder.
function(_distwar_relative_path out base path)
  file(RELATIVE_PATH rel "${base}" "${path}")
  if(IS_ABSOLUTE "${rel}")
    string(REGEX REPLACE "^[A-Za-z]:" "" rel "${rel}")
    string(REGEX REPLACE "^/+" "" rel "${rel}")
    set(rel "__abs/${rel}")
  endif()
  string(REGEX REPLACE "(^|/)\\.\\.(/|$)" "\\1__\\2" rel "${rel}")
  string(REGEX REPLACE "(^|/)\\.\\.(/|$)" "\\1__\\2" rel "${rel}")
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()

# The tool command, or an error saying how to get one.
function(_distwar_rewrite_tool out_command out_depends)
  if(TARGET distwar-rewrite)
    get_target_property(imported distwar-rewrite IMPORTED)
    if(NOT imported)
      set(${out_command} "$<TARGET_FILE:distwar-rewrite>" PARENT_SCOPE)
      set(${out_depends} distwar-rewrite PARENT_SCOPE)
      return()
    endif()
  endif()
  if(TARGET distwar::rewrite)
    set(${out_command} "$<TARGET_FILE:distwar::rewrite>" PARENT_SCOPE)
    set(${out_depends} "$<TARGET_FILE:distwar::rewrite>" PARENT_SCOPE)
    return()
  endif()
  message(FATAL_ERROR
    "distwar_rewrite_target: no distwar-rewrite tool in this build (the "
    "package was built without it). Set DISTWAR_PREGENERATED_DIR to rewritten "
    "sources made with the `distwar-pregenerate` target on a machine that "
    "has the tool.")
endfunction()

# -std=c++NN for the tool from CUDA_STANDARD, resolved at generate time.
function(_distwar_std_flag out target)
  set(std "$<TARGET_PROPERTY:${target},CUDA_STANDARD>")
  set(${out} "$<$<BOOL:${std}>:-std=c++${std}>" PARENT_SCOPE)
endfunction()

# -D/-U flags of CMAKE_CUDA_FLAGS and CMAKE_CUDA_FLAGS_<CONFIG> (NDEBUG lives
# there), one per line, each under its configuration.
function(_distwar_flag_definitions out)
  set(lines "")
  separate_arguments(common UNIX_COMMAND "${CMAKE_CUDA_FLAGS}")
  foreach(flag IN LISTS common)
    if(flag MATCHES "^-[DU].")
      string(APPEND lines "${flag}\n")
    endif()
  endforeach()
  if(CMAKE_CONFIGURATION_TYPES)
    set(configs ${CMAKE_CONFIGURATION_TYPES})
  else()
    set(configs ${CMAKE_BUILD_TYPE})
  endif()
  foreach(config IN LISTS configs)
    string(TOUPPER "${config}" upper)
    separate_arguments(flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS_${upper}}")
    foreach(flag IN LISTS flags)
      if(flag MATCHES "^-[DU].")
        string(APPEND lines "$<$<CONFIG:${config}>:${flag}\n>")
      endif()
    endforeach()
  endforeach()
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

# Options that put `dir` on the quote-include path of the compile of the
# rewritten copy, so `#include "x.h"` finds the original's neighbours first.
function(_distwar_quote_include_options out dir)
  if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA" AND
     NOT dir MATCHES "," AND
     CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
    set(${out} "-Xcompiler=-iquote,${dir}" PARENT_SCOPE)
  elseif(CMAKE_CUDA_COMPILER_ID STREQUAL "Clang")
    set(${out} "SHELL:-iquote \"${dir}\"" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

function(distwar_rewrite_target target)
  cmake_parse_arguments(PARSE_ARGV 1 DW "" "VARIANT;GPU_ARCH;REPORT"
                        "EXTRA_ARGS;TOOL_ARGS;EDIT_HEADERS")
  if(DW_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "distwar_rewrite_target(${target}): unknown arguments: ${DW_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "distwar_rewrite_target: no target named '${target}'")
  endif()
  get_target_property(aliased ${target} ALIASED_TARGET)
  get_target_property(imported ${target} IMPORTED)
  if(aliased OR imported)
    message(FATAL_ERROR "distwar_rewrite_target(${target}): needs a target built by this project, not an alias or imported target")
  endif()
  get_target_property(target_source_dir ${target} SOURCE_DIR)
  get_target_property(target_binary_dir ${target} BINARY_DIR)
  if(NOT target_binary_dir STREQUAL CMAKE_CURRENT_BINARY_DIR)
    message(FATAL_ERROR "distwar_rewrite_target(${target}): call it in the directory that created the target (${target_source_dir}); custom commands are only seen by targets of their own directory")
  endif()
  get_target_property(done ${target} DISTWAR_REWRITTEN)
  if(done)
    message(FATAL_ERROR "distwar_rewrite_target(${target}): called twice for this target")
  endif()
  if(NOT TARGET distwar::runtime)
    message(FATAL_ERROR "distwar_rewrite_target(${target}): target distwar::runtime is missing (add the distwar runtime or find_package(distwar) first)")
  endif()

  if(NOT DEFINED DW_VARIANT)
    set(DW_VARIANT auto)
  endif()
  if(NOT DW_VARIANT MATCHES "^(auto|serial|butterfly|floor)$")
    message(FATAL_ERROR "distwar_rewrite_target(${target}): VARIANT must be auto, serial, butterfly or floor, not '${DW_VARIANT}'")
  endif()

  # The GPU arch of the device parse: GPU_ARCH, else the first real arch.
  set(arch "${DW_GPU_ARCH}")
  if(NOT arch)
    get_target_property(archs ${target} CUDA_ARCHITECTURES)
    foreach(a IN LISTS archs)
      if(a MATCHES "^([0-9]+[a-z]?)(-real|-virtual)?$")
        set(arch "sm_${CMAKE_MATCH_1}")
        break()
      endif()
    endforeach()
  elseif(arch MATCHES "^[0-9]+[a-z]?$")
    set(arch "sm_${arch}")
  endif()
  if(arch AND NOT arch MATCHES "^sm_[0-9]+[a-z]?$")
    message(FATAL_ERROR "distwar_rewrite_target(${target}): GPU_ARCH must look like sm_90, not '${arch}'")
  endif()

  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    set(config_dir "/$<CONFIG>")
  else()
    set(config_dir "")
  endif()
  set(work_dir "${CMAKE_CURRENT_BINARY_DIR}/distwar/${target}")
  # Edited headers, outside work_dir so that no source path can collide.
  set(headers_dir "")
  set(edit_headers "")
  if(DW_EDIT_HEADERS)
    set(headers_dir "${CMAKE_CURRENT_BINARY_DIR}/distwar/${target}-headers")
    foreach(entry IN LISTS DW_EDIT_HEADERS)
      get_filename_component(entry "${entry}" ABSOLUTE BASE_DIR "${target_source_dir}")
      if(NOT EXISTS "${entry}")
        message(FATAL_ERROR "distwar_rewrite_target(${target}): EDIT_HEADERS entry ${entry} does not exist")
      endif()
      list(APPEND edit_headers "${entry}")
    endforeach()
  endif()

  set(pregenerated "")
  if(DISTWAR_PREGENERATED_DIR)
    get_filename_component(pregenerated "${DISTWAR_PREGENERATED_DIR}" ABSOLUTE
                           BASE_DIR "${CMAKE_BINARY_DIR}")
  else()
    _distwar_rewrite_tool(tool tool_depends)
    # Switches for tool features that arrive after this module: a depfile
    # (--depfile, so header edits re-run the rewrite) and @file expansion of
    # the clang flags after "--". Without the latter the helper passes the
    # flags one by one, which is equivalent except for command-line length.
    set(use_depfile "${DISTWAR_REWRITE_DEPFILE}")
    set(use_response_file "${DISTWAR_REWRITE_RESPONSE_FILES}")
    set(tool_options "--variant=${DW_VARIANT}")
    if(arch)
      list(APPEND tool_options "--cuda-gpu-arch=${arch}")
    endif()
    if(CMAKE_CUDA_COMPILER_TOOLKIT_ROOT AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
      list(APPEND tool_options "--cuda-path=${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}")
    endif()
    if(edit_headers)
      string(JOIN "," joined_headers ${edit_headers})
      list(APPEND tool_options "--edit-headers=${joined_headers}"
                               "--header-output-dir=${headers_dir}${config_dir}")
    endif()
    list(APPEND tool_options ${DW_TOOL_ARGS})

    # Flags shared by every source, evaluated per configuration and language
    # (file(GENERATE) evaluates once per enabled language; the CUDA file is
    # the one used).
    _distwar_std_flag(std_flag ${target})
    _distwar_flag_definitions(flag_definitions)
    set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
    set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
    string(JOIN "\n" target_lines
      "${std_flag}"
      "$<$<BOOL:${includes}>:-I$<JOIN:${includes},\n-I>>"
      "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},\n-D>>"
      "${flag_definitions}")
    set(extra_lines "")
    foreach(arg IN LISTS DW_EXTRA_ARGS)
      string(APPEND extra_lines "${arg}\n")
    endforeach()
  endif()

  get_target_property(sources ${target} SOURCES)
  set(new_sources "")
  set(rewritten_any FALSE)
  set(reports "")
  set(pregenerate_outputs "")
  foreach(src IN LISTS sources)
    if(src MATCHES "\\$<")
      list(APPEND new_sources "${src}")
      continue()
    endif()
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${target_source_dir}")
    get_source_file_property(language "${abs}" LANGUAGE)
    get_source_file_property(header_only "${abs}" HEADER_FILE_ONLY)
    get_filename_component(ext "${abs}" LAST_EXT)
    if(header_only OR NOT (language STREQUAL "CUDA" OR (NOT language AND ext STREQUAL ".cu")))
      list(APPEND new_sources "${src}")
      continue()
    endif()
    set(rewritten_any TRUE)
    _distwar_relative_path(rel "${target_source_dir}" "${abs}")
    get_filename_component(abs_dir "${abs}" DIRECTORY)

    if(pregenerated)
      set(out "${pregenerated}/${target}/${rel}")
      if(NOT EXISTS "${out}")
        message(FATAL_ERROR "distwar_rewrite_target(${target}): DISTWAR_PREGENERATED_DIR has no ${target}/${rel} (expected ${out}); build `distwar-pregenerate` on a machine with the tool and copy its pregenerated/ folder")
      endif()
      if(EXISTS "${out}.sha256")
        file(READ "${out}.sha256" expected)
        string(STRIP "${expected}" expected)
        file(SHA256 "${abs}" actual)
        if(NOT expected STREQUAL actual)
          message(FATAL_ERROR "distwar_rewrite_target(${target}): ${out} was rewritten from another version of ${abs}; regenerate it with `distwar-pregenerate`")
        endif()
      else()
        message(WARNING "distwar_rewrite_target(${target}): ${out}.sha256 is missing; cannot check that the pregenerated copy matches ${abs}")
      endif()
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${abs}" "${out}")
    else()
      set(out "${work_dir}${config_dir}/${rel}")
      set(raw_args "${work_dir}/args/${rel}-$<CONFIG>-$<COMPILE_LANGUAGE>.txt")
      set(rsp "${work_dir}/args/${rel}-$<CONFIG>.rsp")
      get_property(src_includes SOURCE "${abs}" PROPERTY INCLUDE_DIRECTORIES)
      get_property(src_definitions SOURCE "${abs}" PROPERTY COMPILE_DEFINITIONS)
      set(src_lines "")
      foreach(dir IN LISTS src_includes)
        string(APPEND src_lines "-I${dir}\n")
      endforeach()
      foreach(def IN LISTS src_definitions)
        string(APPEND src_lines "-D${def}\n")
      endforeach()
      # No TARGET option: with $<COMPILE_LANGUAGE> in OUTPUT it crashes
      # CMake 3.25, and every expression here names its target.
      file(GENERATE OUTPUT "${raw_args}"
           CONTENT "${target_lines}\n${src_lines}${extra_lines}")
      set(report_options "")
      set(report_output "")
      if(DW_REPORT)
        set(report_output "${out}.report.json")
        set(report_options "--report=json" "--report-file=${report_output}")
        list(APPEND reports "${report_output}")
      endif()
      set(cuda_raw_args "${work_dir}/args/${rel}-$<CONFIG>-CUDA.txt")
      file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${out}")
      set(depfile_args "")
      set(depfile_option "")
      if(use_depfile)
        set(depfile_args DEPFILE "${out}.d")
        set(depfile_option "--depfile=${out}.d")
      endif()
      string(JOIN "|" joined_options ${tool_options} ${report_options} ${depfile_option})
      add_custom_command(
        OUTPUT "${out}" ${report_output}
        BYPRODUCTS "${rsp}"
        COMMAND "${CMAKE_COMMAND}" -DDISTWAR_MODE=rewrite
                "-DDISTWAR_TOOL=${tool}" "-DDISTWAR_SOURCE=${abs}"
                "-DDISTWAR_OUT=${out}" "-DDISTWAR_IN=${cuda_raw_args}"
                "-DDISTWAR_OPTIONS=${joined_options}"
                "-DDISTWAR_RESPONSE_FILE=${use_response_file}" "-DDISTWAR_RSP=${rsp}"
                -P "${_DISTWAR_REWRITE_HELPER}"
        DEPENDS "${abs}" "${cuda_raw_args}" ${tool_depends} "${_DISTWAR_REWRITE_HELPER}"
        ${depfile_args}
        COMMENT "distwar-rewrite ${rel} (${target}, ${DW_VARIANT})"
        VERBATIM)

      set(pregen_root "${CMAKE_BINARY_DIR}/pregenerated")
      if(multi_config)
        set(pregen_root "${pregen_root}-$<CONFIG>")
      endif()
      set(pregen_out "${pregen_root}/${target}/${rel}")
      set(pregen_headers "")
      if(headers_dir)
        set(pregen_headers "-DDISTWAR_HEADERS_IN=${headers_dir}${config_dir}"
                           "-DDISTWAR_HEADERS_OUT=${pregen_root}/${target}-headers")
      endif()
      add_custom_command(
        OUTPUT "${pregen_out}" "${pregen_out}.sha256"
        COMMAND "${CMAKE_COMMAND}" -DDISTWAR_MODE=pregenerate
                "-DDISTWAR_IN=${out}" "-DDISTWAR_ORIGINAL=${abs}"
                "-DDISTWAR_OUT=${pregen_out}" ${pregen_headers}
                -P "${_DISTWAR_REWRITE_HELPER}"
        DEPENDS "${out}" "${abs}" "${_DISTWAR_REWRITE_HELPER}"
        COMMENT "distwar: pregenerated ${target}/${rel}"
        VERBATIM)
      list(APPEND pregenerate_outputs "${pregen_out}" "${pregen_out}.sha256")
    endif()

    # The copy keeps the original's per-source settings. Source properties
    # need concrete paths, so a per-configuration copy gets them per config.
    if(multi_config AND NOT pregenerated)
      set(concrete "")
      foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
        list(APPEND concrete "${work_dir}/${config}/${rel}")
      endforeach()
    else()
      set(concrete "${out}")
    endif()
    _distwar_quote_include_options(quote_options "${abs_dir}")
    set(config_index 0)
    foreach(copy IN LISTS concrete)
      foreach(prop COMPILE_DEFINITIONS COMPILE_OPTIONS INCLUDE_DIRECTORIES COMPILE_FLAGS SKIP_PRECOMPILE_HEADERS)
        get_property(value SOURCE "${abs}" PROPERTY ${prop})
        if(value)
          set_property(SOURCE "${copy}" PROPERTY ${prop} "${value}")
        endif()
      endforeach()
      # The edited headers come before the originals' directories.
      if(headers_dir)
        if(pregenerated)
          set(copy_headers "${pregenerated}/${target}-headers")
        elseif(multi_config)
          list(GET CMAKE_CONFIGURATION_TYPES ${config_index} config)
          set(copy_headers "${headers_dir}/${config}")
        else()
          set(copy_headers "${headers_dir}")
        endif()
        _distwar_quote_include_options(header_quote_options "${copy_headers}")
        if(header_quote_options)
          set_property(SOURCE "${copy}" APPEND PROPERTY COMPILE_OPTIONS "${header_quote_options}")
        endif()
      endif()
      math(EXPR config_index "${config_index} + 1")
      if(quote_options)
        set_property(SOURCE "${copy}" APPEND PROPERTY COMPILE_OPTIONS "${quote_options}")
      else()
        set_property(SOURCE "${copy}" APPEND PROPERTY INCLUDE_DIRECTORIES "${abs_dir}")
      endif()
      set_property(SOURCE "${copy}" PROPERTY LANGUAGE CUDA)
    endforeach()
    # The original leaves the target: source properties belong to the
    # directory, so marking it HEADER_FILE_ONLY would also stop other
    # targets (another variant, the plain build) from compiling it.
    list(APPEND new_sources "${out}")
  endforeach()

  if(NOT rewritten_any)
    message(WARNING "distwar_rewrite_target(${target}): the target has no .cu source; nothing to rewrite")
  endif()

  if(DW_REPORT AND NOT pregenerated)
    get_filename_component(report "${DW_REPORT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    if(multi_config AND NOT report MATCHES "\\$<CONFIG>")
      get_filename_component(report_dir "${report}" DIRECTORY)
      get_filename_component(report_name "${report}" NAME)
      set(report "${report_dir}/$<CONFIG>/${report_name}")
    endif()
    string(JOIN "|" report_inputs ${reports})
    add_custom_command(
      OUTPUT "${report}"
      COMMAND "${CMAKE_COMMAND}" -DDISTWAR_MODE=report
              "-DDISTWAR_TARGET=${target}" "-DDISTWAR_IN=${report_inputs}"
              "-DDISTWAR_OUT=${report}" -P "${_DISTWAR_REWRITE_HELPER}"
      DEPENDS ${reports} "${_DISTWAR_REWRITE_HELPER}"
      COMMENT "distwar: report of ${target}"
      VERBATIM)
    set_property(SOURCE "${report}" PROPERTY HEADER_FILE_ONLY TRUE)
    list(APPEND new_sources "${report}")
  elseif(DW_REPORT)
    message(STATUS "distwar_rewrite_target(${target}): REPORT is not written from pregenerated sources")
  endif()

  if(headers_dir)
    if(pregenerated)
      set(include_headers "${pregenerated}/${target}-headers")
      if(NOT IS_DIRECTORY "${include_headers}")
        message(FATAL_ERROR "distwar_rewrite_target(${target}): EDIT_HEADERS needs ${include_headers} in DISTWAR_PREGENERATED_DIR (made by `distwar-pregenerate`)")
      endif()
    else()
      set(include_headers "${headers_dir}${config_dir}")
    endif()
    target_include_directories(${target} BEFORE PRIVATE "${include_headers}")
  endif()

  set_property(TARGET ${target} PROPERTY SOURCES "${new_sources}")
  set_property(TARGET ${target} PROPERTY DISTWAR_REWRITTEN TRUE)
  set_property(TARGET ${target} PROPERTY DISTWAR_VARIANT "${DW_VARIANT}")

  # Linked through the property so that either target_link_libraries
  # signature the caller used stays valid.
  set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES distwar::runtime)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "OBJECT_LIBRARY")
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES
                 "$<LINK_ONLY:distwar::runtime>")
  endif()

  if(pregenerate_outputs)
    add_custom_target(${target}-distwar-pregenerate DEPENDS ${pregenerate_outputs})
    if(NOT TARGET distwar-pregenerate)
      add_custom_target(distwar-pregenerate)
    endif()
    add_dependencies(distwar-pregenerate ${target}-distwar-pregenerate)
  endif()
endfunction()

cmake_policy(POP)
