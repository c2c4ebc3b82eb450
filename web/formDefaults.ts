/**
 * The form's defaults come from the options table (src/options.ts), not from
 * literals in index.html: each field named here gets the table's default
 * (inputs: value; selects: the selected option) when the page starts.
 */
import { OPTIONS, type OptionName } from '../src/options.js';

/** Form field id → the option it sets. */
export const FORM_FIELDS: Readonly<Record<string, OptionName>> = {
  threshold: 'threshold',
  scheme: 'scheme',
  'max-hamming': 'maxHamming',
  weights: 'weights',
  k: 'k',
  seed: 'seed',
  shingle: 'shingle',
  n: 'n',
  verify: 'verify',
  'cluster-check': 'clusterCheck',
  keep: 'keep',
  'backend-choice': 'backend',
  'text-field': 'textField',
  'id-field': 'idField',
  'min-length': 'minLength',
  cut: 'cut',
  'min-remaining': 'minRemaining',
};

/** What a field shows for a default: keep's policy as the select's word. */
function shown(name: OptionName): string {
  const value = OPTIONS[name].default;
  if (name === 'keep') return (value as { kind: string }).kind;
  return String(value);
}

/** The form fields the defaults go into; `byId` finds one (tests pass plain objects). */
export function applyOptionDefaults(byId: (id: string) => { value: string }): void {
  for (const [id, name] of Object.entries(FORM_FIELDS)) byId(id).value = shown(name);
}
