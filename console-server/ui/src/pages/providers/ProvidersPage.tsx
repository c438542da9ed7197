import { Placeholder } from '../../components/Placeholder';

export function ProvidersPage() {
  return <Placeholder title="ProvidersPage" />;
}
