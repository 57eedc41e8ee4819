// SvgWriter: writes SVG elements (and the XML/HTML escaping they need) for
// nnet3-compile-info's pictures, so that the drawing code says what it
// draws, not how SVG spells it. Plain text out; no DOM, no scripts.
//
//   SvgWriter svg(os);
//   svg.Begin(800, 300, "memory-chart");   // <svg ... viewBox=...>
//   svg.Rect(10, 10, 100, 20, "box", "tooltip text");
//   svg.Text(60, 24, "label", "label", SvgWriter::kMiddle);
//   svg.End();
//
// Coordinates print with at most one decimal. Class names and extra
// attributes are written as given (callers pass fixed names); text, titles
// and link targets are escaped.
#ifndef NNET3_COMPILE_SVG_WRITER_H_
#define NNET3_COMPILE_SVG_WRITER_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace nnet3 {

// &, <, >, " and ' as entities (for text and attribute values alike).
std::string XmlEscape(const std::string &s);

// "512 B", "1.5 KiB", "12.3 MiB", "2.00 GiB".
std::string HumanBytes(int64_t bytes);

class SvgWriter {
 public:
  enum Anchor { kStart, kMiddle, kEnd };
  explicit SvgWriter(std::ostream &os) : os_(os) {}

  // <svg> with the SVG namespace, width, height and a viewBox; `css` (if
  // not empty) goes into a <style> element.
  void Begin(double width, double height, const std::string &css_class,
             const std::string &css = "");
  void End() { os_ << "</svg>\n"; }

  void BeginGroup(const std::string &css_class, double dx = 0, double dy = 0);
  void EndGroup() { os_ << "</g>\n"; }
  // An <a href> around what follows, up to EndLink().
  void BeginLink(const std::string &href);
  void EndLink() { os_ << "</a>\n"; }

  void Rect(double x, double y, double w, double h, const std::string &css,
            const std::string &title = "", double radius = 0);
  void Line(double x1, double y1, double x2, double y2, const std::string &css);
  void Circle(double cx, double cy, double r, const std::string &css,
              const std::string &title = "",
              const std::string &extra_attributes = "");
  // A polyline; `extra_attributes` (e.g. data-* values) is written as is.
  void Polyline(const std::vector<std::pair<double, double>> &points,
                const std::string &css,
                const std::string &extra_attributes = "");
  void Path(const std::string &d, const std::string &css);
  void Text(double x, double y, const std::string &text, const std::string &css,
            Anchor anchor = kStart);

  std::ostream &Stream() { return os_; }

 private:
  std::ostream &os_;
};

// A coordinate with at most one decimal ("12", "12.5", "-3.2").
std::string SvgNumber(double v);

}  // namespace nnet3

#endif  // NNET3_COMPILE_SVG_WRITER_H_
