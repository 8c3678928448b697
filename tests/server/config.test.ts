import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

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
