import { describe, expect, it } from 'vitest';
import { localUrl, stackBanner } from './banner';

const input = {
  gatewayUrl: 'http://127.0.0.1:3000',
  consoleUrl: 'http://127.0.0.1:3001',
  gatewayRuntime: 'workerd serve, 2026-04-01',
  stores: ['postgres: embedded'],
  bridgePort: 4000,
};

describe('stackBanner', () => {
  it('promises the setup wizard only to a stack that has no admin yet', () => {
    expect(stackBanner({ ...input, initialized: false })).toContain('the first visit runs the setup wizard');
    const restarted = stackBanner({ ...input, initialized: true });
    expect(restarted).toContain('web UI:  http://127.0.0.1:3001/   (open in a browser and sign in)');
    expect(restarted).not.toContain('setup wizard');
    expect(stackBanner({ ...input, initialized: null })).not.toContain('setup wizard');
    expect(restarted.split('\n')[0]).toBe('Sluice is running');
  });

  it('names the app a split deployment leaves out of this process', () => {
    const gatewayOnly = stackBanner({ ...input, consoleUrl: null, initialized: null });
    expect(gatewayOnly).toContain('gateway: http://127.0.0.1:3000');
    expect(gatewayOnly).toContain('console: not in this process (SLUICE_SERVE=gateway)');
    expect(gatewayOnly).not.toContain('web UI');
    const consoleOnly = stackBanner({ ...input, gatewayUrl: null, bridgePort: null, initialized: true });
    expect(consoleOnly).toContain('gateway: not in this process (SLUICE_SERVE=console)');
    expect(consoleOnly).toContain('console: http://127.0.0.1:3001');
    expect(consoleOnly).toContain('bridge:  none (the console reaches Postgres and Redis itself)');
    expect(gatewayOnly).toContain('bridge:  127.0.0.1:4000 (Neon HTTP and Upstash REST');
  });

  it('gives a reachable local URL for wildcard and IPv6 binds', () => {
    expect(localUrl('0.0.0.0', 3000)).toBe('http://127.0.0.1:3000');
    expect(localUrl('::', 3000)).toBe('http://[::1]:3000');
  });
});
