import type { MediaTools } from '../server/media/tools';
import { makeClip } from '../tests/fixtures/media';

/** The benchmarks' source video: a generated 1280×720 clip with a tone, encoded `veryfast`. */
export function makeSourceClip(tools: MediaTools, file: string, seconds: number): Promise<void> {
  return makeClip(tools, file, { size: '1280x720', rate: 30, seconds, preset: 'veryfast' });
}
