// What the apps use of canonical/. Inside shared/src, import the files themselves.
export type { WireFormatName } from './ports';
