// What nnet3-compile-info shows: one request compiled, with its graph,
// steps, computation, statistics (commands by type, matrix memory) and the
// time each compilation stage took, as text, JSON or a Graphviz digraph.
//
//   CompileInfoOptions opts;  opts.Register(&po);  po.Read(argc, argv);
//   CompileInfoShow show = ParseCompileInfoShow(opts);   // UserError if bad
//   ComputationRequest request;
//   BuildCompileInfoRequest(nnet, opts, &request);
//   CompileInfo info;
//   CompileForInfo(nnet, request, opts.use_shortcut, &info);
//   PrintCompileInfo(nnet, info, show, std::cout);
//
// The request (no egs): sequences n = 0..num_sequences-1, n-major; output
// frames 0..frames-1 or the inclusive --output-range; input frames the
// output frames widened by the network's context (ComputeSimpleNnetContext)
// plus the extra context (which may be negative, making the request not
// computable); an "ivector" input at (n, 0, 0) if the network has one.
//
// Stages are timed around public calls: "compile" is the Compiler's whole
// CreateComputation; "graph" (ComputationGraphBuilder Compute + Prune) and
// "steps" (phases + steps) are then run again on their own, and
// "commands" is compile - graph - steps (at least 0); "expand" is
// ExpandComputation when the shortcut is used. With the shortcut the
// Compiler compiles the two-sequence mini request, so the graph, the steps
// and their counts are those of the mini request; the computation, its
// commands and memory are those of the full request.
//
// Optimization lives in a later layer: OptimizeForInfo
// (optimize/optimize-info.h) fills the `optimized` part of CompileInfo the
// way CachingOptimizingCompiler makes it (checker, Optimize, checker; with
// the shortcut the two-sequence computation is optimized, then expanded),
// and RepeatCompileForInfo the `repeat` part. The printers show the
// optimized computation and its stats when there is one; the dot graph
// always shows the Compiler's matrices.
#ifndef NNET3_COMPILE_COMPILE_INFO_H_
#define NNET3_COMPILE_COMPILE_INFO_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "compile/computation-graph.h"
#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

class OptionsRegistry;

struct CompileInfoOptions {
  int32_t num_sequences = 1;
  int32_t frames = 1;
  std::string output_range;  // "a:b", inclusive; overrides frames
  int32_t extra_left_context = 0;
  int32_t extra_right_context = 0;
  bool need_model_derivative = false;
  bool input_deriv = false;   // derivative w.r.t. "input"
  bool output_deriv = false;  // a derivative will be supplied for "output"
  bool store_component_stats = false;
  bool use_shortcut = true;       // --compiler.use-shortcut
  bool optimize = true;           // --optimize (the --optimization.* passes)
  bool prepare_for_test = false;  // test-mode batch-norm/dropout, collapse
  int32_t repeat = 0;  // compile this many times via the caching compiler
  std::string show = "stats,computation";
  std::string format = "text";         // text, json, dot, html or svg
  std::string steps_layout = "plain";  // html/svg steps graph: plain, dot, auto
  // With egs (train/egs-compile-info.h): build requests as
  // nnet3-compute-prob does instead of nnet3-train; at most this many
  // distinct requests are shown.
  bool for_compute_prob = false;
  int32_t max_requests = 10;
  void Register(OptionsRegistry *opts);
};

struct CompileInfoShow {
  bool request = false, graph = false, steps = false, computation = false,
       stats = false, before_after = false, memory = false;
  enum Format { kText, kJson, kDot, kHtml, kSvg } format = kText;
  std::string steps_layout = "plain";  // checked by ParseCompileInfoShow
  std::string title;                   // of the HTML page (e.g. the model)
};

// Parses opts.show, opts.format and opts.steps_layout; UserError naming the
// bad item (--format=svg needs exactly one of memory, steps in --show).
CompileInfoShow ParseCompileInfoShow(const CompileInfoOptions &opts);

