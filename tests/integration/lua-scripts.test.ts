// All multi-key atomic work is a Lua script run with EVALSHA (EVAL on NOSCRIPT),
// with a test that each stored SHA-1 matches SCRIPT LOAD. Every script of the code base, on
// the real Redis through the real @upstash/redis client (over the dev sidecar or RESP).
import { describe, expect, it } from 'vitest';
import { ENTER_SCRIPT, LEAVE_SCRIPT } from '../../shared/src/auth/sign-in/login-gate';
import { TAKE_SCRIPT } from '../../shared/src/auth/sign-in/sso/state-store';
import { ADMIT_SCRIPT } from '../../shared/src/limits/admission-script';
import { HIT_SCRIPT } from '../../shared/src/limits/fixed-window';
import { ADD_SCRIPT, CHECK_SCRIPT } from '../../shared/src/limits/sliding-window-scripts';
import { FLUSH_SCRIPT, READ_ACTIVE_SCRIPT } from '../../shared/src/metrics/store';
import { CACHE_SET_SCRIPT } from '../../shared/src/proxy/response-cache';
import { ROUTE_HEALTH_SCRIPT } from '../../shared/src/routing/route-health';
import { expectSha1OfSource } from '../../shared/test/stores/lua-sha1';
import { contractRedis } from '../helpers/contract-redis';

const SCRIPTS = [
  ADMIT_SCRIPT,
  CHECK_SCRIPT,
  ADD_SCRIPT,
  HIT_SCRIPT,
  ENTER_SCRIPT,
  LEAVE_SCRIPT,
  TAKE_SCRIPT,
  FLUSH_SCRIPT,
  READ_ACTIVE_SCRIPT,
  CACHE_SET_SCRIPT,
  ROUTE_HEALTH_SCRIPT,
];

describe('Lua scripts', () => {
  it.each(SCRIPTS)('$name: the stored SHA-1 is the source’s and what SCRIPT LOAD returns', async (script) => {
    const redis = contractRedis();
    expectSha1OfSource(script);
    expect(await redis.scriptLoad(script.source)).toBe(script.sha1);
  });
});
