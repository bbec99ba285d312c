// Video recording of the viewport (View panel, View > Record video): frames read back from the
// viewport at a fixed wall-clock rate and written as a PNG sequence (frame_000000.png, ...) into a
// folder; where the ffmpeg program is installed (Debian: apt-get install ffmpeg) the sequence is
// then encoded into an H.264 MP4 beside the folder, in the background, with its progress read
// from ffmpeg's -progress output. Frames are taken only when the viewport has something new
// (another simulation state or camera), so a paused scene does not fill the folder.
#pragma once

#include <QImage>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>

class QProcess;

namespace coulomb::gui {

class VideoRecorder : public QObject {
  Q_OBJECT

 public:
  // `grab`: the viewport's next frame (null image: it cannot read back). `changed`: a number that
  // changes when the picture may have (null: every tick is a frame).
  VideoRecorder(std::function<QImage()> grab, std::function<std::uint64_t()> changed, QObject* parent = nullptr);
  ~VideoRecorder() override;

  // The ffmpeg executable on PATH, empty when there is none.
  static QString ffmpeg();

  // Starts recording into `directory` (created if missing; it must not hold frames already) at
  // `fps`; `max_frames` > 0 stops by itself after that many; `mp4`: encode <directory>.mp4 after
  // the last frame (needs ffmpeg). False with the reason when it cannot start.
  bool start(const QString& directory, int fps, int max_frames, bool mp4, QString* error);
  void stop();  // ends the recording (and starts the encoding, if asked)

  bool recording() const { return recording_; }
  bool encoding() const { return ffmpeg_ != nullptr; }
  int frames_written() const { return frames_; }
  int frames_planned() const { return max_frames_; }
  double encode_progress() const { return encode_progress_; }
  const QString& directory() const { return directory_; }
  QString mp4_path() const { return directory_ + QStringLiteral(".mp4"); }
  // What the last recording did ("12 frames in /path", an error), for the View panel.
  const QString& status() const { return status_; }

 signals:
  void finished(bool ok, const QString& message);  // after the last frame, or the MP4

 private:
  void capture();
  void finish_frames();
  void done(bool ok, const QString& message);

  std::function<QImage()> grab_;
  std::function<std::uint64_t()> changed_;
  QTimer timer_;
  QString directory_;
  QString status_;
  bool recording_ = false;
  bool mp4_ = false;
  int fps_ = 30;
  int frames_ = 0;
  int max_frames_ = 0;
  bool have_last_ = false;
  std::uint64_t last_change_ = 0;
  QProcess* ffmpeg_ = nullptr;
  double encode_progress_ = 0;
};

}  // namespace coulomb::gui
