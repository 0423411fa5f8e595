# The build enforces ARCHITECTURE.md's layering. Each folder of src/ is one target, declared
# with gpuscope_layer(<folder> <target> DEPENDS <folders...>) in src/CMakeLists.txt once every
# target exists; gpuscope_check_layers() then
#   - fails the configuration when a target links a layer it may not depend on, or does not
#     link one it is declared to depend on (the table and the build cannot drift apart);
#   - adds, for each static-library layer, a shared "link check" library built from all of the
#     layer's objects with -Wl,--no-undefined against the declared layers only: code that calls
#     into a folder it may not depend on fails to link, instead of waiting for a reviewer;
#   - writes <build>/layers.txt (`folder: dependency folders`), from which tests/layering
#     checks ARCHITECTURE.md's table and every #include of src/ (header-only use is invisible
#     to the linker).

# Declares the layer <folder> (a path below src/), built as <target>, and the folders it may
# depend on directly.
function(gpuscope_layer folder target)
  cmake_parse_arguments(PARSE_ARGV 2 LAYER "" "" "DEPENDS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "layer src/${folder}: no target ${target}")
  endif()
  set_property(GLOBAL APPEND PROPERTY GPUSCOPE_LAYERS ${folder})
  set_property(GLOBAL PROPERTY GPUSCOPE_LAYER_TARGET_${folder} ${target})
  set_property(GLOBAL PROPERTY GPUSCOPE_LAYER_DEPENDS_${folder} "${LAYER_DEPENDS}")
endfunction()

# The layer targets among a target's direct link dependencies (generator expressions and
# non-layer libraries such as SQLite, zlib or CUPTI are not layers and are left out).
function(_gpuscope_linked_layers target all_targets out)
  get_target_property(type ${target} TYPE)
  set(linked)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(direct ${target} LINK_LIBRARIES)
    if(direct)
      list(APPEND linked ${direct})
    endif()
  endif()
  get_target_property(interface ${target} INTERFACE_LINK_LIBRARIES)
  if(interface)
    list(APPEND linked ${interface})
  endif()
  set(result)
  foreach(library IN LISTS linked)
    if(library IN_LIST all_targets)
      list(APPEND result ${library})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES result)
  list(REMOVE_ITEM result ${target})
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(gpuscope_check_layers)
  get_property(folders GLOBAL PROPERTY GPUSCOPE_LAYERS)
  set(all_targets)
  foreach(folder IN LISTS folders)
    get_property(target GLOBAL PROPERTY GPUSCOPE_LAYER_TARGET_${folder})
    list(APPEND all_targets ${target})
    set(folder_of_${target} ${folder})
  endforeach()

  set(table "")
  set(empty_source ${CMAKE_BINARY_DIR}/layer_check_empty.cpp)
  file(WRITE ${empty_source} "// Link checks of the layers (cmake/Layers.cmake) need one source file.\n")
  foreach(folder IN LISTS folders)
    get_property(target GLOBAL PROPERTY GPUSCOPE_LAYER_TARGET_${folder})
    get_property(depends GLOBAL PROPERTY GPUSCOPE_LAYER_DEPENDS_${folder})
    set(allowed_targets)
    foreach(dependency IN LISTS depends)
      get_property(dependency_target GLOBAL PROPERTY GPUSCOPE_LAYER_TARGET_${dependency})
      if(NOT dependency_target)
        message(FATAL_ERROR "layer src/${folder} depends on src/${dependency}, which is no layer")
      endif()
      list(APPEND allowed_targets ${dependency_target})
    endforeach()

    _gpuscope_linked_layers(${target} "${all_targets}" linked)
    foreach(library IN LISTS linked)
      if(NOT library IN_LIST allowed_targets)
        message(FATAL_ERROR "src/${folder} (${target}) links ${library} (src/${folder_of_${library}}), "
                            "a layer it may not depend on (ARCHITECTURE.md, src/CMakeLists.txt)")
      endif()
    endforeach()
    foreach(library IN LISTS allowed_targets)
      if(NOT library IN_LIST linked)
        message(FATAL_ERROR "src/${folder} (${target}) is declared to depend on "
                            "src/${folder_of_${library}} but does not link ${library}")
      endif()
    endforeach()

    get_target_property(type ${target} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
      add_library(${target}_layer_check SHARED EXCLUDE_FROM_ALL ${empty_source})
      target_link_libraries(${target}_layer_check PRIVATE
        "$<LINK_LIBRARY:WHOLE_ARCHIVE,${target}>" ${allowed_targets})
      # --exclude-libs: static third-party code (SQLite) links into a shared object only with
      # its symbols hidden, as in the injection library.
      target_link_options(${target}_layer_check PRIVATE -Wl,--no-undefined -Wl,--exclude-libs,ALL)
      set_target_properties(${target}_layer_check PROPERTIES
        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/layer_checks)
      list(APPEND checks ${target}_layer_check)
    endif()
    string(REPLACE ";" " " depends_text "${depends}")
    string(APPEND table "${folder}: ${depends_text}\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/layers.txt "${table}")
  # Part of the default build: a wrong dependency fails `cmake --build`, not only a test.
  add_custom_target(gpuscope_layer_checks ALL DEPENDS ${checks})
endfunction()
