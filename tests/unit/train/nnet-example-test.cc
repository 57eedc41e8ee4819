// NnetIo / NnetExample: constructors, binary and text round trips, the golden
// archives in tests/data/train (written by make-golden-egs.py from the
// format), read errors, and GetComputationRequest.
#include "train/nnet-example.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {
namespace {

Matrix HostMatrix(const std::vector<std::vector<float>> &rows) {
  Matrix m(static_cast<int32_t>(rows.size()),
           static_cast<int32_t>(rows[0].size()), ResizeType::kSetZero,
           CpuDevice());
  for (size_t r = 0; r < rows.size(); r++)
    for (size_t c = 0; c < rows[r].size(); c++)
      m.Set(static_cast<int32_t>(r), static_cast<int32_t>(c), rows[r][c]);
  return m;
}

NnetExample SmallExample() {
  NnetExample eg;
  eg.io.emplace_back("input", -1,
                     HostMatrix({{1, 2}, {3, 4}, {5, 6}, {7, 8.5f}}));
  Posterior post = {{{2, 1.0f}}, {{0, 0.25f}, {1, 0.75f}}};
  eg.io.emplace_back("output", 3, 0, post, 3);
  return eg;
}

std::string ToBytes(const NnetExample &eg, bool binary) {
  std::ostringstream os;
  eg.Write(os, binary);
  return os.str();
}

NnetExample FromBytes(const std::string &bytes, bool binary) {
  std::istringstream is(bytes);
  NnetExample eg;
  eg.Read(is, binary);
  return eg;
}

std::string ReadFile(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  REQUIRE(is.good());
  std::ostringstream os;
  os << is.rdbuf();
  return os.str();
}

// Reads every "key eg" entry of an archive, writes each back in `binary`
// mode, and returns the bytes (the archive layout of reference 5.4).
std::string RewriteArchive(const std::string &bytes, bool binary_out,
                           std::vector<NnetExample> *egs) {
  std::istringstream is(bytes);
  std::ostringstream os;
  std::string key;
  while (is >> key) {
    REQUIRE(is.get() == ' ');
    bool binary;
    InitKaldiInputStream(is, &binary);
    NnetExample eg;
    eg.Read(is, binary);
    os << key << ' ';
    InitKaldiOutputStream(os, binary_out);
    eg.Write(os, binary_out);
    egs->push_back(eg);
  }
  return os.str();
}

TEST_CASE("NnetIo constructors set indexes and sparse targets", "[egs]") {
  NnetExample eg = SmallExample();
  const NnetIo &input = eg.io[0];
  REQUIRE(input.indexes.size() == 4);
  CHECK(input.indexes[0] == Index(0, -1, 0));
  CHECK(input.indexes[3] == Index(0, 2, 0));
  CHECK(input.features.Type() == GeneralMatrixType::kFullMatrix);
  const NnetIo &output = eg.io[1];
  CHECK(output.indexes[1] == Index(0, 3, 0));
  REQUIRE(output.features.Type() == GeneralMatrixType::kSparseMatrix);
  CHECK(output.features.NumCols() == 3);

  // Pairs sorted by pdf, duplicates summed, zeros dropped.
  Posterior post = {{{2, 0.5f}, {0, 0.25f}, {2, 0.25f}, {1, 0.0f}}};
  NnetIo io("output", 4, 5, post);
  CHECK(io.indexes[0] == Index(0, 5, 0));
  const SparseVector &row = io.features.GetSparseMatrix().Row(0);
  REQUIRE(row.NumElements() == 2);
  CHECK(row.Pairs()[0] == std::make_pair(0, 0.25f));
  CHECK(row.Pairs()[1] == std::make_pair(2, 0.75f));

  Posterior bad = {{{4, 1.0f}}};
  CHECK_THROWS_AS(NnetIo("output", 4, 0, bad), UserError);
}

TEST_CASE("NnetExample binary and text round trips", "[egs]") {
  NnetExample eg = SmallExample();
  for (bool binary : {true, false}) {
    std::string bytes = ToBytes(eg, binary);
    NnetExample back = FromBytes(bytes, binary);
    CHECK(back == eg);
    CHECK(ToBytes(back, binary) == bytes);
  }
  // Compressed input survives a binary round trip byte for byte.
  eg.Compress();
  CHECK(eg.io[0].features.Type() == GeneralMatrixType::kCompressedMatrix);
  CHECK(eg.io[1].features.Type() == GeneralMatrixType::kSparseMatrix);
  std::string bytes = ToBytes(eg, true);
  CHECK(ToBytes(FromBytes(bytes, true), true) == bytes);
  CHECK(bytes.substr(0, 20) == "<Nnet3Eg> <NumIo> \x04\x02");
}

TEST_CASE("Golden egs archives are read and rewritten byte for byte", "[egs]") {
  const std::string dir = std::string(NNET3_TEST_DATA) + "/train/";
  for (std::string name : {"full-sparse", "ivector"}) {
    INFO(name);
    std::string binary = ReadFile(dir + name + ".egs");
    std::string text = ReadFile(dir + name + ".egs.txt");
    std::vector<NnetExample> egs, egs_text, unused;
    CHECK(RewriteArchive(binary, true, &egs) == binary);
    CHECK(RewriteArchive(binary, false, &unused) == text);
    CHECK(RewriteArchive(text, false, &egs_text) == text);
    CHECK(RewriteArchive(text, true, &unused) == binary);
    CHECK(egs == egs_text);
  }
  std::string compressed = ReadFile(dir + "compressed.egs");
  std::vector<NnetExample> egs;
  CHECK(RewriteArchive(compressed, true, &egs) == compressed);
  REQUIRE(egs.size() == 1);
  CHECK(egs[0].io[0].features.Type() == GeneralMatrixType::kCompressedMatrix);
}

TEST_CASE("Golden egs hold what the format says", "[egs]") {
  const std::string dir = std::string(NNET3_TEST_DATA) + "/train/";
  std::vector<NnetExample> egs;
  RewriteArchive(ReadFile(dir + "full-sparse.egs"), true, &egs);
  REQUIRE(egs.size() == 1);
  const NnetExample &eg = egs[0];
  REQUIRE(eg.io.size() == 2);
  CHECK(eg.io[0].name == "input");
  CHECK(eg.io[0].indexes.front() == Index(0, -2, 0));
  Matrix feats(CpuDevice());
  eg.io[0].features.GetMatrix(&feats);
  CHECK(feats.Get(2, 0) == -0.5f);
  CHECK(feats.Get(3, 2) == 10.0f);
  const SparseMatrix &labels = eg.io[1].features.GetSparseMatrix();
  CHECK(labels.NumCols() == 4);
  CHECK(labels.Row(1).Pairs()[1] == std::make_pair(3, 0.5f));
  CHECK(labels.Row(2).NumElements() == 0);

  egs.clear();
  RewriteArchive(ReadFile(dir + "ivector.egs"), true, &egs);
  REQUIRE(egs.size() == 2);
  CHECK(egs[0].io[1].name == "ivector");
  CHECK(egs[0].io[2].indexes[1] == Index(0, 3, 0));
  const std::vector<Index> &merged = egs[1].io[2].indexes;
  CHECK(merged[0] == Index(0, 200, 0));
  CHECK(merged[1] == Index(0, 201, 1));
  CHECK(merged[3] == Index(1, -300, 0));
  CHECK(GetNnetExampleSize(egs[1]) == 4);
}

TEST_CASE("NnetExample read errors", "[egs]") {
  CHECK_THROWS_AS(FromBytes("<Nnet3Eg> <NumIo> 0 </Nnet3Eg> ", false),
                  UserError);
  CHECK_THROWS_AS(FromBytes("<Nnet3Eg> <NumIo> 2000000 ", false), UserError);
  std::string bytes = ToBytes(SmallExample(), true);
  CHECK_THROWS_AS(FromBytes(bytes.substr(0, bytes.size() - 20), true),
                  UserError);
  // Two indexes but one feature row.
  CHECK_THROWS_AS(
      FromBytes("<Nnet3Eg> <NumIo> 1 <NnetIo> input <I1V> 2 <I1> 0 0 0 "
                "<I1> 0 1 0 [ 1 2 ] </NnetIo> </Nnet3Eg> ",
                false),
      UserError);
}

TEST_CASE("Egs structure and size", "[egs]") {
  NnetExample a = SmallExample(), b = SmallExample();
  b.io[0].features.Scale(2.0f);
  CHECK(SameStructure(a, b));
  CHECK(NnetExampleStructureHasher()(a) == NnetExampleStructureHasher()(b));
  CHECK_FALSE(a == b);
  b.io[0].indexes[0].t = -2;
  CHECK_FALSE(SameStructure(a, b));
  CHECK(GetNnetExampleSize(a) == 4);
}

TEST_CASE("GetComputationRequest maps io to inputs and outputs", "[egs]") {
  Nnet nnet;
  std::istringstream config(
      "input-node name=input dim=2\n"
      "component name=affine type=AffineComponent input-dim=2 output-dim=3\n"
      "component-node name=affine component=affine input=input\n"
      "output-node name=output input=affine\n");
  nnet.ReadConfig(config, "test.config");
  NnetExample eg = SmallExample();
  ComputationRequest request;
  GetComputationRequest(nnet, eg, true, true, &request);
  REQUIRE(request.inputs.size() == 1);
  REQUIRE(request.outputs.size() == 1);
  CHECK(request.inputs[0].name == "input");
  CHECK(request.inputs[0].indexes == eg.io[0].indexes);
  CHECK_FALSE(request.inputs[0].has_deriv);
  CHECK(request.outputs[0].has_deriv);
  CHECK(request.need_model_derivative);
  CHECK(request.store_component_stats);
  GetComputationRequest(nnet, eg, false, false, &request);
  CHECK_FALSE(request.outputs[0].has_deriv);

  eg.io[1].name = "output-xent";
  try {
    GetComputationRequest(nnet, eg, true, false, &request);
    FAIL("expected a UserError");
  } catch (const UserError &e) {
    std::string msg = e.what();
    CHECK(msg.find("'output-xent'") != std::string::npos);
    CHECK(msg.find("inputs [input], outputs [output]") != std::string::npos);
  }
}

}  // namespace
}  // namespace nnet3
