import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { FormAlert } from '../../api/forms';
import type { Schemas } from '../../api/types';
import { SecretReveal } from '../../components/SecretReveal';
import { formatDate } from '../../lib/format';
import { KEYS_QUERY } from './key-queries';

/** Confirm, rotate, then show the new secret once and when the old one stops working. */
export function KeyRotateModal({
  apiKey,
  onClose,
}: {
  apiKey: Schemas['ApiKey'] | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/keys/{id}/rotate', { params: { path: { id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: KEYS_QUERY }),
  });
  const close = () => {
    rotate.reset();
    onClose();
  };
  const rotated = rotate.data;
  return (
    <Modal opened={apiKey !== null} onClose={close} title={`Rotate key "${apiKey?.name ?? ''}"`} size="lg">
      {rotated ? (
        <Stack>
          <SecretReveal secret={rotated.key}>
            The old key keeps working until{' '}
            <b data-testid="grace-end">{formatDate(rotated.grace_period_ends_at)}</b>, then only this one
            does.
          </SecretReveal>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            A new secret is issued now. The current one keeps working for a grace period so clients can switch
            over.
          </Text>
          <FormAlert message={rotate.isError ? errorMessage(rotate.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button loading={rotate.isPending} onClick={() => apiKey && rotate.mutate(apiKey.id)}>
              Rotate key
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
