// nnet3-compile-info: compiles (and optimizes) one computation request for
// a network and shows the request, graph, steps, computation and
// compilation statistics, optionally before and after optimization.
#include <iostream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "compile/compile-info.h"
#include "nnet/nnet-utils.h"
#include "nnet/nnet.h"
#include "optimize/looped-compile-info.h"
#include "optimize/nnet-optimize-options.h"
#include "optimize/optimize-info.h"
#include "compute/am-nnet-simple.h"
#include "train/egs-compile-info.h"
#include "train/nnet-example.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Compile one computation request for a raw nnet3 network and show how\n"
    "it compiles: the request, the computation graph (one line per cindex),\n"
    "the steps, the computation (matrices and commands) and statistics\n"
    "(cindexes, steps, commands by type, matrices, submatrices, total and\n"
    "peak matrix memory in bytes, seconds per compilation stage).\n"
    "The computation is optimized (--optimization.* options) as the\n"
    "caching compiler does unless --optimize=false; --show=before-after\n"
    "puts the unoptimized and optimized commands, matrices, memory and\n"
    "seconds side by side and lists the optimized computation.\n"
    "--prepare-for-test sets batch-norm and dropout to test mode and\n"
    "collapses the model first, as nnet3-compute does. --repeat=N also\n"
    "compiles the request N times through one caching compiler and shows\n"
    "the seconds of each call (the 2nd and later are cache hits).\n"
    "Without egs the request is built from the options for a simple\n"
    "network: --num-sequences sequences, output frames 0..frames-1 (or\n"
    "--output-range=a:b, inclusive), input frames widened by the model's\n"
    "context plus --extra-left-context / --extra-right-context, and an\n"
    "'ivector' input at t=0 per sequence if the network has one. With the\n"
    "shortcut (more than 2 sequences) the graph and steps shown are those\n"
    "of the two-sequence request actually compiled.\n"
    "With egs, each (merged) example gives the request nnet3-train builds\n"
    "for it (--store-component-stats as nnet3-train's, default true), or\n"
    "with --for-compute-prob the one nnet3-compute-prob builds (the model\n"
    "prepared as --prepare-for-test does); equal requests (the same\n"
    "compilation-cache key) are shown once, the first --max-requests of\n"
    "them, each under a heading giving its minibatch count.\n"
    "--show: a comma-separated list of request, graph, steps, computation,\n"
    "stats, before-after, memory; --format=json writes one JSON object (stats "
    "as\n"
    "top-level keys: cindexes, steps, commands, matrices, submatrices,\n"
    "peak_memory_bytes, total_memory_bytes, seconds; the shown steps as\n"
    "step_list; before-after as \"before\" and \"after\" objects with\n"
    "commands, matrices, submatrices, peak_memory_bytes, seconds; memory as\n"
    "\"memory\": {peak_bytes, peak_command, bytes_after_command,\n"
    "live_at_peak}; --repeat as \"repeat\": {seconds: [...], hits, misses});\n"
    "with egs {\"requests\": [...]}, one such object (plus \"heading\") each.\n"
    "--format=dot writes a Graphviz digraph of the steps and the matrices\n"
    "they read and write (whatever --show says). --format=html writes one\n"
    "self-contained page (no scripts, nothing fetched): the request, the\n"
    "memory timeline before and after optimization with its peak and the\n"
    "matrices live there, the steps graph (--steps-layout) and the command\n"
    "list with linked matrices; --show=before-after puts the unoptimized\n"
    "and optimized listings side by side. --format=svg draws --show=memory\n"
    "(the memory timeline) or --show=steps (the steps graph) alone.\n"
    "--looped shows instead the looped computation that looped inference\n"
    "(nnet3-compute --looped=true) runs: chunks of --frames frames, the\n"
    "first with --extra-left-context more frames, the loop (label, goto,\n"
    "matrices carried from chunk to chunk) and its stats (text only).\n"
    "\n"
    "Usage:  nnet3-compile-info [options] <raw-nnet> [<egs-rspecifier>]\n"
    "e.g.:\n"
    "  nnet3-compile-info --frames=8 final.raw\n"
    "  nnet3-compile-info --num-sequences=64 --output-deriv \\\n"
    "     --need-model-derivative --show=stats --format=json 0.raw\n"
    "  nnet3-compile-info --num-sequences=128 --frames=8 \\\n"
    "     --need-model-derivative --show=before-after 0.raw\n"
    "  nnet3-compile-info --format=dot 0.raw | dot -Tsvg > steps.svg\n"
    "  nnet3-compile-info --format=html exp/tdnn/0.raw ark:egs.1.ark > c.html\n"
    "  nnet3-compile-info --format=html exp/tdnn/0.raw \\\n"
    "     'ark:nnet3-merge-egs --minibatch-size=128 ark:egs.1.ark ark:- |' \\\n"
    "     > c.html   # unmerged egs: merge them as the training pipe does\n"
    "  nnet3-compile-info --format=svg --show=memory 0.raw ark:egs.1.ark \\\n"
    "     > memory.svg\n"
    "  nnet3-compile-info --looped --frames=20 final.raw\n"
    "See also: nnet3-info, nnet3-init, nnet3-train, nnet3-compute-prob\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    CompileInfoOptions opts;
    NnetOptimizeOptions optimize_opts;
    bool looped = false;
    opts.Register(&po);
    po.Register("looped", &looped,
                "Show the looped computation (one chunk per loop iteration) "
                "used by looped inference, instead of one request's");
    OptionsRegistry optimize_po("optimization", &po);
    optimize_opts.Register(&optimize_po);
    po.Read(argc, argv);
    if (po.NumArgs() < 1 || po.NumArgs() > 2) {
      po.PrintUsage();
      return 1;
    }
    CompileInfoShow show = ParseCompileInfoShow(opts);
    const bool have_egs = po.NumArgs() == 2;
    EgsRequestOptions egs_opts;
    if (have_egs)
      egs_opts = GetEgsRequestOptions(opts, po);
    else
      CheckNoEgsOptions(po);
    Nnet nnet;
    ReadNnetFromRawOrAm(po.GetArg(1), &nnet);
    if (opts.prepare_for_test || egs_opts.for_compute_prob) {
      SetBatchnormTestMode(true, &nnet);
      SetDropoutTestMode(true, &nnet);
      CollapseModel(CollapseModelConfig(), &nnet);
    }
    if (looped && have_egs)
      NNET3_ERR << "--looped takes no egs rspecifier (it shows a request's)";
    if (looped) {
      PrintLoopedCompileInfo(nnet, opts, optimize_opts, show, std::cout);
      std::cout << std::flush;
      return 0;
    }
    std::vector<CompileInfoEntry> entries(1);
    if (have_egs) {
      EgsRequestCollector collector(nnet, egs_opts);
      SequentialNnetExampleReader reader(po.GetArg(2));
      for (; !reader.Done(); reader.Next())
        collector.Add(reader.Key(), reader.Value());
      CompileEgsRequests(nnet, collector, opts, optimize_opts, &entries);
    } else {
      ComputationRequest request;
      BuildCompileInfoRequest(nnet, opts, &request);
      CompileInfoForRequest(nnet, request, opts, optimize_opts,
                            &entries[0].info);
    }
    show.title = po.GetArg(1) + (have_egs ? " " + po.GetArg(2) : "");
    PrintCompileInfoEntries(nnet, entries, show, std::cout);
    std::cout << std::flush;
    return 0;
  });
}
