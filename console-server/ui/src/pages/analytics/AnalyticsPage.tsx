import { Placeholder } from '../../components/Placeholder';

export function AnalyticsPage() {
  return <Placeholder title="AnalyticsPage" />;
}
