import { isRecord, tryParseJson } from '../../util/json';

/**
 * A custom (freeform) tool's call carries text; canonically its arguments are `{"input": …}`,
 * the shape vendors without custom tools see as a function with one string parameter.
 */
export function customArguments(input: string): string {
  return JSON.stringify({ input });
}

/** A custom tool's text, from the canonical `{"input": …}` arguments. */
export function customInput(args: string): string {
  const value = tryParseJson(args);
  // Not the canonical shape: the vendor's arguments are the text itself.
  return isRecord(value) && typeof value.input === 'string' ? value.input : args;
}
