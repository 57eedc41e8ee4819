#include "computation-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;

Nnet FromConfig(const std::string &config) {
  Nnet nnet;
  std::istringstream is(config);
  nnet.ReadConfig(is, "test.config");
  return nnet;
}

void AddDebugInfo(int32_t matrix, int32_t node, bool is_deriv,
                  NnetComputation *c) {
  c->matrix_debug_info.resize(c->matrices.size());
  NnetComputation::MatrixDebugInfo &d = c->matrix_debug_info[matrix];
  d.is_deriv = is_deriv;
  d.cindexes.clear();
  for (int32_t t = 0; t < c->matrices[matrix].num_rows; t++)
    d.cindexes.push_back(Cindex(node, Index(0, t, 0)));
}

}  // namespace

Nnet SmallNnet() {
  return FromConfig(
      "input-node name=input dim=4\n"
      "component name=affine1 type=AffineComponent input-dim=4 "
      "output-dim=3\n"
      "component-node name=affine1 component=affine1 input=input\n"
      "component name=relu1 type=RectifiedLinearComponent dim=3\n"
      "component-node name=relu1 component=relu1 input=affine1\n"
      "component name=affine2 type=AffineComponent input-dim=3 "
      "output-dim=3\n"
      "component-node name=affine2 component=affine2 input=relu1\n"
      "output-node name=output input=affine2\n");
}

// c0: m1 = user input [for node: 'input']
// c1: m2 = undefined(5x3)
// c2: component-node 'affine1' propagate: m1 -> m2
// c3: m3 = undefined(5x3)
// c4: component-node 'relu1' propagate: m2 -> m3 [and store stats]
// c5: m4 = undefined(5x3)
// c6: component-node 'affine2' propagate: m3 -> m4
// c7: output m4 to user [for node: 'output']
// c8: # begin backward commands
// c9: m5 = user input [for node: 'output']
// c10: m6 = undefined(5x3)
// c11: m6 = 0                     (affine2 adds to its input-deriv)
// c12: component-node 'affine2' backprop: (m3, [], m5) -> m6 [and update
//      model]
// c13: m7 = undefined(5x3)
// c14: component-node 'relu1' backprop: ([], m3, m6) -> m7
// c15: m8 = undefined(5x4)
// c16: m8 = 0
// c17: component-node 'affine1' backprop: (m1, [], m7) -> m8 [and update
//      model]
// c18: output m8 to user [for node: 'input']
// c19..c24: m1, m2, m3, m5, m6, m7 = []
NnetComputation SmallComputation(bool debug_info) {
  NnetComputation c;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  int32_t m1 = c.NewMatrix(5, 4, kDefault), m2 = c.NewMatrix(5, 3, kDefault),
          m3 = c.NewMatrix(5, 3, kDefault), m4 = c.NewMatrix(5, 3, kDefault),
          m5 = c.NewMatrix(5, 3, kDefault), m6 = c.NewMatrix(5, 3, kDefault),
          m7 = c.NewMatrix(5, 3, kDefault), m8 = c.NewMatrix(5, 4, kDefault);
  c.need_model_derivative = true;
  c.commands = {
      Cmd(kAcceptInput, m1, 0),
      Cmd(kAllocMatrix, m2),
      Cmd(kPropagate, 0, 0, m1, m2, 0, 0),
      Cmd(kAllocMatrix, m3),
      Cmd(kPropagate, 1, 0, m2, m3, 0, 1),
      Cmd(kAllocMatrix, m4),
      Cmd(kPropagate, 2, 0, m3, m4, 0, 0),
      Cmd(kProvideOutput, m4, 7),
      Cmd(kNoOperationMarker),
      Cmd(kAcceptInput, m5, 7),
      Cmd(kAllocMatrix, m6),
      Cmd(0.0f, kSetConst, m6),
      Cmd(kBackprop, 2, 0, m3, 0, m5, m6, 0),
      Cmd(kAllocMatrix, m7),
      Cmd(kBackprop, 1, 0, 0, m3, m6, m7, 0),
      Cmd(kAllocMatrix, m8),
      Cmd(0.0f, kSetConst, m8),
      Cmd(kBackprop, 0, 0, m1, 0, m7, m8, 0),
      Cmd(kProvideOutput, m8, 0),
      Cmd(kDeallocMatrix, m1),
      Cmd(kDeallocMatrix, m2),
      Cmd(kDeallocMatrix, m3),
      Cmd(kDeallocMatrix, m5),
      Cmd(kDeallocMatrix, m6),
      Cmd(kDeallocMatrix, m7),
  };
  if (debug_info) {
    AddDebugInfo(1, 0, false, &c);
    AddDebugInfo(2, 2, false, &c);
    AddDebugInfo(3, 4, false, &c);
    AddDebugInfo(4, 6, false, &c);
    AddDebugInfo(5, 6, true, &c);
    AddDebugInfo(6, 4, true, &c);
    AddDebugInfo(7, 2, true, &c);
    AddDebugInfo(8, 0, true, &c);
  }
  return c;
}

Nnet MemoNnet() {
  return FromConfig(
      "input-node name=input dim=3\n"
      "component name=bn type=BatchNormComponent dim=3\n"
      "component-node name=bn component=bn input=input\n"
      "output-node name=output input=bn\n");
}

NnetComputation MemoComputation() {
  NnetComputation c;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(4, 3, kDefault), m4 = c.NewMatrix(4, 3, kDefault);
  c.commands = {
      Cmd(kAcceptInput, m1, 0),
      Cmd(kAllocMatrix, m2),
      Cmd(kPropagate, 0, 0, m1, m2, 1, 0),
      Cmd(kProvideOutput, m2, 3),
      Cmd(kNoOperationMarker),
      Cmd(kAcceptInput, m3, 3),
      Cmd(kAllocMatrix, m4),
      Cmd(kBackpropNoModelUpdate, 0, 0, 0, m2, m3, m4, 1),
      Cmd(kProvideOutput, m4, 0),
      Cmd(kDeallocMatrix, m1),
      Cmd(kDeallocMatrix, m3),
  };
  return c;
}

}  // namespace nnet3
