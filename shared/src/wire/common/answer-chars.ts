/**
 * The characters of what a model wrote, as its stream's JSON carries them: the string values
 * of the fields vendors put text, reasoning and tool arguments in. Read only for the gateway's
 * estimate of a stream that reported no usage (proxy/estimate-tokens.ts), so a rough count
 * (escapes counted as written) is enough.
 */
// The string's body as an unrolled loop: an alternation repeated per character would overflow
// V8's backtracking stack on a string of some megabytes.
const ANSWER_STRING =
  /"(?:content|text|delta|thinking|arguments|partial_json|refusal)"\s*:\s*"([^"\\]*(?:\\.[^"\\]*)*)"/g;

export function answerCharsIn(text: string): number {
  let chars = 0;
  ANSWER_STRING.lastIndex = 0;
  for (let found = ANSWER_STRING.exec(text); found; found = ANSWER_STRING.exec(text)) {
    chars += found[1]?.length ?? 0;
  }
  return chars;
}
