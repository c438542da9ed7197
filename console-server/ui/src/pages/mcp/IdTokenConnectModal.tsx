import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { Schemas } from '../../api/types';
import { FormActions } from '../../components/FormActions';

type Connection = Schemas['McpConnection'];
export type IdTokenConnected = Schemas['McpIdTokenConnected'];

/**
 * Connecting to a server of auth_type oauth_token_exchange: the user pastes their ID token from the
 * company's identity provider. The API exchanges it at once, so a token it cannot use (400) or a
 * refusal upstream (502) shows here, in the user's terms, while they can still paste another.
 */
export function IdTokenConnectModal({
  connection,
  onClose,
  onConnected,
}: {
  connection: Connection | null;
  onClose: () => void;
  onConnected: (connection: Connection, answer: IdTokenConnected) => void;
}) {
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm({ initialValues: { id_token: '' } });
  const connect = useMutation({
    mutationFn: ({ to, idToken }: { to: Connection; idToken: string }) =>
      unwrap(
        api.POST('/api/mcp/connections/{id}/id-token', {
          params: { path: { id: to.server_id } },
          body: { id_token: idToken },
        }),
      ),
    onSuccess: (answer, { to }) => {
      onConnected(to, answer);
      close();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const close = () => {
    setAlert(null);
    form.reset();
    onClose();
  };
  return (
    <Modal
      opened={connection !== null}
      onClose={close}
      title={`Connect to ${connection?.server_name ?? ''} with your ID token`}
      size="lg"
    >
      <form
        onSubmit={form.onSubmit((v) => {
          if (!connection) return;
          setAlert(null);
          connect.mutate({ to: connection, idToken: v.id_token.trim() });
        })}
      >
        <Stack>
          <FormAlert message={alert} />
          <Text size="sm" c="dimmed">
            The gateway exchanges it at the company's identity provider for your access to this server, and
            again whenever that access expires, until the ID token itself expires.
          </Text>
          <Textarea
            label="ID token"
            description="The JWT the company's identity provider issued you for Sluice; stored encrypted, never shown again"
            autosize
            minRows={4}
            data-autofocus
            styles={{ input: { fontFamily: 'monospace' } }}
            {...form.getInputProps('id_token')}
          />
          <FormActions onCancel={close} submitting={connect.isPending} submitLabel="Connect" />
        </Stack>
      </form>
    </Modal>
  );
}
