// The window's filter fields come from the shared filter table: each entry becomes a field with its label, its
// kind of input and the shared hint, which follows the typed value.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { instrumentCoverage } from '../../src-shared/coverage/data-coverage';
import { filterHint } from '../../src-shared/filters/filter-hints';
import { FILTER_DEFINITIONS, FILTER_NAMES } from '../../src-shared/filters/filter-table';
import type { FilterName } from '../../src-shared/filters/filter-rules';
import { offeredFilters } from '../../src-renderer/browse/filters.svelte';
import { FakeContract, INSTRUMENTS, METADATA } from './fake-contract';
import { renderApp } from './render-app';

const NOW = Date.parse('2025-03-24T12:00:00Z');
/** The chosen instrument's span, which the rotation hint names. */
const UCOMP_COVERAGE = instrumentCoverage(INSTRUMENTS.find((instrument) => instrument.id === 'ucomp')!);

/** A value each filter's rule accepts, whose hint differs from the empty field's where the filter interprets it. */
const SAMPLES: Record<FilterName, string> = {
  'start-date': '2025-03-24',
  'end-date': '2025-03-25',
  cr: '2295',
  every: '2hours',
  'wave-region': '1074',
  'obs-plan': 'waves',
};

beforeEach(() => {
  // Only the clock: "now" is fixed for the rotation hint, while the waits of the tests keep real timers.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

/** The app with a product that offers every filter of the table, chosen. */
async function renderWithEveryFilter(): Promise<void> {
  const fake = new FakeContract();
  const everything = { ...METADATA['ucomp']!.find((product) => product.id === 'l2')!, filters: [...FILTER_NAMES] };
  fake.handle('catalog:product', () => everything);
  await renderApp(fake);
  await fireEvent.change(screen.getByRole('combobox', { name: 'Instrument' }), { target: { value: 'ucomp' } });
  await waitFor(() => expect(screen.queryByLabelText(FILTER_DEFINITIONS.at(-1)!.label)).not.toBeNull());
}

function hintOf(control: HTMLElement): string | null {
  return document.getElementById(control.getAttribute('aria-describedby')!)?.textContent ?? null;
}

describe('the filter fields', () => {
  it('are the table’s, in its order', async () => {
    await renderWithEveryFilter();
    const form = screen.getByRole('form', { name: 'Filters' });
    const labels = [...form.querySelectorAll('label')].map((label) => label.textContent);
    expect(labels).toEqual(FILTER_DEFINITIONS.map((filter) => filter.label));
  });

  it.each(FILTER_DEFINITIONS)('$label: the input the table describes, and the shared hint for empty and typed values', async (filter) => {
    await renderWithEveryFilter();
    const control = screen.getByLabelText(filter.label);
    expect(hintOf(control)).toBe(filterHint(filter.name, '', NOW, UCOMP_COVERAGE));

    const field = filter.field;
    if (field.kind === 'select') {
      expect(control.tagName).toBe('SELECT');
      const options = within(control).getAllByRole('option') as HTMLOptionElement[];
      expect(options.map((option) => [option.value, option.textContent])).toEqual([
        ['', field.emptyLabel],
        ...field.choices.map((choice) => [choice.value, choice.label]),
      ]);
      await fireEvent.change(control, { target: { value: SAMPLES[filter.name] } });
    } else {
      expect(control).toBe(screen.getByRole('textbox', { name: filter.label }));
      expect(control.getAttribute('inputmode')).toBe(field.inputMode ?? null);
      expect(control.getAttribute('placeholder')).toBe(field.placeholder ?? null);
      expect(control.classList.contains('mono')).toBe(field.monospace === true);
      const suffix = control.parentElement!.querySelector('.suffix');
      expect(suffix?.textContent ?? null).toBe(field.suffix ?? null);
      await fireEvent.input(control, { target: { value: SAMPLES[filter.name] } });
      await fireEvent.blur(control);
    }
    expect(control.getAttribute('aria-invalid')).toBeNull();
    expect(hintOf(control)).toBe(filterHint(filter.name, SAMPLES[filter.name], NOW, UCOMP_COVERAGE));
  });

  it('shows the rotations the chosen instrument’s data cover as the example, not the rotation now', async () => {
    // Long after the data end (2025-03-24), the rotation now would send the user where there is nothing.
    vi.setSystemTime(Date.parse('2026-06-01T00:00:00Z'));
    await renderWithEveryFilter();
    expect(hintOf(screen.getByLabelText('Carrington rotation'))).toBe("2246 to 2295 (the data's span)");
  });
});

describe('filters offered without a product list of them', () => {
  it('are the basic ones of the table', () => {
    expect(offeredFilters(null)).toEqual(FILTER_DEFINITIONS.filter((filter) => filter.basic).map((filter) => filter.name));
    expect(offeredFilters(null)).toEqual(['start-date', 'end-date', 'cr', 'every']);
  });
});
