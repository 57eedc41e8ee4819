// Normalizing a GeneralDescriptor (reference 2.5) and converting it to the
// runtime Descriptor classes.
//
// Order: NormalizeAppend() first moves Append to the top (distributing every
// other operator over the Append terms); then single rewrite steps are
// applied until none applies:
//   Offset(Offset(x, a), b) -> Offset(x, a + b);  Offset(x, 0, 0) -> x
//   Offset/Switch/Round/ReplaceIndex over Sum/Failover/IfDefined are pushed
//     inside them (an error for a Switch with several arguments)
//   Sum(x) -> x;  Sum(a, b, c...) -> Sum(a, Sum(b, c...))
//   Scale swaps with Offset/Round/ReplaceIndex, distributes over Sum, and
//     nested Scales multiply; over anything else it is an error.
// After that, Scale sits directly on node names and Sum/Failover/IfDefined/
// Const only above the forwarding operators, which is what conversion needs.
#include <limits>
#include <sstream>

#include "base/error.h"
#include "nnet/descriptor.h"

namespace nnet3 {

class DescriptorNormalizer {
 public:
  using Ptr = std::unique_ptr<GeneralDescriptor>;
  using Type = GeneralDescriptor::DescriptorType;

  static Ptr NormalizeFully(const GeneralDescriptor &d) {
    Ptr ans = NormalizeAppend(d);
    while (Normalize(ans.get())) {
    }
    return ans;
  }

  static std::unique_ptr<SumDescriptor> ToSum(const GeneralDescriptor &d);

  // Runs `fn`, prefixing the text `root` was parsed from to any UserError.
  template <class F>
  static auto WithContext(const GeneralDescriptor &root, F fn)
      -> decltype(fn()) {
    try {
      return fn();
    } catch (const UserError &e) {
      if (root.source_text_.empty()) throw;
      throw UserError("In descriptor '" + root.source_text_ + "': " + e.what(),
                      e.where());
    }
  }

 private:
  static bool IsSumLike(Type t) {
    return t == GeneralDescriptor::kSum || t == GeneralDescriptor::kFailover ||
           t == GeneralDescriptor::kIfDefined;
  }
  static bool IsForwardingOp(Type t) {
    return t == GeneralDescriptor::kOffset || t == GeneralDescriptor::kSwitch ||
           t == GeneralDescriptor::kRound ||
           t == GeneralDescriptor::kReplaceIndex;
  }

