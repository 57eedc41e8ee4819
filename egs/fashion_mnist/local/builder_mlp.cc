// builder_mlp: the network-design seed's example on Fashion-MNIST, from C++
// alone: an MLP made with NetBuilder, trained with Adam through Net::Run over
// a Scope, then scored on the test set.
//
//   builder_mlp [options] <data-dir>     (data/ of local/prepare_data.py)
//
// Reads <data-dir>/{train,test}/feats_flat.scp (one 784-dim frame per image)
// and labels ("<utt> <class>"); each epoch shuffles the training images
// (seeded by --srand) into minibatches; dropout after each hidden layer
// (--dropout) and a geometric step-size schedule; prints the average loss per epoch and
// "mlp-builder test-accuracy <value>", which --results writes into a results
// file (replacing an earlier mlp-builder line).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "builder/net-builder.h"
#include "builder/net.h"
#include "util/table-types.h"

namespace {

using namespace nnet3;
using namespace nnet3::builder;

const char *const kUsage =
    "Trains the seed's MLP on Fashion-MNIST with NetBuilder and Adam, from "
    "C++ alone.\n"
    "Usage: builder_mlp [options] <data-dir>\n"
    "e.g.: builder_mlp --num-epochs=5 --results=exp/results.txt data\n";

struct DataSet {
  Matrix features;  // one row per image, on the host
  std::vector<int32_t> labels;
};

DataSet ReadDataSet(const std::string &dir) {
  std::map<std::string, int32_t> label_of;
  std::ifstream is(dir + "/labels");
  if (!is) NNET3_ERR << "Cannot read " << dir << "/labels";
  std::string utt;
  int32_t label;
  while (is >> utt >> label) label_of[utt] = label;
  std::vector<Matrix> rows;
  DataSet data;
  SequentialBaseFloatMatrixReader reader("scp:" + dir + "/feats_flat.scp");
  for (; !reader.Done(); reader.Next()) {
    auto it = label_of.find(reader.Key());
    if (it == label_of.end())
      NNET3_ERR << dir << "/labels has no label for '" << reader.Key() << "'";
    rows.emplace_back(reader.Value(), CpuDevice());
    data.labels.push_back(it->second);
  }
  if (rows.empty()) NNET3_ERR << dir << "/feats_flat.scp is empty";
  data.features = Matrix(static_cast<int32_t>(rows.size()), rows[0].NumCols(),
                         ResizeType::kUndefined, CpuDevice());
  std::vector<float> host;
  for (size_t r = 0; r < rows.size(); ++r) {
    host = rows[r].ToHost();
    for (int32_t c = 0; c < rows[r].NumCols(); ++c)
      data.features.Set(static_cast<int32_t>(r), c, host[c]);
  }
  return data;
}

// Rows `order[begin..end)` of the data set: features and one-hot labels.
void Minibatch(const DataSet &data, const std::vector<int32_t> &order,
               size_t begin, size_t end, int32_t num_classes, Scope *scope) {
  const int32_t n = static_cast<int32_t>(end - begin);
  IndexVector idx(std::vector<int32_t>(order.begin() + begin,
                                       order.begin() + end),
                  CpuDevice());
  Matrix x(n, data.features.NumCols(), ResizeType::kUndefined, CpuDevice());
  x.CopyRows(data.features, idx);
  Matrix y(n, num_classes, ResizeType::kSetZero, CpuDevice());
  for (int32_t r = 0; r < n; ++r) y.Set(r, data.labels[order[begin + r]], 1.0f);
  scope->Set("image", std::move(x));
  scope->Set("label", std::move(y));
}

double Accuracy(Net *net, const DataSet &test, int32_t num_classes) {
  std::vector<int32_t> order(test.labels.size());
  std::iota(order.begin(), order.end(), 0);
  int64_t correct = 0;
  Scope scope;
  for (size_t b = 0; b < order.size(); b += 1000) {
    const size_t e = std::min(order.size(), b + 1000);
    Minibatch(test, order, b, e, num_classes, &scope);
    net->Run(&scope, nullptr, 0, 1);  // forward only
    const std::vector<float> p = scope.Get("output").ToHost();
    for (size_t r = 0; r < e - b; ++r) {
      const float *row = &p[r * num_classes];
      const int32_t best = static_cast<int32_t>(
          std::max_element(row, row + num_classes) - row);
      correct += best == test.labels[b + r];
    }
  }
  return static_cast<double>(correct) / order.size();
}

void WriteResult(const std::string &path, const std::string &line) {
  std::vector<std::string> lines;
  std::ifstream is(path);
  for (std::string l; std::getline(is, l);)
    if (l.rfind("mlp-builder ", 0) != 0) lines.push_back(l);
  lines.push_back(line);
  std::ofstream os(path);
  for (const std::string &l : lines) os << l << "\n";
  if (!os) NNET3_ERR << "Cannot write " << path;
}

}  // namespace

