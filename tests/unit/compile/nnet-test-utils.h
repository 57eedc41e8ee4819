// Random networks and requests for the compiler, executor and optimizer
// tests (the idea of Kaldi's GenerateConfigSequence and
// ComputeExampleComputationRequestSimple; reference 11; our own code).
//
//   RandomState rng(seed);
//   std::vector<std::string> configs;
//   GenerateConfigSequence(NnetGenerationOptions(), &rng, &configs);
//   Nnet nnet;
//   for (const std::string &c : configs) {   // the first makes the net,
//     std::istringstream is(c);              // later ones edit it
//     nnet.ReadConfig(is);
//   }
//   ComputationRequest request;
//   std::vector<Matrix> inputs;              // one per request input
//   ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
//
// Every component type the generator writes must be registered (an
// unregistered one is an InternalError, never silently skipped). Every
// network has an input node "input" (frame-level),
// maybe more frame-level inputs ("input2") and an "ivector" input used as
// ReplaceIndex(ivector, t, 0), and an output node "output" (maybe also
// "output2"). Kinds: a single affine; spliced input (Append of Offsets); a
// feed-forward stack (affine + ReLU/Sigmoid/Tanh, optional BatchNorm, final
// Softmax/LogSoftmax, Scale / Sum(Const, Scale(-1, x)) descriptors,
// dim-range nodes, and sometimes a second config that adds a layer and
// redefines final_affine); a recurrent net (IfDefined(Offset(h, -1)),
// Failover(Offset(h, -1), h) -- not Failover(x, Const()), which cannot be
// compiled, as in Kaldi); a clockwork net (Switch, Round); and the families
// declared below (distribute, restricted attention, composite blocks, ...).
// Context: offsets stay within +-4 frames and Round/Switch moduli within 3,
// so no generated network looks further than kMaxGeneratedContext frames.
#ifndef NNET3_TESTS_UNIT_COMPILE_NNET_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_COMPILE_NNET_TEST_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/random.h"
#include "compile/computation-request.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {

// The most frames (left or right) that a generated network's output at t
// needs beyond t.
constexpr int32_t kMaxGeneratedContext = 12;

struct NnetGenerationOptions {
  bool allow_context = true;          // Offsets, Round, Switch, recurrence
  bool allow_nonlinearity = true;     // ReLU/Sigmoid/Tanh/BatchNorm layers
  bool allow_recursion = true;        // recurrent kinds
  bool allow_clockwork = true;        // Switch / Round kinds
  bool allow_multiple_inputs = true;  // a second frame-level input
  bool allow_multiple_outputs = false;
  bool allow_ivector = false;            // an "ivector" input
  bool allow_final_nonlinearity = true;  // final Softmax / LogSoftmax
  bool allow_use_of_x_dim = true;        // Indexes with x != 0 (Distribute)
  int32_t output_dim = -1;               // -1: random
};

// Fills `configs` with one or more config files; applying them in order
// with Nnet::ReadConfig gives a network that passes Nnet::Check.
void GenerateConfigSequence(const NnetGenerationOptions &opts, RandomState *rng,
                            std::vector<std::string> *configs);

// Families in their own files (random-nets-<kind>.cc; Kaldi's generators
// of the same names), each hooked into GenerateConfigSequence: with some
// probability (and if the options allow it) it fills `configs` and returns
// true, else returns false having only drawn from `rng`; and each registered
// with its component types (RandomNetFamily, below) in its own file.
bool GenerateDistributeConfigs(const NnetGenerationOptions &opts,
                               RandomState *rng,
                               std::vector<std::string> *configs);
bool GenerateRestrictedAttentionConfigs(const NnetGenerationOptions &opts,
                                        RandomState *rng,
                                        std::vector<std::string> *configs);
bool GenerateCompositeBlockConfigs(const NnetGenerationOptions &opts,
                                   RandomState *rng,
                                   std::vector<std::string> *configs);
// The LSTM families (random-nets-lstm.cc; Kaldi's GenerateConfigSequenceLstm
// and ...LstmWithTruncation): with probability 1/7 (if context and
// recursion are allowed and the component types are registered) it fills
// `configs` with an LSTM from basic components, with or without backprop
// truncation, or a fused LSTM, GRU or output-GRU cell with truncation, and
// returns true; else returns false having only drawn from `rng`.
bool GenerateLstmConfigs(const NnetGenerationOptions &opts, RandomState *rng,
                         std::vector<std::string> *configs);

// Each family declares, next to its generator, exactly which component
// types its networks use, by registering itself at start-up:
//   [[maybe_unused]] const bool kRegistered = RegisterRandomNetFamily(
//       {"distribute", {"AffineComponent", "DistributeComponent"},
//        GenerateDistributeConfigs});
// The test "every generator family makes exactly its component types"
// (nnet-test-utils-test.cc) generates many networks of each registered
// family with every option on and compares the union of their component
// types (inside CompositeComponents too) with the list, so a type that
// stops being generated fails; another checks that every component type in
// networks from GenerateConfigSequence is declared by some family, so a
// family hooked in above but not registered fails too. The built-in kinds
// register themselves in nnet-test-utils.cc.
struct RandomNetFamily {
  std::string name;
  std::vector<std::string> component_types;  // sorted
  // Like the Generate<Kind>Configs above: may decline (return false, having
  // only drawn from `rng`); the test calls it until it makes a network.
  bool (*generate)(const NnetGenerationOptions &opts, RandomState *rng,
                   std::vector<std::string> *configs);
};
// Adds `family` to RandomNetFamilies(); returns true. InternalError if the
// name is taken or the types are not sorted.
bool RegisterRandomNetFamily(const RandomNetFamily &family);
// The registered families, by name.
const std::vector<RandomNetFamily> &RandomNetFamilies();
// One of `types`, uniformly; InternalError naming the type if any of them is
// not registered (a missing type must fail, not shrink the tests).
std::string PickRegisteredType(const std::vector<std::string> &types,
                               RandomState *rng);

// Reads a config sequence into a new network.
Nnet NnetFromConfigSequence(const std::vector<std::string> &configs);

// A random request for a network like the generated ones: 1-4 sequences
// (n from 0 or 1), 1-10 output frames starting at 0-9 for every output
// node, every frame-level input over the output frames widened by the
// network's context (ComputeSimpleNnetContext for simple networks,
// kMaxGeneratedContext for others) plus 0-2 extra frames each side,
// "ivector" (if present) at (n, 0, 0); derivative flags,
// need_model_derivative and store_component_stats at random (if any
// derivative is wanted, "output" supplies one). `inputs` gets one N(0,1)
// matrix per request input.
void ComputeExampleComputationRequestSimple(const Nnet &nnet, RandomState *rng,
                                            ComputationRequest *request,
                                            std::vector<Matrix> *inputs);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_COMPILE_NNET_TEST_UTILS_H_
