// Sign-in in the top bar: good and unknown e-mails, sign out, the demo hint and the server in use.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { DEMO_EMAIL, REGISTRATION_URL } from './fake-contract';
import { renderApp } from './render-app';

function emailField(): HTMLInputElement {
  return screen.getByRole('textbox', { name: 'E-mail' }) as HTMLInputElement;
}

/** The words of the sign-in message, without its Dismiss button, spaces as a reader hears them. */
function messageText(alert: HTMLElement): string {
  const words = alert.querySelector('.callout-text')?.textContent ?? '';
  return words.replace(/\s+/g, ' ').trim();
}

describe('sign in', () => {
  it('signs in with a registered e-mail and then offers Sign out', async () => {
    const { fake } = await renderApp();
    await fireEvent.input(emailField(), { target: { value: 'ada@example.org' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('ada@example.org');
    expect(fake.callsTo('session:sign-in')).toEqual([{ email: 'ada@example.org' }]);
    expect(screen.queryByRole('textbox', { name: 'E-mail' })).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('textbox', { name: 'E-mail' });
    expect(fake.callsTo('session:sign-out')).toHaveLength(1);
  });

  it('says in one sentence, naming the registration site once as its link, what to do about an unknown e-mail', async () => {
    const { fake } = await renderApp();
    await fireEvent.input(emailField(), { target: { value: 'nobody@example.org' } });
    await fireEvent.submit(screen.getByRole('form', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    const text = messageText(alert);
    expect(text).toBe('nobody@example.org is not registered with the observatory: register it at registration.hao.ucar.edu, then sign in again.');
    expect(text.split('registration.hao.ucar.edu')).toHaveLength(2);
    const link = within(alert).getByRole('link', { name: 'registration.hao.ucar.edu' });
    expect(link.getAttribute('href')).toBe(REGISTRATION_URL);
    expect(emailField().getAttribute('aria-invalid')).toBe('true');

    // The link opens in the system browser; the window does not navigate.
    await fireEvent.click(link);
    expect(fake.callsTo('shell:open-external')).toEqual([{ url: REGISTRATION_URL }]);

    await fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss sign-in message' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names the e-mail to use when the server is the demo', async () => {
    await renderApp({ appInfo: { serverKind: 'demo' } });
    await fireEvent.input(emailField(), { target: { value: 'nobody@example.org' } });
    await fireEvent.submit(screen.getByRole('form', { name: 'Sign in' }));
    const text = messageText(await screen.findByRole('alert'));
    expect(text).toBe(
      `nobody@example.org is not registered on the demo server: sign in as ${DEMO_EMAIL} (accounts for the real service are made at registration.hao.ucar.edu).`,
    );
  });

  it('asks for an e-mail instead of sending an empty one', async () => {
    const { fake } = await renderApp();
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText(/Enter the e-mail address you registered/);
    expect(fake.callsTo('session:sign-in')).toHaveLength(0);
    expect(document.activeElement).toBe(emailField());
  });

  it('has a registration link beside the field', async () => {
    await renderApp();
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe(REGISTRATION_URL);
  });

  it('shows the signed-in state it starts with and follows session:changed events', async () => {
    const { fake } = await renderApp({ session: { signedIn: true, email: 'ada@example.org', expiresAt: null } });
    await screen.findByText('ada@example.org');
    fake.emit('session:changed', { signedIn: false, email: null, expiresAt: null });
    await screen.findByRole('textbox', { name: 'E-mail' });
  });

  it('in demo mode marks the server and offers the demo e-mail', async () => {
    await renderApp({ appInfo: { serverKind: 'demo', serverUrl: 'http://127.0.0.1:5199' } });
    const kind = await screen.findByText('Demo emulator');
    screen.getByText('synthetic data');
    expect(kind.parentElement?.getAttribute('title')).toBe('API calls go to http://127.0.0.1:5199');
    await fireEvent.click(screen.getByRole('button', { name: DEMO_EMAIL }));
    expect(emailField().value).toBe(DEMO_EMAIL);
  });

  it('names the real service and a custom server', async () => {
    const { unmount } = await renderApp();
    await screen.findByText('MLSO data service');
    screen.getByText('api.mlso.ucar.edu');
    unmount();
    await renderApp({ appInfo: { serverKind: 'custom', serverUrl: 'http://127.0.0.1:5000' } });
    await screen.findByText('Custom server');
  });

  it('fills the field with the last e-mail used', async () => {
    await renderApp({ settings: { lastEmail: 'ada@example.org' } });
    await waitFor(() => expect(emailField().value).toBe('ada@example.org'));
  });
});

describe('sign-in message', () => {
  it('closes with Escape', async () => {
    await renderApp();
    await fireEvent.input(emailField(), { target: { value: 'nobody@example.org' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('alert');
    await fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
