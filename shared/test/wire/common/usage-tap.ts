import { expect } from 'vitest';
import type { Usage } from '../../../src/canonical/types';
import type { NativeUsageReader } from '../../../src/wire/common/native-usage-reader';
import { awkwardChunks, collect, concatBytes, everySplit, streamOf } from './test-utils';

type UsageReader = Pick<NativeUsageReader, 'transform' | 'usage'>;

/** Runs chunks through a fresh reader: what came out, and the usage it read. */
export async function tapUsage(reader: UsageReader, chunks: Uint8Array[]) {
  const out = await collect(streamOf(chunks).pipeThrough(reader.transform));
  return { out, usage: await reader.usage };
}

/** The bytes pass through untouched at awkward splits, and the reader reads the stream's usage. */
export async function expectUsageAtAwkwardSplits(
  newReader: () => UsageReader,
  stream: string,
  expected: Usage,
): Promise<void> {
  const chunks = awkwardChunks(new TextEncoder().encode(stream));
  const { out, usage } = await tapUsage(newReader(), chunks);
  expect(out).toStrictEqual(chunks);
  expect(usage).toStrictEqual(expected);
}

/** Every two-piece split of a stream's tail gives the same usage and the same bytes. */
export async function expectUsageAtEverySplit(
  newReader: () => UsageReader,
  tail: string,
  check: (usage: Usage | null) => void,
): Promise<void> {
  const bytes = new TextEncoder().encode(tail);
  for (const split of everySplit(bytes)) {
    const { out, usage } = await tapUsage(newReader(), split);
    expect(concatBytes(out)).toStrictEqual(bytes);
    check(usage);
  }
}
