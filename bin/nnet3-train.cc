// nnet3-train: trains a raw nnet3 network on merged egs, one SGD step per
// minibatch (Kaldi's tool of the same name; lib/train/nnet-training.h).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/timer.h"
#include "device/device.h"
#include "nnet/nnet.h"
#include "compute/am-nnet-simple.h"
#include "train/example-computation.h"
#include "train/nnet-example.h"
#include "train/nnet-training.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Train nnet3 neural network parameters with backprop and stochastic\n"
    "gradient descent.  Minibatches are to be created by nnet3-merge-egs in\n"
    "the input pipeline.  This training program is single-threaded (best to\n"
    "use it with a GPU); see nnet3-train-parallel for multi-threaded training\n"
    "that is better suited to CPUs.\n"
    "\n"
    "Usage:  nnet3-train [options] <raw-model-in> <training-examples-in> "
    "<raw-model-out>\n"
    "\n"
    "e.g.:\n"
    "  nnet3-train 1.raw 'ark:nnet3-merge-egs 1.egs ark:-|' 2.raw\n"
    "Note: --use-gpu defaults to \"no\" (see cuda-compiled for whether this\n"
    "build has the CUDA backend).\n"
    "On a terminal, a progress line (minibatches, egs/s, objective) is shown.\n"
    "See also: nnet3-merge-egs, nnet3-compute-prob, nnet3-average, "
    "nnet3-show-progress\n";

// The one-line progress display on a terminal, rewritten with '\r' at most
// every 0.2 s. It ends with '\r' so that a log line overwrites it.
class ProgressLine {
 public:
  ProgressLine() : enabled_(isatty(STDERR_FILENO) == 1) {}
  ~ProgressLine() {
    if (enabled_ && shown_) std::fprintf(stderr, "\r\033[K");
  }
  void Update(const nnet3::NnetTrainer &trainer, int64_t num_egs) {
    if (!enabled_ || last_.Elapsed() < 0.2) return;
    last_.Reset();
    double weight = 0.0, objf = 0.0;
    for (const auto &entry : trainer.ObjectiveInfo()) {
      weight += entry.second.tot_weight;
      objf += entry.second.tot_objf;
    }
    std::fprintf(stderr, "\r\033[K%d minibatches, %.1f egs/s, objective %.4f\r",
                 trainer.NumMinibatchesProcessed(),
                 num_egs / std::max(total_.Elapsed(), 1e-9),
                 weight > 0 ? objf / weight : 0.0);
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  nnet3::Timer total_, last_;
};

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary_write = true;
    int32_t srand_seed = 0;
    DeviceOptions device_opts;
    NnetTrainerOptions train_config;
    po.Register("srand", &srand_seed, "Seed for random number generator ");
    po.Register("binary", &binary_write, "Write output in binary mode");
    device_opts.Register(&po);
    train_config.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    SelectDevice(device_opts);
    const std::string nnet_rxfilename = po.GetArg(1),
                      examples_rspecifier = po.GetArg(2),
                      nnet_wxfilename = po.GetArg(3);
    Nnet nnet;
    ReadNnetFromRawOrAm(nnet_rxfilename, &nnet);
    NnetTrainer trainer(train_config, &nnet, static_cast<uint32_t>(srand_seed));
    int64_t num_egs = 0;
    {
      ProgressLine progress;
      SequentialNnetExampleReader example_reader(examples_rspecifier);
      for (; !example_reader.Done(); example_reader.Next()) {
        const NnetExample &eg = example_reader.Value();
        trainer.Train(eg);
        num_egs += GetNumNvalues(eg);
        progress.Update(trainer, num_egs);
      }
    }
    if (trainer.NumMinibatchesProcessed() == 0)
      NNET3_ERR << "No examples were read from '" << examples_rspecifier
                << "' (is the archive empty?); the model was not written";
    const bool ok = trainer.PrintTotalStats();
    WriteKaldiObject(nnet, nnet_wxfilename, binary_write);
    NNET3_LOG << "Wrote model to " << PrintableWxfilename(nnet_wxfilename);
    trainer.WriteCache();
    if (!ok)
      NNET3_WARN << "The total weight of the supervision was zero; exiting "
                    "with status 1";
    return ok ? 0 : 1;
  });
}
