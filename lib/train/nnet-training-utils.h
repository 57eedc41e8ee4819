// The whole-network steps of a training update (Kaldi's nnet-utils
// functions that the trainer uses, reference 10.2), and the per-component
// vectors that nnet3-show-progress prints.
//
//   // after the backward pass has accumulated lr·gradient into delta:
//   ApplyL2Regularization(nnet, num_n_values * l2_factor, &delta);
//   UpdateNnetWithMaxChange(delta, max_param_change, 1.0, 1.0 - momentum,
//                           &nnet, &per_component_counts, &global_count);
//   ScaleBatchnormStats(0.8, &nnet);
//   ConstrainOrthonormal(&rng, &nnet);
//
// "Updatable components" are those with kUpdatableComponent; vectors with
// one entry per updatable component follow the component order.
#ifndef NNET3_TRAIN_NNET_TRAINING_UTILS_H_
#define NNET3_TRAIN_NNET_TRAINING_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/random.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {

// For each updatable component c of delta_nnet (learning rate lr_c,
// l2-regularize l2_c): delta_c += -2 · l2_regularize_scale · lr_c · l2_c ·
// nnet_c, i.e. the lr-scaled gradient of -l2_c · ‖params‖² per sequence.
// Does nothing when l2_regularize_scale is 0.
void ApplyL2Regularization(const Nnet &nnet, float l2_regularize_scale,
                           Nnet *delta_nnet);

// nnet += scale · delta_nnet, limiting the change: each updatable
// component's change (norm ‖delta_c‖·|scale|) to its max-change ·
// max_change_scale (when max-change != 0), then the whole change (after the
// per-component limits) to max_param_change · max_change_scale (when != 0).
// Counts how often each limit was enforced (the vector has one entry per
// updatable component and is resized if too short). Non-updatable
// components get their stats added with `scale`. Returns false, changing
// nothing, if the change is infinite or NaN (Kaldi refuses only infinite
// changes, and only when the global limit is on). Logs a line whenever a
// limit was enforced, as Kaldi does.
bool UpdateNnetWithMaxChange(
    const Nnet &delta_nnet, float max_param_change, float max_change_scale,
    float scale, Nnet *nnet,
    std::vector<int32_t> *num_max_change_per_component_applied,
    int32_t *num_max_change_global_applied);
// The same, and then delta_nnet *= delta_scale (when the change is not
// finite: nothing applied, the delta left as it is), each component's
// addition and scaling in one pass over its
// parameters (Component::AddAndScaleSource): the trainer's update followed
// by its momentum step, without a second sweep over the delta.
bool UpdateNnetWithMaxChangeAndScaleDelta(
    Nnet *delta_nnet, float max_param_change, float max_change_scale,
    float scale, float delta_scale, Nnet *nnet,
    std::vector<int32_t> *num_max_change_per_component_applied,
    int32_t *num_max_change_global_applied);

// For every updatable component i: dest_i += alphas[i] · src_i; for other
// components dest += scale · src (their stats).
void AddNnetComponents(const Nnet &src, const std::vector<float> &alphas,
                       float scale, Nnet *dest);

// Scales the stats of every BatchNormComponent (in [0, 1]; 1 does nothing).
void ScaleBatchnormStats(float batchnorm_stats_scale, Nnet *nnet);

// Kaldi's ConstrainOrthonormal: for each AffineComponent (or subclass),
// LinearComponent and TdnnComponent with orthonormal-constraint = α != 0,
// on a random one
// minibatch in four (rng->Int(0, 3) == 0), moves the linear parameters M
// (transposed if it has more rows than columns) towards M Mᵀ = α² I with
// M ← M − 4ν/α² (M Mᵀ − α² I) M, ν = 0.125. A negative α lets the scale
// float: α² = tr(P²)/tr(P) with P = M Mᵀ, and ν is halved (twice) when the
// eigenvalues of P are spread out.
void ConstrainOrthonormal(RandomState *rng, Nnet *nnet);
// One step of the above on a matrix with rows <= cols.
void ConstrainOrthonormalInternal(float scale, Matrix *m);

// (*dot_prod)[i] = the dot product of the parameters of the i'th updatable
// components of a and b (same structure).
void ComponentDotProducts(const Nnet &a, const Nnet &b,
                          std::vector<double> *dot_prod);

// "[ affine1:0.25 affine2:0.5 ]": one value per updatable component.
std::string PrintVectorPerUpdatableComponent(const Nnet &nnet,
                                             const std::vector<double> &vec);

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_TRAINING_UTILS_H_
