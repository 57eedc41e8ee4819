// Fuzz target: archives ("ark:", reference 5.4) of the types programs read
// from users: matrices (full, compressed and sparse, through GeneralMatrix
// and Matrix holders), posteriors, integer vectors (alignments) and
// integers, read sequentially and by key. The archive is an in-memory file
// opened by path, as a program opens ark:FILE.
#include <string>

#include "fuzz-common.h"
#include "matrix/general-matrix.h"
#include "matrix/matrix.h"
#include "util/table-reader.h"
#include "util/table-types.h"

namespace {

template <class Reader>
void ReadAll(const std::string &rspecifier) {
  nnet3::fuzz::RunExpectingUserError([&]() {
    Reader reader(rspecifier);
    for (; !reader.Done(); reader.Next()) (void)reader.Value();
    reader.Close();
  });
}

template <class Reader>
void LookUp(const std::string &rspecifier) {
  nnet3::fuzz::RunExpectingUserError([&]() {
    Reader reader(rspecifier);
    for (const char *key : {"mat1", "utt-2", "ali1", "zzz"})
      if (reader.HasKey(key)) (void)reader.Value(key);
    reader.Close();
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  fuzz::MemFile file(data, size);
  const std::string ark = "ark:" + file.Path();
  ReadAll<SequentialGeneralMatrixReader>(ark);
  ReadAll<SequentialBaseFloatMatrixReader>(ark);
  ReadAll<SequentialPosteriorReader>(ark);
  ReadAll<SequentialInt32VectorReader>(ark);
  ReadAll<SequentialInt32Reader>(ark);
  LookUp<RandomAccessGeneralMatrixReader>(ark);
  LookUp<RandomAccessInt32VectorReader>("ark,s,cs:" + file.Path());
  return 0;
}
