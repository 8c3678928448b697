import fs from 'node:fs/promises';
import { t } from '../messages';
import { HttpError } from '../http-error';
import type { ImageInfo } from './image-probe';
import { runTool, ToolError, type MediaTools } from './tools';

/**
 * The only demuxers a source may be read with. Probing is limited to them, so a playlist (hls),
 * a concat script or an image sequence disguised as a video is refused rather than followed.
 */
const allowedDemuxers = ['mov', 'matroska', 'avi', 'mpegts', 'flv', 'mpeg', 'asf'];

/** Input options that keep ffmpeg/ffprobe on the local file and on the allowed demuxers. */
export function safeInputOptions(demuxer?: string): string[] {
  const forced = demuxer ? ['-f', demuxer] : [];
  return ['-protocol_whitelist', 'file', '-format_whitelist', allowedDemuxers.join(','), ...forced];
}

export interface VideoInfo {
  /** The demuxer that recognised the file, forced again when it is rendered. */
  demuxer: string;
  durationSeconds: number;
  /** Frames per second of the video stream, kept within 1..60. */
  fps: number;
  /** The picture's size as ffmpeg decodes it for the render: turned upright when the file says it is rotated. */
  width: number;
  height: number;
  /**
   * The first audio track is AAC-LC, mono or stereo, at most 48 kHz: what every platform takes
   * (Instagram's Reels rules are the narrowest), so the render copies it instead of encoding it again.
   */
  audioFitsAsIs: boolean;
}

export interface VideoLimits {
  maxSeconds: number;
  /** Longest side of the picture, in pixels. */
  maxSide: number;
}

/** For a source already accepted: limits changed since its upload must not fail its render. */
export const noLimits: VideoLimits = { maxSeconds: Number.POSITIVE_INFINITY, maxSide: Number.POSITIVE_INFINITY };

const probeTimeoutMs = 30_000;

interface ProbeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    profile?: string;
    channels?: number;
    sample_rate?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    disposition?: { attached_pic?: number };
    side_data_list?: Array<{ rotation?: number }>;
  }>;
}

function rate(text: string | undefined): number {
  const [num, den] = (text ?? '').split('/').map(Number);
  return num && den ? num / den : 0;
}

/**
 * Proves that a file is a playable video: an allowed container with a real video stream (not cover
 * art), a duration within limits, and packets that decode to the end (a cut-off upload fails there).
 * Throws an HttpError(400) with the operator's message otherwise.
 */
export async function probeVideo(tools: MediaTools, file: string, limits: VideoLimits): Promise<VideoInfo> {
  const { size } = await fs.stat(file);
  if (size === 0) throw new HttpError(400, t.media.emptyFile);

  let output: ProbeOutput;
  try {
    const { stdout } = await runTool(
      tools.ffprobe,
      [
        '-v',
        'error',
        ...safeInputOptions(),
        '-show_entries',
        'format=format_name,duration:stream=codec_type,codec_name,profile,channels,sample_rate,width,height,avg_frame_rate,r_frame_rate:stream_disposition=attached_pic:stream_side_data=rotation',
        '-of',
        'json',
        file,
      ],
      probeTimeoutMs,
    );
    output = JSON.parse(stdout) as ProbeOutput;
  } catch (error) {
    if (error instanceof ToolError && !error.timedOut && /moov atom not found|partial file/i.test(error.stderr)) {
      throw new HttpError(400, t.media.videoDamaged);
    }
    throw new HttpError(400, t.media.notVideo);
  }

  const demuxer = output.format?.format_name?.split(',')[0] ?? '';
  const video = output.streams?.find(
    (stream) => stream.codec_type === 'video' && stream.disposition?.attached_pic !== 1 && stream.width && stream.height,
  );
  const durationSeconds = Number(output.format?.duration);
  if (!allowedDemuxers.includes(demuxer) || !video) throw new HttpError(400, t.media.notVideo);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) throw new HttpError(400, t.media.videoDamaged);
  if (durationSeconds > limits.maxSeconds) throw new HttpError(400, t.media.videoTooLong(limits.maxSeconds));
  // Checked before the tail is decoded: a huge, mostly still picture is a small file that decodes slowly.
  if (Math.max(video.width!, video.height!) > limits.maxSide) throw new HttpError(400, t.media.videoFrameTooLarge(limits.maxSide));

  const audio = output.streams?.find((stream) => stream.codec_type === 'audio');
  // ffmpeg turns a picture filmed sideways upright before any filter sees it (within a degree of a
  // quarter turn; other angles are rotated inside the same frame), so a quarter turn swaps its sides.
  const rotation = video.side_data_list?.find((data) => typeof data.rotation === 'number')?.rotation ?? 0;
  const degrees = ((rotation % 360) + 360) % 360;
  const sideways = Math.abs(degrees - 90) < 1 || Math.abs(degrees - 270) < 1;
  const info: VideoInfo = {
    demuxer,
    durationSeconds,
    fps: Math.min(60, Math.max(1, Math.round(rate(video.avg_frame_rate) || rate(video.r_frame_rate) || 30))),
    width: sideways ? video.height! : video.width!,
    height: sideways ? video.width! : video.height!,
    audioFitsAsIs:
      audio?.codec_name === 'aac' &&
      audio.profile === 'LC' &&
      (audio.channels === 1 || audio.channels === 2) &&
      Number(audio.sample_rate) <= 48_000,
  };
  await decodeTail(tools, file, info);
  return info;
}

/** Decodes the last second: a truncated file still has a valid header but its last packets are gone. */
async function decodeTail(tools: MediaTools, file: string, info: VideoInfo): Promise<void> {
  const from = Math.max(0, info.durationSeconds - 1);
  try {
    await runTool(
      tools.ffmpeg,
      [
        '-nostdin',
        '-v',
        'error',
        '-xerror',
        ...safeInputOptions(info.demuxer),
        '-ss',
        from.toFixed(3),
        '-i',
        file,
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        '-f',
        'null',
        '-',
      ],
      probeTimeoutMs,
    );
  } catch {
    throw new HttpError(400, t.media.videoDamaged);
  }
}

const imageDemuxers: Record<ImageInfo['extension'], string> = { png: 'png_pipe', jpg: 'jpeg_pipe', webp: 'webp_pipe' };

/** Decodes an image whose header already passed, so a corrupt body is refused at upload, not at render. */
export async function imageDecodes(tools: MediaTools, file: string, info: ImageInfo): Promise<boolean> {
  try {
    await runTool(
      tools.ffmpeg,
      [
        '-nostdin',
        '-v',
        'error',
        '-xerror',
        '-protocol_whitelist',
        'file',
        '-f',
        imageDemuxers[info.extension],
        '-i',
        file,
        '-frames:v',
        '1',
        '-f',
        'null',
        '-',
      ],
      probeTimeoutMs,
    );
    return true;
  } catch {
    return false;
  }
}
