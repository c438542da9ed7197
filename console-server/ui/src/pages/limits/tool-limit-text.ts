import type { Schemas } from '../../api/types';

type ToolLimit = Pick<Schemas['ToolLimit'], 'kind' | 'window' | 'period' | 'limit'>;

/** A tool limit as the tool limits tab and the usage bars word it: "10 calls / 1m", "500 calls / daily". */
export function toolLimitText(limit: ToolLimit): string {
  return `${limit.limit.toLocaleString()} calls / ${limit.kind === 'rate' ? limit.window : limit.period}`;
}

export const SUBJECT_LABELS: Record<Schemas['ToolLimit']['subject_type'], string> = {
  role: 'Role',
  user: 'User',
  api_key: 'API key',
};

/** Patterns to offer for a tool: every discovered `<server>__<tool>`, each server's `<server>__*`, and `*`. */
export function toolPatternOptions(tools: Schemas['McpTool'][] | undefined): string[] {
  const list = tools ?? [];
  const servers = [...new Set(list.map((t) => t.server_name))].map((s) => `${s}__*`);
  return ['*', ...servers, ...list.map((t) => `${t.server_name}__${t.name}`)];
}
