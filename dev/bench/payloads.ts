import { join } from 'node:path';

export const MODES = ['json', 'stream'] as const;
export type LoadMode = (typeof MODES)[number];

/** The request bodies wrk posts: the team benchmark's chat payloads with the bench's model names. */
export const PAYLOADS: Record<LoadMode, string> = {
  json: join(import.meta.dirname, 'payloads', 'json-request.txt'),
  stream: join(import.meta.dirname, 'payloads', 'stream-request.txt'),
};
