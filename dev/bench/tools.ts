import { findExecutable } from '../../self-host/process/executables';

export interface Tools {
  nginx: string;
  wrk: string;
}

/**
 * nginx (the fake upstream) and wrk (the load) are not npm packages: without them the bench
 * cannot measure anything, so it says what to install and stops.
 */
export function requireTools(): Tools | { missing: string[]; advice: string } {
  const nginx = findExecutable('nginx');
  const wrk = findExecutable('wrk');
  if (nginx && wrk && process.platform === 'linux') return { nginx, wrk };
  const missing = [
    ...(nginx ? [] : ['nginx (the fake upstream)']),
    ...(wrk ? [] : ['wrk (the load generator)']),
  ];
  const advice =
    process.platform !== 'linux'
      ? 'npm run bench reads CPU and memory from /proc: it runs on Linux only.'
      : `npm run bench needs ${missing.join(' and ')}: on ` +
        `Debian/Ubuntu \`sudo apt-get install ${[...(nginx ? [] : ['nginx-light']), ...(wrk ? [] : ['wrk'])].join(' ')}\`` +
        `${nginx ? '' : ' (any nginx with the core http module will do)'}.`;
  return { missing, advice };
}
