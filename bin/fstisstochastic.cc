// fstisstochastic: whether every state's weights sum to One (Kaldi's tool
// of the same name; lib/fstext/stochastic.h). Prints the smallest and
// largest sums and exits 0 if stochastic, 1 if not.
#include <iostream>
#include <memory>
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "fstext/kaldi-fst-io.h"
#include "fstext/stochastic.h"

namespace {

const char *const kUsage =
    "Checks whether an FST is stochastic and exits with success if so.\n"
    "Prints out maximum error (in log units).\n"
    "\n"
    "Usage:  fstisstochastic [ in.fst ]\n"
    "e.g.: fstisstochastic data/lang_test/G.fst\n"
    "See also: fstpushspecial\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    float delta = 0.01;
    bool test_in_log = true;
    po.Register("delta", &delta, "Maximum error to accept.");
    po.Register("test-in-log", &test_in_log,
                "Test stochasticity in log semiring.");
    po.Read(argc, argv);
    if (po.NumArgs() > 1) {
      po.PrintUsage();
      return 1;
    }
    std::unique_ptr<fst::Fst<fst::StdArc>> fst(
        ReadFstKaldiGeneric(po.GetOptArg(1)));
    float min_sum, max_sum;
    const bool stochastic =
        test_in_log ? IsStochasticFstInLog(*fst, delta, &min_sum, &max_sum)
                    : IsStochasticFst(*fst, delta, &min_sum, &max_sum);
    std::cout << min_sum << " " << max_sum << '\n';
    std::cout.flush();
    return stochastic ? 0 : 1;
  });
}
