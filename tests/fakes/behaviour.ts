/**
 * The deterministic "model" behind every fake upstream. Each vendor module reduces its
 * request body to a `Conversation`; the answer, its token counts and the failure scenario
 * depend only on that and the model name, so tests can predict them exactly.
 */

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonObject | undefined {
  return isRecord(value) ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A message's content as text: a string as it is, else its `text` parts joined by spaces. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of asArray(content)) {
    const record = asRecord(part);
    if (record?.type === 'text' && typeof record.text === 'string') texts.push(record.text);
  }
  return texts.join(' ');
}

/** A message's content as blocks: a string is one text block (Anthropic's shorthand). */
export function contentBlocks(content: unknown): JsonObject[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return asArray(content).map((block) => asRecord(block) ?? {});
}

/** What the fake model reads from a request, whatever the vendor's format. */
export interface Conversation {
  /** Every text the request carries (system, messages, tool results): the input token count. */
  texts: string[];
  /** The final user turn: what the user said, or what a tool answered. */
  last: { kind: 'text' | 'tool_result'; text: string } | undefined;
  /** Declared tool names, in order. */
  tools: string[];
  /** The property names of each declared tool's parameters, where the vendor module read them. */
  toolParams?: Record<string, string[]>;
}

export type Answer =
  | { kind: 'text'; text: string; inputTokens: number; outputTokens: number }
  | { kind: 'tool'; name: string; arguments: string; inputTokens: number; outputTokens: number };

/** Output tokens reported for a tool call, whatever its arguments. */
export const TOOL_CALL_OUTPUT_TOKENS = 5;

export function countWords(texts: readonly string[]): number {
  let n = 0;
  for (const text of texts) n += text.split(/\s+/).filter((word) => word !== '').length;
  return n;
}

/**
 * `echo: <last user text>`, or `tool said: <tool result>` after a tool result; with tools
 * declared (and no tool result to read) one call to a tool instead: a coding agent's
 * file-reading tool on the file the user names (agentToolCall), else the first tool with the
 * user text as its query.
 */
export function answer(conversation: Conversation): Answer {
  const inputTokens = Math.max(1, countWords(conversation.texts));
  const last = conversation.last ?? { kind: 'text', text: '' };
  const firstTool = conversation.tools[0];
  if (firstTool !== undefined && last.kind === 'text') {
    const call = agentToolCall(conversation, last.text) ?? {
      name: firstTool,
      arguments: JSON.stringify({ query: last.text }),
    };
    return { kind: 'tool', ...call, inputTokens, outputTokens: TOOL_CALL_OUTPUT_TOKENS };
  }
  const text = last.kind === 'tool_result' ? `tool said: ${last.text}` : `echo: ${last.text}`;
  return { kind: 'text', text, inputTokens, outputTokens: countWords([text]) };
}

/**
 * The coding agents' file-reading tools, by name, the parameter each names the file with, and
 * its arguments for a path: Claude Code's `Read`, opencode's `read`, and Codex's shell tools
 * (`exec_command` today; `shell`, `shell_command` in other releases) running `cat`.
 */
const FILE_TOOLS: ReadonlyArray<{ name: string; param: string; args: (path: string) => JsonObject }> = [
  { name: 'Read', param: 'file_path', args: (path) => ({ file_path: path }) },
  { name: 'read', param: 'filePath', args: (path) => ({ filePath: path }) },
  { name: 'exec_command', param: 'cmd', args: (path) => ({ cmd: `cat ${shellQuote(path)}` }) },
  { name: 'shell_command', param: 'command', args: (path) => ({ command: `cat ${shellQuote(path)}` }) },
  {
    name: 'shell',
    param: 'command',
    args: (path) => ({ command: ['bash', '-lc', `cat ${shellQuote(path)}`] }),
  },
];

