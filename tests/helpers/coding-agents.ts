/**
 * The real coding-agent CLIs as test clients: Claude Code, Codex and opencode, pinned in the
 * root package.json, run non-interactively and offline in a temp HOME and working directory,
 * pointed at a gateway with a Sluice key. Each run is bounded: killed (its whole process group)
 * when it overstays, with its output kept for the failure message.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const MODULES = join(ROOT, 'node_modules');

export type AgentName = 'claude-code' | 'codex' | 'opencode';

/** The bins, as npm links them. */
export const AGENT_BINS: Readonly<Record<AgentName, string>> = {
  'claude-code': join(MODULES, '.bin/claude'),
  codex: join(MODULES, '.bin/codex'),
  opencode: join(MODULES, '.bin/opencode'),
};

/** The versions pinned in package.json, as each CLI reports itself in its User-Agent. */
export const AGENT_VERSIONS: Readonly<Record<AgentName, string>> = {
  'claude-code': '2.1.332',
  codex: '0.171.0',
  opencode: '1.18.33',
};

/**
 * Claude Code and opencode ship a small stub as their bin and put the native binary in its
 * place from a postinstall script. npm 11 runs those scripts (allowScripts in package.json
 * names them), but an install made with `--ignore-scripts`, or by a future npm that skips
 * scripts it was not told about, leaves the stub: run the postinstalls then. Idempotent.
 */
const POSTINSTALLS: ReadonlyArray<{ stub: string; cwd: string; script: string }> = [
  {
    stub: join(MODULES, '@anthropic-ai/claude-code/bin/claude.exe'),
    cwd: join(MODULES, '@anthropic-ai/claude-code'),
    script: 'install.cjs',
  },
  {
    stub: join(MODULES, 'opencode-ai/bin/opencode.exe'),
    cwd: join(MODULES, 'opencode-ai'),
    script: 'postinstall.mjs',
  },
];

/** A native binary is megabytes; the stubs are under a kilobyte. */
const STUB_MAX_BYTES = 64 * 1024;

export function ensureAgentClis(): void {
  for (const { stub, cwd, script } of POSTINSTALLS) {
    if (statSync(stub).size > STUB_MAX_BYTES) continue;
    // The postinstall checks the binary by running it: keep that out of the real HOME.
    const home = mkdtempSync(join(tmpdir(), 'sluice-agent-install-'));
    try {
      execFileSync(process.execPath, [script], { cwd, env: { ...process.env, HOME: home }, stdio: 'pipe' });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    if (statSync(stub).size <= STUB_MAX_BYTES) throw new Error(`${cwd}: ${script} left the stub in place`);
  }
}

/** A temp HOME and working directory, with a notes file holding a secret word. */
export interface AgentWorkspace {
  root: string;
  home: string;
  work: string;
  secret: string;
  remove(): void;
}

export function agentWorkspace(): AgentWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'sluice-agent-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const secret = `PERIWINKLE${randomBytes(3).toString('hex').toUpperCase()}`;
  writeFileSync(join(work, 'notes.txt'), `The secret word is: ${secret}\n`);
  return { root, home, work, secret, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export const AGENT_PROMPT = 'Read notes.txt and tell me the secret word';

export interface AgentRun {
  agent: AgentName;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  timeoutMs: number;
}

export interface AgentResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Only what the run is given (as `env -i` would): no credentials or settings leak in from the test. */
function baseEnv(workspace: AgentWorkspace): Record<string, string> {
  return {
    HOME: workspace.home,
    // Codex's bin is a Node launcher: the Node running the tests is the one on PATH.
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    TERM: 'dumb',
    LANG: 'C.UTF-8',
  };
}

export function runAgent(run: AgentRun): Promise<AgentResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // A process group of its own, so a timeout ends the CLI and everything it started.
    const child = spawn(AGENT_BINS[run.agent], run.args, {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }, run.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout, stderr, ms: Date.now() - started });
    });
  });
}

export interface GatewayTarget {
  gatewayUrl: string;
  apiKey: string;
  model: string;
}

/**
 * `claude -p`, thinking on (its default). CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC keeps it
 * from calling home (bootstrap, telemetry, MCP registry): only the gateway is contacted.
 */
