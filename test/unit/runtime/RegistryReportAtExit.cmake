# Runs the registry test binary with DISTWAR_REPORT=<REPORT> and checks the
# file it leaves at exit: a stale file is replaced, and every site has its
# line with the launches it saw.
#   cmake -DTEST=<binary> -DREPORT=<file> -P RegistryReportAtExit.cmake
file(WRITE "${REPORT}" "stale line from an earlier run\n")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "DISTWAR_REPORT=${REPORT}"
          --unset=DISTWAR_THRESHOLD --unset=DISTWAR_AUTOTUNE
          "${TEST}" --gtest_filter=RegistryReport.*
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TEST} failed (${rc})")
endif()
file(STRINGS "${REPORT}" lines)
list(LENGTH lines count)
if(NOT count EQUAL 4)
  message(FATAL_ERROR "expected one line per site (4), got ${count}: ${lines}")
endif()
file(STRINGS "${REPORT}" a REGEX "\"site\": \"a#0\".*\"kernels\": \"readBoth\", \"calls\": 7,")
file(STRINGS "${REPORT}" b REGEX "\"site\": \"b#0\".*\"calls\": 7,")
file(STRINGS "${REPORT}" c REGEX "\"site\": \"c#0\".*\"threshold\": 33, \"how\": \"default\"")
if(NOT a OR NOT b OR NOT c)
  file(READ "${REPORT}" text)
  message(FATAL_ERROR "report lacks a#0/b#0 with 7 calls or c#0 at 33:\n${text}")
endif()
message(STATUS "report at exit: ok")
