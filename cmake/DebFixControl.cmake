# Run by cpack after it built the Debian packages (CPACK_POST_BUILD_SCRIPTS,
# set in cmake/Packaging.cmake). Fixes two control fields by unpacking and
# rebuilding each package with dpkg-deb:
# - Multi-Arch, which CPack does not write: the value for each package is
#   given in CPACK_LEVELDB_MULTIARCH (package=value pairs);
# - Installed-Size, which CPack counts following symbolic links (once per
#   name of the shared library): recounted as dpkg-gencontrol does.

# Runs a command; stops cpack with its output if it fails.
function(leveldb_deb_run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "'${cmd}' failed (${rc}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

# Sets `value` to the Multi-Arch value wanted for package `name`, or "".
function(leveldb_deb_multiarch_of name)
  set(value "" PARENT_SCOPE)
  foreach(pair IN LISTS CPACK_LEVELDB_MULTIARCH)
    if(pair MATCHES "^([^=]+)=(.+)$" AND CMAKE_MATCH_1 STREQUAL name)
      set(value "${CMAKE_MATCH_2}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# Sets `kib` to the installed size of the unpacked package at `root`: each
# regular file rounded up to whole KiB, one KiB for any other entry (the
# top directory included).
function(leveldb_deb_installed_size root)
  file(GLOB_RECURSE entries LIST_DIRECTORIES true
       RELATIVE "${root}" "${root}/*")
  set(total 1)
  foreach(entry IN LISTS entries)
    if(entry MATCHES "^DEBIAN(/|$)")
      continue()
    elseif(IS_SYMLINK "${root}/${entry}" OR IS_DIRECTORY "${root}/${entry}")
      math(EXPR total "${total} + 1")
    else()
      file(SIZE "${root}/${entry}" bytes)
      math(EXPR total "${total} + (${bytes} + 1023) / 1024")
    endif()
  endforeach()
  set(kib ${total} PARENT_SCOPE)
endfunction()

# Sets field `name` of control text `var` to `value` (adding it after
# Architecture when it is missing).
function(leveldb_deb_set_field var name value)
  # A leading newline lets "\n" anchor fields at the start of a line.
  set(text "\n${${var}}")
  if(text MATCHES "\n${name}: [^\n]*")
    string(REGEX REPLACE "\n${name}: [^\n]*" "\n${name}: ${value}" text
           "${text}")
  else()
    string(REGEX REPLACE "\n(Architecture: [^\n]*)"
           "\n\\1\n${name}: ${value}" text "${text}")
  endif()
  string(SUBSTRING "${text}" 1 -1 text)
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

foreach(deb IN LISTS CPACK_PACKAGE_FILES)
  if(NOT deb MATCHES "\\.deb$")
    continue()
  endif()
  set(root "${deb}.unpacked")
  file(REMOVE_RECURSE "${root}")
  leveldb_deb_run(dpkg-deb -R "${deb}" "${root}")
  file(READ "${root}/DEBIAN/control" control)
  leveldb_deb_run(dpkg-deb -f "${deb}" Package)
  leveldb_deb_multiarch_of("${output}")
  if(NOT value STREQUAL "")
    leveldb_deb_set_field(control Multi-Arch "${value}")
  endif()
  leveldb_deb_installed_size("${root}")
  leveldb_deb_set_field(control Installed-Size "${kib}")
  file(WRITE "${root}/DEBIAN/control" "${control}")
  leveldb_deb_run(dpkg-deb --root-owner-group -b "${root}" "${deb}")
  file(REMOVE_RECURSE "${root}")
endforeach()
