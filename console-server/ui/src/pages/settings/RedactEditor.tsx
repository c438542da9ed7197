import { Checkbox, Group, Switch, TextInput } from '@mantine/core';
import { EnabledSwitch } from './EnabledSwitch';
import { DETECTOR_LABELS, GUARDRAIL_HELP, PLACE_LABELS } from './guardrail-labels';
import {
  DEFAULT_PLACES,
  DETECTORS,
  type GuardrailEditorProps,
  optionalList,
  PLACES,
  type Place,
  type RedactPattern,
  type RedactValue,
  removeAt,
  replaceAt,
  withField,
} from './guardrail-values';
import { MONO, RuleList } from './RuleList';

const NEW_PATTERN: RedactPattern = { name: '', regex: '' };

/** Checked places in their canonical order (request, response, logs). */
const inOrder = (checked: string[]): Place[] => PLACES.filter((place) => checked.includes(place));

function PlaceCheckboxes({ disabled }: { disabled?: boolean }) {
  return (
    <Group gap="md" mt={4}>
      {PLACES.map((place) => (
        <Checkbox key={place} value={place} label={PLACE_LABELS[place]} disabled={disabled} />
      ))}
    </Group>
  );
}

/** security.redact: detectors, where they apply, and named patterns (each may name its own places). */
export function RedactEditor({ value, onChange, onRowRemoved, error }: GuardrailEditorProps<RedactValue>) {
  const patterns = value.patterns ?? [];
  const places = value.apply_to ?? DEFAULT_PLACES;
  const setPatterns = (next: RedactPattern[], input: string) =>
    onChange(withField(value, 'patterns', optionalList(next)), input);
  const setPattern = (index: number, pattern: RedactPattern, input: keyof RedactPattern) =>
    setPatterns(replaceAt(patterns, index, pattern), `patterns.${index}.${input}`);
  return (
    <>
      <EnabledSwitch value={value} onChange={onChange} error={error('enabled')} />
      <Checkbox.Group
        label="Detectors"
        description={GUARDRAIL_HELP.detectors}
        value={value.detectors ?? []}
        onChange={(checked) =>
          onChange(
            withField(value, 'detectors', optionalList(DETECTORS.filter((d) => checked.includes(d)))),
            'detectors',
          )
        }
        error={error('detectors')}
      >
        <Group gap="md" mt={4}>
          {DETECTORS.map((detector) => (
            <Checkbox key={detector} value={detector} label={DETECTOR_LABELS[detector]} />
          ))}
        </Group>
      </Checkbox.Group>
      <Checkbox.Group
        label="Where"
        description={`${GUARDRAIL_HELP.places}${value.apply_to ? '' : ` ${GUARDRAIL_HELP.defaultPlaces}`}`}
        value={[...places]}
        onChange={(checked) => onChange(withField(value, 'apply_to', inOrder(checked)), 'apply_to')}
        error={error('apply_to')}
        data-testid="redact-places"
      >
        <PlaceCheckboxes />
      </Checkbox.Group>
      <RuleList
        title="Patterns"
        help={`${GUARDRAIL_HELP.patterns} ${GUARDRAIL_HELP.regex}`}
        rules={patterns}
        testId="redact-pattern"
        addLabel="Add pattern"
        empty="No patterns."
        onAdd={() => setPatterns([...patterns, { ...NEW_PATTERN }], 'patterns')}
        onRemove={(index) => {
          setPatterns(removeAt(patterns, index), 'patterns');
          onRowRemoved('patterns');
        }}
        renderRule={(pattern, index) => (
          <>
            <Group gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                label="Name"
                placeholder="ticket"
                w={170}
                value={pattern.name}
                onChange={(event) =>
                  setPattern(index, { ...pattern, name: event.currentTarget.value }, 'name')
                }
                error={error(`patterns.${index}.name`)}
              />
              <TextInput
                label="Regex"
                placeholder="TCK-[0-9]+"
                style={{ flex: 1 }}
                styles={MONO}
                value={pattern.regex}
                onChange={(event) =>
                  setPattern(index, { ...pattern, regex: event.currentTarget.value }, 'regex')
                }
                error={error(`patterns.${index}.regex`)}
              />
            </Group>
            <Group gap="md" align="flex-start">
              <Switch
                size="xs"
                mt={6}
                label={GUARDRAIL_HELP.ownPlaces}
                checked={pattern.apply_to !== undefined}
                onChange={(event) =>
                  setPattern(
                    index,
                    withField(pattern, 'apply_to', event.currentTarget.checked ? [...places] : undefined),
                    'apply_to',
                  )
                }
              />
              <Checkbox.Group
                aria-label="Places of this pattern"
                value={[...(pattern.apply_to ?? places)]}
                onChange={(checked) =>
                  setPattern(index, { ...pattern, apply_to: inOrder(checked) }, 'apply_to')
                }
                error={error(`patterns.${index}.apply_to`)}
              >
                <PlaceCheckboxes disabled={pattern.apply_to === undefined} />
              </Checkbox.Group>
            </Group>
          </>
        )}
      />
    </>
  );
}
