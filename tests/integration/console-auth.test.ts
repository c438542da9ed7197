// Console sign-in (docs/users-and-auth.md): register, login, refresh and me with their errors;
// passwords stored as argon2id hashes; single-use refresh tokens (a reused one revokes its family).
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../shared/src/db/schema';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

let h: ConsoleHarness;
const password = 'a long enough password';

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_auth')));
});
afterAll(() => h.close());

async function registerUser(email: string) {
  return h.call('POST', '/api/auth/register', { body: { email, display_name: 'Reg User', password } });
}

describe('register', () => {
  it('creates a user with role user and the documented shape', async () => {
    const res = await registerUser('reg@example.com');
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['created_at', 'display_name', 'email', 'id', 'role']);
    expect(body).toMatchObject({ email: 'reg@example.com', role: 'user' });
    const [row] = await h.deps.db.select().from(users).where(eq(users.email, 'reg@example.com'));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a duplicate email (any case) with 409 and bad input with 422', async () => {
    expect((await registerUser('REG@example.com')).status).toBe(409);
    const short = await h.call('POST', '/api/auth/register', {
      body: { email: 'x@example.com', display_name: 'X', password: '1234567' },
    });
    expect(short.status).toBe(422);
    const missing = await h.call('POST', '/api/auth/register', { body: { email: 'y@example.com' } });
    expect(missing.status).toBe(422);
    const wrongType = await h.call('POST', '/api/auth/register', {
      body: { email: 42, display_name: [], password: true },
    });
    expect(wrongType.status).toBe(422);
  });

  it('audits auth.register with ip and user agent', async () => {
    const [row] = await h.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.register'))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    expect(row).toMatchObject({
      userEmail: 'reg@example.com',
      ipAddress: h.defaultIp,
      userAgent: 'vitest',
    });
  });
});

