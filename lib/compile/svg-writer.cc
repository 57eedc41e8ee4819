#include "compile/svg-writer.h"

#include <cmath>
#include <cstdio>

namespace nnet3 {

std::string XmlEscape(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string HumanBytes(int64_t bytes) {
  const char *const kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024 && bytes > -1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes) / 1024.0;
  int unit = 0;
  while (std::fabs(v) >= 1024.0 && unit < 3) {
    v /= 1024.0;
    unit++;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), std::fabs(v) < 10 ? "%.2f %s" : "%.1f %s", v,
                kUnits[unit]);
  return buf;
}

std::string SvgNumber(double v) {
  const double r = std::round(v * 10.0) / 10.0;
  char buf[32];
  if (r == std::floor(r))
    std::snprintf(buf, sizeof(buf), "%.0f", r == 0.0 ? 0.0 : r);
  else
    std::snprintf(buf, sizeof(buf), "%.1f", r);
  return buf;
}

void SvgWriter::Begin(double width, double height, const std::string &css_class,
                      const std::string &css) {
  os_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"" << css_class
      << "\" width=\"" << SvgNumber(width) << "\" height=\""
      << SvgNumber(height) << "\" viewBox=\"0 0 " << SvgNumber(width) << " "
      << SvgNumber(height) << "\">\n";
  if (!css.empty()) os_ << "<style>\n" << css << "</style>\n";
}

void SvgWriter::BeginGroup(const std::string &css_class, double dx, double dy) {
  os_ << "<g class=\"" << css_class << "\"";
  if (dx != 0 || dy != 0)
    os_ << " transform=\"translate(" << SvgNumber(dx) << " " << SvgNumber(dy)
        << ")\"";
  os_ << ">\n";
}

void SvgWriter::BeginLink(const std::string &href) {
  os_ << "<a href=\"" << XmlEscape(href) << "\">\n";
}

void SvgWriter::Rect(double x, double y, double w, double h,
                     const std::string &css, const std::string &title,
                     double radius) {
  os_ << "<rect class=\"" << css << "\" x=\"" << SvgNumber(x) << "\" y=\""
      << SvgNumber(y) << "\" width=\"" << SvgNumber(w) << "\" height=\""
      << SvgNumber(h) << "\"";
  if (radius > 0) os_ << " rx=\"" << SvgNumber(radius) << "\"";
  if (title.empty()) {
    os_ << "/>\n";
    return;
  }
  os_ << "><title>" << XmlEscape(title) << "</title></rect>\n";
}

void SvgWriter::Line(double x1, double y1, double x2, double y2,
                     const std::string &css) {
  os_ << "<line class=\"" << css << "\" x1=\"" << SvgNumber(x1) << "\" y1=\""
      << SvgNumber(y1) << "\" x2=\"" << SvgNumber(x2) << "\" y2=\""
      << SvgNumber(y2) << "\"/>\n";
}

void SvgWriter::Circle(double cx, double cy, double r, const std::string &css,
                       const std::string &title,
                       const std::string &extra_attributes) {
  os_ << "<circle class=\"" << css << "\" cx=\"" << SvgNumber(cx) << "\" cy=\""
      << SvgNumber(cy) << "\" r=\"" << SvgNumber(r) << "\"";
  if (!extra_attributes.empty()) os_ << " " << extra_attributes;
  if (title.empty()) {
    os_ << "/>\n";
    return;
  }
  os_ << "><title>" << XmlEscape(title) << "</title></circle>\n";
}

void SvgWriter::Polyline(const std::vector<std::pair<double, double>> &points,
                         const std::string &css,
                         const std::string &extra_attributes) {
  os_ << "<polyline class=\"" << css << "\"";
  if (!extra_attributes.empty()) os_ << " " << extra_attributes;
  os_ << " points=\"";
  for (size_t i = 0; i < points.size(); i++)
    os_ << (i == 0 ? "" : " ") << SvgNumber(points[i].first) << ","
        << SvgNumber(points[i].second);
  os_ << "\"/>\n";
}

void SvgWriter::Path(const std::string &d, const std::string &css) {
  os_ << "<path class=\"" << css << "\" d=\"" << d << "\"/>\n";
}

void SvgWriter::Text(double x, double y, const std::string &text,
                     const std::string &css, Anchor anchor) {
  static const char *const kAnchors[] = {"start", "middle", "end"};
  os_ << "<text class=\"" << css << "\" x=\"" << SvgNumber(x) << "\" y=\""
      << SvgNumber(y) << "\"";
  if (anchor != kStart) os_ << " text-anchor=\"" << kAnchors[anchor] << "\"";
  os_ << ">" << XmlEscape(text) << "</text>\n";
}

}  // namespace nnet3
