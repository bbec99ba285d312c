#include "gui/video_recorder.hpp"

#include "gui/image_file.hpp"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

namespace coulomb::gui {

VideoRecorder::VideoRecorder(std::function<QImage()> grab, std::function<std::uint64_t()> changed, QObject* parent)
    : QObject(parent), grab_(std::move(grab)), changed_(std::move(changed)) {
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &VideoRecorder::capture);
}

VideoRecorder::~VideoRecorder() {
  timer_.stop();
  if (ffmpeg_) {
    ffmpeg_->disconnect(this);
    ffmpeg_->kill();
    ffmpeg_->waitForFinished(2000);
  }
}

QString VideoRecorder::ffmpeg() { return QStandardPaths::findExecutable(QStringLiteral("ffmpeg")); }

bool VideoRecorder::start(const QString& directory, int fps, int max_frames, bool mp4, QString* error) {
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  if (recording_ || ffmpeg_) return fail(tr("a recording is already in progress"));
  if (fps < 1 || fps > 240) return fail(tr("frame rate %1 is outside 1..240").arg(fps));
  if (mp4 && ffmpeg().isEmpty()) return fail(tr("MP4 needs the ffmpeg program (apt-get install ffmpeg)"));
  QDir dir(directory);
  if (!dir.exists() && !QDir().mkpath(directory)) return fail(tr("%1: cannot create the folder").arg(directory));
  if (!dir.entryList({QStringLiteral("frame_*.png")}, QDir::Files).isEmpty())
    return fail(tr("%1 already holds frames of another recording").arg(directory));
  directory_ = QDir(directory).absolutePath();
  fps_ = fps;
  max_frames_ = std::max(max_frames, 0);
  mp4_ = mp4;
  frames_ = 0;
  have_last_ = false;
  encode_progress_ = 0;
  recording_ = true;
  status_ = tr("recording into %1").arg(directory_);
  timer_.start(1000 / fps_);
  capture();  // the first frame now
  return true;
}

void VideoRecorder::capture() {
  if (!recording_) return;
  if (changed_) {
    const std::uint64_t change = changed_();
    if (have_last_ && change == last_change_) return;  // nothing new to show
    last_change_ = change;
    have_last_ = true;
  }
  const QImage image = grab_ ? grab_() : QImage();
  if (image.isNull()) {
    recording_ = false;
    timer_.stop();
    done(false, tr("the viewport cannot read its frames back on this system; %1 frames written").arg(frames_));
    return;
  }
  const QString path = QDir(directory_).filePath(QStringLiteral("frame_%1.png").arg(frames_, 6, 10, QLatin1Char('0')));
  if (const QString error = save_png_atomically(image, path); !error.isEmpty()) {
    recording_ = false;
    timer_.stop();
    done(false, error);
    return;
  }
  ++frames_;
  if (max_frames_ > 0 && frames_ >= max_frames_) stop();
}

void VideoRecorder::stop() {
  if (!recording_) return;
  recording_ = false;
  timer_.stop();
  finish_frames();
}

void VideoRecorder::finish_frames() {
  const QString frames = tr("%1 frames (PNG) in %2").arg(frames_).arg(directory_);
  if (!mp4_ || frames_ == 0) {
    done(true, frames);
    return;
  }
  ffmpeg_ = new QProcess(this);
  ffmpeg_->setProgram(ffmpeg());
  ffmpeg_->setArguments({QStringLiteral("-y"), QStringLiteral("-loglevel"), QStringLiteral("error"),
                         QStringLiteral("-framerate"), QString::number(fps_), QStringLiteral("-i"),
                         QDir(directory_).filePath(QStringLiteral("frame_%06d.png")), QStringLiteral("-vf"),
                         QStringLiteral("scale=trunc(iw/2)*2:trunc(ih/2)*2"), QStringLiteral("-c:v"),
                         QStringLiteral("libx264"), QStringLiteral("-pix_fmt"), QStringLiteral("yuv420p"),
                         QStringLiteral("-progress"), QStringLiteral("pipe:1"), QStringLiteral("-nostats"), mp4_path()});
  const int total = frames_;
  connect(ffmpeg_, &QProcess::readyReadStandardOutput, this, [this, total] {
    while (ffmpeg_ && ffmpeg_->canReadLine()) {
      const QByteArray line = ffmpeg_->readLine().trimmed();
      if (line.startsWith("frame=")) encode_progress_ = std::min(1.0, line.mid(6).toDouble() / std::max(total, 1));
    }
  });
  connect(ffmpeg_, &QProcess::finished, this, [this, frames](int code, QProcess::ExitStatus status) {
    const QString errors = QString::fromLocal8Bit(ffmpeg_->readAllStandardError()).trimmed();
    ffmpeg_->deleteLater();
    ffmpeg_ = nullptr;
    if (status == QProcess::NormalExit && code == 0) done(true, frames + tr("; MP4 %1").arg(mp4_path()));
    else done(false, frames + tr("; ffmpeg failed (exit %1): %2").arg(code).arg(errors.left(300)));
  });
  connect(ffmpeg_, &QProcess::errorOccurred, this, [this, frames](QProcess::ProcessError e) {
    if (e != QProcess::FailedToStart || !ffmpeg_) return;
    ffmpeg_->deleteLater();
    ffmpeg_ = nullptr;
    done(false, frames + tr("; ffmpeg could not be started"));
  });
  status_ = tr("encoding %1").arg(mp4_path());
  ffmpeg_->start();
}

void VideoRecorder::done(bool ok, const QString& message) {
  status_ = ok ? tr("Recorded %1").arg(message) : tr("Recording failed: %1").arg(message);
  emit finished(ok, status_);
}

}  // namespace coulomb::gui
