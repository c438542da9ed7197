import { Modal, PasswordInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
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
  { value: 'oauth_client_credentials', label: 'Sluice signs in as a client (OAuth client credentials)' },
  { value: 'oauth_jwt_bearer', label: 'Sluice signs in with a workload token (JWT bearer)' },
  { value: 'oauth_token_exchange', label: 'Each user, via the company identity provider (token exchange)' },
];

type ClientAuth = 'secret' | 'key';
const CLIENT_AUTH: Array<{ value: ClientAuth; label: string }> = [
  { value: 'secret', label: 'Client secret' },
  { value: 'key', label: 'Private key (private_key_jwt)' },
];

/** The auth types that send auth_secret: the credential itself, or the workload token to exchange. */
const SENDS_SECRET: AuthType[] = ['bearer', 'header', 'query', 'oauth_jwt_bearer'];

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
  client_auth: 'secret' as ClientAuth,
  oauth_private_key: '',
  idp_issuer: '',
  idp_client_id: '',
  idp_client_secret: '',
};

type Values = typeof initialValues;

/** The body for the form's values: only the fields the chosen auth type shows. */
function bodyOf(v: Values): Body {
  const takesClient =
    v.auth_type === 'oauth' ||
    v.auth_type === 'oauth_client_credentials' ||
    v.auth_type === 'oauth_jwt_bearer' ||
    v.auth_type === 'oauth_token_exchange';
  const choosesClientAuth =
    v.auth_type === 'oauth_client_credentials' || v.auth_type === 'oauth_token_exchange';
  const signsWithKey = choosesClientAuth && v.client_auth === 'key';
  const exchanges = v.auth_type === 'oauth_token_exchange';
  // Empty optional fields are left out, so the API's defaults and auth rules apply.
  return {
    name: v.name,
    description: v.description.trim() || null,
    endpoint_url: v.endpoint_url,
    transport_type: v.transport_type,
    auth_type: v.auth_type,
    auth_name: v.auth_name || null,
    auth_secret: (SENDS_SECRET.includes(v.auth_type) && v.auth_secret.trim()) || null,
    oauth_client_id: (takesClient && v.oauth_client_id.trim()) || null,
    oauth_client_secret: (takesClient && !signsWithKey && v.oauth_client_secret) || null,
    oauth_private_key: (signsWithKey && v.oauth_private_key.trim()) || null,
    idp_issuer: (exchanges && v.idp_issuer.trim()) || null,
    idp_client_id: (exchanges && v.idp_client_id.trim()) || null,
    idp_client_secret: (exchanges && v.idp_client_secret) || null,
  };
}

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
          create.mutate(bodyOf(v));
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
          {authType === 'oauth_client_credentials' && <ClientCredentialsFields form={form} />}
          {authType === 'oauth_jwt_bearer' && <WorkloadTokenFields form={form} />}
          {authType === 'oauth_token_exchange' && <TokenExchangeFields form={form} />}
          {SENDS_SECRET.includes(authType) && authType !== 'oauth_jwt_bearer' && (
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

type Form = UseFormReturnType<Values>;

/** Sluice as a client of the server's authorization server: its id, and its secret or private key. */
function ClientCredentialsFields({ form }: { form: Form }) {
  return (
    <>
      <Text size="sm" c="dimmed">
        Sluice gets one token for itself from the server's authorization server (OAuth client credentials) and
        calls the server with it for every user, fetching a new one before it expires.
      </Text>
      <ServerClientFields form={form} />
    </>
  );
}

/** Sluice's client at the server's authorization server, and how it proves itself there. */
function ServerClientFields({ form }: { form: Form }) {
  const { client_auth: clientAuth } = form.getValues();
  return (
    <>
      <TextInput
        label="Client ID"
        description="The client registered for Sluice at the server's authorization server"
        {...form.getInputProps('oauth_client_id')}
      />
      <Select
        label="Client authentication"
        data={CLIENT_AUTH}
        allowDeselect={false}
        {...form.getInputProps('client_auth')}
      />
      {clientAuth === 'secret' ? (
        <PasswordInput
          label="Client secret"
          description="Write-only: stored encrypted and never shown again"
          autoComplete="new-password"
          {...form.getInputProps('oauth_client_secret')}
        />
      ) : (
        <Textarea
          label="Private key"
          description="PKCS#8 PEM (-----BEGIN PRIVATE KEY-----) whose public key the authorization server knows; write-only"
          autosize
          minRows={3}
          styles={{ input: { fontFamily: 'monospace' } }}
          {...form.getInputProps('oauth_private_key')}
        />
      )}
    </>
  );
}

/** The workload's own token, exchanged at the server's authorization server (jwt-bearer grant). */
function WorkloadTokenFields({ form }: { form: Form }) {
  return (
    <>
      <Text size="sm" c="dimmed">
        Sluice presents the token your platform gave this workload (a Kubernetes service account token, a
        cloud workload identity) to the server's authorization server, and calls the server with the token it
        answers, for every user. Replace it here before it expires.
      </Text>
      <PasswordInput
        label="Workload token (JWT)"
        description="Write-only: stored encrypted and never shown again"
        autoComplete="new-password"
        {...form.getInputProps('auth_secret')}
      />
      <TextInput
        label="Client ID (optional)"
        description="Only if the authorization server wants the token request to name a client"
        {...form.getInputProps('oauth_client_id')}
      />
    </>
  );
}

/**
 * Enterprise-managed authorization: each user's ID token from the company's identity provider is
 * exchanged there for an identity assertion grant, which Sluice's client presents at the server's
 * authorization server for that user's token. So Sluice needs a client at both.
 */
function TokenExchangeFields({ form }: { form: Form }) {
  return (
    <>
      <Text size="sm" c="dimmed">
        Users who sign in to this console through the same identity provider are connected at once; others
        connect under MCP → Connections with their ID token from it. Sluice exchanges the ID token there for a
        grant that the server's authorization server takes in return for that user's token. Nobody signs in at
        the server itself.
      </Text>
      <TextInput
        label="Identity provider issuer"
        placeholder="https://login.example.com"
        description="The issuer URL of the company's identity provider, as its ID tokens name it"
        {...form.getInputProps('idp_issuer')}
      />
      <TextInput
        label="Identity provider client ID"
        description="The client registered for Sluice at the identity provider; users' ID tokens are issued to it"
        {...form.getInputProps('idp_client_id')}
      />
      <PasswordInput
        label="Identity provider client secret (optional)"
        description="Write-only: stored encrypted and never shown again; empty for a public client"
        autoComplete="new-password"
        {...form.getInputProps('idp_client_secret')}
      />
      <ServerClientFields form={form} />
    </>
  );
}
