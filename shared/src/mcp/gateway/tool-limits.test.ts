import { describe, expect, it } from 'vitest';
import type { ToolAdmission } from '../../limits/tool-gate';
import { TOOL_RATE_LIMITED_CODE, toolLimitRefusal } from './tool-limits';

const subject = { keyId: 'k', userId: 'u', rateLimitRpm: null };
const tool = { server: 'github', tool: 'search' };
const port = (answer: ToolAdmission) => async () => answer;

describe('toolLimitRefusal', () => {
  it('lets the call go on when admitted, or when nothing limits tools', async () => {
    expect(await toolLimitRefusal(port({ ok: true }), subject, tool)).toBeNull();
    expect(await toolLimitRefusal(undefined, subject, tool)).toBeNull();
  });

  it('refuses as a JSON-RPC error naming the limit, the tool and when it frees', async () => {
    const fault = await toolLimitRefusal(
      port({
        ok: false,
        label: 'user:tool_calls/1m:github__*',
        retryAfterSeconds: 40,
        resetsAt: '2026-11-29T12:00:40.000Z',
      }),
      subject,
      tool,
    );
    expect(fault?.code).toBe(TOOL_RATE_LIMITED_CODE);
    expect(fault?.message).toBe(
      'Rate limited: user:tool_calls/1m:github__* on github__search; retry after 40 s (at 2026-11-29T12:00:40.000Z)',
    );
    expect(fault?.data).toEqual({
      limit: 'user:tool_calls/1m:github__*',
      tool: 'github__search',
      retry_after_seconds: 40,
      resets_at: '2026-11-29T12:00:40.000Z',
    });
  });

  it('a fail-closed refusal says what could not be reached, without an instant', async () => {
    const fault = await toolLimitRefusal(
      port({ ok: false, label: 'rate_limiter_unavailable', retryAfterSeconds: 30, resetsAt: null }),
      subject,
      tool,
    );
    expect(fault?.message).toBe('Rate limited: rate_limiter_unavailable on github__search; retry after 30 s');
  });
});
