// lattice-to-post: forward-backward over lattices; writes the posterior of
// each transition-id per frame (Kaldi's tool of the same name;
// lat/lattice-forward-backward.h).
#include <fst/topsort.h>

#include <cstdint>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/lattice-scale.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-forward-backward.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Do forward-backward and collect posteriors over lattices.\n"
    "Usage: lattice-to-post [options] lats-rspecifier posts-wspecifier "
    "[loglikes-wspecifier]\n"
    " e.g.: lattice-to-post --acoustic-scale=0.1 ark:1.lats ark:1.post\n"
    "See also: lattice-to-ctm-conf, post-to-pdf-post, lattice-arc-post\n";

int64_t TotalArcs(const nnet3::Lattice &lat) {
  int64_t n = 0;
  for (int s = 0; s < lat.NumStates(); ++s) n += lat.NumArcs(s);
  return n;
}

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    float acoustic_scale = 1.0f, lm_scale = 1.0f;
    po.Register("acoustic-scale", &acoustic_scale,
                "Scaling factor for acoustic likelihoods");
    po.Register("lm-scale", &lm_scale,
                "Scaling factor for \"graph costs\" (including LM costs)");
    po.Read(argc, argv);
    if (po.NumArgs() < 2 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    if (acoustic_scale == 0.0f)
      NNET3_ERR << "Do not use a zero acoustic scale (cannot be inverted)";
    SequentialLatticeReader reader(po.GetArg(1));
    PosteriorWriter posterior_writer(po.GetArg(2));
    BaseFloatWriter loglikes_writer;
    if (!po.GetOptArg(3).empty()) loglikes_writer.Open(po.GetOptArg(3));
    int32_t num_done = 0;
    double total_like = 0.0, total_ac_like = 0.0, total_time = 0.0;
    for (; !reader.Done(); reader.Next()) {
      const std::string key = reader.Key();
      Lattice lat = reader.Value();
      reader.FreeCurrent();
      if (acoustic_scale != 1.0f || lm_scale != 1.0f)
        ScaleLattice(LatticeScale(lm_scale, acoustic_scale), &lat);
      // Sorted unless OpenFst already knows it is (as Kaldi decides).
      if (!(lat.Properties(fst::kFstProperties, false) & fst::kTopSorted) &&
          !fst::TopSort(&lat))
        NNET3_ERR << "Cycles detected in lattice " << key;
      Posterior post;
      double ac_like = 0.0;
      const double like = LatticeForwardBackward(lat, &post, &ac_like);
      const double frames = post.size();
      total_like += like;
      total_time += frames;
      total_ac_like += ac_like;
      NNET3_VLOG(2) << "Processed lattice for utterance: " << key << "; found "
                    << lat.NumStates() << " states and " << TotalArcs(lat)
                    << " arcs. Average log-likelihood = " << (like / frames)
                    << " over " << frames << " frames.  Average acoustic "
                    << "log-like per frame is " << (ac_like / frames);
      if (loglikes_writer.IsOpen()) loglikes_writer.Write(key, like);
      posterior_writer.Write(key, post);
      ++num_done;
    }
    posterior_writer.Close();
    if (loglikes_writer.IsOpen()) loglikes_writer.Close();
    NNET3_LOG << "Overall average log-like/frame is "
              << (total_like / total_time) << " over " << total_time
              << " frames.  Average acoustic like/frame is "
              << (total_ac_like / total_time);
    NNET3_LOG << "Done " << num_done << " lattices.";
    return num_done != 0 ? 0 : 1;
  });
}
