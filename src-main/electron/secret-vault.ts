// A secret (the remembered session cookie, the proxy password), encrypted with the system keychain (Electron's
// safeStorage) before it touches the disk. Where the keychain cannot protect it (no keychain, or Linux's
// "basic_text" fallback, which encrypts with a fixed, public password) nothing is written: the secret then lives
// in memory only and is asked for again next launch. Plain text is never stored.
import type { SafeStorage } from 'electron';
import type { SecretVault } from '../core/app/app-ports';

/** The asynchronous safeStorage calls (the synchronous ones are deprecated in Electron 45). */
export type Encryptor = Pick<SafeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>;

/** Where an encrypted secret is kept (a key of a small electron-store file in the app). */
export interface EncryptedSlot {
  read(): string | undefined;
  /** Stores base64 ciphertext; never called with anything else. */
  write(ciphertextBase64: string): void;
  clear(): void;
}

async function canProtectSecrets(encryptor: Encryptor, platform: NodeJS.Platform): Promise<boolean> {
  if (!(await encryptor.isAsyncEncryptionAvailable())) return false;
  return platform !== 'linux' || encryptor.getSelectedStorageBackend() !== 'basic_text';
}

export function safeStorageVault(slot: EncryptedSlot, encryptor: Encryptor, platform: NodeJS.Platform = process.platform): SecretVault {
  // Only ever the unprotected case: the secret kept for this run when it cannot be written safely.
  let inMemory: string | null = null;

  return {
    async load() {
      if (inMemory !== null) return inMemory;
      const stored = slot.read();
      if (!stored || !(await canProtectSecrets(encryptor, platform))) return null;
      try {
        const { result, shouldReEncrypt } = await encryptor.decryptStringAsync(Buffer.from(stored, 'base64'));
        if (shouldReEncrypt) slot.write((await encryptor.encryptStringAsync(result)).toString('base64'));
        return result;
      } catch {
        // Made with a key this machine no longer has (a new keychain, a copied profile): forget it.
        slot.clear();
        return null;
      }
    },
    async save(secret) {
      inMemory = null;
      if (secret === null) {
        slot.clear();
        return;
      }
      if (await canProtectSecrets(encryptor, platform)) {
        slot.write((await encryptor.encryptStringAsync(secret)).toString('base64'));
      } else {
        slot.clear();
        inMemory = secret;
      }
    },
  };
}