int main(int argc, char *argv[]) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    int32_t num_epochs = 5, minibatch_size = 128, hidden_dim = 1024, srand = 0;
    float learning_rate = 0.001f, final_learning_rate = 0.0001f;
    double dropout = 0.2;
    std::string results;
    po.Register("num-epochs", &num_epochs, "Passes over the training data");
    po.Register("minibatch-size", &minibatch_size, "Images per minibatch");
    po.Register("hidden-dim", &hidden_dim, "Units in each hidden layer");
    po.Register("learning-rate", &learning_rate,
                "Adam's step size in the first epoch");
    po.Register("final-learning-rate", &final_learning_rate,
                "Adam's step size in the last epoch (geometric in between)");
    po.Register("srand", &srand, "Seed for the shuffling");
    po.Register("dropout", &dropout,
                "Dropout proportion after each hidden layer (0: none)");
    po.Register("results", &results,
                "File to write the 'mlp-builder test-accuracy' line into");
    po.Read(argc, argv);
    if (po.NumArgs() != 1) {
      po.PrintUsage();
      return 1;
    }
    const std::string dir = po.GetArg(1);
    const DataSet train = ReadDataSet(dir + "/train"),
                  test = ReadDataSet(dir + "/test");
    const int32_t num_classes = 10;

    // The seed's example, with ReLU hidden layers and a softmax output.
    using namespace nnet3::builder::args;
    NetBuilder builder;
    Variable *image = builder.AddInput("image", train.features.NumCols());
    Variable *label_var = builder.AddLabel("label", num_classes);
    Variable *fc1 = builder.AddOp("fc", input = image, size = hidden_dim,
                                  activation = "Relu");
    Variable *drop1 = builder.AddOp("dropout", input = fc1,
                                    proportion = dropout);
    Variable *fc2 = builder.AddOp("fc", input = drop1, size = hidden_dim,
                                  activation = "Relu");
    Variable *drop2 = builder.AddOp("dropout", input = fc2,
                                    proportion = dropout);
    Variable *prediction = builder.AddOp("fc", input = drop2,
                                         size = num_classes,
                                         activation = "Softmax");
    Variable *loss =
        builder.AddOp("cross_entropy", input = prediction, label = label_var);
    builder.AddOp("mean", input = loss, name = "avg_loss");
    builder.AddOptimization(learning_rate, "adam");
    std::unique_ptr<Net> net = Net::Create(builder.Desc());

    std::mt19937 rng(srand);
    std::vector<int32_t> order(train.labels.size());
    std::iota(order.begin(), order.end(), 0);
    Scope scope;
    for (int32_t epoch = 0; epoch < num_epochs; ++epoch) {
      const double progress =
          num_epochs > 1 ? static_cast<double>(epoch) / (num_epochs - 1) : 0.0;
      net->SetLearningRate(static_cast<float>(
          learning_rate *
          std::pow(final_learning_rate / learning_rate, progress)));
      std::shuffle(order.begin(), order.end(), rng);
      double tot_loss = 0.0;
      int32_t num_batches = 0;
      for (size_t b = 0; b + minibatch_size <= order.size();
           b += minibatch_size, ++num_batches) {
        Minibatch(train, order, b, b + minibatch_size, num_classes, &scope);
        net->Run(&scope);  // forward, loss, backward, Adam step
        tot_loss += scope.Get("avg_loss").Get(0, 0);
      }
      NNET3_LOG << "epoch " << epoch + 1 << ": average loss "
                << tot_loss / num_batches << " over " << num_batches
                << " minibatches";
    }
    std::ostringstream line;
    line << "mlp-builder test-accuracy " << Accuracy(net.get(), test, num_classes);
    std::cout << line.str() << std::endl;
    if (!results.empty()) WriteResult(results, line.str());
    return 0;
  });
}
