// `npm start`: the whole stack on this machine (the gateway on Miniflare). Ctrl-C stops everything.
import { runUntilStopped } from '../self-host/process/supervise';
import { stackOptionsFromEnv, startStack } from './stack';

await runUntilStopped(() => startStack(stackOptionsFromEnv(process.env)));
