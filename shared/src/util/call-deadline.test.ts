import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallDeadline } from './call-deadline';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createCallDeadline', () => {
  it('runs the deadline once its time has passed, not before', async () => {
    const deadline = createCallDeadline();
    const expired = vi.fn();
    deadline.set(100, expired);
    await vi.advanceTimersByTimeAsync(99);
    expect(expired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(expired).toHaveBeenCalledOnce();
  });

  it('serves a later deadline with the timer already armed: one setTimeout, one clearTimeout', async () => {
    const setSpy = vi.spyOn(globalThis, 'setTimeout');
    const clearSpy = vi.spyOn(globalThis, 'clearTimeout');
    const deadline = createCallDeadline();
    const headers = vi.fn();
    deadline.set(1_000, headers, 50);
    await vi.advanceTimersByTimeAsync(10);
    deadline.pause();
    const body = vi.fn();
    deadline.set(50, body);
    await vi.advanceTimersByTimeAsync(20);
    deadline.stop();
    expect(setSpy).toHaveBeenCalledOnce();
    expect(clearSpy).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(headers).not.toHaveBeenCalled();
    expect(body).not.toHaveBeenCalled();
  });

  it('re-arms itself when it fires before the deadline (armWithinMs shorter than the wait)', async () => {
    const deadline = createCallDeadline();
    const expired = vi.fn();
    deadline.set(25, expired, 10);
    await vi.advanceTimersByTimeAsync(24);
    expect(expired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toHaveBeenCalledOnce();
  });

  it('moves the timer forward for a deadline earlier than the armed one', async () => {
    const deadline = createCallDeadline();
    const first = vi.fn();
    const second = vi.fn();
    deadline.set(1_000, first);
    deadline.set(30, second);
    await vi.advanceTimersByTimeAsync(30);
    expect(second).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(first).not.toHaveBeenCalled();
  });

  it('gives a deadline set after the timer fired while paused a timer of its own', async () => {
    const deadline = createCallDeadline();
    deadline.set(20, vi.fn());
    deadline.pause();
    await vi.advanceTimersByTimeAsync(100);
    const expired = vi.fn();
    deadline.set(40, expired);
    await vi.advanceTimersByTimeAsync(39);
    expect(expired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toHaveBeenCalledOnce();
  });

  it('runs nothing once stopped', async () => {
    const deadline = createCallDeadline();
    const expired = vi.fn();
    deadline.set(10, expired);
    deadline.stop();
    await vi.advanceTimersByTimeAsync(100);
    expect(expired).not.toHaveBeenCalled();
  });
});
