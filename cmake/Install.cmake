# Install rules, written once as a function so that the default install
# (`cmake --install`) and the Debian packages (cmake/Packaging.cmake) ship
# the same files, each in its own layout.

include(CMakePackageConfigHelpers)

# The CMake package's config and version files, shared by every tree.
file(WRITE "${PROJECT_BINARY_DIR}/leveldbConfig.cmake"
"include(CMakeFindDependencyMacro)
find_dependency(Threads)
include(\"\${CMAKE_CURRENT_LIST_DIR}/leveldbTargets.cmake\")
")
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/leveldbConfigVersion.cmake"
  COMPATIBILITY SameMajorVersion)

# Writes the leveldb.pc of one tree to `out`. An empty `prefix` makes the
# prefix relative to the .pc file, so that a tree installed anywhere (for
# example `cmake --install --prefix DIR`) still gives working flags.
function(leveldb_write_pc out libdir prefix)
  if(prefix STREQUAL "" AND IS_ABSOLUTE "${libdir}")
    set(prefix "${CMAKE_INSTALL_PREFIX}")
  elseif(prefix STREQUAL "")
    file(RELATIVE_PATH up "/p/${libdir}/pkgconfig" "/p")
    string(REGEX REPLACE "/$" "" up "${up}")
    set(prefix "\${pcfiledir}/${up}")
  endif()
  set(libs_private "-lpthread")
  if(LEVELDB_HAVE_SNAPPY)
    set(libs_private "-lsnappy -lpthread")
  endif()
  file(WRITE "${out}"
"prefix=${prefix}
exec_prefix=\${prefix}
libdir=\${prefix}/${libdir}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}

Name: leveldb
Description: LevelDB-compatible key-value store with ElasticBF filters
Version: ${PROJECT_VERSION}
Libs: -L\${libdir} -lleveldb
Libs.private: ${libs_private}
Cflags: -I\${includedir}
")
endfunction()

# leveldb_install_tree(NAME <name> LIBDIR <dir> [PC_PREFIX <prefix>]
#                      [RUNTIME_COMPONENT <c>] [DEV_COMPONENT <c>]
#                      [EXCLUDE_FROM_ALL])
#
# Installs the headers, the shared library (real file, soname link and the
# libleveldb.so.1d name Debian's binaries ask for), the static library, the
# CMake package (export set <name>) and leveldb.pc, with libraries under
# LIBDIR (relative to the install prefix). The shared library and its names
# go to RUNTIME_COMPONENT, everything else to DEV_COMPONENT (both default to
# CMake's unnamed component). EXCLUDE_FROM_ALL leaves the tree out of a plain
# `cmake --install`: only a component install (as CPack does) gets it.
function(leveldb_install_tree)
  cmake_parse_arguments(arg "EXCLUDE_FROM_ALL"
    "NAME;LIBDIR;PC_PREFIX;RUNTIME_COMPONENT;DEV_COMPONENT" "" ${ARGN})
  set(runtime "")
  set(dev "")
  if(arg_RUNTIME_COMPONENT)
    set(runtime COMPONENT ${arg_RUNTIME_COMPONENT})
  endif()
  if(arg_DEV_COMPONENT)
    set(dev COMPONENT ${arg_DEV_COMPONENT})
  endif()
  if(arg_EXCLUDE_FROM_ALL)
    list(APPEND runtime EXCLUDE_FROM_ALL)
    list(APPEND dev EXCLUDE_FROM_ALL)
  endif()
  set(libdir "${arg_LIBDIR}")

  install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/leveldb"
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} ${dev}
          FILES_MATCHING PATTERN "*.h")
  # The libleveldb.so link is for linking against the library: it goes
  # with the development files.
  set(namelink "")
  if(arg_DEV_COMPONENT)
    set(namelink NAMELINK_COMPONENT ${arg_DEV_COMPONENT})
  endif()
  install(TARGETS leveldb leveldb_static EXPORT ${arg_NAME}
          LIBRARY DESTINATION ${libdir} ${runtime} ${namelink}
          ARCHIVE DESTINATION ${libdir} ${dev}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} ${runtime})
  # The build tree's libleveldb.so.1d link (made after linking leveldb),
  # installed as a link and listed in install_manifest.txt.
  install(FILES "$<TARGET_FILE_DIR:leveldb>/libleveldb.so.1d"
          DESTINATION ${libdir} ${runtime})
  install(EXPORT ${arg_NAME} FILE leveldbTargets.cmake NAMESPACE leveldb::
          DESTINATION ${libdir}/cmake/leveldb ${dev})
  install(FILES "${PROJECT_BINARY_DIR}/leveldbConfig.cmake"
                "${PROJECT_BINARY_DIR}/leveldbConfigVersion.cmake"
          DESTINATION ${libdir}/cmake/leveldb ${dev})

  set(pc "${PROJECT_BINARY_DIR}/${arg_NAME}/leveldb.pc")
  leveldb_write_pc("${pc}" "${libdir}" "${arg_PC_PREFIX}")
  install(FILES "${pc}" DESTINATION ${libdir}/pkgconfig ${dev})
endfunction()

leveldb_install_tree(NAME leveldbTargets LIBDIR ${CMAKE_INSTALL_LIBDIR})
