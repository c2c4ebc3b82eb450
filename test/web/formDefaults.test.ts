/** The tab's form takes its defaults from the options table, not from literals in index.html. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS, SCHEME_NAMES } from '../../src/options.js';
import { defaultSeedOf, makeParams } from '../../src/signatures/params.js';
import { applyOptionDefaults, FORM_FIELDS } from '../../web/formDefaults.js';

const html = readFileSync(join(import.meta.dirname, '../../web/index.html'), 'utf8');

describe('the form defaults', () => {
  it("fill every field with the table's default (keep as the select's word)", () => {
    const fields = new Map(Object.keys(FORM_FIELDS).map((id) => [id, { value: '' }]));
    applyOptionDefaults((id) => fields.get(id)!);
    expect(Object.fromEntries([...fields].map(([id, f]) => [id, f.value]))).toEqual({
      threshold: String(OPTIONS.threshold.default),
      scheme: OPTIONS.scheme.default,
      'max-hamming': String(OPTIONS.maxHamming.default),
      weights: OPTIONS.weights.default,
      k: String(OPTIONS.k.default),
      seed: String(OPTIONS.seed.default),
      shingle: OPTIONS.shingle.default,
      n: String(OPTIONS.n.default),
      verify: OPTIONS.verify.default,
      'cluster-check': OPTIONS.clusterCheck.default,
      keep: 'first',
      'backend-choice': OPTIONS.backend.default,
      'text-field': OPTIONS.textField.default,
      'id-field': OPTIONS.idField.default,
      'min-length': String(OPTIONS.minLength.default),
      cut: OPTIONS.cut.default,
      'min-remaining': String(OPTIONS.minRemaining.default),
    });
  });

  it('index.html has each field, with no default of its own (no value, no selected option) to drift from the table', () => {
    for (const id of Object.keys(FORM_FIELDS)) {
      const tag = new RegExp(`<(input|select)[^>]*\\bid="${id}"[^>]*>`).exec(html);
      expect(tag, id).not.toBeNull();
      expect(tag![0], id).not.toMatch(/\bvalue=/);
      if (tag![1] === 'select') {
        const body = html.slice(tag!.index, html.indexOf('</select>', tag!.index));
        expect(body, id).not.toMatch(/\bselected\b/);
        // every choice the select offers is one the table accepts
        for (const [, choice] of body.matchAll(/<option value="([^"]*)"/g)) {
          if (id !== 'keep') expect(() => OPTIONS[FORM_FIELDS[id]].parse(choice), `${id} ${choice}`).not.toThrow();
        }
      }
    }
  });

  it('offers every scheme of the table, and a seed left at its default follows the scheme as --seed does (datasketch-*: 1)', () => {
    const select = html.slice(
      html.indexOf('<select id="scheme"'),
      html.indexOf('</select>', html.indexOf('<select id="scheme"')),
    );
    expect([...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual([...SCHEME_NAMES]);
    expect(defaultSeedOf('classic')).toBe(String(OPTIONS.seed.default));
    for (const scheme of SCHEME_NAMES) expect(defaultSeedOf(scheme), scheme).toBe(makeParams({ scheme }).seed);
    expect(SCHEME_NAMES.filter((s) => s.startsWith('datasketch-')).map(defaultSeedOf)).toEqual(['1', '1', '1']);
  });
});
