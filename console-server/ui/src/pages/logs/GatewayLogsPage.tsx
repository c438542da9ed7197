import { Placeholder } from '../../components/Placeholder';

export function GatewayLogsPage() {
  return <Placeholder title="GatewayLogsPage" />;
}
