// Reading descriptor text: the tokenizer (reference 2.1) and a recursive
// descent parser for the surface grammar (reference 2.2) that builds a
// GeneralDescriptor. Tokens keep their character positions so that an error
// can quote the text that came before the unexpected token.
#include <cmath>
#include <sstream>

#include "base/error.h"
#include "base/text-utils.h"
#include "nnet/descriptor.h"

namespace nnet3 {

namespace {

struct Token {
  std::string text;
  size_t begin;  // character range [begin, end) in the descriptor text
  size_t end;
};

const char kEndOfInput[] = "end of input";

bool IsSeparator(char c) { return c == ' ' || c == '\t'; }
bool IsPunctuation(char c) { return c == '(' || c == ')' || c == ','; }

bool TokenizeWithPositions(const std::string &text, std::vector<Token> *tokens,
                           std::string *error_message) {
  tokens->clear();
  size_t i = 0, n = text.size();
  while (i < n) {
    if (IsSeparator(text[i])) {
      i++;
    } else if (IsPunctuation(text[i])) {
      tokens->push_back({std::string(1, text[i]), i, i + 1});
      i++;
    } else {
      size_t j = i;
      while (j < n && !IsSeparator(text[j]) && !IsPunctuation(text[j])) j++;
      std::string word = text.substr(i, j - i);
      double number;
      if (!IsValidName(word) && !ConvertStringToReal(word, &number)) {
        if (error_message != nullptr)
          *error_message = "bad token '" + word + "' at character " +
                           std::to_string(i + 1) +
                           ": it is neither a valid name nor a number";
        return false;
      }
      tokens->push_back({word, i, j});
      i = j;
    }
  }
  return true;
}

struct Keyword {
  const char *name;
  GeneralDescriptor::DescriptorType type;
};

const Keyword kKeywords[] = {
    {"Append", GeneralDescriptor::kAppend},
    {"Sum", GeneralDescriptor::kSum},
    {"Failover", GeneralDescriptor::kFailover},
    {"IfDefined", GeneralDescriptor::kIfDefined},
    {"Offset", GeneralDescriptor::kOffset},
    {"Switch", GeneralDescriptor::kSwitch},
    {"Round", GeneralDescriptor::kRound},
    {"ReplaceIndex", GeneralDescriptor::kReplaceIndex},
    {"Scale", GeneralDescriptor::kScale},
    {"Const", GeneralDescriptor::kConst},
};

bool LookUpKeyword(const std::string &word,
                   GeneralDescriptor::DescriptorType *type) {
  for (const Keyword &k : kKeywords) {
    if (word == k.name) {
      *type = k.type;
      return true;
    }
  }
  return false;
}

}  // namespace

bool DescriptorTokenize(const std::string &text,
                        std::vector<std::string> *tokens,
                        std::string *error_message) {
  std::vector<Token> with_positions;
  tokens->clear();
  if (!TokenizeWithPositions(text, &with_positions, error_message))
    return false;
  for (Token &t : with_positions) tokens->push_back(std::move(t.text));
  return true;
}

// Recursive descent over the token list. Every "expected X" error quotes
// the text from a context token up to the current one: the previous
// argument when a separator is missing, else the construct read so far.
class DescriptorParser {
 public:
  using Ptr = std::unique_ptr<GeneralDescriptor>;

  DescriptorParser(const std::vector<std::string> &node_names,
                   const std::string &text)
      : node_names_(node_names), text_(text) {}

  Ptr ParseAll() {
    std::string error;
    if (!TokenizeWithPositions(text_, &tokens_, &error))
      NNET3_ERR << "In descriptor '" << text_ << "': " << error;
    tokens_.push_back({kEndOfInput, text_.size(), text_.size()});
    Ptr ans = ParseDescriptor(0);
    if (!AtEnd()) Fail("end of input", 0);
    ans->source_text_ = text_;
    return ans;
  }

 private:
  using Type = GeneralDescriptor::DescriptorType;

