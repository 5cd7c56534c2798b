# Read by cpack before it builds packages (CPACK_PROJECT_CONFIG_FILE, set
# in cmake/Packaging.cmake). Stops early, with the reason, when the build
# must not be packaged or a tool the Debian packages need is missing;
# CPack itself would quietly leave the dependencies out without
# dpkg-shlibdeps.

if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()

if(NOT CPACK_LEVELDB_SANITIZE STREQUAL "")
  message(FATAL_ERROR "this build uses LEVELDB_SANITIZE="
          "${CPACK_LEVELDB_SANITIZE}; package a release build instead")
endif()
if(NOT CPACK_LEVELDB_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
  message(FATAL_ERROR "this build's CMAKE_BUILD_TYPE is "
          "'${CPACK_LEVELDB_BUILD_TYPE}'; package a Release build instead")
endif()

# A program must be executable to count as found.
if(POLICY CMP0109)
  cmake_policy(SET CMP0109 NEW)
endif()
find_program(LEVELDB_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT LEVELDB_DPKG_SHLIBDEPS)
  message(FATAL_ERROR "dpkg-shlibdeps not found: it computes the packages' "
          "Depends. Install it with: apt-get install dpkg-dev")
endif()
foreach(tool dpkg-deb file readelf)
  find_program(LEVELDB_TOOL_${tool} ${tool})
  if(NOT LEVELDB_TOOL_${tool})
    message(FATAL_ERROR "${tool} not found; the Debian packages need it "
            "(apt-get install dpkg file binutils)")
  endif()
endforeach()
