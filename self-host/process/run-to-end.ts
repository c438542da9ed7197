import { spawn } from 'node:child_process';

/** Colour and style codes: error messages are read in logs, not terminals. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the ESC character is the point
const ANSI_ESCAPES = /\u001b\[[0-9;]*m/g;

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs a short-lived command to completion and resolves with its stdout; rejects with its
 * output when it exits non-zero, so a failed build says why.
 */
export function runToEnd(command: string, args: string[], options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) return resolve(stdout);
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      const output = (stderr || stdout).replace(ANSI_ESCAPES, '');
      reject(new Error(`${[command, ...args].join(' ')} failed (${how}):\n${output}`));
    });
  });
}
