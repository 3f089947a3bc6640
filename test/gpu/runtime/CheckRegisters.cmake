# Compiles RegisterProbe.cu with the resource report and fails on any stack
# frame or spill. Variables: NVCC, SOURCE, INCLUDE, ARCH, EXPECTED (kernels).
execute_process(
  COMMAND "${NVCC}" -std=c++17 -arch=sm_${ARCH} -I${INCLUDE} -Xptxas -v
          -c "${SOURCE}" -o "${OUTPUT}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(report "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed (${rc}):\n${report}")
endif()
string(REGEX MATCHALL "Compiling entry function '[^']+'" entries "${report}")
list(LENGTH entries count)
if(NOT count EQUAL EXPECTED)
  message(FATAL_ERROR "expected ${EXPECTED} probe kernels in the report, found ${count}:\n${report}")
endif()
string(REGEX MATCHALL "[0-9]+ bytes stack frame, [0-9]+ bytes spill stores, [0-9]+ bytes spill loads"
       frames "${report}")
list(LENGTH frames nframes)
if(nframes LESS count)
  message(FATAL_ERROR "missing resource lines in the report:\n${report}")
endif()
foreach(line IN LISTS frames)
  if(NOT line STREQUAL "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads")
    message(FATAL_ERROR "a batch left registers (${line}):\n${report}")
  endif()
endforeach()
if(report MATCHES "lmem")
  message(FATAL_ERROR "local memory in the report:\n${report}")
endif()
message(STATUS "${count} probe kernels: no stack frame, no spills")
