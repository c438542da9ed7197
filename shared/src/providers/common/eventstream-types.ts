/**
 * The AWS event stream (`application/vnd.amazon.eventstream`) message model. Each message on
 * the wire is: total length (u32) · headers length (u32) · prelude CRC32 · headers · payload ·
 * message CRC32, all big-endian. Headers are typed; the value kinds below are the nine the
 * format defines.
 */
export type EventStreamHeaderValue =
  | { type: 'boolean'; value: boolean }
  | { type: 'byte' | 'short' | 'integer'; value: number }
  | { type: 'long'; value: bigint }
  | { type: 'binary'; value: Uint8Array }
  | { type: 'string'; value: string }
  | { type: 'timestamp'; value: Date }
  /** Canonical lowercase 8-4-4-4-12 hex form. */
  | { type: 'uuid'; value: string };

export interface EventStreamMessage {
  headers: Record<string, EventStreamHeaderValue>;
  payload: Uint8Array;
}

/** Header type codes as they appear on the wire. */
export const HEADER_TYPE = {
  true: 0,
  false: 1,
  byte: 2,
  short: 3,
  integer: 4,
  long: 5,
  binary: 6,
  string: 7,
  timestamp: 8,
  uuid: 9,
} as const;

/** Prelude: total length, headers length, prelude CRC. */
export const PRELUDE_LENGTH = 12;
/** Prelude plus the trailing message CRC: the smallest possible message. */
export const MIN_MESSAGE_LENGTH = 16;
/** The format's own ceiling (16 MiB); larger lengths mean a corrupt or hostile stream. */
export const MAX_MESSAGE_LENGTH = 16 * 1024 * 1024;

export class EventStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStreamError';
  }
}

/** A string header's value, or undefined when absent or of another type. */
export function headerString(message: EventStreamMessage, name: string): string | undefined {
  const header = message.headers[name];
  return header?.type === 'string' ? header.value : undefined;
}
