# Turns the template files into a C++ include of raw string literals:
#   cmake -DTEMPLATE_DIR=dir -DNAMES=a.tpl,b.tpl -DOUTPUT=file -P EmbedTemplates.cmake
string(REPLACE "," ";" names "${NAMES}")
set(text "// Generated from templates/ by EmbedTemplates.cmake; do not edit.\n")
foreach(name IN LISTS names)
  file(READ "${TEMPLATE_DIR}/${name}" body)
  string(FIND "${body}" ")stencilc_tpl\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} contains the raw-string delimiter")
  endif()
  string(APPEND text "{\"${name}\", R\"stencilc_tpl(${body})stencilc_tpl\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${text}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
