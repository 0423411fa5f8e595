# cmake -DBUILD_DIR=... -DWORK_DIR=... -DREPORT=... -P relocated_install_test.cmake
#
# Installs the build into WORK_DIR/prefix, moves the tree to WORK_DIR/moved (nothing of the
# build or the first prefix left to find), and checks from the moved tree that `gpuscope
# --version` finds the moved injection library, and that `gpuscope stats REPORT` works.

function(fail message)
  message(FATAL_ERROR "install_relocated: ${message}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix"
                RESULT_VARIABLE installed OUTPUT_VARIABLE install_out ERROR_VARIABLE install_out)
if(NOT installed EQUAL 0)
  fail("cmake --install failed: ${install_out}")
endif()
foreach(file bin/gpuscope lib/libgpuscope_inject.so lib/gpuscope-python/sitecustomize.py)
  if(NOT EXISTS "${WORK_DIR}/prefix/${file}")
    fail("the install has no ${file}: ${install_out}")
  endif()
endforeach()

file(RENAME "${WORK_DIR}/prefix" "${WORK_DIR}/moved")
set(moved "${WORK_DIR}/moved")
if(EXISTS "${WORK_DIR}/prefix")
  fail("the tree was not moved")
endif()

# An environment without the variables that would point elsewhere.
set(clean_env "${CMAKE_COMMAND}" -E env --unset=GPUSCOPE_INJECTION_LIBRARY)

execute_process(COMMAND ${clean_env} "${moved}/bin/gpuscope" --version
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  fail("gpuscope --version from the moved tree exited ${status}: ${out}${err}")
endif()
file(REAL_PATH "${moved}/lib/libgpuscope_inject.so" library)
string(FIND "${out}" "found: ${library}\n" at)
if(at EQUAL -1)
  fail("gpuscope --version does not find the moved library ${library}:\n${out}")
endif()
string(FIND "${out}" "${BUILD_DIR}/lib/" at)
if(NOT at EQUAL -1)
  fail("the moved install still points into the build tree:\n${out}")
endif()

execute_process(COMMAND ${clean_env} "${moved}/bin/gpuscope" stats "${REPORT}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  fail("gpuscope stats from the moved tree exited ${status}: ${err}")
endif()
string(FIND "${out}${err}" "GPU activities:" at)
if(at EQUAL -1)
  fail("gpuscope stats from the moved tree printed no summary:\n${out}${err}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
