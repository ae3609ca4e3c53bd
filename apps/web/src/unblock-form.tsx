import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId } from 'react';
import { api, type Outputs } from './api';
import { ErrorMessage, FormActions, Loaded } from './ui';

type BlockField = Outputs['jobs']['blockFields'][number];

interface JobKey {
  organization: string;
  pipeline: string;
  number: string;
  job: string;
}

/** A multiple select's values travel one a line, as the build's meta-data keeps them. */
function valuesOf(form: HTMLFormElement, fields: readonly BlockField[]): Record<string, string> {
  const data = new FormData(form);
  const values: Record<string, string> = {};
  for (const field of fields) {
    const chosen = data.getAll(field.key).filter((value): value is string => typeof value === 'string');
    const value = chosen.join('\n');
    if (value.trim() !== '') values[field.key] = value;
  }
  return values;
}

function defaults(field: BlockField): string[] {
  if (field.default === null) return [];
  return Array.isArray(field.default) ? field.default : [field.default];
}

function FieldInput(props: { field: BlockField }) {
  const { field } = props;
  const id = useId();
  const hint = field.hint ? (
    <p id={`${id}-hint`} className="muted small">
      {field.hint}
    </p>
  ) : null;
  const described = field.hint ? `${id}-hint` : undefined;
  const label = `${field.label}${field.required ? ' (required)' : ''}`;
  if (field.type === 'select' && field.multiple) {
    // Checkboxes: each choice reachable by keyboard, and the group named by the field's label.
    return (
      <fieldset className="block-field" aria-describedby={described}>
        <legend>{label}</legend>
        {field.options.map((option) => (
          <label key={option.value} className="choice">
            <input
              type="checkbox"
              name={field.key}
              value={option.value}
              defaultChecked={defaults(field).includes(option.value)}
            />{' '}
            {option.label}
          </label>
        ))}
        {hint}
      </fieldset>
    );
  }
  return (
    <div className="block-field">
      <label htmlFor={id}>{label}</label>
      {field.type === 'select' ? (
        <select
          id={id}
          name={field.key}
          required={field.required}
          defaultValue={defaults(field)[0] ?? ''}
          aria-describedby={described}
        >
          <option value="">—</option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          name={field.key}
          type="text"
          required={field.required}
          defaultValue={defaults(field)[0] ?? ''}
          aria-describedby={described}
        />
      )}
      {hint}
    </div>
  );
}

/**
 * Unblocking a block step: its fields as a form (text, select, several choices), whose values become the
 * build's meta-data; a step without fields asks only to go on.
 */
export function UnblockForm(props: {
  jobKey: JobKey;
  name: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { jobKey } = props;
  const fields = useQuery({
    queryKey: ['jobs.blockFields', jobKey],
    queryFn: () => api.jobs.blockFields.query(jobKey),
  });
  const unblock = useMutation({
    mutationFn: (values: Record<string, string>) => api.jobs.unblock.mutate({ ...jobKey, fields: values }),
    onSuccess: props.onDone,
  });
  return (
    <Loaded query={fields}>
      {(list) => {
        const submit = (event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          unblock.mutate(valuesOf(event.currentTarget, list));
        };
        return (
          <form className="unblock-form" onSubmit={submit} aria-label={`Unblock ${props.name}`}>
            {list.map((field) => (
              <FieldInput key={field.key} field={field} />
            ))}
            <FormActions
              submit="Continue"
              pending={unblock.isPending}
              onClose={props.onCancel}
              close="Cancel"
            />
            <ErrorMessage error={unblock.error} />
          </form>
        );
      }}
    </Loaded>
  );
}
