import { DrizzleQueryError } from 'drizzle-orm/errors';
import { AppError, badRequest } from '../http/app-error';
import { StoreUnavailableError } from '../stores/breaker';
import { DeadlineError } from '../util/deadline';

/**
 * SQLSTATE classes that mean the server could not serve the query at all (08 connection
 * exception, 53 insufficient resources, 57 operator intervention such as a shutdown), as
 * opposed to refusing this query (a constraint, a syntax error: a bug, answered 500).
 */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '57']);

/**
 * What the drivers (node-postgres, Neon HTTP, the bridge's 502s) say when the link fails; a
 * query unanswered within the pool's query_timeout is one.
 */
const LINK_FAILURE =
  /connection terminated|connection timeout|timeout exceeded when trying to connect|query read timeout|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|fetch failed|socket|HTTP status 50[234]|could not talk to the database|Connection closed/i;

function sqlState(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

function linkFailed(error: unknown): boolean {
  if (error instanceof DeadlineError || error instanceof StoreUnavailableError) return true;
  const state = sqlState(error);
  if (state !== null) return UNAVAILABLE_CLASSES.has(state.slice(0, 2));
  return error instanceof Error && LINK_FAILURE.test(error.message);
}

/**
 * True when a database call failed because Postgres could not be reached in time (down,
 * restarting, blackholed, or over its deadline), so the caller should answer 503, not 500.
 * Queries come wrapped by drizzle (the driver's error as `cause`); a transaction's connect
 * fails with the driver's own error.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof DrizzleQueryError) return linkFailed(error.cause);
  return linkFailed(error);
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable; try again shortly';

/** The 503 both apps answer for isDatabaseUnreachable errors. */
export function databaseUnavailable(cause: unknown): AppError {
  return new AppError(503, DATABASE_UNAVAILABLE_MESSAGE, { cause, headers: { 'Retry-After': '5' } });
}

/**
 * True when Postgres refused a value the request carried (SQLSTATE class 22, data exception:
 * a NUL in text, a malformed uuid, a number out of range), which input validation let through:
 * the client's fault, answered 400, never 500.
 */
export function isInvalidValue(error: unknown): boolean {
  const cause = error instanceof DrizzleQueryError ? error.cause : error;
  return sqlState(cause)?.startsWith('22') ?? false;
}

export function invalidValue(cause: unknown): AppError {
  const detail = cause instanceof DrizzleQueryError ? cause.cause?.message : undefined;
  return badRequest(`A value in the request cannot be stored${detail ? `: ${detail}` : ''}`);
}
