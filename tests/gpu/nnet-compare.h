// The network-level comparisons of the device-equivalence suite, and the
// runs they judge: the executor on a random network and the trainer on a
// network, each on the reference CPU and on a device under test.
//
//   Comparison c = CompareTraining({"tdnn", nnet, true, "sgd"}, TestDevice());
//   ExpectAgreement("tdnn after training", c);
//
// A comparison never CHECKs by itself: it returns how many places were
// outside the tolerance, the first of them, and the closest margin, so that
// a test can expect agreement on a real device and disagreement on one
// broken on purpose (harness-test.cc), and print the margin either way.
// Training is judged by what it changed: the update of every parameter and
// statistics block (after - before) on the device under test must be
// within `rel` of the reference update, which must itself be well above
// rounding (so an optimizer that drops or scales the update fails; whole
// parameter blocks after two small steps are too close to their start for
// that).
// Models move between devices as Kaldi binary files (written on one, read
// with the other active), so both start from identical parameters.
#ifndef NNET3_TESTS_EQUIVALENCE_NNET_COMPARE_H_
#define NNET3_TESTS_EQUIVALENCE_NNET_COMPARE_H_

#include <cstdint>
#include <string>

#include "device/device.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {
namespace gpu_test {

struct Comparison {
  int64_t differences = 0;  // places outside the tolerance
  std::string first;        // the first of them
  std::string margin;       // the largest difference, against its bound
  std::string context;      // what was compared (shown with differences)
  bool Agree() const { return differences == 0; }
  // Adds another comparison's differences, naming it.
  void Merge(const std::string &what, const Comparison &other);
  std::string Describe() const;
};

// INFO with the description, then CHECK(c.Agree()).
void ExpectAgreement(const std::string &what, const Comparison &c);

// A copy of `nnet` whose matrices live on `device`.
Nnet CopyTo(const Nnet &nnet, Device &device);

// |test - ref| <= tol_rel * max|ref| + tol_abs, elementwise.
Comparison CompareMatrices(const Matrix &ref, const Matrix &test,
                           double tol_rel, double tol_abs);

// The two nnets written as text: the words that are not numbers identical;
// each matrix or vector ("[ ... ]") as one block whose difference has a
// 2-norm within `rel` of the reference block's (per-element checks would
// trip over values that are sums of nearly cancelling terms, which the
// devices round differently); each other number within `rel` of the
// reference (plus 1e-6).
Comparison CompareNnets(const Nnet &ref, const Nnet &test, double rel);

// What training changed: for each block (and each number outside blocks)
// of the nnets written as text,
//   ||test - ref|| <= rel * ||ref - before|| + 1e-5 * ||before|| + 1e-6,
// i.e. the update on the device under test within `rel` of the reference
// update, plus a rounding floor. The reference update of the parameters
// (of the updatable components, by DotProduct) must be at least 1e-4 of
// their norm, or the comparison reports that it proves nothing.
Comparison CompareUpdates(const Nnet &before, const Nnet &ref, const Nnet &test,
                          double rel);

// Random network `seed` of the compiler tests, forward and backward through
// its compiled computation (optimized for even seeds) with the same inputs
// and output derivatives on the CPU and on `test`: outputs, input
// derivatives, the model derivative and the stored component stats.
Comparison CompareRandomNetwork(uint64_t seed, Device &test);

struct TrainingCase {
  std::string name;
  Nnet nnet;
  bool sparse = true;             // random labels; false: random dense targets
  std::string optimizer = "sgd";  // "sgd" (momentum 0.5) or "adam"
  double rel = 0.1;               // CompareUpdates' tolerance
  float adam_epsilon = 1e-8f;
};

// The text of configs/NAME.config of the source tree.
std::string ExampleConfig(const std::string &name);
// `text` with every `from` replaced by `to`.
std::string Replaced(std::string text, const std::string &from,
                     const std::string &to);
// configs/NAME.config with its zero output layers made random, and with
// AffineComponent in place of NaturalGradientAffineComponent unless
// `natural_gradient`. With a zero output layer the first step's gradient
// rows of the classes without a label are column sums of batch-normalized
// values, zero up to rounding, which each device rounds differently (and
// natural gradient and Adam amplify), so training would compare rounding
// noise.
Nnet ExampleNnet(const std::string &name, bool natural_gradient);

// Two minibatches (so that momentum carries one step into the next) of the
// same random egs and --srand on the CPU and on `test`, from the same
// model; CompareUpdates of the results.
Comparison CompareTraining(const TrainingCase &c, Device &test);

}  // namespace gpu_test
}  // namespace nnet3

#endif  // NNET3_TESTS_EQUIVALENCE_NNET_COMPARE_H_
