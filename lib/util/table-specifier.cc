#include "util/table-specifier.h"

#include <cctype>
#include <vector>

#include "base/error.h"
#include "base/text-utils.h"

namespace nnet3 {
namespace {

// Splits "ark,scp,t:a,b" into the option words and the target. False if
// there is no ':' or the specifier ends in whitespace.
bool SplitSpecifier(const std::string &spec, std::vector<std::string> *words,
                    std::string *target) {
  size_t colon = spec.find(':');
  if (colon == std::string::npos) return false;
  if (std::isspace(static_cast<unsigned char>(spec.back()))) return false;
  *words = SplitString(spec.substr(0, colon), ", ", /*omit_empty=*/true);
  *target = spec.substr(colon + 1);
  return true;
}

}  // namespace

WspecifierType ClassifyWspecifier(const std::string &wspecifier,
                                  std::string *archive_wxfilename,
                                  std::string *script_rxfilename,
                                  WspecifierOptions *opts) {
  if (archive_wxfilename) archive_wxfilename->clear();
  if (script_rxfilename) script_rxfilename->clear();
  WspecifierOptions options;
  std::vector<std::string> words;
  std::string target;
  if (!SplitSpecifier(wspecifier, &words, &target))
    return WspecifierType::kNoWspecifier;
  WspecifierType type = WspecifierType::kNoWspecifier;
  for (const std::string &w : words) {
    if (w == "b") {
      options.binary = true;
    } else if (w == "t") {
      options.binary = false;
    } else if (w == "f") {
      options.flush = true;
    } else if (w == "nf") {
      options.flush = false;
    } else if (w == "p") {
      options.permissive = true;
    } else if (w == "ark") {
      // "ark" must come first: "scp,ark" and "ark,ark" are invalid.
      if (type != WspecifierType::kNoWspecifier)
        return WspecifierType::kNoWspecifier;
      type = WspecifierType::kArchiveWspecifier;
    } else if (w == "scp") {
      if (type == WspecifierType::kNoWspecifier)
        type = WspecifierType::kScriptWspecifier;
      else if (type == WspecifierType::kArchiveWspecifier)
        type = WspecifierType::kBothWspecifier;
      else
        return WspecifierType::kNoWspecifier;
    } else {
      return WspecifierType::kNoWspecifier;
    }
  }
  std::string archive, script;
  if (type == WspecifierType::kArchiveWspecifier) {
    archive = target;
  } else if (type == WspecifierType::kScriptWspecifier) {
    script = target;
  } else if (type == WspecifierType::kBothWspecifier) {
    size_t comma = target.find(',');
    if (comma == std::string::npos) return WspecifierType::kNoWspecifier;
    archive = target.substr(0, comma);
    script = target.substr(comma + 1);
  } else {
    return WspecifierType::kNoWspecifier;
  }
  if (archive_wxfilename) *archive_wxfilename = archive;
  if (script_rxfilename) *script_rxfilename = script;
  if (opts) *opts = options;
  return type;
}

RspecifierType ClassifyRspecifier(const std::string &rspecifier,
                                  std::string *rxfilename,
                                  RspecifierOptions *opts) {
  if (rxfilename) rxfilename->clear();
  RspecifierOptions options;
  std::vector<std::string> words;
  std::string target;
  if (!SplitSpecifier(rspecifier, &words, &target))
    return RspecifierType::kNoRspecifier;
  RspecifierType type = RspecifierType::kNoRspecifier;
  for (const std::string &w : words) {
    if (w == "b" || w == "t") {
      // Accepted so that one specifier string can serve both directions.
    } else if (w == "o" || w == "no") {
      options.once = w == "o";
    } else if (w == "s" || w == "ns") {
      options.sorted = w == "s";
    } else if (w == "cs" || w == "ncs") {
      options.called_sorted = w == "cs";
    } else if (w == "p" || w == "np") {
      options.permissive = w == "p";
    } else if (w == "bg") {
      options.background = true;
    } else if (w == "ark" || w == "scp") {
      if (type != RspecifierType::kNoRspecifier)
        return RspecifierType::kNoRspecifier;
      type = w == "ark" ? RspecifierType::kArchiveRspecifier
                        : RspecifierType::kScriptRspecifier;
    } else {
      return RspecifierType::kNoRspecifier;
    }
  }
  if (type == RspecifierType::kNoRspecifier) return type;
  if (rxfilename) *rxfilename = target;
  if (opts) *opts = options;
  return type;
}

bool IsRspecifier(const std::string &arg) {
  return ClassifyRspecifier(arg, nullptr, nullptr) !=
         RspecifierType::kNoRspecifier;
}

bool IsWspecifier(const std::string &arg) {
  return ClassifyWspecifier(arg, nullptr, nullptr, nullptr) !=
         WspecifierType::kNoWspecifier;
}

bool IsTableCopy(const std::string &in, const std::string &out) {
  bool in_is_table = IsRspecifier(in), out_is_table = IsWspecifier(out);
  if (in_is_table != out_is_table)
    NNET3_ERR << "Cannot mix archives/scripts with regular files: '" << in
              << "' and '" << out << "' (use e.g. ark:in.ark ark:out.ark, "
              << "or in.mat out.mat)";
  return in_is_table;
}

}  // namespace nnet3
