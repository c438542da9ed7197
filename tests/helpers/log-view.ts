import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { checkedApi } from './checked-api';
import { type ConsoleHarness, consoleHarness } from './console';
import { CLICKHOUSE_URL } from './env';
import { appEnv, freshDatabase } from './stores';

export interface LogViewReply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field.
  body: any;
}

export type LogQuery = Record<string, string | number>;

/** The two stores every log view runs on: ClickHouse, and Postgres when CLICKHOUSE_URL is empty. */
export const LOG_VIEW_STORES = [{ store: 'clickhouse' as const }, { store: 'postgres' as const }];

export interface LogView {
  h: ConsoleHarness;
  adminToken: string;
  userToken: string;
  /** Every answer checked against the OpenAPI document; [] when all conformed. */
  problems: string[];
  /** GET <path>?<query>, as the admin unless another token is given ('' for none). */
  logs(query?: LogQuery, token?: string): Promise<LogViewReply>;
}

/**
 * A console on one store — on ClickHouse a database of its own, dropped first so totals are
 * exact whatever else shares the server — with an admin and a plain user, seeded by `seed`.
 */
export async function startLogView(options: {
  name: string;
  store: 'clickhouse' | 'postgres';
  clickhouseDatabase: string;
  path: string;
  seed(h: ConsoleHarness): Promise<void>;
}): Promise<LogView> {
  const { name, store } = options;
  if (store === 'clickhouse') {
    const ch = createClickHouse({ url: CLICKHOUSE_URL, requestTimeoutMs: 10_000 });
    await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(options.clickhouseDatabase)}`.sql });
    await ch.close();
  }
  const extra: Record<string, string> =
    store === 'clickhouse' ? { CLICKHOUSE_DATABASE: options.clickhouseDatabase } : { CLICKHOUSE_URL: '' };
  const h = await consoleHarness(appEnv(await freshDatabase(`sluice_it_${name}_${store}`), extra));
  const { call: api, problems } = await checkedApi(h);
  const admin = { email: `${name}-admin@example.com`, display_name: 'A', password: `${name}-admin-password` };
  const adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
  const user = { email: `${name}-user@example.com`, display_name: 'U', password: `${name}-user-password` };
  await api('POST', '/api/auth/register', { body: user });
  const login = await api('POST', '/api/auth/login', {
    body: { email: user.email, password: user.password },
  });
  await options.seed(h);
  return {
    h,
    adminToken,
    userToken: login.body.access_token,
    problems,
    logs: (query = {}, token = adminToken) => {
      const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      return api('GET', `${options.path}?${search}`, { token });
    },
  };
}

/** The first 8 characters of each entry's id, in order: the seeds encode their index there. */
export const shortIds = (reply: LogViewReply): string[] =>
  reply.body.entries.map((e: { id: string }) => e.id.slice(0, 8));
