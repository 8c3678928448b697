/**
 * Render benchmark: 5 variants of a generated 15-second 1280×720 clip (testsrc2 + sine) over 5
 * different background images, by the production pipeline (one ffmpeg process, the source decoded
 * once) against the naive way (5 separate ffmpeg runs, each decoding the source again).
 *
 *   npm run bench:render                      # RENDER_PRESET (default veryfast), system ffmpeg
 *   FFMPEG_PATH=… FFPROBE_PATH=… npm run bench:render
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { probeVideo } from '../server/media/probe';
import { renderVariants, type RenderTarget } from '../server/media/render';
import { resolveMediaTools, runTool } from '../server/media/tools';

const variants = 5;
const clipSeconds = 15;

const config = loadConfig();
const tools = resolveMediaTools(config);
const preset = config.renderPreset;
const timeoutMs = 30 * 60 * 1000;

/** CPU seconds used by finished child processes (ffmpeg), from /proc: Linux only. */
function childCpuSeconds(): number | null {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    // After "pid (comm) ", cutime and cstime are the 14th and 15th fields.
    return (Number(fields[13]) + Number(fields[14])) / ticks;
  } catch {
    return null;
  }
}

async function measure(label: string, work: () => Promise<void>) {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  await work();
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuAfter = childCpuSeconds();
  const cpuSeconds = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  const outputSeconds = variants * clipSeconds;
  const perCpu = cpuSeconds ? (outputSeconds / cpuSeconds).toFixed(2) : 'n/a';
  console.log(
    `${label.padEnd(34)} wall ${wallSeconds.toFixed(1).padStart(6)} s   cpu ${cpuSeconds?.toFixed(1).padStart(6) ?? '   n/a'} s   ` +
      `${perCpu} s of output per CPU-second`,
  );
  return wallSeconds;
}

async function main() {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'shorts-bench-'));
  try {
    const ffmpeg = (args: string[]) => runTool(tools.ffmpeg, ['-nostdin', '-v', 'error', '-y', ...args], timeoutMs);
    const source = path.join(dir, 'source.mp4');
    await ffmpeg([
      '-f', 'lavfi', '-i', `testsrc2=s=1280x720:r=30:d=${clipSeconds}`,
      '-f', 'lavfi', '-i', `sine=frequency=440:duration=${clipSeconds}`,
      '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', source,
    ]);
    const backgrounds: string[] = [];
    for (let index = 0; index < variants; index++) {
      const file = path.join(dir, `background-${index}.jpg`);
      await ffmpeg(['-f', 'lavfi', '-i', `testsrc2=s=1080x1920,hue=h=${index * 72}`, '-frames:v', '1', file]);
      backgrounds.push(file);
    }
    const info = await probeVideo(tools, source, clipSeconds * 2);
    const targets = (prefix: string): RenderTarget[] =>
      backgrounds.map((background, index) => ({
        background,
        video: path.join(dir, `${prefix}-${index}.mp4`),
        poster: path.join(dir, `${prefix}-${index}.jpg`),
      }));

    console.log(`ffmpeg: ${tools.ffmpeg}`);
    console.log(`${variants} variants of a ${clipSeconds} s 1280×720 clip → 1080×1920 H.264 (preset ${preset}) + AAC, ${os.cpus().length} CPUs\n`);

    const pipeline = await measure('pipeline (1 process, 5 outputs)', () =>
      renderVariants({ tools, source, info, targets: targets('pipeline'), preset, timeoutMs }),
    );
    const naive = await measure('naive (5 runs, one after another)', async () => {
      for (const target of targets('naive')) {
        await renderVariants({ tools, source, info, targets: [target], preset, timeoutMs });
      }
    });
    const parallel = await measure('naive (5 runs at once)', async () => {
      await Promise.all(targets('parallel').map((target) => renderVariants({ tools, source, info, targets: [target], preset, timeoutMs })));
    });

    console.log(`\nnaive one after another / pipeline: ${(naive / pipeline).toFixed(2)}×`);
    console.log(`naive at once / pipeline:           ${(parallel / pipeline).toFixed(2)}×`);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

await main();