  bool AtEnd() const { return pos_ + 1 == tokens_.size(); }
  const std::string &Cur() const { return tokens_[pos_].text; }

  [[noreturn]] void Fail(const std::string &expected, size_t context_first,
                         const std::string &got_prefix = "") const {
    std::ostringstream msg;
    msg << "In descriptor '" << text_ << "': expected " << expected;
    if (context_first < pos_) {
      size_t b = tokens_[context_first].begin, e = tokens_[pos_ - 1].end;
      msg << " after '" << text_.substr(b, e - b) << "'";
    } else {
      msg << " at the start";
    }
    if (AtEnd())
      msg << " but got end of input";
    else
      msg << " but got " << got_prefix << "'" << Cur() << "'";
    throw UserError(msg.str(), SourceLocation{__FILE__, __LINE__, __func__});
  }

  void Expect(const char *token, size_t context_first) {
    if (AtEnd() || Cur() != token)
      Fail(std::string("'") + token + "'", context_first);
    pos_++;
  }

  int32_t ReadInteger(const char *what, bool positive, size_t context_first) {
    int32_t value;
    if (AtEnd() || !ConvertStringToInteger(Cur(), &value) ||
        (positive && value <= 0))
      Fail(what, context_first);
    pos_++;
    return value;
  }

  float ReadFloat(const char *what, size_t context_first) {
    float value;
    if (AtEnd() || !ConvertStringToReal(Cur(), &value) || !std::isfinite(value))
      Fail(what, context_first);
    pos_++;
    return value;
  }

  // Parses a child into `parent`; returns the child's first token.
  size_t ParseChild(GeneralDescriptor *parent, size_t context_first) {
    size_t first = pos_;
    parent->children_.push_back(ParseDescriptor(context_first));
    return first;
  }

  Ptr ParseDescriptor(size_t context_first) {
    size_t start = pos_;
    Type type;
    if (AtEnd() || !LookUpKeyword(Cur(), &type))
      return ParseNodeName(context_first);
    pos_++;
    Expect("(", start);
    auto ans = std::make_unique<GeneralDescriptor>(type);
    switch (type) {
      case GeneralDescriptor::kAppend:
      case GeneralDescriptor::kSum:
      case GeneralDescriptor::kSwitch:
        ParseList(ans.get(), start);
        break;
      case GeneralDescriptor::kFailover:
        Expect(",", ParseChild(ans.get(), start));
        Expect(")", ParseChild(ans.get(), start));
        break;
      case GeneralDescriptor::kIfDefined:
        Expect(")", ParseChild(ans.get(), start));
        break;
      case GeneralDescriptor::kOffset:
        ParseOffset(ans.get(), start);
        break;
      case GeneralDescriptor::kRound:
        Expect(",", ParseChild(ans.get(), start));
        ans->value1_ = ReadInteger("a positive integer t-modulus", true, start);
        Expect(")", start);
        break;
      case GeneralDescriptor::kReplaceIndex:
        ParseReplaceIndex(ans.get(), start);
        break;
      case GeneralDescriptor::kScale:
        ans->alpha_ = ReadFloat("a number (the scale)", start);
        Expect(",", start);
        Expect(")", ParseChild(ans.get(), start));
        break;
      case GeneralDescriptor::kConst:
        ans->alpha_ = ReadFloat("a number (the constant value)", start);
        Expect(",", start);
        ans->value1_ = ReadInteger("a positive integer dimension", true, start);
        Expect(")", start);
        break;
      case GeneralDescriptor::kNodeName:
        NNET3_ASSERT(false);
    }
    return ans;
  }

  Ptr ParseNodeName(size_t context_first) {
    if (!AtEnd() && IsValidName(Cur())) {
      for (size_t i = 0; i < node_names_.size(); i++) {
        if (node_names_[i] == Cur()) {
          pos_++;
          return std::make_unique<GeneralDescriptor>(
              GeneralDescriptor::kNodeName, static_cast<int32_t>(i));
        }
      }
      Fail("a descriptor", context_first, "unknown node ");
    }
    Fail("a descriptor", context_first);
  }

