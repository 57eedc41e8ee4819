// Tables of matrices and the other matrix-layer types: the golden files in
// tests/data/util (made by make-golden.py from the spec) read back and
// re-written byte for byte, compressed entries read as matrices, scp and
// ReadKaldiObject ranges, vectors, general matrices and posteriors.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "util-test-common.h"
#include "util/kaldi-io.h"
#include "util/matrix-range.h"
#include "util/table-types.h"

using namespace nnet3;
using namespace nnet3::test;

namespace {

const std::string kData = std::string(NNET3_TEST_DATA) + "/util";

// The matrices in the golden files (see make-golden.py).
const std::vector<std::pair<std::string, std::vector<std::vector<float>>>>
    kGolden = {{"mat1", {{1.0f, -2.5f, 0.125f}, {3.0f, 1000.0f, -0.5f}}},
               {"utt-2", {{0.25f}, {-8.0f}, {2.0f}, {64.0f}}}};

Matrix MakeMatrix(const std::vector<std::vector<float>> &rows) {
  Matrix m(rows.size(), rows.empty() ? 0 : rows[0].size());
  std::vector<float> flat;
  for (const auto &r : rows) flat.insert(flat.end(), r.begin(), r.end());
  m.CopyFromHost(flat);
  return m;
}

std::vector<std::vector<float>> Rows(const MatrixView &m) {
  std::vector<float> flat = m.ToHost();
  std::vector<std::vector<float>> rows(m.NumRows());
  for (int32_t r = 0; r < m.NumRows(); r++)
    rows[r].assign(flat.begin() + r * m.NumCols(),
                   flat.begin() + (r + 1) * m.NumCols());
  return rows;
}

// Changes the working directory for the life of the object (scp files hold
// relative paths).
class ChangeDir {
 public:
  explicit ChangeDir(const std::string &dir) {
    char buf[4096];
    REQUIRE(getcwd(buf, sizeof(buf)) != nullptr);
    saved_ = buf;
    REQUIRE(chdir(dir.c_str()) == 0);
  }
  ~ChangeDir() {
    if (chdir(saved_.c_str()) != 0) WARN("cannot go back to " << saved_);
  }

 private:
  std::string saved_;
};

void CheckGolden(const std::string &rspecifier) {
  INFO(rspecifier);
  SequentialBaseFloatMatrixReader reader(rspecifier);
  size_t i = 0;
  for (; !reader.Done(); reader.Next(), i++) {
    REQUIRE(i < kGolden.size());
    CHECK(reader.Key() == kGolden[i].first);
    CHECK(Rows(reader.Value()) == kGolden[i].second);
  }
  CHECK(i == kGolden.size());
  reader.Close();
}

}  // namespace

TEST_CASE("golden matrix archives read back", "[table-matrix][golden]") {
  CheckGolden("ark:" + kData + "/golden-mat.ark");
  CheckGolden("ark:" + kData + "/golden-mat-text.ark");
  ChangeDir cd(kData);
  CheckGolden("scp:golden-mat.scp");
  RandomAccessBaseFloatMatrixReader random("scp:golden-mat.scp");
  CHECK(Rows(random.Value("utt-2")) == kGolden[1].second);
  CHECK(Rows(random.Value("mat1")) == kGolden[0].second);
  CHECK(!random.HasKey("mat3"));
}

TEST_CASE("golden matrix archives re-written byte for byte",
          "[table-matrix][golden]") {
  TempDir dir;
  ChangeDir cd(dir.path());
  {
    BaseFloatMatrixWriter writer("ark,scp:golden-mat.ark,golden-mat.scp");
    BaseFloatMatrixWriter text("ark,t:golden-mat-text.ark");
    SequentialBaseFloatMatrixReader reader("ark:" + kData + "/golden-mat.ark");
    for (; !reader.Done(); reader.Next()) {
      writer.Write(reader.Key(), reader.Value());
      text.Write(reader.Key(), reader.Value());
    }
    writer.Close();
    text.Close();
  }
  for (const char *name :
       {"golden-mat.ark", "golden-mat.scp", "golden-mat-text.ark"}) {
    INFO(name);
    CHECK(ReadFile(dir / name) == ReadFile(kData + "/" + name));
  }
  // Matrices built from the numbers (not read) give the same bytes.
  {
    BaseFloatMatrixWriter writer("ark:built.ark");
    for (const auto &kv : kGolden)
      writer.Write(kv.first, MakeMatrix(kv.second));
  }
  CHECK(ReadFile(dir / "built.ark") == ReadFile(kData + "/golden-mat.ark"));
}

TEST_CASE("golden int32-vector archives", "[table-matrix][golden]") {
  TempDir dir;
  for (const char *name : {"golden-ali.ark", "golden-ali-text.ark"}) {
    INFO(name);
    bool text = std::string(name).find("text") != std::string::npos;
    {
      SequentialInt32VectorReader reader("ark:" + kData + "/" + name);
      Int32VectorWriter writer(std::string(text ? "ark,t:" : "ark:") +
                               dir / name);
      REQUIRE(!reader.Done());
      CHECK(reader.Key() == "ali1");
      CHECK(reader.Value() == std::vector<int32_t>{5, 6, 6, 7});
      for (; !reader.Done(); reader.Next())
        writer.Write(reader.Key(), reader.Value());
    }
    CHECK(ReadFile(dir / name) == ReadFile(kData + "/" + name));
  }
}

