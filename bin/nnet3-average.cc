// nnet3-average: the weighted average of several raw nnet3 networks of the
// same structure (Kaldi's tool of the same name).
#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/text-utils.h"
#include "nnet/nnet-utils.h"
#include "nnet/nnet.h"
#include "train/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "This program averages the parameters over a number of 'raw' nnet3 "
    "neural nets.\n"
    "The weighted sum is taken over every component (ScaleNnet / AddNnet),\n"
    "so the stats of nonlinear and batch-norm components are averaged too.\n"
    "\n"
    "Usage:  nnet3-average [options] <model1> <model2> ... <modelN> "
    "<model-out>\n"
    "\n"
    "e.g.:\n"
    " nnet3-average 1.1.nnet 1.2.nnet 1.3.nnet 2.nnet\n"
    " nnet3-average --weights=0.2:0.8 a.raw b.raw avg.raw\n"
    "See also: nnet3-train, nnet3-copy\n";

// The --weights list (colon-separated, one per input, each > 0), or uniform
// weights if empty; normalized to sum to one.
std::vector<float> GetWeights(const std::string &weights_str,
                              int32_t num_inputs) {
  std::vector<float> weights;
  if (weights_str.empty()) {
    weights.assign(num_inputs, 1.0f / num_inputs);
    return weights;
  }
  double sum = 0.0;
  for (const std::string &field : nnet3::SplitString(weights_str, ":", false)) {
    float w = 0.0f;
    if (!nnet3::ConvertStringToReal(field, &w) || !(w > 0.0f))
      NNET3_ERR << "--weights=" << weights_str << ": '" << field
                << "' is not a positive number";
    weights.push_back(w);
    sum += w;
  }
  if (static_cast<int32_t>(weights.size()) != num_inputs)
    NNET3_ERR << "--weights option must be a colon-separated list with "
              << num_inputs << " elements, got: " << weights_str;
  if (std::abs(sum - 1.0) > 0.01)
    NNET3_WARN << "Normalizing weights to sum to one, sum was " << sum;
  for (float &w : weights) w = static_cast<float>(w / sum);
  return weights;
}

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary_write = true;
    std::string weights_str;
    int32_t num_threads = -1;
    po.Register("binary", &binary_write, "Write output in binary mode");
    po.Register("weights", &weights_str,
                "Colon-separated list of weights, one for each input model. "
                "These will be normalized to sum to one.");
    po.Register("num-threads", &num_threads,
                "Accepted for compatibility; the models are read one at a "
                "time");
    po.Read(argc, argv);
    if (po.NumArgs() < 2) {
      po.PrintUsage();
      return 1;
    }
    const int32_t num_inputs = po.NumArgs() - 1;
    const std::string nnet_wxfilename = po.GetArg(po.NumArgs());
    const std::vector<float> weights = GetWeights(weights_str, num_inputs);
    Nnet nnet;
    ReadNnetFromRawOrAm(po.GetArg(1), &nnet);
    ScaleNnet(weights[0], &nnet);
    for (int32_t i = 2; i <= num_inputs; ++i) {
      Nnet src;
      ReadNnetFromRawOrAm(po.GetArg(i), &src);
      AddNnet(src, weights[i - 1], &nnet);
    }
    WriteKaldiObject(nnet, nnet_wxfilename, binary_write);
    NNET3_LOG << "Averaged parameters of " << num_inputs
              << " neural nets, and wrote to "
              << PrintableWxfilename(nnet_wxfilename);
    return 0;
  });
}
