// AmNnetSimple and the .mdl helpers: golden models (make-golden-mdl.py)
// read and re-written byte for byte; a hand-built model (a network from a
// config, a golden transition model, priors) round-tripped through binary
// and text; the nnet part of a .mdl for raw-nnet programs; the priors for
// --use-priors and nnet3-am-adjust-priors; and bad input.
#include "compute/am-nnet-simple.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"
#include "compute-test-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace {

std::string GoldenPath(const std::string &name) {
  return std::string(NNET3_TEST_DATA) + "/train/" + name;
}

Matrix OneRow(const std::vector<float> &values) {
  Matrix m(1, static_cast<int32_t>(values.size()), ResizeType::kSetZero,
           CpuDevice());
  for (size_t c = 0; c < values.size(); c++)
    m.Set(0, static_cast<int32_t>(c), values[c]);
  return m;
}

std::string ReadFileBytes(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  REQUIRE(is.good());
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

std::string WriteToString(const TransitionModel &tm, const AmNnetSimple &am,
                          bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  tm.Write(os, binary);
  am.Write(os, binary);
  return os.str();
}

void ReadFromString(const std::string &bytes, TransitionModel *tm,
                    AmNnetSimple *am) {
  std::istringstream is(bytes);
  bool binary = false;
  if (!InitKaldiInputStream(is, &binary)) NNET3_ERR << "bad binary header";
  tm->Read(is, binary);
  am->Read(is, binary);
}

// A temporary file that is removed at the end of the scope.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string &bytes) {
    char name[] = "/tmp/am-nnet-test-XXXXXX";
    int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    path = name;
    FILE *f = fdopen(fd, "wb");
    fwrite(bytes.data(), 1, bytes.size(), f);
    fclose(f);
  }
  ~TempFile() { std::remove(path.c_str()); }
};

const char *const kConfig =
    "input-node name=input dim=4\n"
    "component name=affine type=AffineComponent input-dim=12 output-dim=6\n"
    "component-node name=affine component=affine "
    "input=Append(Offset(input, -2), input, Offset(input, 1))\n"
    "component name=sm type=LogSoftmaxComponent dim=6\n"
    "component-node name=sm component=sm input=affine\n"
    "output-node name=output input=sm\n";

}  // namespace

TEST_CASE("Golden acoustic models round-trip byte for byte", "[mdl]") {
  for (const char *name : {"hmm.mdl", "chain.mdl"}) {
    INFO(name);
    const std::string bin = ReadFileBytes(GoldenPath(name)),
                      text =
                          ReadFileBytes(GoldenPath(std::string(name) + ".txt"));
    TransitionModel tm;
    AmNnetSimple am;
    ReadFromString(bin, &tm, &am);
    CHECK(WriteToString(tm, am, true) == bin);
    CHECK(WriteToString(tm, am, false) == text);
    TransitionModel tm2;
    AmNnetSimple am2;
    ReadFromString(text, &tm2, &am2);
    CHECK(WriteToString(tm2, am2, true) == bin);
  }
  TransitionModel tm;
  AmNnetSimple am;
  ReadAmNnet(GoldenPath("hmm.mdl"), &tm, &am);
  CHECK(am.NumPdfs() == 6);
  CHECK(am.LeftContext() == 1);
  CHECK(am.RightContext() == 1);
  CHECK(am.Priors().ToHost() ==
        std::vector<float>{0.0625f, 0.125f, 0.25f, 0.3125f, 0.1875f, 0.0625f});
  const std::string info = am.Info();
  CHECK_THAT(info, Catch::StartsWith("input-dim: 2\nivector-dim: -1\n"
                                     "num-pdfs: 6\nprior-dimension: 6\n"
                                     "prior-sum: 1\nprior-min: 0.0625\n"
                                     "prior-max: 0.3125\n"
                                     "# Nnet info follows.\n"
                                     "left-context: 1\nright-context: 1\n"
                                     "num-parameters: 42\n"));
}

