// GeneralMatrix: type detection when reading, writes of each type, GetMatrix,
// Compress, ExtractRowRangeWithPadding.
#include "matrix/general-matrix.h"

#include <catch2/catch.hpp>
#include <string>

#include "matrix-test-utils.h"

namespace nnet3 {
namespace {

using test::ReadGolden;
using test::ReadObject;
using test::WriteObject;

TEST_CASE("GeneralMatrix reads and writes each type", "[general]") {
  struct Case {
    const char *file;
    GeneralMatrixType type;
  } cases[] = {{"fm-2x3.bin", GeneralMatrixType::kFullMatrix},
               {"fm-2x3.txt", GeneralMatrixType::kFullMatrix},
               {"cm2.bin", GeneralMatrixType::kCompressedMatrix},
               {"cm1.bin", GeneralMatrixType::kCompressedMatrix},
               {"sm.bin", GeneralMatrixType::kSparseMatrix},
               {"sm.txt", GeneralMatrixType::kSparseMatrix}};
  for (const Case &c : cases) {
    INFO("file " << c.file);
    std::string bytes = ReadGolden(c.file);
    GeneralMatrix gm;
    bool binary = ReadObject(bytes, &gm);
    REQUIRE(gm.Type() == c.type);
    REQUIRE(WriteObject(gm, binary) == bytes);
    Matrix m;
    gm.GetMatrix(&m);
    REQUIRE(m.NumRows() == gm.NumRows());
    REQUIRE(m.NumCols() == gm.NumCols());
  }
  GeneralMatrix dm;
  ReadObject(ReadGolden("dm-2x3.bin"), &dm);
  REQUIRE(WriteObject(dm, true) == ReadGolden("fm-2x3.bin"));
  GeneralMatrix empty;
  REQUIRE(empty.Type() == GeneralMatrixType::kFullMatrix);
  REQUIRE(WriteObject(empty, true) == ReadGolden("fm-empty.bin"));
}

TEST_CASE("GeneralMatrix compress, accessors, row ranges", "[general]") {
  Matrix src;
  ReadObject(ReadGolden("cm-source.bin"), &src);
  GeneralMatrix gm(src);
  REQUIRE(gm.Type() == GeneralMatrixType::kFullMatrix);
  REQUIRE(&gm.GetFullMatrix().device() == &CpuDevice());
  REQUIRE_THROWS_AS(gm.GetSparseMatrix(), InternalError);
  gm.Compress();
  REQUIRE(gm.Type() == GeneralMatrixType::kCompressedMatrix);
  REQUIRE(WriteObject(gm, true) == ReadGolden("cm1.bin"));
  Matrix acc(10, 3);
  acc.Set(1.0f);
  gm.AddToMatrix(2.0f, &acc);
  Matrix dec;
  gm.GetMatrix(&dec);
  dec.Scale(2.0f);
  dec.Add(1.0f);
  REQUIRE(acc.ApproxEqual(dec, 1e-6f));
  gm.Uncompress();
  REQUIRE(gm.Type() == GeneralMatrixType::kFullMatrix);

  // Row ranges with padding, for each type.
  GeneralMatrix full(src);
  GeneralMatrix sparse(SparseMatrix(std::vector<int32_t>{0, 1, 2, 1}, 3));
  GeneralMatrix compressed(
      CompressedMatrix(src, CompressionMethod::kTwoByteAuto));
  for (const GeneralMatrix *in : {&full, &sparse, &compressed}) {
    Matrix whole;
    in->GetMatrix(&whole);
    GeneralMatrix out;
    ExtractRowRangeWithPadding(*in, -1, whole.NumRows() + 2, &out);
    REQUIRE(out.Type() == in->Type());
    Matrix got;
    out.GetMatrix(&got);
    REQUIRE(got.NumRows() == whole.NumRows() + 2);
    for (int32_t r = 0; r < got.NumRows(); r++) {
      int32_t src_row = std::min(std::max(r - 1, 0), whole.NumRows() - 1);
      for (int32_t c = 0; c < got.NumCols(); c++)
        REQUIRE(got.Get(r, c) == whole.Get(src_row, c));
    }
  }
  GeneralMatrix none;
  ExtractRowRangeWithPadding(full, 0, 0, &none);
  REQUIRE(none.NumRows() == 0);
}

}  // namespace
}  // namespace nnet3
