import { describe, expect, it } from 'vitest';
import { encodeCommands } from './resp-encode';

describe('RESP2 request encoding', () => {
  it('writes each command as an array of bulk strings, lengths in UTF-8 bytes', () => {
    expect(
      encodeCommands([
        ['SET', 'k', 'é✓'],
        ['GET', 'k'],
      ]),
    ).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\né✓\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n');
  });

  it('carries CR, LF and empty arguments intact (bulk strings are length-prefixed)', () => {
    expect(encodeCommands([['SET', '', '\r\n$3\r\n']])).toBe(
      '*3\r\n$3\r\nSET\r\n$0\r\n\r\n$6\r\n\r\n$3\r\n\r\n',
    );
  });
});
