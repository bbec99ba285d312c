// PNG images written atomically (gui/image_file.hpp).
#include "gui/image_file.hpp"

#include <QBuffer>
#include <QByteArray>

#include <string_view>

#include "sim/atomic_file.hpp"

namespace coulomb::gui {

QString save_png_atomically(const QImage& image, const QString& path) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG")) return path + QStringLiteral(": cannot encode the image as PNG");
  const std::string error = sim::write_file_atomically(
      path.toStdString(), {std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))});
  return QString::fromStdString(error);
}

}  // namespace coulomb::gui
