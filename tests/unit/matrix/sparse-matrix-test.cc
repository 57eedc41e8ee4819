// SparseVector / SparseMatrix: golden files, construction rules, dense
// copies, malformed input.
#include "matrix/sparse-matrix.h"

#include <catch2/catch.hpp>
#include <string>

#include "matrix-test-utils.h"
#include "matrix/matrix.h"

namespace nnet3 {
namespace {

using test::ReadGolden;
using test::ReadObject;
using test::WriteObject;

template <class T>
std::string ReadError(const std::string &bytes) {
  T obj;
  try {
    ReadObject(bytes, &obj);
  } catch (const UserError &e) {
    std::string msg = e.what();
    REQUIRE(msg.find('\n') == std::string::npos);
    return msg;
  }
  FAIL("no UserError for malformed input: " << bytes);
  return "";
}

TEST_CASE("SparseVector golden files", "[sparse]") {
  SparseVector sv;
  REQUIRE(ReadObject(ReadGolden("sv.bin"), &sv));
  REQUIRE(sv.Dim() == 5);
  REQUIRE(sv.Pairs() == std::vector<SparseVector::Pair>{{0, 0.5f}, {3, 1.0f}});
  REQUIRE(WriteObject(sv, true) == ReadGolden("sv.bin"));
  REQUIRE(WriteObject(sv, false) == ReadGolden("sv.txt"));
  SparseVector st;
  REQUIRE_FALSE(ReadObject(ReadGolden("sv.txt"), &st));
  REQUIRE(WriteObject(st, true) == ReadGolden("sv.bin"));
  REQUIRE(sv.Sum() == 1.5);
}

TEST_CASE("SparseMatrix golden files and dense copies", "[sparse]") {
  SparseMatrix sm;
  REQUIRE(ReadObject(ReadGolden("sm.bin"), &sm));
  REQUIRE(sm.NumRows() == 2);
  REQUIRE(sm.NumCols() == 5);
  REQUIRE(sm.NumElements() == 2);
  REQUIRE(WriteObject(sm, true) == ReadGolden("sm.bin"));
  REQUIRE(WriteObject(sm, false) == ReadGolden("sm.txt"));
  SparseMatrix st;
  REQUIRE_FALSE(ReadObject(ReadGolden("sm.txt"), &st));
  REQUIRE(WriteObject(st, true) == ReadGolden("sm.bin"));

  Matrix dense(2, 5);
  dense.Set(3.0f);
  sm.CopyToMatrix(&dense);
  REQUIRE(dense.ToHost() ==
          std::vector<float>{0.5f, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  SparseMatrix from_dense(dense);
  REQUIRE(WriteObject(from_dense, true) == ReadGolden("sm.bin"));
  MatrixView narrow = dense.ColRange(0, 4);
  REQUIRE_THROWS_AS(sm.CopyToMatrix(&narrow), InternalError);

  SparseMatrix empty;
  REQUIRE(empty.NumCols() == 0);
  REQUIRE(WriteObject(empty, false) == "rows=0 \n");
  SparseMatrix eback;
  ReadObject(WriteObject(empty, true), &eback);
  REQUIRE(eback.NumRows() == 0);
}

TEST_CASE("SparseMatrix construction", "[sparse]") {
  // Sorted, duplicates summed, zeros dropped (as Kaldi).
  SparseVector v(
      6, {{4, 1.0f}, {1, 2.0f}, {4, 0.5f}, {2, 0.0f}, {5, 1.0f}, {5, -1.0f}});
  REQUIRE(v.Pairs() == std::vector<SparseVector::Pair>{{1, 2.0f}, {4, 1.5f}});
  REQUIRE_THROWS_AS(SparseVector(3, {{3, 1.0f}}), InternalError);
  SparseMatrix onehot(std::vector<int32_t>{2, -1, 0}, 3);
  Matrix d(3, 3);
  onehot.CopyToMatrix(&d);
  REQUIRE(d.ToHost() == std::vector<float>{0, 0, 1, 0, 0, 0, 1, 0, 0});
  SparseMatrix pairs(4, {{{1, 0.25f}}, {}, {{3, -1.0f}, {0, 2.0f}}});
  REQUIRE(pairs.NumRows() == 3);
  REQUIRE(pairs.Row(2).Pairs().front().first == 0);
  REQUIRE(pairs.Sum() == Approx(1.25));
  REQUIRE_THROWS_AS(SparseMatrix(4, std::vector<SparseVector>{SparseVector(3)}),
                    InternalError);
}

TEST_CASE("Sparse malformed input", "[sparse]") {
  std::string sv = ReadGolden("sv.bin");
  ReadError<SparseVector>(sv.substr(0, sv.size() - 2));
  REQUIRE(ReadError<SparseVector>(std::string("\0BSX ", 5) + sv.substr(5))
              .find("Expected token SV") == 0);
  ReadError<SparseVector>("dim=x [ ]");
  ReadError<SparseVector>("dim=5 ( 1 2 )");
  REQUIRE(ReadError<SparseVector>("dim=5 [ 5 1 ]").find("out of range") !=
          std::string::npos);
  ReadError<SparseVector>("dim=5 [ 3 1 1 1 ]");  // not increasing
  ReadError<SparseVector>("dim=5 [ 3 1 ");
  ReadError<SparseVector>("dim=5 [ 3 ]");
  std::string sm = ReadGolden("sm.bin");
  ReadError<SparseMatrix>(sm.substr(0, sm.size() - 3));
  ReadError<SparseMatrix>("rows=2 dim=5 [ ] dim=4 [ ] ");
  ReadError<SparseMatrix>("rows=-1 ");
  ReadError<SparseMatrix>("rows=2 dim=5 [ ] ");
  // A corrupted row count fails at the end of the data, not in allocation.
  std::string many =
      sm.substr(0, 5) + std::string("\x04\xff\xff\xff\x3f", 5) + sm.substr(10);
  ReadError<SparseMatrix>(many);
}

}  // namespace
}  // namespace nnet3
