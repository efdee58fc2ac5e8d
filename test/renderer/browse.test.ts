// Browse: instruments and products, the filter fields each product offers, inline validation with the shared
// rules, and Search (button or Enter).
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import App from '../../src-renderer/shell/App.svelte';
import { apiClientFrom } from '../../src-renderer/lib/api';
import { carringtonRotationSpan } from '../../src-science/astro/carrington';
import { FakeContract, FakeFailure, INSTRUMENTS } from './fake-contract';
import { renderApp } from './render-app';

const FILTER_FIELDS = ['Start date', 'End date', 'Carrington rotation', 'Every', 'Wave region', 'Observing plan'];

function select(name: string): HTMLSelectElement {
  return screen.getByRole('combobox', { name }) as HTMLSelectElement;
}

function button(name: string): HTMLButtonElement {
  return screen.getByRole('button', { name }) as HTMLButtonElement;
}

function textbox(name: string): HTMLInputElement {
  return screen.getByRole('textbox', { name }) as HTMLInputElement;
}

async function choose(name: string, value: string): Promise<void> {
  await fireEvent.change(select(name), { target: { value } });
}

/** The filter fields on screen, by accessible name. */
function visibleFilters(): string[] {
  return FILTER_FIELDS.filter((name) => screen.queryByLabelText(name) !== null);
}

async function chooseProduct(instrument: string, product: string): Promise<void> {
  await choose('Instrument', instrument);
  await waitFor(() => expect(select('Product').value).not.toBe(''));
  await choose('Product', product);
  await waitFor(() => expect(screen.queryByText(/Loading the product/)).toBeNull());
}

async function typeInto(name: string, value: string): Promise<HTMLInputElement> {
  const field = textbox(name);
  await fireEvent.input(field, { target: { value } });
  await fireEvent.blur(field);
  return field;
}

function messageUnder(field: HTMLElement): string | null {
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return ids.length > 0 ? (document.getElementById(ids[0]!)?.textContent ?? null) : null;
}