  static int32_t NumAppendTerms(const GeneralDescriptor &d);
  static Ptr GetAppendTerm(const GeneralDescriptor &d, int32_t term);
  static Ptr NormalizeAppend(const GeneralDescriptor &d);
  static bool Normalize(GeneralDescriptor *d);
  static void ReplaceWithChild(GeneralDescriptor *d);
  static bool NormalizeOffset(GeneralDescriptor *d);
  static bool NormalizeSum(GeneralDescriptor *d);
  static bool NormalizeScale(GeneralDescriptor *d);
  static bool PushInsideSumLike(GeneralDescriptor *d);
  static std::unique_ptr<ForwardingDescriptor> ToForwarding(
      const GeneralDescriptor &d, Type parent);
};

int32_t DescriptorNormalizer::NumAppendTerms(const GeneralDescriptor &d) {
  switch (d.type_) {
    case GeneralDescriptor::kNodeName:
    case GeneralDescriptor::kConst:
      return 1;
    case GeneralDescriptor::kAppend: {
      int32_t ans = 0;
      for (const auto &c : d.children_) ans += NumAppendTerms(*c);
      return ans;
    }
    default: {
      // Every other operator is distributed over the Append terms, so its
      // arguments must line up term by term.
      int32_t ans = NumAppendTerms(*d.children_[0]);
      for (size_t i = 1; i < d.children_.size(); i++) {
        int32_t n = NumAppendTerms(*d.children_[i]);
        if (n != ans)
          NNET3_ERR << "the arguments of "
                    << GeneralDescriptor::TypeName(d.type_)
                    << "() have different numbers of Append() terms (" << ans
                    << " vs. " << n << "); can't currently normalize this";
      }
      return ans;
    }
  }
}

DescriptorNormalizer::Ptr DescriptorNormalizer::GetAppendTerm(
    const GeneralDescriptor &d, int32_t term) {
  if (d.type_ == GeneralDescriptor::kAppend) {
    for (const auto &c : d.children_) {
      int32_t n = NumAppendTerms(*c);
      if (term < n) return GetAppendTerm(*c, term);
      term -= n;
    }
    NNET3_ASSERT(false && "Append term out of range");
  }
  auto ans = std::make_unique<GeneralDescriptor>(d.type_, d.value1_, d.value2_,
                                                 d.alpha_);
  for (const auto &c : d.children_)
    ans->children_.push_back(GetAppendTerm(*c, term));
  return ans;
}

DescriptorNormalizer::Ptr DescriptorNormalizer::NormalizeAppend(
    const GeneralDescriptor &d) {
  int32_t num_terms = NumAppendTerms(d);
  NNET3_ASSERT(num_terms > 0);
  if (num_terms == 1) return GetAppendTerm(d, 0);
  auto ans = std::make_unique<GeneralDescriptor>(GeneralDescriptor::kAppend);
  for (int32_t i = 0; i < num_terms; i++)
    ans->children_.push_back(GetAppendTerm(d, i));
  return ans;
}

bool DescriptorNormalizer::Normalize(GeneralDescriptor *d) {
  bool changed = false;
  switch (d->type_) {
    case GeneralDescriptor::kOffset:
      changed = NormalizeOffset(d);
      break;
    case GeneralDescriptor::kSum:
      changed = NormalizeSum(d);
      break;
    case GeneralDescriptor::kScale:
      changed = NormalizeScale(d);
      break;
    default:
      break;
  }
  if (!changed && IsForwardingOp(d->type_)) changed = PushInsideSumLike(d);
  for (auto &c : d->children_)
    if (Normalize(c.get())) changed = true;
  return changed;
}

// *d becomes its only child.
void DescriptorNormalizer::ReplaceWithChild(GeneralDescriptor *d) {
  NNET3_ASSERT(d->children_.size() == 1);
  Ptr child = std::move(d->children_[0]);
  std::string source_text = std::move(d->source_text_);
  *d = std::move(*child);
  d->source_text_ = std::move(source_text);
}

bool DescriptorNormalizer::NormalizeOffset(GeneralDescriptor *d) {
  GeneralDescriptor *child = d->children_[0].get();
  if (child->type_ == GeneralDescriptor::kOffset) {
    int64_t t = static_cast<int64_t>(d->value1_) + child->value1_,
            x = static_cast<int64_t>(d->value2_) + child->value2_;
    const int64_t kMax = std::numeric_limits<int32_t>::max(),
                  kMin = std::numeric_limits<int32_t>::min();
    if (t > kMax || t < kMin || x > kMax || x < kMin)
      NNET3_ERR << "nested Offset() expressions add up to an offset out of "
                << "the 32-bit range";
    d->value1_ = static_cast<int32_t>(t);
    d->value2_ = static_cast<int32_t>(x);
    Ptr grandchild = std::move(child->children_[0]);
    d->children_[0] = std::move(grandchild);
    return true;
  }
  if (d->value1_ == 0 && d->value2_ == 0) {
    ReplaceWithChild(d);
    return true;
  }
  return false;
}

bool DescriptorNormalizer::NormalizeSum(GeneralDescriptor *d) {
  if (d->children_.size() == 1) {
    ReplaceWithChild(d);
    return true;
  }
  if (d->children_.size() > 2) {
    auto rest = std::make_unique<GeneralDescriptor>(GeneralDescriptor::kSum);
    for (size_t i = 1; i < d->children_.size(); i++)
      rest->children_.push_back(std::move(d->children_[i]));
    d->children_.resize(1);
    d->children_.push_back(std::move(rest));
    return true;
  }
  return false;
}

bool DescriptorNormalizer::NormalizeScale(GeneralDescriptor *d) {
  GeneralDescriptor *child = d->children_[0].get();
  switch (child->type_) {
    case GeneralDescriptor::kNodeName:
      return false;
    case GeneralDescriptor::kScale: {
      d->alpha_ *= child->alpha_;
      Ptr grandchild = std::move(child->children_[0]);
      d->children_[0] = std::move(grandchild);
      return true;
    }
    case GeneralDescriptor::kOffset:
    case GeneralDescriptor::kRound:
    case GeneralDescriptor::kReplaceIndex:
      // Scale(s, Offset(x, t)) -> Offset(Scale(s, x), t): the nodes swap
      // their contents, keeping the tree shape.
      std::swap(d->type_, child->type_);
      std::swap(d->value1_, child->value1_);
      std::swap(d->value2_, child->value2_);
      std::swap(d->alpha_, child->alpha_);
      return true;
    case GeneralDescriptor::kSum: {
      std::vector<Ptr> scaled;
      for (auto &gc : child->children_) {
        auto s = std::make_unique<GeneralDescriptor>(GeneralDescriptor::kScale,
                                                     0, 0, d->alpha_);
        s->children_.push_back(std::move(gc));
        scaled.push_back(std::move(s));
      }
      d->type_ = GeneralDescriptor::kSum;
      d->alpha_ = 1.0f;
      d->children_ = std::move(scaled);
      return true;
    }
    default: {
      const char *name = GeneralDescriptor::TypeName(child->type_);
      NNET3_ERR << "Unhandled case encountered when pushing Scale() inside "
                << "other expressions: Scale() over " << name << "() is not "
                << "supported; "
                << (child->type_ == GeneralDescriptor::kConst
                        ? "scale the Const() value instead"
                        : "put the Scale() inside its arguments instead");
    }
  }
  return false;
}

bool DescriptorNormalizer::PushInsideSumLike(GeneralDescriptor *d) {
  size_t num_children = d->children_.size();
  for (const auto &c : d->children_) {
    if (IsSumLike(c->type_) && num_children > 1)
      NNET3_ERR << GeneralDescriptor::TypeName(c->type_) << "() inside a "
                << "Switch() with more than one argument: can't currently "
                << "normalize this; put the Switch() inside the "
                << GeneralDescriptor::TypeName(c->type_) << "() instead";
  }
  if (num_children != 1 || !IsSumLike(d->children_[0]->type_)) return false;
  // E.g. Offset(Sum(a, b), 1) -> Sum(Offset(a, 1), Offset(b, 1)).
  Ptr child = std::move(d->children_[0]);
  for (auto &gc : child->children_) {
    auto op = std::make_unique<GeneralDescriptor>(d->type_, d->value1_,
                                                  d->value2_, d->alpha_);
    op->children_.push_back(std::move(gc));
    gc = std::move(op);
  }
  d->type_ = child->type_;
  d->value1_ = child->value1_;
  d->value2_ = child->value2_;
  d->alpha_ = child->alpha_;
  d->children_ = std::move(child->children_);
  return true;
}

std::unique_ptr<SumDescriptor> DescriptorNormalizer::ToSum(
    const GeneralDescriptor &d) {
  switch (d.type_) {
    case GeneralDescriptor::kSum:
    case GeneralDescriptor::kFailover:
      NNET3_ASSERT(d.children_.size() == 2);
      return std::make_unique<BinarySumDescriptor>(
          d.type_ == GeneralDescriptor::kSum
              ? BinarySumDescriptor::kSumOperation
              : BinarySumDescriptor::kFailoverOperation,
          ToSum(*d.children_[0]), ToSum(*d.children_[1]));
    case GeneralDescriptor::kIfDefined:
      return std::make_unique<OptionalSumDescriptor>(ToSum(*d.children_[0]));
    case GeneralDescriptor::kConst:
      return std::make_unique<ConstantSumDescriptor>(d.alpha_, d.value1_);
    case GeneralDescriptor::kAppend:
      NNET3_ASSERT(false && "Append() left inside after normalization");
      return nullptr;
    default:
      return std::make_unique<SimpleSumDescriptor>(
          ToForwarding(d, GeneralDescriptor::kSum));
  }
}

std::unique_ptr<ForwardingDescriptor> DescriptorNormalizer::ToForwarding(
    const GeneralDescriptor &d, Type parent) {
  switch (d.type_) {
    case GeneralDescriptor::kNodeName:
      return std::make_unique<SimpleForwardingDescriptor>(d.value1_);
    case GeneralDescriptor::kScale:
      NNET3_ASSERT(d.children_[0]->type_ == GeneralDescriptor::kNodeName);
      return std::make_unique<SimpleForwardingDescriptor>(
          d.children_[0]->value1_, d.alpha_);
    case GeneralDescriptor::kOffset:
      return std::make_unique<OffsetForwardingDescriptor>(
          ToForwarding(*d.children_[0], d.type_),
          Index(0, d.value1_, d.value2_));
    case GeneralDescriptor::kSwitch: {
      std::vector<std::unique_ptr<ForwardingDescriptor>> src;
      for (const auto &c : d.children_)
        src.push_back(ToForwarding(*c, d.type_));
      return std::make_unique<SwitchingForwardingDescriptor>(std::move(src));
    }
    case GeneralDescriptor::kRound:
      return std::make_unique<RoundingForwardingDescriptor>(
          ToForwarding(*d.children_[0], d.type_), d.value1_);
    case GeneralDescriptor::kReplaceIndex:
      return std::make_unique<ReplaceIndexForwardingDescriptor>(
          ToForwarding(*d.children_[0], d.type_),
          static_cast<ReplaceIndexForwardingDescriptor::VariableName>(
              d.value1_),
          d.value2_);
    case GeneralDescriptor::kConst:
      NNET3_ERR << "Const() appeared too deep in the expression (inside "
                << GeneralDescriptor::TypeName(parent) << "()); it may only "
                << "appear at the top or directly inside Append(), Sum(), "
                << "Failover() or IfDefined()";
      return nullptr;
    default:
      NNET3_ASSERT(false && "Sum-like expression left below a forwarding one");
      return nullptr;
  }
}

std::unique_ptr<GeneralDescriptor> GeneralDescriptor::GetNormalizedDescriptor()
    const {
  return DescriptorNormalizer::WithContext(*this, [this] {
    auto ans = DescriptorNormalizer::NormalizeFully(*this);
    ans->source_text_ = source_text_;
    return ans;
  });
}

Descriptor GeneralDescriptor::ConvertToDescriptor() const {
  return DescriptorNormalizer::WithContext(*this, [this] {
    auto normalized = DescriptorNormalizer::NormalizeFully(*this);
    std::vector<std::unique_ptr<SumDescriptor>> parts;
    if (normalized->type_ == kAppend) {
      for (const auto &c : normalized->children_)
        parts.push_back(DescriptorNormalizer::ToSum(*c));
    } else {
      parts.push_back(DescriptorNormalizer::ToSum(*normalized));
    }
    return Descriptor(std::move(parts));
  });
}

}  // namespace nnet3
