import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import type { GatewayBuild, WorkerModuleType } from '../../self-host/build/worker-build';
import { forwardLines } from '../../self-host/process/children';

export interface MiniflareGatewayOptions {
  build: GatewayBuild;
  /** Runtime bindings (stores, bridge endpoints, secrets), added to wrangler.toml's [vars]. */
  bindings: Record<string, string>;
  host: string;
  port: number;
  quiet: boolean;
}

export interface MiniflareGateway {
  url: string;
  stop(): Promise<void>;
}

type MiniflareModuleType = 'ESModule' | 'CommonJS' | 'Text' | 'Data' | 'CompiledWasm';
const MODULE_TYPES: Record<WorkerModuleType, MiniflareModuleType | undefined> = {
  esModule: 'ESModule',
  commonJsModule: 'CommonJS',
  text: 'Text',
  data: 'Data',
  wasm: 'CompiledWasm',
  json: undefined,
};

/**
 * The gateway for `npm start`: Miniflare run in this process on the same bundle and bindings
 * `npm run serve` gives workerd, with no `wrangler dev` (and its proxy) in front. Miniflare
 * still puts its entry worker before ours; that is the price of the zero-config start.
 */
export async function startMiniflareGateway(options: MiniflareGatewayOptions): Promise<MiniflareGateway> {
  const { build } = options;
  const worker: WorkerOptions = {
    name: build.settings.name,
    modulesRoot: build.directory,
    modules: build.modules.map((module) => {
      const type = MODULE_TYPES[module.type];
      if (!type) throw new Error(`Miniflare cannot load ${module.name} (${module.type})`);
      return { type, path: module.path };
    }),
    compatibilityDate: build.settings.compatibilityDate,
    compatibilityFlags: build.settings.compatibilityFlags,
    bindings: { ...build.settings.vars, ...options.bindings },
  };
  const miniflare = withoutSignalExits(
    () =>
      new Miniflare({
        ...worker,
        host: options.host,
        port: options.port,
        // No request log lines (each one is a hop to this process) and no download of the
        // Request.cf data: local development must work offline.
        logRequests: false,
        cf: false,
        // Two more JavaScript layers Miniflare would add: a worker every outbound fetch (the
        // stores, the upstreams) passes through to drop a header the gateway never sets, and a
        // Cache API service the gateway does not use.
        stripCfConnectingIp: false,
        cache: false,
        liveReload: false,
        log: new Log(options.quiet ? LogLevel.NONE : LogLevel.WARN),
        handleRuntimeStdio(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) {
          forwardLines(stdout, process.stdout, 'gateway', options.quiet);
          forwardLines(stderr, process.stderr, 'gateway', options.quiet);
        },
      }),
  );
  const url = await miniflare.ready;
  return {
    url: url.origin,
    stop: () => miniflare.dispose(),
  };
}

/**
 * Miniflare installs SIGINT/SIGTERM listeners that dispose workerd and call process.exit(130 or
 * 143) at once, which would cut the supervisor's own shutdown short (the console left running,
 * the bridge and stores not closed, exit status 130). Those two listeners are taken off again;
 * its 'exit' hook stays as a safety net, and stop() disposes Miniflare properly.
 */
function withoutSignalExits<T>(create: () => T): T {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const created = create();
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return created;
}
