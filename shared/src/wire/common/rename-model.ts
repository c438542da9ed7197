/**
 * `"model": "<string>"` as a JSON key and value: a quote inside a JSON string is escaped, so an
 * unescaped `"model"` followed by a colon is a key. The events of every format name one model,
 * before any nested object that could (a chunk's own, message_start's message's, the Response's).
 */
// An unrolled loop: an alternation repeated per character overflows V8's backtracking stack
// on a string of some megabytes.
export const MODEL_FIELD = /"model"\s*:\s*"[^"\\]*(?:\\.[^"\\]*)*"/;

/**
 * The client's model name where the upstream wrote its own. Clients compare the answer's model
 * with the one they asked for (Claude Code drops the thinking of turns whose model differs), so
 * an alias must come back as the alias. Answers are edited as text, without parsing their JSON:
 * the first model field of the text (an event, a whole answer) is replaced.
 */
export function renameModelInData(data: string, clientModel: string): string | undefined {
  const found = MODEL_FIELD.exec(data);
  if (!found) return undefined;
  const field = `"model":${JSON.stringify(clientModel)}`;
  if (found[0] === field) return undefined;
  return data.slice(0, found.index) + field + data.slice(found.index + found[0].length);
}
