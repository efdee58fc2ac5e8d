// Focus after an action, against the fake contract: the pressed control's replacement in its row, Sign out after a
// sign-in, the new campaign's card after Create campaign; never the page's <body>. (Chromium's own timing, e.g.
// Sync and Verify and the quick look's Save PNG, is walked in test/e2e/focus.e2e.test.ts.)
import { tick } from 'svelte';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { FakeContract, makeJob } from './fake-contract';
import { renderApp } from './render-app';

const A = '20250324_210304_kcor_l2_pb.fts';
const B = '20250324_210319_kcor_l2_pb.fts';

/** A person's press: the control takes the focus, then the click. */
async function press(button: HTMLElement): Promise<void> {
  button.focus();
  await fireEvent.click(button);
}

async function openDownloads(): Promise<{ fake: FakeContract; table: HTMLElement }> {
  const fake = new FakeContract({ jobs: [makeJob(1, A, 'active', { bytesReceived: 1_000, speed: 1_000 }), makeJob(2, B, 'queued')] });
  await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
  return { fake, table: await screen.findByRole('table', { name: 'Download queue' }) };
}

describe('the focus after an action', () => {
  it("goes to the control that takes the place of a row's Pause, Resume and Cancel", async () => {
    const { table } = await openDownloads();
    await press(within(table).getByRole('button', { name: `Pause ${A}` }));
    const resume = await within(table).findByRole('button', { name: `Resume ${A}` });
    await waitFor(() => expect(document.activeElement).toBe(resume));

    await press(resume);
    const pause = await within(table).findByRole('button', { name: `Pause ${A}` });
    await waitFor(() => expect(document.activeElement).toBe(pause));

    await press(within(table).getByRole('button', { name: `Cancel ${A}` }));
    const retry = await within(table).findByRole('button', { name: `Retry ${A}` });
    await waitFor(() => expect(document.activeElement).toBe(retry));
  });

  it('goes to Sign out after a sign-in replaced the form', async () => {
    await renderApp();
    await fireEvent.input(screen.getByRole('textbox', { name: 'E-mail' }), { target: { value: 'ada@example.org' } });
    await press(screen.getByRole('button', { name: 'Sign in' }));
    const signOut = await screen.findByRole('button', { name: 'Sign out' });
    await waitFor(() => expect(document.activeElement).toBe(signOut));
  });

  it("goes to the new campaign's name after Create campaign", async () => {
    await renderApp();
    await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'New campaign' }));
    await fireEvent.input(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Season' } });
    await press(screen.getByRole('button', { name: 'Create campaign' }));
    const card = await screen.findByRole('listitem', { name: 'Season' });
    const name = within(card).getByRole('heading', { name: 'Season' });
    await waitFor(() => expect(document.activeElement).toBe(name));
  });

  it('leaves the focus where the person put it: a click beside the controls is not undone', async () => {
    const { table } = await openDownloads();
    const pause = within(table).getByRole('button', { name: `Pause ${A}` });
    pause.focus();
    // A click on the page's background: the focus goes to <body> before the control is pressed by the pointer.
    pause.blur();
    await tick();
    await fireEvent.click(pause);
    await within(table).findByRole('button', { name: `Resume ${A}` });
    expect(document.activeElement).toBe(document.body);
  });
});
