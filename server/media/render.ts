import { safeInputOptions, type VideoInfo } from './probe';
import { runTool, type MediaTools } from './tools';

const outputWidth = 1080;
const outputHeight = 1920;

/** The frame every variant is rendered at, whatever its source's. */
export const variantFrame = { width: outputWidth, height: outputHeight };

/**
 * The poster's small copy, for the lists and the publish form: three times the 72 × 128 px the
 * largest of them shows it at, so it stays sharp on a 3× phone screen, at about a tenth of the
 * full poster's bytes (Lighthouse's 'properly size images', docs/benchmarks.md).
 */
export const thumbnailFrame = { width: outputWidth / 5, height: outputHeight / 5 };

export interface RenderTarget {
  /** A background image file, or null for a blurred, zoomed copy of the source. */
  background: string | null;
  /** Where the finished MP4 goes (a scratch path: the caller moves it into storage). */
  video: string;
  /** Where its poster frame (JPEG) goes. */
  poster: string;
  /** Where the poster's small copy (JPEG, thumbnailFrame) goes. */
  thumbnail: string;
}

export interface RenderJob {
  tools: MediaTools;
  source: string;
  info: VideoInfo;
  targets: RenderTarget[];
  preset: string;
  timeoutMs: number;
  /** Kills ffmpeg when the job is called off (expired, or its worker taken for dead). */
  signal?: AbortSignal;
}

/**
 * The source scaled to fit inside the output, sides even (as yuv420p needs). A side within 2 px of
 * the output's is stretched to it, so a band of background beside the clip is never thinner than 2 px.
 */
function fittedSize({ width, height }: VideoInfo): { width: number; height: number } {
  const fit = (exact: number, whole: number) => {
    const even = Math.max(2, Math.round(exact / 2) * 2);
    return whole - even < 4 ? whole : even;
  };
  return width / height > outputWidth / outputHeight
    ? { width: outputWidth, height: fit((outputWidth * height) / width, outputHeight) }
    : { width: fit((outputHeight * width) / height, outputWidth), height: outputHeight };
}

const fillsFrame = (fitted: { width: number; height: number }) => fitted.width === outputWidth && fitted.height === outputHeight;

/** The fitted clip fills the whole frame (a vertical video, as most shorts are): no background shows. */
export function coversFrame(info: VideoInfo): boolean {
  return fillsFrame(fittedSize(info));
}

const cover = (width: number, height: number) =>
  `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1`;
/** The poster's frame: a second into the clip, or its middle when shorter (past a fade-in, still early). */
const posterFrame = (info: VideoInfo) => Math.floor(Math.min(1, info.durationSeconds / 2) * info.fps);

/**
 * The fitted clip placed in the middle of its background: the background's two bands beside it
 * stacked around it. Stacking copies the clip's pixels as they are, where `overlay` blends each of
 * them through an alpha channel it adds (1.3 of the graph's 3.3 CPU-seconds for 5 variants); the
 * frames are the same to the bit. The first band ends on an even line or column, where overlay put the clip.
 */
function placedOnBackground(background: string, clip: string, fitted: { width: number; height: number }, label: string): string[] {
  const across = fitted.height === outputHeight;
  const room = across ? outputWidth - fitted.width : outputHeight - fitted.height;
  const before = Math.floor(room / 4) * 2;
  const after = room - before;
  const band = (offset: number, size: number) =>
    across ? `crop=${size}:${outputHeight}:${offset}:0` : `crop=${outputWidth}:${size}:0:${offset}`;
  const end = across ? outputWidth : outputHeight;
  return [
    `${background}split=2[${label}a][${label}b]`,
    `[${label}a]${band(0, before)}[${label}before]`,
    `[${label}b]${band(end - after, after)}[${label}after]`,
    `[${label}before]${clip}[${label}after]${across ? 'hstack' : 'vstack'}=inputs=3:shortest=1[${label}]`,
  ];
}

/** One frame of a graph's output `label`, as a JPEG file. */
const jpegOutput = (label: string, file: string) => ['-map', label, '-frames:v', '1', '-q:v', '3', '-f', 'image2', file];

/**
 * One ffmpeg process for all targets: the source is decoded and fitted once, then split into
 * every composition, each with its own encoder. A background image is decoded once and repeated
 * in memory (`loop`) at the source's frame rate, rather than re-read for every frame. Each
 * composition is also split to its poster frame and that frame's small copy, so no second ffmpeg
 * has to decode the result.
 */
function renderArguments({ source, info, targets, preset }: Omit<RenderJob, 'tools' | 'timeoutMs' | 'signal'>): string[] {
  const inputs = ['-nostdin', '-v', 'error', '-y', ...safeInputOptions(info.demuxer), '-i', source];
  const fitted = fittedSize(info);
  const needsBackground = !fillsFrame(fitted);
  const graph: string[] = [];
  const foreground = targets.map((_, index) => `[f${index}]`);
  const blurSources = targets.filter((target) => needsBackground && target.background === null).map((_, index) => `[fb${index}]`);
  graph.push(
    `[0:v]fps=${info.fps},scale=${fitted.width}:${fitted.height},setsar=1,format=yuv420p,` +
      `split=${foreground.length + blurSources.length}${foreground.join('')}${blurSources.join('')}`,
  );

  let imageInput = 0;
  let blurIndex = 0;
  targets.forEach((target, index) => {
    if (!needsBackground) {
      graph.push(`[f${index}]null[c${index}]`);
    } else if (target.background === null) {
      // Blurring a quarter-size copy looks the same once scaled up, at a sixteenth of the cost.
      graph.push(
        `[fb${blurIndex++}]${cover(outputWidth / 4, outputHeight / 4)},boxblur=10:2,scale=${outputWidth}:${outputHeight},setsar=1[b${index}]`,
      );
      graph.push(...placedOnBackground(`[b${index}]`, `[f${index}]`, fitted, `c${index}`));
    } else {
      imageInput += 1;
      inputs.push('-protocol_whitelist', 'file', '-framerate', String(info.fps), '-i', target.background);
      graph.push(`[${imageInput}:v]${cover(outputWidth, outputHeight)},format=yuv420p,loop=loop=-1:size=1:start=0[b${index}]`);
      graph.push(...placedOnBackground(`[b${index}]`, `[f${index}]`, fitted, `c${index}`));
    }
    graph.push(`[c${index}]split=2[v${index}][s${index}]`);
    // Only the poster's own frame goes on: the JPEG encoder takes full-range pixels, and every frame
    // let through (gte) was converted at 1080×1920 though one was kept, 1.4 CPU-seconds a variant.
    graph.push(`[s${index}]select='eq(n,${posterFrame(info)})',split=2[p${index}][pt${index}]`);
    graph.push(`[pt${index}]scale=${thumbnailFrame.width}:${thumbnailFrame.height}[t${index}]`);
  });

  const audioOptions = info.audioFitsAsIs ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];
  const outputs = targets.flatMap((target, index) => [
    '-map',
    `[v${index}]`,
    '-map',
    '0:a:0?',
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-profile:v',
    'high',
    ...audioOptions,
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    target.video,
    ...jpegOutput(`[p${index}]`, target.poster),
    ...jpegOutput(`[t${index}]`, target.thumbnail),
  ]);
  return [...inputs, '-filter_complex', graph.join(';'), ...outputs];
}

/** Encodes every target, its poster frame and the poster's small copy in one ffmpeg process. */
export async function renderVariants(job: RenderJob): Promise<void> {
  await runTool(job.tools.ffmpeg, renderArguments(job), job.timeoutMs, job.signal);
}
