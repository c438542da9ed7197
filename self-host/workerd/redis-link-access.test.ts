import { describe, expect, it } from 'vitest';
import { redisLinkAllow } from './redis-link-access';

describe('redisLinkAllow', () => {
  it("allows Redis's own addresses, one each, not a whole network", async () => {
    expect(await redisLinkAllow('redis://10.1.2.3:6380/2')).toEqual(['10.1.2.3/32']);
    expect(await redisLinkAllow('rediss://:secret@[::1]:6379')).toEqual(['::1/128']);
    expect(await redisLinkAllow('redis://localhost:6379')).toContain('127.0.0.1/32');
  });
});
