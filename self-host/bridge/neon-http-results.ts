import pg from 'pg';
import { NeonHttpRequestError } from './neon-http-request';

export interface NeonField {
  name: string;
  dataTypeID: number;
  tableID: number;
  columnID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
  format: string;
}

/** One statement's answer, shaped like Neon's (and so like node-postgres' Result). */
export interface NeonQueryResult {
  fields: NeonField[];
  rows: unknown[][] | Record<string, unknown>[];
  command: string;
  rowCount: number | null;
  rowAsArray: boolean;
}

/** Values stay raw text (or null); the driver runs its own type parsers over them. */
export function toNeonResult(result: pg.QueryArrayResult<unknown[]>, arrayMode: boolean): NeonQueryResult {
  const fields = result.fields.map((field) => ({
    name: field.name,
    dataTypeID: field.dataTypeID,
    tableID: field.tableID,
    columnID: field.columnID,
    dataTypeSize: field.dataTypeSize,
    dataTypeModifier: field.dataTypeModifier,
    format: field.format,
  }));
  const rows = arrayMode
    ? result.rows
    : result.rows.map((row) => Object.fromEntries(fields.map((field, i) => [field.name, row[i]])));
  return { fields, rows, command: result.command, rowCount: result.rowCount, rowAsArray: arrayMode };
}

/**
 * The fields Neon reports for a Postgres error. The driver answers a 400 by copying exactly
 * these keys from the JSON body onto a NeonDbError, so `.code` is the SQLSTATE.
 */
const ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

export interface NeonErrorResponse {
  status: number;
  body: Record<string, string | null>;
}

/**
 * Postgres errors → 400 with Neon's error body; request problems → their own status with
 * `{message}`; anything else (target unreachable, connect timeout, dropped connection) → 502,
 * which the driver reports as "Server error (HTTP status 502): …" with our message inside.
 */
export function toNeonError(error: unknown): NeonErrorResponse {
  if (error instanceof NeonHttpRequestError) {
    return { status: error.status, body: { message: error.message } };
  }
  if (error instanceof pg.DatabaseError) {
    const body: Record<string, string | null> = { message: error.message };
    for (const key of ERROR_FIELDS) body[key] = error[key] ?? null;
    return { status: 400, body };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { status: 502, body: { message: `store bridge could not talk to the database: ${message}` } };
}
