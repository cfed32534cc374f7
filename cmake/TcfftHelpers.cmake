# SPDX-License-Identifier: MIT
# Small helpers shared by the components: warnings, the yaml-cpp target name shim, tests.

add_library(tcfft_warnings INTERFACE)
target_compile_options(tcfft_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wpedantic>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)

# yaml-cpp 0.7 (Debian 12) exports `yaml-cpp`, 0.8 (Ubuntu 24.04) `yaml-cpp::yaml-cpp`.
if(TARGET yaml-cpp::yaml-cpp)
  set(TCFFT_YAML_TARGET yaml-cpp::yaml-cpp)
else()
  set(TCFFT_YAML_TARGET yaml-cpp)
endif()

include(GoogleTest)
# tcfft_add_test(NAME name SOURCES a.cpp b.cu LIBS lib... LABELS cpu|gpu [FILTER gtest-filter])
# FILTER: which of the executable's tests ctest discovers (e.g. "-A.B:C.D" leaves out tests that
# only run under gpu_test_with's entries).
function(tcfft_add_test)
  cmake_parse_arguments(T "" "NAME;FILTER" "SOURCES;LIBS;LABELS" ${ARGN})
  set(filter_args)
  if(T_FILTER)
    set(filter_args TEST_FILTER "${T_FILTER}")
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE GTest::gtest_main ${T_LIBS} tcfft_warnings)
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${T_NAME} PRIVATE
    TCFFT_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    TCFFT_SHARED_DATA_DIR="${PROJECT_SOURCE_DIR}/../shared/data"
    TCFFT_APP_PATH="$<TARGET_FILE:tcfft-pipeline>"
    TCFFT_DATAGEN_PATH="$<TARGET_FILE:tcfft-datagen>")
  gtest_discover_tests(${T_NAME}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
    PROPERTIES LABELS "${T_LABELS}"
    DISCOVERY_TIMEOUT 60
    ${filter_args})
endfunction()
