# Test wiring for tests/ycsb_test.cc and tests/ycsb_binding_test.cc,
# included from tests/CMakeLists.txt after the test targets exist.
include(${CMAKE_CURRENT_LIST_DIR}/ycsb_targets.cmake)

if(TARGET ycsb_test)
  target_link_libraries(ycsb_test PRIVATE ycsb_core)
  target_compile_definitions(ycsb_test PRIVATE
    YCSB_WORKLOAD_DIR="${CMAKE_CURRENT_LIST_DIR}/workloads")
endif()

# The binding is compiled against the local stand-in of YCSB-C's interface
# (contrib/ycsb-c/testing), exactly as YCSB-C's tree would compile it.
set(YCSB_BINDING_DIR ${PROJECT_SOURCE_DIR}/contrib/ycsb-c)
if(TARGET ycsb_binding_test)
  target_sources(ycsb_binding_test PRIVATE ${YCSB_BINDING_DIR}/leveldb_db.cc)
  target_include_directories(ycsb_binding_test PRIVATE
    ${YCSB_BINDING_DIR}/testing ${YCSB_BINDING_DIR}
    ${PROJECT_SOURCE_DIR}/benchmarks/common)
  target_link_libraries(ycsb_binding_test PRIVATE ycsb_core)
endif()

# YCSB-C compiles with -std=c++11: keep the binding (and the public headers
# it includes) valid C++11. Built whenever ycsb_binding_test is.
if(TARGET ycsb_binding_test)
  add_library(ycsb_binding_cxx11_check OBJECT ${YCSB_BINDING_DIR}/leveldb_db.cc)
  set_target_properties(ycsb_binding_cxx11_check PROPERTIES
    CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
  target_include_directories(ycsb_binding_cxx11_check PRIVATE
    ${YCSB_BINDING_DIR}/testing ${YCSB_BINDING_DIR}
    ${PROJECT_SOURCE_DIR}/benchmarks/common ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(ycsb_binding_cxx11_check PRIVATE ${LEVELDB_WARNINGS})
  add_dependencies(ycsb_binding_test ycsb_binding_cxx11_check)
endif()
