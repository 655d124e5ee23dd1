//===- CodeWriterTest.cpp - Indentation, scopes, templates, literals -------===//
#include <gtest/gtest.h>

#include "Backends/Common/CodeGen.h"
#include "Backends/Common/CodeWriter.h"

using namespace stencilc;

TEST(CodeWriter, ScopesIndentAndCommentTheirEnd) {
  CodeWriter w;
  w.line("int f() {"); // without arguments, text is written as is
  w.indent();
  w.openScope("for (int i = 0; i < n; ++i)");
  w.line("x += {};", 2);
  w.line();
  w.closeScope("", "tile loop");
  w.closeScope(";");
  EXPECT_EQ(w.text(), "int f() {\n"
                      "  for (int i = 0; i < n; ++i) {\n"
                      "    x += 2;\n"
                      "\n"
                      "  } // tile loop\n"
                      "};\n");
}

TEST(CodeWriter, FillKeepsTemplateIndentationAndDropsEmptyHoles) {
  CodeWriter w;
  w.openScope("void g()");
  w.fillWith("if (a) {{\n  {body}\n  {optional}\n}}\n\nreturn;\n",
             fmt::arg("body", "one();\ntwo();"), fmt::arg("optional", ""));
  w.closeScope();
  EXPECT_EQ(w.text(), "void g() {\n"
                      "  if (a) {\n"
                      "    one();\n"
                      "    two();\n"
                      "  }\n"
                      "\n"
                      "  return;\n"
                      "}\n");
}

TEST(Templates, SectionsAreEmbeddedAndSeparated) {
  std::string_view launch = templateSection("simt.cu.tpl", "launch");
  EXPECT_NE(launch.find("simt::launch<Stencil>"), std::string_view::npos);
  EXPECT_EQ(launch.find("//@ section"), std::string_view::npos);
  std::string_view gemm = templateSection("tensor.cu.tpl", "gemm_row");
  EXPECT_NE(gemm.find("Block::gemmRow("), std::string_view::npos);
  EXPECT_EQ(gemm.find("//@ section"), std::string_view::npos);
  EXPECT_NE(templateSection("header.h.tpl", "file_tail").find("#endif"), std::string_view::npos);
}

TEST(NumberLiteral, ExactAndValidCxx) {
  EXPECT_EQ(numberLiteral(0.125, true), "0.125f");
  EXPECT_EQ(numberLiteral(0.0, true), "0.0f");
  EXPECT_EQ(numberLiteral(2.0, false), "2.0");
  EXPECT_EQ(numberLiteral(0.1, false), "0.1");
  EXPECT_EQ(numberLiteral(1e-30, false), "1e-30");
}
