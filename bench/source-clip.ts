import { runTool, type MediaTools } from '../server/media/tools';

/** The benchmarks' source video: a generated 1280×720 clip with a tone (testsrc2 + sine, x264 veryfast, AAC). */
export async function makeSourceClip(tools: MediaTools, file: string, seconds: number): Promise<void> {
  const input = [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=1280x720:r=30:d=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
  ];
  const encode = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'];
  await runTool(tools.ffmpeg, ['-nostdin', '-v', 'error', '-y', ...input, ...encode, file], 300_000);
}
