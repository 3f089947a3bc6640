# Build-time steps of distwar_rewrite_target(), run as
#   cmake -DDISTWAR_MODE=<mode> -DDISTWAR_IN=... -DDISTWAR_OUT=... -P <this file>
#
# rewrite        runs DISTWAR_TOOL on DISTWAR_SOURCE into DISTWAR_OUT with the
#                tool options DISTWAR_OPTIONS (separated by "|") and the clang
#                flags of DISTWAR_IN (one per line, written by file(GENERATE)):
#                quoted into the @file DISTWAR_RSP when DISTWAR_RESPONSE_FILE
#                is true, so paths with spaces and definitions with quotes
#                survive; else one argument each (no shell in between).
# pregenerate    copies the rewritten DISTWAR_IN to DISTWAR_OUT and writes the
#                SHA-256 of DISTWAR_ORIGINAL to DISTWAR_OUT.sha256; copies the
#                directory DISTWAR_HEADERS_IN (edited headers), if set, into
#                DISTWAR_HEADERS_OUT.
# report         joins the per-source JSON reports listed in DISTWAR_IN
#                (separated by "|") into one JSON object for DISTWAR_TARGET.
cmake_minimum_required(VERSION 3.20)

function(distwar_quoted_response_file in out)
  file(STRINGS "${in}" lines)
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
  file(WRITE "${out}" "${text}")
endfunction()

if(DISTWAR_MODE STREQUAL "rewrite")
  string(REPLACE "|" ";" options "${DISTWAR_OPTIONS}")
  if(DISTWAR_RESPONSE_FILE)
    distwar_quoted_response_file("${DISTWAR_IN}" "${DISTWAR_RSP}")
    set(flags "@${DISTWAR_RSP}")
  else()
    # One argument per non-empty line, kept whole even with ';' inside.
    file(STRINGS "${DISTWAR_IN}" lines)
    set(flags "")
    foreach(line IN LISTS lines)
      string(STRIP "${line}" line)
      if(NOT line STREQUAL "")
        string(REPLACE ";" "\\;" line "${line}")
        list(APPEND flags "${line}")
      endif()
    endforeach()
  endif()
  execute_process(COMMAND "${DISTWAR_TOOL}" "${DISTWAR_SOURCE}" -o "${DISTWAR_OUT}"
                          ${options} -- ${flags}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "distwar-rewrite failed (${rc}) on ${DISTWAR_SOURCE}")
  endif()
elseif(DISTWAR_MODE STREQUAL "pregenerate")
  file(SHA256 "${DISTWAR_ORIGINAL}" hash)
  get_filename_component(dir "${DISTWAR_OUT}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  file(COPY_FILE "${DISTWAR_IN}" "${DISTWAR_OUT}")
  file(WRITE "${DISTWAR_OUT}.sha256" "${hash}\n")
  # The target's edited headers (EDIT_HEADERS), whole.
  if(DISTWAR_HEADERS_IN AND IS_DIRECTORY "${DISTWAR_HEADERS_IN}")
    file(COPY "${DISTWAR_HEADERS_IN}/" DESTINATION "${DISTWAR_HEADERS_OUT}")
  endif()
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