TEST_CASE("A hand-built acoustic model round-trips", "[mdl]") {
  TransitionModel tm;
  AmNnetSimple golden;
  ReadAmNnet(GoldenPath("hmm.mdl"), &tm, &golden);
  AmNnetSimple am(NnetFromConfigText(kConfig));
  CHECK(am.LeftContext() == 2);
  CHECK(am.RightContext() == 1);
  CHECK(am.Priors().Dim() == 0);
  am.SetPriors(Vector(
      std::vector<float>{0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.03125f},
      CpuDevice()));
  for (bool binary : {true, false}) {
    INFO("binary " << binary);
    const std::string bytes = WriteToString(tm, am, binary);
    TransitionModel tm2;
    AmNnetSimple am2;
    ReadFromString(bytes, &tm2, &am2);
    CHECK(tm2 == tm);
    CHECK(am2.Priors().ToHost() == am.Priors().ToHost());
    CHECK(WriteToString(tm2, am2, binary) == bytes);
    // (Text keeps 7 digits of the random parameters: only binary is exact.)
    if (binary)
      CHECK(WriteToString(tm2, am2, false) == WriteToString(tm, am, false));
  }
  // Through files, as the programs write them.
  TempFile out("");
  WriteAmNnet(tm, am, out.path, true);
  TransitionModel tm3;
  AmNnetSimple am3;
  ReadAmNnet(out.path, &tm3, &am3);
  CHECK(WriteToString(tm3, am3, true) == ReadFileBytes(out.path));
  // A new nnet of another output dimension drops the priors.
  Nnet smaller = NnetFromConfigText(
      "input-node name=input dim=4\n"
      "component name=affine type=AffineComponent input-dim=4 output-dim=5\n"
      "component-node name=affine component=affine input=input\n"
      "output-node name=output input=affine\n");
  am.SetNnet(smaller);
  CHECK(am.Priors().Dim() == 0);
  CHECK(am.LeftContext() == 0);
  CHECK_THROWS_WITH(am.SetPriors(Vector(std::vector<float>{1, 2}, CpuDevice())),
                    Catch::Contains("priors have dim 2, model expects 5"));
}

TEST_CASE("Raw-nnet readers take the network of a .mdl", "[mdl]") {
  Nnet from_mdl, from_raw;
  ReadNnetFromRawOrAm(GoldenPath("hmm.mdl"), &from_mdl);
  ReadNnetFromRawOrAm(GoldenPath("nnet.raw.txt"), &from_raw);
  std::ostringstream a, b;
  from_mdl.Write(a, false);
  from_raw.Write(b, false);
  CHECK(a.str() == b.str());
  CHECK(a.str() == ReadFileBytes(GoldenPath("nnet.raw.txt")));
  // A transition model from the front of a GMM model file.
  TransitionModel tm;
  ReadTransitionModel(GoldenPath("gmm-front.mdl"), &tm);
  CHECK(tm.NumPdfs() == 6);
  CHECK_THROWS_WITH(ReadTransitionModel(GoldenPath("nnet.raw.txt"), &tm),
                    Catch::Contains("does not start with <TransitionModel>"));
  AmNnetSimple am;
  CHECK_THROWS_WITH(
      ReadAmNnet(GoldenPath("nnet.raw.txt"), &tm, &am),
      Catch::Contains("nnet.raw.txt") && Catch::Contains("nnet3-am-init"));
}