TEST_CASE("compressed entries read into a Matrix holder are decompressed",
          "[table-matrix]") {
  TempDir dir;
  Matrix m(20, 7);
  m.SetRandn(17);
  {
    CompressedMatrixWriter writer("ark:" + dir / "c.ark");
    writer.Write("big", CompressedMatrix(m));  // CM (more than 8 rows)
    writer.Write("small", CompressedMatrix(Matrix(m.RowRange(0, 3))));  // CM2
  }
  CHECK(ReadFile(dir / "c.ark").find("CM ") != std::string::npos);
  CHECK(ReadFile(dir / "c.ark").find("CM2 ") != std::string::npos);
  RandomAccessBaseFloatMatrixReader reader("ark:" + dir / "c.ark");
  CHECK(reader.Value("big").ApproxEqual(m, 0.02f));
  CHECK(reader.Value("small").ApproxEqual(Matrix(m.RowRange(0, 3)), 0.01f));
  SequentialGeneralMatrixReader general("ark:" + dir / "c.ark");
  CHECK(general.Value().Type() == GeneralMatrixType::kCompressedMatrix);
  CHECK(general.Value().NumRows() == 20);
  SequentialCompressedMatrixReader compressed("ark:" + dir / "c.ark");
  CHECK(compressed.Value().NumCols() == 7);
}

TEST_CASE("ranges in scp files and in ReadKaldiObject",
          "[table-matrix][range]") {
  TempDir dir;
  Matrix m(10, 4);
  m.SetRandn(5);
  {
    BaseFloatMatrixWriter writer("ark,scp:" + dir / "r.ark," + dir / "r.scp");
    writer.Write("m", m);
  }
  std::string scp = ReadFile(dir / "r.scp");
  std::string location = scp.substr(2, scp.size() - 3);  // "dir/r.ark:2"
  WriteFile(dir / "range.scp",
            "a " + location + "[2:5]\n" + "b " + location + "[0:9,1:2]\n" +
                "c " + location + "[8:12,:]\n" + "d " + location + "[:,3:3]\n");
  SequentialBaseFloatMatrixReader reader("scp:" + dir / "range.scp");
  CHECK(Rows(reader.Value()) == Rows(m.RowRange(2, 4)));
  reader.Next();
  CHECK(Rows(reader.Value()) == Rows(m.ColRange(1, 2)));
  reader.Next();
  CHECK(Rows(reader.Value()) == Rows(m.RowRange(8, 2)));  // clipped
  reader.Next();
  CHECK(Rows(reader.Value()) == Rows(m.ColRange(3, 1)));
  reader.Next();
  CHECK(reader.Done());

  WriteKaldiObject(m, dir / "m.mat", true);
  Matrix part;
  ReadKaldiObject(dir / "m.mat[1:1,0:1]", &part);
  CHECK(Rows(part) == Rows(m.Range(1, 1, 0, 2)));
  ReadKaldiObject(location + "[0:9]", &part);
  CHECK(Rows(part) == Rows(m));
  ExpectUserError([&] { ReadKaldiObject(dir / "m.mat[0:13]", &part); },
                  {"Invalid range [0:13]", "10 x 4", dir / "m.mat"});
  WriteFile(dir / "bad.scp", "x " + location + "[3:2]\n");
  ExpectUserError(
      [&] { SequentialBaseFloatMatrixReader r("scp:" + dir / "bad.scp"); },
      {"key 'x'", "Invalid range [3:2]"});
}

TEST_CASE("vectors and posteriors round trip", "[table-matrix]") {
  TempDir dir;
  Vector v(std::vector<float>{1.5f, -2.0f, 0.0f});
  Posterior post = {{{3, 1.0f}}, {}, {{4, 0.5f}, {7, 0.5f}}};
  for (bool binary : {true, false}) {
    std::string t = binary ? "" : ",t";
    {
      BaseFloatVectorWriter vw("ark" + t + ":" + dir / "v.ark");
      vw.Write("v1", v);
      PosteriorWriter pw("ark" + t + ":" + dir / "p.ark");
      pw.Write("p1", post);
      pw.Write("p2", Posterior());
    }
    SequentialBaseFloatVectorReader vr("ark:" + dir / "v.ark");
    CHECK(vr.Value().ToHost() == std::vector<float>{1.5f, -2.0f, 0.0f});
    RandomAccessPosteriorReader pr("ark:" + dir / "p.ark");
    CHECK(pr.Value("p1") == post);
    CHECK(pr.Value("p2").empty());
  }
  {
    BaseFloatWriter fw("ark,t:" + dir / "f.ark");
    fw.Write("a", 0.5f);
    BoolWriter bw("ark:" + dir / "b.ark");
    bw.Write("b", true);
  }
  CHECK(ReadFile(dir / "f.ark") == "a 0.5 \n");
  CHECK(RandomAccessBaseFloatReader("ark:" + dir / "f.ark").Value("a") == 0.5f);
  CHECK(SequentialBoolReader("ark:" + dir / "b.ark").Value());
}

TEST_CASE("matrix entry errors name the file and key",
          "[table-matrix][bad-input]") {
  TempDir dir;
  std::string full = ReadFile(kData + "/golden-mat.ark");
  WriteFile(dir / "t.ark", full.substr(0, full.size() - 3));
  ExpectUserError([&] { CheckGolden("ark:" + dir / "t.ark"); },
                  {"file '" + dir / "t.ark" + "'", "key 'utt-2'"});
  WriteFile(dir / "x.ark", "m1  [\n 1 2 \n 3 x ]\n");
  ExpectUserError(
      [&] { SequentialBaseFloatMatrixReader r("ark:" + dir / "x.ark"); },
      {"key 'm1'"});
}
