import { Placeholder } from '../../components/Placeholder';

export function KeysPage() {
  return <Placeholder title="KeysPage" />;
}
