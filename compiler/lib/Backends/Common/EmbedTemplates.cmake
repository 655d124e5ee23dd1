# Turns the template files into a C++ include of raw string literals, each
# keyed by its file name:
#   cmake -DPATHS=dir/a.tpl,dir/b.tpl -DOUTPUT=file -P EmbedTemplates.cmake
string(REPLACE "," ";" paths "${PATHS}")
set(text "// Generated from the backends' templates/ by EmbedTemplates.cmake; do not edit.\n")
foreach(path IN LISTS paths)
  get_filename_component(name "${path}" NAME)
  file(READ "${path}" body)
  string(FIND "${body}" ")stencilc_tpl\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} contains the raw-string delimiter")
  endif()
  string(APPEND text "{\"${name}\", R\"stencilc_tpl(${body})stencilc_tpl\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${text}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
