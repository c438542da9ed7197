import { Divider, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, unwrapPage } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import { useAllPages } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { PriceInput } from '../../components/PriceInput';
import { PROVIDERS_QUERY } from '../providers/ProviderFormModal';
import { KIND_OPTIONS, type ModelValues, modelBody, modelValues, STRATEGY_OPTIONS } from './model-form';
import { MODELS_QUERY } from './model-queries';
import { useRouteHealth } from './RouteHealthBadge';
import { RoutesEditor } from './RoutesEditor';

type Model = Schemas['Model'];

export function ModelEditorModal({
  opened,
  model,
  onClose,
}: {
  opened: boolean;
  model: Model | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={model ? `Edit model "${model.name}"` : 'Add model'}
      size="80rem"
    >
      {opened && <ModelEditor model={model} onClose={onClose} />}
    </Modal>
  );
}

function ModelEditor({ model, onClose }: { model: Model | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  // Every provider a route may go to, not only the first page's.
  const providers = useAllPages(PROVIDERS_QUERY, (page) =>
    unwrapPage(api.GET('/api/admin/providers', { params: { query: page } }), page),
  );
  const health = useRouteHealth();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<ModelValues>({ initialValues: modelValues(model) });
  const save = useMutation({
    mutationFn: (v: ModelValues) =>
      model
        ? unwrap(
            api.PATCH('/api/admin/models/{id}', { params: { path: { id: model.id } }, body: modelBody(v) }),
          )
        : unwrap(api.POST('/api/admin/models', { body: modelBody(v) })),
    onSuccess: (m) => {
      void queryClient.invalidateQueries({ queryKey: MODELS_QUERY });
      void queryClient.invalidateQueries({ queryKey: ['route-health'] });
      notifications.show({ message: `Model "${m.name}" saved`, color: 'teal' });
      onClose();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const providerOptions = (providers.data ?? []).map((p) => ({
    value: p.id,
    label: p.is_active ? p.display_name : `${p.display_name} (inactive)`,
  }));
  return (
    <form
      onSubmit={form.onSubmit((v) => {
        setAlert(null);
        save.mutate(v);
      })}
    >
      <Stack>
        <FormAlert message={alert} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="Model name"
            description="What clients send as `model`"
            {...form.getInputProps('name')}
          />
          <Select
            label="Kind"
            description="Embedding models serve POST /v1/embeddings and are priced by input tokens only"
            data={KIND_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('kind')}
          />
          <Select
            label="Routing strategy"
            description="The other routes stay fallbacks, in order."
            data={STRATEGY_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('strategy')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <PriceInput
            label="Input price (USD / 1M tokens)"
            description="Empty: use the price table"
            {...form.getInputProps('input_price_per_mtok')}
          />
          <PriceInput
            label="Output price (USD / 1M tokens)"
            description="Empty: use the price table"
            {...form.getInputProps('output_price_per_mtok')}
          />
          <PriceInput
            label="Cached input price (USD / 1M tokens)"
            description="Empty: cached tokens billed at the input price"
            {...form.getInputProps('cached_input_price_per_mtok')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <PriceInput
            label="Cache write price (USD / 1M tokens)"
            description="Prompt-cache writes (5 minutes). Empty: billed at the input price"
            {...form.getInputProps('cache_write_price_per_mtok')}
          />
          <PriceInput
            label="1-hour cache write price (USD / 1M tokens)"
            description="Empty: billed at the cache write price"
            {...form.getInputProps('cache_write_1h_price_per_mtok')}
          />
          <NumberInput
            label="Max output tokens"
            description="Sent when the client sets no cap and the vendor needs one. Empty: the upstream model's known limit"
            allowDecimal={false}
            min={1}
            {...form.getInputProps('max_output_tokens')}
          />
        </SimpleGrid>
        <Switch
          label="Place prompt-cache breakpoints"
          description="For clients of other formats (chat completions, Responses) on Anthropic and Bedrock routes, so their prompts are cached too"
          {...form.getInputProps('cache_breakpoints', { type: 'checkbox' })}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NumberInput
            label="Input token weight"
            description="For weighted-token limits"
            decimalScale={4}
            {...form.getInputProps('input_weight')}
          />
          <NumberInput
            label="Output token weight"
            decimalScale={4}
            {...form.getInputProps('output_weight')}
          />
          <Switch label="Active" mt="lg" {...form.getInputProps('is_active', { type: 'checkbox' })} />
        </SimpleGrid>
        <Divider />
        <RoutesEditor form={form} providers={providerOptions} health={health.byRoute} />
        <FormActions
          onCancel={onClose}
          submitting={save.isPending}
          submitLabel={model ? 'Save model' : 'Add model'}
        />
      </Stack>
    </form>
  );
}
