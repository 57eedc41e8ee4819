// Named arguments for NetBuilder::AddOp, so that building a network reads as
// the network-design seed writes it:
//
//   using namespace nnet3::builder::args;
//   Variable *fc_out = builder.AddOp("fc", input = image, size = 100,
//                                    activation = "Sigmoid");
//
// Each key (`input`, `size`, ...) is a constant whose operator= makes a
// NamedArg; AddOp collects them into an OpArgs, and each op reads the keys it
// knows (a key an op does not use is an error naming the op and the key, so
// a misspelt argument is never silently ignored). Values are kept with their
// C++ type: variables, integers, reals, strings, integer lists.
#ifndef NNET3_BUILDER_OP_ARGS_H_
#define NNET3_BUILDER_OP_ARGS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace nnet3 {
namespace builder {

struct Variable;

struct ArgValue {
  enum Type { kVariable, kInt, kReal, kString, kIntList } type = kInt;
  const Variable *variable = nullptr;
  int64_t int_value = 0;
  double real_value = 0.0;
  std::string string_value;
  std::vector<int32_t> int_list;
};

struct NamedArg {
  std::string key;
  ArgValue value;
};

// The arguments of one AddOp call, read by the op that handles it.
class OpArgs {
 public:
  void Set(const NamedArg &arg);
  bool Has(const std::string &key) const { return args_.count(key) != 0; }
  // Typed getters: UserError naming the op and the key when the key is
  // missing (without a default) or has another type.
  const Variable *GetVariable(const std::string &key) const;
  int64_t GetInt(const std::string &key) const;
  int64_t GetInt(const std::string &key, int64_t default_value) const;
  double GetReal(const std::string &key, double default_value) const;
  std::string GetString(const std::string &key,
                        const std::string &default_value) const;
  std::vector<int32_t> GetIntList(const std::string &key,
                                  const std::vector<int32_t> &def) const;
  // After the op has read its arguments: UserError for any key it did not
  // read ("op 'fc' has no argument 'sise'").
  void CheckAllUsed() const;
  void SetOpName(const std::string &op) { op_ = op; }

 private:
  const ArgValue &Get(const std::string &key) const;
  std::string op_;
  std::map<std::string, ArgValue> args_;
  mutable std::set<std::string> used_;
};

// A key of type T: `key = value` makes a NamedArg.
template <class T>
struct ArgKey {
  const char *name;
  NamedArg operator=(const T &value) const;  // NOLINT: the syntax we want
};

template <>
inline NamedArg ArgKey<const Variable *>::operator=(
    const Variable *const &v) const {
  NamedArg a{name, {}};
  a.value.type = ArgValue::kVariable;
  a.value.variable = v;
  return a;
}
template <>
inline NamedArg ArgKey<int64_t>::operator=(const int64_t &v) const {
  NamedArg a{name, {}};
  a.value.type = ArgValue::kInt;
  a.value.int_value = v;
  return a;
}
template <>
inline NamedArg ArgKey<double>::operator=(const double &v) const {
  NamedArg a{name, {}};
  a.value.type = ArgValue::kReal;
  a.value.real_value = v;
  return a;
}
template <>
inline NamedArg ArgKey<std::string>::operator=(const std::string &v) const {
  NamedArg a{name, {}};
  a.value.type = ArgValue::kString;
  a.value.string_value = v;
  return a;
}
template <>
inline NamedArg ArgKey<std::vector<int32_t>>::operator=(
    const std::vector<int32_t> &v) const {
  NamedArg a{name, {}};
  a.value.type = ArgValue::kIntList;
  a.value.int_list = v;
  return a;
}

// The keys. `using namespace nnet3::builder::args;` brings them into scope.
namespace args {
inline constexpr ArgKey<const Variable *> input{"input"};
inline constexpr ArgKey<const Variable *> label{"label"};
inline constexpr ArgKey<int64_t> size{"size"};
inline constexpr ArgKey<std::string> activation{"activation"};
inline constexpr ArgKey<std::vector<int32_t>> context{"context"};
inline constexpr ArgKey<double> proportion{"proportion"};
inline constexpr ArgKey<double> param_stddev{"param_stddev"};
inline constexpr ArgKey<double> bias_stddev{"bias_stddev"};
inline constexpr ArgKey<double> learning_rate_factor{"learning_rate_factor"};
inline constexpr ArgKey<double> max_change{"max_change"};
inline constexpr ArgKey<double> l2_regularize{"l2_regularize"};
inline constexpr ArgKey<int64_t> natural_gradient{"natural_gradient"};
inline constexpr ArgKey<double> target_rms{"target_rms"};
inline constexpr ArgKey<std::string> name{"name"};
}  // namespace args

}  // namespace builder
}  // namespace nnet3

#endif  // NNET3_BUILDER_OP_ARGS_H_
