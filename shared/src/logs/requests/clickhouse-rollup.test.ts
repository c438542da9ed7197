import { describe, expect, it } from 'vitest';
import { chCreatedWithin, mergeGroups, planRollup, requestRollupDdl } from './clickhouse-rollup';

const H = 3_600_000;
const D = 24 * H;
const DAY = Date.UTC(2025, 2, 3);
const all = () => true;
const none = () => false;

describe('planRollup', () => {
  it('reads whole hours from the rollup and the partial ones at each end from the log', () => {
    const from = DAY + 2 * H + 1234;
    const to = DAY + 5 * H + 10;
    expect(planRollup(from, to, all)).toEqual({
      rolled: [[DAY + 3 * H, DAY + 5 * H]],
      raw: [
        [from, DAY + 3 * H],
        [DAY + 5 * H, to + 1],
      ],
    });
  });

  it('takes a range of whole hours from the rollup alone (to is inclusive)', () => {
    expect(planRollup(DAY, DAY + 2 * D - 1, all)).toEqual({ rolled: [[DAY, DAY + 2 * D]], raw: [] });
  });

  it('reads from the log the days not verified, and everything when none is', () => {
    const verified = (day: number) => day !== DAY + D;
    expect(planRollup(DAY, DAY + 3 * D - 1, verified)).toEqual({
      rolled: [
        [DAY, DAY + D],
        [DAY + 2 * D, DAY + 3 * D],
      ],
      raw: [[DAY + D, DAY + 2 * D]],
    });
    expect(planRollup(DAY + 1, DAY + 3 * D, none)).toEqual({ rolled: [], raw: [[DAY + 1, DAY + 3 * D + 1]] });
  });

  it('reads a range within one hour from the log, and nothing for an empty one', () => {
    expect(planRollup(DAY + 10, DAY + 20, all)).toEqual({ rolled: [], raw: [[DAY + 10, DAY + 21]] });
    expect(planRollup(DAY + 10, DAY + 10, all)).toEqual({ rolled: [], raw: [[DAY + 10, DAY + 11]] });
    expect(planRollup(DAY + 10, DAY + 9, all)).toEqual({ rolled: [], raw: [] });
    expect(planRollup(-5 * H, -1, all)).toEqual({ rolled: [], raw: [] });
  });

  it('takes instants before 1970 as from 0', () => {
    expect(planRollup(-5 * H, H - 1, all)).toEqual({ rolled: [[0, H]], raw: [] });
  });
});

describe('the log part of a plan', () => {
  it('bounds the key column and the exact instant of each range, or matches nothing', () => {
    expect(chCreatedWithin([[DAY + 1500, DAY + H]]).sql).toBe(
      `((created_at >= ${DAY / 1000 + 1} AND created_at_ms >= ${DAY + 1500} AND created_at <= ${
        (DAY + H) / 1000 - 1
      } AND created_at_ms < ${DAY + H}))`,
    );
    expect(chCreatedWithin([]).sql).toBe('0');
    expect(chCreatedWithin([[DAY, Number.POSITIVE_INFINITY]]).sql).toBe(
      `((created_at >= ${DAY / 1000} AND created_at_ms >= ${DAY}))`,
    );
  });
});

describe('the rollups', () => {
  it('are one table fed by one view of the log, every kind of group from each insert, nullable keys encoded', () => {
    const ddl = requestRollupDdl('sluice').map((s) => s.sql);
    expect(ddl).toHaveLength(2);
    expect(ddl[0]).toContain('CREATE TABLE IF NOT EXISTS `sluice`.`request_log_rollup`');
    expect(ddl[0]).toContain('ENGINE = SummingMergeTree() PARTITION BY toYYYYMMDD(hour)');
    expect(ddl[0]).toContain('ORDER BY (`kind`, `who`, `hour`, `model_name`,');
    expect(ddl[1]).toContain(
      'CREATE MATERIALIZED VIEW IF NOT EXISTS `sluice`.`request_log_rollup_mv`\n  TO `sluice`.`request_log_rollup`',
    );
    expect(ddl[1]).toContain('FROM `sluice`.`request_logs`\n    ARRAY JOIN [0, 1, 2] AS kind');
    expect(ddl[1]).toContain("if(kind = 2, '', ifNull(concat('.', client_name), '')) AS `client_key`");
  });

  it('merge the groups of both parts by key, null apart from any value', () => {
    const rows = [
      { a: 'x', b: null, n: 1, m: 0.5 },
      { a: 'x', b: '', n: 2, m: 0.25 },
      { a: 'x', b: null, n: 3, m: 0.25 },
    ];
    expect(mergeGroups(rows, ['a', 'b'], ['n', 'm'])).toEqual([
      { a: 'x', b: null, n: 4, m: 0.75 },
      { a: 'x', b: '', n: 2, m: 0.25 },
    ]);
  });
});
