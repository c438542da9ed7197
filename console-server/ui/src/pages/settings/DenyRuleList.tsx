import type { ReactNode } from 'react';
import { type GuardrailEditorProps, optionalList, removeAt, replaceAt, withField } from './guardrail-values';
import { RuleList } from './RuleList';

type WithDeny<R> = { deny?: R[] };

interface DenyRuleListProps<R extends object, V extends WithDeny<R>> {
  value: V;
  onChange: GuardrailEditorProps<V>['onChange'];
  onRowRemoved: GuardrailEditorProps<V>['onRowRemoved'];
  title: string;
  help: string;
  testId: string;
  addLabel: string;
  empty: string;
  newRule: R;
  /** One rule's inputs; `setRule` names the input changed, so its 422 error clears. */
  renderRule(rule: R, index: number, setRule: (rule: R, input: keyof R & string) => void): ReactNode;
}

/** A guardrail setting's `deny` rules as rows, added and removed in place (content, inspect_tools). */
export function DenyRuleList<R extends object, V extends WithDeny<R>>(props: DenyRuleListProps<R, V>) {
  const { value, onChange, onRowRemoved } = props;
  const rules = value.deny ?? [];
  const setRules = (next: R[], input: string) =>
    onChange(withField(value, 'deny', optionalList(next)) as V, input);
  return (
    <RuleList
      title={props.title}
      help={props.help}
      rules={rules}
      testId={props.testId}
      addLabel={props.addLabel}
      empty={props.empty}
      onAdd={() => setRules([...rules, { ...props.newRule }], 'deny')}
      onRemove={(index) => {
        setRules(removeAt(rules, index), 'deny');
        onRowRemoved('deny');
      }}
      renderRule={(rule, index) =>
        props.renderRule(rule, index, (next, input) =>
          setRules(replaceAt(rules, index, next), `deny.${index}.${input}`),
        )
      }
    />
  );
}
