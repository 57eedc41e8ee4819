// matrix-sum-rows: the sum of the rows of each matrix of a table, as a table
// of vectors (Kaldi's tool of the same name).
#include <cstdint>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "matrix/vector.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Sum the rows of an input table of matrices and output the "
    "corresponding\n"
    "table of vectors\n"
    "\n"
    "Usage: matrix-sum-rows [options] <matrix-rspecifier> "
    "<vector-wspecifier>\n"
    "e.g.: matrix-sum-rows ark:- ark:- | vector-sum ark:- sum.vec\n"
    "See also: vector-sum, copy-matrix\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SequentialBaseFloatMatrixReader mat_reader(po.GetArg(1));
    BaseFloatVectorWriter vec_writer(po.GetArg(2));
    int64_t num_done = 0, num_rows_done = 0;
    for (; !mat_reader.Done(); mat_reader.Next()) {
      const Matrix &mat = mat_reader.Value();
      Vector sum(mat.NumCols(), ResizeType::kSetZero, mat.device());
      sum.AddRowSumMat(1.0f, mat, 0.0f);
      vec_writer.Write(mat_reader.Key(), sum);
      num_done++;
      num_rows_done += mat.NumRows();
    }
    vec_writer.Close();
    NNET3_LOG << "Summed rows " << num_done << " matrices, " << num_rows_done
              << " rows in total.";
    return num_done != 0 ? 0 : 1;
  });
}
