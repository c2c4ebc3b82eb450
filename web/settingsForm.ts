/**
 * The app's settings form, read and checked field by field (each field's error
 * is the options table's message, as the CLI's and the library's), and the
 * S-curve of the settings as they stand, drawn by the params worker.
 */
import { checkParams, type LshParams } from '../src/bands/lshParams.js';
import { simhashBanding } from '../src/bands/simhashBands.js';
import type { KeepPolicy } from '../src/text/keepPolicy.js';
import type { VerifyMode } from '../src/verify/verification.js';
import { makeParams } from '../src/signatures/params.js';
import { OPTIONS } from '../src/options.js';
import { byId, showSvg } from './dom.js';
import { fieldMessage } from './messages.js';
import type { LshReply, LshRequest } from './paramsWorker.js';
import type { BackendChoice, RunSettings } from './protocol.js';

export class FieldError extends Error {
  constructor(
    readonly field: HTMLElement,
    message: string,
  ) {
    super(message);
  }
}

export const value = (id: string): string => byId<HTMLInputElement | HTMLSelectElement>(id).value.trim();
const checked = (id: string): boolean => byId<HTMLInputElement>(id).checked;

/** The field's name as the page shows it: its label's text, else its aria-label. */
export function fieldLabel(field: HTMLElement): string {
  const label = field.id === '' ? null : document.querySelector(`label[for="${field.id}"]`);
  return (label?.textContent ?? field.getAttribute('aria-label') ?? field.id).trim();
}

/**
 * Runs a field's check; its error (the options table's rule, as the CLI's and the library's) marks that field, named
 * by its label rather than the option's code name (fieldMessage).
 */
export function fieldCheck<T>(id: string, read: () => T, label?: string): T {
  try {
    return read();
  } catch (error) {
    const field = byId<HTMLInputElement>(id);
    const message = fieldMessage((error as Error).message, label ?? fieldLabel(field), field.value, badInput(field));
    throw new FieldError(field, message);
  }
}

/** A number field whose entry the browser could not read as a number (its value is then ''). */
const badInput = (field: HTMLElement): boolean => (field as HTMLInputElement).validity?.badInput === true;

function readThreshold(): number {
  return fieldCheck('threshold', () => OPTIONS.threshold.parse(value('threshold')));
}

function readK(): number {
  return fieldCheck('k', () => OPTIONS.k.parse(value('k')));
}

/** bands × rows as given (both or neither), checked against k as the CLI does; undefined for the optimizer's choice. */
function readManualLsh(k: number): LshParams | undefined {
  const bands = value('bands');
  const rows = value('rows');
  if (bands === '' && rows === '') return undefined;
  const field = bands === '' ? byId('bands') : rows === '' ? byId('rows') : byId('bands');
  if (bands === '' || rows === '') throw new FieldError(field, 'Bands and rows go together: give both or neither.');
  const lsh = { bands: Number(bands), rows: Number(rows) };
  try {
    checkParams(lsh, k);
  } catch (error) {
    throw new FieldError(byId('bands'), (error as Error).message);
  }
  return lsh;
}

// The optimizer and the S-curve run in their own small worker (paramsWorker.ts): they take too long for this thread.
const paramsWorker = new Worker(new URL('./paramsWorker.ts', import.meta.url), {
  type: 'module',
  name: 'gpudedup params',
});
const paramsWaiting = new Map<number, (reply: LshReply) => void>();
let paramsId = 0;
paramsWorker.onmessage = (event: MessageEvent<LshReply>) => {
  paramsWaiting.get(event.data.id)?.(event.data);
  paramsWaiting.delete(event.data.id);
};
function chooseLsh(threshold: number, k: number, manual: LshParams | undefined): Promise<LshReply> {
  // The CLI's choice: with hybrid or exact verification it targets recall at the threshold (defaultLshParams).
  const request: LshRequest = { id: ++paramsId, threshold, k, manual, verify: value('verify') as VerifyMode };
  return new Promise((resolve) => {
    paramsWaiting.set(request.id, resolve);
    paramsWorker.postMessage(request);
  });
}

function readKeep(): KeepPolicy {
  const kind = value('keep');
  if (kind !== 'field') return { kind: kind as 'first' | 'longest' };
  const field = value('keep-field');
  if (field === '')
    throw new FieldError(byId('keep-field'), 'Name the field whose highest value is kept, e.g. quality.');
  return { kind: 'field', field };
}

