// Whole-network utilities: parameter counts and arithmetic over all
// components, learning rates, test modes for batch-norm and dropout, orphan
// finding, the edits config of nnet3-copy (reference 1.6) and
// CollapseModel for nnet3-copy --prepare-for-test.
//
//   SetLearningRate(0.001, &nnet);
//   ScaleNnet(0.5, &nnet);  AddNnet(other, 0.5, &nnet);   // averaging
//   std::istringstream edits("remove-output-nodes name=output-xent\n"
//                            "remove-orphans");
//   ReadEditConfig(edits, "--edits", &nnet);   // UserError "--edits:1: ..."
//   SetBatchnormTestMode(true, &nnet); SetDropoutTestMode(true, &nnet);
//   CollapseModel(CollapseModelConfig(), &nnet);
//
// Functions that act on "components of type X" find them with
// dynamic_cast, so they work for every subclass (e.g. the natural-gradient
// affine component is an AffineComponent).
#ifndef NNET3_NNET_NNET_UTILS_H_
#define NNET3_NNET_NNET_UTILS_H_

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "nnet/nnet.h"

namespace nnet3 {

// ---- structure ----
int32_t NumInputNodes(const Nnet &nnet);
int32_t NumOutputNodes(const Nnet &nnet);
// graph[i] lists the nodes that use node i (a component node uses its
// input node; a descriptor node the nodes it refers to; a dim-range node
// its source).
void NnetToDirectedGraph(const Nnet &nnet,
                         std::vector<std::vector<int32_t>> *graph);
// Components no component node uses.
void FindOrphanComponents(const Nnet &nnet, std::vector<int32_t> *components);
// Nodes that no output node needs (directly or indirectly).
void FindOrphanNodes(const Nnet &nnet, std::vector<int32_t> *nodes);
// Glob match where only '*' is special (matches any run of characters).
bool NameMatchesPattern(const std::string &name, const std::string &pattern);

// ---- parameters ----
// Sum of NumParameters() over updatable components.
int64_t NumParameters(const Nnet &nnet);
int32_t NumUpdatableComponents(const Nnet &nnet);
// Sets every updatable component's learning rate to lr * its
// learning-rate-factor.
void SetLearningRate(float learning_rate, Nnet *nnet);
// Component::Scale on every component (parameters and stats); no-op for 1.
void ScaleNnet(float scale, Nnet *nnet);
// nnet += alpha * src, component by component (parameters and stats).
// UserError if the two networks' components differ in number or type.
void AddNnet(const Nnet &src, float alpha, Nnet *nnet);
// Sum over updatable components of their parameter dot products.
double DotProduct(const Nnet &a, const Nnet &b);
// Every updatable component becomes a gradient holder (lr 1, is-gradient).
void SetNnetAsGradient(Nnet *nnet);
void FreezeNaturalGradient(bool freeze, Nnet *nnet);
// Component::ZeroStats on every component.
void ZeroComponentStats(Nnet *nnet);

// Kaldi's ConvertRepeatedToBlockAffine (nnet3-am-copy
// --convert-repeated-to-block): every (NaturalGradient)RepeatedAffine
// component, also inside a CompositeComponent, becomes the equivalent
// BlockAffineComponent.
void ConvertRepeatedToBlockAffine(Nnet *nnet);

// ---- test modes ----
// BatchNormComponent::SetTestMode on every batch-norm component.
void SetBatchnormTestMode(bool test_mode, Nnet *nnet);
// RandomComponent::SetTestMode on every random (dropout-like) component.
void SetDropoutTestMode(bool test_mode, Nnet *nnet);
// Sets the dropout proportion of every DropoutComponent,
// GeneralDropoutComponent and DropoutMaskComponent; UserError unless
// 0 <= p < 1.
void SetDropoutProportion(float dropout_proportion, Nnet *nnet);
// Sets the proportion if `component` is a DropoutComponent,
// GeneralDropoutComponent or DropoutMaskComponent (as Kaldi's
// set-dropout-proportion edit does); returns whether it was one.
bool SetComponentDropoutProportion(float dropout_proportion,
                                   Component *component);

// ---- edits (reference 1.6) ----
// Applies the directives in `edit_config` (named `filename` in errors,
// "FILE:LINE: ..."), in order: convert-to-fixed-affine, remove-orphan-nodes,
// remove-orphan-components, remove-orphans, set-learning-rate,
// set-learning-rate-factor, rename-node, remove-output-nodes,
// set-dropout-proportion, apply-svd and reduce-rank (nnet-svd.h). Unknown
// directives and unused keys are errors.
void ReadEditConfig(std::istream &edit_config, const std::string &filename,
                    Nnet *nnet);
// Kaldi's signature; errors name the file "edits config".
void ReadEditConfig(std::istream &edit_config, Nnet *nnet);

// ---- collapsing for test ----
struct CollapseModelConfig {
  bool collapse_dropout = true;
  bool collapse_batchnorm = true;
};
// Makes an equivalent, cheaper network for inference (nnet3-copy
// --prepare-for-test, after SetBatchnormTestMode / SetDropoutTestMode).
// Only exact rewrites are made; see nnet-collapse.cc for the rules:
//  - a dropout component in test mode (Dropout: a fixed scale 1-p;
//    GeneralDropoutComponent, SpecAugmentTimeMaskComponent: the identity)
//    is bypassed: nodes
//    that read it read its input instead, with the scale put into their
//    descriptors as Scale(...);
//  - a batch-norm component in test mode (y = x*scale + offset per column)
//    is folded into an affine component that reads it directly (also
//    through Offset/Append, as in a spliced TDNN layer: the affine's
//    columns for each such part are scaled and its bias absorbs the
//    offsets), or into the affine component it reads directly;
//  - orphan nodes and components left behind are removed.
// Anything else (batch-norm not in test mode, a neighbour that is not
// affine, reads through IfDefined/Sum/Failover that make a fold inexact)
// is left as it is.
void CollapseModel(const CollapseModelConfig &config, Nnet *nnet);

}  // namespace nnet3

#endif  // NNET3_NNET_NNET_UTILS_H_
