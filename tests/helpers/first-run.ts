import { expect } from 'vitest';
import type { ConsoleCall } from './fake-providers';
import { http } from './http';

/** The e2e suite's admin: the shared stack is set up with it (tests/setup/e2e-global.ts). */
export const FIRST_ADMIN = {
  email: 'first@example.com',
  display_name: 'First Admin',
  password: 'first-run-password',
};

/**
 * The README's first-run walk: setup status → initialize → login → /api/auth/me →
 * gateway readiness → the console's JWT accepted by the gateway. Returns the tokens.
 */
export async function walkFirstRun(consoleUrl: string, gatewayUrl: string): Promise<{ accessToken: string }> {
  const status = await http('GET', `${consoleUrl}/api/setup/status`);
  expect(status).toMatchObject({ status: 200, body: { initialized: false, needs_setup: true } });

  const admin = FIRST_ADMIN;
  const init = await http('POST', `${consoleUrl}/api/setup/initialize`, { body: { admin } });
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  expect(init.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, user: { role: 'admin' } });

  const login = await http('POST', `${consoleUrl}/api/auth/login`, {
    body: { email: admin.email, password: admin.password },
  });
  expect(login.status).toBe(200);
  const accessToken = login.body.access_token as string;

  const me = await http('GET', `${consoleUrl}/api/auth/me`, { token: accessToken });
  expect(me).toMatchObject({ status: 200, body: { email: admin.email, role: 'admin' } });

  const ready = await http('GET', `${gatewayUrl}/health/ready`);
  expect(ready).toMatchObject({ status: 200, body: { status: 'ready' } });

  const models = await http('GET', `${gatewayUrl}/v1/models`, { token: accessToken });
  expect(models).toMatchObject({ status: 200, body: { object: 'list', data: [] } });
  const refused = await http('GET', `${gatewayUrl}/v1/models`, { token: 'nope' });
  expect(refused).toMatchObject({
    status: 401,
    body: { error: { message: 'Missing or invalid API key', type: 'authentication_error' } },
  });
  return { accessToken };
}

/** Logs the e2e suite's admin in to the console; gives back console API calls made as it. */
export async function adminConsole(consoleUrl: string): Promise<ConsoleCall> {
  const { email, password } = FIRST_ADMIN;
  const login = await http('POST', `${consoleUrl}/api/auth/login`, { body: { email, password } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const token = login.body.access_token as string;
  return (method, path, body) => http(method, `${consoleUrl}${path}`, { token, body });
}
