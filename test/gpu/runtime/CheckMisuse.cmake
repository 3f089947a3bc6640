# Compiles StrategyMisuse.cu in each case below: `ok` cases must compile, the
# others must fail with their diagnostic. Variables: NVCC, SOURCE, INCLUDE,
# KERNELS (kernels, for auto_strategy.cuh), ARCH, OUTPUT.
# One case: name|flags separated by commas[|expected diagnostic].
set(auto "-include,${KERNELS}/auto_strategy.cuh")
set(cases
  "ok|-DDWK_CASE=0"
  "ok|-DDWK_CASE=0,${auto},-DDWK_AUTO_STRATEGY=1"
  "not-a-type|-DDWK_CASE=1|the first template argument of a reduction is a strategy"
  "macro-default|-DDWK_CASE=0,-DDISTWAR_STRATEGY=0|DISTWAR_STRATEGY is not read"
  "auto-undefined|-DDWK_CASE=0,${auto}|define DWK_AUTO_STRATEGY"
  "auto-bad|-DDWK_CASE=0,${auto},-DDWK_AUTO_STRATEGY=7|DWK_AUTO_STRATEGY is 0 Leader")
foreach(case IN LISTS cases)
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 flags)
  string(REPLACE "," ";" flags "${flags}")
  list(LENGTH fields n)
  set(expected "")
  if(n GREATER 2)
    list(GET fields 2 expected)
  endif()
  execute_process(
    COMMAND "${NVCC}" -std=c++17 -arch=sm_${ARCH} -I${INCLUDE} ${flags}
            -c "${SOURCE}" -o "${OUTPUT}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(name STREQUAL "ok")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${name} (${flags}) does not compile:\n${out}${err}")
    endif()
  elseif(rc EQUAL 0)
    message(FATAL_ERROR "${name} (${flags}) compiles; expected: ${expected}")
  elseif(NOT "${out}${err}" MATCHES "${expected}")
    message(FATAL_ERROR "${name} (${flags}) fails without \"${expected}\":\n${out}${err}")
  endif()
  message(STATUS "${name}: as expected")
endforeach()
