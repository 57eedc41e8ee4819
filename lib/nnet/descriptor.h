// Descriptors: the expressions that say what a network node takes as input
// (the `input=` of a config line), e.g. `Append(Offset(input, -1), input,
// Sum(Scale(0.5, lstm1), IfDefined(Offset(lstm1, -3))))`.
//
// Three levels, as in Kaldi (reference section 2):
//   Descriptor           Append of parts; each part is a SumDescriptor.
//   SumDescriptor        Sum(A, B), Failover(A, B), IfDefined(A), Const(v, d),
//                        or a single ForwardingDescriptor.
//   ForwardingDescriptor maps one requested Index to one input Cindex:
//                        a node (with a scale), Offset, Switch, Round,
//                        ReplaceIndex.
// Text is read through GeneralDescriptor, a parse tree of the full surface
// grammar, which is normalized into that hierarchy (Append moved to the top,
// Offset/Switch/Round/ReplaceIndex pushed inside Sum/Failover/IfDefined, Scale
// pushed down onto node names, Sum made binary):
//
//   Descriptor d;
//   d.Parse(node_names, "Append(Offset(input, -1), input)");  // UserError
//   d.WriteConfig(os, node_names);    // canonical text, Kaldi's form
//   d.IsComputable(index, computable_set, &used_inputs);
//
// `node_names[i]` names node i; names of nodes that a descriptor may not
// reference should be given as "**" (never a valid name). Parse errors are
// UserErrors with one line: "In descriptor 'TEXT': ...". Errors that depend
// on how a descriptor is used (dimension mismatches, inconsistent scales)
// are raised when Dim() / GetScaleForNode() are called.
#ifndef NNET3_NNET_DESCRIPTOR_H_
#define NNET3_NNET_DESCRIPTOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "nnet/nnet-common.h"

namespace nnet3 {

// The set of Cindexes known to be computable; the compiler implements it.
class CindexSet {
 public:
  virtual ~CindexSet() = default;
  virtual bool operator()(const Cindex &cindex) const = 0;
};

// Gives the output dimension of a node (the Nnet supplies it).
using NodeDimFunction = std::function<int32_t(int32_t node_index)>;

// Splits descriptor text into tokens (reference 2.1): '(', ')' and ',' are
// tokens of their own, spaces and tabs separate, and every other run must be
// a valid name or a number. Returns false on a bad token, with a one-line
// reason in *error_message if non-null. `tokens` is cleared first; no
// "end of input" sentinel is added.
bool DescriptorTokenize(const std::string &text,
                        std::vector<std::string> *tokens,
                        std::string *error_message = nullptr);

// ---------------------------------------------------------------------------
// ForwardingDescriptor: one requested Index -> one input Cindex.

class ForwardingDescriptor {
 public:
  virtual ~ForwardingDescriptor() = default;
  // The input Cindex that provides the value for the requested Index.
  virtual Cindex MapToInput(const Index &output) const = 0;
  // Errors (UserError) if Switch() branches have different dimensions.
  virtual int32_t Dim(const NodeDimFunction &node_dim) const = 0;
  // The scale with which `node_index` appears; nullopt if it does not appear.
  // UserError if it appears with two different scales (in Switch branches).
  virtual std::optional<float> FindScaleForNode(int32_t node_index) const = 0;
  // FindScaleForNode(), with 0 for "does not appear".
  float GetScaleForNode(int32_t node_index) const;
  // The t period: MapToInput(n, t + Modulus(), x) is MapToInput(n, t, x)
  // shifted by Modulus() in t.
  virtual int32_t Modulus() const = 0;
  virtual void WriteConfig(
      std::ostream &os, const std::vector<std::string> &node_names) const = 0;
  // Appends the node indexes referenced (duplicates possible).
  virtual void GetNodeDependencies(
      std::vector<int32_t> *node_indexes) const = 0;
  virtual std::unique_ptr<ForwardingDescriptor> Copy() const = 0;
};

// A node name, optionally scaled: `name` or `Scale(s, name)`.
class SimpleForwardingDescriptor : public ForwardingDescriptor {
 public:
  explicit SimpleForwardingDescriptor(int32_t src_node, float scale = 1.0f);
  int32_t SrcNode() const { return src_node_; }
  float Scale() const { return scale_; }

