import type { ConsoleHarness } from './console';
import { OpenApiConformance } from './openapi-conformance';

export interface CheckedReply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field.
  body: any;
  /** The body as sent ('' for none). */
  text: string;
  /** The answer's headers (a list's total is in X-Total-Count). */
  headers: Headers;
}

export type CheckedCallOptions = NonNullable<Parameters<ConsoleHarness['call']>[2]>;

export interface CheckedApi {
  /** Calls the console in-process, then checks the answer against the OpenAPI document. */
  call(method: string, path: string, options?: CheckedCallOptions): Promise<CheckedReply>;
  /** What the answers so far broke of the document: [] while every one conformed. */
  problems: string[];
  /** The document, with the operations exercised so far. */
  conformance: OpenApiConformance;
}

/**
 * A console caller whose every answer must be what /api/openapi.json documents: the operation
 * exists, the status is listed for it and the body validates. `ip` is the client address of
 * every call that names none (per-client limits are then the file's own).
 */
export async function checkedApi(h: ConsoleHarness, fixed: { ip?: string } = {}): Promise<CheckedApi> {
  const document = await h.call('GET', '/api/openapi.json');
  if (document.status !== 200) throw new Error(`GET /api/openapi.json answered ${document.status}`);
  const conformance = new OpenApiConformance(await document.json());
  const problems: string[] = [];
  return {
    problems,
    conformance,
    async call(method, path, options = {}) {
      const res = await h.call(method, path, { ip: fixed.ip, ...options });
      const text = await res.text();
      const body = text === '' ? undefined : JSON.parse(text);
      problems.push(...conformance.check({ method, path, status: res.status, body }));
      return { status: res.status, body, text, headers: res.headers };
    },
  };
}

export interface Person {
  email: string;
  display_name: string;
  password: string;
}

/** Registers `person` and signs them in: their user id and access token. */
export async function signUp(api: CheckedApi, person: Person): Promise<{ id: string; token: string }> {
  const registered = await api.call('POST', '/api/auth/register', { body: person });
  const { email, password } = person;
  const login = await api.call('POST', '/api/auth/login', { body: { email, password } });
  if (login.status !== 200) throw new Error(`${email} could not sign in: ${login.status} ${login.text}`);
  return { id: registered.body.id, token: login.body.access_token };
}
