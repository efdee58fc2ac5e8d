// The files the encrypted secrets are kept in: each its own small electron-store file beside the preferences, so
// the preferences (rewritten whole by the core) never carry them.
import Store from 'electron-store';
import type { EncryptedSlot } from './secret-vault';

/** A secret's file (beside the preferences) and the key its ciphertext is kept under. */
export interface SecretPlace {
  file: string;
  key: string;
}

export const SESSION_PLACE: SecretPlace = { file: 'session', key: 'encryptedSession' };
export const PROXY_PASSWORD_PLACE: SecretPlace = { file: 'proxy-password', key: 'encryptedPassword' };

export function electronSecretSlot(folder: string, place: SecretPlace): EncryptedSlot {
  const store = new Store<Record<string, string>>({
    cwd: folder,
    name: place.file,
    schema: { [place.key]: { type: 'string', contentEncoding: 'base64' } },
    // A damaged file only costs typing the secret again (a sign-in, the proxy password).
    clearInvalidConfig: true,
  });
  return {
    read: () => store.get(place.key),
    write: (ciphertextBase64) => store.set(place.key, ciphertextBase64),
    clear: () => store.delete(place.key),
  };
}
