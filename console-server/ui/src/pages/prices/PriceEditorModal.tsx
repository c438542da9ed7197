import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { Schemas } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { PriceInput } from '../../components/PriceInput';
import { MODELS_QUERY } from '../models/model-queries';
import { PRICE_VALIDATION, type PriceValues, priceBody, priceValues } from './price-form';

type Price = Schemas['ModelPrice'];

export const PRICES_QUERY = ['model-prices'] as const;

/** Adds an entry (entry null) or replaces one: PUT sends the whole entry either way. */
export function PriceEditorModal({
  opened,
  entry,
  onClose,
}: {
  opened: boolean;
  entry: Price | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={entry ? `Edit price of "${entry.model}"` : 'Add price'}
      size="xl"
    >
      {opened && <PriceEditor entry={entry} onClose={onClose} />}
    </Modal>
  );
}

function PriceEditor({ entry, onClose }: { entry: Price | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<PriceValues>({ initialValues: priceValues(entry), validate: PRICE_VALIDATION });
  const save = useMutation({
    mutationFn: (v: PriceValues) =>
      unwrap(
        api.PUT('/api/admin/model-prices/{model}', {
          params: { path: { model: v.model } },
          body: priceBody(v),
        }),
      ),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: PRICES_QUERY });
      // Models priced through the table show the new price at once.
      void queryClient.invalidateQueries({ queryKey: MODELS_QUERY });
      notifications.show({ message: `Price of "${saved.model}" saved`, color: 'teal' });
      onClose();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  return (
    <form
      onSubmit={form.onSubmit((v) => {
        setAlert(null);
        save.mutate(v);
      })}
    >
      <Stack>
        <FormAlert message={alert} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Upstream model"
            description="The vendor's model name; versioned ids and Bedrock ids find it too"
            disabled={entry !== null}
            {...form.getInputProps('model')}
          />
          <TextInput label="Vendor" {...form.getInputProps('vendor')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <PriceInput
            label="Input price (USD / 1M tokens)"
            min={0}
            {...form.getInputProps('input_price_per_mtok')}
          />
          <PriceInput
            label="Output price (USD / 1M tokens)"
            min={0}
            {...form.getInputProps('output_price_per_mtok')}
          />
          <PriceInput
            label="Cache read price"
            description="Empty: billed at the input price"
            min={0}
            {...form.getInputProps('cached_input_price_per_mtok')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <PriceInput
            label="Cache write price"
            description="Prompt-cache writes (5 minutes). Empty: the input price"
            min={0}
            {...form.getInputProps('cache_write_price_per_mtok')}
          />
          <PriceInput
            label="1-hour cache write price"
            description="Empty: the cache write price"
            min={0}
            {...form.getInputProps('cache_write_1h_price_per_mtok')}
          />
        </SimpleGrid>
        <FormActions onCancel={onClose} submitting={save.isPending} submitLabel="Save price" />
      </Stack>
    </form>
  );
}
