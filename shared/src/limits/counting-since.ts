/**
 * When the limit counters started counting, in ms since the epoch: written by the first
 * counter write after Redis lost its data (ADMIT and ADD stamp it when it is missing, never
 * overwrite it). The request log's rows from before that instant are what a rebuild adds back
 * (counter-rebuild.ts).
 */
export const COUNTING_SINCE_KEY = 'sluice:rl:counting-since';

/**
 * The mark that Redis still holds what it counted: a random id, kept in Postgres too. Missing
 * in Redis, the counters are rebuilt (or, on a first start, the mark is set) before anything is
 * counted again (counter-rebuild.ts, ADMIT_SCRIPT).
 */
export const EPOCH_KEY = 'sluice:rl:epoch';
