// copy-feats: copies feature archives or files, optionally compressing them
// (Kaldi's tool of the same name).
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "matrix/compressed-matrix.h"
#include "matrix/matrix.h"
#include "util/kaldi-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"

namespace {

const char *kUsage =
    "Copy features [and possibly change format]\n"
    "Usage: copy-feats [options] <feature-rspecifier> <feature-wspecifier>\n"
    "or:   copy-feats [options] <feats-rxfilename> <feats-wxfilename>\n"
    "e.g.: copy-feats ark:- ark,scp:foo.ark,foo.scp\n"
    " or: copy-feats ark:foo.ark ark,t:txt.ark\n"
    "See also: copy-matrix\n";

struct CopyFeatsOptions {
  bool binary = true;
  bool compress = false;
  int32_t compression_method = 1;
  std::string num_frames_wspecifier;

  void Register(nnet3::OptionsRegistry *po) {
    po->Register("binary", &binary, "Binary-mode output (not relevant if "
                                    "writing to archive)");
    po->Register("compress", &compress,
                 "If true, write output in compressed form(only currently "
                 "supported for wxfilename, i.e. archive/script,output)");
    po->Register("compression-method", &compression_method,
                 "Only relevant if --compress=true; the method (1 through 7) "
                 "to compress the matrix: 1 automatic, 2 speech-feature, 3 "
                 "two-byte-auto, 4 two-byte-signed-integer, 5 one-byte-auto, "
                 "6 one-byte-unsigned-integer, 7 one-byte-zero-one.");
    po->Register("write-num-frames", &num_frames_wspecifier,
                 "Wspecifier to write length in frames of each utterance. "
                 "e.g. 'ark,t:utt2num_frames'.  Only applicable if writing "
                 "tables, not when this program is writing individual "
                 "files.");
  }

  nnet3::CompressionMethod Method() const {
    if (compression_method < 1 || compression_method > 7)
      NNET3_ERR << "Invalid --compression-method=" << compression_method
                << " (use 1 through 7)";
    return static_cast<nnet3::CompressionMethod>(compression_method);
  }
};

// Copies a table; returns the number of matrices copied.
int64_t CopyTable(const CopyFeatsOptions &opts, const std::string &in,
                  const std::string &out) {
  using namespace nnet3;
  SequentialBaseFloatMatrixReader reader(in);
  BaseFloatMatrixWriter writer;
  CompressedMatrixWriter compressed_writer;
  if (opts.compress)
    compressed_writer.Open(out);
  else
    writer.Open(out);
  Int32Writer num_frames_writer;
  if (!opts.num_frames_wspecifier.empty())
    num_frames_writer.Open(opts.num_frames_wspecifier);
  CompressionMethod method = opts.Method();
  int64_t num_done = 0;
  for (; !reader.Done(); reader.Next(), num_done++) {
    const Matrix &m = reader.Value();
    if (opts.compress)
      compressed_writer.Write(reader.Key(), CompressedMatrix(m, method));
    else
      writer.Write(reader.Key(), m);
    if (num_frames_writer.IsOpen())
      num_frames_writer.Write(reader.Key(), m.NumRows());
  }
  reader.Close();
  if (opts.compress)
    compressed_writer.Close();
  else
    writer.Close();
  if (num_frames_writer.IsOpen()) num_frames_writer.Close();
  return num_done;
}

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    CopyFeatsOptions opts;
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    std::string in = po.GetArg(1), out = po.GetArg(2);
    if (IsTableCopy(in, out)) {
      int64_t num_done = CopyTable(opts, in, out);
      NNET3_LOG << "Copied " << num_done << " feature matrices.";
      return num_done != 0 ? 0 : 1;
    }
    if (!opts.num_frames_wspecifier.empty())
      NNET3_ERR << "--write-num-frames works only when copying tables";
    Matrix m;
    ReadKaldiObject(in, &m);
    if (opts.compress)
      WriteKaldiObject(CompressedMatrix(m, opts.Method()), out, opts.binary);
    else
      WriteKaldiObject(m, out, opts.binary);
    NNET3_LOG << "Copied features from " << in << " to " << out;
    return 0;
  });
}