export function claudeRun(workspace: AgentWorkspace, target: GatewayTarget, timeoutMs: number): AgentRun {
  return {
    agent: 'claude-code',
    args: ['-p', AGENT_PROMPT, '--model', target.model],
    env: {
      ...baseEnv(workspace),
      ANTHROPIC_BASE_URL: target.gatewayUrl,
      ANTHROPIC_API_KEY: target.apiKey,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
    cwd: workspace.work,
    timeoutMs,
  };
}

/**
 * `codex exec` with its default tools and `model_reasoning_effort = "high"`, through a model
 * provider of its config pointing at the gateway's Responses API; update checks, analytics and
 * plugins (each of which calls home) are off.
 */
export function codexRun(workspace: AgentWorkspace, target: GatewayTarget, timeoutMs: number): AgentRun {
  const codexHome = join(workspace.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const config = [
    `model = ${JSON.stringify(target.model)}`,
    'model_provider = "sluice"',
    'model_reasoning_effort = "high"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    '',
    '[model_providers.sluice]',
    'name = "Sluice"',
    `base_url = ${JSON.stringify(`${target.gatewayUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "SLUICE_API_KEY"',
    '',
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), config);
  return {
    agent: 'codex',
    args: ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', AGENT_PROMPT],
    env: { ...baseEnv(workspace), CODEX_HOME: codexHome, SLUICE_API_KEY: target.apiKey },
    cwd: workspace.work,
    timeoutMs,
  };
}

/** opencode's providers: the AI SDK package each one uses, and the API it speaks. */
export const OPENCODE_PROVIDERS = {
  anthropic: '@ai-sdk/anthropic',
  chat: '@ai-sdk/openai-compatible',
  responses: '@ai-sdk/openai',
} as const;
export type OpencodeProvider = keyof typeof OPENCODE_PROVIDERS;

/**
 * `opencode run --variant high` (thinking / reasoning effort high) through one of its provider
 * packages, configured for the gateway. opencode installs `@opencode-ai/plugin` into its config
 * directory in the background; npm's registry is pointed at `offlineRegistry` (a local address
 * that answers 404) so that attempt fails at once, on this machine, and only warns.
 */
export function opencodeRun(
  workspace: AgentWorkspace,
  target: GatewayTarget,
  provider: OpencodeProvider,
  offlineRegistry: string,
  timeoutMs: number,
): AgentRun {
  const configHome = join(workspace.home, '.config');
  mkdirSync(join(configHome, 'opencode'), { recursive: true });
  const id = `sluice-${provider}`;
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: {
      [id]: {
        npm: OPENCODE_PROVIDERS[provider],
        name: `Sluice (${provider})`,
        options: { baseURL: `${target.gatewayUrl}/v1`, apiKey: target.apiKey },
        models: {
          [target.model]: {
            name: target.model,
            reasoning: true,
            tool_call: true,
            limit: { context: 200_000, output: 32_000 },
          },
        },
      },
    },
  };
  writeFileSync(join(configHome, 'opencode/opencode.json'), JSON.stringify(config, null, 2));
  return {
    agent: 'opencode',
    args: ['run', AGENT_PROMPT, '-m', `${id}/${target.model}`, '--variant', 'high'],
    env: {
      ...baseEnv(workspace),
      XDG_CONFIG_HOME: configHome,
      XDG_DATA_HOME: join(workspace.home, '.local/share'),
      XDG_CACHE_HOME: join(workspace.home, '.cache'),
      XDG_STATE_HOME: join(workspace.home, '.local/state'),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      npm_config_registry: offlineRegistry,
    },
    cwd: workspace.work,
    timeoutMs,
  };
}

/** The end of a run's output, for a failure message. */
export function describeRun(result: AgentResult): string {
  const tail = (text: string) => (text.length > 6000 ? `…${text.slice(-6000)}` : text);
  const end = result.timedOut
    ? `killed after ${result.ms} ms`
    : `exit ${result.code} (${result.signal ?? 'no signal'})`;
  return `${end}\n--- stdout\n${tail(result.stdout)}\n--- stderr\n${tail(result.stderr)}`;
}
