#include "nnet/nnet-average.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <thread>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"
#include "nnet/nnet-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {

std::vector<float> ParseAverageWeights(const std::string &weights_str,
                                       int32_t num_models) {
  NNET3_ASSERT(num_models >= 1);
  if (weights_str.empty())
    return std::vector<float>(num_models, 1.0f / num_models);
  std::vector<float> weights;
  double sum = 0.0;
  for (const std::string &field : SplitString(weights_str, ":", false)) {
    float w = 0.0f;
    if (!ConvertStringToReal(field, &w) || !(w > 0.0f))
      NNET3_ERR << "--weights=" << weights_str << ": '" << field
                << "' is not a positive number";
    weights.push_back(w);
    sum += w;
  }
  if (static_cast<int32_t>(weights.size()) != num_models)
    NNET3_ERR << "--weights option must be a colon-separated list with "
              << num_models << " elements, got: " << weights_str;
  if (std::abs(sum - 1.0) > 0.01)
    NNET3_WARN << "Normalizing weights to sum to one, sum was " << sum;
  for (float &w : weights) w = static_cast<float>(w / sum);
  return weights;
}

int32_t NumAverageThreads(int32_t num_threads, int32_t num_models) {
  if (num_threads <= 0)
    num_threads = num_models > 10 ? 3 : (num_models > 5 ? 2 : 1);
  if (num_threads > 1 && num_threads * 2 > num_models)
    num_threads = std::max(1, num_models / 2);
  return num_threads;
}

namespace {

// Sums weights[i] * model i for i = first, first + step, ... into *sum.
void SumEveryNth(const std::vector<std::string> &rxfilenames,
                 const std::vector<float> &weights, size_t first, size_t step,
                 const NnetFileReader &read, Nnet *sum) {
  read(rxfilenames[first], sum);
  ScaleNnet(weights[first], sum);
  for (size_t i = first + step; i < rxfilenames.size(); i += step) {
    Nnet nnet;
    read(rxfilenames[i], &nnet);
    try {
      AddNnet(nnet, weights[i], sum);
    } catch (const UserError &e) {
      throw UserError("Averaging '" + rxfilenames[i] + "' with '" +
                          rxfilenames[first] + "': " + e.what(),
                      e.where());
    }
  }
}

}  // namespace

void AverageNnetFiles(const std::vector<std::string> &rxfilenames,
                      const std::vector<float> &weights, int32_t num_threads,
                      Nnet *average, const NnetFileReader &reader) {
  const NnetFileReader read =
      reader ? reader : [](const std::string &rxfilename, Nnet *nnet) {
        ReadKaldiObject(rxfilename, nnet);
      };
  NNET3_ASSERT(!rxfilenames.empty() && weights.size() == rxfilenames.size() &&
               num_threads >= 1);
  const size_t n = std::min<size_t>(num_threads, rxfilenames.size());
  NNET3_VLOG(1) << "Reading " << rxfilenames.size() << " models with " << n
                << " thread(s)";
  std::vector<Nnet> sums(n);
  std::vector<std::exception_ptr> errors(n);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < n; t++)
    threads.emplace_back([&, t]() {
      try {
        SumEveryNth(rxfilenames, weights, t, n, read, &sums[t]);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  for (std::thread &thread : threads) thread.join();
  for (const std::exception_ptr &e : errors)
    if (e) std::rethrow_exception(e);
  for (size_t t = 1; t < n; t++) {
    try {
      AddNnet(sums[t], 1.0f, &sums[0]);
    } catch (const UserError &e) {
      throw UserError("Averaging '" + rxfilenames[t] + "' with '" +
                          rxfilenames[0] + "': " + e.what(),
                      e.where());
    }
  }
  average->Swap(&sums[0]);
}

}  // namespace nnet3
