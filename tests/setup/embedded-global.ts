import type { TestProject } from 'vitest/node';
import { createMemoryBackend } from '../../dev/embedded/memory-backend';
import { provideBridge } from './integration-global';

/**
 * The Redis-port contract suites again, over the embedded stand-in `npm start` uses when no
 * REDIS_URL is set (ioredis-mock with its Lua, behind the same bridge): the files read the
 * same inject('sidecarEnv'), so every limit, script and usage path is held to one contract on
 * both backends.
 */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return provideBridge(project, createMemoryBackend());
}
