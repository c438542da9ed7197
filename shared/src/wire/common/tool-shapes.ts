import type { CanonicalRequest } from '../../canonical/types';

/**
 * Canonical tools are flat; clients also declare custom (freeform) tools (Chat, Responses) and
 * functions grouped in a `namespace` (Responses). A namespaced function is `<namespace>__<name>`
 * canonically (a name every vendor accepts), and calls of these tools go back to the client
 * in the shape it declared them in.
 */
export const NAMESPACE_SEPARATOR = '__';

export function namespacedName(namespace: string | null | undefined, name: string): string {
  return namespace ? `${namespace}${NAMESPACE_SEPARATOR}${name}` : name;
}

export type CallShape =
  | { kind: 'function' }
  | { kind: 'custom' }
  | { kind: 'namespaced'; namespace: string; name: string };

const FUNCTION: CallShape = { kind: 'function' };

/** How a call of each declared tool is rendered, by canonical tool name. */
export function callShapes(request: CanonicalRequest | undefined): (name: string) => CallShape {
  const shapes = new Map<string, CallShape>();
  for (const tool of request?.tools ?? []) {
    if (tool.kind === 'custom') shapes.set(tool.name, { kind: 'custom' });
    else if (tool.kind === 'function' && tool.namespace) {
      const name = tool.name.slice(tool.namespace.length + NAMESPACE_SEPARATOR.length);
      shapes.set(tool.name, { kind: 'namespaced', namespace: tool.namespace, name });
    }
  }
  return (name) => shapes.get(name) ?? FUNCTION;
}