  Cindex MapToInput(const Index &output) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  int32_t Modulus() const override { return 1; }
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<ForwardingDescriptor> Copy() const override;

 private:
  int32_t src_node_;
  float scale_;
};

// Offset(src, t[, x]): adds `offset` (n must be 0) to the requested Index.
class OffsetForwardingDescriptor : public ForwardingDescriptor {
 public:
  OffsetForwardingDescriptor(std::unique_ptr<ForwardingDescriptor> src,
                             const Index &offset);
  const ForwardingDescriptor &Src() const { return *src_; }
  const Index &Offset() const { return offset_; }

  Cindex MapToInput(const Index &output) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  int32_t Modulus() const override;
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<ForwardingDescriptor> Copy() const override;

 private:
  std::unique_ptr<ForwardingDescriptor> src_;
  Index offset_;
};

// Switch(s0, s1, ...): uses branch (t mod k), mathematical mod (never < 0).
class SwitchingForwardingDescriptor : public ForwardingDescriptor {
 public:
  explicit SwitchingForwardingDescriptor(
      std::vector<std::unique_ptr<ForwardingDescriptor>> src);
  size_t NumSrc() const { return src_.size(); }
  const ForwardingDescriptor &Src(size_t i) const { return *src_.at(i); }

  Cindex MapToInput(const Index &output) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  // lcm of k and the branches' moduli.
  int32_t Modulus() const override;
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<ForwardingDescriptor> Copy() const override;

 private:
  std::vector<std::unique_ptr<ForwardingDescriptor>> src_;
};

// Round(src, m): t becomes t - (t mod m) (mathematical mod), so it rounds
// down to a multiple of m: Round(-1, 3) asks for t = -3.
class RoundingForwardingDescriptor : public ForwardingDescriptor {
 public:
  RoundingForwardingDescriptor(std::unique_ptr<ForwardingDescriptor> src,
                               int32_t t_modulus);
  const ForwardingDescriptor &Src() const { return *src_; }
  int32_t TModulus() const { return t_modulus_; }

  Cindex MapToInput(const Index &output) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  // lcm of m and the source's modulus (Kaldi returns m alone; the two agree
  // unless Round() is applied over Switch() or another Round()).
  int32_t Modulus() const override;
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<ForwardingDescriptor> Copy() const override;

 private:
  std::unique_ptr<ForwardingDescriptor> src_;
  int32_t t_modulus_;
};

// ReplaceIndex(src, t|x, value): overwrites t or x of the requested Index.
class ReplaceIndexForwardingDescriptor : public ForwardingDescriptor {
 public:
  // Kaldi's numbering; kN is never legal.
  enum VariableName { kN = 0, kT = 1, kX = 2 };
  ReplaceIndexForwardingDescriptor(std::unique_ptr<ForwardingDescriptor> src,
                                   VariableName variable_name, int32_t value);
  const ForwardingDescriptor &Src() const { return *src_; }
  VariableName Variable() const { return variable_name_; }
  int32_t Value() const { return value_; }

  Cindex MapToInput(const Index &output) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  int32_t Modulus() const override;
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<ForwardingDescriptor> Copy() const override;

 private:
  std::unique_ptr<ForwardingDescriptor> src_;
  VariableName variable_name_;
  int32_t value_;
};

// ---------------------------------------------------------------------------
// SumDescriptor: one Append part; may combine several inputs.

class SumDescriptor {
 public:
  virtual ~SumDescriptor() = default;
  // Appends every Cindex that could take part for this Index.
  virtual void GetDependencies(const Index &index,
                               std::vector<Cindex> *dependencies) const = 0;
  // True if the value for `index` can be computed given the computable set:
  // Sum needs both terms, Failover(A, B) uses A if computable else B,
  // IfDefined is always computable, Const has no inputs. When true and
  // used_inputs is non-null, appends exactly the Cindexes that take part;
  // when false, appends nothing.
  virtual bool IsComputable(const Index &index, const CindexSet &computable,
                            std::vector<Cindex> *used_inputs) const = 0;
  // UserError if the terms of a Sum/Failover (or Switch branches) disagree.
  virtual int32_t Dim(const NodeDimFunction &node_dim) const = 0;
  // The scale with which `node_index` appears (nullopt if it does not).
  // node_index -1 asks for the constant term: the Const() value, with
  // Const()s in a Sum adding up. UserError if a node appears with two
  // different scales, for a Const() inside IfDefined(), or for a Failover()
  // whose two sides have different constants.
  virtual std::optional<float> FindScaleForNode(int32_t node_index) const = 0;
  // FindScaleForNode(), with 0 for "does not appear".
  float GetScaleForNode(int32_t node_index) const;
  virtual int32_t Modulus() const = 0;
  virtual void WriteConfig(
      std::ostream &os, const std::vector<std::string> &node_names) const = 0;
  // Appends the node indexes referenced (duplicates possible).
  virtual void GetNodeDependencies(
      std::vector<int32_t> *node_indexes) const = 0;
  virtual std::unique_ptr<SumDescriptor> Copy() const = 0;
};

// A single ForwardingDescriptor.
class SimpleSumDescriptor : public SumDescriptor {
 public:
  explicit SimpleSumDescriptor(std::unique_ptr<ForwardingDescriptor> src);
  const ForwardingDescriptor &Src() const { return *src_; }

