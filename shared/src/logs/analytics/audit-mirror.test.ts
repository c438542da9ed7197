import { describe, expect, it } from 'vitest';
import { auditMirrorTableDdl, toAuditMirrorRow } from './audit-mirror';

describe('audit mirror', () => {
  it('maps a Postgres audit row to a JSONEachRow record ClickHouse 18.16 accepts', () => {
    const createdAt = new Date(Date.UTC(2025, 0, 31, 12, 0, 1, 234));
    const row = toAuditMirrorRow({
      id: '6f1c3a7e-5b7e-4f4e-9a51-2c1f0f6b9d10',
      createdAt,
      userId: null,
      userEmail: 'ada@example.com',
      action: 'settings.update',
      resourceType: 'settings',
      resourceId: null,
      details: { keys: ['site_name'], quote: 'it\'s "x"' },
      ipAddress: '203.0.113.1',
      userAgent: null,
    });
    expect(row).toEqual({
      id: '6f1c3a7e-5b7e-4f4e-9a51-2c1f0f6b9d10',
      timestamp: Math.floor(createdAt.getTime() / 1000),
      timestamp_ms: createdAt.getTime(),
      user_id: null,
      user_email: 'ada@example.com',
      action: 'settings.update',
      resource_type: 'settings',
      resource_id: null,
      details: '{"keys":["site_name"],"quote":"it\'s \\"x\\""}',
      ip_address: '203.0.113.1',
      user_agent: null,
    });
  });

  it('creates the table with quoted names and refuses a bad database name', () => {
    const ddl = auditMirrorTableDdl('sluice').sql;
    expect(ddl).toContain('CREATE TABLE IF NOT EXISTS `sluice`.`audit_log`');
    expect(ddl).toContain(
      'ENGINE = ReplacingMergeTree() PARTITION BY toYYYYMM(timestamp) ORDER BY (timestamp, id)',
    );
    expect(() => auditMirrorTableDdl('x`; DROP TABLE y')).toThrow(TypeError);
  });
});
