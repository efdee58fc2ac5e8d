// The fake contract answers as the core does where the contract and the setting table say how: arguments are
// checked by the contract's own schemas, a setting out of its range is refused in the settings rules' words, and a
// new installation's settings are the table's defaults.
import { describe, expect, it } from 'vitest';
import { checkInvokeArguments } from '../../src-shared/contract/invoke-arguments';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import { FakeContract } from './fake-contract';

describe('the fake contract', () => {
  it('refuses arguments the contract refuses, with the contract’s sentence and the setting named', async () => {
    const fake = new FakeContract();
    const wrong = { existingFiles: 'replace' } as never;
    const expected = checkInvokeArguments('settings:update', wrong);
    expect(expected.ok).toBe(false);
    const answer = await fake.invoke('settings:update', wrong);
    expect(answer).toEqual({ ok: false, error: { kind: 'invalid-input', message: !expected.ok && expected.message, field: 'existingFiles' } });
    expect(await fake.invoke('settings:update', { pace: 3 } as never)).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
  });

  it('refuses a whole number out of the table’s range in the settings rules’ words, and keeps the table’s defaults', async () => {
    const fake = new FakeContract();
    const answer = await fake.invoke('settings:update', { retries: 21 });
    expect(answer).toEqual({ ok: false, error: { kind: 'invalid-input', message: 'Retries must be a whole number from 0 to 20.', field: 'retries' } });
    const { rememberSession: _fake, ...rest } = fake.settings;
    const { rememberSession: _table, ...defaults } = defaultSettings('/home/ada/mlso');
    expect(rest).toEqual(defaults);
  });
});
