import type { LimitsSubjectRef } from '../access/access';
import { findKeyLimitSubject } from '../db/repos/limits-repo';
import type { QueryDb } from '../db/types';
import { AppError, notFound } from '../http/app-error';
import type { LimitSubject } from '../limits/definitions';
import type { Limiter, LimitsUsageReport } from '../limits/limiter';
import { errorText, type Logger } from '../logs/server/logger';

export interface SubjectUsageView extends LimitsUsageReport {
  subject_type: LimitsSubjectRef['type'];
  subject_id: string;
}

/**
 * Counters of a key or user as the gateway's limiter counts them: for a key, what GET /v1/usage
 * would answer that key (its own counters when it has limits of its own, else its owner's);
 * for a user, their effective limits and usage over all their keys. 503 when unreadable.
 */
export async function getSubjectUsage(
  deps: { db: QueryDb; limiter: Pick<Limiter, 'readUsage'>; now(): number; logger: Pick<Logger, 'warn'> },
  subject: LimitsSubjectRef,
): Promise<SubjectUsageView> {
  let limitSubject: LimitSubject = { keyId: null, userId: subject.id, rateLimitRpm: null };
  if (subject.type === 'api_key') {
    const key = await findKeyLimitSubject(deps.db, subject.id);
    if (!key) throw notFound('API key not found');
    limitSubject = { keyId: subject.id, ...key };
  }
  try {
    const report = await deps.limiter.readUsage(limitSubject, deps.now());
    return { subject_type: subject.type, subject_id: subject.id, ...report };
  } catch (error) {
    deps.logger.warn('limit counters unreadable', { error: errorText(error) });
    throw new AppError(503, 'Usage counters cannot be read right now');
  }
}
