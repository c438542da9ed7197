import { Modal, PasswordInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { RequestBody, Schemas } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { MCP_SERVERS_QUERY } from './mcp-queries';

type Body = RequestBody<'/api/mcp/servers', 'post'>;
type AuthType = Schemas['McpServer']['auth_type'];

const TRANSPORTS: Array<{ value: Schemas['McpServer']['transport_type']; label: string }> = [
  { value: 'streamable_http', label: 'Streamable HTTP' },
  { value: 'sse', label: 'SSE (legacy)' },
];

const AUTH_TYPES: Array<{ value: AuthType; label: string }> = [
  { value: 'none', label: 'None' },
  { value: 'bearer', label: 'Bearer token (Authorization header)' },
  { value: 'header', label: 'Custom header' },
  { value: 'query', label: 'Query parameter' },
  { value: 'oauth', label: 'Each user signs in (OAuth)' },
];

const initialValues = {
  name: '',
  description: '',
  endpoint_url: '',
  transport_type: 'streamable_http' as Schemas['McpServer']['transport_type'],
  auth_type: 'none' as AuthType,
  auth_name: '',
  auth_secret: '',
  oauth_client_id: '',
  oauth_client_secret: '',
};

/** Register an MCP server; auth_secret is write-only (sent once, never shown again). */
export function McpServerCreateModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm({ initialValues });
  const create = useMutation({
    mutationFn: (body: Body) => unwrap(api.POST('/api/mcp/servers', { body })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: MCP_SERVERS_QUERY });
      close();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const close = () => {
    setAlert(null);
    form.reset();
    onClose();
  };
  const { auth_type: authType } = form.getValues();
  const needsName = authType === 'header' || authType === 'query';
  return (
    <Modal opened={opened} onClose={close} title="Register MCP server" size="lg">
      <form
        onSubmit={form.onSubmit((v) => {
          setAlert(null);
          // Empty optional fields are left out, so the API's defaults and auth rules apply.
          create.mutate({
            name: v.name,
            description: v.description.trim() || null,
            endpoint_url: v.endpoint_url,
            transport_type: v.transport_type,
            auth_type: v.auth_type,
            auth_name: v.auth_name || null,
            auth_secret: v.auth_secret || null,
            oauth_client_id: (v.auth_type === 'oauth' && v.oauth_client_id.trim()) || null,
            oauth_client_secret: (v.auth_type === 'oauth' && v.oauth_client_secret) || null,
          });
        })}
      >
        <Stack>
          <FormAlert message={alert} />
          <TextInput
            label="Name"
            description="Lowercase slug; tools are exposed as <name>__<tool>"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />
          <TextInput
            label="Endpoint URL"
            placeholder="https://mcp.example.com/mcp"
            {...form.getInputProps('endpoint_url')}
          />
          <Select
            label="Transport"
            data={TRANSPORTS}
            allowDeselect={false}
            {...form.getInputProps('transport_type')}
          />
          <Select
            label="Authentication"
            data={AUTH_TYPES}
            allowDeselect={false}
            {...form.getInputProps('auth_type')}
          />
          {needsName && (
            <TextInput
              label={authType === 'header' ? 'Header name' : 'Query parameter name'}
              {...form.getInputProps('auth_name')}
            />
          )}
          {authType === 'oauth' && (
            <Text size="sm" c="dimmed">
              Each user connects their own account under MCP → Connections; the gateway calls the server with
              that user's token. Connect yours before discovering its tools.
            </Text>
          )}
          {authType === 'oauth' && (
            <>
              <TextInput
                label="Client ID (optional)"
                description="Only for an authorization server that does not register clients itself: the client you registered there, with the console's callback /oauth/upstream/callback as its redirect URI"
                {...form.getInputProps('oauth_client_id')}
              />
              <PasswordInput
                label="Client secret (optional)"
                description="Write-only: stored encrypted and never shown again; empty for a public client"
                autoComplete="new-password"
                {...form.getInputProps('oauth_client_secret')}
              />
            </>
          )}
          {authType !== 'none' && authType !== 'oauth' && (
            <PasswordInput
              label="Secret"
              description="Write-only: stored encrypted and never shown again"
              autoComplete="new-password"
              {...form.getInputProps('auth_secret')}
            />
          )}
          <FormActions onCancel={close} submitting={create.isPending} submitLabel="Register server" />
        </Stack>
      </form>
    </Modal>
  );
}
