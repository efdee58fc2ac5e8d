// Verify in the app while it hashes: the card counts the files hashed of the total from the core's progress events,
// and Cancel stops the verify, which then records nothing and shows neither a report nor a failure.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { FakeContract } from './fake-contract';
import { renderApp } from './render-app';

async function verifyingEclipse(): Promise<{ fake: FakeContract; release: () => void; eclipse: HTMLElement }> {
  const fake = new FakeContract();
  fake.campaigns.seed({ name: 'Eclipse', files: { onDisk: 10 } });
  let release!: () => void;
  fake.campaigns.verifyGate = new Promise((resolve) => (release = resolve));
  await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
  const eclipse = await screen.findByRole('listitem', { name: 'Eclipse' });
  await fireEvent.click(within(eclipse).getByRole('button', { name: 'Verify' }));
  return { fake, release, eclipse };
}

describe('verify progress and Cancel', () => {
  it('counts the files hashed of the total on the card, with a bar, until the report comes', async () => {
    const { fake, release, eclipse } = await verifyingEclipse();
    await within(eclipse).findByText('Verifying: computing the SHA-256 of every file on disk…');
    fake.emit('campaigns:verify-progress', { campaign: 'Eclipse', done: 3, total: 10 });
    await within(eclipse).findByText('Verifying: 3 of 10 files hashed…');
    expect(within(eclipse).getByRole('progressbar', { name: 'Verify progress' }).getAttribute('aria-valuenow')).toBe('30');
    // Another campaign's progress is not this card's.
    fake.emit('campaigns:verify-progress', { campaign: 'Other', done: 7, total: 8 });
    fake.emit('campaigns:verify-progress', { campaign: 'Eclipse', done: 10, total: 10 });
    await within(eclipse).findByText('Verifying: 10 of 10 files hashed…');
    release();
    await within(eclipse).findByRole('group', { name: 'Verify report' });
    expect(within(eclipse).queryByText(/Verifying/)).toBeNull();
    expect(within(eclipse).queryByRole('button', { name: 'Cancel verify' })).toBeNull();
  });

  it('Cancel stops the verify: no report, no failure, and Verify can be pressed again', async () => {
    const { fake, release, eclipse } = await verifyingEclipse();
    fake.emit('campaigns:verify-progress', { campaign: 'Eclipse', done: 4, total: 10 });
    await within(eclipse).findByText('Verifying: 4 of 10 files hashed…');
    expect((within(eclipse).getByRole('button', { name: 'Verify' }) as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(within(eclipse).getByRole('button', { name: 'Cancel verify' }));
    expect(fake.callsTo('campaigns:cancel-verify')).toEqual([{ name: 'Eclipse' }]);
    release();
    await waitFor(() => expect(within(eclipse).queryByText(/Verifying/)).toBeNull());
    within(eclipse).getByText('Verify cancelled: nothing was recorded.');
    expect(within(eclipse).queryByRole('group', { name: 'Verify report' })).toBeNull();
    expect(within(eclipse).queryByRole('alert')).toBeNull();
    expect((within(eclipse).getByRole('button', { name: 'Verify' }) as HTMLButtonElement).disabled).toBe(false);

    // The next verify starts from nothing: no count left over from the cancelled one.
    fake.campaigns.verifyGate = new Promise(() => undefined);
    await fireEvent.click(within(eclipse).getByRole('button', { name: 'Verify' }));
    await within(eclipse).findByText('Verifying: computing the SHA-256 of every file on disk…');
    expect(within(eclipse).queryByText('Verify cancelled: nothing was recorded.')).toBeNull();
  });
});
