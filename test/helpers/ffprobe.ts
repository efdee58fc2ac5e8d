// A movie read back by ffprobe (Debian's ffmpeg): what a player would find in it. ffmpeg is a test dependency that
// CI installs (.ci/run); on a machine without it the tests that need it are skipped, but never in CI (CI or
// MLSO_TEST_NEEDS_FFMPEG set), where its absence is a failure rather than a silent skip.
import { spawnSync } from 'node:child_process';

export interface ProbedVideo {
  codec: string;
  width: number;
  height: number;
  /** Frames counted by decoding the stream (ffprobe -count_frames), not the header's claim. */
  frames: number;
  seconds: number;
}

/** Whether ffmpeg and ffprobe run here. */
export function ffmpegPresent(): boolean {
  return ['ffmpeg', 'ffprobe'].every((tool) => {
    const run = spawnSync(tool, ['-version'], { stdio: 'ignore' });
    return run.error === undefined && run.status === 0;
  });
}

/** Whether a missing ffmpeg should fail the tests that need it (CI), rather than skip them (a developer's machine). */
export function ffmpegRequired(): boolean {
  return Boolean(process.env['CI'] || process.env['MLSO_TEST_NEEDS_FFMPEG']);
}

/** The first video stream of `file` as ffprobe reads it. */
export function probeVideo(file: string): ProbedVideo {
  const run = spawnSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,width,height,nb_read_frames:format=duration',
      '-of',
      'json',
      file,
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`ffprobe could not read ${file}: ${run.stderr.trim()}`);
  const probed = JSON.parse(run.stdout) as {
    streams: { codec_name: string; width: number; height: number; nb_read_frames: string }[];
    format: { duration: string };
  };
  const [stream] = probed.streams;
  if (!stream) throw new Error(`ffprobe found no video stream in ${file}`);
  return {
    codec: stream.codec_name,
    width: stream.width,
    height: stream.height,
    frames: Number(stream.nb_read_frames),
    seconds: Number(probed.format.duration),
  };
}