  void ParseList(GeneralDescriptor *d, size_t start) {
    size_t last_child = ParseChild(d, start);
    while (true) {
      if (!AtEnd() && Cur() == ")") {
        pos_++;
        return;
      }
      if (AtEnd() || Cur() != ",") Fail("',' or ')'", last_child);
      pos_++;
      last_child = ParseChild(d, start);
    }
  }

  void ParseOffset(GeneralDescriptor *d, size_t start) {
    Expect(",", ParseChild(d, start));
    d->value1_ = ReadInteger("an integer t-offset", false, start);
    if (!AtEnd() && Cur() == ",") {
      pos_++;
      d->value2_ = ReadInteger("an integer x-offset", false, start);
      Expect(")", start);
    } else if (AtEnd() || Cur() != ")") {
      Fail("',' or ')'", start);
    } else {
      pos_++;
    }
  }

  void ParseReplaceIndex(GeneralDescriptor *d, size_t start) {
    Expect(",", ParseChild(d, start));
    if (!AtEnd() && Cur() == "t")
      d->value1_ = ReplaceIndexForwardingDescriptor::kT;
    else if (!AtEnd() && Cur() == "x")
      d->value1_ = ReplaceIndexForwardingDescriptor::kX;
    else
      Fail("'t' or 'x'", start);
    pos_++;
    Expect(",", start);
    d->value2_ = ReadInteger("an integer value", false, start);
    Expect(")", start);
  }

  const std::vector<std::string> &node_names_;
  const std::string &text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

std::unique_ptr<GeneralDescriptor> GeneralDescriptor::Parse(
    const std::vector<std::string> &node_names, const std::string &text) {
  DescriptorParser parser(node_names, text);
  return parser.ParseAll();
}

GeneralDescriptor::GeneralDescriptor(DescriptorType type, int32_t value1,
                                     int32_t value2, float alpha)
    : type_(type), value1_(value1), value2_(value2), alpha_(alpha) {}

std::unique_ptr<GeneralDescriptor> GeneralDescriptor::Clone() const {
  auto ans =
      std::make_unique<GeneralDescriptor>(type_, value1_, value2_, alpha_);
  for (const auto &c : children_) ans->children_.push_back(c->Clone());
  ans->source_text_ = source_text_;
  return ans;
}

const char *GeneralDescriptor::TypeName(DescriptorType type) {
  for (const Keyword &k : kKeywords)
    if (k.type == type) return k.name;
  return "node name";
}

void GeneralDescriptor::Print(const std::vector<std::string> &node_names,
                              std::ostream &os) const {
  std::ostringstream floats;  // default format, whatever `os` is set to
  switch (type_) {
    case kNodeName:
      NNET3_ASSERT(static_cast<size_t>(value1_) < node_names.size());
      os << node_names[value1_];
      return;
    case kConst:
      floats << alpha_;
      os << "Const(" << floats.str() << ", " << value1_ << ")";
      return;
    case kScale:
      floats << alpha_;
      os << "Scale(" << floats.str() << ", ";
      children_[0]->Print(node_names, os);
      os << ")";
      return;
    default:
      break;
  }
  os << TypeName(type_) << "(";
  for (size_t i = 0; i < children_.size(); i++) {
    if (i > 0) os << ", ";
    children_[i]->Print(node_names, os);
  }
  if (type_ == kOffset) {
    os << ", " << value1_;
    if (value2_ != 0) os << ", " << value2_;
  } else if (type_ == kRound) {
    os << ", " << value1_;
  } else if (type_ == kReplaceIndex) {
    os << (value1_ == ReplaceIndexForwardingDescriptor::kT ? ", t, " : ", x, ")
       << value2_;
  }
  os << ")";
}

}  // namespace nnet3
