import { and, between, count, desc, eq, gte, ilike, lte, or, type SQL } from 'drizzle-orm';
import { containsPattern } from '../../db/contains';
import { accessLogs, appLogs } from '../../db/schema';
import type { QueryDb } from '../../db/types';
import {
  type AccessLogQuery,
  type AppLogQuery,
  accessLogQuery,
  appLogQuery,
  checkAccessLogRecord,
  checkAppLogRecord,
} from './query';
import {
  type AccessLogStore,
  type AppLogRecord,
  type AppLogStore,
  LOG_LEVELS,
  levelName,
  type StoredAccessLogRecord,
} from './records';

/** Postgres allows 65,535 bind parameters per statement; 10 columns per row stay well below. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * The access log in Postgres (`access_logs`), for deployments without ClickHouse. One statement
 * per batch, so it runs on the Neon HTTP driver as well as on a Pool.
 */
export function createPostgresAccessLogStore(db: QueryDb): AccessLogStore {
  return {
    async insert(records) {
      const rows = records.map(checkAccessLogRecord);
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        await db.insert(accessLogs).values(rows.slice(start, start + ROWS_PER_STATEMENT));
      }
    },
    async search(search) {
      const query = accessLogQuery(search);
      const where = accessWhere(query);
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(accessLogs)
          .where(where)
          .orderBy(desc(accessLogs.createdAt), desc(accessLogs.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(accessLogs).where(where),
      ]);
      return { total: Number(counted?.total ?? 0), entries: rows.map(toAccessRecord) };
    },
  };
}

function accessWhere(query: AccessLogQuery): SQL | undefined {
  return and(
    query.method === undefined ? undefined : eq(accessLogs.method, query.method),
    query.path === undefined ? undefined : ilike(accessLogs.path, containsPattern(query.path)),
    query.status === undefined
      ? undefined
      : between(accessLogs.statusCode, query.status.min, query.status.max),
    query.source === undefined ? undefined : eq(accessLogs.source, query.source),
    query.port === undefined ? undefined : eq(accessLogs.port, query.port),
    query.userId === undefined ? undefined : eq(accessLogs.userId, query.userId),
    query.q === undefined
      ? undefined
      : or(
          ilike(accessLogs.path, containsPattern(query.q)),
          ilike(accessLogs.userAgent, containsPattern(query.q)),
        ),
    query.from === undefined ? undefined : gte(accessLogs.createdAt, query.from),
    query.to === undefined ? undefined : lte(accessLogs.createdAt, query.to),
  );
}

function toAccessRecord(row: typeof accessLogs.$inferSelect): StoredAccessLogRecord {
  return {
    id: row.id,
    createdAt: row.createdAt,
    source: row.source,
    port: row.port,
    method: row.method,
    path: row.path,
    statusCode: row.statusCode,
    userId: row.userId,
    latencyMs: row.latencyMs,
    ip: row.ip,
    userAgent: row.userAgent,
  };
}

/** The application log in Postgres (`app_logs`); levels are stored as their numbers. */
export function createPostgresAppLogStore(db: QueryDb): AppLogStore {
  return {
    async insert(records) {
      const rows = records.map((record) => {
        const checked = checkAppLogRecord(record);
        return { ...checked, level: LOG_LEVELS[checked.level] };
      });
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        await db.insert(appLogs).values(rows.slice(start, start + ROWS_PER_STATEMENT));
      }
    },
    async search(search) {
      const query = appLogQuery(search);
      const where = appWhere(query);
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(appLogs)
          .where(where)
          .orderBy(desc(appLogs.createdAt), desc(appLogs.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(appLogs).where(where),
      ]);
      return { total: Number(counted?.total ?? 0), entries: rows.map(toAppRecord) };
    },
  };
}

function appWhere(query: AppLogQuery): SQL | undefined {
  return and(
    query.level === undefined ? undefined : gte(appLogs.level, LOG_LEVELS[query.level]),
    query.target === undefined ? undefined : ilike(appLogs.target, containsPattern(query.target)),
    query.q === undefined ? undefined : ilike(appLogs.message, containsPattern(query.q)),
    query.from === undefined ? undefined : gte(appLogs.createdAt, query.from),
    query.to === undefined ? undefined : lte(appLogs.createdAt, query.to),
  );
}

function toAppRecord(row: typeof appLogs.$inferSelect): AppLogRecord {
  return {
    id: row.id,
    createdAt: row.createdAt,
    level: levelName(row.level),
    source: row.source,
    target: row.target,
    message: row.message,
    fields: row.fields,
  };
}
