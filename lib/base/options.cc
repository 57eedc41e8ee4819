#include "base/options.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"

namespace nnet3 {

// One registered option: how to add it to a CLI11 app, and how to show it.
struct OptionsRegistry::Option {
  std::string type;  // "bool", "int", "uint", "float", "double", "string"
  std::string doc;
  std::string default_value;
  bool is_bool = false;
  std::function<void(CLI::App *, const std::string &)> add;
};

namespace {

std::string NormalizeName(const std::string &name) {
  std::string out = name;
  for (char &c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (c == '_') c = '-';
  }
  return out;
}

template <class T>
std::string ToString(const T &value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

// Kaldi accepts true/t/1 and false/f/0 in any case; returns "" if invalid.
std::string NormalizeBool(const std::string &value) {
  std::string v = NormalizeName(value);
  if (v == "true" || v == "t" || v == "1") return "true";
  if (v == "false" || v == "f" || v == "0") return "false";
  return "";
}

std::string QuoteForShell(const std::string &arg) {
  bool plain = !arg.empty();
  for (char c : arg)
    if (!(std::isalnum(static_cast<unsigned char>(c)) ||
          std::string("-_.,:/=+%@").find(c) != std::string::npos))
      plain = false;
  if (plain) return arg;
  std::string out = "'";
  for (char c : arg) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

OptionsRegistry::OptionsRegistry(const std::string &usage) : usage_(usage) {
  Register("config", &config_,
           "Configuration file to read (this option may be repeated)");
  Register("print-args", &print_args_,
           "Print the command line arguments (to stderr)");
  Register("help", &help_, "Print out usage message");
  Register("verbose", &verbose_, "Verbose level (higher->more logging)");
}

OptionsRegistry::OptionsRegistry(const std::string &prefix,
                                 OptionsRegistry *parent)
    : parent_(parent), prefix_(prefix) {}

OptionsRegistry::~OptionsRegistry() = default;

void OptionsRegistry::Add(const std::string &name,
                          std::unique_ptr<Option> option) {
  if (parent_ != nullptr) {
    parent_->Add(prefix_ + "." + name, std::move(option));
    return;
  }
  std::string key = NormalizeName(name);
  NNET3_ASSERT(!key.empty() && options_.count(key) == 0);
  order_.push_back(key);
  options_[key] = std::move(option);
}

#define NNET3_REGISTER_OPTION(T, type_name)                     \
  void OptionsRegistry::Register(const std::string &name, T *value,         \
                                 const std::string &doc) {                  \
    auto option = std::make_unique<Option>();                               \
    option->type = type_name;                                               \
    option->doc = doc;                                                      \
    option->default_value = ToString(*value);                               \
    option->add = [value](CLI::App *app, const std::string &flag) {         \
      app->add_option(flag, *value);                                        \
    };                                                                      \
    Add(name, std::move(option));                                           \
  }

NNET3_REGISTER_OPTION(int32_t, "int")
NNET3_REGISTER_OPTION(uint32_t, "uint")
NNET3_REGISTER_OPTION(float, "float")
NNET3_REGISTER_OPTION(double, "double")
NNET3_REGISTER_OPTION(std::string, "string")
#undef NNET3_REGISTER_OPTION

void OptionsRegistry::Register(const std::string &name, bool *value,
                               const std::string &doc) {
  auto option = std::make_unique<Option>();
  option->type = "bool";
  option->doc = doc;
  option->is_bool = true;
  option->default_value = *value ? "true" : "false";
  option->add = [value](CLI::App *app, const std::string &flag) {
    app->add_flag(flag, *value);
  };
  Add(name, std::move(option));
}

std::string OptionsRegistry::GetArg(int i) const {
  NNET3_ASSERT(i >= 1 && i <= NumArgs());
  return positional_[i - 1];
}

std::string OptionsRegistry::GetOptArg(int i) const {
  return (i >= 1 && i <= NumArgs()) ? positional_[i - 1] : "";
}

bool OptionsRegistry::WasGiven(const std::string &name) const {
  if (parent_ != nullptr) return parent_->WasGiven(prefix_ + "." + name);
  return given_.count(NormalizeName(name)) > 0;
}

void OptionsRegistry::PrintUsage() const {
  NNET3_ASSERT(parent_ == nullptr);
  std::ostringstream os;
  os << '\n' << usage_ << '\n';
  auto print_group = [&](bool standard) {
    for (const std::string &key : order_) {
      bool is_standard = key == "config" || key == "print-args" ||
                         key == "help" || key == "verbose";
      if (is_standard != standard) continue;
      const Option &o = *options_.at(key);
      std::string def = o.type == "string" ? "\"" + o.default_value + "\""
                                           : o.default_value;
      os << "  --" << std::left << std::setw(26) << key << " : " << o.doc
         << " (" << o.type << ", default = " << def << ")\n";
    }
  };
  if (order_.size() > 4) {
    os << "Options:\n";
    print_group(false);
    os << '\n';
  }
  os << "Standard options:\n";
  print_group(true);
  os << '\n';
  std::cerr << os.str() << std::flush;
}

void OptionsRegistry::ReadConfigFile(const std::string &filename,
                                     std::vector<std::string> *args) const {
  std::ifstream is(filename);
  if (!is)
    NNET3_ERR << "Cannot open config file '" << filename
              << "' (given by --config)";
  std::string line;
  int line_number = 0;
  while (std::getline(is, line)) {
    line_number++;
    size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line = Trim(line);
    if (line.empty()) continue;
    if (line.compare(0, 2, "--") != 0 || line.size() < 3)
      NNET3_ERR << "Config file '" << filename << "' line " << line_number
                << ": expected an option of the form --name=value, got '"
                << line << "'";
    if (NormalizeName(line.substr(0, 9)) == "--config=")
      NNET3_ERR << "Config file '" << filename << "' line " << line_number
                << ": --config cannot be nested";
    args->push_back(line);
  }
}

// Validates the normalized `--name[=value]` arguments and applies them in
// order through CLI11 (last value wins).
void OptionsRegistry::Apply(const std::vector<std::string> &args) {
  CLI::App app;
  app.set_help_flag();  // --help is ours (usage to stderr)
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.allow_extras(false);
  for (const std::string &key : order_) options_[key]->add(&app, "--" + key);
  std::vector<std::string> cli_args;
  for (const std::string &arg : args) {
    size_t eq = arg.find('=');
    std::string name = NormalizeName(arg.substr(2, eq == std::string::npos
                                                       ? std::string::npos
                                                       : eq - 2));
    auto it = options_.find(name);
    if (it == options_.end())
      NNET3_ERR << "Invalid option " << arg
                << " (see --help for the options this program takes)";
    std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (it->second->is_bool) {
      if (eq == std::string::npos) value = "true";
      std::string b = NormalizeBool(value);
      if (b.empty())
        NNET3_ERR << "Invalid value '" << value << "' for boolean option --"
                  << name << " (use true, false, t, f, 1 or 0)";
      value = b;
    } else if (eq == std::string::npos) {
      NNET3_ERR << "Option --" << name << " needs a value: write --" << name
                << "=VALUE";
    }
    cli_args.push_back("--" + name + "=" + value);
    given_.insert(name);
  }
  std::reverse(cli_args.begin(), cli_args.end());
  try {
    app.parse(cli_args);
  } catch (const CLI::ParseError &e) {
    NNET3_ERR << "Invalid command-line option: " << e.what();
  }
}

int OptionsRegistry::Read(int argc, const char *const argv[]) {
  NNET3_ASSERT(parent_ == nullptr);
  std::vector<std::string> option_args;
  positional_.clear();
  given_.clear();
  int i = 1;
  for (; i < argc; i++) {
    std::string arg = argv[i];
    if (arg == "--") {
      i++;
      break;
    }
    if (arg.compare(0, 2, "--") != 0 || arg.size() == 2) break;
    option_args.push_back(arg);
  }
  for (; i < argc; i++) positional_.push_back(argv[i]);

  try {
    // Config files first, so that the command line overrides them.
    std::vector<std::string> all_args;
    for (const std::string &arg : option_args) {
      std::string lower = NormalizeName(arg.substr(0, 9));
      if (lower == "--config=") ReadConfigFile(arg.substr(9), &all_args);
    }
    all_args.insert(all_args.end(), option_args.begin(), option_args.end());
    Apply(all_args);
  } catch (const UserError &e) {
    LogLine(static_cast<int>(LogSeverity::kError), e.where(), e.what());
    PrintUsage();
    throw ExitRequest(1);
  }
  SetVerboseLevel(verbose_);
  if (help_) {
    PrintUsage();
    throw ExitRequest(0);
  }
  if (print_args_) {
    std::string line;
    for (int j = 0; j < argc; j++)
      line += (j == 0 ? std::string(argv[j]) : QuoteForShell(argv[j])) + " ";
    std::cerr << line << '\n' << std::flush;
  }
  return NumArgs();
}

}  // namespace nnet3
