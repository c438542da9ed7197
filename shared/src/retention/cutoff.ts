const DAY_MS = 86_400_000;

/**
 * The instant before which log rows are removed: `days` before `now`, truncated to the whole
 * second, because ClickHouse's DateTime holds whole seconds (no DateTime64 on 18.16) and both
 * stores must remove exactly the same rows.
 */
export function retentionCutoff(now: Date, days: number): Date {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`retention days must be ≥ 1, got ${days}`);
  const ms = now.getTime() - days * DAY_MS;
  return new Date(ms - (((ms % 1000) + 1000) % 1000));
}