  void GetDependencies(const Index &index,
                       std::vector<Cindex> *dependencies) const override;
  bool IsComputable(const Index &index, const CindexSet &computable,
                    std::vector<Cindex> *used_inputs) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  int32_t Modulus() const override { return src_->Modulus(); }
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<SumDescriptor> Copy() const override;

 private:
  std::unique_ptr<ForwardingDescriptor> src_;
};

// IfDefined(src): src if computable, else zero; always computable.
class OptionalSumDescriptor : public SumDescriptor {
 public:
  explicit OptionalSumDescriptor(std::unique_ptr<SumDescriptor> src);
  const SumDescriptor &Src() const { return *src_; }

  void GetDependencies(const Index &index,
                       std::vector<Cindex> *dependencies) const override;
  bool IsComputable(const Index &index, const CindexSet &computable,
                    std::vector<Cindex> *used_inputs) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  int32_t Modulus() const override { return src_->Modulus(); }
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<SumDescriptor> Copy() const override;

 private:
  std::unique_ptr<SumDescriptor> src_;
};

// Const(value, dim): a constant vector, no inputs.
class ConstantSumDescriptor : public SumDescriptor {
 public:
  ConstantSumDescriptor(float value, int32_t dim);
  float Value() const { return value_; }

  void GetDependencies(const Index &index,
                       std::vector<Cindex> *dependencies) const override;
  bool IsComputable(const Index &index, const CindexSet &computable,
                    std::vector<Cindex> *used_inputs) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  int32_t Modulus() const override { return 1; }
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<SumDescriptor> Copy() const override;

 private:
  float value_;
  int32_t dim_;
};

// Sum(src1, src2) or Failover(src1, src2).
class BinarySumDescriptor : public SumDescriptor {
 public:
  enum Operation { kSumOperation, kFailoverOperation };
  BinarySumDescriptor(Operation op, std::unique_ptr<SumDescriptor> src1,
                      std::unique_ptr<SumDescriptor> src2);
  Operation Op() const { return op_; }
  const SumDescriptor &Src1() const { return *src1_; }
  const SumDescriptor &Src2() const { return *src2_; }

  void GetDependencies(const Index &index,
                       std::vector<Cindex> *dependencies) const override;
  bool IsComputable(const Index &index, const CindexSet &computable,
                    std::vector<Cindex> *used_inputs) const override;
  int32_t Dim(const NodeDimFunction &node_dim) const override;
  std::optional<float> FindScaleForNode(int32_t node_index) const override;
  int32_t Modulus() const override;
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const override;
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const override;
  std::unique_ptr<SumDescriptor> Copy() const override;

 private:
  Operation op_;
  std::unique_ptr<SumDescriptor> src1_;
  std::unique_ptr<SumDescriptor> src2_;
};

// ---------------------------------------------------------------------------
// Descriptor: the parts of an Append (usually just one). Copies are deep.
// A default-constructed Descriptor has no parts and is only a placeholder
// for Parse(); Dim() and WriteConfig() need at least one part.

class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(std::vector<std::unique_ptr<SumDescriptor>> parts);
  Descriptor(const Descriptor &other);
  Descriptor &operator=(const Descriptor &other);
  Descriptor(Descriptor &&other) noexcept = default;
  Descriptor &operator=(Descriptor &&other) noexcept = default;
  ~Descriptor() = default;

