// When the service cannot be reached at start-up, Browse offers the bundled demo server: the button switches to it
// (the catalogue then loads from it) instead of only opening Settings.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import App from '../../src-renderer/shell/App.svelte';
import { apiClientFrom } from '../../src-renderer/lib/api';
import type { ErrorData } from '../../src-shared/errors';
import { FakeContract, FakeFailure, INSTRUMENTS } from './fake-contract';

const UNREACHABLE: ErrorData = {
  kind: 'network',
  message: 'Cannot reach http://api.mlso.ucar.edu. Check the address and your network connection, then try again.',
};

/** A fake whose real service cannot be reached; the demo server answers once it is switched on. */
function offline(): FakeContract {
  const fake = new FakeContract();
  fake.handle('catalog:instruments', () => {
    if (!fake.settings.useDemoServer) throw new FakeFailure(UNREACHABLE);
    return INSTRUMENTS;
  });
  render(App, { props: { client: apiClientFrom(fake) } });
  return fake;
}

describe('the demo server from the start-up error', () => {
  it('switches to the demo server and loads its instruments, staying on Browse', async () => {
    const fake = offline();
    await screen.findByText(UNREACHABLE.message);
    await fireEvent.click(screen.getByRole('button', { name: 'Use demo server' }));
    await screen.findByRole('option', { name: 'COSMO K-Coronagraph (KCor)' });
    expect(fake.callsTo('settings:update')).toEqual([{ useDemoServer: true }]);
    await screen.findByText('Demo emulator');
    expect(screen.queryByText(UNREACHABLE.message)).toBeNull();
    expect(screen.getByRole('button', { name: 'Browse' }).getAttribute('aria-current')).toBe('page');
    // The Settings form follows: its switch is on, with nothing left to save.
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect((screen.getByRole('switch', { name: /Use demo server/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says why when the demo server cannot start', async () => {
    const fake = offline();
    await screen.findByText(UNREACHABLE.message);
    fake.fail('settings:update', { kind: 'internal', message: 'The demo server could not start: no free port.' });
    await fireEvent.click(screen.getByRole('button', { name: 'Use demo server' }));
    await screen.findByText('The demo server could not start: no free port.');
    await waitFor(() => expect(screen.queryByText('Demo emulator')).toBeNull());
  });
});
