import { encodeCommandText as encodeCommands } from '@sluice/shared/stores';
import { describe, expect, it } from 'vitest';
import { transcodePipeline } from './pipeline-transcode';
import { refusal } from './upstash-policy';
import { parseCommandList, parseJson } from './upstash-request';

/** What the general path makes of a body: RESP bytes and count, or null when it refuses it. */
function generalPath(body: Buffer): { resp: Buffer; count: number } | null {
  try {
    const commands = parseCommandList(parseJson(body));
    if (commands.some((command) => refusal(command) !== null)) return null;
    return { resp: Buffer.from(encodeCommands(commands)), count: commands.length };
  } catch {
    return null;
  }
}

/** The transcoder may decline anything; what it takes it must encode as the general path does. */
function expectSameAsGeneral(body: Buffer): boolean {
  const fast = transcodePipeline(body);
  if (fast === null) return false;
  const general = generalPath(body);
  expect(general, body.toString()).not.toBeNull();
  expect(fast.count).toBe(general?.count);
  expect(fast.resp.toString('latin1')).toBe(general?.resp.toString('latin1'));
  return true;
}

const admission = JSON.stringify([
  [
    'evalsha',
    'a'.repeat(40),
    3,
    'sluice:rl:key:0f8f:requests:5m',
    'sluice:v:keys',
    'k3',
    1,
    0,
    12,
    300000,
    -7,
  ],
  ['hincrby', 'sluice:metrics', 'http_requests_total{method=POST}', 1],
  ['set', 'k', '', 'PX', 1000, 'NX'],
  ['get', 'clé-ünïcode-✓ with spaces!'],
  ['echo', true, false, 0, 999999999999999],
]);

describe('transcodePipeline', () => {
  it('encodes a gateway batch (scripts, counters, empty and non-ASCII strings) as the general path does', () => {
    expect(expectSameAsGeneral(Buffer.from(admission))).toBe(true);
    expect(transcodePipeline(Buffer.from('[["ping"]]'))?.resp.toString()).toBe('*1\r\n$4\r\nping\r\n');
  });

  it.each([
    ['an escape', '[["set","k","say \\"hi\\""]]'],
    ['a unicode escape', '[["get","\\u00e9"]]'],
    ['a fraction', '[["incrbyfloat","k",1.5]]'],
    ['an exponent', '[["expire","k",1e3]]'],
    ['16 digits', '[["incrby","k",1234567890123456]]'],
    ['minus zero', '[["incrby","k",-0]]'],
    ['a leading zero', '[["incrby","k",012]]'],
    ['null', '[["get",null]]'],
    ['a nested array', '[["get",["k"]]]'],
    ['whitespace', '[ ["get","k"]]'],
    ['an empty command', '[[]]'],
    ['an empty pipeline', '[]'],
    ['a refused command', '[["get","k"],["select","2"]]'],
    ['XREAD', '[["xread","COUNT","1","STREAMS","s","0"]]'],
    ['a non-ASCII name', '[["gét","k"]]'],
    [
      'invalid UTF-8',
      Buffer.from([0x5b, 0x5b, 0x22, 0x67, 0x65, 0x74, 0x22, 0x2c, 0x22, 0xff, 0x22, 0x5d, 0x5d]),
    ],
    ['a raw control character', '[["get","a\tb"]]'],
    ['trailing bytes', '[["get","k"]]]'],
    ['an unterminated string', '[["get","k]]'],
  ])('leaves %s to the general path', (_, body) => {
    expect(transcodePipeline(Buffer.isBuffer(body) ? body : Buffer.from(body))).toBeNull();
  });

  it('never encodes a damaged body differently from the general path (every cut and insertion)', () => {
    const base = Buffer.from(admission);
    let taken = 0;
    for (let i = 0; i <= base.length; i++) {
      if (expectSameAsGeneral(Buffer.concat([base.subarray(0, i), base.subarray(i + 1)]))) taken++;
      for (const byte of [0x2c, 0x5b, 0x5d, 0x22, 0x30, 0x2d, 0x20, 0x5c, 0x74]) {
        expectSameAsGeneral(Buffer.concat([base.subarray(0, i), Buffer.from([byte]), base.subarray(i)]));
      }
    }
    // Removing a byte inside a string or number keeps a valid body: the comparison ran.
    expect(taken).toBeGreaterThan(100);
  });
});
