import { describe, expect, it } from 'vitest';
import { EventAssembler, LineSplitter, StreamEventTooLargeError } from './parser';

function split(pushes: string[], limit?: number, skipOversized = false): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter(limit, skipOversized);
  for (const text of pushes) splitter.push(text, (line) => lines.push(line));
  splitter.end((line) => lines.push(line));
  return lines;
}

describe('LineSplitter', () => {
  it('joins a line that comes in many pushes once, whatever its endings', () => {
    const pieces = Array.from({ length: 200 }, (_, i) => `p${i};`);
    expect(split([...pieces, '\n', 'next\n'])).toEqual([pieces.join(''), 'next']);
    expect(split(['a\r', '\nb\rc\r\n', 'd'])).toEqual(['a', 'b', 'c', 'd']);
    expect(split(['a\r', 'b'])).toEqual(['a', 'b']);
    expect(split(['x', 'y\r\n\r\n'])).toEqual(['xy', '']);
  });

  it('refuses a line longer than its limit, counted over the pushes that brought it', () => {
    expect(() => split(['a'.repeat(600), 'b'.repeat(600)], 1000)).toThrow(StreamEventTooLargeError);
    expect(split(['a'.repeat(600), `${'b'.repeat(300)}\n`, 'c'.repeat(900)], 1000)).toHaveLength(2);
  });

  it('in skip mode leaves such a line out, and goes on with the next', () => {
    const long = ['data: ', 'a'.repeat(600), 'b'.repeat(600), 'c\n', '\ndata: {"usage":{}}\n\n'];
    expect(split(long, 1000, true)).toEqual(['', 'data: {"usage":{}}', '']);
    expect(split(['x'.repeat(1200), '\r\nnext\r\n'], 1000, true)).toEqual(['next']);
  });
});

describe('EventAssembler', () => {
  it('refuses an event whose data lines together pass the limit', () => {
    const events = new EventAssembler(100);
    events.line(`data: ${'a'.repeat(60)}`, () => {});
    expect(() => events.line(`data: ${'b'.repeat(60)}`, () => {})).toThrow('exceeds 100 characters');
    const fresh = new EventAssembler(100);
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      fresh.line(`data: ${'c'.repeat(60)}`, () => {});
      fresh.line('', (event) => seen.push(event.data));
    }
    expect(seen).toHaveLength(3);
  });
});
