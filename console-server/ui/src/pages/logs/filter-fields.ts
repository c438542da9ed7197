import type { UserDirectory } from './directory';
import type { FilterField } from './LogView';

/** The user filter of every log that records one: a name or an email, with suggestions. */
export function userFilter(users: UserDirectory): FilterField {
  return {
    name: 'user_id',
    label: 'User',
    kind: 'autocomplete',
    placeholder: 'Name or email',
    suggestions: users.suggestions,
    resolve: users.resolve,
  };
}

/** The time range every log page filters by. */
export const TIME_RANGE_FILTERS: readonly FilterField[] = [
  { name: 'from', label: 'From', kind: 'datetime' },
  { name: 'to', label: 'To', kind: 'datetime' },
];