describe('instruments and products', () => {
  it('lists both instruments with coverage and links, and says what to do first', async () => {
    const { fake } = await renderApp();
    const options = within(select('Instrument'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toContain('COSMO K-Coronagraph (KCor)');
    expect(options).toContain('Upgraded Coronal Multi-Polarimeter (UCoMP)');
    screen.getByText('Choose an instrument and press Search.');

    await choose('Instrument', 'kcor');
    await screen.findByText('2013-09-30 – 2025-03-24 UT');
    const doi = screen.getByRole('link', { name: '10.5065/D69G5JV8' });
    await fireEvent.click(doi);
    screen.getByRole('link', { name: 'Instrument page' });
    expect(fake.callsTo('shell:open-external')).toEqual([{ url: 'https://doi.org/10.5065/D69G5JV8' }]);
  });

  it("loads the chosen instrument's products, picks the first and shows its description", async () => {
    const { fake } = await renderApp();
    await choose('Instrument', 'kcor');
    await waitFor(() => expect(select('Product').value).toBe('pb'));
    expect(
      within(select('Product'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['pB (pb)', 'NRGF (nrgf)', 'pB avg (pbavg)', 'All (all)']);
    await screen.findByText('polarized brightness image');
    expect(fake.callsTo('catalog:product')).toEqual([{ instrument: 'kcor', product: 'pb' }]);

    await choose('Instrument', 'ucomp');
    await waitFor(() => expect(select('Product').value).toBe('l1'));
    await screen.findByText('IQUV and backgrounds for various wavelengths');
    await choose('Product', 'l2');
    await screen.findByText('level 2 products');
    expect(fake.callsTo('catalog:products')).toEqual([{ instrument: 'kcor' }, { instrument: 'ucomp' }]);
  });

  it('suggests the instrument’s latest day as the start date', async () => {
    await renderApp();
    await choose('Instrument', 'kcor');
    await waitFor(() => expect(textbox('Start date').value).toBe('2025-03-24'));
  });

  it('shows a catalogue failure in the server’s words', async () => {
    const { fake } = await renderApp();
    fake.fail('catalog:products', { kind: 'server', status: 500, message: 'internal server error (the MLSO database is down)' });
    await choose('Instrument', 'ucomp');
    await screen.findByText('internal server error (the MLSO database is down)');
  });
});

describe('filter fields follow the product metadata', () => {
  it('KCor pB offers dates, Carrington rotation and Every only', async () => {
    await renderApp();
    await chooseProduct('kcor', 'pb');
    expect(visibleFilters()).toEqual(['Start date', 'End date', 'Carrington rotation', 'Every']);
  });

  it('UCoMP L2 adds wave region and observing plan; UCoMP density does not', async () => {
    await renderApp();
    await chooseProduct('ucomp', 'l2');
    expect(visibleFilters()).toEqual(FILTER_FIELDS);
    const regions = within(select('Wave region'))
      .getAllByRole('option')
      .map((option) => (option as HTMLOptionElement).value);
    expect(regions).toEqual(['', '637', '706', '789', '1074', '1079']);
    await choose('Product', 'density');
    await waitFor(() => expect(visibleFilters()).toEqual(['Start date', 'End date', 'Carrington rotation', 'Every']));
  });

  it('labels the dates as UT', async () => {
    await renderApp();
    const hint = document.getElementById(textbox('Start date').getAttribute('aria-describedby')!.split(' ')[0]!);
    expect(hint?.textContent).toMatch(/UT/);
  });
});

describe('inline validation with the shared rules', () => {
  it('checks dates as typed, including real calendar dates', async () => {
    await renderApp();
    const start = await typeInto('Start date', '2025-24-03');
    expect(messageUnder(start)).toMatch(/Start date "2025-24-03" is not/);
    expect(start.getAttribute('aria-invalid')).toBe('true');
    await typeInto('Start date', '2025-02-30');
    expect(messageUnder(start)).toMatch(/not a real calendar date/);
    await typeInto('Start date', '2025-03-24T21:03:00');
    expect(messageUnder(start)).toBeNull();
    expect(start.getAttribute('aria-invalid')).toBeNull();
  });

  it('says when the start is after the end', async () => {
    await renderApp();
    const start = await typeInto('Start date', '2025-03-25');
    await typeInto('End date', '2025-03-24');
    expect(messageUnder(start)).toMatch(/Start date 2025-03-25 is after end date 2025-03-24/);
  });

  it('checks the Carrington rotation and shows its date span', async () => {
    await renderApp();
    const cr = await typeInto('Carrington rotation', '22x');
    expect(messageUnder(cr)).toMatch(/must be a positive whole number/);
    await typeInto('Carrington rotation', '2295');
    expect(messageUnder(cr)).toBeNull();
    const span = carringtonRotationSpan(2295);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    screen.getByText(new RegExp(`${day(span.start)} .* – ${day(span.end)} .* UT`));
  });

  it('accepts typed Every values such as 2hours and explains them', async () => {
    await renderApp();
    const every = await typeInto('Every', '2hours');
    expect(messageUnder(every)).toBeNull();
    // Not "at most one every 2 hours": the service cuts periods by the clock, and the hint says so with an example.
    screen.getByText(
      'The first file of each period of 2 hours on the UT clock, so two can be minutes apart: 2hours on 2025-03-21 gave 17:55:59, 18:00:00 and 20:00:03 UT',
    );
    await typeInto('Every', 'often');
    expect(messageUnder(every)).toMatch(/Every "often" must be a whole number followed by/);
  });

  it('checks the observing plan (not blank) on UCoMP products', async () => {
    await renderApp();
    await chooseProduct('ucomp', 'l2');
    const plan = await typeInto('Observing plan', 'waves');
    expect(messageUnder(plan)).toBeNull();
    await fireEvent.change(select('Wave region'), { target: { value: '789' } });
    expect(select('Wave region').value).toBe('789');
  });

  it('does not nag about a field before it is left', async () => {
    await renderApp();
    const field = textbox('Every');
    await fireEvent.input(field, { target: { value: '2' } });
    expect(messageUnder(field)).toBeNull();
    await fireEvent.blur(field);
    expect(messageUnder(field)).not.toBeNull();
  });
});

describe('search', () => {
  it('sends search:start with the checked, normalised filters', async () => {
    const { fake } = await renderApp();
    await chooseProduct('ucomp', 'l2');
    await typeInto('Start date', '2025-3-24');
    await typeInto('Every', '30 minutes');
    await typeInto('Observing plan', 'synoptic');
    await fireEvent.change(select('Wave region'), { target: { value: '1074' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(fake.callsTo('search:start')).toHaveLength(1));
    expect(fake.callsTo('search:start')[0]).toEqual({
      instrument: 'ucomp',
      product: 'l2',
      filters: { 'start-date': '2025-03-24', every: '30minutes', 'wave-region': '1074', 'obs-plan': 'synoptic' },
    });
  });

  it.each(FILTER_FIELDS.filter((name) => name !== 'Wave region'))('runs on Enter in %s', async (name) => {
    const { fake } = await renderApp();
    await chooseProduct('ucomp', 'l2');
    await fireEvent.keyDown(textbox(name), { key: 'Enter' });
    await waitFor(() => expect(fake.callsTo('search:start')).toHaveLength(1));
  });

  it('runs on Enter in the Wave region select', async () => {
    const { fake } = await renderApp();
    await chooseProduct('ucomp', 'l2');
    await fireEvent.keyDown(select('Wave region'), { key: 'Enter' });
    await waitFor(() => expect(fake.callsTo('search:start')).toHaveLength(1));
  });

  it('does not send a search with a broken filter, shows why and focuses the field', async () => {
    const { fake } = await renderApp();
    await chooseProduct('kcor', 'pb');
    const every = textbox('Every');
    await fireEvent.input(every, { target: { value: 'sometimes' } });
    await fireEvent.keyDown(every, { key: 'Enter' });
    expect(messageUnder(every)).toMatch(/Every "sometimes"/);
    expect(document.activeElement).toBe(every);
    expect(fake.callsTo('search:start')).toHaveLength(0);
  });

  it('asks for an instrument before searching', async () => {
    const { fake } = await renderApp();
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Choose an instrument and a product first.');
    expect(document.activeElement).toBe(select('Instrument'));
    expect(fake.callsTo('search:start')).toHaveLength(0);
  });

  it("shows a failed search in the server's words and keeps the window usable", async () => {
    const { fake } = await renderApp();
    fake.fail('search:start', { kind: 'server', status: 400, message: 'invalid start-date: 2025-99-99' });
    await chooseProduct('kcor', 'pb');
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('invalid start-date: 2025-99-99');
    await fireEvent.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByText('invalid start-date: 2025-99-99')).toBeNull();
  });

  it('can stop waiting for a slow search', async () => {
    const { fake } = await renderApp();
    fake.handle('search:start', () => new Promise(() => {}));
    await chooseProduct('kcor', 'pb');
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText(/Searching kcor pb/);
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel search' }));
    expect(screen.queryByText(/Searching kcor pb/)).toBeNull();
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('results follow the query', () => {
  /** The line over results that no longer match the form, or null when they do. */
  function staleLine(): string | null {
    return (
      screen
        .queryByText(/^Results for /)
        ?.closest('[role="status"]')
        ?.textContent?.replace(/\s+/g, ' ')
        .trim() ?? null
    );
  }

  async function searchKcorDay(): Promise<ReturnType<typeof renderApp>> {
    const rendered = renderApp();
    await rendered;
    await chooseProduct('kcor', 'pb');
    await fireEvent.click(button('Search'));
    await screen.findByRole('grid', { name: 'Files found' });
    return rendered;
  }

  it('marks KCor results stale when the product becomes UCoMP l2: no Download all, no Save as campaign', async () => {
    await searchKcorDay();
    expect(button('Download all').disabled).toBe(false);
    expect(button('Save as campaign').disabled).toBe(false);
    expect(staleLine()).toBeNull();

    await chooseProduct('ucomp', 'l2');
    expect(staleLine()).toBe('Results for kcor pb, from 2025-03-24 UT, open-ended: search again');
    expect(button('Download all').disabled).toBe(true);
    expect(button('Download selected').disabled).toBe(true);
    expect(button('Save as campaign').disabled).toBe(true);
    expect(screen.getByRole('region', { name: 'Results' }).classList.contains('stale')).toBe(true);
  });

  it('makes the results current again when the form goes back to their query', async () => {
    await searchKcorDay();
    await chooseProduct('ucomp', 'l2');
    expect(staleLine()).not.toBeNull();
    await chooseProduct('kcor', 'pb');
    expect(staleLine()).toBeNull();
    expect(button('Download all').disabled).toBe(false);

    // A date typed differently but meaning the same day is the same query: the search's own normalisation decides.
    await typeInto('Start date', '2025-03-20');
    expect(staleLine()).toBe('Results for kcor pb, from 2025-03-24 UT, open-ended: search again');
    await typeInto('Start date', '2025-3-24');
    expect(staleLine()).toBeNull();
    expect(button('Save as campaign').disabled).toBe(false);
  });

  it('leaves the old results stale after a failed search for another span', async () => {
    const { fake } = await searchKcorDay();
    await typeInto('Start date', '2025-03-20');
    fake.fail('search:start', { kind: 'server', status: 500, message: 'The archive is being rebuilt.' });
    await fireEvent.click(button('Search'));
    await screen.findByText('The archive is being rebuilt.');
    expect(staleLine()).toBe('Results for kcor pb, from 2025-03-24 UT, open-ended: search again');
    expect(button('Download all').disabled).toBe(true);
    expect(button('Save as campaign').disabled).toBe(true);
  });

  it('searches again from the stale line (a button in the Tab order), which makes the results current', async () => {
    const { fake } = await searchKcorDay();
    await chooseProduct('ucomp', 'l2');
    const again = button('search again');
    expect(again.tabIndex).toBe(0);
    await fireEvent.click(again);
    await waitFor(() => expect(fake.callsTo('search:start')).toHaveLength(2));
    expect(fake.callsTo('search:start')[1]).toMatchObject({ instrument: 'ucomp', product: 'l2' });
    await waitFor(() => expect(staleLine()).toBeNull());
    expect(button('Download all').disabled).toBe(false);
    // The button went with the line: focus lands on what the search found, not on the page.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('grid', { name: 'Files found' })));
  });

  it('keeps the focus on "search again" when that search fails, the results still stale', async () => {
    const { fake } = await searchKcorDay();
    await chooseProduct('ucomp', 'l2');
    fake.fail('search:start', { kind: 'network', message: 'Cannot reach the service; check your network, then try again.' });
    const again = button('search again');
    again.focus();
    await fireEvent.click(again);
    await screen.findByText('Cannot reach the service; check your network, then try again.');
    expect(staleLine()).toBe('Results for kcor pb, from 2025-03-24 UT, open-ended: search again');
    expect(document.activeElement).toBe(button('search again'));
  });
});

describe('focus lands on the result of an action, never on the page', () => {
  /** Clicks a button the way a keyboard user presses it: focused first. */
  async function press(target: HTMLButtonElement): Promise<void> {
    target.focus();
    await fireEvent.click(target);
  }

  it('keeps Search and "search again" focusable while their search runs (a disabled button drops the focus)', async () => {
    const { fake } = await renderApp();
    await chooseProduct('kcor', 'pb');
    await press(button('Search'));
    await screen.findByRole('grid', { name: 'Files found' });
    const release = fake.hold('search:start');
    await press(button('Search'));
    await screen.findByText(/Searching kcor pb/);
    expect(button('Search').disabled).toBe(false);
    expect(document.activeElement).toBe(button('Search'));

    await chooseProduct('ucomp', 'l2');
    await press(button('search again'));
    expect(button('search again').disabled).toBe(false);
    expect(document.activeElement).toBe(button('search again'));
    release();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('grid', { name: 'Files found' })));
  });

  it('puts the focus on Search after Cancel search and after dismissing "Search failed"', async () => {
    const { fake } = await renderApp();
    await chooseProduct('kcor', 'pb');
    fake.handle('search:start', () => new Promise(() => {}));
    await press(button('Search'));
    await press(await screen.findByRole('button', { name: 'Cancel search' }));
    expect(document.activeElement).toBe(button('Search'));

    fake.fail('search:start', { kind: 'server', status: 500, message: 'The archive is being rebuilt.' });
    await press(button('Search'));
    await screen.findByText('The archive is being rebuilt.');
    await press(button('Dismiss message'));
    expect(document.activeElement).toBe(button('Search'));
  });

  it('puts the focus on Start date when a span picked on the timeline is undone', async () => {
    await renderApp();
    await chooseProduct('kcor', 'pb');
    await press(button('Search'));
    const slider = await screen.findByRole('slider', { name: 'Coverage timeline' });
    slider.focus();
    await fireEvent.keyDown(slider, { key: 'ArrowRight', shiftKey: true });
    await fireEvent.keyDown(slider, { key: 'Enter' });
    await press(button('Undo'));
    expect(document.activeElement).toBe(textbox('Start date'));
  });

  it('keeps Download all focusable while its files are queued, and a second press does not queue them twice', async () => {
    const { fake } = await renderApp({ session: { signedIn: true, email: 'ada@example.org', expiresAt: null } });
    await chooseProduct('kcor', 'pb');
    await press(button('Search'));
    await screen.findByRole('grid', { name: 'Files found' });
    const release = fake.hold('downloads:enqueue');
    await press(button('Download all'));
    await screen.findByText(/Queuing 40 files/);
    expect(button('Download all').disabled).toBe(false);
    expect(button('Download all').getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(button('Download all'));
    await fireEvent.click(button('Download all'));
    release();
    await screen.findByText(/40 files queued/);
    expect(fake.callsTo('downloads:enqueue')).toHaveLength(1);
    expect(document.activeElement).toBe(button('Download all'));
  });
});

describe('focus after the start-up error and a Download notice', () => {
  const UNREACHABLE = { kind: 'network' as const, message: 'Cannot reach the service; check your network, then try again.' };

  /** The window with the service unreachable until `reachable()` is called. */
  async function offline(): Promise<{ fake: FakeContract; reachable: () => void }> {
    const fake = new FakeContract();
    let up = false;
    fake.handle('catalog:instruments', () => {
      if (!up && !fake.settings.useDemoServer) throw new FakeFailure(UNREACHABLE);
      return INSTRUMENTS;
    });
    render(App, { props: { client: apiClientFrom(fake) } });
    await screen.findByText(UNREACHABLE.message);
    return { fake, reachable: () => (up = true) };
  }

  it('puts the focus on Instrument once Try again loads the instruments', async () => {
    const { reachable } = await offline();
    reachable();
    button('Try again').focus();
    await fireEvent.click(button('Try again'));
    await screen.findByRole('option', { name: 'COSMO K-Coronagraph (KCor)' });
    await waitFor(() => expect(document.activeElement).toBe(select('Instrument')));
  });

  it('puts the focus on Instrument once the demo server has loaded them', async () => {
    await offline();
    button('Use demo server').focus();
    await fireEvent.click(button('Use demo server'));
    await screen.findByRole('option', { name: 'COSMO K-Coronagraph (KCor)' });
    await waitFor(() => expect(document.activeElement).toBe(select('Instrument')));
  });

  it('puts the focus on Instrument when the start-up error is dismissed', async () => {
    await offline();
    button('Dismiss message').focus();
    await fireEvent.click(button('Dismiss message'));
    expect(document.activeElement).toBe(select('Instrument'));
  });

  it('puts the focus on the files found when the Download notice is dismissed', async () => {
    await renderApp({ session: { signedIn: true, email: 'ada@example.org', expiresAt: null } });
    await chooseProduct('kcor', 'pb');
    await fireEvent.click(button('Search'));
    await screen.findByRole('grid', { name: 'Files found' });
    await fireEvent.click(button('Download all'));
    await screen.findByText(/40 files queued/);
    button('Dismiss message').focus();
    await fireEvent.click(button('Dismiss message'));
    expect(document.activeElement).toBe(screen.getByRole('grid', { name: 'Files found' }));
  });
});
