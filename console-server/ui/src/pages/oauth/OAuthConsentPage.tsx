import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useDocumentTitle } from '../../api/site';
import { useAuth } from '../../auth/AuthProvider';
import { AuthCard } from '../auth/AuthCard';

/**
 * An MCP client asks to act for the signed-in user (GET /oauth/authorize sent the browser
 * here). Approving sends the browser back to the client with a one-time code; declining, with
 * access_denied. The client's name is its own claim: the redirect host is shown beside it.
 */
export function OAuthConsentPage() {
  const [params] = useSearchParams();
  const id = params.get('request') ?? '';
  const { session } = useAuth();
  useDocumentTitle('Authorize an MCP client');
  const request = useQuery({
    queryKey: ['oauth-request', id],
    queryFn: () => unwrap(api.GET('/api/oauth/requests/{id}', { params: { path: { id } } })),
    retry: false,
  });
  const decide = useMutation({
    mutationFn: (approve: boolean) =>
      unwrap(api.POST('/api/oauth/requests/{id}/decision', { params: { path: { id } }, body: { approve } })),
    onSuccess: ({ redirect_to }) => window.location.assign(redirect_to),
  });
  if (request.error)
    return (
      <AuthCard title="Authorization request">
        <Alert color="red">
          This request has expired or was already answered. Start again from the client.
        </Alert>
      </AuthCard>
    );
  const r = request.data;
  return (
    <AuthCard title="Authorize an MCP client" width={520}>
      {r && (
        <Stack>
          <Text>
            <b>{r.client_name}</b> wants to use Sluice's MCP tools as <b>{session?.user.email}</b>.
          </Text>
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              Access to
            </Text>
            <Code>{r.resource}</Code>
            <Text size="sm" c="dimmed">
              Scope: {r.scope} — the tools your role may call, with your limits
            </Text>
            <Text size="sm" c="dimmed">
              It will be sent back to {new URL(r.redirect_uri).host || r.redirect_uri}
            </Text>
          </Stack>
          {decide.error && <Alert color="red">{String(decide.error.message)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => decide.mutate(false)} loading={decide.isPending}>
              Decline
            </Button>
            <Button onClick={() => decide.mutate(true)} loading={decide.isPending}>
              Allow
            </Button>
          </Group>
        </Stack>
      )}
    </AuthCard>
  );
}