  // Parses and normalizes `text`, replacing the contents; UserError (one
  // line, "In descriptor 'TEXT': ...") on bad text, leaving *this unchanged.
  void Parse(const std::vector<std::string> &node_names,
             const std::string &text);

  // Clears *dependencies, then lists every Cindex any part could use.
  void GetDependencies(const Index &index,
                       std::vector<Cindex> *dependencies) const;
  // Computable iff every part is. If used_inputs is non-null it is cleared,
  // then (only when computable) filled with the Cindexes that take part.
  bool IsComputable(const Index &index, const CindexSet &computable,
                    std::vector<Cindex> *used_inputs) const;
  // Sum of the parts' dimensions.
  int32_t Dim(const NodeDimFunction &node_dim) const;
  // lcm of the parts' moduli (1 for plain descriptors).
  int32_t Modulus() const;
  int32_t NumParts() const { return static_cast<int32_t>(parts_.size()); }
  const SumDescriptor &Part(int32_t n) const;
  // `Append(p0, p1, ...)` when there are several parts, else the one part.
  void WriteConfig(std::ostream &os,
                   const std::vector<std::string> &node_names) const;
  // Clears *node_indexes, then lists the nodes referenced, sorted, unique.
  void GetNodeDependencies(std::vector<int32_t> *node_indexes) const;

 private:
  std::vector<std::unique_ptr<SumDescriptor>> parts_;
};

// ---------------------------------------------------------------------------
// GeneralDescriptor: the parse tree of the surface grammar (reference 2.2),
// before normalization. Most code wants Descriptor::Parse instead.

class GeneralDescriptor {
 public:
  enum DescriptorType {
    kAppend,
    kSum,
    kFailover,
    kIfDefined,
    kOffset,
    kSwitch,
    kRound,
    kReplaceIndex,
    kScale,
    kConst,
    kNodeName
  };

  // Parses the whole of `text`; UserError with one line naming the
  // unexpected token, where it came (after which text) and what was
  // expected, e.g. "In descriptor 'Append(Offset(input, -1) input)':
  // expected ',' or ')' after 'Offset(input, -1)' but got 'input'".
  static std::unique_ptr<GeneralDescriptor> Parse(
      const std::vector<std::string> &node_names, const std::string &text);

  // A normalized copy (reference 2.5): at most a top-level Append, binary
  // Sums, Scale only directly over node names, no Offset(x, 0). UserError
  // for the cases that cannot be normalized.
  std::unique_ptr<GeneralDescriptor> GetNormalizedDescriptor() const;
  // Normalizes and converts; UserError as above, or "Const() appeared too
  // deep". Errors are prefixed "In descriptor 'TEXT': " when parsed here.
  Descriptor ConvertToDescriptor() const;

  // Surface form, e.g. "Sum(a, Offset(b, 1))"; Scale stays where it is.
  void Print(const std::vector<std::string> &node_names,
             std::ostream &os) const;

  // "Append", "Sum", ... ("node name" for kNodeName).
  static const char *TypeName(DescriptorType type);
  DescriptorType Type() const { return type_; }
  size_t NumChildren() const { return children_.size(); }
  const GeneralDescriptor &Child(size_t i) const { return *children_.at(i); }

  GeneralDescriptor(DescriptorType type, int32_t value1 = 0, int32_t value2 = 0,
                    float alpha = 1.0f);
  GeneralDescriptor(GeneralDescriptor &&) noexcept = default;
  GeneralDescriptor &operator=(GeneralDescriptor &&) noexcept = default;
  std::unique_ptr<GeneralDescriptor> Clone() const;

 private:
  friend class DescriptorParser;
  friend class DescriptorNormalizer;

  DescriptorType type_;
  // kNodeName: node index. kOffset: t, x. kRound: t-modulus.
  // kReplaceIndex: variable (ReplaceIndexForwardingDescriptor::VariableName),
  // value. kConst: dim.
  int32_t value1_;
  int32_t value2_;
  float alpha_;  // kScale: scale; kConst: value.
  std::vector<std::unique_ptr<GeneralDescriptor>> children_;
  // The text this tree was parsed from (root only), for error messages.
  std::string source_text_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_DESCRIPTOR_H_
