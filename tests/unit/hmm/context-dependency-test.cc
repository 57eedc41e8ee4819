// ContextDependency and EventMap: a monophone and a left-biphone tree built
// here (answers, text form and pdf info worked out by hand), Kaldi's own
// trees read and written back byte for byte (tests/data/hmm: the refsys
// monophone tree and a small Kaldi-built triphone tree, binary and text),
// and malformed trees (one-line UserErrors, never a crash).
#include "hmm/context-dependency.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "hmm-test-utils.h"

namespace nnet3 {
namespace {

using testing::LeftBiphoneTree;
using testing::MonophoneTree;
using testing::ReadFromBytes;
using testing::ReadGolden;
using testing::WriteToBytes;

int32_t PdfOf(const ContextDependency &ctx_dep,
              const std::vector<int32_t> &window, int32_t pdf_class) {
  int32_t pdf = -1;
  if (!ctx_dep.Compute(window, pdf_class, &pdf)) return -1;
  return pdf;
}

std::string ReadError(const std::string &bytes) {
  try {
    ContextDependency ctx_dep;
    ReadFromBytes(bytes, &ctx_dep);
  } catch (const UserError &e) {
    return e.what();
  }
  return "";
}

TEST_CASE("a monophone tree") {
  const ContextDependency ctx_dep = MonophoneTree();
  CHECK(ctx_dep.ContextWidth() == 1);
  CHECK(ctx_dep.CentralPosition() == 0);
  CHECK(ctx_dep.NumPdfs() == 3);
  CHECK(PdfOf(ctx_dep, {1}, 0) == 0);
  CHECK(PdfOf(ctx_dep, {1}, 1) == 1);
  CHECK(PdfOf(ctx_dep, {2}, 0) == 2);
  CHECK(PdfOf(ctx_dep, {2}, 1) == -1);  // phone 2 has one pdf-class
  CHECK(PdfOf(ctx_dep, {3}, 0) == -1);  // no phone 3
  CHECK(PdfOf(ctx_dep, {0}, 0) == -1);  // NULL entry
  const std::string text =
      "ContextDependency 1 0 ToPdf TE 0 3 ( NULL TE -1 2 ( CE 0 CE 1 ) \n"
      "TE -1 1 ( CE 2 ) \n"
      ") \n"
      "EndContextDependency ";
  CHECK(WriteToBytes(ctx_dep, false) == text);
  ContextDependency read;
  ReadFromBytes(text, &read);
  CHECK(WriteToBytes(read, false) == text);
  const std::string binary = WriteToBytes(ctx_dep, true);
  ReadFromBytes(binary, &read);
  CHECK(WriteToBytes(read, true) == binary);
  // A copy is deep.
  ContextDependency copy(ctx_dep);
  CHECK(WriteToBytes(copy, false) == text);
}

TEST_CASE("a left-biphone tree") {
  const ContextDependency ctx_dep = LeftBiphoneTree();
  CHECK(ctx_dep.ContextWidth() == 2);
  CHECK(ctx_dep.CentralPosition() == 1);
  CHECK(ctx_dep.NumPdfs() == 5);
  CHECK(PdfOf(ctx_dep, {0, 1}, 0) == 0);
  CHECK(PdfOf(ctx_dep, {0, 1}, 1) == 1);
  CHECK(PdfOf(ctx_dep, {5, 1}, 0) == 2);
  CHECK(PdfOf(ctx_dep, {2, 1}, 1) == 3);
  CHECK(PdfOf(ctx_dep, {0, 2}, 0) == 4);
  CHECK(PdfOf(ctx_dep, {1, 2}, 0) == 4);
  CHECK(WriteToBytes(ctx_dep, false) ==
        "ContextDependency 2 1 ToPdf SE 1 [ 1 ]\n"
        "{ SE 0 [ 0 ]\n"
        "{ TE -1 2 ( CE 0 CE 1 ) \n"
        "TE -1 2 ( CE 2 CE 3 ) \n"
        "} \n"
        "TE -1 1 ( CE 4 ) \n"
        "} \n"
        "EndContextDependency ");
  // Every answer for phone 1's pdf-class 0, whatever the left phone.
  std::vector<EventAnswerType> pdfs;
  ctx_dep.ToPdfMap().MultiMap({{kPdfClass, 0}, {1, 1}}, &pdfs);
  CHECK(pdfs == std::vector<EventAnswerType>{0, 2});
  // Which (phone, pdf-class) each pdf can be.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> pdf_info;
  ctx_dep.GetPdfInfo({1, 2}, {-1, 2, 1}, &pdf_info);
  CHECK(pdf_info == std::vector<std::vector<std::pair<int32_t, int32_t>>>{
                        {{1, 0}}, {{1, 1}}, {{1, 0}}, {{1, 1}}, {{2, 0}}});
  // A topology giving phone 1 a third pdf-class the tree does not know.
  try {
    ctx_dep.GetPdfInfo({1, 2}, {-1, 3, 1}, &pdf_info);
    FAIL("expected a UserError");
  } catch (const UserError &e) {
    CHECK_THAT(e.what(), Catch::Contains("no pdfs returned for position 2 "
                                         "of phone 1"));
  }
}

TEST_CASE("pdf pairs for separate self-loop pdf-classes") {
  // Forward pdf-class 0 and self-loop pdf-class 1 of phone 1 both depend on
  // the left phone, so only the pairs of one context go together: (0, 1)
  // after nothing, (2, 3) after a phone; never (0, 3) or (2, 1).
  const ContextDependency ctx_dep = LeftBiphoneTree();
  std::vector<std::vector<std::vector<std::pair<int32_t, int32_t>>>> info;
  ctx_dep.GetPdfInfo({1, 2}, {{}, {{0, 1}}, {{0, 0}}}, &info);
  REQUIRE(info.size() == 3);
  CHECK(info[1] == std::vector<std::vector<std::pair<int32_t, int32_t>>>{
                       {{0, 1}, {2, 3}}});
  CHECK(info[2] ==
        std::vector<std::vector<std::pair<int32_t, int32_t>>>{{{4, 4}}});
  // No self-loop pdf-class: -1 as the self-loop pdf.
  ctx_dep.GetPdfInfo({1, 2}, {{}, {{1, -1}}, {{0, 0}}}, &info);
  CHECK(info[1] == std::vector<std::vector<std::pair<int32_t, int32_t>>>{
                       {{1, -1}, {3, -1}}});
}

TEST_CASE("Kaldi's trees: the same bytes back, binary and text") {
  struct Golden {
    const char *name;
    int32_t num_pdfs, N, P;
  };
  for (const Golden &g :
       {Golden{"mono.tree", 199, 1, 0}, Golden{"tri.tree", 144, 3, 1}}) {
    INFO(g.name);
    const std::string binary = ReadGolden(g.name);
    const std::string text = ReadGolden(std::string(g.name) + ".txt");
    ContextDependency from_binary, from_text;
    ReadFromBytes(binary, &from_binary);
    ReadFromBytes(text, &from_text);
    CHECK(WriteToBytes(from_binary, true) == binary);
    CHECK(WriteToBytes(from_binary, false) == text);
    CHECK(WriteToBytes(from_text, true) == binary);
    CHECK(WriteToBytes(from_text, false) == text);
    CHECK(from_binary.NumPdfs() == g.num_pdfs);
    CHECK(from_binary.ContextWidth() == g.N);
    CHECK(from_binary.CentralPosition() == g.P);
  }
  // The monophone tree gives the pdfs Kaldi's show-transitions lists for
  // the refsys exp/mono/0.mdl: SIL (1) states 0 and 4 -> 0 and 4, aa_B (11)
  // state 0 -> 10, zh_S (262) state 2 -> 198; aa_B has 3 pdf-classes.
  ContextDependency mono;
  ReadFromBytes(ReadGolden("mono.tree"), &mono);
  CHECK(PdfOf(mono, {1}, 0) == 0);
  CHECK(PdfOf(mono, {1}, 4) == 4);
  CHECK(PdfOf(mono, {11}, 0) == 10);
  CHECK(PdfOf(mono, {262}, 2) == 198);
  CHECK(PdfOf(mono, {11}, 3) == -1);
}

TEST_CASE("malformed trees are UserErrors") {
  for (const char *name : {"mono.tree", "tri.tree"}) {
    const std::string binary = ReadGolden(name);
    // Every truncation of the binary file (the text one needs no final
    // space, so all but the last byte).
    for (size_t n = 0; n < binary.size(); n += (n < 200 ? 1 : 97))
      CHECK(!ReadError(binary.substr(0, n)).empty());
    const std::string text = ReadGolden(std::string(name) + ".txt");
    for (size_t n = 0; n + 1 < text.size(); n += (n < 200 ? 1 : 89))
      CHECK(!ReadError(text.substr(0, n)).empty());
  }
  const std::string head = "ContextDependency 2 1 ToPdf ";
  CHECK_THAT(ReadError(head + "XE 3 EndContextDependency "),
             Catch::Contains("expected an EventMap"));
  CHECK_THAT(ReadError(head + "SE 0 [ 2 1 ] { CE 0 CE 1 } "
                              "EndContextDependency "),
             Catch::Contains("not sorted and unique"));
  CHECK_THAT(ReadError(head + "SE 0 [ 1 ] { NULL CE 1 } "
                              "EndContextDependency "),
             Catch::Contains("NULL"));
  CHECK_THAT(ReadError("ContextDependency 2 2 ToPdf CE 0 "
                       "EndContextDependency "),
             Catch::Contains("central position"));
  CHECK_THAT(
      ReadError("ContextDependency 2 1 ToLen CE 0 EndContextDependency "),
      Catch::Contains("ToPdf"));
  CHECK_THAT(ReadError(head + "NULL EndContextDependency "),
             Catch::Contains("NULL"));
  // A table asking for more entries than the file holds.
  CHECK(!ReadError(head + "TE 0 4000000000 ( CE 0 ) EndContextDependency ")
             .empty());
  // Deeper than any real tree.
  std::string deep = head;
  for (int i = 0; i <= kMaxEventMapDepth; i++) deep += "TE 0 1 ( ";
  for (int i = 0; i < 100; i++) deep += "NULL ";
  CHECK_THAT(ReadError(deep), Catch::Contains("nested deeper"));
  // Trees from old Kaldi versions: a "ToLength" map before ToPdf.
  ContextDependency old;
  ReadFromBytes(
      "ContextDependency 1 0 ToLength CE 3 ToPdf CE 7 EndContextDependency ",
      &old);
  CHECK(old.NumPdfs() == 8);
  CHECK(WriteToBytes(old, false) ==
        "ContextDependency 1 0 ToPdf CE 7 EndContextDependency ");
}

}  // namespace
}  // namespace nnet3
