// nnet3-compute-from-egs: the network's output for the inputs of each eg,
// as a table of matrices (Kaldi's tool of the same name; used by Kaldi's
// scripts to average the posteriors for priors).
#include <cstdint>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "device/device.h"
#include "nnet/nnet.h"
#include "train/nnet-compute-from-eg.h"
#include "train/nnet-example.h"
#include "util/kaldi-io.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Read input nnet training examples, and compute the output for each "
    "one.\n"
    "If --apply-exp=true, apply the Exp() function to the output before "
    "writing\n"
    "it out.\n"
    "\n"
    "Usage:  nnet3-compute-from-egs [options] <raw-nnet-in> "
    "<training-examples-in> <matrices-out>\n"
    "e.g.:\n"
    "nnet3-compute-from-egs --apply-exp=true 0.raw ark:1.egs ark:- | "
    "matrix-sum-rows ark:- ... \n"
    "See also: nnet3-compute, matrix-sum-rows\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary_write = true, apply_exp = false;
    std::string output_name = "output";
    DeviceOptions device_opts;
    po.Register("binary", &binary_write, "Write output in binary mode");
    po.Register("apply-exp", &apply_exp,
                "If true, apply exp function to output");
    po.Register("output-name", &output_name,
                "Do computation for specified output-node");
    device_opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    SelectDevice(device_opts);
    Nnet nnet;
    ReadKaldiObject(po.GetArg(1), &nnet);
    NnetComputerFromEg computer(nnet);
    SequentialNnetExampleReader example_reader(po.GetArg(2));
    BaseFloatMatrixWriter matrix_writer(po.GetArg(3));
    int64_t num_egs = 0;
    for (; !example_reader.Done(); example_reader.Next(), num_egs++) {
      Matrix output;
      computer.Compute(example_reader.Value(), output_name, &output);
      if (apply_exp) output.ApplyFunc(Func::kExp);
      matrix_writer.Write(example_reader.Key(), output);
    }
    matrix_writer.Close();
    NNET3_LOG << "Processed " << num_egs << " examples.";
    return 0;
  });
}
