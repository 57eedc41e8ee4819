// The LSTM families of the random network generator (nnet-test-utils.h;
// the idea of Kaldi's GenerateConfigSequenceLstm and
// GenerateConfigSequenceLstmWithTruncation, our own code):
//  - an LSTM built from basic components (affines for the gates, per-element
//    peepholes, sigmoid / tanh, elementwise products, a projection whose
//    first dims recur), with or without BackpropTruncationComponent on the
//    recurrent c and r;
//  - the fused cells with truncation as Kaldi's "fast" xconfig layers wire
//    them: LstmNonlinearityComponent (fast-lstmp), GruNonlinearityComponent
//    (fast-pgru / fast-gru) or OutputGruNonlinearityComponent (fast-opgru).
// Recurrence delays are 1..3 frames, splicing within +-2, dims small.
// Self-repair is off and truncation thresholds are high, so that numeric
// derivative checks see exact derivatives.
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "nnet-test-utils.h"
#include "nnet/component-itf.h"

namespace nnet3 {

namespace {

// A missing type fails the test (InternalError naming it) rather than
// quietly shrinking what the family covers.
bool Have(const std::vector<std::string> &types) {
  for (const std::string &t : types)
    if (Component::NewComponentOfType(t) == nullptr)
      NNET3_INTERNAL_ERR << "random-nets-lstm: component type '" << t
                         << "' is not registered";
  return true;
}

// Config-writing helpers for one network.
class LstmWriter {
 public:
  LstmWriter(const NnetGenerationOptions &opts, RandomState *rng)
      : opts_(opts), rng_(rng) {}
  int32_t Int(int32_t lo, int32_t hi) { return rng_->Int(lo, hi); }
  bool Coin() { return rng_->Int(0, 1) == 0; }
  std::ostringstream &os() { return os_; }
  std::string Take() { return os_.str(); }

  // Input nodes and a spliced input descriptor; sets *dim.
  std::string Input(int32_t *dim) {
    const int32_t d = Int(2, 5);
    os_ << "input-node name=input dim=" << d << "\n";
    std::vector<std::string> parts;
    for (int32_t o = -2; o <= 2; o++)
      if (o == 0 || Int(0, 2) == 0)
        parts.push_back(o == 0 ? "input"
                               : "Offset(input, " + std::to_string(o) + ")");
    *dim = d * static_cast<int32_t>(parts.size());
    if (opts_.allow_ivector && Coin()) {
      const int32_t di = Int(1, 3);
      os_ << "input-node name=ivector dim=" << di << "\n";
      parts.push_back("ReplaceIndex(ivector, t, 0)");
      *dim += di;
    }
    if (parts.size() == 1) return parts[0];
    std::string desc = "Append(";
    for (size_t i = 0; i < parts.size(); i++)
      desc += (i > 0 ? ", " : "") + parts[i];
    return desc + ")";
  }
  void Component(const std::string &name, const std::string &type,
                 const std::string &keys) {
    os_ << "component name=" << name << " type=" << type << " " << keys << "\n";
  }
  void Node(const std::string &name, const std::string &component,
            const std::string &input) {
    os_ << "component-node name=" << name << " component=" << component
        << " input=" << input << "\n";
  }
  void Affine(const std::string &name, int32_t in, int32_t out,
              const std::string &input) {
    Component(name, "NaturalGradientAffineComponent",
              "input-dim=" + std::to_string(in) +
                  " output-dim=" + std::to_string(out));
    Node(name, name, input);
  }
  void DimRange(const std::string &name, const std::string &src, int32_t offset,
                int32_t dim) {
    os_ << "dim-range-node name=" << name << " input-node=" << src
        << " dim-offset=" << offset << " dim=" << dim << "\n";
  }
  // BackpropTruncationComponent keys that never clip in small tests.
  std::string TruncationKeys(int32_t dim, int32_t delay) {
    return "dim=" + std::to_string(dim) +
           " clipping-threshold=1000 zeroing-threshold=1000 "
           "zeroing-interval=" +
           std::to_string(Int(2, 20)) +
           " recurrence-interval=" + std::to_string(delay) +
           (Coin() ? " scale=0.9" : "");
  }
  // The final affine (+ maybe log-softmax) and the output node.
  void Final(const std::string &input, int32_t dim) {
    const int32_t out = opts_.output_dim > 0 ? opts_.output_dim : Int(1, 6);
    Affine("final_affine", dim, out, input);
    std::string last = "final_affine";
    if (opts_.allow_final_nonlinearity && Coin()) {
      Component("final_log_softmax", "LogSoftmaxComponent",
                "dim=" + std::to_string(out));
      Node("final_log_softmax", "final_log_softmax", last);
      last = "final_log_softmax";
    }
    os_ << "output-node name=output input=" << last << "\n";
  }

