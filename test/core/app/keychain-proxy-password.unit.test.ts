// The proxy password kept in the vault, never in the preferences: written apart, read back whole, moved out of a
// preferences file an older version wrote, forgotten with the proxy, and the preferences saved even when the vault
// fails.
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../src-shared/settings/settings-types';
import { defaultSettings } from '../../../src-shared/settings/default-settings';
import type { SecretVault, SettingsPersistence } from '../../../src-main/core/app/app-ports';
import { keepProxyPasswordIn } from '../../../src-main/core/app/keychain-proxy-password';
import { memorySettings, memoryVault } from '../../helpers/memory-ports';

const PROXY = 'http://lab:Pr0xy%21S3cret@proxy.example.org:3128';

function memoryStore(proxy: string): SettingsPersistence & { saved: Settings } {
  return memorySettings({ ...defaultSettings('/tmp/downloads'), proxy });
}

/** A vault whose keychain refuses every secret. */
function lockedVault(): SecretVault {
  return {
    ...memoryVault(),
    save: async () => {
      throw new Error('the keychain is locked');
    },
  };
}

describe('the proxy password kept in the keychain', () => {
  it('writes the preferences without it, the vault with it, and reads the whole address back, also at the next start', async () => {
    const store = memoryStore('');
    const vault = memoryVault();
    const kept = await keepProxyPasswordIn(vault, store, () => {});
    kept.write({ ...kept.read(), proxy: PROXY });
    await kept.saved();
    expect(store.saved.proxy).toBe('http://lab@proxy.example.org:3128');
    expect(JSON.stringify(store.saved)).not.toContain('S3cret');
    expect(vault.value).toBe('Pr0xy%21S3cret');
    expect(kept.read().proxy).toBe(PROXY);
    const nextStart = await keepProxyPasswordIn(vault, store, () => {});
    expect(nextStart.read().proxy).toBe(PROXY);
  });

  it('moves a password an older version wrote in the preferences into the vault at start', async () => {
    const store = memoryStore(PROXY);
    const vault = memoryVault();
    const kept = await keepProxyPasswordIn(vault, store, () => {});
    await kept.saved();
    expect(store.saved.proxy).toBe('http://lab@proxy.example.org:3128');
    expect(vault.value).toBe('Pr0xy%21S3cret');
    expect(kept.read().proxy).toBe(PROXY);
  });

  it('forgets the password with the proxy, and puts no old password on a new address', async () => {
    const store = memoryStore('');
    const vault = memoryVault();
    const kept = await keepProxyPasswordIn(vault, store, () => {});
    kept.write({ ...kept.read(), proxy: PROXY });
    kept.write({ ...kept.read(), proxy: 'direct' });
    await kept.saved();
    expect(vault.value).toBeNull();
    kept.write({ ...kept.read(), proxy: 'http://lab@other.example.org:8080' });
    await kept.saved();
    expect(kept.read().proxy).toBe('http://lab@other.example.org:8080');
  });

  it('saves the preferences and keeps the password for the run when the vault cannot take it, saying so once', async () => {
    const store = memoryStore('');
    const warnings: string[] = [];
    const kept = await keepProxyPasswordIn(lockedVault(), store, (message) => warnings.push(message));
    kept.write({ ...kept.read(), proxy: PROXY });
    await kept.saved();
    expect(store.saved.proxy).toBe('http://lab@proxy.example.org:3128');
    expect(kept.read().proxy).toBe(PROXY);
    expect(warnings).toEqual(['Could not keep the proxy password in the system keychain: Error: the keychain is locked']);
  });
});
