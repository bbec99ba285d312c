// Screenshots and recorded frames as PNG files through the one output writer
// (sim/atomic_file.hpp): encoded in memory by Qt, then a temporary file beside `path`, fsync,
// rename. Returns "" on success, else the message naming the file and the reason.
#pragma once

#include <QImage>
#include <QString>

namespace coulomb::gui {

QString save_png_atomically(const QImage& image, const QString& path);

}  // namespace coulomb::gui
