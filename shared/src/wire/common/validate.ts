import type { z } from 'zod';
import { badRequest } from '../../http/app-error';

type Issue = z.core.$ZodIssue;

/** `messages[0].content[1].type`: the notation clients see in their own SDK docs. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

type UnionIssue = Extract<Issue, { code: 'invalid_union' }>;

const isRootTypeError = (issue: Issue): boolean => issue.code === 'invalid_type' && issue.path.length === 0;

/**
 * A union failure reports every branch (and unions nest: item → content → part). The leaf
 * issue that got furthest into the value is the one the client meant: "content[0].type is
 * not one of …", not "content: expected a string". When no branch got past the value itself,
 * the union stays, to be described as "expected string or array".
 */
function resolveUnion(issue: Issue): Issue {
  if (issue.code !== 'invalid_union') return issue;
  const leaves = issue.errors.flat().map(resolveUnion);
  if (leaves.length === 0 || leaves.every(isRootTypeError)) return issue;
  const deepest = leaves.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  return { ...deepest, path: [...issue.path, ...deepest.path] };
}

function expectedTypes(issue: UnionIssue): string {
  const names = issue.errors.flatMap((branch) =>
    branch.flatMap((sub) => (sub.code === 'invalid_type' ? [sub.expected] : [])),
  );
  return [...new Set(names)].join(' or ');
}

/** One client-facing sentence for the first problem, naming the field. */
export function describeIssue(raw: Issue): string {
  const issue = resolveUnion(raw);
  const field = formatPath(issue.path);
  const typeError = issue.code === 'invalid_type' || issue.code === 'invalid_union';
  if (typeError && issue.input === undefined) {
    return field === '' ? 'Request body is required' : `Missing required parameter: '${field}'`;
  }
  const message =
    issue.code === 'invalid_union' && issue.errors.length > 0
      ? `Invalid input: expected ${expectedTypes(issue)}`
      : issue.message;
  return field === '' ? `Invalid request body: ${message}` : `Invalid '${field}': ${message}`;
}

/**
 * Validates a client body. Throws AppError 400 whose message names the first bad field; the
 * full list (paths and messages only, never the client's input) rides along as details.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Request body must be a JSON object');
  }
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  throw badRequest(
    describeIssue(issues[0]!),
    issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
  );
}
