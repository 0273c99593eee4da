#include <parity/report/html_report.h>
#include <parity/report_pdf/pdf_writer.h>

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QGuiApplication>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRectF>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>
#include <cstdlib>

namespace parity::report_pdf {
namespace {

// A plot's SVG as an image at `scale` times its size (sharp on paper at ~200 dpi).
QImage render_svg(const std::string& svg, double scale) {
  QSvgRenderer renderer(QByteArray::fromStdString(svg));
  if (!renderer.isValid()) throw report::ReportError("the report's plot is not valid SVG");
  const QSize size = renderer.defaultSize() * scale;
  QImage image(size, QImage::Format_RGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  renderer.render(&painter);
  return image;
}

class PdfWriter : public report::ReportWriter {
 public:
  std::string name() const override { return "pdf"; }
  std::string extension() const override { return "pdf"; }

  void write(const report::Report& report, std::ostream& out) const override {
    // parity-cli has no QGuiApplication: one for this write, with no display needed.
    std::unique_ptr<QGuiApplication> own;
    if (!QGuiApplication::instance()) {
      if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
      static int argc = 1;
      static char arg0[] = "parity-cli";
      static char* argv[] = {arg0, nullptr};
      own = std::make_unique<QGuiApplication>(argc, argv);
    }

    // A4 less 15 mm margins is 680 px at QTextDocument's 96 dpi.
    report::HtmlOptions options;
    options.inline_svg = false;
    options.plot_width = 640;
    options.plot_height = 340;
    QTextDocument doc;
    doc.addResource(QTextDocument::ImageResource, QUrl(report::kLossPlotUrl),
                    render_svg(report::loss_svg(report, options), 2.0));
    doc.addResource(QTextDocument::ImageResource, QUrl(report::kDeltaPlotUrl),
                    render_svg(report::delta_svg(report, options), 2.0));
    doc.setHtml(QString::fromStdString(report::report_html(report, options)));

    QByteArray bytes;
    {
      QBuffer buffer(&bytes);
      buffer.open(QIODevice::WriteOnly);
      QPdfWriter pdf(&buffer);
      pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                    QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
      // At 96 dpi the document's pixels are the page's: the layout is the browser's, and the
      // plots' images (2x) stay sharp, embedded whole.
      pdf.setResolution(96);
      pdf.setTitle(QString::fromStdString("Parity report: " + report.question));
      pdf.setCreator(QString::fromStdString("Parity " + report.environment.parity_version));
      // The document paginated at the page's size, each page drawn in turn (QTextDocument's
      // own print() scales its layout to another width than the page's).
      const QSizeF page = pdf.pageLayout().paintRectPixels(pdf.resolution()).size();
      doc.documentLayout()->setPaintDevice(&pdf);  // measured in the page's units
      doc.setPageSize(page);
      QPainter painter(&pdf);
      for (int i = 0; i < doc.pageCount(); ++i) {
        if (i > 0) pdf.newPage();
        painter.save();
        painter.translate(0, -page.height() * i);
        doc.drawContents(&painter, QRectF(QPointF(0, page.height() * i), page));
        painter.restore();
      }
      painter.end();
    }
    if (bytes.isEmpty()) throw report::ReportError("Qt's PDF writer wrote nothing");
    out.write(bytes.constData(), bytes.size());
  }
};

}  // namespace

std::unique_ptr<report::ReportWriter> make_pdf_writer() { return std::make_unique<PdfWriter>(); }

void register_pdf_writer() { report::register_writer(make_pdf_writer()); }

}  // namespace parity::report_pdf
