// nnet3-am-copy: copies an nnet3 acoustic model (.mdl), optionally changing
// its network on the way or writing the network alone (--raw=true).
#include <sstream>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "nnet/nnet-utils.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Copy nnet3 neural-net acoustic model file; supports conversion\n"
    "to raw model (--raw=true).\n"
    "Also supports setting all learning rates to a supplied\n"
    "value (the --learning-rate option),\n"
    "and supports replacing the raw nnet in the model (the Nnet)\n"
    "with a provided raw nnet (the --set-raw-nnet option).\n"
    "Changes are applied in this order: --set-raw-nnet, --nnet-config,\n"
    "--convert-repeated-to-block, --learning-rate, --edits-config, --edits,\n"
    "--scale, --prepare-for-test.\n"
    "\n"
    "Usage:  nnet3-am-copy [options] <nnet-in> <nnet-out>\n"
    "e.g.:\n"
    " nnet3-am-copy --binary=false 1.mdl text.mdl\n"
    " nnet3-am-copy --raw=true 1.mdl 1.raw\n"
    "See also: nnet3-am-info, nnet3-am-init, nnet3-copy\n";

struct AmCopyOptions {
  bool binary = true, raw = false, convert_repeated_to_block = false,
       prepare_for_test = false;
  float learning_rate = -1.0f, scale = 1.0f;
  std::string set_raw_nnet, nnet_config, edits_config, edits;

  void Register(nnet3::OptionsRegistry *po) {
    po->Register("binary", &binary, "Write output in binary mode");
    po->Register("raw", &raw,
                 "If true, write only 'raw' neural net without transition "
                 "model and priors.");
    po->Register("set-raw-nnet", &set_raw_nnet,
                 "Set the raw nnet inside the model to the one provided in "
                 "the option string (interpreted as an rxfilename). Done "
                 "before the learning-rate is changed.");
    po->Register("convert-repeated-to-block", &convert_repeated_to_block,
                 "Convert all RepeatedAffineComponents and "
                 "NaturalGradientRepeatedAffineComponents to "
                 "BlockAffineComponents in the model. Done after "
                 "set-raw-nnet.");
    po->Register("nnet-config", &nnet_config,
                 "Name of nnet3 config file that can be used to add or "
                 "replace components or nodes of the neural network (the "
                 "same as you would give to nnet3-init).");
    po->Register("edits-config", &edits_config,
                 "Name of edits-config file that can be used to modify the "
                 "network (applied after nnet-config).");
    po->Register("edits", &edits,
                 "Can be used as an inline alternative to --edits-config; "
                 "semicolons will be converted to newlines before parsing. "
                 "E.g. '--edits=remove-orphans'.");
    po->Register("learning-rate", &learning_rate,
                 "If supplied, all the learning rates of updatable "
                 "components are set to this value.");
    po->Register("scale", &scale,
                 "The parameter matrices are scaled by the specified value.");
    po->Register("prepare-for-test", &prepare_for_test,
                 "If true, prepares the model for test time (may reduce "
                 "model size slightly. Involves setting test mode in dropout "
                 "and batch-norm components, and calling CollapseModel() "
                 "which may remove some components.");
  }
};

// The changes the options ask for, in Kaldi's order.
void ApplyOptions(AmCopyOptions opts, nnet3::AmNnetSimple *am_nnet) {
  using namespace nnet3;
  if (!opts.set_raw_nnet.empty()) {
    Nnet nnet;
    ReadNnetFromRawOrAm(opts.set_raw_nnet, &nnet);
    am_nnet->SetNnet(nnet);
  }
  Nnet &nnet = am_nnet->GetNnet();
  if (!opts.nnet_config.empty()) {
    Input ki(opts.nnet_config);
    nnet.ReadConfig(ki.Stream(), PrintableRxfilename(opts.nnet_config));
    ki.Close();
  }
  if (opts.convert_repeated_to_block) ConvertRepeatedToBlockAffine(&nnet);
  if (opts.learning_rate >= 0.0f) SetLearningRate(opts.learning_rate, &nnet);
  if (!opts.edits_config.empty()) {
    Input ki(opts.edits_config);
    ReadEditConfig(ki.Stream(), PrintableRxfilename(opts.edits_config), &nnet);
    ki.Close();
  }
  if (!opts.edits.empty()) {
    for (char &c : opts.edits)
      if (c == ';') c = '\n';
    std::istringstream is(opts.edits);
    ReadEditConfig(is, "--edits", &nnet);
  }
  am_nnet->SetContext();  // the config or edits may have changed it
  if (opts.scale != 1.0f) ScaleNnet(opts.scale, &nnet);
  if (opts.prepare_for_test) {
    SetBatchnormTestMode(true, &nnet);
    SetDropoutTestMode(true, &nnet);
    CollapseModel(CollapseModelConfig(), &nnet);
  }
}

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    AmCopyOptions opts;
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const std::string nnet_in = po.GetArg(1), nnet_out = po.GetArg(2);
    TransitionModel trans_model;
    AmNnetSimple am_nnet;
    ReadAmNnet(nnet_in, &trans_model, &am_nnet);
    ApplyOptions(opts, &am_nnet);
    if (opts.raw) {
      WriteKaldiObject(am_nnet.GetNnet(), nnet_out, opts.binary);
      NNET3_LOG << "Copied neural net from " << PrintableRxfilename(nnet_in)
                << " to raw format as " << PrintableWxfilename(nnet_out);
    } else {
      WriteAmNnet(trans_model, am_nnet, nnet_out, opts.binary);
      NNET3_LOG << "Copied neural net from " << PrintableRxfilename(nnet_in)
                << " to " << PrintableWxfilename(nnet_out);
    }
    return 0;
  });
}
