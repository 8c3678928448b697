import { describe, expect, it } from 'vitest';
import { loadConfig, statsCron } from '../../server/config';

const load = (env: Record<string, string>) => loadConfig(env, []);

describe('platform settings', () => {
  it('talks to the built-in sandbox unless PLATFORMS=live', () => {
    expect(load({}).platforms).toBe('sandbox');
    expect(load({ PLATFORMS: 'live', PUBLIC_URL: 'https://office.example' }).platforms).toBe('live');
    expect(() => load({ PLATFORMS: 'production' })).toThrow('PLATFORMS must be one of sandbox, live, got "production"');
  });

  it('takes PUBLIC_URL without a trailing slash; http://HOST:PORT in sandbox mode, required in live mode', () => {
    expect(load({}).publicUrl).toBe('http://127.0.0.1:3000');
    expect(load({ HOST: '0.0.0.0', PORT: '4000' }).publicUrl).toBe('http://127.0.0.1:4000');
    expect(() => load({ PLATFORMS: 'live' })).toThrow('PUBLIC_URL is required with PLATFORMS=live');
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
