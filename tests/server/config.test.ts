import { describe, expect, it } from 'vitest';
import { loadConfig, statsCron } from '../../server/config';

const load = (env: Record<string, string>) => loadConfig(env, []);

describe('platform settings', () => {
  it('talks to the built-in sandbox unless PLATFORMS=live', () => {
    expect(load({}).platforms).toBe('sandbox');
    expect(load({ PLATFORMS: 'live' }).platforms).toBe('live');
    expect(() => load({ PLATFORMS: 'production' })).toThrow('PLATFORMS must be one of sandbox, live, got "production"');
  });

  it('takes PUBLIC_URL without a trailing slash, and leaves it unset by default', () => {
    expect(load({}).publicUrl).toBeUndefined();
    expect(load({ PUBLIC_URL: 'https://office.example/' }).publicUrl).toBe('https://office.example');
    expect(load({ PUBLIC_URL: 'https://office.example/shorts/' }).publicUrl).toBe('https://office.example/shorts');
    expect(() => load({ PUBLIC_URL: 'ftp://office.example' })).toThrow('PUBLIC_URL must be an http(s) URL');
  });
});

describe('statistics sync interval', () => {
  it('syncs every 15 minutes by default and turns STATS_INTERVAL into a Europe/Kiev cron line', () => {
    expect(load({}).statsIntervalMinutes).toBe(15);
    expect(statsCron(load({}).statsIntervalMinutes)).toBe('*/15 * * * *');
    expect(statsCron(load({ STATS_INTERVAL: '5' }).statsIntervalMinutes)).toBe('*/5 * * * *');
    expect(statsCron(load({ STATS_INTERVAL: '120' }).statsIntervalMinutes)).toBe('0 */2 * * *');
    expect(statsCron(load({ STATS_INTERVAL: '1440' }).statsIntervalMinutes)).toBe('0 0 * * *');
  });

  it('refuses intervals a cron line cannot keep evenly', () => {
    expect(() => load({ STATS_INTERVAL: '7' })).toThrow('STATS_INTERVAL must divide an hour');
    expect(() => load({ STATS_INTERVAL: '90' })).toThrow('STATS_INTERVAL must divide an hour');
    expect(() => load({ STATS_INTERVAL: 'often' })).toThrow('STATS_INTERVAL must be a positive whole number');
  });
});

describe('media storage settings', () => {
  it('keeps media on the disk under DATA_DIR unless STORAGE_URL names a bucket', () => {
    expect(load({}).storage).toEqual({ kind: 'disk' });
    expect(load({ STORAGE_URL: 's3://shorts-media/office/', S3_ENDPOINT: 'http://minio:9000/', S3_FORCE_PATH_STYLE: '1' }).storage).toEqual({
      kind: 's3',
      bucket: 'shorts-media',
      prefix: 'office/',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    expect(load({ STORAGE_URL: 's3://shorts-media', S3_REGION: 'eu-central-1' }).storage).toEqual({
      kind: 's3',
      bucket: 'shorts-media',
      prefix: '',
      endpoint: undefined,
      region: 'eu-central-1',
      forcePathStyle: false,
    });
  });

  it('refuses a storage address it cannot use', () => {
    expect(() => load({ STORAGE_URL: 'https://bucket.example' })).toThrow('STORAGE_URL must look like s3://bucket');
    expect(() => load({ STORAGE_URL: 's3://Bad_Bucket' })).toThrow('STORAGE_URL must look like s3://bucket');
    expect(() => load({ STORAGE_URL: 's3://media', S3_ENDPOINT: 'minio:9000' })).toThrow('S3_ENDPOINT must be an http(s) URL');
  });
});
