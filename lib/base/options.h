// Command-line options with Kaldi's conventions (reference 7.1), over CLI11.
//
//   OptionsRegistry po(kUsage);
//   bool binary = true;
//   po.Register("binary", &binary, "Write output in binary mode");
//   MyOptions opts; opts.Register(&po);            // option structs register
//   OptionsRegistry opt_po("optimization", &po);   // --optimization.x
//   optimize_opts.Register(&opt_po);
//   po.Read(argc, argv);
//   if (po.NumArgs() != 2) { po.PrintUsage(); return 1; }
//   std::string in = po.GetArg(1);
//
// Rules: options are `--name=value` and come before positional arguments
// (parsing stops at the first argument not starting with "--", or after a
// lone "--"); `_` and `-` in names are equivalent and names are
// case-insensitive; booleans accept `--flag`, `--flag=true|false|t|f|1|0`;
// other types require `=`. Standard options: `--config=FILE` (lines of
// `--x=y`, `#` comments; may repeat; the command line overrides it),
// `--print-args` (echo the command line to stderr), `--help` (usage to stderr,
// exit 0), `--verbose=N`. An unknown option or a bad value prints the problem
// and the usage to stderr and ends the program with status 1: Read throws
// ExitRequest, which the program helper (program.h) turns into that status.
#ifndef NNET3_BASE_OPTIONS_H_
#define NNET3_BASE_OPTIONS_H_

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace nnet3 {

// Thrown by OptionsRegistry::Read to end the program with `code` after the
// usage (or an error and the usage) has been printed.
class ExitRequest : public std::exception {
 public:
  explicit ExitRequest(int code) : code_(code) {}
  int code() const { return code_; }
  const char *what() const noexcept override { return "exit request"; }

 private:
  int code_;
};

class OptionsRegistry {
 public:
  explicit OptionsRegistry(const std::string &usage);
  // Registers into `parent` with names "prefix.name".
  OptionsRegistry(const std::string &prefix, OptionsRegistry *parent);
  ~OptionsRegistry();
  OptionsRegistry(const OptionsRegistry &) = delete;
  OptionsRegistry &operator=(const OptionsRegistry &) = delete;

  void Register(const std::string &name, bool *value, const std::string &doc);
  void Register(const std::string &name, int32_t *value,
                const std::string &doc);
  void Register(const std::string &name, uint32_t *value,
                const std::string &doc);
  void Register(const std::string &name, float *value, const std::string &doc);
  void Register(const std::string &name, double *value,
                const std::string &doc);
  void Register(const std::string &name, std::string *value,
                const std::string &doc);

  // Parses the command line; see the file comment. Returns the number of
  // positional arguments.
  int Read(int argc, const char *const argv[]);
  int NumArgs() const { return static_cast<int>(positional_.size()); }
  // 1-based, as in Kaldi: GetArg(1) is the first positional argument.
  std::string GetArg(int i) const;
  // "" if fewer than i positional arguments.
  std::string GetOptArg(int i) const;
  // Whether the last Read() set option `name` (on the command line or in a
  // --config file), e.g. to tell a default from an explicit value. On a
  // sub-registry, `name` is without the prefix.
  bool WasGiven(const std::string &name) const;
  // Usage text, option list and standard options, to stderr.
  void PrintUsage() const;

 private:
  struct Option;
  void Add(const std::string &name, std::unique_ptr<Option> option);
  void ReadConfigFile(const std::string &filename,
                      std::vector<std::string> *args) const;
  void Apply(const std::vector<std::string> &args);

  OptionsRegistry *parent_ = nullptr;
  std::string prefix_;
  std::string usage_;
  std::map<std::string, std::unique_ptr<Option>> options_;  // by normalized name
  std::vector<std::string> order_;                          // registration order
  std::vector<std::string> positional_;
  std::set<std::string> given_;  // normalized names set by the last Read()
  bool print_args_ = true;
  bool help_ = false;
  int32_t verbose_ = 0;
  std::string config_;
};

}  // namespace nnet3

#endif  // NNET3_BASE_OPTIONS_H_
