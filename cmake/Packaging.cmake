# Debian packages that put the fork in place of Debian's LevelDB:
#
#   libleveldb1d-elasticbf    the shared library (Provides, Conflicts and
#                             Replaces libleveldb1d)
#   libleveldb-elasticbf-dev  headers, libleveldb.so, libleveldb.a, the CMake
#                             package and leveldb.pc (in place of
#                             libleveldb-dev)
#   leveldb-elasticbf-tools   leveldbutil
#
# Built by `cpack -G DEB` in a release build directory, or in one command by
# scripts/package_deb.sh. The files are those of cmake/Install.cmake, as a
# second tree in Debian's multiarch layout under /usr; that tree is left out
# of a plain `cmake --install`. The version is the project's.

if(CMAKE_VERSION VERSION_LESS 3.19 OR NOT CMAKE_LIBRARY_ARCHITECTURE)
  message(STATUS "Debian packages: need CMake >= 3.19 and a multiarch "
                 "compiler (Debian); cpack -G DEB is not configured")
  return()
endif()

set(LEVELDB_DEB_MAINTAINER "LevelDB-ElasticBF packagers <packagers@invalid>"
    CACHE STRING "Maintainer field of the Debian packages")

set(LEVELDB_DEB_VERSION "${PROJECT_VERSION}")
set(LEVELDB_DEB_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}")
set(LEVELDB_DEB_RUNTIME_NAME libleveldb1d-elasticbf)
set(LEVELDB_DEB_DEV_NAME libleveldb-elasticbf-dev)
set(LEVELDB_DEB_TOOLS_NAME leveldb-elasticbf-tools)

# Components deb_runtime, deb_dev and deb_tools, one package each; CPack's
# per-package variables name them upper-cased.
leveldb_install_tree(NAME leveldbDebTargets LIBDIR ${LEVELDB_DEB_LIBDIR}
                     PC_PREFIX /usr RUNTIME_COMPONENT deb_runtime
                     DEV_COMPONENT deb_dev EXCLUDE_FROM_ALL)

# The command-line tools (every db/*_main.cc) and the targets the packages
# take their files from, which scripts/package_deb.sh builds first.
add_custom_target(leveldb_deb_files)
add_dependencies(leveldb_deb_files leveldb leveldb_static)
foreach(tool_source ${LEVELDB_TOOL_SOURCES})
  get_filename_component(tool_name ${tool_source} NAME_WE)
  string(REGEX REPLACE "_main$" "" tool_name ${tool_name})
  install(TARGETS ${tool_name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          COMPONENT deb_tools EXCLUDE_FROM_ALL)
  add_dependencies(leveldb_deb_files ${tool_name})
endforeach()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME leveldb-elasticbf)
set(CPACK_PACKAGE_VERSION "${LEVELDB_DEB_VERSION}")
set(CPACK_PACKAGE_CONTACT "${LEVELDB_DEB_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL deb_runtime deb_dev deb_tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LEVELDB_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Run-time dependencies come from dpkg-shlibdeps (dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# A shlibs file for packages built against the shared library (only the
# runtime package has one).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(CPACK_DEBIAN_DEB_RUNTIME_PACKAGE_NAME ${LEVELDB_DEB_RUNTIME_NAME})
set(CPACK_DEBIAN_DEB_RUNTIME_PACKAGE_SECTION libs)
# The versioned Provides satisfies packages built against Debian's library,
# such as python3-plyvel (Depends: libleveldb1d (>= 1.23)).
set(CPACK_DEBIAN_DEB_RUNTIME_PACKAGE_PROVIDES
    "libleveldb1d (= ${LEVELDB_DEB_VERSION})")
set(CPACK_DEBIAN_DEB_RUNTIME_PACKAGE_CONFLICTS libleveldb1d)
set(CPACK_DEBIAN_DEB_RUNTIME_PACKAGE_REPLACES libleveldb1d)
set(CPACK_DEBIAN_DEB_RUNTIME_DESCRIPTION
"LevelDB 1.23 compatible key-value store with ElasticBF filters
A drop-in for LevelDB 1.23: same API, ABI and on-disk formats, so
programs built against Debian's libleveldb1d run on it unchanged.
Optionally it keeps elastic, hotness-aware Bloom filters (ElasticBF)
that cut the disk reads of point lookups under a fixed filter-memory
budget.
This package holds the shared library.")

# The static library and the CMake package of the development files name
# snappy's libsnappy.so, which libsnappy-dev provides.
set(LEVELDB_DEB_DEV_DEPENDS
    "${LEVELDB_DEB_RUNTIME_NAME} (= ${LEVELDB_DEB_VERSION})")
if(LEVELDB_HAVE_SNAPPY)
  string(APPEND LEVELDB_DEB_DEV_DEPENDS ", libsnappy-dev")
endif()
set(CPACK_DEBIAN_DEB_DEV_PACKAGE_NAME ${LEVELDB_DEB_DEV_NAME})
set(CPACK_DEBIAN_DEB_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEB_DEV_PACKAGE_DEPENDS "${LEVELDB_DEB_DEV_DEPENDS}")
set(CPACK_DEBIAN_DEB_DEV_PACKAGE_PROVIDES
    "libleveldb-dev (= ${LEVELDB_DEB_VERSION})")
set(CPACK_DEBIAN_DEB_DEV_PACKAGE_CONFLICTS libleveldb-dev)
set(CPACK_DEBIAN_DEB_DEV_PACKAGE_REPLACES libleveldb-dev)
set(CPACK_DEBIAN_DEB_DEV_DESCRIPTION
"LevelDB 1.23 compatible key-value store with ElasticBF (development files)
Headers (LevelDB 1.23's and the fork's own), libleveldb.so, the static
libleveldb.a, the CMake package 'leveldb' and leveldb.pc, in place of
Debian's libleveldb-dev.")

set(CPACK_DEBIAN_DEB_TOOLS_PACKAGE_NAME ${LEVELDB_DEB_TOOLS_NAME})
set(CPACK_DEBIAN_DEB_TOOLS_PACKAGE_SECTION database)
set(CPACK_DEBIAN_DEB_TOOLS_DESCRIPTION
"LevelDB 1.23 compatible key-value store with ElasticBF (tools)
leveldbutil: prints log, MANIFEST and table files (dump), and removes
ElasticBF's records from a closed database so that stock LevelDB 1.23
opens it again (strip-elastic).")

# CPack (3.25) writes no Multi-Arch field; cmake/DebFixControl.cmake adds
# these (package=value pairs) to the built packages.
set(CPACK_LEVELDB_MULTIARCH "${LEVELDB_DEB_RUNTIME_NAME}=same"
    "${LEVELDB_DEB_DEV_NAME}=same" "${LEVELDB_DEB_TOOLS_NAME}=foreign")
set(CPACK_POST_BUILD_SCRIPTS
    "${PROJECT_SOURCE_DIR}/cmake/DebFixControl.cmake")
# Checks run by cpack before it builds anything.
set(CPACK_LEVELDB_SANITIZE "${LEVELDB_SANITIZE}")
set(CPACK_LEVELDB_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
set(CPACK_PROJECT_CONFIG_FILE
    "${PROJECT_SOURCE_DIR}/cmake/DebPreflight.cmake")

include(CPack)
