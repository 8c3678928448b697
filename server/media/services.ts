import path from 'node:path';
import type { Config } from '../config';
import { diskStorage, type MediaStorage } from './storage';
import { s3Storage } from './s3-storage';
import { resolveMediaTools, type MediaTools } from './tools';

export type MediaSettings = Pick<
  Config,
  | 'maxUploadBytes'
  | 'maxImageBytes'
  | 'maxImagePixels'
  | 'maxVariants'
  | 'maxVideoSeconds'
  | 'maxVideoSide'
  | 'renderPreset'
  | 'renderOutputsPerPass'
  | 'renderTimeoutSeconds'
  | 'mediaUrlTtlSeconds'
>;

/** Everything the media routes and the render worker share. */
export interface MediaServices {
  storage: MediaStorage;
  tools: MediaTools;
  settings: MediaSettings;
}

export function mediaRoot(dataDir: string): string {
  return path.join(dataDir, 'media');
}

export function mediaServices(config: Config): MediaServices {
  return {
    storage: config.storage.kind === 's3' ? s3Storage(config.storage, mediaRoot(config.dataDir)) : diskStorage(mediaRoot(config.dataDir)),
    tools: resolveMediaTools(config),
    settings: {
      maxUploadBytes: config.maxUploadBytes,
      maxImageBytes: config.maxImageBytes,
      maxImagePixels: config.maxImagePixels,
      maxVariants: config.maxVariants,
      maxVideoSeconds: config.maxVideoSeconds,
      maxVideoSide: config.maxVideoSide,
      renderPreset: config.renderPreset,
      renderOutputsPerPass: config.renderOutputsPerPass,
      renderTimeoutSeconds: config.renderTimeoutSeconds,
      mediaUrlTtlSeconds: config.mediaUrlTtlSeconds,
    },
  };
}
