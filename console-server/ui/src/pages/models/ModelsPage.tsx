import { Placeholder } from '../../components/Placeholder';

export function ModelsPage() {
  return <Placeholder title="ModelsPage" />;
}
