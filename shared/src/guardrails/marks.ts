import { AppError, type ErrorStatus } from '../http/app-error';

/** The guardrails that leave a mark on a model request's log row. */
export type MarkedGuardrail = 'content' | 'inspect_tools';

/**
 * What a guardrail did to one request: refused it (or removed a tool call from its answer),
 * or let it pass and flagged it. The request log's `guardrail` field lists them as
 * `action:guardrail:rule`, comma-separated (`flag:content:pii-terms,block:inspect_tools:no-rm`).
 */
export interface GuardrailMark {
  action: 'block' | 'flag';
  guardrail: MarkedGuardrail;
  rule: string;
}

/** The log field; null when no guardrail acted. Rule names never hold ':' or ','. */
export function formatMarks(marks: readonly GuardrailMark[]): string | null {
  if (marks.length === 0) return null;
  return marks.map((mark) => `${mark.action}:${mark.guardrail}:${mark.rule}`).join(',');
}

const MARK = /^(block|flag):(content|inspect_tools):([A-Za-z0-9][A-Za-z0-9_.-]*)$/;

/** The marks of a log field (what /metrics counts); anything malformed is skipped. */
export function parseMarks(field: string | null): GuardrailMark[] {
  if (!field) return [];
  const marks: GuardrailMark[] = [];
  for (const part of field.split(',')) {
    const match = MARK.exec(part);
    if (match) marks.push({ action: match[1], guardrail: match[2], rule: match[3] } as GuardrailMark);
  }
  return marks;
}

/** A refusal by a guardrail rule: the client's error, and the mark its log row carries. */
export class GuardrailRefusal extends AppError {
  readonly mark: GuardrailMark;

  constructor(status: ErrorStatus, message: string, type: string, mark: GuardrailMark) {
    super(status, message, { type });
    this.mark = mark;
  }
}
