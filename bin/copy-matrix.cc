// copy-matrix: copies matrices, or archives of matrices, optionally scaling
// them or applying an elementwise function (Kaldi's tool of the same name).
#include <cmath>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "matrix/matrix.h"
#include "util/kaldi-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"

namespace {

const char *kUsage =
    "Copy matrices, or archives of matrices (e.g. features or transforms).\n"
    "Also see copy-feats which has other format options.\n"
    "\n"
    "Usage: copy-matrix [options] <matrix-in-rspecifier> "
    "<matrix-out-wspecifier>\n"
    "  or: copy-matrix [options] <matrix-in-rxfilename> "
    "<matrix-out-wxfilename>\n"
    " e.g.: copy-matrix --binary=false 1.mat -\n"
    "   copy-matrix ark:2.trans ark,t:-\n"
    "See also: copy-feats\n";

struct CopyMatrixOptions {
  bool binary = true;
  float scale = 1.0f;
  bool apply_log = false;
  bool apply_exp = false;
  bool apply_softmax_per_row = false;
  float apply_power = 1.0f;

  void Register(nnet3::OptionsRegistry *po) {
    po->Register("binary", &binary,
                 "Write in binary mode (only relevant if output is a "
                 "wxfilename)");
    po->Register("scale", &scale, "This option can be used to scale the "
                                  "matrices being copied.");
    po->Register("apply-log", &apply_log,
                 "This option can be used to apply log on the matrices. "
                 "Must be avoided if matrix has negative quantities.");
    po->Register("apply-exp", &apply_exp,
                 "This option can be used to apply exp on the matrices");
    po->Register("apply-power", &apply_power,
                 "This option can be used to apply a power on the matrices");
    po->Register("apply-softmax-per-row", &apply_softmax_per_row,
                 "This option can be used to apply softmax per row of the "
                 "matrices");
  }

  // Applied in Kaldi's order: scale, log, exp, softmax, power.
  void Transform(nnet3::Matrix *m) const {
    if (scale != 1.0f) m->Scale(scale);
    if (apply_log) {
      m->ApplyFloor(1e-20f);
      m->ApplyFunc(nnet3::Func::kLog);
    }
    if (apply_exp) m->ApplyFunc(nnet3::Func::kExp);
    if (apply_softmax_per_row) m->SoftmaxRows(*m);
    if (apply_power != 1.0f) m->ApplyPow(apply_power);
  }
};

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    CopyMatrixOptions opts;
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    std::string in = po.GetArg(1), out = po.GetArg(2);
    if (!IsTableCopy(in, out)) {
      Matrix m;
      ReadKaldiObject(in, &m);
      opts.Transform(&m);
      WriteKaldiObject(m, out, opts.binary);
      NNET3_LOG << "Copied matrix to " << out;
      return 0;
    }
    SequentialBaseFloatMatrixReader reader(in);
    BaseFloatMatrixWriter writer(out);
    int64_t num_done = 0;
    for (; !reader.Done(); reader.Next(), num_done++) {
      Matrix &m = reader.Value();
      opts.Transform(&m);
      writer.Write(reader.Key(), m);
    }
    reader.Close();
    writer.Close();
    NNET3_LOG << "Copied " << num_done << " matrices.";
    return num_done != 0 ? 0 : 1;
  });
}
