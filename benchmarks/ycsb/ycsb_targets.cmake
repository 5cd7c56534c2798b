# ycsb_core: the YCSB runner's logic on the fork's public API, linked by the
# `ycsb` program and by tests/ycsb_test. Included from benchmarks/ycsb and
# from tests/ (whichever comes first defines it), so the test builds even
# without the benchmarks.
set(YCSB_CORE_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/client.cc
    ${CMAKE_CURRENT_LIST_DIR}/command_line.cc
    ${CMAKE_CURRENT_LIST_DIR}/engine.cc
    ${CMAKE_CURRENT_LIST_DIR}/engine_settings.cc
    ${CMAKE_CURRENT_LIST_DIR}/generators.cc
    ${CMAKE_CURRENT_LIST_DIR}/op_stats.cc
    ${CMAKE_CURRENT_LIST_DIR}/properties.cc
    ${CMAKE_CURRENT_LIST_DIR}/record.cc
    ${CMAKE_CURRENT_LIST_DIR}/runner.cc
    ${PROJECT_SOURCE_DIR}/benchmarks/common/direct_io_env.cc
    ${PROJECT_SOURCE_DIR}/benchmarks/common/flags.cc
    ${PROJECT_SOURCE_DIR}/benchmarks/common/latency_histogram.cc
    ${CMAKE_CURRENT_LIST_DIR}/workload.cc
    ${CMAKE_CURRENT_LIST_DIR}/workload_spec.cc)

if(NOT TARGET ycsb_core)
  add_library(ycsb_core STATIC ${YCSB_CORE_SOURCES})
  target_include_directories(ycsb_core PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(ycsb_core PUBLIC leveldb_static Threads::Threads)
  target_compile_options(ycsb_core PRIVATE ${LEVELDB_WARNINGS})
endif()
