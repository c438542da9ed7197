/**
 * The regular expressions of guardrail rules (security.content, security.redact,
 * security.inspect_tools): JavaScript syntax, and a leading `(?i)` makes one case-insensitive,
 * as in RE2, which many teams' existing rules are written in.
 *
 * JavaScript gives no way to stop a running match, so what could run away is refused when the
 * rule is saved: a quantified group that itself holds a quantifier (`(a+)+`, `(\w*\s?)*`), the
 * shape behind catastrophic backtracking, and patterns over MAX_RULE_REGEX_LENGTH characters.
 */
export const MAX_RULE_REGEX_LENGTH = 1000;
const CASE_INSENSITIVE = '(?i)';

export function compileRuleRegex(source: string, global = false): RegExp {
  const insensitive = source.startsWith(CASE_INSENSITIVE);
  const body = insensitive ? source.slice(CASE_INSENSITIVE.length) : source;
  return new RegExp(body, `${insensitive ? 'i' : ''}${global ? 'g' : ''}`);
}

/** Why the pattern cannot be a rule; null when it can. */
export function ruleRegexProblem(source: string): string | null {
  if (source.length === 0) return 'must not be empty';
  if (source.length > MAX_RULE_REGEX_LENGTH) return `must be at most ${MAX_RULE_REGEX_LENGTH} characters`;
  try {
    compileRuleRegex(source);
  } catch (error) {
    return `is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (nestsQuantifiers(source))
    return 'repeats a group that itself repeats (like (a+)+): such a pattern can take exponential time';
  return null;
}

/** Whether a repeated group holds a repetition of its own (escapes and classes skipped). */
function nestsQuantifiers(source: string): boolean {
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(') groups.push(false);
    else if (ch === ')') {
      const held = groups.pop() ?? false;
      const repeated = isQuantifier(source, i + 1);
      if (held && repeated) return true;
      if (held || repeated) markEnclosing(groups);
    } else if (isQuantifier(source, i)) markEnclosing(groups);
  }
  return false;
}

function markEnclosing(groups: boolean[]): void {
  if (groups.length > 0) groups[groups.length - 1] = true;
}

/** `*`, `+` or an open-ended or large `{n,m}` at index i (`?` repeats nothing). */
function isQuantifier(source: string, i: number): boolean {
  const ch = source[i];
  if (ch === '*' || ch === '+') return true;
  if (ch !== '{') return false;
  const bounds = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
  if (!bounds) return false;
  if (bounds[2] === undefined) return Number(bounds[1]) > 1;
  return bounds[3] === '' || Number(bounds[3]) > 1;
}

/** A glob as a regex: `*` matches any run of characters, everything else itself. */
export function globRegex(glob: string): RegExp {
  const escaped = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}