// The request described in the file comment. UserError if the network is
// not simple or an option is out of range.
void BuildCompileInfoRequest(const Nnet &nnet, const CompileInfoOptions &opts,
                             ComputationRequest *request);

struct CompileInfoStats {
  bool used_shortcut = false;
  int32_t num_n_values = 0;  // of the full request, when used_shortcut
  int64_t num_cindexes = 0;
  int64_t num_steps = 0;
  std::vector<int64_t> commands_by_type;  // kNumCommandTypes entries
  int64_t num_commands = 0;
  int64_t num_matrices = 0;        // not counting the empty matrix 0
  int64_t num_submatrices = 0;     // not counting submatrix 0
  int64_t total_memory_bytes = 0;  // all matrices, 4 bytes per element
  int64_t peak_memory_bytes = 0;   // GetMaxMemoryUse
  double seconds_graph = 0.0, seconds_steps = 0.0, seconds_commands = 0.0,
         seconds_expand = 0.0, seconds_compile = 0.0;
  // Of an optimized computation: the two checker runs and Optimize().
  double seconds_check = 0.0, seconds_optimize = 0.0;
  // compile + expand + check + optimize.
  double SecondsTotal() const {
    return seconds_compile + seconds_expand + seconds_check + seconds_optimize;
  }
};

// Fills the computation-dependent fields of *stats (commands by type,
// matrices, submatrices, total and peak memory).
void CollectComputationStats(const NnetComputation &computation,
                             CompileInfoStats *stats);

struct CompileInfo {
  ComputationRequest request;           // as asked
  ComputationRequest compiled_request;  // the mini request with the shortcut
  ComputationGraph graph;               // of compiled_request, after steps
  std::vector<std::vector<int32_t>> steps;  // cindex_ids of graph
  NnetComputation computation;              // final, with debug info
  // The Compiler's output before expansion (only with the shortcut): its
  // matrices are those of `computation`, with the mini request's rows.
  NnetComputation mini_computation;
  CompileInfoStats stats;

  // Set by OptimizeForInfo: the optimized computation (with debug info)
  // and its stats (the same request, graph and step counts; the seconds
  // of compiling, checking, optimizing and, with the shortcut, expanding
  // the optimized two-sequence computation).
  bool optimized = false;
  NnetComputation optimized_computation;
  CompileInfoStats optimized_stats;

  // Set by RepeatCompileForInfo: the seconds of each Compile() call of one
  // CachingOptimizingCompiler (the first a miss, later ones cache hits)
  // and its hit/miss counts (a shortcut miss also misses its mini request).
  std::vector<double> repeat_seconds;
  int64_t repeat_hits = 0, repeat_misses = 0;
};

// Compiles `request` (with the shortcut when allowed and possible) and
// fills *info. The Compiler's UserError if an output is not computable.
void CompileForInfo(const Nnet &nnet, const ComputationRequest &request,
                    bool use_shortcut, CompileInfo *info);

// Writes what `show` asks for in its format (see nnet3-compile-info's
// usage text), and the repeat timings if there are any. For dot, `show`
// only chooses the format. UserError for before-after without an
// optimized computation.
void PrintCompileInfo(const Nnet &nnet, const CompileInfo &info,
                      const CompileInfoShow &show, std::ostream &os);

// One compiled request of a report: with egs, one per distinct request,
// with a heading saying which minibatches it stands for.
struct CompileInfoEntry {
  std::string heading;  // "" for the one request built from the options
  CompileInfo info;
};

// Several entries in one output: text sections, each after a "# ====
// <heading>" line; JSON {"requests": [...]} whose objects have a "heading"
// member besides PrintCompileInfo's; dot digraphs one after another; one
// HTML page; one SVG. One entry without a heading prints as
// PrintCompileInfo does.
void PrintCompileInfoEntries(const Nnet &nnet,
                             const std::vector<CompileInfoEntry> &entries,
                             const CompileInfoShow &show, std::ostream &os);

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPILE_INFO_H_
