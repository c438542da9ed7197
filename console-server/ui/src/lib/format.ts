const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatDate(value: string | null | undefined, empty = '—'): string {
  if (!value) return empty;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}

/** A log entry's time, to the second: rows of one minute must not all read alike. */
export function formatLogTime(value: string | null | undefined, empty = '—'): string {
  if (!value) return empty;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTimeSeconds.format(date);
}

export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 6 : 2)}`;
}

/** A price in USD per 1M tokens, as entered; '—' when unset (it falls back to another price). */
export function formatPrice(value: number | null): string {
  return value === null ? '—' : `$${value}`;
}

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toLocaleString();
}

/** `<input type="datetime-local">` value (local time) ↔ ISO 8601 for the API. */
export function toLocalInput(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** An optional integer input: '' means "not set". */
export function optionalInt(value: string | number | null | undefined): number | undefined {
  if (value === '' || value === null || value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** A form's value for an optional number: '' when not set. */
export const orEmpty = (n: number | null | undefined): number | '' => n ?? '';

/** An optional number input for the API: '' (not set) is null. */
export const numberOrNull = (v: number | string): number | null => (v === '' ? null : Number(v));