describe('login, me and refresh', () => {
  it('logs in and reads /me with the access token', async () => {
    await registerUser('login@example.com');
    const res = await h.call('POST', '/api/auth/login', { body: { email: 'Login@Example.com', password } });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as {
      access_token: string;
      refresh_token: string;
      user: { email: string };
    };
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      user: { email: 'login@example.com' },
    });
    const me = await h.call('GET', '/api/auth/me', { token: tokens.access_token });
    expect(me.status).toBe(200);
    const profile = (await me.json()) as Record<string, unknown>;
    expect(Object.keys(profile).sort()).toEqual([
      'created_at',
      'display_name',
      'email',
      'id',
      'role',
      'updated_at',
    ]);
  });

  it('refuses bad credentials with 401 and missing fields with 422, auditing the failure', async () => {
    const wrong = await h.call('POST', '/api/auth/login', {
      body: { email: 'login@example.com', password: 'nope-nope' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="sluice-console"');
    expect(await wrong.json()).toEqual({
      error: { message: 'Invalid email or password', type: 'authentication_error' },
    });
    expect(
      (await h.call('POST', '/api/auth/login', { body: { email: 'ghost@example.com', password } })).status,
    ).toBe(401);
    expect((await h.call('POST', '/api/auth/login', { body: { email: 'login@example.com' } })).status).toBe(
      422,
    );
    const failures = await h.deps.db.select().from(auditLog).where(eq(auditLog.action, 'auth.login_failed'));
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures[0]).toMatchObject({ ipAddress: h.defaultIp, userAgent: 'vitest' });
  });

  it('locks an email+IP out with 429 after repeated failures, but not other IPs', async () => {
    await registerUser('brute@example.com');
    const ip = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await h.call('POST', '/api/auth/login', {
        body: { email: 'brute@example.com', password: 'guess' },
        ip,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const locked = await h.call('POST', '/api/auth/login', {
      body: { email: 'brute@example.com', password },
      ip,
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const elsewhere = await h.call('POST', '/api/auth/login', {
      body: { email: 'brute@example.com', password },
      ip: '192.0.2.78',
    });
    expect(elsewhere.status).toBe(200);
  });

  it('lets no more than the allowed guesses through when they arrive all at once', async () => {
    await registerUser('parallel@example.com');
    const ip = '192.0.2.90';
    const guesses = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.call('POST', '/api/auth/login', { body: { email: 'parallel@example.com', password: 'guess' }, ip }),
      ),
    );
    const statuses = guesses.map((r) => r.status);
    // login_max_failed_attempts is 5: five passwords were checked, the rest refused unread.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const otherEmail = await h.call('POST', '/api/auth/login', {
      body: { email: 'login@example.com', password },
      ip,
    });
    expect(otherEmail.status).toBe(200);
  });

  it('refuses no correct login because of others arriving at the same moment', async () => {
    await registerUser('crowd@example.com');
    const ip = '192.0.2.91';
    const logins = await Promise.all(
      Array.from({ length: 12 }, () =>
        h.call('POST', '/api/auth/login', { body: { email: 'crowd@example.com', password }, ip }),
      ),
    );
    expect(logins.map((r) => r.status)).toEqual(Array(12).fill(200));
    // Nor after some failures, while the limit is not reached.
    for (let i = 0; i < 3; i++) {
      const wrong = await h.call('POST', '/api/auth/login', {
        body: { email: 'crowd@example.com', password: 'no' },
        ip,
      });
      expect(wrong.status).toBe(401);
    }
    const again = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.call('POST', '/api/auth/login', { body: { email: 'crowd@example.com', password }, ip }),
      ),
    );
    expect(again.map((r) => r.status)).toEqual(Array(8).fill(200));
  });

  it('rotates refresh tokens once and revokes the family on reuse', async () => {
    const login = (await (
      await h.call('POST', '/api/auth/login', { body: { email: 'login@example.com', password } })
    ).json()) as { refresh_token: string };
    const first = await h.call('POST', '/api/auth/refresh', { body: { refresh_token: login.refresh_token } });
    expect(first.status).toBe(200);
    const pair = (await first.json()) as Record<string, unknown>;
    expect(Object.keys(pair).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    // Reusing the spent token fails and burns the family, including the fresh token.
    const reuse = await h.call('POST', '/api/auth/refresh', { body: { refresh_token: login.refresh_token } });
    expect(reuse.status).toBe(401);
    const burnt = await h.call('POST', '/api/auth/refresh', { body: { refresh_token: pair.refresh_token } });
    expect(burnt.status).toBe(401);
  });

  it('lets exactly one of two concurrent refreshes with one token succeed', async () => {
    const login = (await (
      await h.call('POST', '/api/auth/login', { body: { email: 'login@example.com', password } })
    ).json()) as { refresh_token: string };
    const results = await Promise.all([
      h.call('POST', '/api/auth/refresh', { body: { refresh_token: login.refresh_token } }),
      h.call('POST', '/api/auth/refresh', { body: { refresh_token: login.refresh_token } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('refuses /me without, or with a bad, token', async () => {
    expect((await h.call('GET', '/api/auth/me')).status).toBe(401);
    const bad = await h.call('GET', '/api/auth/me', { token: 'garbage' });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: { type: 'authentication_error' } });
    expect(
      (await h.call('POST', '/api/auth/refresh', { body: { refresh_token: 'rt_unknown' } })).status,
    ).toBe(401);
  });

  it('honours jwt_access_ttl_seconds from settings', async () => {
    const { settings } = await import('../../shared/src/db/schema');
    await h.deps.db.insert(settings).values({ key: 'jwt_access_ttl_seconds', category: 'auth', value: 120 });
    const res = await h.call('POST', '/api/auth/login', { body: { email: 'login@example.com', password } });
    expect(((await res.json()) as { expires_in: number }).expires_in).toBe(120);
  });
});

describe('bad input', () => {
  it('answers oversized bodies with 413 and unknown routes with 404, in the envelope', async () => {
    const big = await h.call('POST', '/api/auth/login', {
      raw: JSON.stringify({ email: 'a'.repeat(2_000_000) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { type: 'request_too_large' } });
    const missing = await h.call('GET', '/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { type: 'not_found_error' } });
    const array = await h.call('POST', '/api/auth/login', { raw: '[1,2]' });
    expect(array.status).toBe(422);
  });
});

describe('bad input (content types and shapes)', () => {
  it('answers a non-JSON content type, an empty body and null with 4xx envelopes', async () => {
    const { createConsoleApp } = await import('../../console-server/src/app');
    const app = createConsoleApp(h.deps, { trustProxy: true });
    const textPlain = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"email":"a@example.com","password":"x"}',
    });
    expect(textPlain.status).toBeGreaterThanOrEqual(400);
    expect(textPlain.status).toBeLessThan(500);
    expect(await textPlain.json()).toHaveProperty('error.type');
    const empty = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    const nul = await h.call('POST', '/api/auth/register', { raw: 'null' });
    expect(nul.status).toBe(422);
  });
});
