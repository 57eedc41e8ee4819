// Fuzz target: single matrix-like objects in Kaldi's formats (reference 4):
// full matrices and vectors (FM/DM/FV/DV and text), compressed matrices
// (CM/CM2/CM3), sparse vectors and matrices (SV/SM), GeneralMatrix (any of
// these) and posteriors. The same bytes go to every reader; each must
// either read an object or throw UserError. An accepted object must write
// and read back to the same bytes (binary).
#include <sstream>
#include <string>
#include <vector>

#include "base/io-funcs.h"
#include "fuzz-common.h"
#include "matrix/compressed-matrix.h"
#include "matrix/general-matrix.h"
#include "matrix/matrix-io.h"
#include "matrix/matrix.h"
#include "matrix/posterior.h"
#include "matrix/sparse-matrix.h"
#include "matrix/vector.h"

namespace {

// Reads T from the bytes; if accepted, checks the binary round trip.
template <class T>
void TryObject(const std::string &bytes, const char *what) {
  using namespace nnet3;
  std::istringstream is(bytes);
  fuzz::RunExpectingUserError([&]() {
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    T obj;
    obj.Read(is, binary);
    std::ostringstream os1;
    obj.Write(os1, true);
    T again;
    std::istringstream is2(os1.str());
    try {
      again.Read(is2, true);
    } catch (const UserError &e) {
      fuzz::Fail(std::string("reading back an accepted ") + what + ": " +
                 e.what());
    }
    std::ostringstream os2;
    again.Write(os2, true);
    if (os1.str() != os2.str())
      fuzz::Fail(std::string("binary round trip of an accepted ") + what +
                 " differs");
  });
}

void TryOthers(const std::string &bytes) {
  using namespace nnet3;
  fuzz::RunExpectingUserError([&]() {
    std::istringstream is(bytes);
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    Posterior post;
    ReadPosterior(is, binary, &post);
    std::ostringstream os;
    WritePosterior(os, binary, post);
  });
  fuzz::RunExpectingUserError([&]() {
    std::istringstream is(bytes);
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    std::vector<double> v;
    matrix_io::ReadDoubleVector(is, binary, &v);
  });
  fuzz::RunExpectingUserError([&]() {
    std::istringstream is(bytes);
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    std::vector<double> m;
    int32_t rows = 0, cols = 0;
    matrix_io::ReadDoubleMatrix(is, binary, &m, &rows, &cols);
  });
  fuzz::RunExpectingUserError([&]() {
    std::istringstream is(bytes);
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    GeneralMatrix gm;
    gm.Read(is, binary);
    Matrix full;
    gm.GetMatrix(&full);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  std::string bytes = fuzz::AsString(data, size);
  TryObject<Matrix>(bytes, "matrix");
  TryObject<Vector>(bytes, "vector");
  TryObject<CompressedMatrix>(bytes, "compressed matrix");
  TryObject<SparseVector>(bytes, "sparse vector");
  TryObject<SparseMatrix>(bytes, "sparse matrix");
  TryObject<GeneralMatrix>(bytes, "general matrix");
  TryOthers(bytes);
  return 0;
}
