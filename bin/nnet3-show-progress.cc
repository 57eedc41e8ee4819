// nnet3-show-progress: how two raw networks differ, per updatable component,
// and (given egs) which components' changes improved the objective
// (Kaldi's tool of the same name).
#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "compile/nnet-context.h"
#include "device/device.h"
#include "nnet/nnet-utils.h"
#include "nnet/nnet.h"
#include "compute/am-nnet-simple.h"
#include "train/nnet-diagnostics.h"
#include "train/nnet-example.h"
#include "train/nnet-training-utils.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Given an old and a new 'raw' nnet3 network and some training examples\n"
    "(possibly held-out), show the average objective function given the\n"
    "mean of the two networks, and the breakdown by component of why this\n"
    "happened (computed from derivative information). Also shows parameter\n"
    "differences per layer. If training examples not provided, only shows\n"
    "parameter differences per layer.\n"
    "\n"
    "Usage:  nnet3-show-progress [options] <old-net-in> <new-net-in> "
    "[<training-examples-in>]\n"
    "e.g.: nnet3-show-progress 1.nnet 2.nnet ark:valid.egs\n"
    "See also: nnet3-compute-prob, nnet3-train\n";

using nnet3::Nnet;

// Logs the objf change per component along the line from nnet1 to nnet2,
// from the gradients at the midpoints of num_segments segments.
void ShowObjfChange(const nnet3::NnetComputeProbOptions &opts,
                    int32_t num_segments, const std::string &egs_rspecifier,
                    const Nnet &nnet1, const Nnet &nnet2) {
  using namespace nnet3;
  std::vector<NnetExample> examples;
  SequentialNnetExampleReader example_reader(egs_rspecifier);
  for (; !example_reader.Done(); example_reader.Next())
    examples.push_back(example_reader.Value());
  if (examples.empty())
    NNET3_ERR << "No examples were read from '" << egs_rspecifier << "'";
  std::vector<double> diff(NumUpdatableComponents(nnet1), 0.0);
  for (int32_t s = 0; s < num_segments; ++s) {
    const float middle = (s + 0.5f) / num_segments;
    Nnet interp_nnet(nnet2);
    ScaleNnet(middle, &interp_nnet);
    AddNnet(nnet1, 1.0f - middle, &interp_nnet);
    NnetComputeProb prob_computer(opts, interp_nnet);
    for (const NnetExample &eg : examples) prob_computer.Compute(eg);
    const SimpleObjectiveInfo *info = prob_computer.GetObjective("output");
    if (info == nullptr || info->tot_weight == 0.0)
      NNET3_ERR << "The examples have no weight for the output 'output'";
    NNET3_LOG << "At position " << middle << ", objf per frame is "
              << info->tot_objective / info->tot_weight;
    std::vector<double> old_dot, new_dot;
    ComponentDotProducts(prob_computer.GetDeriv(), nnet1, &old_dot);
    ComponentDotProducts(prob_computer.GetDeriv(), nnet2, &new_dot);
    for (size_t i = 0; i < diff.size(); ++i)
      diff[i] += (new_dot[i] - old_dot[i]) / info->tot_weight / num_segments;
    NNET3_VLOG(1) << "By segment " << s << ", objf change is "
                  << PrintVectorPerUpdatableComponent(nnet1, diff);
  }
  NNET3_LOG << "Total objf change per component is "
            << PrintVectorPerUpdatableComponent(nnet1, diff);
}

// Logs the parameter differences, norms and relative differences.
void ShowParameterChange(const Nnet &nnet1, const Nnet &nnet2) {
  using namespace nnet3;
  Nnet diff_nnet(nnet1);
  AddNnet(nnet2, -1.0f, &diff_nnet);
  NNET3_VLOG(1) << "Printing info for the difference between the neural "
                << "nets: " << diff_nnet.Info();
  std::vector<double> diff_norm, old_norm, new_norm;
  ComponentDotProducts(diff_nnet, diff_nnet, &diff_norm);
  ComponentDotProducts(nnet1, nnet1, &old_norm);
  ComponentDotProducts(nnet2, nnet2, &new_norm);
  for (std::vector<double> *v : {&diff_norm, &old_norm, &new_norm})
    for (double &x : *v) x = std::sqrt(x);
  NNET3_LOG << "Parameter differences per layer are "
            << PrintVectorPerUpdatableComponent(nnet1, diff_norm);
  NNET3_LOG << "Norms of parameter matrices from <new-nnet-in> are "
            << PrintVectorPerUpdatableComponent(nnet2, new_norm);
  for (size_t i = 0; i < diff_norm.size(); ++i) diff_norm[i] /= old_norm[i];
  NNET3_LOG << "Relative parameter differences per layer are "
            << PrintVectorPerUpdatableComponent(nnet1, diff_norm);
}

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    int32_t num_segments = 1;
    DeviceOptions device_opts;
    NnetComputeProbOptions compute_prob_opts;
    compute_prob_opts.compute_deriv = true;
    po.Register("num-segments", &num_segments,
                "Number of line segments used for computing derivatives");
    device_opts.Register(&po);
    compute_prob_opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() < 2 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    if (num_segments <= 0)
      NNET3_ERR << "--num-segments must be positive, got " << num_segments;
    SelectDevice(device_opts);
    Nnet nnet1, nnet2;
    ReadNnetFromRawOrAm(po.GetArg(1), &nnet1);
    ReadNnetFromRawOrAm(po.GetArg(2), &nnet2);
    if (NumParameters(nnet1) != NumParameters(nnet2)) {
      NNET3_WARN << "Parameter-dim mismatch, cannot show progress.";
      return 0;
    }
    const std::string examples_rspecifier = po.GetOptArg(3);
    if (!examples_rspecifier.empty() && IsSimpleNnet(nnet1))
      ShowObjfChange(compute_prob_opts, num_segments, examples_rspecifier,
                     nnet1, nnet2);
    ShowParameterChange(nnet1, nnet2);
    return 0;
  });
}
