import type { AuditRecord } from '@sluice/shared/db/repos';
import type { Context } from 'hono';
import type { ConsoleEnv } from '../types';

/** Who did it and from where, for audit records written by authenticated routes. */
export function auditActor(
  c: Context<ConsoleEnv>,
): Pick<AuditRecord, 'userId' | 'userEmail' | 'ipAddress' | 'userAgent'> {
  return {
    userId: c.var.auth.userId,
    userEmail: c.var.auth.email,
    ipAddress: c.var.meta.ipAddress,
    userAgent: c.var.meta.userAgent,
  };
}
