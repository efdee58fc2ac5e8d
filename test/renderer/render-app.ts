// Renders the whole window against a FakeContract and waits for its first loads.
import { render, screen } from '@testing-library/svelte';
import App from '../../src-renderer/shell/App.svelte';
import { apiClientFrom } from '../../src-renderer/lib/api';
import { FakeContract, type FakeOptions } from './fake-contract';

export async function renderApp(fakeOrOptions: FakeContract | FakeOptions = {}) {
  const fake = fakeOrOptions instanceof FakeContract ? fakeOrOptions : new FakeContract(fakeOrOptions);
  const view = render(App, { props: { client: apiClientFrom(fake) } });
  // The instrument list arriving means the start-up loads have been answered.
  await screen.findByRole('option', { name: 'COSMO K-Coronagraph (KCor)' });
  return { fake, ...view };
}