TEST_CASE("--use-priors: log-probabilities minus log-priors", "[mdl]") {
  Nnet nnet;
  Vector log_priors;
  ReadNnetAndLogPriors(GoldenPath("hmm.mdl"), true, &nnet, &log_priors);
  REQUIRE(log_priors.Dim() == 6);
  CHECK(log_priors.Get(0) == Approx(std::log(0.0625)));
  CHECK(log_priors.Get(3) == Approx(std::log(0.3125)));
  // (log-prob - log-prior) * scale, with output holding scale * log-prob.
  const float scale = 0.5f;
  Matrix output = OneRow({-1, -2, -3, -4, -5, -6});
  output.Scale(scale);
  SubtractLogPriors(log_priors, scale, &output);
  const std::vector<double> priors = {0.0625, 0.125,  0.25,
                                      0.3125, 0.1875, 0.0625};
  for (int32_t i = 0; i < 6; i++)
    CHECK(output.Get(0, i) ==
          Approx((-(i + 1) - std::log(priors[i])) * scale).epsilon(1e-6));
  Matrix wrong = OneRow({1, 2, 3});
  CHECK_THROWS_WITH(
      SubtractLogPriors(log_priors, 1.0f, &wrong),
      Catch::Contains("dimension 6") && Catch::Contains("3 columns"));
  // A model without priors: nothing to subtract.
  ReadNnetAndLogPriors(GoldenPath("chain.mdl"), true, &nnet, &log_priors);
  CHECK(log_priors.Dim() == 0);
  SubtractLogPriors(log_priors, 1.0f, &wrong);
  CHECK(wrong.Get(0, 2) == 3.0f);
  // Without --use-priors any model will do; with it, a raw one will not.
  ReadNnetAndLogPriors(GoldenPath("nnet.raw.txt"), false, &nnet, &log_priors);
  CHECK(log_priors.Dim() == 0);
  CHECK_THROWS_WITH(ReadNnetAndLogPriors(GoldenPath("nnet.raw.txt"), true,
                                         &nnet, &log_priors),
                    Catch::Contains("--use-priors needs an acoustic model"));
}

TEST_CASE("AdjustPriors normalizes the summed posteriors", "[mdl]") {
  TransitionModel tm;
  AmNnetSimple am;
  ReadAmNnet(GoldenPath("hmm.mdl"), &tm, &am);
  AdjustPriors(Vector(std::vector<float>{1, 2, 3, 4, 5, 5}, CpuDevice()), &am);
  CHECK(am.Priors().ToHost() ==
        std::vector<float>{0.05f, 0.1f, 0.15f, 0.2f, 0.25f, 0.25f});
  CHECK_THROWS_WITH(
      AdjustPriors(Vector(std::vector<float>{0, 0, 0, 0, 0, 0}, CpuDevice()),
                   &am),
      Catch::Contains("must be positive"));
  CHECK_THROWS_WITH(
      AdjustPriors(Vector(std::vector<float>{1, 2}, CpuDevice()), &am),
      Catch::Contains("dimension 2") && Catch::Contains("6 pdfs"));
}

TEST_CASE("Malformed acoustic models are one-line UserErrors", "[mdl]") {
  const std::string text = ReadFileBytes(GoldenPath("hmm.mdl.txt"));
  auto read_error = [](const std::string &bytes) -> std::string {
    try {
      TransitionModel tm;
      AmNnetSimple am;
      ReadFromString(bytes, &tm, &am);
    } catch (const UserError &e) {
      return e.what();
    }
    return "<no error>";
  };
  auto with = [&](const std::string &from, const std::string &to) {
    std::string s = text;
    size_t pos = s.find(from);
    REQUIRE(pos != std::string::npos);
    return s.replace(pos, from.size(), to);
  };
  CHECK_THAT(read_error(with("0.1875 0.0625 ]", "0.1875 ]")),
             Catch::Contains("<Priors> have dimension 5") &&
                 Catch::Contains("output has dimension 6"));
  CHECK_THAT(read_error(with("<LeftContext>", "<LeftCtx>")),
             Catch::Contains("<LeftContext>"));
  // A network that is not simple (no "output" node).
  CHECK_THAT(
      read_error(with("output-node name=output", "output-node name=out")),
      Catch::Contains("simple network"));
  const std::string bin = ReadFileBytes(GoldenPath("hmm.mdl"));
  for (const std::string &bytes : {text, bin})
    for (size_t len = 0; len + 1 < bytes.size(); len += 1 + len / 20) {
      INFO("truncated to " << len << " bytes");
      CHECK(read_error(bytes.substr(0, len)) != "<no error>");
    }
}

}  // namespace nnet3
