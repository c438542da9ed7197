import { Modal, MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { RequestBody } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { MCP_VIRTUAL_SERVERS_QUERY, useAllMcpTools } from './mcp-queries';

type Body = RequestBody<'/api/mcp/virtual-servers', 'post'>;

const initialValues = { name: '', description: '', tools: [] as string[] };

/** A virtual server: a name and tools picked from the discovered ones (`<server>__<tool>`). */
export function VirtualServerCreateModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const tools = useAllMcpTools();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm({ initialValues });
  const create = useMutation({
    mutationFn: (body: Body) => unwrap(api.POST('/api/mcp/virtual-servers', { body })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: MCP_VIRTUAL_SERVERS_QUERY });
      close();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const close = () => {
    setAlert(null);
    form.reset();
    onClose();
  };
  const choices = (tools.data ?? []).map((t) => `${t.server_name}__${t.name}`);
  return (
    <Modal opened={opened} onClose={close} title="Create virtual server" size="lg">
      <form
        onSubmit={form.onSubmit((v) => {
          setAlert(null);
          create.mutate({ name: v.name, description: v.description.trim() || null, tools: v.tools });
        })}
      >
        <Stack>
          <FormAlert message={alert} />
          <TextInput
            label="Name"
            description="Lowercase slug, not a registered server's; served at /mcp/<name>"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />
          <MultiSelect
            label="Tools"
            description="Served under their <server>__<tool> names"
            data={choices}
            searchable
            nothingFoundMessage="No discovered tool matches"
            {...form.getInputProps('tools')}
          />
          <FormActions onCancel={close} submitting={create.isPending} submitLabel="Create virtual server" />
        </Stack>
      </form>
    </Modal>
  );
}
