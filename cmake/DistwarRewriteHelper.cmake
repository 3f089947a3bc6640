# Build-time steps of distwar_rewrite_target(), run as
#   cmake -DDISTWAR_MODE=<mode> -DDISTWAR_IN=... -DDISTWAR_OUT=... -P <this file>
#
# response-file  DISTWAR_IN holds one clang argument per line (written by
#                file(GENERATE)); DISTWAR_OUT gets them quoted for an @file,
#                so paths with spaces and definitions with quotes survive.
# pregenerate    copies the rewritten DISTWAR_IN to DISTWAR_OUT and writes the
#                SHA-256 of DISTWAR_ORIGINAL to DISTWAR_OUT.sha256.
# report         joins the per-source JSON reports listed in DISTWAR_IN
#                (separated by "|") into one JSON object for DISTWAR_TARGET.
cmake_minimum_required(VERSION 3.20)

if(DISTWAR_MODE STREQUAL "response-file")
  file(STRINGS "${DISTWAR_IN}" lines)
  set(text "")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "")
      continue()
    endif()
    string(REPLACE "\\" "\\\\" line "${line}")
    string(REPLACE "\"" "\\\"" line "${line}")
    string(APPEND text "\"${line}\"\n")
  endforeach()
  file(WRITE "${DISTWAR_OUT}" "${text}")
elseif(DISTWAR_MODE STREQUAL "pregenerate")
  file(SHA256 "${DISTWAR_ORIGINAL}" hash)
  get_filename_component(dir "${DISTWAR_OUT}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  file(COPY_FILE "${DISTWAR_IN}" "${DISTWAR_OUT}")
  file(WRITE "${DISTWAR_OUT}.sha256" "${hash}\n")
elseif(DISTWAR_MODE STREQUAL "report")
  string(REPLACE "|" ";" inputs "${DISTWAR_IN}")
  set(json "{\"target\": \"${DISTWAR_TARGET}\", \"files\": []}")
  set(index 0)
  foreach(input IN LISTS inputs)
    file(READ "${input}" report)
    string(JSON type ERROR_VARIABLE error TYPE "${report}")
    if(error)
      message(FATAL_ERROR "distwar: ${input} is not a JSON report: ${error}")
    endif()
    string(JSON json SET "${json}" files ${index} "${report}")
    math(EXPR index "${index} + 1")
  endforeach()
  file(WRITE "${DISTWAR_OUT}" "${json}\n")
else()
  message(FATAL_ERROR "DistwarRewriteHelper.cmake: unknown DISTWAR_MODE '${DISTWAR_MODE}'")
endif()
