// vector-sum: sums vectors key by key across tables, over one table, or over
// single files (Kaldi's tool of the same name, its three usages).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "matrix/vector.h"
#include "util/kaldi-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Add vectors (e.g. weights, transition-accs; speaker vectors)\n"
    "If you need to scale the inputs, use vector-scale on the inputs\n"
    "\n"
    "Type one usage:\n"
    " vector-sum [options] <vector-in-rspecifier1> [<vector-in-rspecifier2>"
    " <vector-in-rspecifier3> ...] <vector-out-wspecifier>\n"
    "  e.g.: vector-sum ark:1.weights ark:2.weights ark:combine.weights\n"
    "Type two usage (sums a single table input to produce a single output):\n"
    " vector-sum [options] <vector-in-rspecifier> <vector-out-wxfilename>\n"
    " e.g.: vector-sum --binary=false vecs.ark sum.vec\n"
    "Type three usage (sums single-file inputs to produce a single output):\n"
    " vector-sum [options] <vector-in-rxfilename1> <vector-in-rxfilename2> ..."
    " <vector-out-wxfilename>\n"
    " e.g.: vector-sum --binary=false 1.vec 2.vec 3.vec sum.vec\n"
    "See also: matrix-sum-rows\n";

using namespace nnet3;

// Key by key: the first table's vectors plus those of the same key in the
// others (missing keys and dimension mismatches are warned about).
int SumTables(const OptionsRegistry &po) {
  const int n = po.NumArgs();
  SequentialBaseFloatVectorReader reader1(po.GetArg(1));
  std::vector<std::unique_ptr<RandomAccessBaseFloatVectorReader>> others;
  for (int i = 2; i < n; i++)
    others.push_back(
        std::make_unique<RandomAccessBaseFloatVectorReader>(po.GetArg(i)));
  BaseFloatVectorWriter writer(po.GetArg(n));
  int64_t num_utts = 0, num_vectors = 0, num_success = 0, num_missing = 0;
  for (; !reader1.Done(); reader1.Next()) {
    const std::string key = reader1.Key();
    Vector sum(reader1.Value());
    num_utts++;
    num_vectors++;
    for (size_t i = 0; i < others.size(); i++) {
      if (!others[i]->HasKey(key)) {
        NNET3_WARN << "No vector found for utterance " << key << " for system "
                   << i + 2
                   << ", rspecifier: " << po.GetArg(static_cast<int>(i) + 2);
        num_missing++;
        continue;
      }
      const Vector &v = others[i]->Value(key);
      num_vectors++;
      if (v.Dim() == sum.Dim())
        sum.AddVec(1.0f, v);
      else
        NNET3_WARN << "Dimension mismatch for utterance " << key << " : "
                   << v.Dim() << " for system " << i + 2 << " vs " << sum.Dim()
                   << " for the primary vector";
    }
    writer.Write(key, sum);
    num_success++;
  }
  writer.Close();
  NNET3_LOG << "Processed " << num_utts << " utterances: with a total of "
            << num_vectors << " vectors across " << n - 1
            << " different systems";
  NNET3_LOG << "Produced output for " << num_success << " utterances; "
            << num_missing << " total missing vectors";
  return (num_success != 0 && num_missing < num_success - num_missing) ? 0 : 1;
}

// The sum (or average) of all vectors of one table, to one file.
int SumOneTable(const OptionsRegistry &po, bool binary, bool average) {
  SequentialBaseFloatVectorReader reader(po.GetArg(1));
  Vector sum;
  int64_t num_done = 0, num_err = 0;
  for (; !reader.Done(); reader.Next()) {
    const Vector &v = reader.Value();
    if (v.Dim() == 0) {
      NNET3_WARN << "Zero vector input for key " << reader.Key();
      num_err++;
      continue;
    }
    if (sum.Dim() == 0) sum.Resize(v.Dim());
    const bool ok = sum.Dim() == v.Dim();
    if (ok) sum.AddVec(1.0f, v);
    if (!ok)
      NNET3_WARN << "Dimension mismatch for key " << reader.Key() << ": "
                 << v.Dim() << " vs. " << sum.Dim();
    (ok ? num_done : num_err)++;
  }
  if (num_done > 0 && average) sum.Scale(1.0f / num_done);
  WriteKaldiObject(sum, po.GetArg(2), binary);
  NNET3_LOG << "Summed " << num_done << " vectors, " << num_err
            << " with errors; wrote sum to "
            << PrintableWxfilename(po.GetArg(2));
  return (num_done > 0 && num_err < num_done) ? 0 : 1;
}

// The sum of single-file vectors (shorter ones are zero-padded).
int SumFiles(const OptionsRegistry &po, bool binary) {
  const int n = po.NumArgs();
  Vector sum;
  for (int i = 1; i < n; i++) {
    if (IsRspecifier(po.GetArg(i)))
      NNET3_ERR << "Wrong usage (type 3): if first and last arguments are "
                << "not tables, the intermediate arguments must not be tables";
    Vector v;
    ReadKaldiObject(po.GetArg(i), &v);
    if (sum.Dim() < v.Dim()) sum.Resize(v.Dim(), ResizeType::kCopyData);
    sum.Range(0, v.Dim()).AddVec(1.0f, v);
  }
  WriteKaldiObject(sum, po.GetArg(n), binary);
  NNET3_LOG << "Summed " << n - 1 << " vectors; wrote sum to "
            << PrintableWxfilename(po.GetArg(n));
  return 0;
}

}  // namespace

int main(int argc, char *argv[]) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary = true, average = false;
    po.Register("binary", &binary,
                "If true, write output as binary (only relevant for usage "
                "types two or three");
    po.Register("average", &average, "Do average instead of sum");
    po.Read(argc, argv);
    const int n = po.NumArgs();
    if (n >= 2 && IsWspecifier(po.GetArg(n))) return SumTables(po);
    if (n == 2 && IsRspecifier(po.GetArg(1)))
      return SumOneTable(po, binary, average);
    if (n >= 2 && !IsRspecifier(po.GetArg(1))) return SumFiles(po, binary);
    po.PrintUsage();
    return 1;
  });
}
