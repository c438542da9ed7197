import { describe, expect, it } from 'vitest';
import { linkSegmentsIn } from './link-segments';

// Two sockets to Redis as `ss -tinpH` lists them: workerd's (the link) and the bridge's.
const SS = [
  '0      0          127.0.0.1:59192    127.0.0.1:6379 users:(("workerd",pid=30247,fd=17))',
  '\t bbr wscale:10,10 rto:204 bytes_sent:6657748 segs_out:518 segs_in:536 data_segs_out:338 data_segs_in:533 delivered:339',
  '0      0          127.0.0.1:59198    127.0.0.1:6379 users:(("node",pid=30179,fd=31))',
  '\t bbr wscale:10,10 rto:204 bytes_sent:197 segs_out:10 segs_in:8 data_segs_out:6 data_segs_in:6',
  '',
].join('\n');

describe('linkSegmentsIn', () => {
  it('sums the data segments sent by the given processes only', () => {
    expect(linkSegmentsIn(SS, new Set([30247]))).toBe(338);
    expect(linkSegmentsIn(SS, new Set([30247, 30179]))).toBe(344);
    expect(linkSegmentsIn(SS, new Set([1]))).toBe(0);
    expect(linkSegmentsIn('', new Set([30247]))).toBe(0);
  });
});
