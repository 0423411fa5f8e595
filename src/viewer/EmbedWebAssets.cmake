# gpuscope_embed_web_assets(<out var> DIR <dir> FUNCTION <C++ function name>)
# Adds a build step that embeds every file under <dir> (see embed_web_assets.cmake) and
# sets <out var> to the generated .cpp, to be added to a target's sources. Files are found
# again on every build (CONFIGURE_DEPENDS), so new web files are picked up without a manual
# re-configure.
function(gpuscope_embed_web_assets out_var)
  cmake_parse_arguments(E "" "DIR;FUNCTION" "" ${ARGN})
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/generated/${E_FUNCTION}.cpp)
  set(inputs "")
  if(IS_DIRECTORY "${E_DIR}")
    file(GLOB_RECURSE inputs CONFIGURE_DEPENDS "${E_DIR}/*")
  endif()
  add_custom_command(
    OUTPUT ${generated}
    COMMAND ${CMAKE_COMMAND} -DDIR=${E_DIR} -DOUTPUT=${generated} -DFUNCTION=${E_FUNCTION}
            -P ${GPUSCOPE_EMBED_WEB_ASSETS_SCRIPT}
    DEPENDS ${inputs} ${GPUSCOPE_EMBED_WEB_ASSETS_SCRIPT}
    COMMENT "Embedding web assets from ${E_DIR}"
    VERBATIM)
  set(${out_var} ${generated} PARENT_SCOPE)
endfunction()
