// The remembered session: encrypted before it is stored, and never stored when it cannot be encrypted.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { electronSecretSlot, SESSION_PLACE } from '../../src-main/electron/secret-slot';
import { safeStorageVault, type EncryptedSlot } from '../../src-main/electron/secret-vault';
import { fake, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);
vi.mock('electron-store', async () => ({ default: (await import('./conf-backed-store')).ConfBackedStore }));

const SESSION = '{"cookies":[{"key":"session","value":"s3cr3t-cookie-value"}]}';

function memorySlot(): EncryptedSlot & { writes: string[]; value: string | undefined } {
  const slot = {
    writes: [] as string[],
    value: undefined as string | undefined,
    read: () => slot.value,
    write: (ciphertext: string) => {
      slot.writes.push(ciphertext);
      slot.value = ciphertext;
    },
    clear: () => {
      slot.value = undefined;
    },
  };
  return slot;
}

let folder: string;
beforeEach(async () => {
  resetFakeElectron();
  folder = await mkdtemp(path.join(tmpdir(), 'mlso-electron-vault-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the session vault', () => {
  it('stores only what safeStorage encrypted, and gets the session back', async () => {
    const slot = memorySlot();
    const vault = safeStorageVault(slot, fake.safeStorage, 'linux');
    await vault.save(SESSION);
    expect(fake.safeStorage.encryptStringAsync).toHaveBeenCalledWith(SESSION);
    expect(slot.writes).toHaveLength(1);
    expect(Buffer.from(slot.writes[0] ?? '', 'base64').toString()).not.toContain('s3cr3t');
    expect(slot.writes[0]).not.toContain('s3cr3t');
    await expect(safeStorageVault(slot, fake.safeStorage, 'linux').load()).resolves.toBe(SESSION);
  });

  it('never writes the file in plain text (through electron-store)', async () => {
    const vault = safeStorageVault(electronSecretSlot(folder, SESSION_PLACE), fake.safeStorage, 'win32');
    await vault.save(SESSION);
    const onDisk = await readFile(path.join(folder, 'session.json'), 'utf8');
    expect(onDisk).not.toContain('s3cr3t');
    expect(onDisk).toContain('encryptedSession');
    await expect(safeStorageVault(electronSecretSlot(folder, SESSION_PLACE), fake.safeStorage, 'win32').load()).resolves.toBe(SESSION);
  });

  it('keeps nothing on disk when encryption is unavailable: the session lives in memory only', async () => {
    const slot = memorySlot();
    slot.value = 'b2xkIGNpcGhlcnRleHQ='; // from an earlier run, when encryption still worked
    fake.safeStorage.isAsyncEncryptionAvailable.mockResolvedValue(false);
    const vault = safeStorageVault(slot, fake.safeStorage, 'darwin');
    await vault.save(SESSION);
    expect(slot.writes).toEqual([]);
    expect(slot.value).toBeUndefined();
    expect(fake.safeStorage.encryptStringAsync).not.toHaveBeenCalled();
    await expect(vault.load()).resolves.toBe(SESSION);
    await expect(safeStorageVault(slot, fake.safeStorage, 'darwin').load()).resolves.toBeNull();
  });

  it("treats Linux's basic_text backend (a fixed, public key) as no encryption", async () => {
    const slot = memorySlot();
    fake.safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
    await safeStorageVault(slot, fake.safeStorage, 'linux').save(SESSION);
    expect(slot.writes).toEqual([]);
    expect(fake.safeStorage.encryptStringAsync).not.toHaveBeenCalled();
  });

  it('forgets the stored session on sign-out', async () => {
    const slot = memorySlot();
    const vault = safeStorageVault(slot, fake.safeStorage, 'linux');
    await vault.save(SESSION);
    await vault.save(null);
    expect(slot.value).toBeUndefined();
    await expect(vault.load()).resolves.toBeNull();
  });

  it('forgets a session it can no longer decrypt', async () => {
    const slot = memorySlot();
    slot.value = Buffer.from('sealed with another key').toString('base64');
    fake.safeStorage.decryptStringAsync.mockRejectedValueOnce(new Error('Error while decrypting the ciphertext provided'));
    await expect(safeStorageVault(slot, fake.safeStorage, 'linux').load()).resolves.toBeNull();
    expect(slot.value).toBeUndefined();
  });

  it('re-encrypts when safeStorage says the key has changed', async () => {
    const slot = memorySlot();
    const vault = safeStorageVault(slot, fake.safeStorage, 'linux');
    await vault.save(SESSION);
    fake.safeStorage.decryptStringAsync.mockResolvedValueOnce({ result: SESSION, shouldReEncrypt: true });
    await expect(vault.load()).resolves.toBe(SESSION);
    expect(slot.writes).toHaveLength(2);
  });
});
