// CompressedMatrix: golden files built by make-golden.py with Kaldi's
// compression arithmetic (encoding and decoding must match to the bit),
// error bounds, sub-ranges with padding, malformed input.
#include "matrix/compressed-matrix.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>

#include "matrix-test-utils.h"
#include "matrix/general-matrix.h"
#include "matrix/matrix.h"

namespace nnet3 {
namespace {

using test::ReadGolden;
using test::ReadObject;
using test::WriteObject;

Matrix GoldenMatrix(const std::string &name) {
  Matrix m;
  REQUIRE(ReadObject(ReadGolden(name), &m));
  return m;
}

struct GoldenCase {
  const char *compressed, *source;
  CompressionMethod method;
  int32_t format;
};

const GoldenCase kGoldens[] = {
    {"cm1", "cm-source.bin", CompressionMethod::kSpeechFeature, 1},
    {"cm2", "cm-source.bin", CompressionMethod::kTwoByteAuto, 2},
    {"cm3", "cm-source.bin", CompressionMethod::kOneByteAuto, 3},
    {"cm1-small", "cm-small-source.bin", CompressionMethod::kSpeechFeature, 1},
    {"cm2-const", "cm-const-source.bin", CompressionMethod::kTwoByteAuto, 2},
};

TEST_CASE("CompressedMatrix golden files", "[compressed]") {
  for (const GoldenCase &g : kGoldens) {
    INFO("golden " << g.compressed);
    std::string bytes = ReadGolden(std::string(g.compressed) + ".bin");
    std::string decoded =
        ReadGolden(std::string(g.compressed) + "-decoded.bin");
    // Read and re-write: identical bytes.
    CompressedMatrix cm;
    REQUIRE(ReadObject(bytes, &cm));
    REQUIRE(cm.Format() == g.format);
    REQUIRE(WriteObject(cm, true) == bytes);
    // Decompressing gives exactly Kaldi's floats.
    Matrix m;
    ReadObject(bytes, &m);
    REQUIRE(WriteObject(m, true) == decoded);
    Matrix m2(cm.NumRows(), cm.NumCols());
    cm.CopyToMatrix(&m2);
    REQUIRE(WriteObject(m2, true) == decoded);
    // Compressing the source gives exactly Kaldi's bytes.
    Matrix src = GoldenMatrix(g.source);
    CompressedMatrix mine(src, g.method);
    REQUIRE(WriteObject(mine, true) == bytes);
    // GeneralMatrix keeps it compressed.
    GeneralMatrix gm;
    ReadObject(bytes, &gm);
    REQUIRE(gm.Type() == GeneralMatrixType::kCompressedMatrix);
    REQUIRE(WriteObject(gm, true) == bytes);
    // Text mode writes the decompressed values as a text matrix.
    REQUIRE(WriteObject(cm, false) == WriteObject(m, false));
  }
  // kAutomaticMethod: CM for more than 8 rows, CM2 otherwise.
  Matrix src = GoldenMatrix("cm-source.bin");
  REQUIRE(CompressedMatrix(src).Format() == 1);
  REQUIRE(CompressedMatrix(src.RowRange(0, 8)).Format() == 2);
  REQUIRE(WriteObject(CompressedMatrix(src), true) == ReadGolden("cm1.bin"));
}

TEST_CASE("CompressedMatrix error bounds", "[compressed]") {
  std::mt19937 rng(41);
  INFO("seed 41");
  Matrix m(40, 13);
  m.SetRandn(rng());
  m.Scale(3.0f);
  float range = m.Max() - m.Min();
  std::vector<float> orig = m.ToHost();
  auto max_error = [&](CompressionMethod method) {
    CompressedMatrix cm(m, method);
    std::vector<float> back;
    cm.CopyToHost(&back);
    float err = 0;
    for (size_t i = 0; i < back.size(); i++)
      err = std::max(err, std::abs(back[i] - orig[i]));
    return err;
  };
  float e2 = max_error(CompressionMethod::kTwoByteAuto);
  float e3 = max_error(CompressionMethod::kOneByteAuto);
  float e1 = max_error(CompressionMethod::kSpeechFeature);
  INFO("errors " << e1 << " " << e2 << " " << e3 << " range " << range);
  REQUIRE(e2 <= range / 65535 * 0.51f + 1e-6f);
  REQUIRE(e3 <= range / 255 * 0.51f + 1e-6f);
  REQUIRE(e1 <= range / 64);
  REQUIRE(e1 > 0.0f);
  // Integer methods are exact on their integers.
  Matrix ints(2, 3);
  ints.CopyFromHost(std::vector<float>{-32768, 0, 5, 32767, -1, 100});
  CompressedMatrix ci(ints, CompressionMethod::kTwoByteSignedInteger);
  Matrix back(2, 3);
  ci.CopyToMatrix(&back);
  REQUIRE(back.ToHost() == ints.ToHost());
  Matrix bytes(1, 3);
  bytes.CopyFromHost(std::vector<float>{0, 17, 255});
  CompressedMatrix cb(bytes, CompressionMethod::kOneByteUnsignedInteger);
  Matrix bback(1, 3);
  cb.CopyToMatrix(&bback);
  REQUIRE(bback.ToHost() == bytes.ToHost());
  // Transposed decompression and scaling.
  Matrix bt(3, 1);
  cb.CopyToMatrix(&bt, Trans::kYes);
  REQUIRE(bt.ToHost() == bytes.ToHost());
  cb.Scale(2.0f);
  cb.CopyToMatrix(&bback);
  REQUIRE(bback.ToHost() == std::vector<float>{0, 34, 510});
  // inf / NaN cannot be compressed.
  ints.Set(0, 0, NAN);
  REQUIRE_THROWS_AS(CompressedMatrix(ints), UserError);
}

TEST_CASE("CompressedMatrix sub-ranges with padding", "[compressed]") {
  Matrix src = GoldenMatrix("cm-source.bin");  // 10 x 3
  for (CompressionMethod method :
       {CompressionMethod::kSpeechFeature, CompressionMethod::kTwoByteAuto,
        CompressionMethod::kOneByteAuto}) {
    CompressedMatrix cm(src, method);
    Matrix full(10, 3);
    cm.CopyToMatrix(&full);
    std::vector<float> f = full.ToHost();
    // Rows -2 .. 9 (12 rows, padded at the start), columns 1..2.
    CompressedMatrix sub(cm, -2, 12, 1, 2, true);
    REQUIRE(sub.Format() == cm.Format());
    Matrix s(12, 2);
    sub.CopyToMatrix(&s);
    for (int32_t r = 0; r < 12; r++)
      for (int32_t c = 0; c < 2; c++)
        REQUIRE(s.Get(r, c) == f[std::max(r - 2, 0) * 3 + c + 1]);
    // Small CM blocks become CM2 (values nearly the same).
    CompressedMatrix small(cm, 8, 4, 0, 3, true);
    REQUIRE(small.Format() == (cm.Format() == 1 ? 2 : cm.Format()));
    Matrix sm(4, 3);
    small.CopyToMatrix(&sm);
    for (int32_t r = 0; r < 4; r++)
      for (int32_t c = 0; c < 3; c++)
        REQUIRE(sm.Get(r, c) ==
                Approx(f[std::min(r + 8, 9) * 3 + c]).margin(1e-3));
    // A block decompressed from the middle.
    Matrix block(3, 2);
    cm.CopyToMatrix(4, 1, &block);
    REQUIRE(block.Get(2, 1) == f[6 * 3 + 2]);
  }
}

TEST_CASE("CompressedMatrix empty, full-matrix input and malformed data",
          "[compressed]") {
  CompressedMatrix empty;
  std::string bytes = WriteObject(empty, true);
  REQUIRE(bytes == std::string("\0BCM ", 5) + std::string(16, '\0'));
  CompressedMatrix back;
  ReadObject(bytes, &back);
  REQUIRE(back.IsEmpty());
  Matrix m(2, 2);
  ReadObject(bytes, &m);
  REQUIRE(m.NumRows() == 0);
  // A full matrix is accepted and compressed (Kaldi's back-compatibility).
  CompressedMatrix from_full;
  ReadObject(ReadGolden("cm-source.bin"), &from_full);
  REQUIRE(WriteObject(from_full, true) == ReadGolden("cm1.bin"));
  CompressedMatrix from_text;
  ReadObject(ReadGolden("fm-2x3.txt"), &from_text);
  REQUIRE(from_text.Format() == 2);

  std::string cm1 = ReadGolden("cm1.bin");
  auto error_of = [](const std::string &data) {
    CompressedMatrix cm;
    try {
      ReadObject(data, &cm);
    } catch (const UserError &e) {
      std::string msg = e.what();
      REQUIRE(msg.find('\n') == std::string::npos);
      REQUIRE(cm.IsEmpty());
      return msg;
    }
    FAIL("no error");
    return std::string();
  };
  REQUIRE(error_of(cm1.substr(0, cm1.size() - 1))
              .find("truncated compressed matrix data") == 0);
  REQUIRE(error_of(cm1.substr(0, 12))
              .find("truncated compressed matrix "
                    "header") == 0);
  REQUIRE(error_of(std::string("\0BCM4 ", 6) + cm1.substr(5))
              .find("Expected token CM, CM2 or CM3") == 0);
  std::string huge = cm1.substr(0, 13) + std::string("\xff\xff\xff\x7f", 4) +
                     std::string("\xff\xff\xff\x7f", 4);
  REQUIRE(error_of(huge).find("Refusing") != std::string::npos);
}

}  // namespace
}  // namespace nnet3