function shellQuote(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Where each agent states its working directory in its prompt: Claude Code's environment
 * section, Codex's `<environment_context>`, opencode's `<env>` block.
 */
const WORKING_DIRECTORY: readonly RegExp[] = [
  /Primary working directory:\s*(\S+)/,
  /<cwd>([^<]+)<\/cwd>/,
  /^\s*Working directory:\s*(\S+)/m,
];

export function workingDirectory(texts: readonly string[]): string | undefined {
  for (const pattern of WORKING_DIRECTORY) {
    for (const text of texts) {
      const found = pattern.exec(text)?.[1]?.trim();
      if (found) return found;
    }
  }
  return undefined;
}

/** The first file name in what the user said (`notes.txt`), leaving out the agents' reminders. */
export function namedFile(text: string): string | undefined {
  const said = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ' ');
  return /(?:^|[\s"'`(])((?:[\w.~-]*\/)*[\w-][\w.-]*\.[A-Za-z0-9]+)(?=$|[\s"'`),.:;!?])/.exec(said)?.[1];
}

/**
 * A call to the coding agent's file-reading tool on the file the user names, resolved against
 * the working directory the agent states; undefined when no such tool or no file is named.
 */
export function agentToolCall(
  conversation: Conversation,
  userText: string,
): { name: string; arguments: string } | undefined {
  const file = namedFile(userText);
  if (file === undefined) return undefined;
  const tool = FILE_TOOLS.find(({ name, param }) => {
    if (!conversation.tools.includes(name)) return false;
    const params = conversation.toolParams?.[name];
    return params === undefined || params.includes(param);
  });
  if (!tool) return undefined;
  const cwd = workingDirectory(conversation.texts);
  const path = file.startsWith('/') || cwd === undefined ? file : `${cwd.replace(/\/+$/, '')}/${file}`;
  return { name: tool.name, arguments: JSON.stringify(tool.args(path)) };
}

/**
 * What the model thinks before answering, when reasoning is on: deterministic, so tests can
 * count its words (the reasoning tokens).
 */
export function thoughtFor(conversation: Conversation, result: Answer): string {
  if (result.kind === 'tool') return `The user needs a file read; calling ${result.name} first.`;
  const last = conversation.last;
  if (last?.kind === 'tool_result') return 'The tool answered; I will quote what it said.';
  return `Thinking about: ${last?.text ?? ''}`.trim();
}

/** Text as streamed word by word: `["echo:", " héllo", " wörld"]` (joins back exactly). */
export function wordDeltas(text: string): string[] {
  const parts = text.match(/\s*\S+\s*$|\s*\S+/g) ?? [];
  return parts.length > 0 ? parts : [text];
}

/** JSON arguments cut into at least three fragments (never inside a UTF-16 surrogate pair). */
export function argumentFragments(json: string, minimum = 3): string[] {
  const chars = Array.from(json);
  const count = Math.max(minimum, Math.ceil(chars.length / 8));
  const size = Math.max(1, Math.ceil(chars.length / count));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  while (out.length < minimum) out.push('');
  return out;
}

/** The answer for `model`: as `answer` says, its text made one huge word under `huge-<n>k`. */
export function answerFor(conversation: Conversation, model: string): Answer {
  const result = answer(conversation);
  const huge = scenarioOf(model).hugeChars;
  if (huge === undefined || result.kind !== 'text') return result;
  const text = `echo: ${'x'.repeat(huge)}`;
  return { ...result, text, outputTokens: countWords([text]) };
}

/** Failure and timing behaviour chosen by the upstream model name. */
export interface Scenario {
  /** `fail-503`, `fail-429`, `fail-400`, … anywhere in the model name. */
  failStatus?: number;
  /** `slow-<ms>`: wait that long before answering. */
  slowMs?: number;
  /** `cut-stream`: start answering, then destroy the socket. */
  cut: boolean;
  /** `stall`: start answering, then fall silent (socket open) until the caller gives up. */
  stall: boolean;
  /** `stream-error`: a stream stops halfway with the vendor's own error event, then ends. */
  errorEvent: boolean;
  /** `garbage-stream`: one event halfway carries data that is not JSON (an HTML error page). */
  garbage: boolean;
  /** `no-usage`: a chat stream without its usage chunk, whatever stream_options asked. */
  noUsage: boolean;
  /** `huge-<n>k`: the answer's text is one word of n KiB, so one streamed event carries it. */
  hugeChars?: number;
}

export function scenarioOf(model: string): Scenario {
  const fail = /fail-(\d{3})/.exec(model)?.[1];
  const slow = /slow-(\d+)/.exec(model)?.[1];
  const huge = /huge-(\d+)k/.exec(model)?.[1];
  const scenario: Scenario = {
    cut: model.includes('cut-stream'),
    stall: model.includes('stall'),
    errorEvent: model.includes('stream-error'),
    garbage: model.includes('garbage-stream'),
    noUsage: model.includes('no-usage'),
  };
  if (fail !== undefined) scenario.failStatus = Number(fail);
  if (huge !== undefined) scenario.hugeChars = Number(huge) * 1024;
  if (slow !== undefined) scenario.slowMs = Number(slow);
  return scenario;
}

let counter = 0;

/** Unique, readable ids: `prefix` + a zero-padded counter + a fixed tail of `length` chars. */
export function fakeId(prefix: string, length = 24): string {
  counter += 1;
  const digits = String(counter).padStart(6, '0');
  return `${prefix}${'fake'.padEnd(length - digits.length, 'x')}${digits}`;
}