/** MinHash's banding: bands × rows as given, or the optimizer's choice for the threshold. */
async function minhashBanding(threshold: number, k: number) {
  const manual = readManualLsh(k);
  const chosen = await chooseLsh(threshold, k, manual);
  if ('error' in chosen) throw new FieldError(byId('bands'), chosen.error);
  return { threshold, lsh: chosen.lsh, manualLsh: manual !== undefined };
}

/** SimHash's, as `--scheme simhash` has it: Manku's block tables for the max Hamming distance, and its threshold. */
function simhashFormBanding(maxHamming: number) {
  if (value('bands') !== '' || value('rows') !== '')
    throw new FieldError(byId('bands'), 'SimHash bands by its max Hamming distance: leave bands × rows empty.');
  return { ...simhashBanding(maxHamming), manualLsh: false };
}

export async function readSettings(): Promise<RunSettings> {
  const threshold = readThreshold();
  const k = readK();
  const n = fieldCheck('n', () => OPTIONS.n.parse(value('n')));
  const scheme = fieldCheck('scheme', () => OPTIONS.scheme.parse(value('scheme')));
  // An empty seed is the scheme's default, as an absent --seed is (makeParams: datasketch's 1, else 42).
  const seed = fieldCheck(
    'seed',
    () => makeParams({ scheme, seed: value('seed') === '' ? undefined : value('seed') }).seed,
  );
  const weights = OPTIONS.weights.parse(value('weights'));
  const maxHamming = fieldCheck('max-hamming', () => OPTIONS.maxHamming.parse(value('max-hamming')));
  const banding = scheme === 'simhash' ? simhashFormBanding(maxHamming) : await minhashBanding(threshold, k);
  const textField = fieldCheck('text-field', () => OPTIONS.textField.parse(value('text-field')));
  const idField = fieldCheck('id-field', () => OPTIONS.idField.parse(value('id-field')));
  return {
    ...banding,
    scheme,
    weights,
    maxHamming,
    k: scheme === 'simhash' ? makeParams({ scheme }).k : k,
    seed,
    shingle: OPTIONS.shingle.parse(value('shingle')),
    n,
    nfkc: checked('nfkc'),
    stripPunctuation: checked('strip-punctuation'),
    verify: OPTIONS.verify.parse(value('verify')),
    clusterCheck: OPTIONS.clusterCheck.parse(value('cluster-check')),
    keep: readKeep(),
    backend: OPTIONS.backend.parse(value('backend-choice')) as BackendChoice, // the form offers auto and cpu
    textField,
    idField,
    skipInvalid: checked('skip-invalid'),
  };
}

export function showFieldError(error: FieldError): void {
  const field = error.field;
  const message = byId(
    field
      .getAttribute('aria-describedby')!
      .split(' ')
      .find((id) => id.endsWith('-error'))!,
  );
  message.textContent = error.message;
  message.hidden = false;
  field.setAttribute('aria-invalid', 'true');
  const details = field.closest('details');
  if (details) details.open = true;
  field.focus();
}

export function clearFieldError(field: HTMLElement): void {
  if (field.getAttribute('aria-invalid') !== 'true') return;
  field.removeAttribute('aria-invalid');
  const id = field
    .getAttribute('aria-describedby')
    ?.split(' ')
    .find((x) => x.endsWith('-error'));
  if (id) byId(id).hidden = true;
}

/** The S-curve of the settings as they are now, redrawn on every change of threshold, k, bands or rows. */
export async function drawSettingsCurve(): Promise<void> {
  const invalid = (): void => {
    byId('lsh-summary').textContent = 'The S-curve shows once threshold, k, bands and rows are valid.';
  };
  let threshold: number, k: number, manual: LshParams | undefined;
  try {
    threshold = OPTIONS.threshold.parse(value('threshold'));
    k = OPTIONS.k.parse(value('k'));
    manual = readManualLsh(k);
  } catch {
    return invalid();
  }
  const request = paramsId + 1;
  const reply = await chooseLsh(threshold, k, manual);
  if (request !== paramsId) return; // a newer change is on its way
  if ('error' in reply) return invalid();
  const { lsh } = reply;
  showSvg(byId('s-curve'), reply.svg);
  byId('s-curve').dataset.lsh = `${lsh.bands}x${lsh.rows}`;
  byId('lsh-summary').textContent =
    `${lsh.bands} bands × ${lsh.rows} rows of k = ${k} ${manual ? '(as given)' : '(chosen for the threshold)'}: a ` +
    `pair at the threshold becomes a candidate ` +
    `with probability ${reply.atThreshold.toFixed(3)}; the curve's midpoint is ≈ ${reply.midpoint.toFixed(3)}.`;
}
