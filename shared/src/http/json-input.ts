/** Deepest nesting of arrays and objects a JSON body may have, on every surface. */
export const MAX_JSON_DEPTH = 64;

export interface JsonInputProblem {
  /** Where, as the console's validation details spell it: `messages.0.content` ('' for the body). */
  path: string;
  message: string;
  kind: 'depth' | 'string';
}

interface Node {
  value: unknown;
  key: string | number | null;
  parent: Node | null;
  depth: number;
}

/**
 * What JSON.parse lets through but the code and stores behind the boundary cannot take:
 * nesting deeper than `maxDepth` (recursive code further on would overflow its stack), NUL
 * characters (Postgres text cannot hold them) and lone UTF-16 surrogates (they have no UTF-8
 * form, so they would be mangled on the way to a store or an upstream). Object keys are
 * checked like values. Iterative, so a deep body cannot overflow the check itself, and a
 * path is only built for the problem found.
 */
export function findJsonInputProblem(body: unknown, maxDepth = MAX_JSON_DEPTH): JsonInputProblem | null {
  const stack: Node[] = [{ value: body, key: null, parent: null, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const { value } = node;
    if (typeof value === 'string') {
      const message = stringProblem(value);
      if (message) return { path: pathOf(node), message, kind: 'string' };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (node.depth >= maxDepth) {
      return { path: pathOf(node), message: `nests deeper than ${maxDepth} levels`, kind: 'depth' };
    }
    const depth = node.depth + 1;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], key: i, parent: node, depth });
      continue;
    }
    for (const key of Object.keys(value)) {
      const keyProblem = stringProblem(key);
      if (keyProblem) return { path: pathOf(node), message: `has a key that ${keyProblem}`, kind: 'string' };
      stack.push({ value: (value as Record<string, unknown>)[key], key, parent: node, depth });
    }
  }
  return null;
}

function stringProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000)';
  if (!text.isWellFormed()) return 'contains a lone UTF-16 surrogate';
  return null;
}

function pathOf(node: Node): string {
  const parts: Array<string | number> = [];
  for (let at: Node | null = node; at && at.key !== null; at = at.parent) parts.push(at.key);
  return parts.reverse().join('.');
}

/** One line for an error message: "`messages.0.content` contains a NUL character". */
export function describeJsonInputProblem(problem: JsonInputProblem): string {
  return problem.path ? `\`${problem.path}\` ${problem.message}` : `the body ${problem.message}`;
}
