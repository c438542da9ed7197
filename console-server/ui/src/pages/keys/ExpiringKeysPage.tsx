import { Placeholder } from '../../components/Placeholder';

export function ExpiringKeysPage() {
  return <Placeholder title="ExpiringKeysPage" />;
}