 private:
  const NnetGenerationOptions &opts_;
  RandomState *rng_;
  std::ostringstream os_;
};

std::string Delayed(const std::string &node, int32_t delay) {
  return "IfDefined(Offset(" + node + ", -" + std::to_string(delay) + "))";
}

// Kaldi's "LSTM from basic components" (Sak et al. 2014, equations 7-15),
// with BackpropTruncationComponent on c_t and r_t when `truncate`.
void BasicLstm(LstmWriter *w, bool truncate) {
  int32_t in_dim;
  const std::string x = w->Input(&in_dim);
  const int32_t C = w->Int(2, 5), P = w->Int(1, C), d = w->Int(1, 3);
  const std::string cdim = "dim=" + std::to_string(C),
                    c_prev = Delayed("c_t", d),
                    xr = "Append(" + x + ", " + Delayed("r_t", d) + ")";
  for (const char *gate : {"i", "f", "o"})
    w->Component(std::string("W") + gate + "c", "PerElementScaleComponent",
                 cdim);
  for (const char *s : {"i", "f", "o"})
    w->Component(s, "SigmoidComponent", cdim + " self-repair-scale=0");
  for (const char *s : {"g", "h"})
    w->Component(s, "TanhComponent", cdim + " self-repair-scale=0");
  for (const char *s : {"c1", "c2", "m"})
    w->Component(s, "ElementwiseProductComponent",
                 "input-dim=" + std::to_string(2 * C) +
                     " output-dim=" + std::to_string(C));
  w->Affine("i1", in_dim + P, C, xr);
  w->Node("i2", "Wic", c_prev);
  w->Node("i_t", "i", "Sum(i1, i2)");
  w->Affine("f1", in_dim + P, C, xr);
  w->Node("f2", "Wfc", c_prev);
  w->Node("f_t", "f", "Sum(f1, f2)");
  w->Affine("g1", in_dim + P, C, xr);
  w->Node("g_t", "g", "g1");
  w->Node("c1_t", "c1", "Append(f_t, " + c_prev + ")");
  w->Node("c2_t", "c2", "Append(i_t, g_t)");
  if (truncate) {
    w->Component("c", "BackpropTruncationComponent", w->TruncationKeys(C, d));
    w->Node("c_t", "c", "Sum(c1_t, c2_t)");
  } else {
    w->Component("c", "NoOpComponent", cdim);
    w->Node("c_t", "c", "Sum(c1_t, c2_t)");
  }
  w->Affine("o1", in_dim + P, C, xr);
  w->Node("o2", "Woc", "c_t");
  w->Node("o_t", "o", "Sum(o1, o2)");
  w->Node("h_t", "h", "c_t");
  w->Node("m_t", "m", "Append(o_t, h_t)");
  w->Affine("rp_t", C, 2 * P, "m_t");
  if (truncate) {
    w->DimRange("r_t_preclip", "rp_t", 0, P);
    w->Component("r", "BackpropTruncationComponent", w->TruncationKeys(P, d));
    w->Node("r_t", "r", "r_t_preclip");
  } else {
    w->DimRange("r_t", "rp_t", 0, P);
  }
  w->Final("rp_t", 2 * P);
}

// Kaldi's fast-lstmp-layer wiring.
void FusedLstm(LstmWriter *w, const std::string &x, int32_t in_dim, int32_t C,
               int32_t R, int32_t d) {
  w->Component("lstm.W_all", "NaturalGradientAffineComponent",
               "input-dim=" + std::to_string(in_dim + R) +
                   " output-dim=" + std::to_string(4 * C));
  w->Component("lstm.nonlin", "LstmNonlinearityComponent",
               "cell-dim=" + std::to_string(C) + " self-repair-scale=0");
  w->Component("lstm.cr_trunc", "BackpropTruncationComponent",
               w->TruncationKeys(C + R, d));
  w->Component("lstm.W_rp", "NaturalGradientAffineComponent",
               "input-dim=" + std::to_string(C) +
                   " output-dim=" + std::to_string(2 * R));
  w->Node("lstm.W_all", "lstm.W_all",
          "Append(" + x + ", " + Delayed("lstm.r_trunc", d) + ")");
  w->Node("lstm.nonlin", "lstm.nonlin",
          "Append(lstm.W_all, " + Delayed("lstm.c_trunc", d) + ")");
  w->DimRange("lstm.c", "lstm.nonlin", 0, C);
  w->DimRange("lstm.m", "lstm.nonlin", C, C);
  w->Node("lstm.rp", "lstm.W_rp", "lstm.m");
  w->DimRange("lstm.r", "lstm.rp", 0, R);
  w->Node("lstm.cr_trunc", "lstm.cr_trunc", "Append(lstm.c, lstm.r)");
  w->DimRange("lstm.c_trunc", "lstm.cr_trunc", 0, C);
  w->DimRange("lstm.r_trunc", "lstm.cr_trunc", C, R);
  w->Final("lstm.rp", 2 * R);
}

// Kaldi's fast-pgru-layer wiring (recurrent-dim R <= cell-dim C; with
// R == C the plain fast-gru-layer, whose recurrence is c itself).
void FusedGru(LstmWriter *w, const std::string &x, int32_t in_dim, int32_t C,
              int32_t R, int32_t d) {
  const std::string s_prev = Delayed("gru.s_t", d);
  w->Affine("gru.z_pre", in_dim + R, C, "Append(" + x + ", " + s_prev + ")");
  w->Affine("gru.r_pre", in_dim + R, R, "Append(" + x + ", " + s_prev + ")");
  w->Component("gru.z", "SigmoidComponent",
               "dim=" + std::to_string(C) + " self-repair-scale=0");
  w->Component("gru.r", "SigmoidComponent",
               "dim=" + std::to_string(R) + " self-repair-scale=0");
  w->Node("gru.z_t", "gru.z", "gru.z_pre");
  w->Node("gru.r_t", "gru.r", "gru.r_pre");
  w->Affine("gru.hpart", in_dim, C, x);
  w->Component("gru.nonlin", "GruNonlinearityComponent",
               "cell-dim=" + std::to_string(C) + " recurrent-dim=" +
                   std::to_string(R) + " self-repair-scale=0");
  std::string in = "Append(gru.z_t, gru.r_t, gru.hpart, " +
                   Delayed("gru.c_t", d) + (R == C ? "" : ", " + s_prev) + ")";
  w->Node("gru.nonlin", "gru.nonlin", in);
  w->DimRange("gru.c_t", "gru.nonlin", C, C);
  const int32_t y_dim = R + w->Int(1, 3);
  w->Affine("gru.y_t", C, y_dim, "gru.c_t");
  w->DimRange("gru.s_preclip", "gru.y_t", 0, R);
  w->Component("gru.s", "BackpropTruncationComponent", w->TruncationKeys(R, d));
  w->Node("gru.s_t", "gru.s", "gru.s_preclip");
  w->Final("gru.y_t", y_dim);
}

// Kaldi's fast-opgru-layer wiring.
void FusedOutputGru(LstmWriter *w, const std::string &x, int32_t in_dim,
                    int32_t C, int32_t R, int32_t d) {
  const std::string s_prev = Delayed("ogru.s_t", d);
  w->Affine("ogru.z_pre", in_dim + R, C, "Append(" + x + ", " + s_prev + ")");
  w->Affine("ogru.o_pre", in_dim + R, C, "Append(" + x + ", " + s_prev + ")");
  for (const char *g : {"z", "o"}) {
    const std::string name = std::string("ogru.") + g;
    w->Component(name, "SigmoidComponent",
                 "dim=" + std::to_string(C) + " self-repair-scale=0");
    w->Node(name + "_t", name, name + "_pre");
  }
  w->Affine("ogru.hpart", in_dim, C, x);
  w->Component("ogru.nonlin", "OutputGruNonlinearityComponent",
               "cell-dim=" + std::to_string(C) + " self-repair-scale=0");
  w->Node("ogru.nonlin", "ogru.nonlin",
          "Append(ogru.z_t, ogru.hpart, " + Delayed("ogru.c_t", d) + ")");
  w->DimRange("ogru.c_t", "ogru.nonlin", C, C);
  w->Component("ogru.cdoto", "ElementwiseProductComponent",
               "input-dim=" + std::to_string(2 * C) +
                   " output-dim=" + std::to_string(C));
  w->Node("ogru.cdoto", "ogru.cdoto", "Append(ogru.c_t, ogru.o_t)");
  w->Affine("ogru.y_t", C, 2 * R, "ogru.cdoto");
  w->DimRange("ogru.s_preclip", "ogru.y_t", 0, R);
  w->Component("ogru.s", "BackpropTruncationComponent",
               w->TruncationKeys(R, d));
  w->Node("ogru.s_t", "ogru.s", "ogru.s_preclip");
  w->Final("ogru.y_t", 2 * R);
}

}  // namespace

bool GenerateLstmConfigs(const NnetGenerationOptions &opts, RandomState *rng,
                         std::vector<std::string> *configs) {
  if (!opts.allow_context || !opts.allow_recursion || rng->Int(0, 6) != 0)
    return false;  // one network in 7
  LstmWriter w(opts, rng);
  // 0, 1: basic LSTM without / with truncation; 2, 3: fused LSTM (the
  // kind recipes use most); 4: GRU; 5: output-gated GRU.
  const int32_t kind = w.Int(0, 5);
  if (kind <= 1) {
    if (!Have({"PerElementScaleComponent", "ElementwiseProductComponent",
               "SigmoidComponent", "TanhComponent", "NoOpComponent",
               "BackpropTruncationComponent"}))
      return false;
    BasicLstm(&w, kind == 1);
  } else {
    if (!Have({"LstmNonlinearityComponent", "GruNonlinearityComponent",
               "OutputGruNonlinearityComponent",
               "BackpropTruncationComponent"}))
      return false;
    int32_t in_dim;
    const std::string x = w.Input(&in_dim);
    const int32_t C = w.Int(2, 5), R = w.Int(1, C), d = w.Int(1, 3);
    if (kind <= 3)
      FusedLstm(&w, x, in_dim, C, R, d);
    else if (kind == 4)
      FusedGru(&w, x, in_dim, C, R, d);
    else
      FusedOutputGru(&w, x, in_dim, C, R, d);
  }
  configs->assign(1, w.Take());
  return true;
}

namespace {

// The family's component types, for the generator's type test.
[[maybe_unused]] const bool kLstmRegistered = RegisterRandomNetFamily(
    {"lstm",
     {"BackpropTruncationComponent", "ElementwiseProductComponent",
      "GruNonlinearityComponent", "LogSoftmaxComponent",
      "LstmNonlinearityComponent", "NaturalGradientAffineComponent",
      "NoOpComponent", "OutputGruNonlinearityComponent",
      "PerElementScaleComponent", "SigmoidComponent", "TanhComponent"},
     GenerateLstmConfigs});

}  // namespace

}  // namespace nnet3
