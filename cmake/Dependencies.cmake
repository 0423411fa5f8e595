# Third-party dependencies. SQLite is linked statically (the GPU machine has no SQLite
# headers, and the injection library must not share SQLite symbols with the program it
# is injected into). CUPTI comes from the CUDA toolkit.

set(GPUSCOPE_CUDA_ROOT "/usr/local/cuda" CACHE PATH "CUDA toolkit root (CUPTI headers and libraries)")

find_path(SQLITE3_INCLUDE_DIR sqlite3.h)
find_library(SQLITE3_STATIC_LIBRARY NAMES libsqlite3.a)
if(NOT SQLITE3_INCLUDE_DIR OR NOT SQLITE3_STATIC_LIBRARY)
  message(FATAL_ERROR "SQLite's static library and header were not found: run scripts/setup.sh "
                      "(installs Debian's libsqlite3-dev)")
endif()
add_library(gpuscope_sqlite3 INTERFACE)
target_include_directories(gpuscope_sqlite3 SYSTEM INTERFACE ${SQLITE3_INCLUDE_DIR})
target_link_libraries(gpuscope_sqlite3 INTERFACE ${SQLITE3_STATIC_LIBRARY} m dl Threads::Threads)

find_package(Threads REQUIRED)

find_path(CUPTI_INCLUDE_DIR cupti.h
  HINTS ${GPUSCOPE_CUDA_ROOT}/include ${GPUSCOPE_CUDA_ROOT}/extras/CUPTI/include NO_DEFAULT_PATH)
find_library(CUPTI_LIBRARY NAMES cupti
  HINTS ${GPUSCOPE_CUDA_ROOT}/lib64 ${GPUSCOPE_CUDA_ROOT}/extras/CUPTI/lib64 NO_DEFAULT_PATH)
if(NOT CUPTI_INCLUDE_DIR OR NOT CUPTI_LIBRARY)
  message(FATAL_ERROR "CUPTI was not found under GPUSCOPE_CUDA_ROOT=${GPUSCOPE_CUDA_ROOT}; "
                      "pass -DGPUSCOPE_CUDA_ROOT=/path/to/cuda")
endif()
get_filename_component(CUPTI_LIBRARY_DIR ${CUPTI_LIBRARY} DIRECTORY)
add_library(gpuscope_cupti INTERFACE)
target_include_directories(gpuscope_cupti SYSTEM INTERFACE ${CUPTI_INCLUDE_DIR} ${GPUSCOPE_CUDA_ROOT}/include)
target_link_libraries(gpuscope_cupti INTERFACE ${CUPTI_LIBRARY})

# nvcc is only needed for the example and benchmark programs; no GPU is needed to build.
find_program(GPUSCOPE_NVCC nvcc HINTS ${GPUSCOPE_CUDA_ROOT}/bin NO_DEFAULT_PATH)
set(GPUSCOPE_HAVE_NVCC OFF)
if(GPUSCOPE_NVCC)
  set(CMAKE_CUDA_COMPILER ${GPUSCOPE_NVCC})
  set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "GPU architectures for examples")
  enable_language(CUDA)
  set(GPUSCOPE_HAVE_NVCC ON)
endif()

find_package(GTest)
