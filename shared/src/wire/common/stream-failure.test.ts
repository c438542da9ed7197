import { describe, expect, it } from 'vitest';
import { FailureScanner, failureOfEvent, upstreamFailureIn } from './stream-failure';

describe('upstreamFailureIn', () => {
  it("finds each format's own error event and its message", () => {
    const chat = 'data: {"choices":[]}\n\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n';
    const messages =
      'event: ping\ndata: {"type":"ping"}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const failed =
      'event: response.failed\ndata: {"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"boom"}}}\n\n';
    expect(upstreamFailureIn(chat)).toBe('the upstream reported an error: overloaded');
    expect(upstreamFailureIn(messages)).toBe('the upstream reported an error: Overloaded');
    expect(upstreamFailureIn(failed)).toBe('the upstream reported an error: boom');
  });

  it('finds none in an ordinary stream, nor in data that is not JSON (passed on as it came)', () => {
    expect(upstreamFailureIn('data: {"a":1}\n\ndata: <html>oops\n\n')).toBeNull();
    const fine =
      'event: message_start\ndata: {"type":"message_start","error":null}\n\ndata: {"x":"error"}\n\ndata: [DONE]\n\n';
    expect(upstreamFailureIn(fine)).toBeNull();
  });

  it('reads one event the same way', () => {
    expect(failureOfEvent({ event: 'error', data: '{"type":"error","error":{"message":"m"}}' })).toBe(
      'the upstream reported an error: m',
    );
    expect(failureOfEvent({ data: '{"id":"chatcmpl-1","choices":[]}' })).toBeNull();
  });

  it('finds an error event whose data line comes in the next piece', () => {
    const scanner = new FailureScanner();
    expect(
      scanner.scan('event: content_block_delta\ndata: {"type":"content_block_delta"}\n\nevent: error\n'),
    ).toBeNull();
    expect(scanner.scan('data: {"type":"error","error":{"message":"Overloaded"}}\n\n')).toBe(
      'the upstream reported an error: Overloaded',
    );
    const dataless = new FailureScanner();
    dataless.scan('event: error\n');
    expect(dataless.end()).toBe('the upstream reported an error');
  });
});
