# Runs the drop-in program twice: as built (Debian's libleveldb.so.1d) and
# with the loader pointed at the fork's libleveldb.so.1d. Both runs must
# pass all their checks, and each must prove which library it ran on:
#   - the program reports the file its LevelDB symbols came from (dladdr);
#   - only the fork answers GetProperty("leveldb.io-stats");
#   - the loader's own trace (LD_TRACE_LOADED_OBJECTS, what ldd prints).
#
# cmake -DPROGRAM=... -DFORK_LIBDIR=... -DWORK_DIR=... -P run_dropin.cmake
foreach(var PROGRAM FORK_LIBDIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_dropin.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT EXISTS "${FORK_LIBDIR}/libleveldb.so.1d")
  message(FATAL_ERROR "no libleveldb.so.1d in ${FORK_LIBDIR}")
endif()

set(on_debian --unset=LD_LIBRARY_PATH)
set(on_fork "LD_LIBRARY_PATH=${FORK_LIBDIR}")

# What the dynamic loader would map, without running the program.
function(loader_trace env_arg out_var)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env ${env_arg} LD_TRACE_LOADED_OBJECTS=1
            "${PROGRAM}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "loader trace failed (${rc}): ${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# Runs the program in a fresh work directory; fails unless it exits 0.
function(run_dropin label env_arg out_var)
  set(dir "${WORK_DIR}/${label}")
  file(REMOVE_RECURSE "${dir}")
  file(MAKE_DIRECTORY "${dir}")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env ${env_arg} "${PROGRAM}" "${dir}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT 600)
  message("---- ${label} run, exit status ${rc} ----\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the drop-in program failed on the ${label} library")
  endif()
  file(REMOVE_RECURSE "${dir}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

function(require haystack needle what)
  string(FIND "${haystack}" "${needle}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${what}: expected to find '${needle}' in:\n${haystack}")
  endif()
endfunction()

function(forbid haystack needle what)
  string(FIND "${haystack}" "${needle}" pos)
  if(NOT pos EQUAL -1)
    message(FATAL_ERROR "${what}: did not expect '${needle}' in:\n${haystack}")
  endif()
endfunction()

# 1. As built: Debian's library.
loader_trace("${on_debian}" trace)
require("${trace}" "libleveldb.so.1d => /" "loader trace as built")
forbid("${trace}" "${FORK_LIBDIR}/" "loader trace as built")
run_dropin(debian "${on_debian}" out)
require("${out}" "dropin: io-stats=absent" "Debian run")
forbid("${out}" "dropin: loaded-from=${FORK_LIBDIR}/" "Debian run")
require("${out}" "dropin: version=1.23" "Debian run")
string(REGEX MATCH "dropin: all ([0-9]+) checks passed" debian_pass "${out}")
set(debian_checks "${CMAKE_MATCH_1}")
if(NOT debian_pass)
  message(FATAL_ERROR "Debian run did not report passing")
endif()

# 2. The same binary on the fork's shared library.
loader_trace("${on_fork}" trace)
require("${trace}" "libleveldb.so.1d => ${FORK_LIBDIR}/libleveldb.so.1d"
        "loader trace on the fork")
run_dropin(fork "${on_fork}" out)
require("${out}" "dropin: io-stats=present" "fork run")
require("${out}" "dropin: loaded-from=${FORK_LIBDIR}/libleveldb.so.1d"
        "fork run")
require("${out}" "dropin: version=1.23" "fork run")
string(REGEX MATCH "dropin: all ([0-9]+) checks passed" fork_pass "${out}")
if(NOT fork_pass)
  message(FATAL_ERROR "fork run did not report passing")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL debian_checks)
  message(FATAL_ERROR "the runs made different numbers of checks: "
                      "${debian_checks} on Debian, ${CMAKE_MATCH_1} on the fork")
endif()
message("drop-in: both runs passed ${debian_checks} checks; the second ran on "
        "${FORK_LIBDIR}/libleveldb.so.1d")
