// nnet3-compile-info's library part: options, the request, compiling with
// timings and the statistics. The renderers are in compile-info-print.cc.
#include "compile/compile-info.h"

#include <algorithm>

#include "base/error.h"
#include "base/options.h"
#include "base/text-utils.h"
#include "base/timer.h"
#include "compile/compiler.h"
#include "compile/computation-analysis.h"
#include "compile/computation-steps.h"
#include "compile/nnet-context.h"
#include "compile/shortcut-compile.h"
#include "compile/steps-svg.h"

namespace nnet3 {

void CompileInfoOptions::Register(OptionsRegistry *opts) {
  opts->Register("num-sequences", &num_sequences,
                 "Number of sequences (n = 0 .. N-1) in the request");
  opts->Register("frames", &frames,
                 "Number of output frames, t = 0 .. frames-1");
  opts->Register("output-range", &output_range,
                 "Output frames as a:b (inclusive); overrides --frames");
  opts->Register("extra-left-context", &extra_left_context,
                 "Input frames to add before those the model's context "
                 "needs (negative: fewer)");
  opts->Register("extra-right-context", &extra_right_context,
                 "Input frames to add after those the model's context needs "
                 "(negative: fewer)");
  opts->Register("need-model-derivative", &need_model_derivative,
                 "Compile the backward pass with model updates");
  opts->Register("input-deriv", &input_deriv,
                 "Ask for the derivative w.r.t. the input 'input'");
  opts->Register("output-deriv", &output_deriv,
                 "The derivative w.r.t. 'output' will be supplied (backward "
                 "pass)");
  opts->Register("store-component-stats", &store_component_stats,
                 "Compile StoreStats for components that keep statistics");
  opts->Register("show", &show,
                 "What to show, a comma-separated list of request, graph, "
                 "steps, computation, stats, before-after, memory");
  opts->Register("format", &format,
                 "Output format: text, json, dot, html (one self-contained "
                 "page) or svg (with --show=memory or --show=steps)");
  opts->Register("steps-layout", &steps_layout,
                 "How html and svg draw the steps graph: plain (our own "
                 "layout: compact boxes in columns), dot (Graphviz's "
                 "layout of --format=dot's graph) or auto (dot when "
                 "installed, else plain)");
  opts->Register("for-compute-prob", &for_compute_prob,
                 "With egs: build each request as nnet3-compute-prob does "
                 "(no derivatives; the model prepared as by "
                 "--prepare-for-test) instead of as nnet3-train does");
  opts->Register("max-requests", &max_requests,
                 "With egs: show at most this many distinct requests (in "
                 "the order they first appear)");
  opts->Register("optimize", &optimize,
                 "Optimize the computation (with the --optimization.* "
                 "options) as the caching compiler does; false shows the "
                 "Compiler's output");
  opts->Register("prepare-for-test", &prepare_for_test,
                 "Prepare the model as nnet3-compute does before compiling: "
                 "batch-norm and dropout in test mode, then collapse "
                 "components where possible");
  opts->Register("repeat", &repeat,
                 "If > 0, also compile the request this many times through "
                 "one caching compiler and report the seconds of each call "
                 "(the first compiles, later ones are cache hits)");
  OptionsRegistry compiler_opts("compiler", opts);
  compiler_opts.Register("use-shortcut", &use_shortcut,
                         "Compile requests of more than 2 regular sequences "
                         "via 2 sequences (shortcut compilation)");
}

CompileInfoShow ParseCompileInfoShow(const CompileInfoOptions &opts) {
  CompileInfoShow show;
  for (const std::string &item : SplitString(opts.show, ",", true)) {
    const std::string name = Trim(item);
    if (name == "request") {
      show.request = true;
    } else if (name == "graph") {
      show.graph = true;
    } else if (name == "steps") {
      show.steps = true;
    } else if (name == "computation") {
      show.computation = true;
    } else if (name == "stats") {
      show.stats = true;
    } else if (name == "before-after") {
      show.before_after = true;
    } else if (name == "memory") {
      show.memory = true;
    } else {
      NNET3_ERR << "--show: unknown item '" << name << "' in '" << opts.show
                << "' (expected a comma-separated list of request, graph, "
                   "steps, computation, stats, before-after, memory)";
    }
  }
  if (opts.format == "text") {
    show.format = CompileInfoShow::kText;
  } else if (opts.format == "json") {
    show.format = CompileInfoShow::kJson;
  } else if (opts.format == "dot") {
    show.format = CompileInfoShow::kDot;
  } else if (opts.format == "html") {
    show.format = CompileInfoShow::kHtml;
  } else if (opts.format == "svg") {
    show.format = CompileInfoShow::kSvg;
    if (show.memory == show.steps)
      NNET3_ERR << "--format=svg draws one picture: give --show=memory (the "
                   "memory timeline) or --show=steps (the steps graph), got "
                   "--show='"
                << opts.show << "'";
  } else {
    NNET3_ERR << "--format: unknown format '" << opts.format
              << "' (expected text, json, dot, html or svg)";
  }
  ParseStepsLayout(opts.steps_layout);  // UserError if unknown
  show.steps_layout = opts.steps_layout;
  if (opts.max_requests < 1)
    NNET3_ERR << "--max-requests must be at least 1, got " << opts.max_requests;
  if (show.before_after && !opts.optimize)
    NNET3_ERR << "--show=before-after compares the computation before and "
                 "after optimization; it cannot be used with --optimize=false";
  if (opts.repeat < 0)
    NNET3_ERR << "--repeat must be >= 0, got " << opts.repeat;
  return show;
}

namespace {

// Output frames [*first, *last] from --output-range or --frames.
void GetOutputFrames(const CompileInfoOptions &opts, int32_t *first,
                     int32_t *last) {
  if (!opts.output_range.empty()) {
    std::vector<int32_t> range;
    if (!SplitStringToIntegers(opts.output_range, ":", &range) ||
        range.size() != 2 || range[0] > range[1] ||
        opts.output_range.find(':') == std::string::npos)
      NNET3_ERR << "--output-range: expected a:b with a <= b (inclusive "
                   "output frames), got '"
                << opts.output_range << "'";
    *first = range[0];
    *last = range[1];
    return;
  }
  if (opts.frames < 1)
    NNET3_ERR << "--frames must be at least 1, got " << opts.frames;
  *first = 0;
  *last = opts.frames - 1;
}

// (n, t, 0) for n in [0, num_n), t in [first, last], n-major.
std::vector<Index> SequenceFrames(int32_t num_n, int32_t first, int32_t last) {
  std::vector<Index> v;
  for (int32_t n = 0; n < num_n; n++)
    for (int32_t t = first; t <= last; t++) v.emplace_back(n, t, 0);
  return v;
}

}  // namespace

void BuildCompileInfoRequest(const Nnet &nnet, const CompileInfoOptions &opts,
                             ComputationRequest *request) {
  if (!IsSimpleNnet(nnet))
    NNET3_ERR << "Without egs the request is built for a simple network (an "
                 "input node 'input', an output node 'output' and at most an "
                 "input 'ivector' besides); this network is not simple";
  if (opts.num_sequences < 1)
    NNET3_ERR << "--num-sequences must be at least 1, got "
              << opts.num_sequences;
  int32_t first = 0, last = 0, left = 0, right = 0;
  GetOutputFrames(opts, &first, &last);
  ComputeSimpleNnetContext(nnet, &left, &right);
  const int32_t in_first = first - left - opts.extra_left_context,
                in_last = last + right + opts.extra_right_context;
  *request = ComputationRequest();
  // An empty input window is left empty: the compiler then says which
  // output frames cannot be computed.
  request->inputs.emplace_back(
      "input", SequenceFrames(opts.num_sequences, in_first, in_last),
      opts.input_deriv);
  const int32_t ivector = nnet.GetNodeIndex("ivector");
  if (ivector != -1 && nnet.IsInputNode(ivector))
    request->inputs.emplace_back("ivector",
                                 SequenceFrames(opts.num_sequences, 0, 0));
  request->outputs.emplace_back("output",
                                SequenceFrames(opts.num_sequences, first, last),
                                opts.output_deriv);
  request->need_model_derivative = opts.need_model_derivative;
  request->store_component_stats = opts.store_component_stats;
}

void CollectComputationStats(const NnetComputation &computation,
                             CompileInfoStats *stats) {
  stats->commands_by_type.assign(kNumCommandTypes, 0);
  for (const NnetComputation::Command &c : computation.commands)
    stats->commands_by_type[c.command_type]++;
  stats->num_commands = static_cast<int64_t>(computation.commands.size());
  stats->num_matrices = static_cast<int64_t>(computation.matrices.size()) - 1;
  stats->num_submatrices =
      static_cast<int64_t>(computation.submatrices.size()) - 1;
  stats->total_memory_bytes = 0;
  for (size_t m = 1; m < computation.matrices.size(); m++)
    stats->total_memory_bytes +=
        4 * static_cast<int64_t>(computation.matrices[m].num_rows) *
        computation.matrices[m].num_cols;
  stats->peak_memory_bytes = GetMaxMemoryUse(computation);
}

void CompileForInfo(const Nnet &nnet, const ComputationRequest &request,
                    bool use_shortcut, CompileInfo *info) {
  CompileInfoStats &stats = info->stats;
  stats = CompileInfoStats();
  info->request = request;
  info->mini_computation = NnetComputation();
  info->optimized = false;
  info->optimized_computation = NnetComputation();
  info->optimized_stats = CompileInfoStats();
  info->repeat_seconds.clear();
  info->repeat_hits = info->repeat_misses = 0;
  int32_t num_n = 0;
  stats.used_shortcut =
      use_shortcut &&
      RequestIsDecomposable(request, &info->compiled_request, &num_n);
  if (!stats.used_shortcut) info->compiled_request = request;
  stats.num_n_values = stats.used_shortcut ? num_n : 0;

  CompilerOptions compiler_opts;  // with debug info
  Timer timer;
  NnetComputation *compiled =
      stats.used_shortcut ? &info->mini_computation : &info->computation;
  Compiler(info->compiled_request, nnet)
      .CreateComputation(compiler_opts, compiled);
  stats.seconds_compile = timer.Elapsed();
  if (stats.used_shortcut) {
    timer.Reset();
    ExpandComputation(nnet, request.misc_info, info->mini_computation, true,
                      num_n, &info->computation);
    stats.seconds_expand = timer.Elapsed();
  }

  // The stages again, on their own, for their times (and the steps).
  info->graph = ComputationGraph();
  timer.Reset();
  ComputationGraphBuilder builder(nnet, info->compiled_request, &info->graph);
  builder.Compute();
  NNET3_ASSERT(builder.AllOutputsAreComputable());
  builder.Prune();
  stats.seconds_graph = timer.Elapsed();
  timer.Reset();
  std::vector<std::vector<int32_t>> phases;
  ComputeComputationPhases(nnet, info->graph, &phases);
  ComputeComputationSteps(nnet, info->compiled_request, phases, &info->graph,
                          &info->steps);
  stats.seconds_steps = timer.Elapsed();
  stats.seconds_commands = std::max(
      0.0, stats.seconds_compile - stats.seconds_graph - stats.seconds_steps);

  stats.num_cindexes = static_cast<int64_t>(info->graph.cindexes.size());
  stats.num_steps = static_cast<int64_t>(info->steps.size());
  CollectComputationStats(info->computation, &stats);
}

}  // namespace nnet3
